package warstrike

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rulestest"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/scenario"
)

// rulingsTables are tables for the rulings' tests: every concealment condition costs 1,
// added up, so that each shows in the modifiers.
const rulingsTables = `tables:
  weapons: {rifle: {range: 48, shots: 1, to_hit: 4}}
  concealment:
    stack: true
    modifiers: [{when: in_area_terrain, modifier: 1}, {when: through_area_terrain, modifier: 1}, {when: partly_visible, modifier: 1}]
`

// bothEditions loads src under edition 3, the last with sampled sight and the old
// readings, and under the current edition.
func bothEditions(t *testing.T, src string) (old, now *Battle, a volley.Action) {
	t.Helper()
	ob, _ := loadEdition(t, src, ExactSightEdition-1)
	nb, na := loadEdition(t, src, volley.Edition)
	return ob.(*Battle), nb.(*Battle), na
}

// TestRulingSameSide: a model only partly within area terrain taller than itself is seen
// beyond the sight distance only "so long as they are on the same side of the Area
// Terrain as the models which are firing at them" (TLOS And Area Terrain); otherwise it
// is among those that "can neither see, nor be seen" beyond 12". Which side is decided
// from the whole base and the line of sight: the wood lies between the two when the line
// from centre to centre passes through it outside both bases. Editions 2 and 3 looked only at
// the edge of the target's base facing the firer, and saw both models below at any
// distance.
func TestRulingSameSide(t *testing.T) {
	src := "ruleset: warstrike\n" + rulingsTables + `terrain:
  # A U-shaped wood open to the north: arms x 0–4 and 8–12, floor y 0–3.
  - {id: u-wood, name: U wood, kind: area, height: 3, polygon: [[0, 0], [12, 0], [12, 8], [8, 8], [8, 3], [4, 3], [4, 8], [0, 8]]}
  # A long strip of wood, seen along its length.
  - {id: strip, name: strip, kind: area, height: 3, polygon: [[0, 30], [20, 30], [20, 34], [0, 34]]}
units:
  - {id: a, side: A, base: 1, height: 1.2, weapon: rifle, models: [{id: west, at: [-20, 6], leader: true}, {id: far-west, at: [-20, 33.5]}, {id: south, at: [10, 10]}]}
  - id: b
    side: B
    base: 1
    height: 1.2
    models:
      - {id: in-notch, at: [8.2, 6]}    # straddles the east arm's inner edge: its edge facing west is in the notch
      - {id: on-edge, at: [15, 34.2]}   # straddles the strip's north edge, its edge facing far-west outside it
      - {id: near-edge, at: [10, 29.8]} # straddles the strip's south edge, facing south
action: {unit: a, targets: [{unit: b}]}
`
	old, now, a := bothEditions(t, src)
	olds, nows := aimsOf(t, old, a), aimsOf(t, now, a)
	for _, pair := range []string{"west>in-notch", "far-west>on-edge"} {
		wantAim(t, nows, pair, volley.StatusBlocked, "the target is partly within it, on the far side")
		wantAim(t, olds, pair, volley.StatusOK, "sees")
	}
	// A model partly within, with nothing of the wood between it and the firer, is seen
	// from beyond the sight distance in both editions: south looks at near-edge across
	// 19" of open table.
	wantAim(t, nows, "south>near-edge", volley.StatusOK, "sees")
	wantAim(t, olds, "south>near-edge", volley.StatusOK, "sees")
}

