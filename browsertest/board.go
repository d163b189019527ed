package browsertest

import (
	"fmt"
	"strings"
)

// The page's board (docs/page.md): an SVG #board that draws each unit as a group
// data-unit="id" and says its scale (data-scale, pixels a unit of length) and the table's
// top left corner (data-origin, "x,y"); and the log, an entry a <li class="entry">. What
// a system draws there is its own; these are the places every system's board shares.

// UnitPoint is the viewport point of the middle of a unit's round base, scrolled into view.
func UnitPoint(id string) string { return Centre(fmt.Sprintf("#board [data-unit=%q] circle", id)) }

// TablePoint is the viewport point of a point of the table, in the scenario's unit. It
// does not scroll: a drag's end is computed after its start scrolled into view.
func TablePoint(x, y float64) string {
	return fmt.Sprintf(`(() => { const b = document.getElementById('board');
		const k = Number(b.dataset.scale), [x0, y1] = b.dataset.origin.split(',').map(Number);
		const p = b.createSVGPoint(); p.x = (%g - x0) * k; p.y = (y1 - %g) * k;
		const q = p.matrixTransform(b.getScreenCTM()); return [q.x, q.y]; })()`, x, y)
}

// LogCount waits until the page's log shows n actions.
func (p *Page) LogCount(n int) {
	p.T.Helper()
	p.Wait(fmt.Sprintf("%d actions in the log", n), fmt.Sprintf(`document.querySelectorAll('#log li.entry').length === %d`, n))
}

// UnitCentre is the viewport point of the middle of a unit as the board draws it (its
// group, whatever its bases' shapes), scrolled into view.
func UnitCentre(id string) string { return Centre(fmt.Sprintf("#board .unit[data-unit=%q]", id)) }

// DragRefused drags with the mouse from one point to another and waits for the move's
// ghost to be refused; the reason the page gives must name want.
func (p *Page) DragRefused(from, to, want string) {
	p.T.Helper()
	p.MouseDrag(from, to)
	p.Wait("the refusal", `document.querySelector('#ghost-base.illegal') && document.querySelector('#move-reason')`)
	if got := p.Text("#move-reason"); !strings.Contains(got, want) {
		p.T.Errorf("the refusal reads %q, want %q in it", got, want)
	}
}
