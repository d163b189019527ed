package warengine

import (
	"math"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rulestest"
)

// TestLandingMonteCarlo rolls the landing the way Resolve does, many times, and compares
// it square by square with the exact heat-map: one pick (Murphy, aiming) and three
// (a repeating weapon fired without aiming).
func TestLandingMonteCarlo(t *testing.T) {
	const trials = 200_000
	repeating := func(t *testing.T) (*Battle, *Order) {
		b, o := sys.LoadFile(t, "murphy.yaml")
		u, _ := b.Unit("murphy")
		u.Aiming = false // the HMG is repeating: three picks
		return b, o
	}
	cases := map[string]func(t *testing.T) (*Battle, *Order){
		"one pick":    func(t *testing.T) (*Battle, *Order) { return sys.LoadFile(t, "murphy.yaml") },
		"three picks": repeating,
		"pass":        func(t *testing.T) (*Battle, *Order) { return sys.LoadFile(t, "murphy-pass.yaml") },
	}
	for name, load := range cases {
		t.Run(name, func(t *testing.T) {
			b, o := load(t)
			s, _, _ := b.shotFor(o)
			exact := b.exactLanding(s)
			counts := map[int]int{}
			d := dice.NewUnrecorded(20261121)
			for range trials {
				counts[b.index(b.rollLanding(s, d, nil))]++
			}
			seen := map[int]bool{}
			exact.landed.each(func(i int, p float64) {
				seen[i] = true
				if got := float64(counts[i]) / trials; !rulestest.Agrees(p, got, trials) {
					t.Errorf("square %v: rolled %.5f, exact %.5f", b.square(i), got, p)
				}
			})
			for i, n := range counts {
				if !seen[i] {
					t.Errorf("square %v was rolled %d times but the exact odds give it 0", b.square(i), n)
				}
			}
			if s.picks == 3 && len(seen) < 100 {
				t.Errorf("three picks reach only %d squares", len(seen))
			}
		})
	}
}

// TestSimAgreesWithOdds runs the whole shot, damage and all, through Monte Carlo and
// compares every victim's hits with the exact odds.
func TestSimAgreesWithOdds(t *testing.T) {
	const trials = 100_000
	for _, name := range []string{"murphy.yaml", "murphy-pass.yaml", "bolter.yaml"} {
		t.Run(name, func(t *testing.T) {
			b, o := sys.LoadFile(t, name)
			compareSim(t, b, o, trials)
		})
	}
	t.Run("blast", func(t *testing.T) {
		b, o := sys.Load(t, blastScenario)
		compareSim(t, b, o, trials)
	})
}

func compareSim(t *testing.T, b *Battle, o *Order, trials int) {
	t.Helper()
	odds := rulestest.Odds(t, b, o)
	sim, err := b.Sampler(o)
	if err != nil {
		t.Fatal(err)
	}
	res := volley.Simulate(sim, 7, trials, nil)
	if len(res.Targets) != len(odds.Targets) || len(odds.Targets) == 0 {
		t.Fatalf("%d simulated targets, %d exact", len(res.Targets), len(odds.Targets))
	}
	for i, x := range odds.Targets {
		got := res.Targets[i]
		for m, xd := range x.Distributions {
			sd := got.Distributions[m]
			for v := min(xd.Min(), sd.Min()); v <= max(xd.Max(), sd.Max()); v++ {
				if !rulestest.Agrees(xd.P(v), sd.P(v), trials) {
					t.Errorf("%s P(%s=%d): simulated %.5f, exact %.5f", x.Target, m, v, sd.P(v), xd.P(v))
				}
			}
		}
		if !rulestest.Agrees(x.PDestroyed, got.PDestroyed, trials) {
			t.Errorf("%s p_destroyed: simulated %.5f, exact %.5f", x.Target, got.PDestroyed, x.PDestroyed)
		}
	}
}

// blastScenario: a grenade with a blast of 1 thrown at a wall between two soldiers.
const blastScenario = `ruleset: warengine
turn: {side: blue, phase: fire}
map:
  legend:
    ".": {name: open}
    "#": {name: wall, visibility: 100, firepower: 100, save: 10, hits: 3, toughness: 10, becomes: "r"}
    "r": {name: rubble, visibility: 0, firepower: 20}
  rows: |
    ..........
    ..........
    .....#....
    ..........
    ..........
weapons:
  - {name: Grenade, arc: 360, short: {range: 4, strength: 10}, medium: {range: 8}, long: {range: 12}, strength: 40, damage: [1, 3], blast: 1, ignores_terrain: true}
types:
  - {name: Soldier, weapon_skill: 50, hits: 2, toughness: {default: {front: 20, side: 10, rear: 5}}, save: 10, weapons: [{weapon: Grenade, group: 1}]}
units:
  - {id: thrower, type: Soldier, side: blue, at: [1, 2], facing: E, aiming: true, targets: [{weapon: Grenade, at: [5, 2]}]}
  - {id: left, type: Soldier, side: red, at: [4, 2], facing: W}
  - {id: right, type: Soldier, side: red, at: [6, 3], facing: W}
action: {type: fire, unit: thrower, weapon: Grenade}
`