// TestRulingPartlyVisible: concealment's partly_visible is solid terrain hiding part of
// the body ("partly_visible: solid terrain hides part of its body", the sample tables);
// area terrain hides by its own rules (TLOS And Area Terrain), so a model half behind a
// wood and half in the open is not partly visible. Editions 2 and 3 counted the rays the wood
// stopped.
func TestRulingPartlyVisible(t *testing.T) {
	src := "ruleset: warstrike\n" + rulingsTables + `terrain:
  - {id: wood, kind: area, height: 3, polygon: [[8, 0], [12, 0], [12, 4], [8, 4]]}
  - {id: wall, kind: feature, height: 3, polygon: [[8, -10], [12, -10], [12, -6], [8, -6]]}
units:
  - {id: a, side: A, base: 1, height: 1.2, weapon: rifle, models: [{id: a-1, at: [0, 0], leader: true}, {id: a-2, at: [0, -10]}]}
  - {id: b, side: B, base: 1, height: 1.2, models: [{id: b-1, at: [20, 0]}, {id: b-2, at: [20, -10]}]}
action: {unit: a, targets: [{unit: b, models: [a-1, a-2]}]}
`
	old, now, a := bothEditions(t, src)
	// a-1 looks along the wood's south edge: the north half of b-1 is behind the wood.
	if m := aimsOf(t, now, a)["a-1>b-1"].Modifiers; len(m) != 0 {
		t.Errorf("half behind area terrain, edition 4: %v; want no concealment", m)
	}
	if m := aimsOf(t, old, a)["a-1>b-1"].Modifiers; len(m) != 1 || m[0].Rule != "concealment: partly visible" {
		t.Errorf("half behind area terrain, edition 3: %v; want partly visible, as it was played", m)
	}
	// Behind a solid feature along the same line, half hidden is partly visible in both.
	for name, b := range map[string]*Battle{"3": old, "4": now} {
		if m := aimsOf(t, b, a)["a-2>b-2"].Modifiers; len(m) != 1 || m[0].Rule != "concealment: partly visible" {
			t.Errorf("half behind a feature, edition %s: %v; want partly visible", name, m)
		}
	}
}

// TestRulingCasualtyOrder: wounds fall nearest first "to the models firing at the unit"
// (volley's reading of "Remove Or Mark Dead Models", docs/rules/warstrike.md): a model
// given the target that sees none of it in range does not fire, and does not count.
// Editions 2 and 3 measured from it too.
func TestRulingCasualtyOrder(t *testing.T) {
	src := "ruleset: warstrike\n" + rulingsTables + `terrain:
  - {id: tower, kind: building, height: 6, polygon: [[6, -2], [8, -2], [8, 2], [6, 2]]}
  - {id: tower-2, kind: building, height: 6, polygon: [[2, 3], [4, 3], [4, 9], [2, 9]]}
units:
  # shooter sees both targets; blind stands nearer t-1 than anyone, but the towers hide
  # both targets from it.
  - {id: a, side: A, base: 1, height: 1.2, weapon: rifle, models: [{id: shooter, at: [0, 20], leader: true}, {id: blind, at: [0, 0]}]}
  - {id: b, side: B, base: 1, height: 1.2, models: [{id: t-1, at: [12, 0]}, {id: t-2, at: [12, 18]}]}
action: {unit: a, targets: [{unit: b}]}
`
	old, now, a := bothEditions(t, src)
	first := func(b *Battle) string {
		p := b.plan(a.(*Shoot))
		if len(p.targets) != 1 {
			t.Fatalf("plan: %+v", p)
		}
		return b.casualtyOrder(&p.targets[0])[0].model.ID
	}
	if got := first(now); got != "t-2" {
		t.Errorf("edition 4: %s dies first; want t-2, nearest the one model that fires", got)
	}
	if got := first(old); got != "t-1" {
		t.Errorf("edition 3: %s dies first; want t-1, as it was played", got)
	}
	if aim := aimsOf(t, now, a)["blind>t-1"]; aim.Status != volley.StatusBlocked {
		t.Errorf("blind sees t-1: %+v", aim)
	}
}

