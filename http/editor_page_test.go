package http_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// openEditor opens the table editor on a rule system's starter and waits until it has
// been checked.
func (p *browserPage) openEditor(system string) {
	p.T.Helper()
	p.Do(chromedp.Navigate(p.base + "/#/new"))
	p.Choose("#ed-system", system)
	p.Wait("the starter checked", `document.querySelector('#ed-ok')`)
}

// edPoint is the viewport point of a point of the editor's table, in the scenario's
// coordinates (y north).
func edPoint(x, y float64) string {
	return fmt.Sprintf(`(() => { const svg = document.getElementById('ed-table'); svg.scrollIntoView({block: 'center'});
		const [, , , h] = svg.getAttribute('viewBox').split(' ').map(Number); const pad = -Number(svg.getAttribute('viewBox').split(' ')[1]);
		const p = svg.createSVGPoint(); p.x = %g; p.y = (h - 2 * pad) - %g;
		const q = p.matrixTransform(svg.getScreenCTM()); return [q.x, q.y]; })()`, x, y)
}

// TestEditorDropzone builds a Dropzone table in the editor from a cleared starter: two
// terrain pieces drawn by clicking, two units a side placed by clicking. Cleared, the
// table does not check and says why; a unit placed inside a piece is named at fault;
// once moved out, the scenario checks, the battle starts, and its exported scenario
// (GET …/scenario) checks back to the same units and terrain.
func TestEditorDropzone(t *testing.T) {
	p := newBrowserPage(t)
	p.Do(chromedp.Navigate(p.base + "/"))
	p.Click("#open-editor")
	p.Choose("#ed-system", "dropzone")
	p.Wait("the starter checked", `document.querySelector('#ed-ok')`)
	p.Click("#ed-clear")
	p.Wait("the cleared table's error", `document.querySelector('#ed-errors')?.dataset.ok === 'false'`)
	if got := p.Text("#ed-errors"); !strings.Contains(got, `no unit is on side "Blue"`) {
		t.Errorf("the cleared table reads %q", got)
	}

	// Two pieces of terrain.
	p.Click("#ed-terrain")
	for _, piece := range [][][2]float64{{{10, 20}, {16, 20}, {16, 26}, {10, 26}}, {{30, 22}, {38, 22}, {34, 30}}} {
		for _, pt := range piece {
			p.Mouse(edPoint(pt[0], pt[1]), true, false)
		}
		p.Wait("enough corners to finish", `!document.querySelector('#ed-finish').disabled`)
		p.Click("#ed-finish")
	}
	p.Wait("two pieces", `document.querySelectorAll('#ed-table .ed-piece').length === 2`)
	p.Click("#ed-terrain") // done drawing

	// Two units a side, and one of Blue's first off the table's edge: named at fault, then
	// taken off again by clicking it.
	p.Click("#ed-unit")
	place := func(side string, x, y float64) {
		p.Choose("#ed-side", side)
		n := eval[int](p, `document.querySelectorAll('#ed-table .ed-unit').length`)
		p.Mouse(edPoint(x, y), true, false)
		p.Wait("the unit placed", fmt.Sprintf(`document.querySelectorAll('#ed-table .ed-unit').length === %d`, n+1))
	}
	place("Blue", 47.8, 30)
	p.Wait("the unit off the table at fault", `document.querySelector('#ed-table .ed-unit.fault')`)
	if got := p.Text("#ed-errors"); !strings.Contains(got, "unit blue-1") || !strings.Contains(got, "off the table") {
		t.Errorf("the error does not name the unit: %q", got)
	}
	p.Screenshot("editor-fault")
	p.Mouse(edPoint(47.8, 30), true, false)
	p.Wait("the unit taken off", `document.querySelectorAll('#ed-table .ed-unit').length === 0`)
	place("Blue", 18, 6)
	place("Blue", 30, 6)
	place("Red", 18, 42)
	place("Red", 30, 42)
	p.Wait("the table checks", `document.querySelector('#ed-ok')?.textContent.includes('4 units')`)
	if got := p.Text("#ed-ok"); !strings.Contains(got, "4 units, sides Blue and Red") {
		t.Errorf("the check reads %q", got)
	}
	// The editor's desktop and phone screenshots are TestEditorOpenTable's and
	// TestEditorPhone's.

	_, _, exported := edStart(p)
	status, v := call(t, "POST", p.base+"/api/check", "", "", exported)
	doc, _ := v["document"].(map[string]any)
	if status != http.StatusOK || v["units"] != 4.0 || doc == nil || len(doc["terrain"].([]any)) != 2 {
		t.Fatalf("the exported scenario checks as %d %v", status, v)
	}
	units := doc["units"].([]any)
	for i, want := range [][2]float64{{18, 6}, {30, 6}, {18, 42}, {30, 42}} {
		at := units[i].(map[string]any)["at"].([]any)
		if d := (at[0].(float64)-want[0])*(at[0].(float64)-want[0]) + (at[1].(float64)-want[1])*(at[1].(float64)-want[1]); d > 0.1 {
			t.Errorf("unit %d is at %v; placed at %v", i, at, want)
		}
	}
}
