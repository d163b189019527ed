package http_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/servertest"
)

// TestRepubliqueOverTheAPI plays the Republique demo's phase through the API: a pairing,
// a skirmish fire, the end of the step, a grand battery's fire and a refusal naming the
// main target, the end of the segment with its leader tests; then the log verifies.
func TestRepubliqueOverTheAPI(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "republique/demo.yaml")
	fr, au := sideTokens(t, tokens, "French", "Austrian")
	act := actorOf(t, ts.URL, id)
	// The forced main target, with its reason, from aim.
	status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/aim", watch(id), "", []byte("{type: fire, batteries: [g2], target: IR7}"))
	if status != http.StatusOK {
		t.Fatalf("aim: %d %v", status, v)
	}
	aim := v["aims"].([]any)[0].(map[string]any)
	if aim["forced"] != "IR3" || !strings.Contains(aim["reason"].(string), "not the main target") {
		t.Errorf("aim at IR7: %v", aim)
	}
	act(fr, "{type: oppose, pairs: [[s1, k1], [s2, k2]]}", http.StatusOK)
	act(au, "{type: end_step}", http.StatusForbidden) // the French player ends his own step
	act(fr, "{type: end_step}", http.StatusOK)
	act(fr, "{type: fire, batteries: [g1, g2], die: 3}", http.StatusBadRequest) // the server rolls
	v = act(fr, "{type: fire, batteries: [g1, g2]}", http.StatusOK)
	if o := v["outcome"].(map[string]any); len(o["rolls"].([]any)) != 1 || len(o["targets"].([]any)) != 2 {
		t.Errorf("grand battery: %v", o)
	}
	act(fr, "{type: fire, batteries: [g1]}", http.StatusBadRequest) // once a turn
	act(au, "{type: fire, batteries: [ab]}", http.StatusOK)         // both sides fire in the segment
	act(fr, "{type: end_step}", http.StatusOK)
	_, v = call(t, "GET", ts.URL+"/api/battles/"+id, watch(id), "", nil)
	if turn := v["state"].(map[string]any)["turn"].(map[string]any); turn["side"] != "Austrian" || turn["phase"] != "maneuver" {
		t.Errorf("after the segment: %v", turn)
	}
	call(t, "POST", ts.URL+"/api/battles/"+id+"/end", fr, "", nil)
	status, v = call(t, "GET", ts.URL+"/api/battles/"+id+"/verify", watch(id), "", nil)
	if status != http.StatusOK || v["verified"] != true {
		t.Errorf("verify: %d %v", status, v)
	}
}

// republiqueMoves is examples/republique/moves.yaml as a server takes it: its charts in
// place (a posted scenario names no other file), its actions left for the players.
func republiqueMoves(t *testing.T) []byte {
	t.Helper()
	src := string(example(t, "republique/moves.yaml"))
	src = src[:strings.Index(src, "\nactions:")+1]
	charts := string(example(t, "republique/sample-charts.yaml"))
	var in strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(charts), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			in.WriteString("  " + line + "\n")
		}
	}
	return []byte(strings.Replace(src, "charts: {file: sample-charts.yaml}\n", "charts:\n"+in.String(), 1))
}

// TestRepubliqueMovesOverTheAPI: moves are refereed actions, their coordinates in the
// scenario's cm; a move across a battery's front pauses play for the other side's answer,
// shown in the state with the actions it may take; out of turn is a 403, the mover's side
// waits (409); a stated battery fact is a 400 naming it; the battle written back and
// verified.
func TestRepubliqueMovesOverTheAPI(t *testing.T) {
	ts := serve(t, servertest.SQLite(t))
	id, tokens := battle(t, ts.URL, republiqueMoves(t))
	deployed(t, ts.URL, id, tokens, "French", "Austrian")
	fr, au := tokens["French"], tokens["Austrian"]
	act := actorOf(t, ts.URL, id)
	view := func() map[string]any {
		_, v := call(t, "GET", ts.URL+"/api/battles/"+id, watch(id), "", nil)
		return v
	}
	// What if the column marched across the battery's front? The preview says the
	// Austrians could answer, and changes nothing.
	status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/preview", fr, "", []byte(`{"move": {"type": "move", "unit": "ligne", "path": [[56, 40]]}}`))
	if turn, _ := v["state"].(map[string]any)["turn"].(map[string]any); status != 200 || v["legal"] != true || turn["phase"] != "passing fire" {
		t.Errorf("the preview of the march: %d %v", status, v)
	}
	act(fr, `{"type": "move", "unit": "ligne", "path": [[56, 40]]}`, http.StatusOK)
	turn := view()["state"].(map[string]any)["turn"].(map[string]any)
	if turn["side"] != "Austrian" || turn["phase"] != "passing fire" || turn["end"].(map[string]any)["type"] != "decline" {
		t.Errorf("the pause: %v", turn)
	}
	if offers := turn["actions"].([]any); len(offers) != 2 || offers[0].(map[string]any)["type"] != "passing_fire" || offers[0].(map[string]any)["target"] != "ligne" {
		t.Errorf("what the Austrians may do: %v", offers)
	}
	act(fr, "{type: move, unit: hussars, path: [[60, 28]]}", http.StatusConflict) // the French wait
	act(fr, "{type: decline}", http.StatusForbidden)                              // not theirs to decline
	act(au, "{type: passing_fire, batteries: [ab], target: ligne}", http.StatusOK)
	act(fr, "{type: move, unit: hussars, path: [[60, 28]]}", http.StatusOK)
	for _, c := range []struct{ body, field string }{
		{"{type: save, batteries: [fs], moved: {fs: false}}", "moved"},
		{"{type: fire, batteries: [fb], limbered: {fb: false}}", "limbered"},
		{"{type: fire, batteries: [fs], saved_fire: {fs: true}}", "saved_fire"},
	} {
		v := act(fr, c.body, http.StatusBadRequest)
		if !strings.HasPrefix(v["message"].(string), c.field+": the server measures") || !strings.HasPrefix(v["field"].(string), "body:") {
			t.Errorf("stating %s: %v", c.field, v)
		}
	}
	act(fr, "{type: move, unit: fb, path: [[30, 25]], unlimber: true}", http.StatusOK)
	table := view()["table"].(map[string]any)
	if table["moves"] == nil || table["edge"] == nil {
		t.Errorf("the view's moves and edge: %v %v", table["moves"], table["edge"])
	}
	// The edge and the zones in the scenario's cm, as the units are (the table is kept in
	// inches).
	if got := fmt.Sprint(table["edge"], table["zones"].(map[string]any)["French"]); got != "[0 0 120 80] [[0 0] [120 0] [120 30] [0 30]]" {
		t.Errorf("the view's edge and French zone: %s", got)
	}
	for _, u := range table["units"].([]any) {
		if m := u.(map[string]any); m["id"] == "fb" {
			if mv := m["move"].(map[string]any); mv["moved"] != 14.0 || mv["left"] != 16.0 {
				t.Errorf("fb's move: %v", mv)
			}
		}
	}
	now := scenarioNow(t, ts.URL, id)
	if !strings.Contains(now, "id: fb") || !strings.Contains(now, "positions: [[30, 25]]") {
		t.Errorf("the scenario as it stands:\n%s", now)
	}
	endVerified(t, ts.URL, id, fr, 6)
}
