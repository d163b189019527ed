package warengine

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rulestest"
)

// sprayScenario: a gunner 14 squares from its target fires a repeating weapon without
// aiming (three picks, MaxDistanceMissedBy 2 on the first). ChanceToHit is 50 on every
// pick: open ground, one range band for every square in reach. Enemies and a friend stand
// around the target; the weapon ignores terrain and units on its way (no interception),
// so that the picks alone decide where the shot ends.
var sprayScenario = openField + `weapons:
  - {name: Spray, arc: 360, short: {range: 5, accuracy: -50}, medium: {range: 30}, long: {range: 40}, strength: 30, damage: [1, 1], repeating: true, ignores_terrain: true}
types:
  - {name: Gunner, weapon_skill: 50, hits: 2, weapons: [{weapon: Spray, group: 1}]}
units:
  - {id: gunner, type: Gunner, side: blue, at: [10, 19], facing: N, targets: [{weapon: Spray, at: [10, 5]}]}
  - {id: target, type: Gunner, side: red, at: [10, 5]}
  - {id: near, type: Gunner, side: red, at: [11, 6]}
  - {id: friend, type: Gunner, side: blue, at: [9, 4]}
  - {id: far, type: Gunner, side: red, at: [13, 2]}
action: {type: fire, unit: gunner, weapon: Spray}
`

// openField is how the manual's scenarios here begin: blue's fire phase, the options
// (OPTIONS, which each test replaces) and a map of 20 × 20 squares of open ground.
var openField = `ruleset: warengine
turn: {side: blue, phase: fire}
options: OPTIONS
map:
  legend: {".": {name: open}}
  rows: |
` + strings.Repeat("    "+strings.Repeat(".", 20)+"\n", 20)

// sprayModel is the manual's procedure for the spray scenario, written out on its own,
// without the package's code: three picks, each choosing among the units of its area
// after a pass (the targeted enemy twice) and the empty squares after a failure. It
// returns where the shot ends. firstPick keeps MaxDistanceMissedBy of the first pick;
// targeted is "original" (the declared square) or "current" (the pick's start).
func sprayModel(firstPick bool, targeted string) map[geom.Square]float64 {
	units := map[geom.Square]bool{{X: 10, Y: 19}: true, {X: 10, Y: 5}: true, {X: 11, Y: 6}: true, {X: 9, Y: 4}: true, {X: 13, Y: 2}: true}
	enemy := map[geom.Square]bool{{X: 10, Y: 5}: true, {X: 11, Y: 6}: true, {X: 13, Y: 2}: true}
	from, declared := geom.Sq(10, 19), geom.Sq(10, 5)
	cur := map[geom.Square]float64{declared: 1}
	for pick := range 3 {
		next := map[geom.Square]float64{}
		for start, p := range cur {
			r := 2
			if !firstPick {
				r = min(from.Chebyshev(start)/5, 5)
			}
			aim := declared
			if pick > 0 && targeted == "current" {
				aim = start
			}
			var occupied, empty []geom.Square
			for y := start.Y - r; y <= start.Y+r; y++ {
				for x := start.X - r; x <= start.X+r; x++ {
					if x < 0 || y < 0 || x >= 20 || y >= 20 {
						continue
					}
					if q := geom.Sq(x, y); units[q] {
						occupied = append(occupied, q)
					} else {
						empty = append(empty, q)
					}
				}
			}
			weight := func(q geom.Square) float64 {
				if q == aim && enemy[aim] {
					return 2
				}
				return 1
			}
			all := append(append([]geom.Square{}, occupied...), empty...)
			total := 0.0
			for _, q := range occupied {
				total += weight(q)
			}
			// A pass (one half) picks a unit's square, the targeted enemy's twice; with
			// no unit in the area, any square.
			if len(occupied) > 0 {
				for _, q := range occupied {
					next[q] += p * 0.5 * weight(q) / total
				}
			} else {
				for _, q := range all {
					next[q] += p * 0.5 / float64(len(all))
				}
			}
			// A failure (the other half) picks an empty square; with none, any square.
			if len(empty) == 0 {
				empty = all
			}
			for _, q := range empty {
				next[q] += p * 0.5 / float64(len(empty))
			}
		}
		cur = next
	}
	return cur
}

