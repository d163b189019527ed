package warstrike

import (
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
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
