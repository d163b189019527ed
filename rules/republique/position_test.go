package republique

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rulestest"
)

// positionBattle is examples/republique/position.yaml, with each replacement made in its
// text: the foot battery fb behind its own line, the Austrian battery ab to the north-east.
func positionBattle(tb testing.TB, replace ...string) *Battle {
	tb.Helper()
	src := exampleWith(tb, "position.yaml", "{type: end_step}")
	for i := 0; i+1 < len(replace); i += 2 {
		if !strings.Contains(src, replace[i]) {
			tb.Fatalf("position.yaml has no %q", replace[i])
		}
		src = strings.Replace(src, replace[i], replace[i+1], 1)
	}
	b, _, err := loadSrc(tb, src)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// realMove makes a position map's move on a fork of b, as a player would send it: the
// fork after it, or the refusal.
func realMove(tb testing.TB, b *Battle, mv map[string]any) (*Battle, error) {
	tb.Helper()
	f := b.Fork().(*Battle)
	if mv == nil {
		return f, nil
	}
	_, err := rulestest.PlayMapAction(tb, f, mv)
	return f, err
}

// TestPositionMatchesBruteForce: at sample points, a position map's values are what a
// real move there gives. The map's move is accepted, ends the unit's centre on the point
// and takes of its rate what the map says; the advisor then finds the battery's own best
// plan worth the map's offence, and the danger map of the unit where it stands reads the
// map's danger. Every reach is at least the straight line, and a point reached the long
// way cannot be reached straight: the straight move is refused, passing over a base.
func TestPositionMatchesBruteForce(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, unit string
		replace    []string
		obj        string
		danger     advise.ObjectiveKind
	}{
		{"battery, expected", "fb", nil, "expected", advise.Destroyed},
		{"battery, destroyed", "fb", nil, "destroyed", advise.Expected},
		{"limbered battery", "fb", []string{"at: [40, 16], saved_fire: true", "at: [40, 16], limbered: true"}, "expected", advise.Destroyed},
		{"battery without prolonge", "fb", []string{"prolonge: 5, ", ""}, "expected", advise.Destroyed},
		{"infantry line", "ligne", nil, "expected", advise.Expected},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := positionBattle(t, tc.replace...)
			o, _ := advise.ParseObjective(tc.obj)
			q := advise.PositionQuery{Unit: tc.unit, Objective: o, Danger: tc.danger, Step: 2}
			m, err := b.Position(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			rulestest.Sizable(t, m, 100)
			s, err := b.positionSetup(q)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.ways.Build(ctx, b.table.Edged); err != nil {
				t.Fatal(err)
			}
			u := b.Unit(tc.unit)
			checked, round := 0, 0
			for i, reach := range m.Reach {
				p := m.Point(i)
				c, r := i%m.Cols, i/m.Cols
				straight := math.Hypot(p.X-m.From[0], p.Y-m.From[1])
				if math.IsNaN(reach) {
					if !math.IsNaN(p.Offence) || !math.IsNaN(p.Danger) {
						t.Fatalf("unreachable %v has scores", p)
					}
					continue
				}
				if reach < straight-1e-9 {
					t.Fatalf("%v is %v away, less than the straight line %v", p, reach, straight)
				}
				if reach > straight+1e-9 {
					// Reached the long way: straight there passes over a base.
					mv := s.move(b, c, r)
					mv["path"] = []any{[]float64{p.X, p.Y}}
					if _, err := realMove(t, b, mv); err == nil || !strings.Contains(err.Error(), "would pass over") {
						t.Fatalf("%v is %v away round the bases, but the straight move (%v) is not refused for passing over one: %v", p, reach, straight, err)
					}
					round++
				}
				if i%3 != 0 {
					continue
				}
				checked++
				mv := s.move(b, c, r)
				f, err := realMove(t, b, mv)
				if err != nil {
					t.Fatalf("the map's move to %v (%v) is refused: %v", p, mv, err)
				}
				v := f.Unit(tc.unit)
				if at := centre(v.Bases); math.Abs(at.X-p.X) > 1e-6 || math.Abs(at.Y-p.Y) > 1e-6 {
					t.Fatalf("the move to %v ends at %v", p, at)
				}
				w, _ := s.wayTo(reach)
				if got := f.phase.moved[tc.unit]; math.Abs(got-w.cost) > 1e-9 {
					t.Fatalf("the move to %v took %v of the rate; the map's way %v", p, got, w.cost)
				}
				if u.Battery() && v.Limbered != w.limbered {
					t.Fatalf("at %v the battery is limbered %v; the map says %v", p, v.Limbered, w.limbered)
				}
				want := 0.0
				if u.Battery() {
					want, _ = rulestest.AdvisorsBest(t, f, advise.Query{Side: "French", Actor: tc.unit}, o)
				}
				danger := rulestest.DangerAt(t, f, advise.DangerQuery{Side: "French", As: tc.unit, Objective: tc.danger}, p.X, p.Y)
				rulestest.PointAgrees(t, p, want, 1e-9, danger)
			}
			if checked < 30 || round < 5 {
				t.Errorf("%d points checked, %d reached round the bases", checked, round)
			}
			// The front is what its name says, and the top points' moves are legal.
			rulestest.ParetoFront(t, m)
			for _, p := range m.Top {
				if _, err := realMove(t, b, p.Move); err != nil {
					t.Errorf("the top point %v's move %v: %v", p, p.Move, err)
				}
			}
		})
	}
}