// TestRulingTies: two target models at the same distance on paper (placed as mirror
// images about the firer) are a tie, broken by the scenario's order, both for the model
// a roll is read against ("the nearest it sees") and for the casualty order (nearest
// first). Editions 2 and 3 let float64 decide: the second is nearer by 5e-15".
func TestRulingTies(t *testing.T) {
	src := "ruleset: warstrike\n" + rulingsTables + `units:
  - {id: a, side: A, base: 1, height: 1.2, weapon: rifle, models: [{id: firer, at: [0.3, 0.7], leader: true}]}
  - {id: b, side: B, base: 1, height: 1.2, models: [{id: first, at: [5.5, 16.6]}, {id: second, at: [16.2, 5.9]}]}
action: {unit: a, targets: [{unit: b}]}
`
	old, now, a := bothEditions(t, src)
	f, _, _ := old.Model("firer")
	m1, _, _ := old.Model("first")
	m2, _, _ := old.Model("second")
	if d1, d2 := old.distance(f, m1), old.distance(f, m2); !(d2 < d1) || d1-d2 > 1e-12 {
		t.Fatalf("the distances are %v and %v: the test wants the second nearer by rounding alone", d1, d2)
	}
	for _, tt := range []struct {
		b    *Battle
		want string
	}{{now, "first"}, {old, "second"}} {
		p := tt.b.plan(a.(*Shoot))
		fi := p.targets[0].firers[0]
		if got := fi.looks[fi.chosen].target.ID; got != tt.want {
			t.Errorf("exact %v: the roll is read against %s; want %s", tt.b.exact, got, tt.want)
		}
		if got := tt.b.casualtyOrder(&p.targets[0])[0].model.ID; got != tt.want {
			t.Errorf("exact %v: %s dies first; want %s", tt.b.exact, got, tt.want)
		}
	}
	if !strings.Contains(aimsOf(t, now, a)["firer>first"].Notes[0], "read against this model") {
		t.Errorf("the aim does not say the roll is read against first")
	}
}

// TestAnyPartSeen: "any part of an enemy model's head, torso, legs, or arms" seen is
// enough to shoot (Check Line Of Sight). The top 11% of a body over a hill and 15% of
// its width past a pillar are seen, with partly_visible; 3 × 4 rays (editions 2 and 3) missed
// both.
func TestAnyPartSeen(t *testing.T) {
	src := "ruleset: warstrike\n" + rulingsTables + `terrain:
  - {id: hill, kind: hill, height: 1.16, polygon: [[10, -3], [12, -3], [12, 3], [10, 3]]}
  - {id: pillar, kind: feature, height: 5, polygon: [[10, 29.825], [11, 29.825], [11, 33], [10, 33]]}
units:
  - {id: a, side: A, base: 1, height: 1.2, weapon: rifle, models: [{id: a-1, at: [0, 0], leader: true}, {id: a-2, at: [0, 30]}]}
  - {id: b, side: B, base: 1, height: 1.2, models: [{id: head, at: [20, 0]}, {id: shoulder, at: [20, 30]}]}
action: {unit: a, targets: [{unit: b}]}
`
	old, now, a := bothEditions(t, src)
	nows, olds := aimsOf(t, now, a), aimsOf(t, old, a)
	for pair, seen := range map[string]string{"a-1>head": "sees 11% of the body", "a-2>shoulder": "sees 15% of the body"} {
		wantAim(t, nows, pair, volley.StatusOK, seen)
		if m := nows[pair].Modifiers; len(m) != 1 || m[0].Rule != "concealment: partly visible" {
			t.Errorf("%s: %v; want partly visible", pair, m)
		}
		wantAim(t, olds, pair, volley.StatusBlocked, "no part of the body is seen")
	}
}

// The rulings of issue 33, each under the edition that brought them (ClimbEdition) and
// under edition 4, whose battles must replay as they were played.

// exampleEdition is an example read from the examples' folder (so that its tables file is
// found) as a battle begun under edition.
func exampleEdition(tb testing.TB, name string, edition int) *Battle {
	tb.Helper()
	b, _ := rulestest.MustLoadEdition(tb, Ruleset{}, sys.Example(name), nil, edition)
	return b.(*Battle)
}

