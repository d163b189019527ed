package http_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/servertest"
)

// skirmishEnd is a Dropzone battle of one round with an objective: the end's parts
// over the API.
const skirmishEnd = `ruleset: dropzone
title: A skirmish to the end
table: {width: 48, height: 48}
types:
  - name: Sabre
    armour: 10
    damage_points: 3
    base: 1.25
    height: 1
    move: 6"
    weapons:
      - {name: Avenger Railgun, mf: 4", arc: F/S/R, full_range: ∞, countered_range: 24", shots: 1, accuracy: 2+, energy: 10}
  - {name: Hunter, armour: 13, damage_points: 3, base: 1.25, height: 1, move: 6"}
units:
  - {id: sabre-1, type: Sabre, side: UCM, squad: sabres, at: [14, 6], facing: 0}
  - {id: hunter-1, type: Hunter, side: Scourge, squad: hunters, at: [12, 31], facing: 180}
end:
  turns: 1
  objectives:
    - {name: the ridge, at: [14, 12], radius: 2}
`

// TestGameOverTheAPI plays a one-round battle over the API: a move is taken back (and
// only by its side), the result stands in the view as the battle goes, the battle ends
// by itself when its last round ends, reveals its seed, refuses further actions, and its
// log, take-back included, verifies.
func TestGameOverTheAPI(t *testing.T) {
	ts := serve(t, servertest.SQLite(t))
	id, tokens := battle(t, ts.URL, []byte(skirmishEnd))
	act := sidesActor(t, ts.URL, id, tokens)
	get := func() map[string]any {
		_, v := call(t, "GET", ts.URL+"/api/battles/"+id, watch(id), "", nil)
		return v
	}
	if r := get()["result"].(map[string]any); r["over"] != false || r["last_round"] != 1.0 {
		t.Fatalf("the result at the start: %v", r)
	}
	if status, v := act("UCM", "{type: move, unit: sabre-1, path: [[14, 11]]}"); status != 200 {
		t.Fatalf("a move: %d %v", status, v)
	}
	v := get()
	if tb, _ := v["take_back"].(map[string]any); tb["side"] != "UCM" || tb["what"] != "the move of sabre-1" {
		t.Errorf("take_back after the move: %v", v["take_back"])
	}
	if s := v["result"].(map[string]any)["scores"].(map[string]any); s["UCM"] != 1.0 {
		t.Errorf("sabre-1 on the ridge: scores %v; want UCM 1", s)
	}
	if status, v := act("Scourge", "type: take_back"); status != 403 {
		t.Errorf("Scourge taking back UCM's move: %d %v", status, v)
	}
	if status, v := act("UCM", "type: take_back"); status != 200 {
		t.Fatalf("take back: %d %v", status, v)
	}
	v = get()
	for _, u := range v["table"].(map[string]any)["units"].([]any) {
		if m := u.(map[string]any); m["id"] == "sabre-1" && m["y"] != 6.0 {
			t.Errorf("sabre-1 after the take-back: %v", m)
		}
	}
	if v["take_back"] != nil {
		t.Errorf("take_back with nothing to take back: %v", v["take_back"])
	}
	if status, v := act("UCM", "type: take_back"); status != 400 {
		t.Errorf("a take-back with nothing to take back: %d %v", status, v)
	}
	if status, v := act("UCM", "squad: sabres\ndeclarations: [{unit: sabre-1, weapon: Avenger Railgun, target: hunter-1}]"); status != 200 {
		t.Fatalf("the shot: %d %v", status, v)
	} else if out := v["outcome"].(map[string]any); out["luck"] == nil {
		t.Errorf("the shot's outcome has no luck: %v", out)
	}
	for _, side := range []string{"UCM", "Scourge"} {
		if status, v := act(side, "type: end_turn"); status != 200 {
			t.Fatalf("%s ends its turn: %d %v", side, status, v)
		}
	}
	v = get()
	r := v["result"].(map[string]any)
	if v["ended"] != true || v["seed"] == nil || r["over"] != true || !strings.Contains(fmt.Sprint(r["reason"]), "round 1") {
		t.Fatalf("after the last round: ended %v, seed %v, result %v", v["ended"], v["seed"], r)
	}
	if status, v := act("UCM", "type: end_turn"); status != 409 {
		t.Errorf("an action after the end: %d %v", status, v)
	}
	if _, v := call(t, "GET", ts.URL+"/api/battles/"+id+"/verify", watch(id), "", nil); v["verified"] != true || v["actions"] != 5.0 {
		t.Errorf("verify: %v", v)
	}
}

// TestReplayOverTheAPI steps through a battle: the board after each action is the board
// as it stood then, an ended battle's last step is ended, and a step past the log or
// below 0 is a 400 naming at.
func TestReplayOverTheAPI(t *testing.T) {
	ts := serve(t, servertest.SQLite(t))
	id, tokens := battle(t, ts.URL, []byte(skirmishEnd))
	act := func(side, body string) {
		if status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/actions", tokens[side], "", []byte(body)); status != 200 {
			t.Fatalf("%s: %d %v", body, status, v)
		}
	}
	act("UCM", "{type: move, unit: sabre-1, path: [[14, 9]]}")
	act("UCM", "{type: move, unit: sabre-1, path: [[14, 11]]}")
	act("UCM", "type: end_turn")
	act("Scourge", "type: end_turn")
	sabreY := func(v map[string]any) any {
		for _, u := range v["table"].(map[string]any)["units"].([]any) {
			if m := u.(map[string]any); m["id"] == "sabre-1" {
				return m["y"]
			}
		}
		return nil
	}
	for at, want := range []float64{6, 9, 11, 11, 11} {
		status, v := call(t, "GET", fmt.Sprintf("%s/api/battles/%s/replay?at=%d", ts.URL, id, at), watch(id), "", nil)
		if status != 200 || sabreY(v) != want || v["actions"] != float64(at) || v["ended"] != (at == 4) {
			t.Errorf("replay at %d: %d, sabre-1 at y %v, actions %v, ended %v; want y %g", at, status, sabreY(v), v["actions"], v["ended"], want)
		}
	}
	for _, at := range []string{"5", "-1", "x"} {
		wantFieldError(t, "replay at "+at, ts.URL+"/api/battles/"+id+"/replay?at="+at, watch(id), "at")
	}
}