func loadSpray(t *testing.T, options string) (*Battle, *Order) {
	t.Helper()
	b, a := rulestest.Load(t, Ruleset{}, "spray.yaml", []byte(strings.Replace(sprayScenario, "OPTIONS", options, 1)))
	return b.(*Battle), a.(*Order)
}

// TestRepeatingWeaponFollowsTheManual: under the defaults a repeating weapon's three
// picks keep the first pick's MaxDistanceMissedBy, so the shot ends at most 3 × 2
// squares from the declared one, and the declared enemy square is the one that counts
// twice; the exact landing is the manual's procedure worked out independently. The
// older readings stay reachable by option, with their own exact values.
func TestRepeatingWeaponFollowsTheManual(t *testing.T) {
	for _, tc := range []struct {
		name, options string
		firstPick     bool
		targeted      string
		bounded       bool
	}{
		{"defaults", "{}", true, "original", true},
		{"repeat_targeted: current", "{repeat_targeted: current}", true, "current", true},
		{"repeat_recompute: each_pick", "{repeat_recompute: each_pick}", false, "original", false},
		{"edition 1's readings", "{repeat_recompute: each_pick, repeat_targeted: current}", false, "current", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, o := loadSpray(t, tc.options)
			s, _, _ := b.shotFor(o)
			if s.picks != 3 {
				t.Fatalf("%d picks; want 3", s.picks)
			}
			want := sprayModel(tc.firstPick, tc.targeted)
			got := map[geom.Square]float64{}
			b.exactLanding(s).landed.each(func(i int, p float64) { got[b.square(i)] = p })
			for q, p := range want {
				if math.Abs(got[q]-p) > 1e-12 {
					t.Errorf("P(ends on %s) = %.15f; the manual's procedure gives %.15f", q, got[q], p)
				}
			}
			if len(got) != len(want) {
				t.Errorf("%d landing squares; the manual's procedure gives %d", len(got), len(want))
			}
			beyond := 0.0
			for q, p := range got {
				if q.Chebyshev(geom.Sq(10, 5)) > 6 {
					beyond += p
				}
			}
			if tc.bounded && beyond > 0 {
				t.Errorf("%.4f of the shot ends more than 3 × 2 squares from the declared square", beyond)
			}
			if !tc.bounded && beyond == 0 {
				t.Error("recomputing MaxDistanceMissedBy never takes the shot past 6 squares")
			}
			odds := rulestest.Odds(t, b, o)
			for _, to := range odds.Targets {
				if to.Target == "target" {
					t.Logf("P(the targeted unit is struck) = %.4f", to.Mean[MeasureStruck])
					if math.Abs(to.Mean[MeasureStruck]-want[geom.Sq(10, 5)]) > 1e-12 {
						t.Errorf("the target is struck with %.15f; the manual's procedure gives %.15f", to.Mean[MeasureStruck], want[geom.Sq(10, 5)])
					}
				}
			}
		})
	}
}

// sixSquares: a certain pass (ChanceToHit 100) and one pick over an area holding six
// unit-occupied squares, the declared one an enemy's; no interception.
var sixSquares = openField + `weapons:
  - {name: Shot, arc: 360, short: {range: 30}, medium: {range: 35}, long: {range: 40}, strength: 30, damage: [1, 1], ignores_terrain: true}
types:
  - {name: Trooper, weapon_skill: 100, hits: 2, weapons: [{weapon: Shot, group: 1}]}
units:
  - {id: shooter, type: Trooper, side: blue, at: [10, 19], facing: N, aiming: true, targets: [{weapon: Shot, at: [10, 5], friendly: FRIENDLY}]}
  - {id: target, type: Trooper, side: red, at: [10, 5]}
  - {id: e1, type: Trooper, side: red, at: [9, 5]}
  - {id: e2, type: Trooper, side: red, at: [11, 4]}
  - {id: f1, type: Trooper, side: blue, at: [10, 6]}
  - {id: f2, type: Trooper, side: blue, at: [8, 3]}
  - {id: f3, type: Trooper, side: blue, at: [12, 7]}
action: {type: fire, unit: shooter, weapon: Shot}
`

