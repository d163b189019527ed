package http_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/volley-wargames/volley/browsertest"
)

// The table editor's nested forms, its sides and the rest of the file's sections.

// edAdd opens the editor's nested list (a <details>, its id list), adds a row by its
// button and waits for the row's field (its id, field), which says what.
func (p *browserPage) edAdd(list, field, what string) {
	p.T.Helper()
	p.Click(list + " > summary")
	p.Click(list + "-add")
	p.Wait(what, fmt.Sprintf("document.querySelector(%q)", field))
}

// edInvalid waits until the field at sel is marked at fault with a message that
// contains want.
func (p *browserPage) edInvalid(sel, want string) {
	p.T.Helper()
	p.Wait(sel+" marked at fault", fmt.Sprintf(`(() => { const e = document.querySelector(%q);
		return e?.getAttribute('aria-invalid') === 'true' && (e.nextElementSibling?.textContent || '').includes(%q); })()`, sel, want))
}

// shotOf saves a screenshot of the element at sel alone, as screenshot saves the page.
func (p *browserPage) shotOf(sel, name string) {
	p.T.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, 20*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(sel)))
	if err != nil {
		p.T.Fatal(err)
	}
	path := filepath.Join(browsertest.Shots, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.T.Fatal(err)
	}
	p.T.Logf("screenshot %s", path)
}

// TestEditorForms builds a Dropzone battle in the editor's forms: a weapon added to a
// unit type in its nested form (a copy of the last, renamed, its shots set, a bad
// accuracy shown at that field and put right), a side added by name with two units
// placed for it, a side renamed (its units and zone follow), the end: section's turns
// set and an objective added in its form (a negative radius shown at its field, then
// put right). The battle started from it loads back from its exported scenario.
func TestEditorForms(t *testing.T) {
	p := newBrowserPage(t)
	p.openEditor("dropzone")

	// A weapon added to the Tank's profile, in the type's nested form.
	p.Click(`.ed-type[data-type="Tank"]`)
	p.Wait("the type's weapons", `document.querySelector('#ed-type-weapons')`)
	p.edAdd("#ed-type-weapons", "#ed-type-weapons-1-name", "a second weapon")
	if got := eval[string](p, `document.querySelector('#ed-type-weapons-1-name').value`); got != "Cannon 2" {
		t.Errorf("the copied weapon is named %q; want Cannon 2", got)
	}
	p.edSet("#ed-type-weapons-1-name", "Laser")
	p.edSet("#ed-type-weapons-1-shots", "2")
	// An accuracy no die gives is shown at its field, and put right.
	p.edSet("#ed-type-weapons-1-accuracy", "13+")
	p.edInvalid("#ed-type-weapons-1-accuracy", "13+")
	p.edSet("#ed-type-weapons-1-accuracy", "4+")
	p.Wait("the type checks again", `document.querySelector('#ed-ok')`)

	// A side added by name, and two units placed for it.
	p.edSet("#ed-new-side", "Green")
	p.Click("#ed-add-side")
	p.Wait("the new side", `document.querySelector('#ed-side-name-2')?.value === 'Green'`)
	p.Click("#ed-unit")
	p.edPlace("Green", [2]float64{10, 24}, [2]float64{38, 24})
	p.Click("#ed-unit")
	p.Wait("six units", `document.querySelector('#ed-ok')?.textContent.includes('6 units')`)
	// Red renamed: its units and its zone follow.
	p.edSet("#ed-side-name-1", "Crimson")
	p.Wait("the side renamed", `document.querySelector('#ed-ok')?.textContent.includes('Crimson')`)

	// The end: section's form: the last round, and an objective added.
	p.Click("#ed-doc-end > summary")
	p.edSet("#ed-doc-end-turns", "6")
	p.edAdd("#ed-doc-end-objectives", "#ed-doc-end-objectives-1-name", "a second objective")
	p.edSet("#ed-doc-end-objectives-1-name", "the ridge")
	p.edSet("#ed-doc-end-objectives-1-at", "12, 30")
	p.edSet("#ed-doc-end-objectives-1-radius", "-3")
	p.edInvalid("#ed-doc-end-objectives-1-radius", "negative")
	p.edSet("#ed-doc-end-objectives-1-radius", "3")
	p.Wait("the scenario checks", `document.querySelector('#ed-ok')`)

	doc := edDoc(p)
	weapons := doc["types"].([]any)[0].(map[string]any)["weapons"].([]any)
	if len(weapons) != 2 {
		t.Fatalf("the Tank's weapons are %v", weapons)
	}
	laser := weapons[1].(map[string]any)
	if laser["name"] != "Laser" || laser["shots"] != 2.0 || laser["accuracy"] != "4+" || laser["energy"] != 8.0 {
		t.Errorf("the new weapon is %v", laser)
	}
	sides := map[string][]string{}
	for _, u := range doc["units"].([]any) {
		m := u.(map[string]any)
		sides[m["side"].(string)] = append(sides[m["side"].(string)], m["squad"].(string))
	}
	if want := map[string][]string{"Blue": {"blue-tanks", "blue-tanks"}, "Crimson": {"red-tanks", "red-tanks"}, "Green": {"green-tanks", "green-tanks"}}; !reflect.DeepEqual(sides, want) {
		t.Errorf("the units' sides and squads are %v; want %v", sides, want)
	}
	var zones []string
	for k := range doc["deployment"].(map[string]any) {
		zones = append(zones, k)
	}
	if slices.Sort(zones); !reflect.DeepEqual(zones, []string{"Blue", "Crimson"}) {
		t.Errorf("the zones are %v", zones)
	}
	end := doc["end"].(map[string]any)
	objectives := end["objectives"].([]any)
	if end["turns"] != 6.0 || len(objectives) != 2 {
		t.Fatalf("the end is %v", end)
	}
	ridge := objectives[1].(map[string]any)
	if ridge["name"] != "the ridge" || ridge["radius"] != 3.0 || !reflect.DeepEqual(ridge["at"], []any{12.0, 30.0}) {
		t.Errorf("the new objective is %v", ridge)
	}

	p.Click(`.ed-type[data-type="Tank"]`) // closed
	p.Click(`.ed-type[data-type="Tank"]`) // and open again, at the top of the forms
	p.Wait("the type's form", `document.querySelector('#ed-type-weapons-1-name')?.value === 'Laser'`)
	p.Screenshot("editor-forms")
	// On a phone the nested forms stack and fit the screen's width.
	p.Do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	p.Wait("the phone's width", `window.innerWidth === 390`)
	if w := eval[float64](p, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the editor's forms are %g px wide on a 390-px screen", w)
	}
	p.shotOf("#ed-types", "editor-forms-phone")
	p.Do(chromedp.EmulateViewport(1280, 800))

	v := startAndReload(p)
	if v["units"] != 6.0 || !reflect.DeepEqual(v["sides"], []any{"Blue", "Crimson", "Green"}) {
		t.Errorf("the exported scenario has %v units, sides %v", v["units"], v["sides"])
	}
	exported := v["document"].(map[string]any)
	if !reflect.DeepEqual(exported["end"], doc["end"]) {
		t.Errorf("the exported end is %v; the editor's %v", exported["end"], doc["end"])
	}
	if got := exported["types"].([]any)[0].(map[string]any)["weapons"]; !reflect.DeepEqual(got, doc["types"].([]any)[0].(map[string]any)["weapons"]) {
		t.Errorf("the exported weapons are %v", got)
	}
}

