package opponent

import (
	"testing"

	"github.com/volley-wargames/volley"
)

// TestObjectivesKeyFollowsFriends: the key of a unit's position map changes when a friend
// moves onto an objective, or to where it can reach one by the end, and not when it moves
// elsewhere, so that the map's best places are chosen again for the new count (a map read
// before chose them for the old table); greedy's rank reads no objective, and its key
// never changes.
func TestObjectivesKeyFollowsFriends(t *testing.T) {
	mover := piece{id: "mover", side: "A", x: 24, y: 3, move: &volley.MoveView{Allowance: 6, Left: 6}}
	key := func(level Level, friendAt [2]float64) string {
		friend := piece{id: "friend", side: "A", x: friendAt[0], y: friendAt[1], move: &volley.MoveView{Allowance: 6, Moved: 6, Why: "it has moved"}}
		v := &view{unitIDs: map[string]bool{"mover": true, "friend": true}, pieces: []piece{mover, friend},
			end: &volley.End{Turns: 4}, turn: &volley.Turn{Side: "A", Number: 3}}
		v.result.Objectives = []volley.HeldObjective{{Objective: volley.Objective{Name: "the crossroads", X: 24, Y: 24, Radius: 5, Points: 3}}}
		p := &Player{Policy: Policy{Level: level}, Side: "A"}
		return p.objectivesKey(v, mover, "mover")
	}
	far, farther, near, within := [2]float64{44, 44}, [2]float64{46, 44}, [2]float64{24, 13}, [2]float64{24, 22}
	if a, b := key(Strong, far), key(Strong, farther); a != b {
		t.Errorf("a friend moving from out of reach to out of reach changed the key: %q, %q", a, b)
	}
	if a, b := key(Strong, far), key(Strong, near); a == b {
		t.Errorf("a friend moving to within reach of the crossroads left the key as it was: %q", a)
	}
	if a, b := key(Strong, far), key(Strong, within); a == b {
		t.Errorf("a friend moving onto the crossroads left the key as it was: %q", a)
	}
	if a, b := key(Teaching, far), key(Teaching, within); a == b {
		t.Errorf("teaching: a friend moving onto the crossroads left the key as it was: %q", a)
	}
	if a, b := key(Greedy, far), key(Greedy, within); a != "" || b != "" {
		t.Errorf("greedy's key = %q, %q; want none", a, b)
	}
}
