package republique

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/scenario"
)

// sys is République as its tests load it.
var sys = rulestest.System[*Battle, volley.Action]{Name: "republique", Ruleset: Ruleset{}}

// loadSrc loads a scenario written beside a copy of the sample charts.
func loadSrc(tb testing.TB, src string) (*Battle, volley.Action, error) {
	tb.Helper()
	path := rulestest.WriteBeside(tb, "x.yaml", src, sys.Example("sample-charts.yaml"))
	doc, err := scenario.ParseFile(path)
	if err != nil {
		return nil, nil, err
	}
	b, a, err := Ruleset{}.Load(doc)
	if err != nil {
		return nil, nil, err
	}
	return b.(*Battle), a, nil
}

// withAction loads an example with another action in place of its own.
func withAction(tb testing.TB, name, action string) (*Battle, volley.Action) {
	tb.Helper()
	b, a, err := loadSrc(tb, exampleWith(tb, name, action))
	if err != nil {
		tb.Fatal(err)
	}
	return b, a
}

// exampleWith is the example called name with action in place of its own.
func exampleWith(tb testing.TB, name, action string) string {
	tb.Helper()
	s := sys.ReadExample(tb, name)
	if i := strings.Index(s, "\naction:"); i >= 0 {
		s = s[:i+1]
	}
	return s + "action: " + action + "\n"
}

func TestMainTargetPicture(t *testing.T) {
	b, a := sys.LoadFile(t, "main-target.yaml")
	got := map[string]volley.Aim{}
	for _, x := range rulestest.Aim(t, b, a) {
		got[x.Shooter] = x
	}
	for _, id := range []string{"b1", "b2"} {
		x := got[id]
		if x.Status != volley.StatusNotEligible || x.Forced != "A" || !strings.HasPrefix(x.Reason, "not the main target") {
			t.Errorf("%s at B: %s %q forced %q; want refused, forced onto A", id, x.Status, x.Reason, x.Forced)
		}
	}
	if !strings.Contains(got["b2"].Reason, "closer to b2's centre line") {
		t.Errorf("b2's reason %q; want the centre line to decide (both units in its frontage zone)", got["b2"].Reason)
	}
	for _, id := range []string{"b3", "b4"} {
		if got[id].Status != volley.StatusOK {
			t.Errorf("%s at B: %s %q; want ok", id, got[id].Status, got[id].Reason)
		}
	}
	if !slices.ContainsFunc(got["b4"].Notes, func(n string) bool { return strings.Contains(n, "obliquely") }) {
		t.Errorf("b4's notes %q; want it to fire obliquely", got["b4"].Notes)
	}
	// Each battery's own main target, with no target named.
	for id, want := range map[string]string{"b1": "A", "b2": "A", "b3": "B", "b4": "B"} {
		_, a := withAction(t, "main-target.yaml", "{type: fire, batteries: ["+id+"]}")
		if x := rulestest.Aim(t, b, a)[0]; x.Target != want || x.Status != volley.StatusOK {
			t.Errorf("%s alone: target %s (%s: %s); want %s", id, x.Target, x.Status, x.Reason, want)
		}
	}
	// The other reading: the nearer unit first.
	_, a = withAction(t, "main-target.yaml", "{type: fire, batteries: [b2], target: A}")
	if x := rulestest.Aim(t, b, a)[0]; x.Status != volley.StatusOK {
		t.Errorf("b2 at A: %s %s", x.Status, x.Reason)
	}
}

