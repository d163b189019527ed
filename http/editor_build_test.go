package http_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/volley-wargames/volley/servertest"
)

// The table editor's tests beyond TestEditorDropzone: a table built from blank with the
// handles, the forms and the zones in two open-table systems, the War Engine's grid
// painted, a table built by touch on a phone, and a photo laid under the board.

// edDoc is the scenario the editor holds, as it shows it as text (the text its download
// link saves and Start the battle sends).
func edDoc(p *browserPage) map[string]any {
	p.T.Helper()
	raw := eval[string](p, `document.querySelector('#ed-text').textContent`)
	var doc map[string]any
	if err := json.Unmarshal([]byte(raw), &doc); err != nil {
		p.T.Fatalf("the editor's scenario is not JSON: %v\n%s", err, raw)
	}
	return doc
}

// edSet sets a form's input (or select) as a player would, firing its change event.
func (p *browserPage) edSet(sel, value string) {
	p.T.Helper()
	p.Wait(sel, fmt.Sprintf("document.querySelector(%q)", sel))
	eval[bool](p, fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.value = %q; return e.dispatchEvent(new Event('change')); })()`, sel, value))
}

// edElement is the viewport point of the middle of an element of the editor's table.
func edElement(sel string) string {
	return fmt.Sprintf(`(() => { const e = document.querySelector(%q); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`, sel)
}

// edSquare is the viewport point of the middle of a square of the editor's grid.
func edSquare(x, y int) string {
	return fmt.Sprintf(`(() => { const svg = document.getElementById('ed-table'); svg.scrollIntoView({block: 'center'});
		const p = svg.createSVGPoint(); p.x = %d + 0.5; p.y = %d + 0.5;
		const q = p.matrixTransform(svg.getScreenCTM()); return [q.x, q.y]; })()`, x, y)
}

// points reads a scenario's list of points.
func points(t *testing.T, v any) [][2]float64 {
	t.Helper()
	list, ok := v.([]any)
	if !ok {
		t.Fatalf("not a list of points: %v", v)
	}
	var out [][2]float64
	for _, p := range list {
		xy := p.([]any)
		out = append(out, [2]float64{xy[0].(float64), xy[1].(float64)})
	}
	return out
}

// near fails the test unless got is want, point by point, within tol.
func near(t *testing.T, what string, got, want [][2]float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %v; want %v", what, got, want)
		return
	}
	for i := range got {
		if math.Hypot(got[i][0]-want[i][0], got[i][1]-want[i][1]) > tol {
			t.Errorf("%s: %v; want %v (within %g)", what, got, want, tol)
			return
		}
	}
}

// edPlace places units by clicking the table in the editor's unit mode, each of a side
// at a point.
func (p *browserPage) edPlace(side string, at ...[2]float64) {
	p.T.Helper()
	for _, pt := range at {
		p.Choose("#ed-side", side)
		n := eval[int](p, `document.querySelectorAll('#ed-table .ed-unit').length`)
		p.Mouse(edPoint(pt[0], pt[1]), true, false)
		p.Wait("the unit placed", fmt.Sprintf(`document.querySelectorAll('#ed-table .ed-unit').length > %d`, n))
	}
}

// edDraw draws an outline in the current drawing mode by clicking its points, then
// finishes it.
func (p *browserPage) edDraw(pts ...[2]float64) {
	p.T.Helper()
	for _, pt := range pts {
		p.Mouse(edPoint(pt[0], pt[1]), true, false)
	}
	p.Wait("enough corners to finish", `!document.querySelector('#ed-finish').disabled`)
	p.Click("#ed-finish")
}

// edStart starts the editor's battle and answers its id, a token of it and its exported
// scenario (GET …/scenario).
func edStart(p *browserPage) (id, token string, exported []byte) {
	t := p.T
	t.Helper()
	p.Click("#ed-start")
	p.Wait("the battle", `document.querySelector('#board')`)
	id = eval[string](p, `location.hash.split('/')[2]`)
	token = eval[string](p, `Object.values(JSON.parse(localStorage.getItem('volley.tokens.`+id+`')))[0]`)
	resp, err := http.DefaultClient.Do(servertest.Request(t, "GET", p.base+"/api/battles/"+id+"/scenario", token, nil))
	if err != nil {
		t.Fatal(err)
	}
	exported, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET …/scenario: %d %v", resp.StatusCode, err)
	}
	return id, token, exported
}

// startAndReload starts the editor's battle and checks that its exported scenario
// (GET …/scenario) loads back to the same battle: a battle created from it shows the
// same table and state. It answers the exported scenario, as checked.
func startAndReload(p *browserPage) map[string]any {
	t := p.T
	t.Helper()
	id, token, exported := edStart(p)
	status, c := call(t, "POST", p.base+"/api/battles", "", "", exported)
	if status != http.StatusCreated && status != http.StatusOK {
		t.Fatalf("the exported scenario does not load: %d %v", status, c)
	}
	again := c["id"].(string)
	var againToken string
	for _, v := range c["tokens"].(map[string]any) {
		againToken = v.(string)
		break
	}
	_, first := call(t, "GET", p.base+"/api/battles/"+id, token, "", nil)
	_, second := call(t, "GET", p.base+"/api/battles/"+again, againToken, "", nil)
	if first["table"] == nil && first["board"] == nil {
		t.Fatalf("the battle shows neither a table nor a board: %v", first)
	}
	for _, k := range []string{"table", "board", "state", "sides", "ruleset", "offers"} {
		if !reflect.DeepEqual(first[k], second[k]) {
			a, _ := json.Marshal(first[k])
			b, _ := json.Marshal(second[k])
			t.Errorf("the battle loaded back from its exported scenario differs in %s:\n%s\n%s", k, a, b)
		}
	}
	status, v := call(t, "POST", p.base+"/api/check", "", "", exported)
	if status != http.StatusOK {
		t.Fatalf("the exported scenario checks as %d %v", status, v)
	}
	return v
}

// TestEditorOpenTable builds a Dropzone table from blank with the editor's handles and
// forms: a polygon drawn, moved by dragging it, reshaped by a corner, given a corner and
// relieved of one, turned by its rotate handle; its height and a flag set in its form; a
// unit type defined in a form (and another added and taken off); two zones drawn (one
// corner by corner, one dragged out as a rectangle); two units a side, one of the new
// type. The scenario the editor holds says each of these, and the battle started from it
// loads back from its exported scenario.
func TestEditorOpenTable(t *testing.T) {
	p := newBrowserPage(t)
	p.openEditor("dropzone")
	p.Click("#ed-clear")
	p.Wait("the cleared table", `document.querySelector('#ed-errors')?.dataset.ok === 'false'`)

	p.Click("#ed-terrain")
	p.edDraw([2]float64{10, 20}, [2]float64{16, 20}, [2]float64{16, 26}, [2]float64{10, 26})
	p.edDraw([2]float64{30, 22}, [2]float64{38, 22}, [2]float64{34, 30})
	p.Wait("two pieces", `document.querySelectorAll('#ed-table .ed-piece').length === 2`)
	p.Click("#ed-terrain") // done drawing

	piece := func() [][2]float64 {
		t.Helper()
		return points(t, edDoc(p)["terrain"].([]any)[0].(map[string]any)["polygon"])
	}
	// Chosen by a press, and moved by a drag: 4 right, 2 up.
	p.MouseDrag(edPoint(13, 23), edPoint(17, 25))
	p.Wait("the piece chosen", `document.querySelector('#ed-selected')?.textContent.includes('piece-1')`)
	near(t, "the moved piece", piece(), [][2]float64{{14, 22}, {20, 22}, {20, 28}, {14, 28}}, 0.11)
	// A corner dragged.
	p.MouseDrag(edElement(`.ed-corner[data-corner="2"] .ed-dot`), edPoint(22, 30))
	near(t, "the reshaped piece", piece(), [][2]float64{{14, 22}, {20, 22}, {22, 30}, {14, 28}}, 0.11)
	// A corner added in the middle of the first edge and dragged out, then taken off by a
	// double press.
	p.MouseDrag(edElement(`.ed-mid[data-mid="1"] .ed-dot`), edPoint(17, 19))
	near(t, "the piece with a corner added", piece(), [][2]float64{{14, 22}, {17, 19}, {20, 22}, {22, 30}, {14, 28}}, 0.11)
	xy := eval[[]float64](p, edElement(`.ed-corner[data-corner="1"] .ed-dot`))
	p.Do(chromedp.MouseClickXY(xy[0], xy[1]), chromedp.MouseClickXY(xy[0], xy[1]))
	p.Wait("the corner taken off", `document.querySelectorAll('#ed-table .ed-corner').length === 4`)
	near(t, "the piece with the corner taken off", piece(), [][2]float64{{14, 22}, {20, 22}, {22, 30}, {14, 28}}, 0.11)
	// Turned a quarter anticlockwise about the middle of its box (18, 26): the rotate
	// handle, straight above the middle, is dragged to straight left of it.
	handle := eval[[]float64](p, `(() => { const c = document.querySelector('.ed-rotate .ed-dot'); return [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]; })()`)
	height := edDoc(p)["table"].(map[string]any)["height"].(float64)
	reach := (height - handle[1]) - 26
	p.MouseDrag(edElement(`.ed-rotate .ed-dot`), edPoint(18-2*reach, 26))
	near(t, "the turned piece", piece(), [][2]float64{{22, 22}, {22, 28}, {14, 30}, {16, 22}}, 0.15)

	// Its height set in its form, as the schema gives the field.
	if got := p.Text("#ed-selected"); !strings.Contains(got, "height") {
		t.Errorf("the piece's form reads %q", got)
	}
	p.edSet("#ed-piece-height", "5")
	p.Wait("the height written", `document.querySelector('#ed-piece-height')?.value === '5'`)
	// A flag whose default is true set to false: left out, yes or no.
	p.Choose("#ed-piece-blocks_los", "false")
	p.Wait("the flag written", `document.querySelector('#ed-piece-blocks_los')?.value === 'false'`)

	// A unit type defined in a form: a copy of the first, renamed and armoured anew.
	p.Click("#ed-new-type")
	p.Wait("the type's form", `document.querySelector('#ed-type-name')`)
	p.edSet("#ed-type-name", "Walker")
	p.edSet("#ed-type-armour", "8")
	p.Wait("the new type listed", `document.querySelector('.ed-type[data-type="Walker"]')`)
	// Another, taken off again.
	p.Click("#ed-new-type")
	p.Wait("a third type", `document.querySelectorAll('.ed-type').length === 3`)
	p.Click("#ed-type-delete")
	p.Wait("the third type taken off", `document.querySelectorAll('.ed-type').length === 2`)

	// Two zones, drawn.
	p.Click("#ed-zone")
	p.Choose("#ed-side", "Blue")
	p.edDraw([2]float64{0, 0}, [2]float64{48, 0}, [2]float64{48, 10}, [2]float64{0, 10})
	// Red's dragged out as a rectangle, corner to corner.
	p.Choose("#ed-side", "Red")
	p.MouseDrag(edPoint(0, 48), edPoint(48, 38))
	p.Click("#ed-zone")

	// Two units a side; Blue's of the new type.
	p.Click("#ed-unit")
	p.Choose("#ed-type-pick", "Walker")
	p.edPlace("Blue", [2]float64{18, 5}, [2]float64{30, 5})
	p.Choose("#ed-type-pick", "Tank")
	p.edPlace("Red", [2]float64{18, 43}, [2]float64{30, 43})
	p.Click("#ed-unit")
	p.Wait("the table checks", `document.querySelector('#ed-ok')?.textContent.includes('4 units')`)

	doc := edDoc(p)
	pieces := doc["terrain"].([]any)
	if len(pieces) != 2 || pieces[0].(map[string]any)["height"] != 5.0 || pieces[0].(map[string]any)["blocks_los"] != false {
		t.Errorf("the terrain is %v", pieces)
	}
	var walker map[string]any
	for _, ty := range doc["types"].([]any) {
		if m := ty.(map[string]any); m["name"] == "Walker" {
			walker = m
		}
	}
	if walker == nil || walker["armour"] != 8.0 {
		t.Errorf("the types are %v", doc["types"])
	}
	zones := doc["deployment"].(map[string]any)
	near(t, "Blue's zone", points(t, zones["Blue"]), [][2]float64{{0, 0}, {48, 0}, {48, 10}, {0, 10}}, 0.11)
	near(t, "Red's zone", points(t, zones["Red"]), [][2]float64{{0, 48}, {48, 48}, {48, 38}, {0, 38}}, 0.11)
	var types []string
	for _, u := range doc["units"].([]any) {
		types = append(types, u.(map[string]any)["type"].(string))
	}
	if want := []string{"Walker", "Walker", "Tank", "Tank"}; !reflect.DeepEqual(types, want) {
		t.Errorf("the units' types are %v; want %v", types, want)
	}

	// The screenshot with the turned piece chosen, its handles and its form.
	p.Mouse(edPoint(19, 25), true, false)
	p.Wait("the piece chosen again", `document.querySelector('#ed-piece-height')`)
	p.Click(`.ed-type[data-type="Walker"]`)
	p.Wait("the type's form", `document.querySelector('#ed-type-name')?.value === 'Walker'`)
	p.Screenshot("editor-desktop")

	v := startAndReload(p)
	if v["units"] != 4.0 {
		t.Errorf("the exported scenario has %v units", v["units"])
	}
	exported := v["document"].(map[string]any)
	near(t, "the exported piece", points(t, exported["terrain"].([]any)[0].(map[string]any)["polygon"]), piece0(doc), 0)
}

func piece0(doc map[string]any) [][2]float64 {
	var out [][2]float64
	for _, p := range doc["terrain"].([]any)[0].(map[string]any)["polygon"].([]any) {
		xy := p.([]any)
		out = append(out, [2]float64{xy[0].(float64), xy[1].(float64)})
	}
	return out
}

// TestEditorWall builds a WarStrike table from blank: a wall drawn as a line (its kind
// chosen from the schema's for a line), its height set in its form, a wood drawn as a
// polygon, and two units a side, each a team of one model placed by a click, one of them
// then moved by a drag and its armour set in its form. The battle loads back from its
// exported scenario with both pieces.
func TestEditorWall(t *testing.T) {
	p := newBrowserPage(t)
	p.openEditor("warstrike")
	p.Click("#ed-clear")

	p.Click("#ed-terrain-line")
	if got := eval[string](p, `document.querySelector('#ed-kind').value`); got != "wall" {
		t.Errorf("a line is drawn as %q; the starter's line is a wall", got)
	}
	p.edDraw([2]float64{8, 18}, [2]float64{16, 18})
	p.Click("#ed-terrain")
	p.Choose("#ed-kind", "area")
	p.edDraw([2]float64{20, 14}, [2]float64{28, 14}, [2]float64{28, 22}, [2]float64{20, 22})
	p.Click("#ed-terrain")
	p.Wait("a line and a polygon", `document.querySelectorAll('#ed-table .ed-line').length === 1 && document.querySelectorAll('#ed-table polygon.ed-piece').length === 1`)

	// The wall chosen by a press on it, and its height set in its form.
	p.Mouse(edPoint(12, 18), true, false)
	p.Wait("the wall's form", `document.querySelector('#ed-piece-height')`)
	if got := eval[string](p, `document.querySelector('#ed-piece-kind').value`); got != "wall" {
		t.Errorf("the wall's form gives its kind as %q", got)
	}
	p.edSet("#ed-piece-height", "1.5")

	p.Click("#ed-unit")
	p.edPlace("Blue", [2]float64{20, 4}, [2]float64{26, 4})
	p.edPlace("Red", [2]float64{20, 32}, [2]float64{26, 32})
	p.Click("#ed-unit")
	p.Wait("the table checks", `document.querySelector('#ed-errors')?.dataset.ok === 'true'`)
	// A placed unit chosen by a press and moved by a drag, its armour set in its form.
	p.MouseDrag(edPoint(26, 32), edPoint(28, 30))
	p.Wait("the unit's form", `document.querySelector('#ed-unitf-armour')`)
	p.edSet("#ed-unitf-armour", "4")
	p.Wait("the table checks", `document.querySelector('#ed-errors')?.dataset.ok === 'true'`)
	p.Screenshot("editor-wall")

	doc := edDoc(p)
	wall := doc["terrain"].([]any)[0].(map[string]any)
	if wall["kind"] != "wall" || wall["height"] != 1.5 {
		t.Errorf("the wall is %v", wall)
	}
	near(t, "the wall", points(t, wall["line"]), [][2]float64{{8, 18}, {16, 18}}, 0.11)
	red := doc["units"].([]any)[3].(map[string]any)
	if red["armour"] != 4.0 {
		t.Errorf("the unit's armour is %v", red["armour"])
	}
	near(t, "the moved unit's model", points(t, []any{red["models"].([]any)[0].(map[string]any)["at"]}), [][2]float64{{28, 30}}, 0.11)

	v := startAndReload(p)
	exported := v["document"].(map[string]any)
	if n := len(exported["terrain"].([]any)); n != 2 {
		t.Errorf("the exported scenario has %d pieces", n)
	}
	if n := len(exported["units"].([]any)); n != 4 {
		t.Errorf("the exported scenario has %d units", n)
	}
}

// TestEditorGrid paints the War Engine's map: a wall of four squares painted by a drag
// with the legend's wall, two units a side placed on squares, a photo laid over the
// squares; the battle's exported map has the wall where it was painted, and its board
// draws the photo where the editor did.
func TestEditorGrid(t *testing.T) {
	p := newBrowserPage(t)
	p.openEditor("warengine")
	p.Click("#ed-clear")
	p.Click("#ed-paint")
	p.Click(`#ed-palette .ed-paint[data-symbol="#"]`)
	p.MouseDrag(edSquare(2, 8), edSquare(5, 8))
	p.Wait("four squares painted", `document.querySelectorAll('#ed-table .ed-square[data-symbol="#"]').length === 8`)
	p.Click("#ed-paint")

	p.Click("#ed-unit")
	place := func(side string, x, y int) {
		p.Choose("#ed-side", side)
		n := eval[int](p, `document.querySelectorAll('#ed-table .ed-unit').length`)
		p.Mouse(edSquare(x, y), true, false)
		p.Wait("the unit placed", fmt.Sprintf(`document.querySelectorAll('#ed-table .ed-unit').length > %d`, n))
	}
	place("blue", 3, 11)
	place("blue", 9, 11)
	place("red", 3, 1)
	place("red", 9, 1)
	p.Click("#ed-unit")
	p.Wait("the table checks", `document.querySelector('#ed-ok')?.textContent.includes('4 units')`)
	p.Screenshot("editor-grid")

	// A photo over the squares, counted in squares up from the map's bottom left corner:
	// at first the map's width (16) over 64 pixels, from its top (12). The pixels marked
	// where that puts (2, 10) and (10, 6) are laid 8 apart along the map's bottom edge.
	m, marks := p.fitPhoto(photo(t), [4]float64{0.25, 0, 0, 12}, edDrawing(2, 2), edDrawing(10, 6), 8, 0, 0, 0)
	near(t, "the marked pixels", marks[:], [][2]float64{{8, 8}, {40, 24}}, 0.5)
	near(t, "the marked pixels on the map", [][2]float64{onTable(m, marks[0]), onTable(m, marks[1])}, [][2]float64{{0, 0}, {8, 0}}, 1e-9)
	near(t, "the photo as the editor draws it", drawnAt(p, "#ed-table image.backdrop", marks), [][2]float64{{0, 12}, {8, 12}}, 1e-5)

	doc := edDoc(p)
	rows := strings.Split(doc["map"].(map[string]any)["rows"].(string), "\n")
	if rows[8] != "..####.........." || rows[4] != "......####......" {
		t.Errorf("the painted map reads\n%s", strings.Join(rows, "\n"))
	}
	v := startAndReload(p)
	// The battle's board draws the photo at the same squares, 24 drawing units each.
	p.Wait("the photo under the battle's board", `document.querySelector('#board image.backdrop')`)
	board := drawnAt(p, "#board image.backdrop", marks)
	for i := range board {
		board[i] = [2]float64{board[i][0] / 24, 12 - board[i][1]/24}
	}
	near(t, "the photo under the battle's board", board, [][2]float64{{0, 0}, {8, 0}}, 1e-5)
	exported := v["document"].(map[string]any)
	if got := exported["map"].(map[string]any)["rows"].(string); !strings.Contains(got, "..####..........") {
		t.Errorf("the exported map reads\n%s", got)
	}
}

// TestEditorPhone builds a table by touch on a phone's screen, 390 × 844: a piece's
// corners placed by taps, the piece moved and reshaped by a finger's drags, two units
// placed by taps, every control a 44-pixel target.
func TestEditorPhone(t *testing.T) {
	p := newBrowserPage(t)
	p.Do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
	p.openEditor("dropzone")
	p.TapOn("#ed-clear")
	p.Wait("the cleared table", `document.querySelectorAll('#ed-table .ed-piece').length === 0`)

	p.TapOn("#ed-terrain")
	for _, pt := range [][2]float64{{10, 30}, {20, 30}, {15, 38}} {
		p.Tap(edPoint(pt[0], pt[1]))
		time.Sleep(350 * time.Millisecond) // a finger lifts between taps
	}
	p.Wait("enough corners to finish", `!document.querySelector('#ed-finish').disabled`)
	p.TapOn("#ed-finish")
	p.Wait("the piece placed by taps", `document.querySelectorAll('#ed-table .ed-piece').length === 1`)
	near(t, "the tapped piece", piece0(edDoc(p)), [][2]float64{{10, 30}, {20, 30}, {15, 38}}, 0.3)
	p.TapOn("#ed-terrain")
	// A finger drags the piece 6 to the right, and its first corner 2 down.
	from, to := eval[[]float64](p, edPoint(15, 32)), eval[[]float64](p, edPoint(21, 32))
	p.Swipe([][2]float64{{from[0], from[1]}}, [][2]float64{{to[0], to[1]}})
	near(t, "the piece dragged by a finger", piece0(edDoc(p)), [][2]float64{{16, 30}, {26, 30}, {21, 38}}, 0.5)
	from, to = eval[[]float64](p, edElement(`.ed-corner[data-corner="0"] .ed-dot`)), eval[[]float64](p, edPoint(16, 28))
	p.Swipe([][2]float64{{from[0], from[1]}}, [][2]float64{{to[0], to[1]}})
	near(t, "the piece reshaped by a finger", piece0(edDoc(p)), [][2]float64{{16, 28}, {26, 30}, {21, 38}}, 0.5)

	p.TapOn("#ed-unit")
	for _, u := range []struct {
		side string
		at   [2]float64
	}{{"Blue", [2]float64{18, 6}}, {"Red", [2]float64{18, 42}}} {
		p.Choose("#ed-side", u.side)
		n := eval[int](p, `document.querySelectorAll('#ed-table .ed-unit').length`)
		p.Tap(edPoint(u.at[0], u.at[1]))
		p.Wait("the unit placed by a tap", fmt.Sprintf(`document.querySelectorAll('#ed-table .ed-unit').length === %d`, n+1))
		time.Sleep(350 * time.Millisecond)
	}
	p.Wait("the table checks", `document.querySelector('#ed-ok')?.textContent.includes('2 units')`)
	small := eval[string](p, `[...document.querySelectorAll('#ed-body button, #ed-body select, #ed-body input:not([type=checkbox]), #ed-body summary')]
		.filter((e) => e.offsetParent !== null).filter((e) => e.getBoundingClientRect().height < 44)
		.map((e) => e.id || e.textContent).join(', ')`)
	if small != "" {
		t.Errorf("tap targets under 44 px: %s", small)
	}
	if w := eval[float64](p, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the editor is %g px wide on a 390-px screen", w)
	}
	p.Screenshot("editor-phone")
}

// edDrawing is the viewport point of a point in the drawing's own units of the editor's
// table (on a grid, squares from its top left corner).
func edDrawing(x, y float64) string {
	return fmt.Sprintf(`(() => { const svg = document.getElementById('ed-table'); svg.scrollIntoView({block: 'center'});
		const p = svg.createSVGPoint(); p.x = %g; p.y = %g;
		const q = p.matrixTransform(svg.getScreenCTM()); return [q.x, q.y]; })()`, x, y)
}

// photo writes a small PNG, 64 × 32 pixels of a gradient, and answers its path.
func photo(t *testing.T) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 64, 32))
	for x := range 64 {
		for y := range 32 {
			img.Set(x, y, color.RGBA{uint8(4 * x), uint8(8 * y), 120, 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "table.png")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// fitPhoto chooses the photo at path as the editor's backdrop, checks its first fit (the
// table's width from its top left corner: first), marks the two points the expressions
// give, says they lie dist apart, the first at (x, y) and the second at angle degrees
// from it, and fits the photo. It answers the fit and the pixels marked.
func (p *browserPage) fitPhoto(path string, first [4]float64, mark1, mark2 string, dist, x, y, angle float64) ([4]float64, [2][2]float64) {
	t := p.T
	t.Helper()
	p.Click("#ed-backdrop summary")
	p.Do(chromedp.SetUploadFiles(chromedp.CSS("#bd-file"), []string{path}))
	p.Wait("the photo under the table", `document.querySelector('#ed-table image.backdrop')`)
	bd := func() map[string]any {
		var v map[string]any
		if err := json.Unmarshal([]byte(eval[string](p, `localStorage.getItem('volley.backdrop.new')`)), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	fit := func() (m [4]float64) {
		for i, x := range bd()["m"].([]any) {
			m[i] = x.(float64)
		}
		return m
	}
	if m := fit(); m != first {
		t.Errorf("the photo's first fit is %v; want %v", m, first)
	}
	p.Click("#bd-mark")
	p.Mouse(mark1, true, false)
	p.Mouse(mark2, true, false)
	p.Wait("two marks", `document.querySelectorAll('#ed-table .bd-mark').length === 2`)
	p.edSet("#bd-dist", fmt.Sprint(dist))
	p.edSet("#bd-x", fmt.Sprint(x))
	p.edSet("#bd-y", fmt.Sprint(y))
	p.edSet("#bd-angle", fmt.Sprint(angle))
	p.Click("#bd-fit")
	p.Wait("the photo fitted", `document.querySelector('#bd-status')?.textContent.includes('fitted')`)
	var marks [2][2]float64
	for i, x := range bd()["marks"].([]any) {
		xy := x.([]any)
		marks[i] = [2]float64{xy[0].(float64), xy[1].(float64)}
	}
	return fit(), marks
}

// onTable is where the fit m lays the photo's pixel px, as backdrop.js writes it.
func onTable(m [4]float64, px [2]float64) [2]float64 {
	return [2]float64{m[0]*px[0] + m[1]*px[1] + m[2], m[1]*px[0] - m[0]*px[1] + m[3]}
}

// drawnAt is where the drawing sel's backdrop image puts the pixels marks, in the
// drawing's own units.
func drawnAt(p *browserPage, sel string, marks [2][2]float64) [][2]float64 {
	p.T.Helper()
	v := eval[[]float64](p, fmt.Sprintf(`(() => { const m = document.querySelector(%q).transform.baseVal.consolidate().matrix;
		return [[%g, %g], [%g, %g]].flatMap(([u, v]) => [m.a * u + m.c * v + m.e, m.b * u + m.d * v + m.f]); })()`,
		sel, marks[0][0], marks[0][1], marks[1][0], marks[1][1]))
	return [][2]float64{{v[0], v[1]}, {v[2], v[3]}}
}

// TestEditorBackdrop lays a photo under the board: a small PNG chosen as the table's
// photo, two points marked on it, said to be 12 apart, the first at (2, 3) and the
// second straight up the table from it. The fit puts the two pixels exactly there, the
// editor draws the photo through it, and the battle started from the table draws the
// photo under its board at the same place.
func TestEditorBackdrop(t *testing.T) {
	p := newBrowserPage(t)
	p.openEditor("dropzone")
	// At first the photo spans the table's width (48) from its top left corner: 0.75 a
	// pixel. The pixels are marked where that puts (9, 45) and (33, 30): 12 and 44 pixels
	// along, 4 and 24 down.
	m, marks := p.fitPhoto(photo(t), [4]float64{0.75, 0, 0, 48}, edPoint(9, 45), edPoint(33, 30), 12, 2, 3, 90)
	near(t, "the marked pixels", marks[:], [][2]float64{{12, 4}, {44, 24}}, 0.2)
	near(t, "the marked pixels on the table", [][2]float64{onTable(m, marks[0]), onTable(m, marks[1])}, [][2]float64{{2, 3}, {2, 15}}, 1e-9)

	// The editor draws the photo through the fit: its image's matrix takes each marked
	// pixel to the drawing's point of (2, 3) and (2, 15) (y down from the table's top, 48).
	// The browser's matrices are single precision.
	near(t, "the photo as the editor draws it", drawnAt(p, "#ed-table image.backdrop", marks), [][2]float64{{2, 45}, {2, 33}}, 1e-5)
	p.Screenshot("editor-backdrop")

	// The battle draws it under its board, through the board's own scale.
	p.Click("#ed-start")
	p.Wait("the photo under the battle's board", `document.querySelector('#board image.backdrop')`)
	k := eval[float64](p, `Number(document.getElementById('board').dataset.scale)`)
	origin := eval[[]float64](p, `document.getElementById('board').dataset.origin.split(',').map(Number)`)
	var board [][2]float64
	for _, d := range drawnAt(p, "#board image.backdrop", marks) {
		board = append(board, [2]float64{d[0]/k + origin[0], origin[1] - d[1]/k})
	}
	near(t, "the photo under the battle's board", board, [][2]float64{{2, 3}, {2, 15}}, 1e-5)
}

// TestEditorRepublique draws Republique's terrain, which its starter has none of: a wood
// as a polygon with its cover and level chosen in its form (the cover a list of the
// schema's classes), and a stream as a line (an obstacle). The table checks with them,
// and the battle loads back from its exported scenario.
func TestEditorRepublique(t *testing.T) {
	p := newBrowserPage(t)
	p.openEditor("republique")
	p.Click("#ed-terrain")
	p.edDraw([2]float64{20, 30}, [2]float64{40, 30}, [2]float64{40, 45}, [2]float64{20, 45})
	p.Click("#ed-terrain-line")
	p.edDraw([2]float64{60, 30}, [2]float64{80, 35}, [2]float64{100, 30})
	p.Click("#ed-terrain-line")
	p.Mouse(edPoint(30, 38), true, false)
	p.Wait("the wood's form", `document.querySelector('#ed-piece-cover')`)
	if got := eval[[]string](p, `[...document.querySelectorAll('#ed-piece-cover option')].map((o) => o.value)`); !reflect.DeepEqual(got, []string{"", "open", "solid", "heavy", "full"}) {
		t.Errorf("the cover's choices are %q", got)
	}
	p.Choose("#ed-piece-cover", "heavy")
	p.edSet("#ed-piece-level", "1")
	p.Wait("the table checks", `document.querySelector('#ed-errors')?.dataset.ok === 'true'`)

	doc := edDoc(p)
	pieces := doc["terrain"].([]any)
	wood, stream := pieces[0].(map[string]any), pieces[1].(map[string]any)
	if wood["cover"] != "heavy" || wood["level"] != 1.0 {
		t.Errorf("the wood is %v", wood)
	}
	near(t, "the stream", points(t, stream["line"]), [][2]float64{{60, 30}, {80, 35}, {100, 30}}, 0.3) // a pixel is a sixth of a centimetre here
	v := startAndReload(p)
	if n := len(v["document"].(map[string]any)["terrain"].([]any)); n != 2 {
		t.Errorf("the exported scenario has %d pieces", n)
	}
}
