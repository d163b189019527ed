package http_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestWarStrikeMovesOverTheAPI plays examples/warstrike/moves.yaml over the API: the
// deployment, the moves that choose each unit's action, a refused move that changes
// nothing, a shot of a unit that moved At-The-Double refused, a preview of a move and a
// shot from where it ends, the battle written back as a scenario, and the log verifies.
func TestWarStrikeMovesOverTheAPI(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "warstrike/moves.yaml")
	act := sidesActor(t, ts.URL, id, tokens)
	table := func() string {
		_, v := call(t, "GET", ts.URL+"/api/battles/"+id, watch(id), "", nil)
		b, _ := json.Marshal(v["table"])
		return string(b)
	}
	deployed(t, ts.URL, id, tokens, "Ironclad") // the Ironclad deploy first, and are done
	// The raiders, the Verdant's one unit: placed, their deployment ends, and the battle begins.
	if status, v := act("Verdant", "{type: deploy, unit: raiders, at: [24, 24]}"); status != 200 {
		t.Fatalf("the deployment: %d %v", status, v)
	}
	if status, v := act("Ironclad", "{type: move, unit: bravo, action: at_the_double, models: [{id: bravo-leader, path: [[5, 22]]}]}"); status != 200 {
		t.Fatalf("bravo's move: %d %v", status, v)
	}
	if status, v := act("Ironclad", "{unit: bravo, targets: [{unit: raiders}]}"); status != 400 || !strings.Contains(fmt.Sprint(v["message"]), "units that moved At-The-Double or fell back may not shoot") {
		t.Errorf("bravo's shot after At-The-Double: %d %v", status, v)
	}
	// What if alpha stepped round the wall, and shot from there?
	preview := `{"move": {"type": "move", "unit": "alpha", "action": "shooting_advance", "models": [{"id": "alpha-3", "path": [[25, 14]]}, {"id": "alpha-2", "path": [[23.5, 13]]}, {"id": "alpha-leader", "path": [[23, 14]]}]},
	  "then": {"unit": "alpha", "targets": [{"unit": "raiders"}]},
	  "danger": {"side": "Ironclad", "as": "alpha"}}`
	before := table()
	status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/preview", tokens["Ironclad"], "", []byte(preview))
	if status != 200 || v["legal"] != true || v["danger"] == nil {
		t.Fatalf("the preview: %d %v", status, v)
	}
	seen := 0
	for _, a := range v["aims"].([]any) {
		if a := a.(map[string]any); a["shooter"] == "alpha-3" && a["status"] == "ok" {
			seen++
		}
	}
	if seen != 2 {
		t.Errorf("alpha-3 sees %d raiders from the ghost, want 2: %v", seen, v["aims"])
	}
	status, v = call(t, "POST", ts.URL+"/api/battles/"+id+"/preview", tokens["Ironclad"], "", []byte(`{"move": {"type": "move", "unit": "alpha-3", "action": "halt", "path": [[22, 14]]}}`))
	if status != 200 || v["legal"] != false || !strings.Contains(fmt.Sprint(v["reason"]), "Halt moves 0\"") {
		t.Errorf("a preview of a move too long: %d %v", status, v)
	}
	if table() != before {
		t.Error("previews changed the battle")
	}
	if status, v := act("Ironclad", "{type: move, unit: alpha, action: shooting_advance, models: [{id: alpha-leader, path: [[23, 14]]}]}"); status != 400 || !strings.Contains(fmt.Sprint(v["message"]), "would pass over alpha-3's base") {
		t.Errorf("the leader through alpha-3: %d %v", status, v)
	}
	if table() != before {
		t.Error("a refused move changed the battle")
	}
	for _, body := range []string{
		"{type: move, unit: alpha, action: shooting_advance, models: [{id: alpha-3, path: [[25, 14]]}, {id: alpha-2, path: [[23.5, 13]]}, {id: alpha-leader, path: [[23, 14]]}]}",
		"{unit: alpha, targets: [{unit: raiders}]}",
	} {
		if status, v := act("Ironclad", body); status != 200 {
			t.Fatalf("%s: %d %v", body, status, v)
		}
	}
	now := scenarioNow(t, ts.URL, id)
	if !strings.Contains(now, "{id: alpha-3, at: [25, 14]}") || !strings.Contains(now, "{id: raider-1, at: [22, 24], leader: true}") {
		t.Errorf("the scenario as it stands:\n%s", now)
	}
	endVerified(t, ts.URL, id, tokens["Ironclad"], 5)
}

// TestWarfareMovesOverTheAPI plays examples/warfare/moves.yaml over the API: a move,
// then a fire whose band is measured after it; a stated band from before the move is
// refused; the log verifies.
func TestWarfareMovesOverTheAPI(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "warfare/moves.yaml")
	deployed(t, ts.URL, id, tokens, "English", "French")
	act := sidesActor(t, ts.URL, id, tokens)
	status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/preview", tokens["English"], "",
		[]byte(`{"move": {"type": "move", "unit": "longbowmen", "path": [[0, 2]]}, "then": {"unit": "longbowmen", "targets": [{"unit": "knights"}]}}`))
	if status != 200 || v["legal"] != true || !strings.Contains(fmt.Sprint(v["aims"]), "at effective range") {
		t.Errorf("the preview: %d %v", status, v)
	}
	if status, v := act("English", "{type: move, unit: longbowmen, path: [[0, 2]]}"); status != 200 {
		t.Fatalf("the move: %d %v", status, v)
	}
	if status, v := act("English", "{unit: longbowmen, targets: [{unit: knights, range: long}]}"); status != 400 || !strings.Contains(fmt.Sprint(v["errors"]), "at effective range; the server measures the range") {
		t.Errorf("the band from before the move: %d %v", status, v)
	}
	status, v = act("English", "{unit: longbowmen, targets: [{unit: knights}]}")
	if status != 200 {
		t.Fatalf("the fire: %d %v", status, v)
	}
	if tr, _ := json.Marshal(v["outcome"]); !strings.Contains(string(tr), `knights is 6\" from longbowmen, centre to centre where they stand now: effective range`) {
		t.Errorf("the fire's trace: %s", tr)
	}
	now := scenarioNow(t, ts.URL, id)
	if !strings.Contains(now, "at: [0, 2], move: 3") {
		t.Errorf("the scenario as it stands:\n%s", now)
	}
	endVerified(t, ts.URL, id, tokens["English"], 4)
}
