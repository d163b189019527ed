package warengine

import (
	"context"
	"math"
	"testing"

	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rulestest"
)

// positionExample is examples/warengine/position.yaml: the trenchers' Phase I, two armed
// raiders to the north beyond a ruined wall.
func positionExample(tb testing.TB) *Battle {
	tb.Helper()
	b, _ := sys.Load(tb, sys.ReadExample(tb, "position.yaml"))
	rulestest.EndDeployment(tb, b)
	return b
}

// halesMap is hale's position map on b, with the setup that found it and its ways
// worked out, so that a test can play the map's move to any square.
func halesMap(tb testing.TB, ctx context.Context, b *Battle) (*advise.PositionMap, *positionSetup) {
	tb.Helper()
	m, err := b.Position(ctx, advise.PositionQuery{Unit: "hale"})
	if err != nil {
		tb.Fatal(err)
	}
	s, _ := b.positionSetup(advise.PositionQuery{Unit: "hale"})
	if err := s.ways(ctx, b); err != nil {
		tb.Fatal(err)
	}
	return m, s
}

// movedByMap is a fork of b in which the map's move to sq has been played as an action
// (none where sq is where the unit stands).
func movedByMap(tb testing.TB, b *Battle, s *positionSetup, sq geom.Square) *Battle {
	tb.Helper()
	f := b.Fork().(*Battle)
	if mv := s.move(b, sq); mv != nil {
		if _, err := rulestest.PlayMapAction(tb, f, mv); err != nil {
			tb.Fatalf("the map's move to %v is refused: %v", sq, err)
		}
	}
	return f
}

// halesBestPlan is the value of the advisor's best plan for hale on f (aiming at the
// raiders' squares only, or beside them too where centres), 0 where it has none.
func halesBestPlan(ctx context.Context, f *Battle, centres bool) float64 {
	adv, err := advise.Advise(ctx, f, advise.Query{Side: "trenchers", Actor: "hale", Centres: centres}, advise.Objective{Kind: advise.Expected}, 1, advise.Budget{})
	v := 0.0
	if err == nil {
		for _, a := range adv {
			if len(a.Plans) > 0 {
				v = max(v, a.Plans[0].Value)
			}
		}
	}
	return v
}

// TestPositionMatchesBruteForce: at sample squares, a position map's two values equal
// what a real move there gives: the advisor's best plan after a move action along the
// map's path, and the danger map of the unit where it ends.
func TestPositionMatchesBruteForce(t *testing.T) {
	b := positionExample(t)
	ctx := context.Background()
	m, s := halesMap(t, ctx, b)
	rulestest.Sizable(t, m, 30)
	for _, i := range rulestest.Sample(t, m, 5, 5) {
		p, reach := m.Point(i), m.Reach[i]
		sq := geom.Sq(int(p.X), int(p.Y))
		f := movedByMap(t, b, s, sq)
		u, _ := f.Unit("hale")
		if u.Moved != int(reach) {
			t.Errorf("at %v: the move cost %d; the map says %v", sq, u.Moved, reach)
		}
		// It ends facing the nearest raider, to within half of a 45° step.
		nearest, best := geom.Square{}, math.Inf(1)
		for _, e := range []string{"raider-1", "raider-2"} {
			r, _ := f.Unit(e)
			if d := math.Hypot(float64(r.At.X-sq.X), float64(r.At.Y-sq.Y)); d < best {
				nearest, best = r.At, d
			}
		}
		dx, dy := u.Facing.Step()
		cos := (float64(dx)*float64(nearest.X-sq.X) + float64(dy)*float64(nearest.Y-sq.Y)) / math.Hypot(float64(dx), float64(dy)) / best
		if cos < math.Cos(22.5*math.Pi/180)-1e-9 {
			t.Errorf("at %v: facing %v, not towards the nearest raider at %v", sq, u.Facing, nearest)
		}
		danger := rulestest.DangerAt(t, f, advise.DangerQuery{Side: "trenchers", As: "hale"}, p.X, p.Y)
		rulestest.PointAgrees(t, p, halesBestPlan(ctx, f, false), 1e-9, danger)
	}
	// Behind the wall, squares a straight line would reach in fewer steps cost the way
	// round: the path never crosses it.
	for i, reach := range m.Reach {
		if !math.IsNaN(reach) {
			p := m.Point(i)
			if c := geom.Sq(13, 10).Chebyshev(geom.Sq(int(p.X), int(p.Y))); int(reach) < c {
				t.Fatalf("%v costs %v, fewer steps than its distance %d", p, reach, c)
			}
		}
	}
}

