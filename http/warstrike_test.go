package http_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestWarStrikeOverTheAPI plays the WarStrike demo through the API: the aim of a unit at
// a unit, pair by pair with its reasons; a mistaken action answered 400 at its field; a
// refusal by the rules; an action stated with a shot refused, chosen with a move instead;
// a shot, its markers in the state; the turn; and the log verifies.
func TestWarStrikeOverTheAPI(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "warstrike/demo.yaml")
	ir, ve := sideTokens(t, tokens, "Ironclad", "Verdant")
	status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/aim", watch(id), "", []byte("{unit: watchers, targets: [{unit: raiders}]}"))
	if status != http.StatusOK {
		t.Fatalf("aim: %d %v", status, v)
	}
	aims := v["aims"].([]any)
	if len(aims) != 3 {
		t.Fatalf("%d aims, want the sniper at each of 3 raiders", len(aims))
	}
	for _, a := range aims {
		a := a.(map[string]any)
		if a["target"] == "raiders-2" && (a["status"] != "blocked" || !strings.Contains(a["reason"].(string), `24.6" > 24" sight distance`)) {
			t.Errorf("the sniper at raiders-2: %v", a)
		}
	}
	act := actorOf(t, ts.URL, id)
	bad := act(ir, "{unit: watchers, targets: [{unit: raidres}]}", http.StatusBadRequest)
	if msg := fmt.Sprint(bad["errors"]); !strings.Contains(msg, "1:") || !strings.Contains(msg, `unknown target "raidres"`) {
		t.Errorf("the mistake reads %q", msg)
	}
	// Alpha's leader cannot see the raiders behind the wall: the rules refuse.
	refused := act(ir, "{unit: alpha, targets: [{unit: raiders}]}", http.StatusBadRequest)
	if msg := fmt.Sprint(refused["message"]); !strings.Contains(msg, "the leader must see at least one model of each target") {
		t.Errorf("the refusal reads %q", msg)
	}
	act(ve, "{unit: raiders, targets: [{unit: alpha}]}", http.StatusConflict) // not Verdant's turn
	// The action a unit shoots with is chosen with its move, not stated with the shot.
	stated := act(ir, "{unit: watchers, as: focus_fire, targets: [{unit: raiders}]}", http.StatusBadRequest)
	if !strings.HasPrefix(fmt.Sprint(stated["message"]), "as: the server measures") || !strings.HasPrefix(fmt.Sprint(stated["field"]), "body:") {
		t.Errorf("a shot stating its action: %v", stated)
	}
	act(ir, "{type: move, unit: watchers, action: focus_fire}", http.StatusOK)
	v = act(ir, "{unit: watchers, targets: [{unit: raiders}]}", http.StatusOK)
	if o := v["outcome"].(map[string]any); len(o["targets"].([]any)) != 1 {
		t.Errorf("outcome: %v", o)
	}
	act(ir, "{type: end_turn}", http.StatusOK)
	_, v = call(t, "GET", ts.URL+"/api/battles/"+id, watch(id), "", nil)
	state := v["state"].(map[string]any)
	if turn := state["turn"].(map[string]any); turn["side"] != "Verdant" {
		t.Errorf("after the turn: %v", turn)
	}
	for _, u := range state["units"].([]any) {
		u := u.(map[string]any)
		if u["id"] == "watchers" && u["values"].(map[string]any)["action"] != float64(4) { // none, then the actions in order: focus_fire is the 4th
			t.Errorf("watchers: %v", u)
		}
	}
	call(t, "POST", ts.URL+"/api/battles/"+id+"/end", ir, "", nil)
	status, v = call(t, "GET", ts.URL+"/api/battles/"+id+"/verify", watch(id), "", nil)
	if status != http.StatusOK || v["verified"] != true {
		t.Errorf("verify: %d %v", status, v)
	}
}