// TestRulingFloorKept: "Measure the distance from the the table surface to the bottom of
// the model's base to determine it's elevation", and "a model whose base is resting on
// the upper floor of a ruin 7" above the surface of the table would be able to see models
// within or behind a piece of Area Terrain if those models are within 24"" (TLOS And
// Elevated Positions). A model that moves along the floor still rests on it: the sniper of
// elevated-ruin.yaml, given `elevation: 7` on the ruin, moves 0.5" along it with Shooting
// Advance and still sees hunters-1, as it did standing still. Edition 4 put it on the
// table, where it saw into the wood to 12" only.
func TestRulingFloorKept(t *testing.T) {
	shot := "{unit: watchers, targets: [{unit: hunters}]}"
	move := "{type: move, unit: watchers, action: shooting_advance, models: [{id: sniper, path: [[0.5, 0]]}]}"
	now := exampleEdition(t, "elevated-ruin.yaml", volley.Edition)
	wantAim(t, aimsOf(t, now, rulestest.Decode(t, now, shot)), "sniper>hunters-1", volley.StatusOK, `20" ≤ 24" sight distance`)
	out := rulestest.Play(t, now, move)
	if m := model(t, now, "sniper"); m.Elevation != 7 {
		t.Errorf("the sniper moved along the floor: elevation %v, want 7", m.Elevation)
	}
	if r := out[0].Trace[1].Result.(string); !strings.Contains(r, `it stands 7" up, on the floor of ruin`) {
		t.Errorf("the move reads %q", r)
	}
	wantAim(t, aimsOf(t, now, rulestest.Decode(t, now, shot)), "sniper>hunters-1", volley.StatusOK, `19.5" ≤ 24" sight distance`)

	old := exampleEdition(t, "elevated-ruin.yaml", ClimbEdition-1)
	rulestest.Play(t, old, move)
	if m := model(t, old, "sniper"); m.Elevation != 0 {
		t.Errorf("edition 4: elevation %v, want 0, as it was played", m.Elevation)
	}
	wantAim(t, aimsOf(t, old, rulestest.Decode(t, old, shot)), "watchers>hunters", volley.StatusNotEligible, "sniper sees no model of hunters")
}

// floorsSrc is a ruin with two floors (the upper one over its east half only), a tall
// pillar in it, and a wood 14" east of it.
const floorsSrc = "ruleset: warstrike\n" + rulingsTables + `  moves: {shooting_advance: 4, advance: 6, at_the_double: 12}
terrain:
  - id: ruin
    name: ruin
    kind: area
    height: 9
    polygon: [[-4, -4], [4, -4], [4, 4], [-4, 4]]
    floors:
      - {height: 3.5}
      - {height: 7, polygon: [[0, -4], [4, -4], [4, 4], [0, 4]]}
  - {id: pillar, kind: feature, height: 9, polygon: [[-3.5, 2], [-2.5, 2], [-2.5, 3], [-3.5, 3]]}
  - {id: wood, kind: area, height: 4, polygon: [[8, -12], [40, -12], [40, 12], [8, 12]]}
units:
  - {id: a, side: A, base: 1, height: 1.2, weapon: rifle, models: [{id: climber, at: [-3, 0], leader: true}, {id: below, at: [0, 0]}]}
  - {id: b, side: B, base: 1, height: 1.2, models: [{id: hidden, at: [22, 0]}]}
`

