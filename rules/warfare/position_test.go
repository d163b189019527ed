package warfare

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rulestest"
)

// positionSrc is examples/warfare/position.yaml in the system asked for: the longbowmen
// with the billmen in their way north, the crossbowmen and archers who shoot back, the
// knights who cannot.
func positionSrc(tb testing.TB, system string) string {
	tb.Helper()
	return strings.Replace(sys.ReadExample(tb, "position.yaml"), "system: alternate", "system: "+system, 1)
}

// TestPositionMatchesBruteForce: at every point of a position map, its values equal what
// a real move there gives — the move the map writes, decoded as a player's and made, then
// the advisor's best plan of the unit and the danger map at the point it ends on — in both
// systems, under two objectives.
func TestPositionMatchesBruteForce(t *testing.T) {
	ctx := context.Background()
	for _, system := range []string{"alternate", "existing"} {
		b := loadSrc(t, positionSrc(t, system), 0)
		for _, obj := range []string{"expected", "at_least:3"} {
			t.Run(system+" "+obj, func(t *testing.T) {
				o, _ := advise.ParseObjective(obj)
				q := advise.PositionQuery{Unit: "longbowmen", Objective: o, Danger: advise.Expected, Step: 1}
				m, err := b.Position(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				rulestest.Sizable(t, m, 80)
				s := waysOf(t, b, q)
				some := map[bool]int{} // points with offence, and without
				for i, reach := range m.Reach {
					if math.IsNaN(reach) {
						continue
					}
					p := m.Point(i)
					at := geom.V(p.X, p.Y)
					if way := s.Reach.Path(at); math.Abs(way.Length()-reach) > 1e-9 {
						t.Fatalf("the way to %v is %v long; the map says %v", at, way.Length(), reach)
					}
					f := b.Fork().(*Battle)
					legs := 0
					if mv := b.moveTo(s, s.point(i%m.Cols, i/m.Cols)); mv != nil {
						a, err := rulestest.PlayMapAction(t, f, mv)
						if err != nil {
							t.Fatalf("the map's way to %v is refused: %v", at, err)
						}
						legs = len(a.(*Move).Points)
					} else if reach != 0 {
						t.Errorf("no move to %v, %v away", at, reach)
					}
					u, _ := f.Unit("longbowmen")
					if math.Hypot(u.At.X-p.X, u.At.Y-p.Y) > 1e-9 || math.Abs(f.act.Moved["longbowmen"]-reach) > 0.002*float64(legs) {
						t.Errorf("the move to %v ended at %v after %v; the map says %v", at, *u.At, f.act.Moved["longbowmen"], reach)
					}
					want, _ := rulestest.AdvisorsBest(t, f, advise.Query{Side: "English", Actor: "longbowmen"}, o)
					some[want > 0]++
					danger := rulestest.DangerAt(t, f, advise.DangerQuery{Side: "English", As: "longbowmen", Objective: advise.Expected}, p.X, p.Y)
					rulestest.PointAgrees(t, p, want, 1e-12, danger)
				}
				if some[true] < 10 || some[false] < 5 {
					t.Errorf("%s %s: %d points with offence and %d without: the test proves little", system, obj, some[true], some[false])
				}
				// The top points' moves and plans are the map's own.
				for _, tp := range m.Top {
					if tp.Move == nil && tp.Reach != 0 || math.Abs(tp.Offence-m.OffenceValues[m.At(int(math.Round((tp.X-m.X0)/m.Step)), int(math.Round((tp.Y-m.Y0)/m.Step)))]) > 0 {
						t.Errorf("top point %+v", tp)
					}
					if tp.Offence > 0 && tp.Plan == nil {
						t.Errorf("top point %v: offence %v with plan %v", tp, tp.Offence, tp.Plan)
					}
				}
			})
		}
	}
}

// TestPositionReach: every way the map gives is legal as checkMove sees it (round the
// true circles of the bases, no longer than the move left), never shorter than the
// straight line; the billmen in the way make some points longer than the straight line
// and put some beyond reach that the crow would reach.
func TestPositionReach(t *testing.T) {
	b := loadSrc(t, positionSrc(t, "alternate"), 0)
	m := rulestest.Position(t, b, advise.PositionQuery{Unit: "longbowmen", Step: 0.5})
	s := waysOf(t, b, advise.PositionQuery{Unit: "longbowmen", Step: 0.5})
	u, _ := b.Unit("longbowmen")
	start := geom.V(u.At.X, u.At.Y)
	longer, shadowed := 0, 0
	for i, reach := range m.Reach {
		p := m.Point(i)
		at := geom.V(p.X, p.Y)
		crow := at.Dist(start)
		if math.IsNaN(reach) {
			// A point the unit's base would fit on, within its move as the crow flies.
			fits := crow <= u.Move && b.table.OnTable(at, u.Base/2) == ""
			for j := range b.units {
				if o := &b.units[j]; o != u && at.Dist(geom.V(o.At.X, o.At.Y)) < (o.Base+u.Base)/2+0.05 {
					fits = false
				}
			}
			if fits {
				shadowed++
			}
			continue
		}
		if reach < crow-1e-9 || reach > u.Move+1e-9 {
			t.Fatalf("%v: reach %v, as the crow flies %v, move %v", at, reach, crow, u.Move)
		}
		if reach > crow+0.01 {
			longer++
		}
		way := s.Reach.Path(at)
		if err := b.Fork().(*Battle).checkMove(&Move{Unit: u.ID, Points: way[1:]}); err != nil {
			t.Fatalf("the way to %v: %v", at, err)
		}
	}
	if longer < 10 || shadowed < 3 {
		t.Errorf("%d points the way round the billmen makes longer, %d out of reach behind them; want some of each", longer, shadowed)
	}
	// Behind the billmen, north of them: out of reach.
	if i := m.At(int(math.Round((0.25-m.X0)/m.Step)), int(math.Round((5.75-m.Y0)/m.Step))); !math.IsNaN(m.Reach[i]) {
		t.Errorf("behind the billmen, %v: reach %v", m.Point(i), m.Reach[i])
	}
}

// TestPositionRefuses: a unit that may not move, a battle begun before moves and an
// unknown unit are refused at unit; a map is priced, and stops when its context is done.
func TestPositionRefuses(t *testing.T) {
	ctx := context.Background()
	b := loadSrc(t, positionSrc(t, "alternate"), 0)
	check := func(name string, b *Battle, unit, want string) {
		t.Helper()
		_, err := b.Position(ctx, advise.PositionQuery{Unit: unit})
		var e *volley.Error
		if !errors.As(err, &e) || e.Field != "unit" || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want a refusal at unit saying %q", name, err, want)
		}
		if _, err := b.PositionWork(advise.PositionQuery{Unit: unit}); err == nil {
			t.Errorf("%s: priced", name)
		}
	}
	check("an enemy in the English turn", b, "knights", "may not move now")
	check("no such unit", b, "nobody", "no unit \"nobody\"")
	check("an old battle", loadSrc(t, positionSrc(t, "alternate"), 3), "longbowmen", "began before units moved")
	fired := b.Fork().(*Battle)
	rulestest.Play(t, fired, "{type: move, unit: longbowmen, path: [[0, -1]]}", "unit: longbowmen\ntargets: [{unit: crossbowmen}]")
	check("a unit that has fired", fired, "longbowmen", "has fired this turn")
	still := loadSrc(t, strings.Replace(positionSrc(t, "alternate"), "at: [0, 0], move: 6, ", "at: [0, 0], ", 1), 0)
	check("a unit without a move", still, "longbowmen", "has no move")
	if _, err := b.Position(ctx, advise.PositionQuery{Unit: "longbowmen", Objective: advise.Objective{Kind: advise.Destroy, Unit: "billmen"}}); volley.ErrorCode(err) != volley.EINVALID {
		t.Errorf("destroying a friend: %v", err)
	}

	// Priced: more for more points, and refused above volley.MaxHeavyWork.
	w1, err := b.PositionWork(advise.PositionQuery{Unit: "longbowmen", Step: 1})
	if err != nil {
		t.Fatal(err)
	}
	w2, _ := b.PositionWork(advise.PositionQuery{Unit: "longbowmen", Step: 0.25})
	if !(w1 > 0 && w2 > w1) {
		t.Errorf("work at 1\" %d, at 0.25\" %d", w1, w2)
	}
	if _, err := b.PositionWork(advise.PositionQuery{Unit: "longbowmen", Step: 0.002}); volley.ErrorCode(err) != volley.EINVALID {
		t.Errorf("a map of millions of points: %v", err)
	}
	// Cancelled: it stops, with the context's error.
	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := b.Position(done, advise.PositionQuery{Unit: "longbowmen"}); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled map: %v", err)
	}
}