// at is the map's point nearest (x, y).
func at(m *advise.PositionMap, x, y float64) advise.PositionPoint {
	c, r := int(math.Round((x-m.X0)/m.Step)), int(math.Round((y-m.Y0)/m.Step))
	return m.Point(m.At(c, r))
}

// TestPositionBattery: the battery's story. Behind its own line it cannot fire (a friend
// in its frontage zone), and it stays there at no cost, keeping its saved fire. Within
// 5 cm it prolongs; further it limbers, goes round the line and unlimbers (4 cm each), and
// beyond 22 cm it ends limbered and cannot fire. Hidden in the copse, the Austrian battery
// does not see it; in the open beside it, it does.
func TestPositionBattery(t *testing.T) {
	b := positionBattle(t)
	ctx := context.Background()
	m, err := b.Position(ctx, advise.PositionQuery{Unit: "fb", Step: 1})
	if err != nil {
		t.Fatal(err)
	}
	home := at(m, 40, 16)
	if home.Reach != 0 || home.Offence != 0 || home.Move != nil {
		t.Errorf("where it stands: %+v", home)
	}
	s, _ := b.positionSetup(advise.PositionQuery{Unit: "fb", Step: 1})
	if err := s.ways.Build(context.Background(), b.table.Edged); err != nil {
		t.Fatal(err)
	}
	index := func(x, y float64) (int, int) {
		return int(math.Round((x - m.X0) / m.Step)), int(math.Round((y - m.Y0) / m.Step))
	}
	// 4 cm west: a prolonge, after which it fires, prolonged.
	c, r := index(36, 16)
	mv := s.move(b, c, r)
	if mv["limber"] != nil || mv["unlimber"] != nil {
		t.Errorf("4 cm is a prolonge: %v", mv)
	}
	f, err := realMove(t, b, mv)
	if err != nil || f.phase.prolonged["fb"] != 4 || f.Unit("fb").SavedFire {
		t.Errorf("the prolonge: %v, prolonged %v, saved fire %v", err, f.phase.prolonged["fb"], f.Unit("fb").SavedFire)
	}
	// 14 cm east: limbered, moved and unlimbered.
	c, r = index(54, 16)
	if mv := s.move(b, c, r); mv["limber"] != true || mv["unlimber"] != true {
		t.Errorf("14 cm: %v", mv)
	}
	// Past 22 cm of path it can only end limbered: no fire.
	for i, reach := range m.Reach {
		if reach > 22+1e-9 && m.OffenceValues[i] != 0 {
			t.Fatalf("%v, %v away, scores %v: the battery ends limbered there", m.Point(i), reach, m.OffenceValues[i])
		}
		if reach > 26+1e-9 {
			t.Fatalf("%v is %v away: limbering takes 4 cm of 30", m.Point(i), reach)
		}
	}
	// North of the line, the long way round.
	if p := at(m, 40, 30); !math.IsNaN(p.Reach) && p.Reach < 20 {
		t.Errorf("north of the line: %v away", p.Reach)
	}
	if p := at(m, 40, 26); !math.IsNaN(p.Reach) {
		t.Errorf("on the line's bases: reachable, %v", p.Reach)
	}
	// In the copse it fires unseen; beside it, in the open, it is seen.
	wood, open := at(m, 57, 10), at(m, 54, 20)
	if wood.Danger != 0 || wood.Offence <= 0 {
		t.Errorf("in the copse: %+v", wood)
	}
	if !(open.Danger > 0) || open.Offence <= 0 {
		t.Errorf("beside the copse: %+v", open)
	}
}

