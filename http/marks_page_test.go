package http_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestPageBoardMarks: the board shows the battle. On a Dropzone table a damaged Hunter is
// marked "2/3 damage points" beside it, as its state says; the sides' colours have a key;
// a shot fired on another page is drawn live from who fired to what it hit, with what it
// did beside the target, as the log tells it. On a WarStrike table a dead model is drawn
// where it fell, crossed out, and a unit's action, once chosen, is marked beside it.
func TestPageBoardMarks(t *testing.T) {
	exe, base := chromiumAndServer(t)
	src := strings.Replace(string(withEnd(t, "dropzone/moves.yaml", sabresEnd)),
		"{id: hunter-1, type: Hunter, side: Scourge, squad: hunters, at: [12, 31], facing: 180}",
		"{id: hunter-1, type: Hunter, side: Scourge, squad: hunters, at: [12, 31], facing: 180, damage_points: 2}", 1)
	id, tokens := battle(t, base, []byte(src))
	n0 := begin(t, base, id, tokens)
	p := newBrowserAt(t, exe, base)
	p.openAs(id, "Scourge="+tokens["Scourge"])
	p.Wait("hunter-1's mark", `document.querySelector('#board [data-mark="hunter-1"]')`)
	if got := p.Text(`#board [data-mark="hunter-1"]`); got != "2/3 damage points" {
		t.Errorf("hunter-1's mark reads %q", got)
	}
	if n := eval[int](p, `document.querySelectorAll('#board .unit-mark').length`); n != 1 {
		t.Errorf("%d units marked; only hunter-1 is damaged", n)
	}
	if got := p.Text("#side-key"); !strings.Contains(got, "Scourge") || !strings.Contains(got, "UCM") {
		t.Errorf("the sides' key reads %q", got)
	}
	for side, colour := range map[string]string{"UCM": "rgb(179, 38, 30)", "Scourge": "rgb(31, 95, 168)"} {
		if got := eval[string](p, fmt.Sprintf(`getComputedStyle(document.querySelector('#side-key [data-side=%q] .swatch')).backgroundColor`, side)); got != colour {
			t.Errorf("%s's swatch is %s, want %s (the board's)", side, got, colour)
		}
	}

	// UCM fires (through the API): the Scourge's page draws the shot live.
	shot := `{"squad":"sabres","declarations":[{"unit":"sabre-3","weapon":"Avenger Railgun","target":"hunter-2"}]}`
	if status, body := call(t, "POST", base+"/api/battles/"+id+"/actions", tokens["UCM"], "", []byte(shot)); status != 200 {
		t.Fatalf("the shot: %d %v", status, body)
	}
	p.Wait("the last shot", `document.querySelector('#last-shot line[data-target="hunter-2"]')`)
	if n := eval[int](p, `document.querySelectorAll('#last-shot line').length`); n != 1 {
		t.Errorf("%d lines drawn for a shot of one weapon at one target", n)
	}
	from := eval[[]float64](p, `(() => { const l = document.querySelector('#last-shot line'); return [+l.getAttribute('x1'), +l.getAttribute('y1')]; })()`)
	sabre := eval[[]float64](p, `(() => { const c = document.querySelector('#board .unit[data-unit="sabre-3"] circle'); return [+c.getAttribute('cx'), +c.getAttribute('cy')]; })()`)
	if from[0] != sabre[0] || from[1] != sabre[1] {
		t.Errorf("the shot is drawn from %v; sabre-3 stands at %v", from, sabre)
	}
	words := p.apiGet("/api/battles/"+id+"/log", nil)["actions"].([]any)[n0].(map[string]any)["words"].([]any)
	label := p.Text(`#board [data-shot="hunter-2"]`)
	prefix := fmt.Sprintf("#%d: ", n0)
	said := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(label, prefix), " — destroyed"), "…") // long words are cut short
	if !strings.HasPrefix(label, prefix) || said == "" || !strings.Contains(fmt.Sprint(words), said) {
		t.Errorf("the shot's label reads %q; the log's words are %q", label, words)
	}
	p.Screenshot("marks-dropzone")

	// WarStrike: a dead model where it fell; the action chosen marked on its unit.
	src = strings.Replace(string(example(t, "warstrike/moves.yaml")), "{id: raider-2, at: [30, 31]}", "{id: raider-2, at: [30, 31], dead: true}", 1)
	if i := strings.Index(src, "\nactions:"); i >= 0 {
		src = src[:i+1]
	}
	id, tokens = battle(t, base, []byte(src))
	begin(t, base, id, tokens)
	p.openAs(id, "Ironclad="+tokens["Ironclad"])
	p.Wait("the dead model", `document.querySelector('#board .unit.destroyed[data-unit="raider-2"] line.x')`)
	xy := p.unitAt("raider-2")
	if xy[0] != 30 || xy[1] != 31 {
		t.Errorf("the dead raider-2 is drawn at %v, where it fell is 30, 31", xy)
	}
	move := `{"type":"move","unit":"alpha","action":"shooting_advance","models":[{"id":"alpha-3","path":[[22,14]]}]}`
	if status, body := call(t, "POST", base+"/api/battles/"+id+"/actions", tokens["Ironclad"], "", []byte(move)); status != 200 {
		t.Fatalf("the move: %d %v", status, body)
	}
	p.Wait("alpha's action marked", `document.querySelector('#board [data-mark="alpha"]')?.textContent.includes('Shooting Advance')`)
	p.Screenshot("marks-warstrike")
}