// smallBoard is a 10 × 8 map for brute force: a private with a repeating HMG, two
// raiders side by side to the north (a square aimed between them may strike either) and
// one alone.
const smallBoard = `
ruleset: warengine
title: small board
map:
  legend:
    ".": {name: open ground}
    "#": {name: ruined wall, visibility: 100, firepower: 100, save: 20, hits: 6, becomes: "r"}
    "r": {name: rubble, visibility: 0, firepower: 30}
  rows: |
    ..........
    ..........
    ..........
    ..........
    ....#.....
    ..........
    ..........
    ..........
weapons:
  - name: HMG
    arc: 90
    short:  {range: 5, accuracy: 10, strength: 10}
    medium: {range: 10, accuracy: 5, strength: 0}
    long:   {range: 20, accuracy: 0, strength: -10}
    strength: 45
    damage: [1, 4]
    save_modifier: -10
    ammo: bullet
    repeating: true
types:
  - name: Private
    weapon_skill: 35
    toughness: {default: {front: 10, side: 10, rear: 10}}
    save: 5
    hits: 2
    move: 3
    weapons:
      - {weapon: HMG, group: 1}
  - name: Raider
    weapon_skill: 35
    toughness: {default: {front: 20, side: 20, rear: 20}}
    save: 5
    hits: 2
    move: 3
units:
  - {id: hale, type: Private, side: trenchers, at: [5, 6], facing: N}
  - {id: raider-1, type: Raider, side: raiders, at: [3, 1], facing: S}
  - {id: raider-2, type: Raider, side: raiders, at: [4, 1], facing: S}
  - {id: raider-3, type: Raider, side: raiders, at: [8, 0], facing: S}
`

// TestPositionOffenceIsTheAdvisorsBest: on a small board, at every square the private
// can reach, the map's offence is the advisor's best plan from there, found by brute
// force: the map's move made as an action, then volley advise's own query (each weapon
// at every enemy's squares and those beside them). Aiming at the raiders' own squares
// only, as the map once did, scores less at some of them.
func TestPositionOffenceIsTheAdvisorsBest(t *testing.T) {
	b, _ := sys.Load(t, smallBoard)
	ctx := context.Background()
	m, s := halesMap(t, ctx, b)
	checked, beside := 0, 0
	for i, reach := range m.Reach {
		if math.IsNaN(reach) {
			continue
		}
		p := m.Point(i)
		sq := geom.Sq(int(p.X), int(p.Y))
		f := movedByMap(t, b, s, sq)
		checked++
		want := halesBestPlan(ctx, f, false)
		if math.Abs(p.Offence-want) > 1e-12 {
			t.Errorf("at %v: offence %v; the advisor's best from there %v", sq, p.Offence, want)
		}
		if centres := halesBestPlan(ctx, f, true); want > centres+1e-9 {
			beside++
		}
	}
	if checked < 20 {
		t.Errorf("only %d squares reachable", checked)
	}
	if beside == 0 {
		t.Error("aiming beside the raiders never beats aiming at them: the board shows nothing")
	}
	t.Logf("%d squares, %d where aiming beside beats aiming at the raiders' squares", checked, beside)
}

// TestPositionOffersStandingStill: the unit's own square is a square of its map, at no
// cost, its offence the advisor's after at most a turn where it stands (still aiming).
func TestPositionOffersStandingStill(t *testing.T) {
	b, _ := sys.Load(t, smallBoard)
	ctx := context.Background()
	m, err := b.Position(ctx, advise.PositionQuery{Unit: "hale"})
	if err != nil {
		t.Fatal(err)
	}
	i := rulestest.StandingStill(t, m)
	f := b.Fork().(*Battle)
	u, _ := f.Unit("hale")
	u.Facing = f.faceAt(u, u.At) // the map's turn; turning is free, so hale still aims
	adv, err := advise.Advise(ctx, f, advise.Query{Side: "trenchers", Actor: "hale"}, advise.Objective{Kind: advise.Expected}, 1, advise.Budget{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m.OffenceValues[i], adv[0].Plans[0].Value; !u.Aiming || math.Abs(got-want) > 1e-12 {
		t.Errorf("offence standing still %v (aiming %v); the advisor where hale stands: %v", got, u.Aiming, want)
	}
}
