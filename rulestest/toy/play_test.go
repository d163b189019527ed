package toy_test

import (
	"context"
	"math"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/rulestest/toy"
)

// TestDeploy: a token is placed in its side's zone, on the table, clear of other bases.
func TestDeploy(t *testing.T) {
	b, _ := rulestest.LoadFile(t, toy.Ruleset, "testdata/skirmish.yaml")
	rulestest.Refused(t, b, `{type: deploy, unit: r2, at: [12, 10]}`, "outside red's deployment zone")
	rulestest.Refused(t, b, `{type: deploy, unit: r2, at: [6.5, 4]}`, "would pass over r1")
	rulestest.Refused(t, b, `{type: deploy, unit: b2, at: [6, 20]}`, "it is red's deployment")
	rulestest.Refused(t, b, `{type: move, unit: r1, path: [[6, 5]]}`, "the battle has not begun")
	rulestest.Play(t, b, `{type: deploy, unit: r2, at: [12, 3]}`)
	if u, _ := b.(*toy.Battle).Unit("r2"); !u.Placed || u.At.X != 12 || u.At.Y != 3 {
		t.Errorf("r2 at %v (placed %t)", u.At, u.Placed)
	}
}

// TestMoves: a token moves its allowance, in legs, before it shoots; no further, not over
// another base, not off the table, not out of turn, not after its shot.
func TestMoves(t *testing.T) {
	b := skirmish(t)
	rulestest.Refused(t, b, `{type: move, unit: r1, path: [[6, 11]]}`, `r1's move is 7" long, and it may move 6" more`)
	rulestest.Refused(t, b, `{type: move, unit: r2, path: [[3.5, 4]]}`, "leg 1 would pass over r1")
	rulestest.Refused(t, b, `{type: move, unit: r1, path: [[0.2, 4]]}`, "leg 1: its base would leave the table")
	rulestest.Refused(t, b, `{type: move, unit: b1, path: [[6, 16]]}`, "it is red's turn")
	rulestest.Play(t, b, `{type: move, unit: r1, path: [[6, 6], [8, 6]]}`)
	rulestest.Refused(t, b, `{type: move, unit: r1, path: [[8, 9]]}`, `r1's move is 3" long, and it may move 2" more`)
	rulestest.Play(t, b, `{type: shoot, unit: r1, target: b1}`)
	rulestest.Refused(t, b, `{type: move, unit: r1, path: [[8, 7]]}`, "r1 has shot this turn")
	rulestest.Play(t, b, `{type: move, unit: r2, path: [[12, 3], [12, 6]]}`)
	rulestest.Refused(t, b, `{type: move, unit: r2, path: [[12, 6.5]]}`, `r2 has moved its 6" this turn`)
	rulestest.Refused(t, b, `{type: move, unit: r1, path: [[8, 7]]}`, "r1 has already acted this turn")
	if u, _ := b.Unit("r1"); u.At.X != 8 || u.At.Y != 6 {
		t.Errorf("r1 at %v, want 8, 6", u.At)
	}
}

// TestOdds: the exact odds by hand, and against Monte Carlo.
func TestOdds(t *testing.T) {
	b := skirmish(t)
	for _, c := range []struct {
		src     string
		need    float64
		wounds  []float64
		destroy float64
	}{
		// b1, 11" away with 1 wound: 5+ on each of two dice; one hit is enough.
		{`{type: shoot, unit: r1, target: b1}`, 5, []float64{4.0 / 9, 5.0 / 9}, 5.0 / 9},
		// b1, 5.5" away once r1 has moved: 4+.
		{`{type: shoot, unit: r1, target: b1}`, 4, []float64{0.25, 0.75}, 0.75},
	} {
		if c.need == 4 {
			rulestest.Play(t, b, `{type: move, unit: r1, path: [[6, 9.5]]}`)
		}
		a := rulestest.Decode(t, b, c.src)
		o := rulestest.Odds(t, b, a)
		if o.Aims[0].Need != c.need || len(o.Targets) != 1 {
			t.Fatalf("%s: %+v", c.src, o)
		}
		for n, p := range c.wounds {
			if got := o.Targets[0].Distributions["wounds"].P(n); math.Abs(got-p) > 1e-12 {
				t.Errorf("%s: P(%d wounds) = %v, want %v", c.src, n, got, p)
			}
		}
		if math.Abs(o.Targets[0].PDestroyed-c.destroy) > 1e-12 {
			t.Errorf("%s: P(destroyed) = %v, want %v", c.src, o.Targets[0].PDestroyed, c.destroy)
		}
		rulestest.SimAgreesWithOdds(t, b, a, 7, 20_000)
	}
	aim := rulestest.AimOf(t, b, `{type: shoot, unit: r2, target: b2}`)[0]
	if aim.Status != volley.StatusOutOfRange {
		t.Errorf("r2 at b2, 18\" away: %+v", aim)
	}
}

