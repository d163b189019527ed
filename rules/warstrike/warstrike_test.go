package warstrike

import (
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/scenario"
)

// sys is WarStrike as its tests load it.
var sys = rulestest.System[*Battle, volley.Action]{Name: "warstrike", Ruleset: Ruleset{}}

// withAction is an example with its action replaced, read from the examples' folder
// so that its tables file is found.
func withAction(tb testing.TB, name, action string) (*Battle, volley.Action) {
	tb.Helper()
	s := sys.ReadExample(tb, name)
	s = s[:strings.Index(s, "\naction:")] + "\naction:\n" + action
	path := rulestest.WriteBeside(tb, name, s, sys.Example("sample-tables.yaml"))
	return sys.LoadPath(tb, path)
}

// inline is an example with its tables written in place, for loaders that read no
// files (the fuzzer, the API).
func inline(tb testing.TB, name string) []byte {
	tb.Helper()
	src := sys.ReadExample(tb, name)
	tables := sys.ReadExample(tb, "sample-tables.yaml")
	var in strings.Builder
	in.WriteString("tables:\n")
	for _, line := range strings.Split(tables, "\n") {
		if line != "" {
			in.WriteString("  " + line + "\n")
		}
	}
	return []byte(strings.Replace(src, "tables: {file: sample-tables.yaml}\n", in.String(), 1))
}

// aimsOf indexes aims by "shooter>target".
func aimsOf(tb testing.TB, b volley.Battle, a volley.Action) map[string]volley.Aim {
	tb.Helper()
	out := map[string]volley.Aim{}
	for _, x := range rulestest.Aim(tb, b, a) {
		out[x.Shooter+">"+x.Target] = x
	}
	return out
}

func wantAim(t *testing.T, aims map[string]volley.Aim, pair string, status volley.AimStatus, reason string) {
	t.Helper()
	a, ok := aims[pair]
	switch {
	case !ok:
		t.Errorf("no aim %s among %d", pair, len(aims))
	case a.Status != status:
		t.Errorf("%s: %s (%s), want %s", pair, a.Status, a.Reason, status)
	case !strings.Contains(a.Reason, reason):
		t.Errorf("%s: reason %q lacks %q", pair, a.Reason, reason)
	}
}

// TestElevatedRuin is the text's example: 7" up a ruin, a model sees into area terrain
// to 24" and is seen from 24"; Adaptive Camo halves that, Easily Seen doubles it.
func TestElevatedRuin(t *testing.T) {
	b, a := sys.LoadFile(t, "elevated-ruin.yaml")
	aims := aimsOf(t, b, a)
	wantAim(t, aims, "sniper>hunters-1", volley.StatusOK, `20" ≤ 24" sight distance`)
	wantAim(t, aims, "sniper>hunters-2", volley.StatusBlocked, `wood: 26" > 24" sight distance`)
	if n := aims["sniper>hunters-1"].Notes; len(n) == 0 || !strings.Contains(n[0], `24"`) {
		t.Errorf("notes %q do not give the 24\" sight distance", n)
	}
	b, a = withAction(t, "elevated-ruin.yaml", "  unit: watchers\n  targets: [{unit: ghosts}]\n")
	aims = aimsOf(t, b, a)
	wantAim(t, aims, "sniper>ghosts-1", volley.StatusOK, `10.7" ≤ 12" sight distance`)
	wantAim(t, aims, "sniper>ghosts-2", volley.StatusBlocked, `wood: 14.5" > 12" sight distance`)
	b, a = withAction(t, "elevated-ruin.yaml", "  unit: watchers\n  targets: [{unit: beasts}]\n")
	aims = aimsOf(t, b, a)
	wantAim(t, aims, "sniper>beasts-1", volley.StatusOK, `36.5" ≤ 48" sight distance`)
	wantAim(t, aims, "sniper>beasts-2", volley.StatusBlocked, `54.2" > 48" sight distance`)
	// The reverse: those in the wood see the sniper from 24", not 26".
	b, a = withAction(t, "elevated-ruin.yaml", "  unit: hunters\n  targets: [{unit: watchers}]\n")
	aims = aimsOf(t, b, a)
	wantAim(t, aims, "hunters-1>sniper", volley.StatusOK, `20" ≤ 24" sight distance`)
	wantAim(t, aims, "hunters-2>sniper", volley.StatusBlocked, `26" > 24" sight distance`)
}