// TestDeclaredEnemyCountsTwice: of six unit-occupied squares the declared enemy square
// counts twice: 2/7, whether or not the declaration says friendly: true (the flag only
// lets a friend's square be declared). friendly_drops_double is volley's other reading.
func TestDeclaredEnemyCountsTwice(t *testing.T) {
	for _, tc := range []struct {
		options, friendly string
		want              float64
	}{
		{"{}", "false", 2.0 / 7},
		{"{}", "true", 2.0 / 7},
		{"{friendly_drops_double: true}", "true", 1.0 / 6},
		{"{friendly_drops_double: true}", "false", 2.0 / 7},
	} {
		src := strings.NewReplacer("OPTIONS", tc.options, "FRIENDLY", tc.friendly).Replace(sixSquares)
		b, a := rulestest.Load(t, Ruleset{}, "six.yaml", []byte(src))
		odds := rulestest.Odds(t, b, a)
		if v := odds.Values["max_distance_missed_by"]; v != 2 {
			t.Fatalf("MaxDistanceMissedBy %v; want 2 (14 squares)", v)
		}
		got := -1.0
		for _, to := range odds.Targets {
			if to.Target == "target" {
				got = to.Mean[MeasureStruck]
			}
		}
		if math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("options %s, friendly %s: the declared enemy is struck with %.6f; want %.6f", tc.options, tc.friendly, got, tc.want)
		}
	}
}

// TestFirerInTheArea: the manual's area includes all its squares, the firer's own too,
// and a unit of either army may be picked: a big unit firing from its rear at a square
// just ahead of it can strike itself. deviation_area: exclude_firer leaves its squares
// out.
func TestFirerInTheArea(t *testing.T) {
	src := openField + `weapons:
  - {name: Gun, arc: 360, short: {range: 30}, medium: {range: 35}, long: {range: 40}, strength: 30, damage: [1, 1], ignores_terrain: true}
types:
  - {name: Tank, size: 6, weapon_skill: 50, hits: 9, mounts: {rear: [0, 5]}, weapons: [{weapon: Gun, group: 1, mount: rear}]}
  - {name: Trooper, weapon_skill: 50, hits: 2}
units:
  - {id: tank, type: Tank, side: blue, at: [10, 8], facing: N, aiming: true, targets: [{weapon: Gun, at: [10, 7]}]}
  - {id: target, type: Trooper, side: red, at: [10, 7]}
action: {type: fire, unit: tank, weapon: Gun}
`
	for _, tc := range []struct {
		options string
		self    bool
	}{{"{}", true}, {"{deviation_area: exclude_firer}", false}} {
		b, a := rulestest.Load(t, Ruleset{}, "self.yaml", []byte(strings.Replace(src, "OPTIONS", tc.options, 1)))
		odds := rulestest.Odds(t, b, a)
		if v := odds.Values["max_distance_missed_by"]; v != 1 {
			t.Fatalf("MaxDistanceMissedBy %v; want 1 (6 squares from the rear mount)", v)
		}
		struck := 0.0
		for _, to := range odds.Targets {
			if to.Target == "tank" {
				struck = to.Mean[MeasureStruck]
			}
		}
		// The area around 7 squares ahead of the rear mount: 9 squares, two of them the
		// tank's front row. A pass (ChanceToHit 70: skill 50, aiming 20) picks among the
		// target's square (twice) and the tank's two: 2/4 for the tank.
		want := 0.0
		if tc.self {
			want = 0.7 * 2 / 4
		}
		if math.Abs(struck-want) > 1e-12 {
			t.Errorf("options %s: the firer is struck with %.6f; want %.6f", tc.options, struck, want)
		}
	}
}

// twoPistols: a trooper carries two pistols in group 1 ("fire one or both").
const twoPistols = `ruleset: warengine
turn: {side: blue, phase: target}
map:
  legend: {".": {name: open}}
  rows: |
    ..........
    ..........
    ..........
weapons:
  - {name: Pistol, arc: 360, short: {range: 5}, medium: {range: 8}, long: {range: 12}, strength: 40, damage: [1, 2]}
  - {name: Shotgun, arc: 90, short: {range: 3}, medium: {range: 5}, long: {range: 6}, strength: 60, damage: [1, 3]}
  - {name: Medikit, arc: 360, short: {range: 2}, medium: {range: 3}, long: {range: 4}, strength: 0, damage: [1, 3], heals: true}
  - {name: Stunner, arc: 360, short: {range: 5}, medium: {range: 8}, long: {range: 12}, strength: 0, damage: [0, 0]}
types:
  - {name: Trooper, weapon_skill: 60, hits: 4, save: 10, toughness: {default: {front: 20, side: 15, rear: 10}},
     weapons: [{weapon: Pistol, group: 1, count: 2}, {weapon: Shotgun, group: 2}, {weapon: Medikit, group: 3}, {weapon: Stunner, group: 4}]}
units:
  - {id: a, type: Trooper, side: blue, at: [1, 1], facing: E, aiming: true}
  - {id: medic, type: Trooper, side: blue, at: [1, 2], facing: E, aiming: true}
  - {id: b, type: Trooper, side: red, at: [4, 1], facing: W, hits: 1}
`

