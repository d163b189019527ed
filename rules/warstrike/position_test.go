package warstrike

import (
	"context"
	"errors"
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

// positionBattle is examples/warstrike/position.yaml (alpha behind the field wall, the
// raiders beyond it, the watchers beyond the house) under edition (0: the current one),
// with extra lines added to alpha's entry.
func positionBattle(tb testing.TB, edition int, alpha string) *Battle {
	tb.Helper()
	src := sys.ReadExample(tb, "position.yaml")
	s := strings.Replace(src, "    name: Fireteam Alpha\n", "    name: Fireteam Alpha\n"+alpha, 1)
	b, _ := loadEdition(tb, s, edition)
	return b.(*Battle)
}

// wayYAML writes the map's way as a player's move, at full precision.
func wayYAML(s *positionSetup, w *way) string {
	var models []string
	for _, i := range w.order {
		var pts []string
		for _, p := range w.paths[i][1:] {
			pts = append(pts, fmt.Sprintf("[%v, %v]", p.X, p.Y))
		}
		models = append(models, fmt.Sprintf("{id: %s, path: [%s]}", s.models[i].ID, strings.Join(pts, ", ")))
	}
	src := "{type: move, unit: " + s.u.ID
	if s.u.Action == "" {
		src += ", action: " + string(w.act)
	}
	if len(models) > 0 {
		src += ", models: [" + strings.Join(models, ", ") + "]"
	}
	return src + "}"
}

// setupWays is the map's setup with its ways built, as Position builds them.
func setupWays(tb testing.TB, b *Battle, q advise.PositionQuery) *positionSetup {
	tb.Helper()
	s, err := b.positionSetup(q)
	if err != nil {
		tb.Fatal(err)
	}
	if err := s.buildWays(context.Background(), b); err != nil {
		tb.Fatal(err)
	}
	return s
}

// TestPositionMatchesBruteForce: at every reachable point the map's way is a move the
// battle accepts, whose farthest model goes the map's reach, with the cheapest action
// that reaches the point and lets alpha shoot (else the cheapest); at sample points the
// map's offence is the advisor's best plan after that move, and its danger the danger
// map of alpha where the move leaves it.
func TestPositionMatchesBruteForce(t *testing.T) {
	b := positionBattle(t, 0, "")
	ctx := context.Background()
	for _, tc := range []struct {
		obj    string
		danger advise.ObjectiveKind
	}{{"expected", advise.Destroyed}, {"destroyed", advise.Expected}, {"at_least:2", advise.Destroyed}} {
		t.Run(tc.obj, func(t *testing.T) {
			o, _ := advise.ParseObjective(tc.obj)
			q := advise.PositionQuery{Unit: "alpha", Objective: o, Danger: tc.danger}
			m, err := b.Position(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			rulestest.Sizable(t, m, 200)
			if m.Left != 12 {
				t.Fatalf("%s: %v\" left", tc.obj, m.Left)
			}
			s := setupWays(t, b, q)
			checked, offence := 0, 0
			for i, reach := range m.Reach {
				if math.IsNaN(reach) {
					continue
				}
				p := m.Point(i)
				at := geom.V(p.X, p.Y)
				w := s.wayTo(b, at)
				f := b.Fork().(*Battle)
				if _, err := f.Resolve(ctx, rulestest.Decode(t, f, wayYAML(s, w)), dice.ForAction(1, 0)); err != nil {
					t.Fatalf("the map's way to %v is refused: %v", at, err)
				}
				u, _ := f.Unit("alpha")
				if c, _ := f.formationCentre(u); c.Dist(at) > 1e-9 {
					t.Fatalf("the move to %v leaves alpha centred on %v", at, c)
				}
				if got := f.farthest(u); math.Abs(got-reach) > 1e-9 {
					t.Errorf("at %v: the farthest model moved %v; the map's reach is %v", at, got, reach)
				}
				if got, want := u.Action, cheapestAction(reach); got != want {
					t.Errorf("at %v (%v away): the move's action is %s; the cheapest that lets alpha shoot, else the cheapest, is %s", at, reach, got, want)
				}
				if i%4 != 0 {
					continue
				}
				checked++
				// An action that lets alpha shoot is refused advice only for want of a target.
				want, err := rulestest.AdvisorsBest(t, f, advise.Query{Side: "Ironclad", Actor: "alpha"}, o)
				if err != nil && u.Action.allowsShooting() && !strings.Contains(err.Error(), "no legal plan") && !strings.Contains(err.Error(), "cannot hurt") {
					t.Fatalf("at %v: the advisor: %v", at, err)
				}
				if want > 0 {
					offence++
				}
				danger := rulestest.DangerAt(t, f, advise.DangerQuery{Side: "Ironclad", As: "alpha", Objective: tc.danger}, p.X, p.Y)
				rulestest.PointAgrees(t, p, want, 1e-9, danger)
			}
			if checked < 40 || offence < 3 {
				t.Errorf("%s: only %d points checked, %d of them with offence", tc.obj, checked, offence)
			}
			// Every top point's move, as the map writes it, is one the battle accepts.
			for _, tp := range m.Top {
				f := b.Fork().(*Battle)
				if _, err := rulestest.PlayMapAction(t, f, tp.Move); err != nil {
					t.Errorf("the move to (%v, %v) is refused: %v", tp.X, tp.Y, err)
				}
			}
		})
	}
}

// cheapestAction is the action the example's sample moves make a move of d inches
// choose: Open Fire standing still, Shooting Advance to 4", then Advance to 6" and
// At-The-Double to 12", which forbid shooting.
func cheapestAction(d float64) Action {
	switch {
	case d <= 1e-9:
		return OpenFire
	case d <= 4+1e-9:
		return ShootingAdvance
	case d <= 6+1e-9:
		return Advance
	}
	return AtTheDouble
}

// formationCentre is the centre of u's living models.
func (b *Battle) formationCentre(u *Unit) (geom.Vec, int) {
	c, n := geom.Vec{}, 0
	for i := range u.Models {
		if m := &u.Models[i]; m.Alive() {
			c, n = c.Add(m.At), n+1
		}
	}
	return c.Scale(1 / float64(n)), n
}

// TestPositionReach: no point is nearer than the crow flies, nor further than 12"; the
// wall and the house hold no point; beyond the wall the ways bend round its end.
func TestPositionReach(t *testing.T) {
	b := positionBattle(t, 0, "")
	m := rulestest.Position(t, b, advise.PositionQuery{Unit: "alpha", Step: 0.5})
	from := geom.V(m.From[0], m.From[1])
	at := map[[2]float64]float64{}
	for i, reach := range m.Reach {
		p := m.Point(i)
		if math.IsNaN(reach) {
			if !math.IsNaN(m.OffenceValues[i]) || !math.IsNaN(m.DangerValues[i]) {
				t.Errorf("(%v, %v) cannot be reached but has scores", p.X, p.Y)
			}
			continue
		}
		at[[2]float64{p.X, p.Y}] = reach
		if d := from.Dist(geom.V(p.X, p.Y)); reach < d-1e-9 || reach > 12+1e-9 {
			t.Errorf("(%v, %v): reach %v, %v as the crow flies, 12\" at most", p.X, p.Y, reach, d)
		}
		// The formation's models stand clear of the wall and the house.
		for _, dx := range []float64{-1.5, 0, 1.5} {
			q := geom.V(p.X+dx, p.Y)
			for j := range b.terrain {
				if geom.SweepHitsPolygon(geom.Segment{A: q, B: q}, 0.5, b.terrain[j].Poly) {
					t.Errorf("(%v, %v) puts a model on %s", p.X, p.Y, b.terrain[j].ID)
				}
			}
		}
	}
	if at[[2]float64{15.5, 10}] != 0 {
		t.Errorf("where alpha stands: %v", at[[2]float64{15.5, 10}])
	}
	// Beyond the wall, the way goes round its east end: far longer than straight.
	beyond, ok := at[[2]float64{15.5, 17}]
	if !ok || beyond < from.Dist(geom.V(15.5, 17))+2 {
		t.Errorf("beyond the wall at (15.5, 17): reach %v (%v); want the way round its end", beyond, ok)
	}
}

// TestPositionInCentimetres: the example written in centimetres, every length the same
// number (the wall's thickness too), is the same battle a 2.54th the size; its map, in centimetres, is the same
// numbers, and its moves are written in centimetres.
func TestPositionInCentimetres(t *testing.T) {
	src := sys.ReadExample(t, "position.yaml")
	// The wall's thickness written, not the default, which is in inches.
	s := strings.Replace(src, "line: [[5, 15], [17, 15]]", "line: [[5, 15], [17, 15]], thickness: 0.25", 1)
	bt, _ := loadEdition(t, s, 0)
	in := bt.(*Battle)
	bt, _ = loadEdition(t, "distances: cm\n"+s, 0)
	cm := bt.(*Battle)
	ctx := context.Background()
	a, err := in.Position(ctx, advise.PositionQuery{Unit: "alpha"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := cm.Position(ctx, advise.PositionQuery{Unit: "alpha"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Length != "cm" || c.Step != 2.54 || c.Left != 12 {
		t.Fatalf("in cm: %s, step %v, %v left", c.Length, c.Step, c.Left)
	}
	// At a step of 1cm the points fall on the inch map's.
	c, err = cm.Position(ctx, advise.PositionQuery{Unit: "alpha", Step: 1})
	if err != nil {
		t.Fatal(err)
	}
	if c.Cols != a.Cols || math.Abs(c.X0-a.X0) > 1e-9 || c.Reachable != a.Reachable {
		t.Fatalf("%d × from %v, %d points; in inches %d from %v, %d", c.Cols, c.X0, c.Reachable, a.Cols, a.X0, a.Reachable)
	}
	for i := range a.Reach {
		same := func(x, y float64) bool { return math.IsNaN(x) && math.IsNaN(y) || math.Abs(x-y) < 1e-9 }
		if !same(a.Reach[i], c.Reach[i]) || !same(a.OffenceValues[i], c.OffenceValues[i]) || !same(a.DangerValues[i], c.DangerValues[i]) {
			t.Fatalf("%v: %v %v %v in inches, %v %v %v in cm", a.Point(i), a.Reach[i], a.OffenceValues[i], a.DangerValues[i], c.Reach[i], c.OffenceValues[i], c.DangerValues[i])
		}
	}
	if fmt.Sprint(a.Top[0].Move) != fmt.Sprint(c.Top[0].Move) {
		t.Errorf("the best move: %v in inches, %v in cm", a.Top[0].Move, c.Top[0].Move)
	}
	// Sent on its own, the move is read in the battle's unit, and goes where the map says.
	if _, err := rulestest.PlayMapAction(t, cm, c.Top[0].Move); err != nil {
		t.Fatal(err)
	}
	u, _ := cm.Unit("alpha")
	if at, _ := cm.formationCentre(u); math.Abs(at.X*2.54-c.Top[0].X) > 1e-6 || math.Abs(at.Y*2.54-c.Top[0].Y) > 1e-6 {
		t.Errorf("the best move leaves alpha at %v cm; the map says (%v, %v)", at.Scale(2.54), c.Top[0].X, c.Top[0].Y)
	}
}

// TestPositionOrder: a formation moving along its own line moves front first, each
// model into the place a fellow has left; backwards, the other way round.
func TestPositionOrder(t *testing.T) {
	b := positionBattle(t, 0, "")
	s := setupWays(t, b, advise.PositionQuery{Unit: "alpha"})
	for _, tc := range []struct {
		to    geom.Vec
		order string
	}{{geom.V(17, 10), "alpha-leader alpha-3 alpha-2"}, {geom.V(14, 10), "alpha-2 alpha-3 alpha-leader"}} {
		w := s.wayTo(b, tc.to)
		if w == nil {
			t.Fatalf("%v: no way", tc.to)
		}
		var ids []string
		for _, i := range w.order {
			ids = append(ids, s.models[i].ID)
		}
		if got := strings.Join(ids, " "); got != tc.order {
			t.Errorf("to %v: %s; want %s", tc.to, got, tc.order)
		}
		if w.reach != 1.5 || w.act != ShootingAdvance {
			t.Errorf("to %v: %v with %s", tc.to, w.reach, w.act)
		}
	}
}

// TestPositionKeepsTheAction: a unit that chose its action this turn is mapped with it
// and what its models have left; its moves do not name the action again.
func TestPositionKeepsTheAction(t *testing.T) {
	b := positionBattle(t, 0, "")
	rulestest.Play(t, b, "{type: move, unit: alpha, action: shooting_advance, models: [{id: alpha-leader, path: [[18, 10]]}, {id: alpha-3, path: [[16.5, 10]]}, {id: alpha-2, path: [[15, 10]]}]}")
	m := rulestest.Position(t, b, advise.PositionQuery{Unit: "alpha", Step: 0.5})
	if m.Left != 3 || m.Reachable < 50 {
		t.Fatalf("%v\" left, %d points", m.Left, m.Reachable)
	}
	for i, reach := range m.Reach {
		if reach > 3+1e-9 {
			t.Errorf("%v is %v away; alpha has 3\" left", m.Point(i), reach)
		}
	}
	for _, tp := range m.Top {
		if _, ok := tp.Move["action"]; ok {
			t.Errorf("a move names the action again: %v", tp.Move)
		}
	}
	if !strings.Contains(strings.Join(m.Notes, "\n"), "alpha chose Shooting Advance this turn") {
		t.Errorf("the notes: %v", m.Notes)
	}
}

// TestPositionPinnedDown: a unit that may not shoot this turn (two suppression markers)
// has no offence anywhere, and the notes say why.
func TestPositionPinnedDown(t *testing.T) {
	b := positionBattle(t, 0, "    suppression: 2\n")
	m := rulestest.Position(t, b, advise.PositionQuery{Unit: "alpha"})
	for i, v := range m.OffenceValues {
		if !math.IsNaN(v) && v != 0 {
			t.Errorf("%v: offence %v", m.Point(i), v)
		}
	}
	if !strings.Contains(strings.Join(m.Notes, "\n"), "no point has offence") {
		t.Errorf("the notes: %v", m.Notes)
	}
}

// TestPositionOnARoof: the demo's support team on the blockhouse's roof moves across it
// and not off it: every point keeps both its models on the roof, the way there is a move
// the battle accepts, and the notes say so.
func TestPositionOnARoof(t *testing.T) {
	src := sys.ReadExample(t, "demo.yaml")
	bt, _ := loadEdition(t, "turn: {side: Verdant}\n"+src, 0)
	b := bt.(*Battle)
	m := rulestest.Position(t, b, advise.PositionQuery{Unit: "gunners", Step: 0.5})
	if m.Reachable < 50 || !strings.Contains(strings.Join(m.Notes, "\n"), "a model on a roof moves across it") {
		t.Fatalf("%d points; notes %v", m.Reachable, m.Notes)
	}
	s := setupWays(t, b, advise.PositionQuery{Unit: "gunners", Step: 0.5})
	for i, reach := range m.Reach {
		if math.IsNaN(reach) {
			continue
		}
		p := m.Point(i)
		f := b.Fork().(*Battle)
		if _, err := f.Resolve(context.Background(), rulestest.Decode(t, f, wayYAML(s, s.wayTo(b, geom.V(p.X, p.Y)))), dice.ForAction(1, 0)); err != nil {
			t.Fatalf("(%v, %v): %v", p.X, p.Y, err)
		}
		u, _ := f.Unit("gunners")
		for _, md := range u.Models {
			if md.Elevation != 6 || md.At.X < 30 || md.At.X > 36 || md.At.Y < -14 || md.At.Y > -8 {
				t.Errorf("(%v, %v) leaves %s at %v, %v up: off the roof", p.X, p.Y, md.ID, md.At, md.Elevation)
			}
		}
	}
}

// TestPositionRefuses: a unit that may not move now, or in a battle begun before models
// moved, has no map, and the error names the unit; a step too fine names the step; a map
// asked to stop stops.
func TestPositionRefuses(t *testing.T) {
	b := positionBattle(t, 0, "")
	ctx := context.Background()
	field := rulestest.ErrorField
	for _, tc := range []struct {
		b          *Battle
		unit, want string
	}{
		{b, "raiders", "may not move now: it is Ironclad's turn"},
		{b, "nobody", "no unit \"nobody\""},
		{positionBattle(t, volley.EditionMoves-1, ""), "alpha", "began before models moved"},
	} {
		_, err := tc.b.Position(ctx, advise.PositionQuery{Unit: tc.unit})
		if err == nil || !strings.Contains(err.Error(), tc.want) || field(err) != "unit" {
			t.Errorf("%s: %v (field %q); want %q at unit", tc.unit, err, field(err), tc.want)
		}
		if _, err := tc.b.PositionWork(advise.PositionQuery{Unit: tc.unit}); field(err) != "unit" {
			t.Errorf("%s: the price: %v", tc.unit, err)
		}
	}
	f := b.Fork().(*Battle)
	rulestest.Play(t, f, "{type: move, unit: alpha, action: focus_fire}")
	if _, err := f.Position(ctx, advise.PositionQuery{Unit: "alpha"}); err == nil || !strings.Contains(err.Error(), "which moves nothing") || field(err) != "unit" {
		t.Errorf("after choosing Focus Fire: %v", err)
	}
	if _, err := b.PositionWork(advise.PositionQuery{Unit: "alpha", Step: 0.01}); field(err) != "step" {
		t.Errorf("a step of 0.01\": %v", err)
	}
	if w, err := b.PositionWork(advise.PositionQuery{Unit: "alpha"}); err != nil || w <= 0 {
		t.Errorf("the price: %v, %v", w, err)
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := b.Position(done, advise.PositionQuery{Unit: "alpha"}); !errors.Is(err, context.Canceled) {
		t.Errorf("a map asked to stop: %v", err)
	}
}

// TestPositionOffersStandingStill: the unit's own place (its formation's centre) is a
// point of its map, whatever the step, at no distance.
func TestPositionOffersStandingStill(t *testing.T) {
	b := positionBattle(t, 0, "")
	for _, step := range []float64{1, 0.7} {
		m := rulestest.Position(t, b, advise.PositionQuery{Unit: "alpha", Step: step})
		rulestest.StandingStill(t, m)
	}
}