// TestRulingClimbFloor: the text gives floors and elevation but no way onto a floor. Volley's
// reading (not in the source): a path may end with a climb to a floor of the terrain under
// its last point, or down to the ground, and the height climbed counts against the move
// (option climb: free counts none). A model on a floor walks along it and leaves it only
// by climbing down.
func TestRulingClimbFloor(t *testing.T) {
	b, _ := loadEdition(t, floorsSrc, 0)
	now := b.(*Battle)
	// Across the ruin and up to the first floor: 2" along and 3.5" up is 5.5", more than
	// Shooting Advance's 4".
	rulestest.Refused(t, now, "{type: move, unit: a, action: shooting_advance, models: [{id: climber, path: [[-1, 0]], elevation: 3.5}]}",
		`climber's move is 5.5" long (2" along the table and 3.5" climbing), and it may move 4" more this turn`)
	// There is no floor at 5".
	rulestest.Refused(t, now, "{type: move, unit: a, action: at_the_double, models: [{id: climber, path: [[-1, 0]], elevation: 5}]}",
		`there is no floor 5" up where its path ends`)
	// The upper floor covers the east half only.
	rulestest.Refused(t, now, "{type: move, unit: a, action: at_the_double, models: [{id: climber, path: [[-1, 0]], elevation: 7}]}",
		`there is no floor 7" up where its path ends`)
	out := rulestest.Play(t, now, "{type: move, unit: a, action: at_the_double, models: [{id: climber, path: [[-1, 0]], elevation: 3.5}]}")
	if m := model(t, now, "climber"); m.Elevation != 3.5 || now.moved["climber"] != 5.5 {
		t.Errorf("climber on the first floor: elevation %v, moved %v; want 3.5 and 5.5", m.Elevation, now.moved["climber"])
	}
	if r := out[0].Trace[1].Result.(string); !strings.Contains(r, `climbed 3.5" to the floor of ruin`) {
		t.Errorf("the climb reads %q", r)
	}
	// Off the floor's edge, out of the ruin, without climbing down: refused.
	rulestest.Refused(t, now, "{type: move, unit: climber, path: [[-4.5, 0]]}", "leg 1 would step off the floor of ruin, 3.5\" up: a model leaves a floor by climbing down")
	// Along the floor, over below's head (below stands on the table under it) and up again
	// to the upper floor: 2" and 3.5" more.
	rulestest.Play(t, now, "{type: move, unit: climber, path: [[1, 0]], elevation: 7}")
	if m := model(t, now, "climber"); m.Elevation != 7 {
		t.Errorf("climber on the upper floor: elevation %v", m.Elevation)
	}
	// It sees hidden in the wood, 20" away, from 7" up (24"); below, on the table under it,
	// does not (12").
	// (At-The-Double may not shoot: the command line asks what if it had chosen Open
	// Fire.)
	aims := aimsOf(t, now, rulestest.Decode(t, now, "{unit: a, as: open_fire, targets: [{unit: b}]}"))
	wantAim(t, aims, "climber>hidden", volley.StatusOK, `20" ≤ 24" sight distance`)
	wantAim(t, aims, "below>hidden", volley.StatusBlocked, `21" > 12" sight distance`)
	// Down to the table where it stands, a move with no path: 7" more than it has left.
	rulestest.Refused(t, now, "{type: move, unit: climber, elevation: 0}", `it may move 1" more this turn`)

	// climb: free: the height does not count.
	free, _ := loadEdition(t, strings.Replace(floorsSrc, "terrain:\n", "options: {climb: free}\nterrain:\n", 1), 0)
	rulestest.Play(t, free.(*Battle), "{type: move, unit: a, action: shooting_advance, models: [{id: climber, path: [[-1, 0]], elevation: 3.5}]}")
	if d := free.(*Battle).moved["climber"]; d != 2 {
		t.Errorf("climb: free: moved %v, want 2", d)
	}

	// The view gives the floors, and the move form the elevation to climb to.
	tv := now.Table()
	if l := tv.Terrain[0].Levels; len(l) != 2 || l[0].Height != 3.5 || l[0].Polygon != nil || l[1].Height != 7 || len(l[1].Polygon) != 4 {
		t.Errorf("the ruin's levels: %+v", l)
	}
	if f := tv.Moves.Fields; len(f) != 2 || f[1].Key != "elevation" || f[1].Kind != "number" {
		t.Errorf("the move form: %+v", f)
	}
}

// TestRulingFloorsEdition4: a battle begun under edition 4 has no floors and does not
// climb: the scenario's floors and a move's elevation are refused, naming the edition.
func TestRulingFloorsEdition4(t *testing.T) {
	if _, _, err := rulestest.LoadEdition(t, Ruleset{}, "scenario.yaml", []byte(floorsSrc), 4); err == nil || !strings.Contains(err.Error(), "floors: a battle begun under edition 4 has no floors") {
		t.Errorf("floors under edition 4: %v", err)
	}
	b := exampleEdition(t, "elevated-ruin.yaml", ClimbEdition-1)
	if _, err := rulestest.DecodeAs(t, b, "{type: move, unit: sniper, action: halt, elevation: 0}", true, 4); err == nil || !strings.Contains(err.Error(), "a battle begun under edition 4 does not climb") {
		t.Errorf("a climb under edition 4: %v", err)
	}
}