// TestEditorFloors gives a WarStrike piece of area terrain floors in its nested form:
// two added (the first built from the schema's required fields, the second a copy of
// it), their heights set, the first taken off again; and a third model added to a team
// in its form. The battle started from it loads back from its exported scenario with
// the floor.
func TestEditorFloors(t *testing.T) {
	p := newBrowserPage(t)
	p.openEditor("warstrike")

	p.Mouse(edPoint(24, 18), true, false)
	p.Wait("the wood's form", `document.querySelector('#ed-piece-floors')`)
	p.edAdd("#ed-piece-floors", "#ed-piece-floors-0-height", "a floor")
	if got := eval[string](p, `document.querySelector('#ed-piece-floors-0-height').value`); got != "0" {
		t.Errorf("a new floor stands %q high; the schema's least length is 0", got)
	}
	p.edSet("#ed-piece-floors-0-height", "2")
	p.Click("#ed-piece-floors-add")
	p.Wait("a second floor", `document.querySelector('#ed-piece-floors-1-height')?.value === '2'`)
	p.edSet("#ed-piece-floors-1-height", "3.5")
	p.Click("#ed-piece-floors-0-off")
	p.Wait("one floor left", `document.querySelector('#ed-piece-floors-0-height')?.value === '3.5' && !document.querySelector('#ed-piece-floors-1-height')`)
	p.Wait("the scenario checks", `document.querySelector('#ed-ok')`)

	floors := edDoc(p)["terrain"].([]any)[0].(map[string]any)["floors"]
	if want := []any{map[string]any{"height": 3.5}}; !reflect.DeepEqual(floors, want) {
		t.Errorf("the wood's floors are %v; want %v", floors, want)
	}

	// A third model added to the blue team in its form, and set in its place.
	p.Mouse(edPoint(20, 4), true, false)
	p.Wait("the team's models", `document.querySelector('#ed-unitf-models')`)
	p.edAdd("#ed-unitf-models", "#ed-unitf-models-2-at", "a third model")
	p.edSet("#ed-unitf-models-2-at", "24, 4")
	p.Wait("three blue models on the table", `document.querySelectorAll('#ed-table .ed-unit[data-unit="blue"]').length === 3 && document.querySelector('#ed-ok')`)
	models := edDoc(p)["units"].([]any)[0].(map[string]any)["models"].([]any)
	if len(models) != 3 || models[2].(map[string]any)["id"] != "blue-3" || !reflect.DeepEqual(models[2].(map[string]any)["at"], []any{24.0, 4.0}) {
		t.Errorf("the blue team's models are %v", models)
	}
	v := startAndReload(p)
	if got := v["document"].(map[string]any)["terrain"].([]any)[0].(map[string]any)["floors"]; !reflect.DeepEqual(got, floors) {
		t.Errorf("the exported floors are %v; the editor's %v", got, floors)
	}
}

