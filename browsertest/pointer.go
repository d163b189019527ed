package browsertest

import (
	"context"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// A player's hands: the mouse, fingers and the points they go to. A point is a JavaScript
// expression that gives [x, y] in viewport pixels, computed when the hand moves.

// Centre is the viewport point of the middle of the element sel, scrolled into view.
func Centre(sel string) string {
	return fmt.Sprintf(`(() => { const c = document.querySelector(%q); c.scrollIntoView({block: 'center'});
		const r = c.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`, sel)
}

// Mouse moves the pointer to a point, and clicks there when asked, with Shift held when
// asked.
func (p *Page) Mouse(point string, click, shift bool) {
	p.T.Helper()
	xy := Eval[[]float64](p, point)
	var opts []chromedp.MouseOption
	if shift {
		opts = append(opts, chromedp.ButtonModifiers(chromedp.ModifierShift))
	}
	p.Do(chromedp.MouseEvent(chromedp.MouseMoved, xy[0], xy[1], opts...))
	if click {
		p.Do(chromedp.MouseClickXY(xy[0], xy[1], opts...))
	}
}

// MouseDrag presses the mouse at one point, moves it in steps to another, and lets go.
func (p *Page) MouseDrag(from, to string) {
	p.T.Helper()
	a, b := Eval[[]float64](p, from), Eval[[]float64](p, to)
	p.Do(chromedp.MouseEvent(chromedp.MouseMoved, a[0], a[1]))
	p.Do(chromedp.MouseEvent(chromedp.MousePressed, a[0], a[1], chromedp.ButtonLeft, chromedp.ClickCount(1)))
	const steps = 10
	for s := 1; s <= steps; s++ {
		k := float64(s) / steps
		p.Do(chromedp.MouseEvent(chromedp.MouseMoved, a[0]+(b[0]-a[0])*k, a[1]+(b[1]-a[1])*k, chromedp.ButtonLeft))
	}
	p.Do(chromedp.MouseEvent(chromedp.MouseReleased, b[0], b[1], chromedp.ButtonLeft, chromedp.ClickCount(1)))
}

// Touch sends one touch event with its fingers at the viewport points given (none for
// the end of a touch).
func (p *Page) Touch(kind input.DispatchTouchEventType, fingers ...[2]float64) {
	p.T.Helper()
	points := []*input.TouchPoint{}
	for i, f := range fingers {
		id, r := float64(i), 1.0
		points = append(points, &input.TouchPoint{X: f[0], Y: f[1], ID: &id, RadiusX: &r, RadiusY: &r, Force: &r})
	}
	p.Do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: kind, TouchPoints: points})
		return err
	}))
}

// Swipe moves fingers from their first points to their second in steps, as a hand does.
func (p *Page) Swipe(from, to [][2]float64) {
	p.T.Helper()
	p.Touch(input.DispatchTouchEventTypeTouchStart, from...)
	const steps = 8
	for s := 1; s <= steps; s++ {
		at := make([][2]float64, len(from))
		for i := range from {
			k := float64(s) / steps
			at[i] = [2]float64{from[i][0] + (to[i][0]-from[i][0])*k, from[i][1] + (to[i][1]-from[i][1])*k}
		}
		p.Touch(input.DispatchTouchEventTypeTouchMove, at...)
	}
	p.Touch(input.DispatchTouchEventTypeTouchEnd)
	// A hand lifts before it taps again: chromium takes a tap a few milliseconds after a
	// drag as part of the drag's gesture, and no click follows it.
	time.Sleep(400 * time.Millisecond)
}

// Tap taps a point.
func (p *Page) Tap(point string) {
	p.T.Helper()
	xy := Eval[[]float64](p, point)
	p.Do(chromedp.TapXY(xy[0], xy[1]))
}

// TapOn waits for the element sel and taps its middle, scrolled into view.
func (p *Page) TapOn(sel string) {
	p.T.Helper()
	p.Wait(sel, fmt.Sprintf("document.querySelector(%q)", sel))
	p.Tap(Centre(sel))
}
