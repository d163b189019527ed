package http_test

import (
	"strings"
	"testing"

	"github.com/volley-wargames/volley/browsertest"
)

// TestPageWarStrike drives a WarStrike battle on the page, which knows no rule system:
// the sniper's area-terrain sight distance is drawn as a circle; pointing at one raider
// aims at the raiders' unit and draws a line of sight from the firing model to each of
// its models, green where it sees and red with the reason where not; clicking declares the
// unit, and the shot is rolled as the unit's action (Open Fire: it did not move).
func TestPageWarStrike(t *testing.T) {
	p := newBrowserPage(t)
	p.create(p.pickExample("warstrike/demo.yaml"))
	p.Choose("#firer", "sniper")
	p.Wait("the sight circle", `document.querySelector('#board polygon.overlay.sight')`)
	if got := p.Text(`#board polygon.overlay.sight title`); !strings.Contains(got, `sees into area terrain to 24"`) {
		t.Errorf("the sight circle reads %q", got)
	}
	if n := eval[int](p, `document.querySelectorAll('#board polygon.overlay.sight').length`); n != 1 {
		t.Errorf("%d sight circles for the one-model unit, want 1", n)
	}

	// Pointing at one raider: three lines, one per raider, the far one red with its reason.
	p.Mouse(browsertest.UnitPoint("raiders-1"), false, false)
	p.Wait("the sight lines", `document.querySelectorAll('#board line.sight-line').length === 3 && document.querySelector('#los-line')`)
	lines := eval[[]string](p, `[...document.querySelectorAll('#board line.sight-line')].map(l => l.getAttribute('class') + ' | ' + l.textContent)`)
	blocked := 0
	for _, l := range lines {
		if strings.Contains(l, "blocked") {
			blocked++
			if !strings.Contains(l, `raiders-2: ruin: 24.6" > 24" sight distance`) {
				t.Errorf("the blocked line reads %q", l)
			}
		}
	}
	if blocked != 1 {
		t.Errorf("%d blocked lines, want raiders-2's alone: %q", blocked, lines)
	}
	if got := p.Text("#aim-summary"); !strings.HasPrefix(got, "2 of 3 lines of sight can fire") {
		t.Errorf("the aim's summary reads %q", got)
	}
	p.Screenshot("warstrike-sight-lines")

	// Clicking declares the unit: every raider is marked. The action is not stated with
	// the shot (edition 4 chooses it with a move): a unit that did not move shoots as
	// Open Fire.
	p.Mouse(browsertest.UnitPoint("raiders-1"), true, false)
	p.Wait("the raiders as the target", `document.querySelectorAll('#board .decl .marker').length === 3`)
	if n := eval[int](p, `document.querySelectorAll('select[data-field="as"]').length`); n != 0 {
		t.Errorf("%d selects of the action with the shot, want none: it is chosen with a move", n)
	}
	p.Wait("the histogram", `document.querySelector('#hist-raiders')`)
	p.Click("#shoot")
	p.Wait("the shot in the log", `document.querySelectorAll('#log tr.die').length > 0`)
	// The units table shows the action the view names by its level.
	p.Wait("the new state", `(document.querySelector('#units-table tr[data-unit="watchers"]') || {}).textContent?.includes('Open Fire')`)
	if errs := eval[string](p, `[...document.querySelectorAll('.error:not([hidden])')].map(e => e.textContent).join(' | ')`); errs != "" {
		t.Errorf("errors on the page: %s", errs)
	}
	p.Screenshot("warstrike-fired")
}