// lowWallSrc is a 0.5" field wall between two models 1.2" tall, and a 1.5" wall beside it.
const lowWallSrc = "ruleset: warstrike\n" + rulingsTables + `  moves: {shooting_advance: 4, advance: 6}
terrain:
  - {id: field-wall, name: field wall, kind: wall, height: 0.5, line: [[-5, 0], [5, 0]]}
  - {id: high-wall, name: high wall, kind: wall, height: 1.5, line: [[6, 0], [16, 0]]}
units:
  - {id: a, side: A, base: 1, height: 1.2, weapon: rifle, models: [{id: a-1, at: [0, -2], leader: true}, {id: a-2, at: [10, -2]}]}
  - {id: b, side: B, base: 1, height: 1.2, models: [{id: b-1, at: [0, 20]}]}
`

// TestRulingLowWall: the text says when a linear obstacle blocks sight ("Linear Obstacles
// that are higher than the models … will block LOS") and nothing of crossing one. Volley's
// reading (not in the source): a model climbs over a wall lower than itself, and the
// height up and down counts against its move; a wall as high as the model or higher stops
// it. cross_walls: never is the other reading: every wall stops a model, as in edition 4.
func TestRulingLowWall(t *testing.T) {
	over := "{type: move, unit: a, action: advance, models: [{id: a-1, path: [[0, 2]]}]}"
	b, _ := loadEdition(t, lowWallSrc, 0)
	now := b.(*Battle)
	out := rulestest.Play(t, now, over)
	if m := model(t, now, "a-1"); m.At.Y != 2 || now.moved["a-1"] != 5 {
		t.Errorf("a-1 over the field wall: at %v, moved %v; want (0, 2) and 4\" + 2 × 0.5\"", m.At, now.moved["a-1"])
	}
	if r := out[0].Trace[1].Result.(string); !strings.Contains(r, `climbing over field wall (0.5" up and down)`) {
		t.Errorf("the move reads %q", r)
	}
	rulestest.Refused(t, now, "{type: move, unit: a, models: [{id: a-2, path: [[10, 2]]}]}", "a-2 cannot move there: leg 1 would pass through high wall (wall)")
	// A model crosses a wall; it does not stop astride it.
	b, _ = loadEdition(t, lowWallSrc, 0)
	rulestest.Refused(t, b.(*Battle), "{type: move, unit: a, action: advance, models: [{id: a-1, path: [[0, -0.3]]}]}", "a-1 cannot move there: it would stop astride field wall")

	never, _ := loadEdition(t, strings.Replace(lowWallSrc, "terrain:\n", "options: {cross_walls: never}\nterrain:\n", 1), 0)
	rulestest.Refused(t, never.(*Battle), over, "a-1 cannot move there: leg 1 would pass through field wall (wall)")
	old, _ := loadEdition(t, lowWallSrc, ClimbEdition-1)
	rulestest.Refused(t, old.(*Battle), over, "a-1 cannot move there: leg 1 would pass through field wall (wall)")
	walls := strings.Replace(lowWallSrc, "terrain:\n", "options: {cross_walls: never}\nterrain:\n", 1)
	if _, _, err := rulestest.LoadEdition(t, Ruleset{}, "scenario.yaml", []byte(walls), ClimbEdition-1); err == nil || !strings.Contains(err.Error(), "cross_walls: a battle begun under edition 4 does not climb") {
		t.Errorf("cross_walls under edition 4: %v", err)
	}
}