func TestSightDistance(t *testing.T) {
	plain, camo, seen := &Unit{}, &Unit{Rules: []string{AdaptiveCamo}}, &Unit{Rules: []string{EasilySeen}}
	for _, c := range []struct {
		viewer, target float64
		unit           *Unit
		want           float64
	}{
		{0, 0, plain, 12}, {2.9, 0, plain, 12}, {3, 0, plain, 18}, {7, 0, plain, 24}, {0, 7, plain, 24},
		{6, 3, plain, 30}, {7, 0, camo, 12}, {7, 0, seen, 48}, {0, 0, camo, 6},
	} {
		if got := sightDistance(&Model{Elevation: c.viewer}, &Model{Elevation: c.target}, c.unit); got != c.want {
			t.Errorf("viewer at %g\", target at %g\", rules %v: %g, want %g", c.viewer, c.target, c.unit.Rules, got, c.want)
		}
	}
}

// TestWhoMayShoot sends the same order from every unit of who-may-shoot.yaml: each is
// refused with its rule, by Aim and by Resolve, and the battle does not change.
func TestWhoMayShoot(t *testing.T) {
	for unit, rule := range map[string]string{
		"runners":    "At-The-Double or fell back may not shoot (Who Can Shoot?)",
		"retreaters": "chose Fall Back this turn: units that moved At-The-Double or fell back",
		"pinned":     "had 2 suppression markers when its player's action phase began",
		"hiding":     "chose Go To Ground this turn, which is not an action that allows shooting",
		"halted":     "chose Halt this turn, which is not an action that allows shooting",
		"advancing":  "chose Advance this turn, which is not an action that allows shooting",
		"medics":     "is a Medical Team: specialists",
		"unarmed":    "has no ranged weapons",
		"shooters":   "",
	} {
		t.Run(unit, func(t *testing.T) {
			b, a := withAction(t, "who-may-shoot.yaml", "  unit: "+unit+"\n  targets: [{unit: enemy}]\n")
			aims := rulestest.Aim(t, b, a)
			before := rulestest.Snapshot(b)
			_, err := rulestest.Resolve(b, a, dice.ForAction(1, 0))
			if rule == "" {
				if err != nil || aims[0].Status != volley.StatusOK {
					t.Fatalf("shooters: %v %+v", err, aims[0])
				}
				return
			}
			if len(aims) != 1 || aims[0].Status != volley.StatusNotEligible || !strings.Contains(aims[0].Reason, rule) {
				t.Errorf("aim: %+v; want not_eligible naming %q", aims, rule)
			}
			if err == nil || !strings.Contains(err.Error(), rule) {
				t.Errorf("resolve: %v; want a refusal naming %q", err, rule)
			}
			if rulestest.Snapshot(b) != before {
				t.Error("a refused action changed the battle")
			}
		})
	}
}

func TestSplitFire(t *testing.T) {
	b, a := sys.LoadFile(t, "split-fire.yaml")
	odds := rulestest.Odds(t, b, a)
	if len(odds.Targets) != 2 {
		t.Fatalf("%d targets, want raiders and gunners", len(odds.Targets))
	}
	b, a = withAction(t, "split-fire.yaml", `  unit: bravo
  targets:
    - {unit: raiders, models: [bravo-rifle]}
    - {unit: gunners, models: [bravo-gun]}
`)
	aims := aimsOf(t, b, a)
	wantAim(t, aims, "bravo>gunners", volley.StatusNotEligible, "has lost its leader, so it may fire at a single target (Select Your Targets)")
	wantAim(t, aims, "bravo-rifle>raiders-1", volley.StatusOK, "")
	if _, err := rulestest.Resolve(b, a, dice.ForAction(1, 0)); err == nil || !strings.Contains(err.Error(), "single target") {
		t.Errorf("resolve: %v", err)
	}
	// Alone, the raiders are a target bravo may choose, and both its models fire at them.
	b, a = withAction(t, "split-fire.yaml", "  unit: bravo\n  targets: [{unit: raiders}]\n")
	if _, err := rulestest.Resolve(b, a, dice.ForAction(1, 0)); err != nil {
		t.Fatal(err)
	}
}