// TestPositionMidMove: a unit that has moved part of its move maps what it has left, and
// the map's moves then take it no further than its whole move.
func TestPositionMidMove(t *testing.T) {
	b := loadSrc(t, positionSrc(t, "alternate"), 0)
	rulestest.Play(t, b, "{type: move, unit: longbowmen, path: [[-2, 0]]}")
	m := rulestest.Position(t, b, advise.PositionQuery{Unit: "longbowmen", Step: 1})
	if m.Left != 4 || m.From != [2]float64{-2, 0} {
		t.Fatalf("from %v with %v left; want (-2, 0) with 4", m.From, m.Left)
	}
	for i, reach := range m.Reach {
		if !math.IsNaN(reach) && (reach > 4+1e-9 || geom.V(m.Point(i).X, m.Point(i).Y).Dist(geom.V(-2, 0)) > 4+1e-9) {
			t.Fatalf("%v: reach %v beyond the 4\" left", m.Point(i), reach)
		}
	}
}

// TestPositionInCentimetres: a battle measured in centimetres maps in centimetres, and
// the moves it writes are read back in them, ending on the map's points.
func TestPositionInCentimetres(t *testing.T) {
	ctx := context.Background()
	b := loadSrc(t, `ruleset: warfare
system: alternate
distances: cm
table: {corner: [-30, -15], width: 60, height: 60}
tables: {ranges: {longbow: {close: 7.5, effective: 15, long: 30}}}
units:
  - {id: archers, side: A, stands: 4, figures_per_stand: 3, weapon: longbow, at: [0, 0], move: 10, base: 5}
  - {id: wall, side: A, stands: 2, figures_per_stand: 3, at: [1, 6.5], base: 4}
  - {id: foe, side: B, stands: 4, figures_per_stand: 3, weapon: longbow, at: [0, 32], base: 5}
`, 0)
	q := advise.PositionQuery{Unit: "archers", Step: 2}
	m, err := b.Position(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if m.Length != "cm" || math.Abs(m.Left-10) > 1e-9 || m.Reachable < 40 {
		t.Fatalf("%s, %v left, %d points", m.Length, m.Left, m.Reachable)
	}
	s := waysOf(t, b, q)
	bent := 0
	for i, reach := range m.Reach {
		if math.IsNaN(reach) {
			continue
		}
		p := m.Point(i)
		f := b.Fork().(*Battle)
		mv := b.moveTo(s, s.point(i%m.Cols, i/m.Cols))
		if mv == nil {
			continue // standing still
		}
		a, err := rulestest.PlayMapAction(t, f, mv)
		if err != nil {
			t.Fatalf("%v: %v", mv, err)
		}
		u, _ := f.Unit("archers")
		if math.Hypot(u.At.X*2.54-p.X, u.At.Y*2.54-p.Y) > 1e-6 || math.Abs(f.act.Moved["archers"]*2.54-reach) > 0.01 {
			t.Errorf("%v ends at %v after %v in; the map: (%v, %v) %v cm", mv, *u.At, f.act.Moved["archers"], p.X, p.Y, reach)
		}
		if len(a.(*Move).Points) > 1 {
			bent++
		}
	}
	if bent == 0 {
		t.Error("no way bends round the wall")
	}
}

// TestPositionOffersStandingStill: the unit's own place is a point of its map, whatever
// the step, at no distance, its offence what the advisor gives where the unit stands.
func TestPositionOffersStandingStill(t *testing.T) {
	rulestest.OffenceStandingStill(t, loadSrc(t, positionSrc(t, "alternate"), 0), "English", "longbowmen", []float64{1, 0.7}, 1e-12)
}

// waysOf is the setup of q's map with its ways worked out, as Position has them.
func waysOf(t *testing.T, b *Battle, q advise.PositionQuery) *positionSetup {
	t.Helper()
	s, err := b.positionSetup(q)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Build(context.Background(), b.table.Edged); err != nil {
		t.Fatal(err)
	}
	return s
}