func decodeOrder(t *testing.T, b *Battle, src string) *Order {
	t.Helper()
	return rulestest.Decode(t, b, src).(*Order)
}

func play(t *testing.T, b *Battle, orders ...string) {
	t.Helper()
	for i, src := range orders {
		if _, err := b.Resolve(context.Background(), decodeOrder(t, b, src), dice.ForAction(5, i)); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
	}
}

// TestTwoPistols: a weapon carried twice is declared and fired copy by copy, the second
// by its name and number, each with the odds of a pistol; Monte Carlo agrees.
func TestTwoPistols(t *testing.T) {
	b, _ := rulestest.Load(t, Ruleset{}, "pistols.yaml", []byte(twoPistols))
	battle := b.(*Battle)
	a, _ := battle.Unit("a")
	var names []string
	for _, w := range battle.Board().Units[0].Weapons {
		names = append(names, w.Name)
	}
	if strings.Join(names, ", ") != "Pistol, Shotgun, Medikit, Stunner, Pistol 2" {
		t.Errorf("a's weapons: %v", names)
	}
	play(t, battle, "{type: declare, unit: a, weapon: Pistol, target: [4, 1]}", "{type: declare, unit: a, weapon: Pistol 2, target: [4, 1]}", "{type: end_phase}")
	if len(a.Declared) != 2 {
		t.Fatalf("a declared %v; want both pistols", a.Declared)
	}
	one, two := decodeOrder(t, battle, "{type: fire, unit: a, weapon: Pistol}"), decodeOrder(t, battle, "{type: fire, unit: a, weapon: Pistol 2}")
	o1, o2 := rulestest.Odds(t, battle, one), rulestest.Odds(t, battle, two)
	if o1.Targets[0].Mean[MeasureHits] != o2.Targets[0].Mean[MeasureHits] || o1.Targets[0].Mean[MeasureHits] == 0 {
		t.Errorf("the two pistols' odds: %v and %v", o1.Targets[0].Mean, o2.Targets[0].Mean)
	}
	compareSim(t, battle, two, 100_000)
	if _, err := battle.Resolve(context.Background(), two, dice.ForAction(5, 9)); err != nil {
		t.Fatal(err)
	}
	if d := a.declared("Pistol"); d == nil || a.declared("Pistol 2") != nil {
		t.Errorf("after firing Pistol 2, a's declarations are %v; want Pistol's alone", a.Declared)
	}
}

// TestHealingWeapon: a healing weapon gives a friend it strikes back hits, uniform over
// its damage range and never past the friend's type's hits, with no damage check and no
// save; Monte Carlo agrees with the exact odds.
func TestHealingWeapon(t *testing.T) {
	b, _ := rulestest.Load(t, Ruleset{}, "heal.yaml", []byte(strings.Replace(twoPistols,
		"{id: a, type: Trooper, side: blue, at: [1, 1], facing: E, aiming: true}", "{id: a, type: Trooper, side: blue, at: [1, 1], facing: E, aiming: true, hits: 2}", 1)))
	battle := b.(*Battle)
	play(t, battle, "{type: declare, unit: medic, weapon: Medikit, target: [1, 1], friendly: true}", "{type: end_phase}")
	heal := decodeOrder(t, battle, "{type: fire, unit: medic, weapon: Medikit}")
	odds := rulestest.Odds(t, battle, heal)
	if len(odds.Targets) != 1 || odds.Targets[0].Target != "a" {
		t.Fatalf("healing odds: %+v", odds.Targets)
	}
	healed := odds.Targets[0].Distributions[MeasureHealed]
	// a needs 2 hits of its 4; the medikit gives 1 to 3: 1 with 1/3, 2 (capped) with 2/3,
	// when it strikes a (ChanceToHit 80, one square away: no deviation).
	p := odds.Targets[0].Mean[MeasureStruck]
	if p != 1 || math.Abs(healed.P(1)-1.0/3) > 1e-12 || math.Abs(healed.P(2)-2.0/3) > 1e-12 {
		t.Errorf("struck %v, healed %v; want certain, 1 with 1/3 and 2 with 2/3", p, healed)
	}
	compareSim(t, battle, heal, 100_000)
	out := rulestest.MustResolve(t, battle, heal, dice.ForAction(5, 7))
	a, _ := battle.Unit("a")
	if got := out.Targets[0].Measures[MeasureHealed]; a.Hits != 2+int(got) || got < 1 || a.Hits > 4 {
		t.Errorf("healed %v, now %d hits", got, a.Hits)
	}
}

