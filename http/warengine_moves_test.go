package http_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestWarEngineMovesOverTheAPI plays examples/warengine/moves.yaml over the API: a
// deployment and Phase I's moves are refereed actions like any other, in turn and
// logged; an order stating aiming is a 400 naming it; a refused move changes nothing;
// a preview answers from where a move would end, the danger there included; the battle
// written back as a scenario has the units where they stand; and the battle verifies.
func TestWarEngineMovesOverTheAPI(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "warengine/moves.yaml")
	act := sidesActor(t, ts.URL, id, tokens)
	units := func() map[string]map[string]any { return unitsOf(t, ts.URL, id, "board") }
	for _, a := range []struct{ side, body string }{
		{"trenchers", "{type: end_deployment}"},
		{"raiders", "{type: deploy, unit: raider-2, at: [15, 1], facing: S}"},
		{"raiders", "{type: end_deployment}"},
		{"trenchers", "{type: move, unit: murphy, facing: NE}"},
		{"trenchers", "{type: move, unit: hale, path: [[12, 9], [11, 8], [11, 7]]}"},
	} {
		if status, v := act(a.side, a.body); status != 200 {
			t.Fatalf("%s: %d %v", a.body, status, v)
		}
	}
	if u := units()["hale"]; u["y"] != 7.0 || u["move"].(map[string]any)["moved"] != 3.0 || u["move"].(map[string]any)["left"] != 2.0 {
		t.Errorf("hale after his move: %v", u)
	}
	// Through the wall: refused, and nothing changes.
	before := units()
	if status, v := act("trenchers", "{type: move, unit: hale, path: [[12, 8]]}"); status != 400 || !strings.Contains(fmt.Sprint(v["message"]), "the ruined wall at 12,8 blocks it") {
		t.Errorf("a move into the wall: %d %v", status, v)
	}
	if fmt.Sprint(units()) != fmt.Sprint(before) {
		t.Error("a refused move changed the battle")
	}
	if status, v := act("raiders", "{type: move, unit: raider-1, path: [[8, 3]]}"); status != 409 {
		t.Errorf("a move out of turn: %d %v", status, v)
	}
	// What if hale stepped on to 12,6: legal, his shot from there, and the danger there.
	preview := `{"move": {"type": "move", "unit": "hale", "path": [[12, 6]]},
	  "then": {"type": "fire", "unit": "hale", "weapon": "HMG Model 50", "target": "raider-2"},
	  "danger": {"side": "trenchers", "as": "hale"}}`
	status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/preview", tokens["trenchers"], "", []byte(preview))
	if status != 200 || v["legal"] != true || len(v["aims"].([]any)) != 1 {
		t.Fatalf("a preview: %d %v", status, v)
	}
	if d, ok := v["danger"].(map[string]any); !ok || d["scores"] != "P(destroyed)" {
		t.Errorf("the danger where hale would stand: %v", v["danger"])
	}
	// A copy of his type cannot stand where he would: said, not a broken answer.
	status, v = call(t, "POST", ts.URL+"/api/battles/"+id+"/preview", tokens["trenchers"], "",
		[]byte(strings.Replace(preview, `"as": "hale"`, `"as": "Trencher Private"`, 1)))
	if status != 400 || !strings.Contains(fmt.Sprint(v["message"]), "cannot stand where the move ends") {
		t.Errorf("the danger for a copy where hale would stand: %d %v", status, v)
	}
	// Aiming is measured: an order may not state it.
	act("trenchers", "type: end_phase")
	status, v = act("trenchers", "{type: declare, unit: hale, weapon: HMG Model 50, target: raider-2, aiming: true}")
	if status != 400 || !strings.HasPrefix(fmt.Sprint(v["message"]), "aiming: the server measures") || !strings.HasPrefix(fmt.Sprint(v["field"]), "body:") {
		t.Errorf("a declaration stating aiming: %d %v", status, v)
	}
	if status, v := act("trenchers", "{type: declare, unit: hale, weapon: HMG Model 50, target: raider-2}"); status != 200 {
		t.Fatalf("the declaration: %d %v", status, v)
	}
	// The scenario as it stands: the units where they are now.
	now := scenarioNow(t, ts.URL, id)
	if !strings.Contains(now, "{id: hale, name: Pte Hale, type: Trencher Private, side: trenchers, at: [11, 7], facing: \"N\"}") ||
		!strings.Contains(now, "{id: raider-2, type: Raider, side: raiders, at: [15, 1], facing: S}") {
		t.Errorf("the scenario as it stands:\n%s", now)
	}
	if next, _ := battle(t, ts.URL, []byte(now)); next == "" {
		t.Error("the exported scenario does not start a battle")
	}
	endVerified(t, ts.URL, id, tokens["trenchers"], 7)
}