func TestObstacles(t *testing.T) {
	b, a := sys.LoadFile(t, "obstacles.yaml")
	aims := aimsOf(t, b, a)
	wantAim(t, aims, "patrol-1>walled-1", volley.StatusBlocked, `south wall: 2" high, higher than the models (TLOS And Linear Obstacles)`)
	wantAim(t, aims, "patrol-2>walled-2", volley.StatusOK, "sees")
	wantAim(t, aims, "patrol-4>lurkers-1", volley.StatusBlocked, "blockhouse: 6\" high, higher than the models (TLOS And Buildings)")
	wantAim(t, aims, "patrol-4>lurkers-2", volley.StatusOK, "sees")
	wantAim(t, aims, "patrol-3>lurkers-2", volley.StatusBlocked, "partly within it, on the far side")
	// Without elevated see-over, the hill does not help: the wall blocks by rule.
	src := inline(t, "obstacles.yaml")
	src = []byte(strings.Replace(string(src), "tables:", "options: {see_over: never}\ntables:", 1))
	nb, na := rulestest.Load(t, Ruleset{}, "never.yaml", src)
	wantAim(t, aimsOf(t, nb, na), "patrol-2>walled-2", volley.StatusBlocked, "north wall")
	// Read "higher than the models of both units", a 1.3" hedge before a 1.2" model and a
	// 1.5" one does not block by rule; read "either", it does.
	hedge := `ruleset: warstrike
tables: {weapons: {rifle: {range: 24, shots: 1, to_hit: 4}}}
options: {higher: HIGHER}
terrain: [{id: hedge, kind: wall, height: 1.3, line: [[5, -3], [5, 3]]}]
units:
  - {id: a, side: A, base: 1, height: 1.5, weapon: rifle, models: [{at: [0, 0]}]}
  - {id: b, side: B, base: 1, height: 1.2, models: [{at: [10, 0]}]}
action: {unit: a, targets: [{unit: b}]}
`
	for higher, want := range map[string]volley.AimStatus{"either": volley.StatusBlocked, "both": volley.StatusOK} {
		hb, ha := rulestest.Load(t, Ruleset{}, "hedge.yaml", []byte(strings.Replace(hedge, "HIGHER", higher, 1)))
		if got := rulestest.Aim(t, hb, ha)[0]; got.Status != want {
			t.Errorf("higher: %s: %s (%s), want %s", higher, got.Status, got.Reason, want)
		}
	}
}

// TestStandardTest checks the ray test: a low wall hides a model's legs, not its head;
// a feature in the way hides it all; a tall model over a shorter wood is seen.
func TestStandardTest(t *testing.T) {
	src := `ruleset: warstrike
tables: {weapons: {rifle: {range: 48, shots: 1, to_hit: 4}}, concealment: {modifiers: [{when: partly_visible, modifier: 1}]}}
terrain:
  - {id: low-wall, kind: wall, height: 0.6, line: [[9, -3], [9, 3]]}
  - {id: pillar, kind: feature, height: 5, polygon: [[4.5, 9.5], [5.5, 9.5], [5.5, 10.5], [4.5, 10.5]]}
  - {id: scrub, kind: area, height: 1, polygon: [[8, 18], [12, 18], [12, 22], [8, 22]]}
units:
  - {id: a, side: A, base: 1, height: 1.2, weapon: rifle, models: [{at: [0, 0], leader: true}, {at: [0, 10]}, {at: [0, 20]}]}
  - {id: b, side: B, base: 1, height: 1.2, models: [{at: [10, 0]}, {at: [10, 10]}]}
  - {id: c, side: B, base: 1, height: 2, models: [{at: [20, 20]}]}
action: {unit: a, targets: [{unit: b, models: [a-1, a-2]}, {unit: c, models: [a-3]}]}
`
	b, a := rulestest.Load(t, Ruleset{}, "std.yaml", []byte(src))
	aims := aimsOf(t, b, a)
	low := aims["a-1>b-1"]
	if low.Status != volley.StatusOK || len(low.Modifiers) != 1 || low.Modifiers[0].Rule != "concealment: partly visible" {
		t.Errorf("over the low wall: %+v", low)
	}
	wantAim(t, aims, "a-2>b-2", volley.StatusBlocked, "pillar (feature)")
	wantAim(t, aims, "a-3>c-1", volley.StatusOK, "sees 100%")
}

// TestSimAgreesWithOdds rolls each action many times as Resolve does and compares
// every measure's distribution with the exact odds, within five standard errors.
func TestSimAgreesWithOdds(t *testing.T) {
	const trials = 200_000
	sys.SimAgreesWithOdds(t, 99, trials, []string{"split-fire.yaml", "elevated-ruin.yaml", "obstacles.yaml"}, nil)
}

