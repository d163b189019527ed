package http_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/volley-wargames/volley/browsertest"
)

// TestPageUnitsTable reads the Warfare demo's table of units, with the spearmen destroyed:
// the view's columns, each value as the view says it reads, the side's colour on each row,
// the destroyed unit struck through; a heading sorts, again the other way; pointing at a
// row highlights its unit on the board, and pointing at a unit highlights its row.
func TestPageUnitsTable(t *testing.T) {
	p := newBrowserPage(t)
	demo := example(t, "warfare/demo.yaml")
	src := strings.Replace(string(demo), "traits: [infantry], at: [4, 5]}", "traits: [infantry], casualties: 18, at: [4, 5]}", 1)
	if src == string(demo) {
		t.Fatal("demo.yaml no longer places the spearmen as this test expects")
	}
	p.create(func() { p.Do(chromedp.SetValue(chromedp.CSS("#scenario"), src)) })
	p.Wait("the table of units", `document.querySelectorAll('#units-table tbody tr').length === 3`)

	headings := eval[[]string](p, `[...document.querySelectorAll('#units-table thead th')].map(th => th.textContent)`)
	if want := []string{"unit", "side", "figures", "stands", "casualties", "ammunition"}; !reflect.DeepEqual(headings, want) {
		t.Errorf("headings %v, want %v", headings, want)
	}
	row := func(id string) []string {
		return eval[[]string](p, fmt.Sprintf(`[...document.querySelectorAll('#units-table tr[data-unit=%q] > *')].map(c => c.textContent)`, id))
	}
	if got, want := row("knights"), []string{"French knights knights", "French", "12/12", "4", "0", "ok"}; !reflect.DeepEqual(got, want) {
		t.Errorf("the knights' row %q, want %q", got, want)
	}
	if got := eval[string](p, `getComputedStyle(document.querySelector('#units-table tr[data-unit="spearmen"] .uname')).textDecorationLine`); got != "line-through" {
		t.Errorf("the destroyed spearmen are not struck through: %q", got)
	}
	if eval[bool](p, `document.querySelector('#units-table tr[data-unit="knights"]').classList.contains('destroyed')`) {
		t.Error("the knights are marked destroyed")
	}
	colours := eval[[]string](p, `['longbowmen', 'knights', 'spearmen'].map(id => getComputedStyle(document.querySelector('#units-table tr[data-unit="' + id + '"]')).borderLeftColor)`)
	if colours[0] == colours[1] || colours[1] != colours[2] {
		t.Errorf("side colours %v: the English row should differ from the French two", colours)
	}

	order := func() string {
		return eval[string](p, `[...document.querySelectorAll('#units-table tbody tr')].map(r => r.dataset.unit).join(' ')`)
	}
	p.Click(`#units-table button.sort[data-col="figures"]`)
	if got := order(); got != "spearmen knights longbowmen" {
		t.Errorf("by figures: %s", got)
	}
	p.Click(`#units-table button.sort[data-col="figures"]`)
	if got := order(); got != "longbowmen knights spearmen" {
		t.Errorf("by figures, the other way: %s", got)
	}
	if got := p.Text(`#units-table th[aria-sort="descending"]`); !strings.HasPrefix(got, "figures") {
		t.Errorf("the sorted heading reads %q", got)
	}

	// A row pointed at lights its unit and its label on the board; a unit, its row.
	p.Mouse(`(() => { const r = document.querySelector('#units-table tr[data-unit="knights"] td.side').getBoundingClientRect(); return [r.x + 4, r.y + r.height / 2]; })()`, false, false)
	p.Wait("the knights lit on the board", `document.querySelector('#board .unit[data-unit="knights"]').classList.contains('hl') && document.querySelector('#board text[data-label="knights"]').classList.contains('hl')`)
	p.Mouse(browsertest.UnitPoint("longbowmen"), false, false)
	p.Wait("the longbowmen's row lit", `document.querySelector('#units-table tr[data-unit="longbowmen"]').classList.contains('hl') && !document.querySelector('#units-table tr[data-unit="knights"]').classList.contains('hl')`)
	p.Screenshot("units-table")

	// Pressing a unit's name picks it as a click on the board does.
	p.Click(`#units-table button.unit-btn[data-unit="longbowmen"]`)
	p.Wait("the longbowmen chosen", `document.querySelector('#firer').value === 'longbowmen'`)
	p.Click(`#units-table button.unit-btn[data-unit="knights"]`)
	p.Wait("the knights declared", `document.querySelector('#hist-knights')`)
}

// TestPageZoom zooms the Dropzone demo's table with the wheel, about the pointer (the unit
// under it stays under it), and with the keyboard; Fit to units and Whole table frame the
// units and the table; labels stay apart at every zoom.
func TestPageZoom(t *testing.T) {
	p := newBrowserPage(t)
	p.create(p.pickExample("dropzone/sabres.yaml"))
	p.settle()
	whole := p.viewBox()
	at := eval[[]float64](p, browsertest.UnitPoint("hunter-2"))
	// chromium wants deltaX with deltaY, and cdproto leaves out a field that is 0.
	p.Do(chromedp.MouseEvent(chromedp.MouseWheel, at[0], at[1], func(m *input.DispatchMouseEventParams) { m.DeltaX, m.DeltaY = 1e-9, -400 }))
	p.Wait("the wheel's zoom", fmt.Sprintf(`document.querySelector('#board').getAttribute('viewBox').split(' ')[2] < %g`, whole[2]*0.7))
	after := eval[[]float64](p, `(() => { const r = document.querySelector('#board [data-unit="hunter-2"] circle.base').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`)
	if dx, dy := after[0]-at[0], after[1]-at[1]; dx*dx+dy*dy > 4 {
		t.Errorf("the unit under the pointer moved from %v to %v as the wheel zoomed", at, after)
	}
	if got := eval[string](p, labelOverlaps); got != "" {
		t.Errorf("zoomed in, labels overlap: %s", got)
	}
	p.Do(chromedp.Focus(chromedp.CSS("#board")), chromedp.KeyEvent("-"), chromedp.KeyEvent("-"), chromedp.KeyEvent("-"))
	if vb := p.viewBox(); vb[2] <= whole[2]*0.7 {
		t.Errorf("three − zoomed to %v, from %v", vb, whole)
	}
	// Zoomed in again, the 0 key brings every unit back into view.
	p.Do(chromedp.KeyEvent("+"), chromedp.KeyEvent("+"), chromedp.KeyEvent("+"), chromedp.KeyEvent("0"))
	fit := p.viewBox()
	if got := eval[string](p, unitsOutOfView); got != "" {
		t.Errorf("fitted to the units, these are out of view: %s", got)
	}
	p.Click("#fit-all")
	if vb := p.viewBox(); !reflect.DeepEqual(vb, whole) {
		t.Errorf("the whole table is %v, at first %v", vb, whole)
	}
	p.Click("#fit-units")
	if vb := p.viewBox(); !reflect.DeepEqual(vb, fit) {
		t.Errorf("Fit to units shows %v, the 0 key %v", vb, fit)
	}
}

// unitsOutOfView lists the units drawn on the board that are not wholly inside it.
const unitsOutOfView = `(() => { const r = document.querySelector('#board').getBoundingClientRect();
	return [...document.querySelectorAll('#board .unit')].filter(u => { const q = u.getBoundingClientRect();
		return q.left < r.left - 1 || q.right > r.right + 1 || q.top < r.top - 1 || q.bottom > r.bottom + 1; }).map(u => u.dataset.unit).join(', '); })()`
