package http_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/volley-wargames/volley/browsertest"
)

// viewBox is the board's viewBox: x, y, width, height.
func (p *browserPage) viewBox() []float64 {
	return eval[[]float64](p, `document.querySelector('#board').getAttribute('viewBox').split(' ').map(Number)`)
}

// boardPoint is a viewport point inside the board, at fractions of its width and height.
func boardPoint(fx, fy float64) string {
	return fmt.Sprintf(`(() => { const b = document.querySelector('#board'); b.scrollIntoView({block: 'center'});
		const r = b.getBoundingClientRect(); return [r.x + r.width * %g, r.y + r.height * %g]; })()`, fx, fy)
}

// TestPagePhone plays a turn on a phone's screen, 390 × 844, by touch alone: two fingers
// pinch the table larger, one drags it, and a drag chooses nothing; a tap chooses the
// firing unit and another an enemy, which shows its aim (a tap is not a hover); a tap
// fires, and a tap ends the turn. Every control the turn needs is a 44-pixel target.
func TestPagePhone(t *testing.T) {
	p := newBrowserPage(t)
	p.Do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
	p.create(p.pickExample("warfare/demo.yaml"))
	p.settle()

	// Pinch: two fingers move apart over the table, which grows about the fingers.
	before := p.viewBox()
	mid := eval[[]float64](p, boardPoint(0.5, 0.5))
	p.Swipe([][2]float64{{mid[0] - 30, mid[1]}, {mid[0] + 30, mid[1]}}, [][2]float64{{mid[0] - 90, mid[1]}, {mid[0] + 90, mid[1]}})
	pinched := p.viewBox()
	if zoom := before[2] / pinched[2]; zoom < 2.5 || zoom > 3.5 {
		t.Errorf("fingers 60 px apart moved to 180: the table zoomed %.2f×, want 3× (viewBox %v → %v)", zoom, before, pinched)
	}
	// Drag: one finger 100 px left moves the view right by 100 px of the table.
	upp := pinched[2] / eval[float64](p, `document.querySelector('#board').getBoundingClientRect().width`)
	p.Swipe([][2]float64{{mid[0] + 50, mid[1]}}, [][2]float64{{mid[0] - 50, mid[1]}})
	dragged := p.viewBox()
	if dx := dragged[0] - pinched[0]; dx < 90*upp || dx > 110*upp {
		t.Errorf("a 100 px drag moved the view %.1f units, want %.1f", dx, 100*upp)
	}
	if got := p.Text("#firer"); eval[string](p, `document.querySelector('#firer').value`) != "" {
		t.Errorf("a drag chose a firer: %q", got)
	}
	p.Screenshot("phone-zoomed")

	// Fit to units, by a tap on its button.
	p.TapOn("#fit-units")
	p.Wait("the units in view", unitsOutOfView+` === ''`)

	// The turn: tap the longbowmen, tap the knights, tap Fire, tap End turn.
	p.Tap(browsertest.UnitPoint("longbowmen"))
	p.Wait("the longbowmen chosen", `document.querySelector('#firer').value === 'longbowmen'`)
	p.Tap(browsertest.UnitPoint("knights"))
	p.Wait("the knights' aim, by a tap", `document.querySelector('#aim-status')?.textContent === 'Line of sight clear'`)
	p.Wait("the knights declared", `document.querySelector('#hist-knights')`)
	if got := eval[string](p, smallTargets); got != "" {
		t.Errorf("tap targets under 44 px: %s", got)
	}
	p.Screenshot("phone-declared")
	before2 := p.logEntries()
	p.TapOn("#shoot")
	p.Wait("the fire in the log", fmt.Sprintf(`document.querySelectorAll('#log li.entry').length === %d`, before2+1))
	p.TapOn("#end-phase")
	p.Wait("the French turn", `document.querySelector('#turn')?.textContent.startsWith("French's turn")`)
	if errs := p.shownErrors(); errs != "" {
		t.Errorf("errors on the page: %s", errs)
	}
	if w := eval[int](p, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the page is %d px wide on a 390 px screen", w)
	}
	time.Sleep(100 * time.Millisecond)
	p.Screenshot("phone-turn-played")
	if !strings.Contains(p.Text("#log"), "longbowmen") {
		t.Errorf("the log lacks the longbowmen's fire: %q", p.Text("#log"))
	}
}
