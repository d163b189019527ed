package dropzone

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rulestest"
)

// soloSabre is moves.yaml with sabre-1 a squad of its own, so that its squad's best plan
// is its own.
func soloSabre(tb testing.TB) *Battle {
	tb.Helper()
	src := sys.ReadExample(tb, "moves.yaml")
	s := strings.Replace(src, "{id: sabre-1, type: Sabre, side: UCM, squad: sabres,", "{id: sabre-1, type: Sabre, side: UCM, squad: solo,", 1)
	s = s[:strings.Index(s, "\nactions:")] + "\n"
	b, _ := sys.Load(tb, s)
	rulestest.EndDeployment(tb, b)
	return b
}

// TestPositionMatchesBruteForce: at sample points, each of a position map's two values
// equals what a real move there gives — the advisor's best plan of the unit after a move
// action along the map's way there, and the danger map at the point it ends on.
func TestPositionMatchesBruteForce(t *testing.T) {
	b := soloSabre(t)
	ctx := context.Background()
	for _, obj := range []string{"expected", "destroyed"} {
		t.Run(obj, func(t *testing.T) {
			o, _ := advise.ParseObjective(obj)
			m, err := b.Position(ctx, advise.PositionQuery{Unit: "sabre-1", Objective: o, Step: 1})
			if err != nil {
				t.Fatal(err)
			}
			rulestest.Sizable(t, m, 50)
			for _, i := range rulestest.Sample(t, m, 7, 10) {
				p, reach := m.Point(i), m.Reach[i]
				// The real move: along the map's own way there.
				f := b.Fork().(*Battle)
				way, _ := b.positionSetup(advise.PositionQuery{Unit: "sabre-1", Step: 1})
				if err := way.ways(ctx, b.table.Edged); err != nil {
					t.Fatal(err)
				}
				pts := way.reach.Path(geom.V(p.X, p.Y))
				if math.Abs(pts.Length()-reach) > 1e-9 {
					t.Fatalf("the way to %v is %v long; the map says %v", p, pts.Length(), reach)
				}
				var legs []string
				for _, q := range pts[1:] {
					legs = append(legs, fmt.Sprintf("[%v, %v]", q.X, q.Y))
				}
				mv := decode(t, f, "{type: move, unit: sabre-1, path: ["+strings.Join(legs, ", ")+"]}")
				if _, err := f.Resolve(ctx, mv, dice.ForAction(1, 0)); err != nil {
					t.Fatalf("the map's way to %v is refused: %v", p, err)
				}
				want, err := rulestest.AdvisorsBest(t, f, advise.Query{Side: "UCM", Actor: "solo"}, o)
				if err != nil {
					t.Fatal(err)
				}
				rulestest.PointAgrees(t, p, want, 1e-9, rulestest.DangerAt(t, f, advise.DangerQuery{Side: "UCM", As: "Sabre"}, p.X, p.Y))
			}
			rulestest.ParetoFront(t, m)
		})
	}
}

// TestPositionRefuses: a unit that may not move has no map; nor does a battle begun
// before moves.
func TestPositionRefuses(t *testing.T) {
	b := movesBattle(t)
	if _, err := b.Position(context.Background(), advise.PositionQuery{Unit: "hunter-1"}); err == nil || !strings.Contains(err.Error(), "may not move now") {
		t.Errorf("an enemy in the UCM's turn: %v", err)
	}
	if _, err := b.Position(context.Background(), advise.PositionQuery{Unit: "nobody"}); volley.ErrorCode(err) != volley.EINVALID {
		t.Errorf("no such unit: %v", err)
	}
}

// squadBattle is moves.yaml before its actions: the three Sabres of squad sabres to act.
func squadBattle(tb testing.TB) *Battle {
	tb.Helper()
	src := sys.ReadExample(tb, "moves.yaml")
	s := src
	b, _ := sys.Load(tb, s[:strings.Index(s, "\nactions:")]+"\n")
	rulestest.EndDeployment(tb, b)
	return b
}

// squadMovesYAML writes a squad's way as the player's moves, one per unit in the way's
// order, at full precision.
func squadMovesYAML(s *squadSetup, w *squadWay) []string {
	var out []string
	for _, i := range w.order {
		var legs []string
		for _, q := range w.paths[i][1:] {
			legs = append(legs, fmt.Sprintf("[%v, %v]", q.X, q.Y))
		}
		out = append(out, "{type: move, unit: "+s.units[i].ID+", path: ["+strings.Join(legs, ", ")+"]}")
	}
	return out
}