// TestSecondaryTargets fixes the die as the text's example does.
func TestSecondaryTargets(t *testing.T) {
	type hit struct{ morale, bases int }
	cases := []struct {
		file string
		die  int
		want map[string]hit
	}{
		// secondary-targets: deep target +1, 12 fire points. Modified 5: 2/2; 7: 3/3; 8: 4/3.
		{"secondary-targets.yaml", 4, map[string]hit{"A": {2, 1}, "C": {1, 1}, "B": {0, 0}}},
		{"secondary-targets.yaml", 6, map[string]hit{"A": {3, 2}, "C": {1, 1}, "B": {0, 0}}},
		{"secondary-targets.yaml", 7, map[string]hit{"A": {4, 2}, "C": {2, 1}, "B": {0, 0}}},
		// A and C of one base: three base hits take both, and B one.
		{"secondary-targets-one-base.yaml", 7, map[string]hit{"A": {3, 1}, "C": {1, 1}, "B": {1, 1}}},
		// Two base hits, then three (no deep target: modified = die).
		{"tandem.yaml", 5, map[string]hit{"A": {2, 1}, "B": {1, 1}}},
		{"tandem.yaml", 7, map[string]hit{"A": {3, 2}, "B": {1, 1}}},
		// A weak front: every base hit beyond the first comes off B (deep target +1).
		{"tandem-weak-front.yaml", 6, map[string]hit{"A": {3, 1}, "B": {1, 2}}},
		{"tandem-weak-front.yaml", 9, map[string]hit{"A": {5, 1}, "B": {2, 3}}},
	}
	for _, c := range cases {
		b, a := withAction(t, c.file, "{type: fire, batteries: [gun], die: "+itoa(c.die)+"}")
		odds := rulestest.Odds(t, b, a)
		if len(odds.Joint) != 1 {
			t.Fatalf("%s die %d: %d joint outcomes; want 1", c.file, c.die, len(odds.Joint))
		}
		out := odds.Joint[0].Outcome
		for id, w := range c.want {
			if out[id+" morale"] != w.morale || out[id+" bases"] != w.bases {
				t.Errorf("%s die %d: %s suffers %d morale, %d base hits; want %d, %d", c.file, c.die, id, out[id+" morale"], out[id+" bases"], w.morale, w.bases)
			}
		}
		if len(out) != 2*len(c.want) {
			t.Errorf("%s die %d: units hit %v; want %v", c.file, c.die, out, c.want)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func TestDistribute(t *testing.T) {
	cases := []struct {
		h       Hits
		caps    []int
		tandems int
		want    []effect
	}{
		{Hits{2, 2}, []int{3}, 0, []effect{{2, 2}}},
		{Hits{2, 5}, []int{3}, 0, []effect{{2, 3}}},                                  // no secondary: the excess is lost
		{Hits{3, 3}, []int{3, 3}, 1, []effect{{3, 2}, {1, 1}}},                       // tandem: half, rounded down
		{Hits{3, 3}, []int{1, 4}, 1, []effect{{3, 1}, {1, 2}}},                       // weak front
		{Hits{4, 3}, []int{1, 1, 2}, 1, []effect{{4, 1}, {2, 1}, {2, 1}}},            // main and tandem gone: adjacent
		{Hits{4, 2}, []int{1, 1, 2}, 1, []effect{{4, 1}, {2, 1}, {2, 0}}},            // gone exactly: adjacent half morale, no base
		{Hits{4, 3}, []int{2, 2, 2}, 1, []effect{{4, 2}, {2, 1}, {0, 0}}},            // tandem stands: adjacent untouched
		{Hits{2, 3}, []int{2, 2}, 0, []effect{{2, 2}, {1, 1}}},                       // adjacent only
		{Hits{0, 0}, []int{1, 1}, 0, []effect{{0, 0}, {0, 0}}},                       // nothing
		{Hits{3, 6}, []int{1, 1, 1, 2}, 2, []effect{{3, 1}, {1, 1}, {1, 1}, {1, 2}}}, // two tandems in turn
	}
	for _, c := range cases {
		if got := distribute(c.h, c.caps, c.tandems); !slices.Equal(got, c.want) {
			t.Errorf("distribute(%v, %v, %d) = %v; want %v", c.h, c.caps, c.tandems, got, c.want)
		}
	}
}

func TestEnfilade(t *testing.T) {
	b, a := sys.LoadFile(t, "enfilade.yaml")
	odds := rulestest.Odds(t, b, a)
	if odds.Values["fire_points"] != 6 {
		t.Errorf("e1 at A: %v fire points; want 3 doubled by enfilade", odds.Values["fire_points"])
	}
	b, a = withAction(t, "enfilade.yaml", "{type: fire, batteries: [e2]}")
	odds = rulestest.Odds(t, b, a)
	if odds.Values["fire_points"] != 3 || odds.Aims[0].Target != "B" {
		t.Errorf("e2 at %s: %v fire points; want B in the wood, 3, not doubled", odds.Aims[0].Target, odds.Values["fire_points"])
	}
}

func TestSkirmish(t *testing.T) {
	b, a := sys.LoadFile(t, "skirmish.yaml")
	if got := pairText(b.pairs()); got != "f1–a1, f2–a2" {
		t.Errorf("default pairing %s; want f1–a1, f2–a2 (closest first)", got)
	}
	x := rulestest.Aim(t, b, a)[0]
	if x.Status != volley.StatusOK || x.PHit != 0.3 {
		t.Errorf("f3 at AL: %s %s p %v", x.Status, x.Reason, x.PHit)
	}
	_, a = withAction(t, "skirmish.yaml", "{type: skirmish, marker: f1, target: AL}")
	if x := rulestest.Aim(t, b, a)[0]; x.Status != volley.StatusNotEligible || !strings.Contains(x.Reason, "opposed by a1") {
		t.Errorf("f1: %s %s; want opposed", x.Status, x.Reason)
	}
	// The phasing player's own pairing leaves f1 free.
	ctx := context.Background()
	_, op := withAction(t, "skirmish.yaml", "{type: oppose, pairs: [[f2, a1], [f3, a2]]}")
	if _, err := b.Resolve(ctx, op, dice.ForAction(1, 0)); err != nil {
		t.Fatal(err)
	}
	if x := rulestest.Aim(t, b, a)[0]; x.Status != volley.StatusOK {
		t.Errorf("f1 after the pairing: %s %s", x.Status, x.Reason)
	}
	// A pairing that leaves two markers within 8cm unpaired is refused, and changes nothing.
	b, _ = sys.LoadFile(t, "skirmish.yaml")
	_, bad := withAction(t, "skirmish.yaml", "{type: oppose, pairs: [[f1, a1]]}")
	before := rulestest.Snapshot(b)
	if _, err := b.Resolve(ctx, bad, dice.ForAction(1, 0)); err == nil || !strings.Contains(err.Error(), "neither is paired") {
		t.Errorf("incomplete pairing: %v", err)
	}
	if rulestest.Snapshot(b) != before {
		t.Error("a refused pairing changed the battle")
	}
	// Markers may not fire at markers.
	if _, _, err := loadSrc(t, exampleWith(t, "skirmish.yaml", "{type: skirmish, marker: f3, target: a1}")); err == nil || !strings.Contains(err.Error(), "cannot fire at other skirmish markers") {
		t.Errorf("a marker at a marker: %v", err)
	}
}

func TestSkirmishTakesEffectAtTheEnd(t *testing.T) {
	b, a := sys.LoadFile(t, "skirmish.yaml")
	ctx := context.Background()
	// Find a seed whose d10 scores.
	var out volley.Outcome
	for n := 0; ; n++ {
		c := b.copy()
		o, err := c.Resolve(ctx, a, dice.ForAction(7, n))
		if err != nil {
			t.Fatal(err)
		}
		if o.Targets[0].Measures[MeasureMorale] > 0 {
			b, out = c, o
			break
		}
	}
	hits := int(out.Targets[0].Measures[MeasureMorale])
	if b.Unit("AL").Morale != 0 {
		t.Fatal("skirmish morale hits took effect before the end of the step")
	}
	if _, err := b.Resolve(ctx, &EndStep{}, dice.ForAction(7, 99)); err != nil {
		t.Fatal(err)
	}
	if got := b.Unit("AL").Morale; got != hits {
		t.Errorf("AL's morale after the step: %s; want %d steps down", b.moraleName(got), hits)
	}
	if b.phase.step != ArtillerySegment {
		t.Errorf("step %s; want artillery", b.phase.step)
	}
}

func TestLeaderInjury(t *testing.T) {
	b, a := sys.LoadFile(t, "leader-injury.yaml")
	x := rulestest.Aim(t, b, a)
	if len(x) != 1 || x[0].Shooter != "vuk" {
		t.Fatalf("aims %v; want one test for vuk", x)
	}
	var vals []float64
	for _, m := range x[0].Modifiers {
		vals = append(vals, m.Value)
	}
	slices.Sort(vals)
	if !slices.Equal(vals, []float64{1, 2, 2}) {
		t.Errorf("modifiers %v; want +1 (attached) +2 (bases lost) +2 (skirmishers)", x[0].Modifiers)
	}
	odds := rulestest.Odds(t, b, a)
	// d10+5 on the sample chart: 10-12 injured (faces 5-7), 13+ killed (faces 8-10).
	if k, i := odds.Values["p_killed:vuk"], odds.Values["p_injured:vuk"]; math.Abs(k-0.3) > 1e-12 || math.Abs(i-0.3) > 1e-12 {
		t.Errorf("killed %v, injured %v; want 0.3 and 0.3", k, i)
	}
	// Resolving the end of the segment rolls the test; a killed or injured leader goes.
	gone := 0
	for n := range 200 {
		c := b.copy()
		if _, err := c.Resolve(context.Background(), a, dice.ForAction(3, n)); err != nil {
			t.Fatal(err)
		}
		if c.leaders[0].Gone != "" {
			gone++
		}
		if c.phasing() != "Austrian" || c.phase.step != Maneuver {
			t.Fatalf("after the segment: %s's %s step", c.phasing(), c.phase.step)
		}
	}
	if gone < 90 || gone > 150 {
		t.Errorf("%d of 200 tests removed the leader; want about 120", gone)
	}
}

// TestRestrictions checks every refusal the text gives a battery, each with its rule.
func TestRestrictions(t *testing.T) {
	const base = `ruleset: republique
distances: cm
charts: {file: sample-charts.yaml}
units:
  - {id: g, side: French, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, at: [0, 0]%s}
  - {id: F, side: French, kind: infantry, frontage: 4, depth: 2, at: [%s], bases: 1}
  - {id: A, side: Austrian, kind: infantry, frontage: 4, depth: 2, facing: 180, at: [0, 20], bases: 2}
turn: {side: French, step: %s%s}
action: %s
`
	cases := []struct {
		name, battery, friend, step, turn, action, want string
	}{
		{"ok", "", "40, -40", "artillery", "", "{batteries: [g]}", ""},
		{"limbered", ", limbered: true", "40, -40", "artillery", "", "{batteries: [g]}", "limbered batteries may not fire"},
		{"shaken", ", morale: shaken", "40, -40", "artillery", "", "{batteries: [g]}", "shaken or worse may not fire"},
		{"silenced", ", damaged: true, morale: disordered", "40, -40", "artillery", "", "{batteries: [g]}", "silenced"},
		{"damaged and ordered fires", ", damaged: true", "40, -40", "artillery", "", "{batteries: [g]}", ""},
		{"once a turn", "", "40, -40", "artillery", ", done: [g]", "{batteries: [g]}", "fires once each player turn"},
		{"friend in the zone", "", "0, 10", "artillery", "", "{batteries: [g]}", "friendly F in the frontage zone"},
		{"friend beyond the target", "", "0, 40", "artillery", "", "{batteries: [g]}", "friendly F in the frontage zone"},
		{"wrong step", "", "40, -40", "skirmish", "", "{batteries: [g]}", "artillery fire segment"},
		{"passed", "", "40, -40", "artillery", ", passed: [g]", "{batteries: [g]}", "passing fire"},
		{"save ok", "", "40, -40", "artillery", "", "{type: save, batteries: [g]}", ""},
		{"save moved", ", moved: true", "40, -40", "artillery", "", "{type: save, batteries: [g]}", "not stationary"},
		{"save out of command", ", out_of_command: true", "40, -40", "artillery", "", "{type: save, batteries: [g]}", "out of command"},
		{"save disordered", ", morale: disordered", "40, -40", "artillery", "", "{type: save, batteries: [g]}", "only ordered batteries"},
		{"passing in own turn", "", "40, -40", "maneuver", "", "{type: passing_fire, batteries: [g], target: A}", "enemy units moving in their own player turn"},
		{"friend an own-unit at target", "", "40, -40", "artillery", "", "{batteries: [g], target: F}", "friendly unit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := sprintf(base, c.battery, c.friend, c.step, c.turn, c.action)
			b, a, err := loadSrc(t, src)
			if err != nil {
				t.Fatal(err)
			}
			var why string
			for _, x := range rulestest.Aim(t, b, a) {
				if x.Status != volley.StatusOK {
					why += x.Reason
				}
				why += x.NotNow // a fire the rules would take as aimed in its own step
			}
			if c.want == "" && why != "" || !strings.Contains(why, c.want) {
				t.Errorf("refusal %q; want %q", why, c.want)
			}
			before := rulestest.Snapshot(b)
			_, err = b.Resolve(context.Background(), a, dice.ForAction(1, 0))
			if (err != nil) != (c.want != "") {
				t.Errorf("resolve: %v; want refused %v", err, c.want != "")
			}
			if err != nil && rulestest.Snapshot(b) != before {
				t.Error("a refused action changed the battle")
			}
		})
	}
}

// TestSimultaneous: fire within the segment takes effect at its end, and two fires at
// one unit add up then.
func TestSimultaneous(t *testing.T) {
	b, a := sys.LoadFile(t, "tandem.yaml")
	ctx := context.Background()
	out, err := b.Resolve(ctx, a, dice.ForAction(5, 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Unit("A").Bases) != 3 || len(b.Unit("B").Bases) != 3 {
		t.Fatal("base hits took effect before the end of the segment")
	}
	lost := int(out.Targets[0].Measures[MeasureBases])
	if _, err := b.Resolve(ctx, a, dice.ForAction(5, 1)); err == nil {
		t.Error("the battery fired twice in one player turn")
	}
	if _, err := b.Resolve(ctx, &EndStep{}, dice.ForAction(5, 2)); err != nil {
		t.Fatal(err)
	}
	if got := len(b.Unit("A").Bases); got != 3-lost {
		t.Errorf("A has %d bases after the segment; want %d", got, 3-lost)
	}
	if b.Unit("gun").SavedFire {
		t.Error("saved fire was not spent")
	}
}

// TestSimAgreesWithOdds checks the exact joint odds against Monte Carlo at a fixed
// seed: every probability within 5 standard errors.
func TestSimAgreesWithOdds(t *testing.T) {
	const trials = 100_000
	sys.SimAgreesWithOdds(t, 42, trials, []string{"secondary-targets.yaml", "tandem.yaml", "tandem-weak-front.yaml", "enfilade.yaml", "skirmish.yaml"}, nil)
}

// TestResolveAgreesWithOdds rolls the real Resolve and checks the joint outcome's
// frequencies against the exact joint distribution.
func TestResolveAgreesWithOdds(t *testing.T) {
	const trials = 4000
	b0, a := sys.LoadFile(t, "secondary-targets.yaml")
	odds := rulestest.Odds(t, b0, a)
	counts := map[string]int{}
	for n := range trials {
		b := b0.copy()
		out := rulestest.MustResolve(t, b, a, dice.ForAction(11, n))
		key := ""
		for _, tg := range out.Targets {
			key += sprintf("%s %v/%v ", tg.Target, tg.Measures[MeasureMorale], tg.Measures[MeasureBases])
		}
		counts[key]++
	}
	for _, j := range odds.Joint {
		key := ""
		for _, id := range []string{"A", "C", "B"} {
			key += sprintf("%s %d/%d ", id, j.Outcome[id+" morale"], j.Outcome[id+" bases"])
		}
		if got := float64(counts[key]) / trials; !rulestest.Agrees(j.P, got, trials) {
			t.Errorf("P(%s): resolved %.4f, exact %.4f", key, got, j.P)
		}
	}
}

// FuzzLoad feeds arbitrary documents to the loader and every action (see
// rulestest.CheckLoad). The seeds are the demo, whose charts are in place, with each
// kind of action.
func FuzzLoad(f *testing.F) {
	src := sys.ReadExample(f, "demo.yaml")
	for _, a := range []string{
		"{type: fire, batteries: [g1, g2]}", "{type: fire, batteries: [h1], target: cav, die: 4}",
		"{type: passing_fire, batteries: [ab], target: IR7}", "{type: save, batteries: [g2]}",
		"{type: skirmish, marker: s2, target: grenz}", "{type: oppose, pairs: [[s1, k1], [s2, k2]]}",
		"{type: end_step}",
		"{type: move, unit: leg, path: [[-20, 6], [-18, 8]], facing: 10, formation: column}", "{type: move, unit: ab, facing: 120, pivot: left}",
		"{type: move, unit: h1, limber: true, unlimber: true}", "{type: deploy, unit: IR7, at: [10, 32], facing: 170}", "{type: decline}",
	} {
		f.Add([]byte(string(src) + "action: " + a + "\n"))
		moving := strings.Replace(string(src), "\nunits:", "\nmovement: {infantry: 20, light: 25, cavalry: 40, artillery: 30, prolonge: 5}\nunits:", 1)
		f.Add([]byte(strings.Replace(moving, "step: skirmish", "step: maneuver", 1) + "action: " + a + "\n"))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if strings.Contains(string(src), "file") {
			return
		}
		rulestest.CheckLoad(t, Ruleset{}, src, nil)
	})
}

func TestDemoPlays(t *testing.T) {
	b, _ := sys.LoadFile(t, "demo.yaml")
	ctx := context.Background()
	steps := []string{
		"{type: oppose, pairs: [[s1, k1], [s2, k2]]}", "{type: end_step}",
		"{type: fire, batteries: [g1, g2]}", "{type: save, batteries: [h1]}", "{type: fire, batteries: [ab]}", "{type: end_step}",
	}
	for i, s := range steps {
		if _, err := b.Resolve(ctx, rulestest.Decode(t, b, s), dice.ForAction(5, i)); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if b.phasing() != "Austrian" {
		t.Errorf("after the French phase it is %s's turn", b.phasing())
	}
}

// TestBrokenScenarios: the mistakes of testdata/broken (typos, wrong kinds, a battery out
// of arc, out of range, screened by a friend or forced onto another target, a target
// hidden in a wood) are each reported once, at its line:col, as volley check reports
// them. Refresh with go test -update.
func TestBrokenScenarios(t *testing.T) {
	rulestest.BrokenScenarios(t, filepath.Join("testdata", "broken"))
}