// TestDangerMap: every value by hand. b1 (1 wound) and b2 shoot at a copy of r1 (2 wounds).
func TestDangerMap(t *testing.T) {
	b := skirmish(t)
	q := advise.DangerQuery{Side: "red", As: "r1", Area: [4]float64{5.5, 0, 6.5, 24}, Step: 1}
	for _, obj := range []advise.ObjectiveKind{advise.Destroyed, advise.Expected} {
		q.Objective = obj
		m := rulestest.Danger(t, b, q)
		if m.Cols != 1 || m.Rows != 24 {
			t.Fatalf("%d × %d points", m.Cols, m.Rows)
		}
		for r := range m.Rows {
			y := 0.5 + float64(r)
			// Each shooter's two dice at (6, y): 4+ within 6", 5+ to 12".
			var dice []float64
			for _, s := range [][2]float64{{6, 15}, {18, 20}} {
				switch d := math.Hypot(6-s[0], y-s[1]); {
				case d <= 6:
					dice = append(dice, 0.5, 0.5)
				case d <= 12:
					dice = append(dice, 1.0/3, 1.0/3)
				}
			}
			want := 0.0
			if obj == advise.Expected {
				// Wounds lost, at most 2: the expected hits, less what a third or fourth hit adds.
				dist := []float64{1}
				for _, p := range dice {
					next := make([]float64, len(dist)+1)
					for k, q := range dist {
						next[k] += q * (1 - p)
						next[k+1] += q * p
					}
					dist = next
				}
				for k, q := range dist {
					want += float64(min(k, 2)) * q
				}
			} else {
				miss1 := 1.0 // P(fewer than 2 hits) = P(0) + P(1)
				p0, p1 := 1.0, 0.0
				for _, p := range dice {
					p0, p1 = p0*(1-p), p1*(1-p)+p0*p
				}
				miss1 = p0 + p1
				want = 1 - miss1
			}
			if got := m.At(0, r); math.Abs(got-want) > 1e-12 {
				t.Errorf("%s at (6, %v): %v, want %v", obj, y, got, want)
			}
		}
		// Spot values: at (6, 14.5) b1 is 0.5" away (4+) and b2 12.5" (none): 1/4 destroyed,
		// 1 wound expected; at (6, 0.5) nothing reaches.
		spot := map[advise.ObjectiveKind]float64{advise.Destroyed: 0.25, advise.Expected: 1}[obj]
		if got := m.At(0, 14); math.Abs(got-spot) > 1e-12 || m.At(0, 0) != 0 {
			t.Errorf("%s: %v at (6, 14.5), want %v; %v at (6, 0.5), want 0", obj, got, spot, m.At(0, 0))
		}
	}
	rulestest.DangerRefuses(t, b, []rulestest.DangerRefusal{
		{Query: advise.DangerQuery{Side: "green", As: "r1"}, Want: `no unit is on side "green"`},
		{Query: advise.DangerQuery{Side: "red", As: "r7"}, Want: `no token "r7"`},
	})
}

// TestPositionMap: r1's map: its own place at no distance, with the advisor's offence;
// the reach of a point by hand; a point too far out of reach; the best point's move
// played as written.
func TestPositionMap(t *testing.T) {
	b := skirmish(t)
	rulestest.OffenceStandingStill(t, b, "red", "r1", []float64{0.5, 1}, 1e-12)
	m := rulestest.Position(t, b, advise.PositionQuery{Unit: "r1", Step: 1})
	at := func(x, y float64) int {
		c, r := int(math.Round((x-m.X0)/m.Step)), int(math.Round((y-m.Y0)/m.Step))
		return m.At(c, r)
	}
	// Straight up 5", nothing in the way; at (6, 9) b1 is 6" away: 4+, and its one wound.
	if i := at(6, 9); math.Abs(m.Reach[i]-5) > 1e-9 || math.Abs(m.OffenceValues[i]-0.75) > 1e-12 {
		t.Errorf("(6, 9): reach %v, offence %v; want 5 and 0.75 (b1's one wound, 4+ on either die)", m.Reach[i], m.OffenceValues[i])
	}
	// 6.4" away: out of the 6" allowance.
	if i := at(11, 8); !math.IsNaN(m.Reach[i]) || !math.IsNaN(m.OffenceValues[i]) {
		t.Errorf("(11, 8): reach %v, offence %v; want out of reach", m.Reach[i], m.OffenceValues[i])
	}
	if len(m.Top) == 0 || m.Top[0].Move == nil {
		t.Fatalf("no top point with a move: %+v", m.Top)
	}
	if _, err := rulestest.PlayMapAction(t, b, m.Top[0].Move); err != nil {
		t.Errorf("the best point's move %v: %v", m.Top[0].Move, err)
	}
	if _, err := b.Position(context.Background(), advise.PositionQuery{Unit: "b1"}); err == nil {
		t.Error("a blue token's map in red's turn")
	}
}