// TestPositionPassingFire: the position map does not count passing fire (a known gap),
// but says which of its top points' ways draw it, as the move itself measures it.
func TestPositionPassingFire(t *testing.T) {
	b := positionBattle(t)
	s, err := b.positionSetup(advise.PositionQuery{Unit: "ligne", Step: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.ways.Build(context.Background(), b.table.Edged); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		x, y float64
		want string
	}{{58, 26, "crosses the front of ab"}, {22, 26, ""}} {
		c, r := int(math.Round((tc.x-s.g.X0)/s.g.Step)), int(math.Round((tc.y-s.g.Y0)/s.g.Step))
		p := advise.PositionPoint{X: tc.x, Y: tc.y, Move: s.move(b, c, r)}
		got := b.passingOn(s, p)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("the way to (%v, %v): %q, want %q", tc.x, tc.y, got, tc.want)
		}
	}
}

// TestPositionRefuses: a unit that may not move now, a battle begun before moves and an
// unknown unit have no map, each refused at the unit; a step too fine at the step; a
// cancelled map stops.
func TestPositionRefuses(t *testing.T) {
	b := positionBattle(t)
	ctx := context.Background()
	field := rulestest.ErrorField
	for _, tc := range []struct {
		q           advise.PositionQuery
		field, want string
	}{
		{advise.PositionQuery{Unit: "ab"}, "unit", "ab may not move now: it is French's player turn"},
		{advise.PositionQuery{Unit: "fbb"}, "unit", `no unit "fbb"`},
		{advise.PositionQuery{Unit: "fb", Step: 0.001}, "step", "more than"},
	} {
		_, err := b.Position(ctx, tc.q)
		if err == nil || field(err) != tc.field || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v (field %q), want %q at %s", tc.q, err, field(err), tc.want, tc.field)
		}
		if _, err2 := b.PositionWork(tc.q); err2 == nil || field(err2) != tc.field {
			t.Errorf("PositionWork %+v: %v", tc.q, err2)
		}
	}
	old, _ := mustLoadEdition(t, sprintf(strings.Replace(movesSrc, "movement: {infantry: 20, light: 25, cavalry: 40, artillery: 30, prolonge: 5, limber: 4, reform: 6}\n", "", 1),
		"  - {id: m, side: French, kind: infantry, frontage: 4, depth: 2, at: [0, 0], bases: 2}\n"+enemy, "maneuver"), 3)
	if _, err := old.Position(ctx, advise.PositionQuery{Unit: "m"}); err == nil || field(err) != "unit" || !strings.Contains(err.Error(), "began before units moved") {
		t.Errorf("an edition 3 battle: %v", err)
	}
	// A unit that has moved its whole rate.
	f, err := realMove(t, b, map[string]any{"type": "move", "unit": "ligne", "path": []any{[]float64{40, 46}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Position(ctx, advise.PositionQuery{Unit: "ligne"}); err == nil || field(err) != "unit" || !strings.Contains(err.Error(), "has moved its whole") {
		t.Errorf("after its whole rate: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := b.Position(cancelled, advise.PositionQuery{Unit: "fb"}); err == nil {
		t.Error("a cancelled map returned no error")
	}
	// The default step is the finest whose work the budget allows.
	m, err := b.Position(ctx, advise.PositionQuery{Unit: "fb"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Step != 1 {
		t.Errorf("the default step %v, want 1 cm", m.Step)
	}
}

// TestBlockPieces: a line and a full column are one convex piece; a column with a base
// short, or bases standing apart, a piece per base.
func TestBlockPieces(t *testing.T) {
	for _, tc := range []struct {
		f    Formation
		n    int
		want int
	}{{Line, 4, 1}, {Column, 4, 1}, {Column, 3, 3}, {Line, 1, 1}} {
		bases := layout(geom.V(10, 10), 30, 4, 2, tc.n, tc.f)
		if got := len(blockPieces(bases)); got != tc.want {
			t.Errorf("%s of %d: %d pieces, want %d", tc.f, tc.n, got, tc.want)
		}
	}
	apart := []Rect{{C: geom.V(0, 0), W: 4, D: 2}, {C: geom.V(5, 0), W: 4, D: 2}}
	if got := len(blockPieces(apart)); got != 2 {
		t.Errorf("two bases 1 cm apart: %d pieces", got)
	}
}

// TestPositionOffersStandingStill: the battery's own place is a point of its map, whatever
// the step, at no distance, its offence what the advisor gives where it stands.
func TestPositionOffersStandingStill(t *testing.T) {
	rulestest.OffenceStandingStill(t, positionBattle(t), "French", "fb", []float64{2, 1.3}, 1e-9)
}
