package warfare

import (
	"context"
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

// sys is warfare as its tests load it: a scenario written in a test is parsed as if it
// stood among the examples.
var sys = rulestest.System[*Battle, *Fire]{Name: "warfare", Ruleset: Ruleset{}, TestFile: filepath.Join("..", "..", "examples", "warfare", "test.yaml")}

// TestArticleExample is the article's worked example and its reversal.
func TestArticleExample(t *testing.T) {
	tests := []struct {
		file                   string
		modified, final        float64
		casualties             map[int]float64
		randomFactor, baseline float64
	}{
		{"longbowmen.yaml", 6, 36, map[int]float64{3: 0.4, 4: 0.6}, 2, 5},
		{"longbowmen-reversed.yaml", 2, 12, map[int]float64{1: 0.8, 2: 0.2}, -2, 5},
	}
	for _, tt := range tests {
		b, f := sys.LoadFile(t, tt.file)
		odds := rulestest.Odds(t, b, f)
		v := odds.Values
		if v["base_missile_factor"] != tt.baseline || v["modified_missile_factor"] != tt.modified || v["final_missile_factor"] != tt.final || v["random_factor"] != tt.randomFactor {
			t.Errorf("%s: values %v; want base %v, modified %v, final %v", tt.file, v, tt.baseline, tt.modified, tt.final)
		}
		d := odds.Targets[0].Distributions[MeasureCasualties]
		for k, p := range tt.casualties {
			if math.Abs(d.P(k)-p) > 1e-12 {
				t.Errorf("%s: P(%d casualties) = %v; want %v", tt.file, k, d.P(k), p)
			}
		}
		if len(d.Outcomes()) != len(tt.casualties) {
			t.Errorf("%s: casualties %v; want only %v", tt.file, d, tt.casualties)
		}
	}
}

// TestArticleTrace: the resolution lists the factor line by line as the article does.
func TestArticleTrace(t *testing.T) {
	b, f := sys.LoadFile(t, "longbowmen.yaml")
	out := rulestest.MustResolve(t, b, f, dice.ForAction(1, 0))
	var got []string
	for _, s := range out.Trace {
		switch s.Rule {
		case "base missile factor", "random factor: firer", "random factor: target", "modifier":
			got = append(got, strings.Fields(s.Result.(string))[0])
		case "modified missile factor", "final missile factor":
			got = append(got, strconv.Itoa(s.Result.(int)))
		}
	}
	want := "+5 +3 -1 +1 +1 +1 -1 -1 -2 6 36"
	if strings.Join(got, " ") != want {
		t.Errorf("trace: %s\nwant:  %s", strings.Join(got, " "), want)
	}
	if len(out.Rolls) != 1 || out.Rolls[0].Sides != D10 {
		t.Errorf("rolls %v; want only the fraction d10 (the d6s are fixed)", out.Rolls)
	}
}

// TestAlternateIsLessSwingy is the article's claim, asserted as a relation: the same
// longbowmen are steadier under the alternate system, and go Low less often.
func TestAlternateIsLessSwingy(t *testing.T) {
	be, fe := sys.LoadFile(t, "longbowmen-existing.yaml")
	ba, fa := sys.LoadFile(t, "longbowmen-alternate.yaml")
	oe, oa := rulestest.Odds(t, be, fe), rulestest.Odds(t, ba, fa)
	de, da := oe.Targets[0].Distributions[MeasureCasualties], oa.Targets[0].Distributions[MeasureCasualties]
	if !(da.StdDev() < de.StdDev()) {
		t.Errorf("standard deviation: alternate %v, existing %v; want the alternate smaller", da.StdDev(), de.StdDev())
	}
	if !(oa.Values["p_low"] < oe.Values["p_low"]) {
		t.Errorf("P(Low): alternate %v, existing %v; want the alternate smaller for six stands", oa.Values["p_low"], oe.Values["p_low"])
	}
}

// twoTargets is an alternate fire split over two targets: one random factor for both.
const twoTargets = `ruleset: warfare
system: alternate
` + inlineTables + `units:
  - {id: archers, side: A, stands: 8, figures_per_stand: 4, weapon: longbow, ammo: low}
  - {id: knights, side: B, stands: 4, figures_per_stand: 3, traits: [cavalry, armoured]}
  - {id: levy, side: B, stands: 6, figures_per_stand: 2, traits: [infantry]}
action:
  unit: archers
  targets:
    - {unit: knights, stands: 5, range: effective}
    - {unit: levy, stands: 3, range: long, modifiers: [target in cover]}
`

func TestSimAgreesWithOdds(t *testing.T) {
	const trials = 200_000
	sys.SimAgreesWithOdds(t, 99, trials,
		[]string{"longbowmen-existing.yaml", "longbowmen-alternate.yaml"},
		map[string]string{"two targets": twoTargets})
}

// TestJointAndAmmoByRolling rolls the fire many times as Resolve does and checks the
// joint casualties of two targets and the ammunition against the exact odds.
func TestJointAndAmmoByRolling(t *testing.T) {
	const trials = 200_000
	for name, src := range map[string]string{"alternate": twoTargets, "existing": strings.Replace(twoTargets, "system: alternate", "system: existing", 1)} {
		t.Run(name, func(t *testing.T) {
			b, f := sys.Load(t, src)
			odds := rulestest.Odds(t, b, f)
			firer, ts := b.plan(f)
			ok := []*aimed{&ts[0], &ts[1]}
			joint := map[[2]int]int{}
			low := 0
			d := dice.NewUnrecorded(5)
			for range trials {
				r := b.rollFire(f, firer, ok, d, nil)
				joint[[2]int{r.casualties[0], r.casualties[1]}]++
				if r.low {
					low++
				}
			}
			if len(odds.Joint) == 0 {
				t.Fatal("no joint distribution for two targets")
			}
			sum := 0.0
			for _, j := range odds.Joint {
				sum += j.P
				got := float64(joint[[2]int{j.Outcome["knights"], j.Outcome["levy"]}]) / trials
				if !rulestest.Agrees(j.P, got, trials) {
					t.Errorf("P(%v): rolled %.5f, exact %.5f", j.Outcome, got, j.P)
				}
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Errorf("joint sums to %v", sum)
			}
			// The archers are already Low: one more step is Out.
			if got := float64(low) / trials; !rulestest.Agrees(odds.Values["p_out"], got, trials) {
				t.Errorf("P(Out): rolled %.5f, exact %.5f", got, odds.Values["p_out"])
			}
		})
	}
}

// TestJointIsNotIndependent: the shared random factor ties the two targets together,
// so the joint differs from the product of the marginals.
func TestJointIsNotIndependent(t *testing.T) {
	b, f := sys.Load(t, twoTargets)
	odds := rulestest.Odds(t, b, f)
	mk, ml := odds.Targets[0].Distributions[MeasureCasualties], odds.Targets[1].Distributions[MeasureCasualties]
	differs := false
	for _, j := range odds.Joint {
		if math.Abs(j.P-mk.P(j.Outcome["knights"])*ml.P(j.Outcome["levy"])) > 1e-9 {
			differs = true
		}
	}
	if !differs {
		t.Error("the joint equals the product of the marginals: the random factor is not shared")
	}
}

func TestAmmunitionSteps(t *testing.T) {
	b, f := sys.LoadFile(t, "longbowmen-existing.yaml")
	u, _ := b.Unit("longbowmen")
	for n := 0; u.Ammo != AmmoOut && n < 200; n++ {
		if _, err := b.Resolve(context.Background(), f, dice.ForAction(3, n)); err != nil {
			t.Fatalf("fire %d: %v", n, err)
		}
		rulestest.NextRound(t, b)
	}
	if u.Ammo != AmmoOut {
		t.Fatal("200 volleys never ran the longbowmen out")
	}
	before := b.State()
	if _, err := b.Resolve(context.Background(), f, dice.ForAction(3, 999)); err == nil {
		t.Error("a unit Out of Missiles fired")
	}
	if aims := rulestest.Aim(t, b, f); aims[0].Status != volley.StatusNotEligible {
		t.Errorf("aim of a unit Out of Missiles: %s", aims[0].Status)
	}
	if after := b.State(); !sameState(before, after) {
		t.Error("a refused fire changed the battle")
	}
}

func sameState(a, b volley.State) bool {
	if len(a.Units) != len(b.Units) {
		return false
	}
	for i := range a.Units {
		for k, v := range a.Units[i].Values {
			if b.Units[i].Values[k] != v {
				return false
			}
		}
	}
	return true
}

func TestNaturalTenOption(t *testing.T) {
	b, _ := sys.LoadFile(t, "longbowmen-existing.yaml")
	if got := b.hitChance(11); got != 0.1 {
		t.Errorf("need 11 with natural tens hitting: %v; want 0.1", got)
	}
	b.naturalTen = false
	if got := b.hitChance(11); got != 0 {
		t.Errorf("need 11 with natural_ten_hits off: %v; want 0", got)
	}
	if got := b.hitChance(7); got != 0.4 {
		t.Errorf("need 7: %v; want 0.4", got)
	}
}

// TestRangeFromPositions measures the band from the units' places and the weapon's
// range table (sample longbow: close 3, effective 6, long 12).
func TestRangeFromPositions(t *testing.T) {
	src := `ruleset: warfare
system: existing
` + inlineTables + `units:
  - {id: a, side: A, stands: 2, weapon: longbow, at: [0, 0]}
  - {id: near, side: B, stands: 2, at: [0, 3]}
  - {id: mid, side: B, stands: 2, at: [4, 3]}
  - {id: far, side: B, stands: 2, at: [0, 12]}
  - {id: gone, side: B, stands: 2, at: [0, 13]}
action:
  unit: a
  targets: [{unit: near, stands: 1}, {unit: mid, stands: 1}]
`
	b, f := sys.Load(t, src)
	if f.Targets[0].Band != Close || f.Targets[1].Band != Effective {
		t.Errorf("bands %s, %s; want close at 3, effective at 5", f.Targets[0].Band, f.Targets[1].Band)
	}
	a := rulestest.Decode(t, b, "unit: a\ntargets: [{unit: far, stands: 1}, {unit: gone, stands: 1, distance: 20}]\n")
	aims := rulestest.Aim(t, b, a)
	if aims[0].Status != volley.StatusOK || aims[1].Status != volley.StatusOutOfRange {
		t.Errorf("far (12) %s, gone (20) %s; want ok and out_of_range", aims[0].Status, aims[1].Status)
	}
}

func TestBadInput(t *testing.T) {
	tests := []struct{ old, new, want string }{
		{"system: alternate", "system: modern", `want existing or alternate, got "modern"`},
		{"stands: 5, range: effective", "stands: 9, range: effective", `archers has 8 stands left, so between 1 and 8 can fire`},
		{"modifiers: [target in cover]", "modifiers: [target in covr]", `no modifier "target in covr" in the tables (did you mean "target in cover"?)`},
		{"{unit: knights, stands: 5,", "{unit: knigts, stands: 5,", `unknown target "knigts" (did you mean "knights"?)`},
		{"range: long,", "range: far,", `want close, effective or long, got "far"`},
		{"weapon: longbow, ammo: low", "weapon: bow, ammo: low", `weapon type "bow" has no ranges in the tables`},
		{"tables:\n  sign: existing\n", "tables:\n  file: x.yaml\n  sign: existing\n", `give a file or the tables themselves, not both`},
		{"ammo: low", "ammo: plenty", `want ok, low or out, got "plenty"`},
		{"  unit: archers\n", "  unit: archers\n  rolls: {firer: 7, target: 1}\n", `rolls: a d6 shows 1 to 6, got 7`},
		{"stands: 5, range: effective}", "stands: 5, range: effective, distance: 4}", `give a range or a distance, not both`},
	}
	for _, tt := range tests {
		src := strings.Replace(twoTargets, tt.old, tt.new, 1)
		if src == twoTargets {
			t.Fatalf("%q: nothing replaced", tt.new)
		}
		doc, err := scenario.Parse(sys.Example("bad.yaml"), []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = Ruleset{}.Load(doc)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v; want %q", tt.new, err, tt.want)
		}
		if list, ok := err.(scenario.ErrorList); ok {
			for _, e := range list {
				if !e.Pos.IsValid() {
					t.Errorf("%s: error without a position: %v", tt.new, e)
				}
			}
		}
	}
}

// inlineTables is the sample tables written in a scenario, modifiers in the existing
// system's sign.
const inlineTables = `tables:
  sign: existing
  ranges: {longbow: {close: 3, effective: 6, long: 12}}
  modifiers:
    - {name: conrois, value: -1, when: {target_has: [conrois]}}
    - {name: longbow at cavalry, value: -1, when: {firer_weapon: longbow, target_has: [cavalry], target_lacks: [skirmish]}}
    - {name: four figures, value: -1, when: {firer_figures_per_stand: 4}}
    - {name: charging, value: +1, when: {target_has: [charging]}}
    - {name: shielded, value: +1, when: {target_has: [shielded]}}
    - {name: armoured, value: +2, when: {target_has: [armoured]}}
    - {name: target in cover, value: +1}
`

// TestInlineTablesAndExistingSign: tables written in the scenario, with modifiers in the
// existing system's sign, give the same odds as the sample file.
func TestInlineTablesAndExistingSign(t *testing.T) {
	inline := "ruleset: warfare\nsystem: alternate\n" + inlineTables + `units:
  - {id: longbowmen, side: English, stands: 6, figures_per_stand: 4, weapon: longbow}
  - {id: knights, side: French, stands: 4, figures_per_stand: 3, traits: [cavalry, shielded, armoured, conrois, charging]}
action:
  unit: longbowmen
  targets: [{unit: knights, range: close}]
  rolls: {firer: 5, target: 1}
`
	b, f := sys.Load(t, inline)
	if got := rulestest.Odds(t, b, f).Values["final_missile_factor"]; got != 36 {
		t.Errorf("final_missile_factor %v; want 36", got)
	}
}

// FuzzLoad feeds arbitrary documents to the Warfare loader (see rulestest.CheckLoad).
func FuzzLoad(f *testing.F) {
	inline := twoTargets
	f.Add([]byte(inline))
	f.Add([]byte(strings.Replace(inline, "system: alternate", "system: existing", 1)))
	f.Add([]byte(strings.Replace(inline, "  unit: archers\n", "  unit: archers\n  rolls: {firer: 2, target: 6}\n", 1)))
	f.Fuzz(func(t *testing.T, src []byte) {
		// Inline tables only: a fuzzer has no business reading files.
		if strings.Contains(string(src), "file") {
			return
		}
		rulestest.CheckLoad(t, Ruleset{}, src, nil)
	})
}

// TestResolveAgreesWithOdds rolls the real Resolve on fresh battles and checks the
// casualties it applies, and the ammunition it leaves, against the exact odds.
func TestResolveAgreesWithOdds(t *testing.T) {
	const trials = 5_000
	for _, name := range []string{"longbowmen-existing.yaml", "longbowmen-alternate.yaml"} {
		t.Run(name, func(t *testing.T) {
			doc, err := scenario.ParseFile(sys.Example(name))
			if err != nil {
				t.Fatal(err)
			}
			b0, f0 := sys.LoadFile(t, name)
			odds := rulestest.Odds(t, b0, f0)
			counts := map[int]int{}
			low := 0
			for n := range trials {
				b, a, _ := Ruleset{}.Load(doc)
				if _, err := b.Resolve(context.Background(), a, dice.ForAction(17, n)); err != nil {
					t.Fatal(err)
				}
				k, _ := b.(*Battle).Unit("knights")
				counts[k.Lost]++
				if u, _ := b.(*Battle).Unit("longbowmen"); u.Ammo == AmmoLow {
					low++
				}
			}
			d := odds.Targets[0].Distributions[MeasureCasualties]
			for v := d.Min(); v <= d.Max(); v++ {
				if got := float64(counts[v]) / trials; !rulestest.Agrees(d.P(v), got, trials) {
					t.Errorf("P(%d casualties): resolved %.4f, exact %.4f", v, got, d.P(v))
				}
			}
			if got := float64(low) / trials; !rulestest.Agrees(odds.Values["p_low"], got, trials) {
				t.Errorf("P(Low): resolved %.4f, exact %.4f", got, odds.Values["p_low"])
			}
		})
	}
}

func TestTensAtLeast(t *testing.T) {
	tests := []struct {
		n, k int
		want float64
	}{{1, 1, 0.1}, {6, 1, 1 - math.Pow(0.9, 6)}, {2, 2, 0.01}, {3, 4, 0}, {10, 0, 1}}
	for _, tt := range tests {
		if got := tensAtLeast(tt.n, tt.k); math.Abs(got-tt.want) > 1e-15 {
			t.Errorf("tensAtLeast(%d, %d) = %v; want %v", tt.n, tt.k, got, tt.want)
		}
	}
	if tensAtLeast(1, 1) != 0.1 {
		t.Error("one d10 does not give exactly 0.1")
	}
}

// TestCasualtiesCostStands: a unit that lost figures fires with the stands it has left.
func TestCasualtiesCostStands(t *testing.T) {
	b, _ := sys.Load(t, twoTargets)
	u, _ := b.Unit("archers") // 8 stands of 4
	for _, tt := range []struct{ lost, left int }{{0, 8}, {1, 8}, {4, 7}, {5, 7}, {31, 1}, {32, 0}} {
		u.Lost = tt.lost
		if got := u.StandsLeft(); got != tt.left {
			t.Errorf("after %d casualties: %d stands left; want %d", tt.lost, got, tt.left)
		}
	}
}

// TestHandBuiltFires: a Fire built in code, not decoded, with unknown names or too many
// stands is refused, not a panic.
func TestHandBuiltFires(t *testing.T) {
	b, _ := sys.Load(t, twoTargets)
	for _, f := range []*Fire{
		{Unit: "nobody", Targets: []FireTarget{{Unit: "levy", Stands: 1, Band: Close}}},
		{Unit: "archers", Targets: []FireTarget{{Unit: "nobody", Stands: 1, Band: Close}}},
		{Unit: "archers", Targets: []FireTarget{{Unit: "levy", Stands: 99, Band: Close}}},
		{Unit: "archers", Targets: []FireTarget{{Unit: "levy", Stands: 1}}},
		{Unit: "archers"},
	} {
		rulestest.Aim(t, b, f)
		if _, err := b.Resolve(context.Background(), f, dice.ForAction(1, 0)); err == nil {
			t.Errorf("%+v was resolved", f)
		}
	}
}

// TestBrokenScenarios: the mistakes of testdata/broken (typos in fields, names, kinds
// and modifiers, numbers out of bounds, a target out of range, a friend, a unit with no
// figures left) are each reported once, at its line:col, as volley check reports them.
// Refresh with go test -update.
func TestBrokenScenarios(t *testing.T) {
	rulestest.BrokenScenarios(t, filepath.Join("testdata", "broken"))
}