// TestEditorText edits the whole file as text: a text that does not check is kept with
// its error and changes nothing; one that does is drawn anew, the table and forms
// following it. Then two maps of names to values are edited in their forms (the end's
// points by unit, a weapon's range in the tables), and the battle loads back.
func TestEditorText(t *testing.T) {
	p := newBrowserPage(t)
	p.openEditor("warstrike")
	p.Click("#ed-text-box > summary")
	p.Wait("the text", `document.querySelector('#ed-text-edit').value.includes('"title"')`)

	edit := func(from, to string) {
		t.Helper()
		eval[bool](p, fmt.Sprintf(`(() => { const a = document.querySelector('#ed-text-edit'); a.value = a.value.replace(%q, %q); return true; })()`, from, to))
		p.Click("#ed-text-use")
	}
	edit(`"turns":4`, `"turns":"four"`)
	p.Wait("the text's error", `document.querySelector('#ed-text-errors')?.textContent.includes('turns')`)
	if got := edDoc(p)["end"].(map[string]any)["turns"]; got != 4.0 {
		t.Errorf("a text that does not check changed the end's turns to %v", got)
	}
	edit(`"turns":"four"`, `"turns":7`)
	p.Wait("the editor drawn from the text", `document.querySelector('#ed-doc-end-turns')?.value === '7' && document.querySelector('#ed-ok')`)
	if n := eval[int](p, `document.querySelectorAll('#ed-table .ed-unit').length`); n != 4 {
		t.Errorf("the editor drawn anew shows %d models; want 4", n)
	}

	// Maps of names to values in forms: what destroying the blue team scores (a number
	// by a unit's id), and the rifle's range in the tables' weapons (a record by name).
	p.Click("#ed-doc-end > summary")
	p.Click("#ed-doc-end-points > summary")
	p.edSet("#ed-doc-end-points-new", "blue")
	p.Click("#ed-doc-end-points-add")
	p.Wait("the blue team's points", `document.querySelector('#ed-doc-end-points-0')`)
	p.edSet("#ed-doc-end-points-0", "3")
	p.Click("#ed-doc-tables > summary")
	p.Click("#ed-doc-tables-weapons > summary")
	p.edSet("#ed-doc-tables-weapons-0-range", "30")
	p.Wait("the scenario checks", `document.querySelector('#ed-ok')`)
	doc := edDoc(p)
	if got := doc["end"].(map[string]any)["points"]; !reflect.DeepEqual(got, map[string]any{"blue": 3.0}) {
		t.Errorf("the end's points are %v", got)
	}
	if got := doc["tables"].(map[string]any)["weapons"].(map[string]any)["rifle"].(map[string]any)["range"]; got != 30.0 {
		t.Errorf("the rifle's range is %v", got)
	}
	v := startAndReload(p)
	if got := v["document"].(map[string]any)["end"]; !reflect.DeepEqual(got, doc["end"]) {
		t.Errorf("the exported end is %v; the editor's %v", got, doc["end"])
	}
}