// TestBlastKnocksDownWalls: the grenade's blast reaches both soldiers and the wall,
// without obstacle or cover; a wall that loses its hits turns into rubble.
func TestBlastKnocksDownWalls(t *testing.T) {
	b, o := sys.Load(t, blastScenario)
	odds := rulestest.Odds(t, b, o)
	ids := map[string]volley.TargetOdds{}
	for _, tg := range odds.Targets {
		ids[tg.Target] = tg
	}
	for _, id := range []string{"left", "right", "5,2"} {
		if ids[id].Mean[MeasureStruck] == 0 {
			t.Errorf("%s cannot be struck by the blast", id)
		}
	}
	if ids["5,2"].PDestroyed == 0 {
		t.Error("the wall can never be knocked down")
	}
	for n := range 200 {
		fresh, a := sys.Load(t, blastScenario)
		out := rulestest.MustResolve(t, fresh, a, dice.ForAction(11, n))
		for _, st := range out.Trace {
			if st.Rule == "obstacle modifier" || st.Rule == "cover" {
				t.Fatalf("an explosion used the %s", st.Rule)
			}
		}
		if row := fresh.Board().Rows[2]; row[5] == 'r' {
			return // knocked down into rubble
		}
	}
	t.Error("200 grenades never knocked the wall down")
}

// TestReadingOptions: every option gives a valid distribution, and the ones that
// change the landing do change it.
func TestReadingOptions(t *testing.T) {
	landingOf := func(mut func(b *Battle)) map[int]float64 {
		b, o := sys.LoadFile(t, "murphy.yaml")
		u, _ := b.Unit("murphy")
		u.Aiming = false
		mut(b)
		s, _, _ := b.shotFor(o)
		l := b.exactLanding(s)
		m := map[int]float64{}
		sum := 0.0
		l.landed.each(func(i int, p float64) { m[i] = p; sum += p })
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("landing sums to %v", sum)
		}
		return m
	}
	base := landingOf(func(*Battle) {})
	for name, mut := range map[string]func(b *Battle){
		"repeat_targeted: none":       func(b *Battle) { b.opts.repeatTargeted = RepeatTargetNone },
		"repeat_targeted: current":    func(b *Battle) { b.opts.repeatTargeted = RepeatTargetCurrent },
		"repeat_recompute: each_pick": func(b *Battle) { b.opts.repeatFirstPick = false },
		"line: supercover":            func(b *Battle) { b.opts.line = geom.Supercover },
		"courage (morale -80)":        func(b *Battle) { b.units[0].Morale = -80 },
	} {
		if got := landingOf(mut); sameLanding(got, base) {
			t.Errorf("%s changes nothing", name)
		}
	}
}

// TestMoraleAffectsHitOff: with morale_affects_hit off, courage leaves the landing as
// it was.
func TestMoraleAffectsHitOff(t *testing.T) {
	land := func(morale int, affects bool) map[int]float64 {
		b, o := sys.LoadFile(t, "murphy.yaml")
		b.units[0].Morale, b.opts.moraleAffectsHit = morale, affects
		s, _, _ := b.shotFor(o)
		m := map[int]float64{}
		b.exactLanding(s).landed.each(func(i int, p float64) { m[i] = p })
		return m
	}
	if !sameLanding(land(0, true), land(-80, false)) {
		t.Error("morale_affects_hit: false, and courage still moved the shot")
	}
}

func sameLanding(a, b map[int]float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if math.Abs(b[k]-v) > 1e-12 {
			return false
		}
	}
	return true
}

func TestBadInput(t *testing.T) {
	base := turnScenario
	tests := []struct {
		old, new, want string
	}{
		{"    ........\n    ........\n", "    ........\n    ...x....\n", "test.yaml:6:8: map: \"x\" at column 3 of row 1 is not in the legend"},
		{"    ........\n    ........\n", "    ........\n    .......\n", "test.yaml:6:5: map: row 1 has 7 squares; the first row has 8"},
		{`legend: {".": {name: open}}`, `legend: {"..": {name: open}}`, `legend: ".." must be a single character`},
		{"arc: 90,", "arc: 100,", `weapon "Rifle": arc must be a multiple of 45`},
		{"group: 2}", "group: 7}", `group must lie between 1 and 6`},
		{"at: [6, 1]", "at: [8, 1]", `unit "c": its 1×1 footprint from 8,1 leaves the 8×3 map`},
		{"at: [6, 1]", "at: [1, 1]", `unit "c" overlaps "a" at 1,1`},
		{"weapon: Rifle, group: 1", "weapon: Rilfe, group: 1", `unknown weapon "Rilfe" (did you mean "Rifle"?)`},
		{"damage: [1, 1]", "damage: [2, 1]", `damage is [min, max] hits`},
		{"facing: E}", "facing: EAST}", `want N, NE, E, SE, S, SW, W, NW or a multiple of 45 degrees`},
	}
	for _, tt := range tests {
		src := strings.Replace(base, tt.old, tt.new, 1)
		if src == base {
			t.Fatalf("%q: nothing replaced", tt.new)
		}
		if list := rulestest.LoadErrors(t, Ruleset{}, "test.yaml", []byte(src)); !strings.Contains(list.Error(), tt.want) {
			t.Errorf("%s:\n%v\nwant %q", tt.new, list, tt.want)
		}
	}
}

// FuzzLoad feeds arbitrary documents to the War Engine loader (see
// rulestest.CheckLoad).
func FuzzLoad(f *testing.F) {
	sys.Seed(f, "murphy.yaml", "murphy-pass.yaml", "bolter.yaml", "cubicles.yaml", "moves.yaml")
	f.Add([]byte(turnScenario))
	f.Add([]byte(blastScenario))
	f.Add([]byte(moveScenario))
	f.Fuzz(func(t *testing.T, src []byte) { rulestest.CheckLoad(t, Ruleset{}, src, nil) })
}
