package http_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/volley-wargames/volley"
)

// describedView is a battle's view built by hand, with no rule system behind it: a
// system to come, as the page must draw it from the description alone. Batteries of
// rectangular bases fire alone or as a group (whose action holds a list of ids) at one
// target sent flat under "target", with two verbs, one of which takes no target; each
// battery has its overlays, and an obstacle has no owner.
func describedView() map[string]any {
	rect := func(x, y, w, d float64) [4][2]float64 {
		return [4][2]float64{{x, y}, {x + w, y}, {x + w, y + d}, {x, y + d}}
	}
	battery := func(id string, x float64) volley.TableUnit {
		return volley.TableUnit{ID: id, Name: "battery", Side: "red", Placed: true, X: x + 2, Y: 11, Bases: [][4][2]float64{rect(x, 10, 4, 2)},
			Weapons: []volley.WeaponView{{Name: "guns", Ranges: []volley.RangeView{{Name: "long", Reach: 40}}}}}
	}
	facing := 180.0
	table := volley.TableView{Unit: "cm", Measured: "centre", Terrain: []volley.TablePiece{},
		Units: []volley.TableUnit{battery("b1", 10), battery("b2", 20), battery("b3", 40),
			{ID: "A", Name: "line", Side: "blue", Placed: true, X: 18, Y: 41, Facing: &facing, Bases: [][4][2]float64{rect(14, 40, 4, 2), rect(18, 40, 4, 2)}, Weapons: []volley.WeaponView{}},
			{ID: "B", Name: "column", Side: "blue", Placed: true, X: 40, Y: 41, Base: 3, Weapons: []volley.WeaponView{}}},
		Overlays: []volley.Overlay{
			{Owner: "b1", Kind: "arc", Label: "b1 arc", Points: [][2]float64{{12, 12}, {0, 50}, {24, 50}}},
			{Owner: "b1", Kind: "zone", Label: "b1 zone", Points: [][2]float64{{10, 12}, {14, 12}, {14, 50}, {10, 50}}},
			{Owner: "b2", Kind: "line", Label: "b2 centre of fire", Points: [][2]float64{{22, 12}, {18, 40}}},
			{Owner: "b2", Kind: "enfilade", Label: "b2 enfilade", Points: [][2]float64{{22, 12}, {30, 30}, {34, 20}}},
			{Owner: "b3", Kind: "arc", Label: "b3 arc", Points: [][2]float64{{42, 12}, {30, 50}, {54, 50}}},
			{Kind: "obstacle", Label: "wall", Points: [][2]float64{{0, 30}, {50, 30}}},
		},
		Declare: volley.DeclareView{Title: "Artillery fire", FirerLabel: "Battery", Prompt: "— choose a battery —", Verb: "Fire",
			Verbs:     []volley.VerbView{{Label: "Fire", Action: map[string]any{"type": "fire"}}, {Label: "Save fire", Action: map[string]any{"type": "save"}, NoTarget: true}},
			Rows:      "single",
			TargetKey: "target",
			Choices: []volley.ChoiceView{
				{Label: "b1 (red)", Side: "red", Units: []string{"b1"}, Action: map[string]any{"batteries": []string{"b1"}}},
				{Label: "b1 and b2 (red)", Side: "red", Units: []string{"b1", "b2"}, Action: map[string]any{"batteries": []string{"b1", "b2"}}, Note: "a group of touching batteries"},
				{Label: "b3 (red)", Side: "red", Units: []string{"b3"}, Action: map[string]any{"batteries": []string{"b3"}}},
			},
			Values: map[string][]string{"morale": {"shaken", "steady"}}},
	}
	table.FitBounds()
	var units []map[string]any
	for _, u := range table.Units {
		units = append(units, map[string]any{"id": u.ID, "side": u.Side, "values": map[string]float64{"morale": 1}})
	}
	return map[string]any{"id": "described", "sides": []string{"red", "blue"}, "ended": false, "table": table, "state": map[string]any{"units": units}}
}

