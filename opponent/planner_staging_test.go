package opponent

import (
	"math"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
)

// TestInReach: a unit can be within an objective after its moves left when the straight
// way to the objective's edge is no longer than those moves and clears every wall (a piece
// that blocks sight and has no floor to stand on) by wallClearance widths of its base. The
// walls and their clearance are read from a table's view, as staging reads them: the
// mover's base is 0.8 wide, so a way must pass 1.6 from the hab block; a ruin with floors
// and a hedge that does not block sight are no walls.
func TestInReach(t *testing.T) {
	// The crossroads round (24, 24) within 5; a hab block between x 30 and 36, y 22 and 28.
	hab := [][2]float64{{30, 22}, {36, 22}, {36, 28}, {30, 28}}
	table := func(pieces ...volley.TablePiece) volley.TableView {
		return volley.TableView{Units: []volley.TableUnit{{ID: "mover", Placed: true, Base: 0.8}}, Terrain: pieces}
	}
	habBlock := table(volley.TablePiece{ID: "hab", Polygon: hab, BlocksLOS: true})
	others := table(volley.TablePiece{ID: "ruin", Polygon: hab, BlocksLOS: true, Levels: []volley.TableLevel{{Height: 3}}},
		volley.TablePiece{ID: "hedge", Polygon: hab})
	cases := []struct {
		name      string
		table     volley.TableView
		x, y      float64
		moves     int
		allowance float64
		grid      bool
		want      bool
	}{
		{"within it: no move needed", habBlock, 24, 20, 0, 6, false, true},
		{"11.18 from the centre, 6.18 from the edge: not in one move of 6", habBlock, 22, 13, 1, 6, false, false},
		{"6.18 from the edge: in two moves of 6", habBlock, 22, 13, 2, 6, false, true},
		{"6 from the edge, exactly one move", habBlock, 24, 13, 1, 6, false, true},
		{"in the last round, out of it: no moves left", habBlock, 24, 13, 0, 6, false, false},
		{"behind the hab block: the straight way goes through it", habBlock, 40, 25, 2, 8, false, false},
		{"behind a ruin with floors: no wall", others, 40, 25, 2, 8, false, true},
		{"beside the hab block, passing it 1.8 away: more than two widths", habBlock, 34, 17, 1, 8, false, true},
		{"passing its corner 1.17 away: more than a width, less than two", habBlock, 33, 19, 1, 8, false, false},
		{"passing its corner 0.15 away", habBlock, 31.5, 21.3, 1, 8, false, false},
		{"on a grid, 6 squares from the edge diagonally", volley.TableView{}, 35, 35, 1, 6, true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := &view{grid: tc.grid}
			v.result.Objectives = []volley.HeldObjective{{Objective: volley.Objective{Name: "the crossroads", X: 24, Y: 24, Radius: 5, Points: 3}}}
			w := v.walls("mover") // none on a grid
			if !tc.grid {
				w = tableWalls(tc.table, "mover")
			}
			if got := v.inReach(0, tc.x, tc.y, tc.moves, tc.allowance, w); got != tc.want {
				t.Errorf("inReach from (%g, %g) in %d moves of %g = %v, want %v", tc.x, tc.y, tc.moves, tc.allowance, got, tc.want)
			}
		})
	}
}

// TestStagingWeighsThePlaceAsWithin: in the round before the last, a place from which the
// unit can still take the crossroads nobody holds is worth what a place within it is
// worth then (a half of its 3 points); a place out of reach nothing; in the last round
// staging adds nothing (a place within counts already). A friend able to reach it takes
// the need away; the teaching level does not stage. Where an enemy acts after it, both
// count only as far as the unit lives: a place within the crossroads with a half chance
// of being destroyed there loses a half of what holding it counts (3 in the last round).
func TestStagingWeighsThePlaceAsWithin(t *testing.T) {
	mover := piece{id: "mover", side: "A", x: 24, y: 3, move: &volley.MoveView{Allowance: 6, Left: 6}}
	friend := piece{id: "friend", side: "A", x: 24, y: 14, move: &volley.MoveView{Allowance: 6, Left: 6}}
	flat := func(advise.PositionPoint) float64 { return 0 }
	cases := []struct {
		name   string
		level  Level
		round  int
		pieces []piece
		y      float64
		danger float64
		after  bool // an enemy acts after the side before the end
		want   float64
	}{
		{"the round before the last, 6 from the edge", Strong, 3, nil, 13, 0, false, 1.5},
		{"the round before the last, 7 from the edge", Strong, 3, nil, 12, 0, false, 0},
		{"two rounds before the last, 7 from the edge", Strong, 2, nil, 12, 0, false, 1},
		{"the last round", Strong, 4, nil, 13, 0, false, 0},
		{"a friend can take it", Strong, 3, []piece{friend}, 13, 0, false, 0},
		{"the teaching level", Teaching, 3, nil, 13, 0, false, 0},
		{"6 from the edge, a half chance of being destroyed there", Strong, 3, nil, 13, 0.5, true, 0.75},
		{"the last round, within it, a half chance of being destroyed there", Strong, 4, nil, 20, 0.5, true, -1.5},
		{"the last round, within it, nobody acts after", Strong, 4, nil, 20, 0.5, false, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := &view{unitIDs: map[string]bool{}, pieces: append([]piece{mover}, tc.pieces...),
				end: &volley.End{Turns: 4}, turn: &volley.Turn{Side: "A", Number: tc.round}, enemyAfter: tc.after}
			for _, pc := range v.pieces {
				v.unitIDs[pc.id] = true
			}
			v.result.Objectives = []volley.HeldObjective{{Objective: volley.Objective{Name: "the crossroads", X: 24, Y: 24, Radius: 5, Points: 3}}}
			p := &Player{Policy: Policy{Level: tc.level}, Side: "A"}
			if got := stagedRank(p, v, mover, "mover", flat)(advise.PositionPoint{X: 24, Y: tc.y, Danger: tc.danger}); math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("staging at (24, %g) = %g, want %g", tc.y, got, tc.want)
			}
		})
	}
}

// stagedRank is staging's rank alone.
func stagedRank(p *Player, v *view, pc piece, unit string, rank func(advise.PositionPoint) float64) func(advise.PositionPoint) float64 {
	r, _ := p.staging(v, pc, unit, rank)
	return r
}
