package http_test

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/volley-wargames/volley/browsertest"
)

// TestPagePhoneAtTheTable: a phone beside the table, 390 × 844, by touch. The board is
// on the first screen; every unit answers a finger within 44 px, at the fitted zoom and
// zoomed out; no text speaks of keys a phone lacks. A finger drags a Sabre: its ghost
// rides clear above the fingertip, and while the finger is down the rules' verdict and
// Commit stay on the screen; a tap on Commit sends the move.
func TestPagePhoneAtTheTable(t *testing.T) {
	exe, base := chromiumAndServer(t)
	id, tokens, n0 := sabresBegun(t, base)
	p := newBrowserAt(t, exe, base)
	p.Do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
	p.open(id, "UCM="+tokens["UCM"])
	if eval[bool](p, `document.querySelector('#move-deploy')?.checked`) {
		p.TapOn("#move-deploy-row")
		p.Wait("the deployment off", `!document.querySelector('#move-deploy').checked`)
	}
	eval[bool](p, `(scrollTo(0, 0), true)`)
	board := eval[[]float64](p, `(() => { const r = document.querySelector('#board').getBoundingClientRect(); return [r.top, r.bottom]; })()`)
	if board[0] > 400 || board[1] > 844 {
		t.Errorf("the board lies from %v to %v px down a 844 px screen", board[0], board[1])
	}
	small := `[...document.querySelectorAll('#board .hit[data-unit]')].filter(c => { const r = c.getBoundingClientRect(); return r.width < 43.5 || r.height < 43.5; }).map(c => c.dataset.unit).join(' ')`
	if got := eval[string](p, small); got != "" {
		t.Errorf("units under 44 px to a finger: %s", got)
	}
	for range 3 {
		p.TapOn("#zoom-out")
	}
	p.TapOn("#fit-all")
	if got := eval[string](p, small); got != "" {
		t.Errorf("units under 44 px to a finger, the whole table shown: %s", got)
	}
	read := eval[string](p, `document.querySelector('main').innerText`)
	for _, key := range []string{"arrow", "Enter", "Escape", "Tab to", "press M", "Shift"} {
		if strings.Contains(read, key) {
			t.Errorf("a phone's page speaks of %q", key)
		}
	}
	p.Screenshot("phone-table")

	// A finger drags sabre-2 and holds it there: 50 px down and 20 right, so that the
	// ghost, risen as far above the finger as the finger went, ends a little right of
	// where the Sabre stands.
	p.TapOn("#fit-units")
	eval[bool](p, `(scrollTo(0, 0), true)`)
	from := eval[[]float64](p, browsertest.UnitPoint("sabre-2"))
	to := [2]float64{from[0] + 20, from[1] + 50}
	p.Touch(input.DispatchTouchEventTypeTouchStart, [2]float64{from[0], from[1]})
	for s := 1; s <= 8; s++ {
		k := float64(s) / 8
		p.Touch(input.DispatchTouchEventTypeTouchMove, [2]float64{from[0] + (to[0]-from[0])*k, from[1] + (to[1]-from[1])*k})
	}
	p.Wait("the ghost, judged", `document.querySelector('#ghost-base.legal, #ghost-base.illegal')`)
	ghost := eval[[]float64](p, `(() => { const r = document.querySelector('#ghost-base .ghost-shape').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2, r.height]; })()`)
	if ghost[1] > to[1]-44 {
		t.Errorf("the ghost's centre is %v px above the finger; a fingertip hides 44", to[1]-ghost[1])
	}
	dock := eval[[]float64](p, `(() => { const d = document.querySelector('#move-dock'), c = document.querySelector('#dock-commit').getBoundingClientRect(); return [d.hidden ? 0 : 1, c.top, c.bottom, c.height]; })()`)
	if dock[0] != 1 || dock[1] < 0 || dock[2] > 844 || dock[3] < 44 {
		t.Errorf("while dragging, Commit lies at %v (shown, top, bottom, height) on a 844 px screen", dock)
	}
	if got := p.Text("#dock-status"); got == "" {
		t.Error("while dragging, the dock gives no verdict")
	}
	p.Screenshot("phone-dragging")
	p.Touch(input.DispatchTouchEventTypeTouchEnd)
	p.Wait("the ghost, legal", ghostLegal)
	p.TapOn("#dock-commit")
	p.LogCount(n0 + 1)
	if got := loggedActions(p, id)[n0]; got["unit"] != "sabre-2" {
		t.Errorf("the phone sent %v", got)
	}
}