// TestFloorWrittenBack: the floor elevated-ruin.yaml's sniper stands on is implied by its
// elevation: (the scenario gives the ruin no floors). Written back as a scenario after the
// sniper has climbed down, the ruin states it, so that the sniper may climb back.
func TestFloorWrittenBack(t *testing.T) {
	b := exampleEdition(t, "elevated-ruin.yaml", volley.Edition)
	if l := b.Table().Terrain[0].Levels; len(l) != 1 || l[0].Height != 7 {
		t.Fatalf("the ruin's levels: %+v; want the floor the sniper stands on", l)
	}
	out := rulestest.Play(t, b, "{type: move, unit: sniper, action: at_the_double, path: [[1, 0]], elevation: 0}")
	if m := model(t, b, "sniper"); m.Elevation != 0 || b.moved["sniper"] != 8 {
		t.Errorf("the sniper climbed down: elevation %v, moved %v; want 0 and 1\" + 7\"", m.Elevation, b.moved["sniper"])
	}
	if r := out[0].Trace[1].Result.(string); !strings.Contains(r, `climbed down 7" to the table (1" along the table and 7" climbing)`) {
		t.Errorf("the move reads %q", r)
	}
	doc, err := scenario.ParseFile(sys.Example("elevated-ruin.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	src, err := doc.Place(b.Placements(), "action")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "floors: [{height: 7}]") || !strings.Contains(string(src), "{id: sniper, at: [1, 0], leader: true}") {
		t.Errorf("the scenario written back:\n%s", src)
	}
	placed, _ := loadEdition(t, strings.Replace(string(src), "{file: sample-tables.yaml}", "\n"+sampleTables(t), 1), 0)
	rulestest.Play(t, placed.(*Battle), "{type: move, unit: sniper, action: at_the_double, elevation: 7}")
	if m := model(t, placed.(*Battle), "sniper"); m.Elevation != 7 {
		t.Errorf("the sniper climbed back: elevation %v", m.Elevation)
	}
}

// sampleTables is sample-tables.yaml, indented to stand under tables:.
func sampleTables(tb testing.TB) string {
	tb.Helper()
	src := sys.ReadExample(tb, "sample-tables.yaml")
	return "  " + strings.ReplaceAll(strings.TrimSpace(src), "\n", "\n  ")
}

// TestRulingHopelessShot: from volley.EditionHopeless a shot at a target no model of the
// unit can hit (every aim at it out of range) is refused, naming the target, and the
// battle is as it was, as Dropzone, Warfare and Republique refuse one; the refusal shows
// in Refusals too. Before it the shot was taken, and rolled nothing.
func TestRulingHopelessShot(t *testing.T) {
	src := `ruleset: warstrike
tables:
  weapons: {rifle: {range: 12, shots: 1, to_hit: 4}}
units:
  - {id: a, side: A, base: 1, height: 1.2, weapon: rifle, models: [{id: a-1, at: [0, 0], leader: true}, {id: a-2, at: [2, 0]}]}
  - {id: b, side: B, base: 1, height: 1.2, models: [{id: b-1, at: [0, 30]}, {id: b-2, at: [2, 30]}]}
action: {unit: a, targets: [{unit: b}]}
`
	for _, c := range []struct {
		edition int
		refused bool
	}{{volley.EditionHopeless - 1, false}, {volley.EditionHopeless, true}, {volley.Edition, true}} {
		b, a := loadEdition(t, src, c.edition)
		for _, aim := range aimsOf(t, b.(*Battle), a) {
			if aim.Status != volley.StatusOutOfRange {
				t.Fatalf("edition %d: the aim %s>%s is %s, want out of range", c.edition, aim.Shooter, aim.Target, aim.Status)
			}
		}
		list, err := b.(volley.Refuser).Refusals(context.Background(), a)
		if err != nil {
			t.Fatal(err)
		}
		before, _ := json.Marshal(b.State())
		out, err := rulestest.Resolve(b, a, dice.ForAction(1, 0))
		if !c.refused {
			if err != nil || len(list) != 0 {
				t.Errorf("edition %d: refused (%v; %v), want the shot taken as it was", c.edition, err, list)
			}
			for _, r := range out.Targets {
				for m, n := range r.Measures {
					if n != 0 && m != "models_left" {
						t.Errorf("edition %d: the hopeless shot did %g %s to %s", c.edition, n, m, r.Target)
					}
				}
			}
			continue
		}
		if volley.ErrorCode(err) != volley.EINVALID || !strings.Contains(err.Error(), "not at b: no model of a can hit it") {
			t.Errorf("edition %d: %v, want the hopeless shot refused", c.edition, err)
		}
		if len(list) != 1 || !strings.Contains(list.Error(), "a shot that can do nothing is refused") {
			t.Errorf("edition %d: refusals %v", c.edition, list)
		}
		if after, _ := json.Marshal(b.State()); string(after) != string(before) {
			t.Errorf("edition %d: the refused shot changed the battle:\n%s\n%s", c.edition, before, after)
		}
	}
}