// TestStunWeapon: a weapon of strength 0 does no damage; a unit it strikes is stunned and
// may not fire in its side's next fire phase. With stun: false it does nothing at all.
func TestStunWeapon(t *testing.T) {
	b, _ := rulestest.Load(t, Ruleset{}, "stun.yaml", []byte(twoPistols))
	battle := b.(*Battle)
	play(t, battle, "{type: declare, unit: a, weapon: Stunner, target: [4, 1]}", "{type: end_phase}")
	stun := decodeOrder(t, battle, "{type: fire, unit: a, weapon: Stunner}")
	odds := rulestest.Odds(t, battle, stun)
	var p float64
	for _, to := range odds.Targets {
		if to.Target == "b" {
			p = to.Mean[MeasureStunned]
			if _, hits := to.Distributions[MeasureHits]; hits {
				t.Error("a stun weapon has hits odds")
			}
		}
	}
	// Three squares away the area is b's square alone: the shot cannot miss it.
	if p != 1 {
		t.Fatalf("P(b stunned) = %v; want 1", p)
	}
	compareSim(t, battle, stun, 100_000)
	// Fire until b is stunned, then play to b's fire phase: it may not fire there.
	unit, _ := battle.Unit("b")
	for seed := 0; unit.StunnedFor == 0; seed++ {
		if seed == 100 {
			t.Fatal("a hundred shots never stunned b")
		}
		clone, _ := rulestest.Load(t, Ruleset{}, "stun.yaml", []byte(twoPistols))
		battle = clone.(*Battle)
		play(t, battle, "{type: declare, unit: a, weapon: Stunner, target: [4, 1]}", "{type: end_phase}")
		if _, err := battle.Resolve(context.Background(), decodeOrder(t, battle, "{type: fire, unit: a, weapon: Stunner}"), dice.ForAction(uint64(seed), 3)); err != nil {
			t.Fatal(err)
		}
		unit, _ = battle.Unit("b")
	}
	if unit.Hits != 1 {
		t.Errorf("a stun did %d damage", 1-unit.Hits)
	}
	play(t, battle, "{type: end_phase}", "{type: declare, unit: b, weapon: Pistol, target: [1, 1]}", "{type: end_phase}")
	if !unit.Stunned || battle.State().Units[2].Values["stunned"] != 1 {
		t.Fatal("b is not stunned in its fire phase")
	}
	_, err := battle.Resolve(context.Background(), decodeOrder(t, battle, "{type: fire, unit: b, weapon: Pistol}"), dice.ForAction(5, 20))
	if err == nil || !strings.Contains(err.Error(), "stunned") {
		t.Errorf("a stunned unit fired: %v", err)
	}
	play(t, battle, "{type: end_phase}")
	if unit.Stunned || unit.StunnedFor != 0 {
		t.Error("b is still stunned after its fire phase")
	}
	// With stun off, the weapon does nothing: the manual only says what it is for.
	off, _ := rulestest.Load(t, Ruleset{}, "nostun.yaml", []byte(strings.Replace(twoPistols, "turn: {side: blue, phase: target}", "turn: {side: blue, phase: target}\noptions: {stun: false}", 1)))
	battle = off.(*Battle)
	play(t, battle, "{type: declare, unit: a, weapon: Stunner, target: [4, 1]}", "{type: end_phase}")
	for _, to := range rulestest.Odds(t, battle, decodeOrder(t, battle, "{type: fire, unit: a, weapon: Stunner}")).Targets {
		if to.Mean[MeasureStunned] != 0 || to.Mean[MeasureHits] != 0 {
			t.Errorf("with stun off: %v", to.Mean)
		}
	}
}