// TestResolveApplies checks that a resolution removes as many models as it reports, adds
// its suppression markers, fixes the unit's action, and that the unit cannot shoot twice.
func TestResolveApplies(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		b, a := sys.LoadFile(t, "split-fire.yaml")
		out, err := rulestest.Resolve(b, a, dice.ForAction(seed, 0))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range out.Targets {
			u, _ := b.Unit(r.Target)
			if got := float64(len(u.Models) - u.Left()); got != r.Measures[MeasureKills] {
				t.Errorf("seed %d: %s lost %g models, the outcome says %g", seed, u.ID, got, r.Measures[MeasureKills])
			}
			if float64(u.Suppression) != r.Measures[MeasureSuppression] {
				t.Errorf("seed %d: %s has %d markers, gained %g", seed, u.ID, u.Suppression, r.Measures[MeasureSuppression])
			}
		}
		if u, _ := b.Unit("alpha"); u.Action != OpenFire {
			t.Errorf("alpha's action is %q", u.Action)
		}
		before := rulestest.Snapshot(b)
		if _, err := rulestest.Resolve(b, a, dice.ForAction(seed, 1)); err == nil {
			t.Error("alpha shot twice in a turn")
		}
		if rulestest.Snapshot(b) != before {
			t.Error("the refused second shot changed the battle")
		}
	}
}

// TestTurnsAndMarkers plays a turn: the target's markers from this turn decide, at the
// start of its own turn, whether it may shoot; marked dead models leave at the turn's end.
func TestTurnsAndMarkers(t *testing.T) {
	src := `ruleset: warstrike
options: {dead: mark}
tables: {weapons: {gun: {range: 48, shots: 6, to_hit: 1}}, top_always_succeeds: true, one_always_fails: false, suppression: {from: hit, markers: 1, each: true}}
units:
  - {id: a, side: A, base: 1, height: 1.2, weapon: gun, models: [{at: [0, 0]}]}
  - {id: b, side: B, base: 1, height: 1.2, weapon: gun, wounds: 4, models: [{at: [10, 0]}, {at: [12, 0]}]}
action: {unit: a, targets: [{unit: b}]}
`
	vb, a := rulestest.Load(t, Ruleset{}, "turns.yaml", []byte(src))
	b := vb.(*Battle)
	odds := rulestest.Odds(t, b, a)
	if k := odds.Targets[0].Distributions[MeasureKills]; k.P(1) != 1 {
		t.Fatalf("6 sure wounds on 4-wound models: kills %v, want 1 for certain", k)
	}
	out, err := rulestest.Resolve(b, a, dice.ForAction(1, 0))
	if err != nil {
		t.Fatal(err)
	}
	bu, _ := b.Unit("b")
	if bu.Models[0].Marked != true || bu.Models[1].WoundsLost != 2 || bu.Suppression != 6 {
		t.Fatalf("after 6 wounds: %+v, markers %d (%v)", bu.Models, bu.Suppression, out.Trace)
	}
	rulestest.NextRound(t, b) // B's turn, then A's again
	if !bu.Models[0].Dead || bu.SuppressionAtStart != 6 {
		t.Errorf("after the turn: %+v, markers at start %d", bu.Models[0], bu.SuppressionAtStart)
	}
}

func TestKillsFrom(t *testing.T) {
	order := []casualty{{needs: 1}, {needs: 2}, {needs: 2}}
	for w, want := range []int{0, 1, 1, 2, 2, 3, 3} {
		if got := killsFrom(order, w); got != want {
			t.Errorf("%d wounds: %d kills, want %d", w, got, want)
		}
	}
}

func TestBadInput(t *testing.T) {
	src := `ruleset: warstrike
options: {higher: taller, samples: [0, 3]}
tables: {die: 1, weapons: {rifle: {range: -1, shots: 0, to_hit: 4}}, concealment: {modifiers: [{when: in_smoke, modifier: 1}]}}
terrain:
  - {id: w, kind: wall, height: 2, polygon: [[0, 0], [1, 0], [1, 1]]}
  - {id: x, kind: swamp, height: 1, polygon: [[0, 0], [1, 0], [1, 1]]}
units:
  - {id: a, side: A, base: 1, height: 0, weapon: rifel, rules: [camo], models: [{at: [0, 0], leader: true}, {at: [1, 0], leader: true}]}
  - {id: b, side: B, base: 1, height: 1, models: [{id: a-1, at: [5, 0]}]}
action: {unit: a, as: sprint, targets: [{unit: b, models: [a-9]}, {unit: c}, {unit: b}]}
`
	doc, err := scenario.Parse("bad.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Ruleset{}.Load(doc)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		"bad.yaml:2:19: higher: want either or both",
		"samples: want [columns, rows]",
		"die: want 2 to 100 faces",
		"bad.yaml:3:43: range: a length cannot be negative",
		"weapon \"rifle\": shots must lie between 1 and 20",
		`unknown condition "in_smoke"`,
		"a wall is a line",
		"want area, hill, wall, building or feature",
		"height must be above 0",
		`weapon "rifel" is not in the tables`,
		`unknown special rule "camo"`,
		"a unit has one leader",
		`model id "a-1" is used twice`,
		"want one of open_fire",
		`a has no model "a-9"`,
		`unknown target "c"`,
		"a unit chooses at most 2 targets",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("errors lack %q:\n%v", want, err)
		}
	}
}

