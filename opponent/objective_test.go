package opponent

import (
	"testing"

	"github.com/volley-wargames/volley"
)

// TestObjectiveValue weighs a place by what it does to who holds the objectives at the
// end (the side with the most units within, nobody on a tie), for the side against the
// other: taken, contested, tipped, shared with friends, or left.
func TestObjectiveValue(t *testing.T) {
	// The crossroads, worth 3, round (10, 10) within 2; "mover" is the unit weighed.
	mover := piece{id: "mover", side: "A", x: 0, y: 0}
	friend := piece{id: "friend", side: "A", x: 10, y: 11}
	foe := piece{id: "foe", side: "B", x: 11, y: 10}
	foe2 := piece{id: "foe2", side: "B", x: 9, y: 10}
	cases := []struct {
		name   string
		pieces []piece
		grid   bool
		x, y   float64
		want   float64
	}{
		{"nobody there, the unit stays away", nil, false, 0, 0, 0},
		{"nobody there, the unit takes it", nil, false, 10, 10, 3},
		{"the enemy holds it, the unit stays away", []piece{foe}, false, 0, 0, -3},
		{"the enemy holds it with one, the unit contests it", []piece{foe}, false, 10, 10, 0},
		{"the enemy holds it with two, one unit does not contest it", []piece{foe, foe2}, false, 10, 10, -3},
		{"a friend holds it, the unit joins", []piece{friend}, false, 10, 10, 3},
		{"a friend holds it, the unit stays away", []piece{friend}, false, 0, 0, 3},
		{"a friend and a foe tie, the unit tips it", []piece{friend, foe}, false, 10, 10, 3},
		{"the unit holds it alone where it stands, and leaves", []piece{{id: "mover", side: "A", x: 10, y: 10}}, false, 0, 0, 0},
		{"a destroyed foe holds nothing", []piece{{id: "foe", side: "B", x: 10, y: 10, destroyed: true}}, false, 0, 0, 0},
		{"on a table, (12, 12) is 2.83 away: outside", nil, false, 12, 12, 0},
		{"on a grid, (12, 12) is 2 squares away: within", nil, true, 12, 12, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := &view{grid: tc.grid, unitIDs: map[string]bool{}, pieces: append([]piece{mover}, tc.pieces...)}
			if tc.pieces != nil && tc.pieces[0].id == "mover" {
				v.pieces = tc.pieces
			}
			for _, pc := range v.pieces {
				v.unitIDs[pc.id] = true
			}
			v.result.Objectives = []volley.HeldObjective{{Objective: volley.Objective{Name: "the crossroads", X: 10, Y: 10, Radius: 2, Points: 3}}}
			if got := v.objectiveValue("A", "mover", tc.x, tc.y); got != tc.want {
				t.Errorf("objectiveValue at (%g, %g) = %g, want %g", tc.x, tc.y, got, tc.want)
			}
		})
	}
}

// TestObjectiveValueNearsTheEnd: an objective counts in full in the last round, a half
// one round before, a third two before.
func TestObjectiveValueNearsTheEnd(t *testing.T) {
	for round, want := range map[int]float64{4: 3, 3: 1.5, 2: 1} {
		v := &view{unitIDs: map[string]bool{"mover": true}, pieces: []piece{{id: "mover", side: "A"}},
			end: &volley.End{Turns: 4}, turn: &volley.Turn{Side: "A", Number: round}}
		v.result.Objectives = []volley.HeldObjective{{Objective: volley.Objective{X: 10, Y: 10, Radius: 2, Points: 3}}}
		if got := v.objectiveValue("A", "mover", 10, 10); got != want {
			t.Errorf("round %d of 4: %g, want %g", round, got, want)
		}
	}
}