// TestPageDescribedTable mounts the table on a view built by hand, so that what the page
// draws and sends comes from the description alone: rectangular bases, the overlays of
// the chosen firers only, a group chosen from the list, a target sent flat, and a verb
// that sends no target. The API's aim and odds answer from a stub.
func TestPageDescribedTable(t *testing.T) {
	p := newBrowserPage(t)
	view, err := json.Marshal(describedView())
	if err != nil {
		t.Fatal(err)
	}
	p.Do(chromedp.Navigate(p.base + "/"))
	p.Wait("the page", `document.querySelector('#new-battle')`)
	// The board is mounted on its own, beside the battle list; act records the actions,
	// and the API's answers to aim and odds are stubbed, with the asked actions kept.
	eval[bool](p, fmt.Sprintf(`(() => {
		window.sent = []; window.asked = [];
		window.fetch = async (url) => {
			const a = JSON.parse(new URL(url, location.href).searchParams.get('action'));
			window.asked.push(a);
			const body = url.includes('/aim') ? {aims: [{shooter: a.batteries[0], weapon: 'guns', target: a.target, status: 'ok', p_hit: 0.5, reason: 'in the arc', range: 30, range_unit: 'cm'}]} : {aims: [], targets: []};
			return new Response(JSON.stringify(body), {status: 200, headers: {'Content-Type': 'application/json'}});
		};
		import('/web/table.js').then(({mount}) => {
			const field = document.createElement('div'), controls = document.createElement('div'), unitsBox = document.createElement('div');
			document.body.prepend(field, controls, unitsBox);
			const ctx = {id: 'described', view: %s, reader: () => '', token: () => 'a token', unitsBox,
				act: async (action, side) => { window.sent.push({action, side}); return {seq: window.sent.length, outcome: {rolls: [], targets: []}}; }};
			mount(field, controls, ctx).update();
			window.mounted = true;
		});
		return true; })()`, view))
	p.Wait("the board", `window.mounted && document.querySelector('#board')`)

	count := func(sel string) int { return eval[int](p, fmt.Sprintf(`document.querySelectorAll(%q).length`, sel)) }
	if n := count(`#board polygon.base.rect`); n != 5 {
		t.Errorf("%d rectangular bases drawn, want 5", n)
	}
	if n := count(`#board [data-unit="B"] circle.base`); n != 1 {
		t.Errorf("the unit without bases is drawn with %d circles, want 1", n)
	}
	if got := p.Text(`#firer option[value=""]`); got != "— choose a battery —" {
		t.Errorf("the list's prompt reads %q", got)
	}
	if n := count(`#board .overlay`); n != 1 || count(`#board polyline.overlay[data-overlay="obstacle"]`) != 1 {
		t.Errorf("before a choice %d overlays are drawn, want the obstacle alone", n)
	}

	// The group, from the list: b1's and b2's overlays, not b3's; both buttons.
	p.Choose("#firer", "b1+b2")
	p.Wait("the group's overlays", `document.querySelector('#board [data-overlay="enfilade"]')`)
	drawn := eval[[]string](p, `[...document.querySelectorAll('#board .overlay title')].map(t => t.textContent).sort()`)
	if want := []string{"b1 arc", "b1 zone", "b2 centre of fire", "b2 enfilade", "wall"}; !reflect.DeepEqual(drawn, want) {
		t.Errorf("overlays drawn for the group: %v, want %v", drawn, want)
	}
	if n := count(`#board polyline.overlay.line`); n != 2 { // the centre of fire and the obstacle
		t.Errorf("%d dashed lines, want 2", n)
	}
	if got := p.Text("#choice-note"); got != "a group of touching batteries" {
		t.Errorf("the choice's note reads %q", got)
	}
	if got := eval[[]string](p, `[...document.querySelectorAll('#declare .row button')].map(b => b.textContent + (b.disabled ? ' (disabled)' : ''))`); !reflect.DeepEqual(got, []string{"Fire", "Save fire"}) {
		t.Errorf("the verbs' buttons: %v", got)
	}
	// A view that names no columns: every value, named by the declaration's levels.
	if got := eval[[]string](p, `[...document.querySelectorAll('#units-table tr[data-unit="b1"] > *')].map(c => c.textContent)`); !reflect.DeepEqual(got, []string{"battery b1", "red", "steady"}) {
		t.Errorf("a unit's row reads %q, want its morale named by the view", got)
	}

	// Pointing at A asks aim of the group at A alone; clicking makes A the one target.
	p.Mouse(basePoint("A"), false, false)
	p.Wait("the aim at A", `document.querySelector('#aim-status')`)
	if got := eval[map[string]any](p, `window.asked.findLast(a => a.target === 'A')`); !reflect.DeepEqual(got, map[string]any{"type": "fire", "batteries": []any{"b1", "b2"}, "target": "A"}) {
		t.Errorf("the hover asked aim of %v", got)
	}
	p.Mouse(basePoint("A"), true, false)
	p.Wait("A as the target", `document.querySelector('#add-target').value === 'A'`)
	if n := count(`#board .decl .target-line`); n != 2 {
		t.Errorf("%d target lines, want one from each battery of the group", n)
	}
	p.Screenshot("described-group")
	p.Click("#shoot")
	p.Wait("the fire sent", `window.sent.length === 1`)
	p.Click("#shoot-1")
	p.Wait("the saved fire sent", `window.sent.length === 2`)
	sent := eval[[]map[string]any](p, `window.sent`)
	want := []map[string]any{
		{"side": "red", "action": map[string]any{"type": "fire", "batteries": []any{"b1", "b2"}, "target": "A"}},
		{"side": "red", "action": map[string]any{"type": "save", "batteries": []any{"b1", "b2"}}},
	}
	if !reflect.DeepEqual(sent, want) {
		t.Errorf("the page sent %v, want %v", sent, want)
	}

	// Clicking b3 chooses it: its overlays replace the group's.
	p.Mouse(basePoint("b3"), true, false)
	p.Wait("b3's arc", `[...document.querySelectorAll('#board .overlay title')].some(t => t.textContent === 'b3 arc')`)
	if n := count(`#board .overlay`); n != 2 {
		t.Errorf("%d overlays for b3, want its arc and the obstacle", n)
	}
	p.Screenshot("described-b3")
}