// FuzzLoad feeds arbitrary documents to the WarStrike loader (see rulestest.CheckLoad).
func FuzzLoad(f *testing.F) {
	for _, name := range []string{"elevated-ruin.yaml", "split-fire.yaml", "who-may-shoot.yaml", "obstacles.yaml"} {
		f.Add(inline(f, name))
	}
	// Floors, a climb and a wall climbed over (edition 5).
	f.Add([]byte(floorsSrc + "action: {type: move, unit: a, action: advance, models: [{id: climber, path: [[-1, 0]], elevation: 3.5}]}\n"))
	f.Add([]byte(lowWallSrc + "action: {type: move, unit: a-1, action: advance, path: [[0, 2]]}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		rulestest.CheckLoad(t, Ruleset{}, src, nil)
	})
}

// TestCostBoundsWork checks that an action too big for a server is refused before any
// line of sight is traced, and that the examples are far inside the budget.
func TestCostBoundsWork(t *testing.T) {
	b, a := sys.LoadFile(t, "obstacles.yaml")
	if c := b.Cost(a); c <= 0 || c > volley.MaxWork/1000 {
		t.Errorf("obstacles cost %d", c)
	}
	cb, ca := rulestest.Load(t, Ruleset{}, "crossfire.yaml", []byte(crossfire()))
	if c := cb.Cost(ca); c > volley.MaxWork/10 {
		t.Errorf("the crossfire benchmark's aim costs %d", c)
	}
	// 200 sixteen-sided pieces in a grid 190" × 90", and two units of 50 models: edition
	// 2 traces 256 rays a look against every edge; edition 4 cuts the shadows of every
	// piece between the units (they stand on either side of the grid, y = -5 and 100).
	var src strings.Builder
	src.WriteString("ruleset: warstrike\ntables: {weapons: {gun: {range: 48, shots: 20, to_hit: 4}}}\nterrain:\n")
	for i := range 200 {
		src.WriteString("  - {id: t" + itoa(i) + ", kind: feature, height: 1, polygon: [")
		for k := range 16 {
			ang := 2 * math.Pi * float64(k) / 16
			src.WriteString("[" + ftoa(float64(i%20)*10+math.Cos(ang)) + ", " + ftoa(float64(i/20)*10+math.Sin(ang)) + "],")
		}
		src.WriteString("]}\n")
	}
	src.WriteString("options: {samples: [16, 16]}\nunits:\n")
	for u := range 2 {
		src.WriteString("  - {id: u" + itoa(u) + ", side: S" + itoa(u) + ", base: 1, height: 1, weapon: gun, models: [")
		for k := range 50 {
			src.WriteString("{at: [" + itoa(4*k) + ", " + itoa(-5+u*105) + "]},")
		}
		src.WriteString("]}\n")
	}
	src.WriteString("action: {unit: u0, targets: [{unit: u1}]}\n")
	for _, edition := range []int{2, 3} {
		_, _, err := rulestest.LoadEdition(t, Ruleset{}, "big.yaml", []byte(src.String()), edition)
		if err == nil || !strings.Contains(err.Error(), "volley.MaxWork") {
			t.Errorf("edition %d: a 50×50 action across 200 sixteen-sided pieces: %v", edition, err)
		}
	}
}

func itoa(i int) string     { return strconv.Itoa(i) }
func ftoa(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }

// TestBrokenScenarios: the mistakes of testdata/broken (typos in fields, kinds, weapons
// and names, a second leader, a friend or a second target without a leader, a unit that
// ran, a model that sees no model of its target) are each reported once, at its
// line:col, as volley check reports them. Refresh with go test -update.
func TestBrokenScenarios(t *testing.T) {
	rulestest.BrokenScenarios(t, filepath.Join("testdata", "broken"))
}
