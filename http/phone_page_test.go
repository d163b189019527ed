package http_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// touch sends one touch event with its fingers at the viewport points given (none for
// the end of a touch).
func (p *browserPage) touch(kind input.DispatchTouchEventType, fingers ...[2]float64) {
	p.t.Helper()
	points := []*input.TouchPoint{}
	for i, f := range fingers {
		id, r := float64(i), 1.0
		points = append(points, &input.TouchPoint{X: f[0], Y: f[1], ID: &id, RadiusX: &r, RadiusY: &r, Force: &r})
	}
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: kind, TouchPoints: points})
		return err
	}))
}

// drag moves fingers from their first points to their second in steps, as a hand does.
func (p *browserPage) drag(from, to [][2]float64) {
	p.t.Helper()
	p.touch(input.DispatchTouchEventTypeTouchStart, from...)
	const steps = 8
	for s := 1; s <= steps; s++ {
		at := make([][2]float64, len(from))
		for i := range from {
			k := float64(s) / steps
			at[i] = [2]float64{from[i][0] + (to[i][0]-from[i][0])*k, from[i][1] + (to[i][1]-from[i][1])*k}
		}
		p.touch(input.DispatchTouchEventTypeTouchMove, at...)
	}
	p.touch(input.DispatchTouchEventTypeTouchEnd)
	// A hand lifts before it taps again: chromium takes a tap a few milliseconds after a
	// drag as part of the drag's gesture, and no click follows it.
	time.Sleep(400 * time.Millisecond)
}

// tap taps the viewport point the expression gives ([x, y]).
func (p *browserPage) tap(pointExpr string) {
	p.t.Helper()
	xy := eval[[]float64](p, pointExpr)
	p.do(chromedp.TapXY(xy[0], xy[1]))
}

// tapOn taps the middle of the element sel, scrolled into view.
func (p *browserPage) tapOn(sel string) {
	p.t.Helper()
	p.wait(sel, fmt.Sprintf("document.querySelector(%q)", sel))
	p.tap(fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.scrollIntoView({block: 'center'});
		const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`, sel))
}

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
	p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
	p.create(p.pickExample("warfare/demo.yaml"))
	p.settle()

	// Pinch: two fingers move apart over the table, which grows about the fingers.
	before := p.viewBox()
	mid := eval[[]float64](p, boardPoint(0.5, 0.5))
	p.drag([][2]float64{{mid[0] - 30, mid[1]}, {mid[0] + 30, mid[1]}}, [][2]float64{{mid[0] - 90, mid[1]}, {mid[0] + 90, mid[1]}})
	pinched := p.viewBox()
	if zoom := before[2] / pinched[2]; zoom < 2.5 || zoom > 3.5 {
		t.Errorf("fingers 60 px apart moved to 180: the table zoomed %.2f×, want 3× (viewBox %v → %v)", zoom, before, pinched)
	}
	// Drag: one finger 100 px left moves the view right by 100 px of the table.
	upp := pinched[2] / eval[float64](p, `document.querySelector('#board').getBoundingClientRect().width`)
	p.drag([][2]float64{{mid[0] + 50, mid[1]}}, [][2]float64{{mid[0] - 50, mid[1]}})
	dragged := p.viewBox()
	if dx := dragged[0] - pinched[0]; dx < 90*upp || dx > 110*upp {
		t.Errorf("a 100 px drag moved the view %.1f units, want %.1f", dx, 100*upp)
	}
	if got := p.text("#firer"); eval[string](p, `document.querySelector('#firer').value`) != "" {
		t.Errorf("a drag chose a firer: %q", got)
	}
	p.screenshot("phone-zoomed")

	// Fit to units, by a tap on its button.
	p.tapOn("#fit-units")
	p.wait("the units in view", unitsOutOfView+` === ''`)

	// The turn: tap the longbowmen, tap the knights, tap Fire, tap End turn.
	p.tap(unitPoint("longbowmen"))
	p.wait("the longbowmen chosen", `document.querySelector('#firer').value === 'longbowmen'`)
	p.tap(unitPoint("knights"))
	p.wait("the knights' aim, by a tap", `document.querySelector('#aim-status')?.textContent === 'Line of sight clear'`)
	p.wait("the knights declared", `document.querySelector('#hist-knights')`)
	if got := eval[string](p, smallTargets); got != "" {
		t.Errorf("tap targets under 44 px: %s", got)
	}
	p.screenshot("phone-declared")
	before2 := p.logEntries()
	p.tapOn("#shoot")
	p.wait("the fire in the log", fmt.Sprintf(`document.querySelectorAll('#log li.entry').length === %d`, before2+1))
	p.tapOn("#end-phase")
	p.wait("the French turn", `document.querySelector('#turn')?.textContent.startsWith("French's turn")`)
	if errs := p.shownErrors(); errs != "" {
		t.Errorf("errors on the page: %s", errs)
	}
	if w := eval[int](p, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the page is %d px wide on a 390 px screen", w)
	}
	time.Sleep(100 * time.Millisecond)
	p.screenshot("phone-turn-played")
	if !strings.Contains(p.text("#log"), "longbowmen") {
		t.Errorf("the log lacks the longbowmen's fire: %q", p.text("#log"))
	}
}