// TestSquadPositionMatchesBruteForce: a map asked of a squad moves it as a formation. At
// every reachable point the map's way is moves the battle accepts, one unit after
// another, leaving each unit at its place round the point, the farthest having gone the
// map's reach; at sample points the offence is the squad's best plan (the advisor's)
// after those moves, and the danger the highest of the danger map's values for each unit
// (a unit like it) where it ends. Every top point's moves, as written, are accepted.
func TestSquadPositionMatchesBruteForce(t *testing.T) {
	b := squadBattle(t)
	ctx := context.Background()
	for _, tc := range []struct {
		obj    string
		danger advise.ObjectiveKind
	}{{"expected", advise.Destroyed}, {"destroyed", advise.Expected}} {
		o, _ := advise.ParseObjective(tc.obj)
		q := advise.PositionQuery{Unit: "sabres", Objective: o, Danger: tc.danger, Step: 1}
		m, err := b.Position(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		rulestest.Sizable(t, m, 50)
		if m.Unit != "sabres" {
			t.Fatalf("%s: the map's unit is %q", tc.obj, m.Unit)
		}
		s, err := b.squadSetup(q)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.ways(ctx, b.table.Edged); err != nil {
			t.Fatal(err)
		}
		checked, offence, still := 0, 0, 0
		for i, reach := range m.Reach {
			if math.IsNaN(reach) {
				continue
			}
			p := m.Point(i)
			at := geom.V(p.X, p.Y)
			f := b.Fork().(*Battle)
			w := s.wayTo(f, at)
			if w == nil {
				t.Fatalf("the map reaches %v; its way there is nil", at)
			}
			v := s.shift(w, at)
			if w.paths == nil {
				still++
			}
			far := 0.0
			for _, src := range squadMovesYAML(s, w) {
				if _, err := f.Resolve(ctx, decode(t, f, src), dice.ForAction(1, 0)); err != nil {
					t.Fatalf("the map's way to %v: %s is refused: %v", at, src, err)
				}
			}
			for _, orig := range s.units {
				u, _ := f.Unit(orig.ID)
				if u.At.Dist(orig.At.Add(v)) > 1e-9 {
					t.Fatalf("the moves to %v leave %s at %v, not %v", at, u.ID, u.At, orig.At.Add(v))
				}
				far = max(far, f.act.moved[u.ID])
			}
			if math.Abs(far-reach) > 1e-9 {
				t.Errorf("at %v: the farthest unit moved %v; the map's reach is %v", at, far, reach)
			}
			if i%5 != 0 {
				continue
			}
			checked++
			want, err := rulestest.AdvisorsBest(t, f, advise.Query{Side: "UCM", Actor: "sabres"}, o)
			if err != nil {
				t.Fatal(err)
			}
			if p.Offence > 0 {
				offence++
			}
			// The squad's danger is the danger map's highest for the three Sabres.
			most := 0.0
			for _, orig := range s.units {
				u, _ := f.Unit(orig.ID)
				most = max(most, rulestest.DangerAt(t, f, advise.DangerQuery{Side: "UCM", As: "Sabre", Like: u.ID, Objective: tc.danger}, u.At.X, u.At.Y))
			}
			rulestest.PointAgrees(t, p, want, 1e-9, most)
		}
		if checked < 10 || offence < 3 || still > 1 {
			t.Errorf("%s: %d points checked, %d with offence, %d standing still", tc.obj, checked, offence, still)
		}
		for _, tp := range m.Top {
			if tp.Move != nil || (len(tp.Moves) == 0 && tp.Reach > 0) {
				t.Errorf("top point (%v, %v): move %v, moves %v", tp.X, tp.Y, tp.Move, tp.Moves)
			}
			f := b.Fork().(*Battle)
			for _, mv := range tp.Moves {
				src, _ := json.Marshal(mv)
				if _, err := f.Resolve(ctx, decode(t, f, string(src)), dice.ForAction(1, 0)); err != nil {
					t.Errorf("the moves to (%v, %v): %v is refused: %v", tp.X, tp.Y, mv, err)
				}
			}
		}
	}
}

// TestSquadPositionRefuses: a squad one of whose units may not move has no formation
// map, and says which unit and why; an unknown name is hinted among units and squads.
func TestSquadPositionRefuses(t *testing.T) {
	b := squadBattle(t)
	rulestest.Play(t, b, "{type: move, unit: sabre-1, path: [[14, 12]]}") // its whole 6"
	_, err := b.Position(context.Background(), advise.PositionQuery{Unit: "sabres"})
	if volley.ErrorCode(err) != volley.EINVALID || !strings.Contains(err.Error(), "may not move as a formation now") {
		t.Errorf("sabres after firing: %v", err)
	}
	_, err = b.Position(context.Background(), advise.PositionQuery{Unit: "sabers"})
	if err == nil || !strings.Contains(err.Error(), "sabres") {
		t.Errorf("a misspelt squad: %v", err)
	}
}

// TestPositionOffersStandingStill: the unit's own place is a point of its map, whatever
// the step (at 1" the nearest point was 0.35" from it), at no distance, its offence what
// the advisor gives where the unit stands; and the squad's map has its place, unmoved.
func TestPositionOffersStandingStill(t *testing.T) {
	b := soloSabre(t)
	ctx := context.Background()
	adv, err := advise.Advise(ctx, b, advise.Query{Side: "UCM", Actor: "solo"}, advise.Objective{Kind: advise.Expected}, 1, advise.Budget{})
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []float64{1, 0.7, 0.5} {
		m, err := b.Position(ctx, advise.PositionQuery{Unit: "sabre-1", Step: step})
		if err != nil {
			t.Fatal(err)
		}
		i := rulestest.StandingStill(t, m)
		if got, want := m.OffenceValues[i], adv[0].Plans[0].Value; math.Abs(got-want) > 1e-12 {
			t.Errorf("step %v: offence standing still %v; the advisor where sabre-1 stands: %v", step, got, want)
		}
	}
	sq := squadBattle(t)
	for _, step := range []float64{1, 0.7} {
		m, err := sq.Position(ctx, advise.PositionQuery{Unit: "sabres", Step: step})
		if err != nil {
			t.Fatal(err)
		}
		rulestest.StandingStill(t, m)
	}
}
