package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
)

// twoShots is a two-action scenario: sabre-1's railgun at hunter-1, then sabre-2's.
var twoShots = filepath.Join("testdata", "two-shots.yaml")

// oddsJSON is `volley odds --json` of a scenario, read back.
type oddsJSON struct {
	Script *scriptJSON `json:"script"`
	Given  []struct {
		P    float64      `json:"p"`
		Aims []volley.Aim `json:"aims"`
	} `json:"given"`
	volley.Odds
}

func odds(t *testing.T, args ...string) oddsJSON {
	t.Helper()
	status, out, errOut := runCLI(append([]string{"odds", "--json"}, args...)...)
	if status != exitOK {
		t.Fatalf("odds %v: status %d: %s", args, status, errOut)
	}
	var o oddsJSON
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatal(err)
	}
	return o
}

// TestOddsOverTheFirstShot is the issue's "volley odds on a two-action scenario equals a
// hand-computed mixture over the first action's outcomes".
//
// By hand, from the Shooting chapter: the railgun (accuracy 2+, energy 10) hits on 2–6,
// 5/6; its damage die against the Hunter's armour 13 does nothing on a natural 1, nothing
// on a 2 (12 < 13), 1 on a 3 or 4 (13, 14 reach the armour), 2 on a 5 or 6 (a critical:
// over it by 2 or more). One shot's damage D is 0 with 1/6 + 5/6 · 2/6 = 8/18, 1 with
// 5/18, 2 with 5/18, and the Hunter has 3 damage points. The first shot leaves it 3, 2
// or 1; the second's damage is capped at what is left, and destroys it when it reaches
// 3 in all:
//
//	P(destroyed) = P(D1=1)·P(D2≥2) + P(D1=2)·P(D2≥1) = 5/18·5/18 + 5/18·10/18 = 75/324
//	P(damage 0)  = 8/18
//	P(damage 1)  = (8/18 + 5/18)·5/18 + 5/18·10/18 = 115/324 (capped to 1 after D1=2)
//	P(damage 2)  = (8/18 + 5/18)·5/18 = 65/324
//
// The dice of seed 0 alone would give one of these three battles, and odds that are not
// the odds.
func TestOddsOverTheFirstShot(t *testing.T) {
	o := odds(t, twoShots)
	if o.Script == nil || o.Script.Action != 2 || o.Script.Of != 2 || o.Script.Ways != 31 || o.Script.Battles != 3 || o.Script.Seed != nil {
		t.Errorf("script %+v; want action 2 of 2 over 31 ways (1 miss, 5 hits × 6 damage faces) and 3 battles", o.Script)
	}
	h := o.Targets[0]
	want := map[int]float64{0: 8.0 / 18, 1: 115.0 / 324, 2: 65.0 / 324}
	for k, p := range want {
		if got := h.Distributions["damage"].P(k); math.Abs(got-p) > 1e-12 {
			t.Errorf("P(damage %d) = %v; want %v by hand", k, got, p)
		}
	}
	if math.Abs(h.PDestroyed-75.0/324) > 1e-12 || math.Abs(h.Mean["damage"]-245.0/324) > 1e-12 {
		t.Errorf("destroyed %v, mean damage %v; want 75/324 and 245/324 by hand", h.PDestroyed, h.Mean["damage"])
	}
	// The hits do not depend on the first shot: kept as they are, 5/6.
	if got := h.Distributions["hits"].P(1); got != 5.0/6 {
		t.Errorf("P(hits 1) = %v; want 5/6", got)
	}
	status, out, _ := runCLI("odds", twoShots)
	if status != exitOK || !strings.Contains(out, "Action 2 of 2 (shoot), exact over every way the dice of action 1 fall: 31 ways, leaving 3 different battles") {
		t.Errorf("status %d; want the action answered and over what said:\n%s", status, out)
	}
	goldenFile(t, "two-shots.odds.txt", out)
	_, out, _ = runCLI("odds", "--json", twoShots)
	goldenFile(t, "two-shots.odds.json", out)
}

// TestOddsGivenASeed: with --seed N the first shot is rolled as volley resolve --seed N
// rolls it, and the odds are the second's from the battle it leaves, by hand: destroyed
// with P(D2 ≥ 3 − D1).
func TestOddsGivenASeed(t *testing.T) {
	atLeast := map[int]float64{0: 1, 1: 10.0 / 18, 2: 5.0 / 18, 3: 0}
	seen := map[int]bool{}
	for seed := range 12 {
		s := itoa(seed)
		status, out, errOut := runCLI("resolve", "--seed", s, "--json", twoShots)
		if status != exitOK {
			t.Fatalf("resolve: %s", errOut)
		}
		var r struct {
			Actions []volley.Outcome `json:"actions"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		d1 := int(r.Actions[0].Targets[0].Measures["damage"])
		seen[d1] = true
		o := odds(t, "--seed", s, twoShots)
		if o.Script == nil || o.Script.Seed == nil || *o.Script.Seed != uint64(seed) || o.Script.Ways != 0 {
			t.Errorf("seed %d: script %+v; want the seed named and no ways", seed, o.Script)
		}
		if got := o.Targets[0].PDestroyed; math.Abs(got-atLeast[3-d1]) > 1e-12 {
			t.Errorf("seed %d (first shot's damage %d): destroyed %v; want %v", seed, d1, got, atLeast[3-d1])
		}
	}
	if len(seen) < 2 {
		t.Errorf("the seeds' first shots all did %v damage: the test shows nothing", seen)
	}
	_, out, _ := runCLI("odds", "--seed", "3", twoShots)
	if !strings.Contains(out, "given the dice of seed 3 for action 1 (as volley resolve --seed 3 rolls them): one roll of theirs, not the odds over all") {
		t.Errorf("odds --seed 3 does not say it is conditioned on one roll:\n%s", out)
	}
	goldenFile(t, "two-shots.seed3.odds.txt", out)
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestAimOverAScript: the second squad's shot at the warriors, who die to the first's in
// 5/6 · 5/6 = 25/36 of the ways (a hit, and a damage die that is not a natural 1): its aim
// in each, with its chance.
func TestAimOverAScript(t *testing.T) {
	path := filepath.Join("testdata", "two-shots-warriors.yaml")
	status, out, errOut := runCLI("aim", path)
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{"Shots, 69.4% of the time", "warriors-1 is already destroyed", "Shots, 30.6% of the time", "needs 2+, 83.3% to hit"} {
		if !strings.Contains(out, want) {
			t.Errorf("aim lacks %q:\n%s", want, out)
		}
	}
	goldenFile(t, "two-shots-warriors.aim.txt", out)
	_, out, _ = runCLI("aim", "--json", path)
	var a struct {
		Aims  []volley.Aim `json:"aims"`
		Given []struct {
			P    float64      `json:"p"`
			Aims []volley.Aim `json:"aims"`
		} `json:"given"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	if a.Aims != nil || len(a.Given) != 2 || math.Abs(a.Given[0].P-25.0/36) > 1e-12 || a.Given[0].Aims[0].Status != volley.StatusNotEligible || a.Given[1].Aims[0].Status != volley.StatusOK {
		t.Errorf("aim --json: %s; want given: not eligible at 25/36, then ok, and no aims of its own", out)
	}
	// Given one roll, one aim.
	_, out, _ = runCLI("aim", "--json", "--seed", "0", path)
	if !strings.Contains(out, `"aims": [`) || strings.Contains(out, `"given"`) {
		t.Errorf("aim --seed 0 --json: %s; want one list of aims", out)
	}
}

// TestTooManyWays: the first squad's four shots fall in 649,636 ways, past the limit: the
// estimate refuses them before they are played, and --seed answers.
func TestTooManyWays(t *testing.T) {
	path := filepath.Join("testdata", "many-ways.yaml")
	status, _, errOut := runCLI("odds", path)
	for _, want := range []string{"by action 3 (shoot)", "ways (volley refuses more than 200000), as ways drawn at random estimate them", "--seed N"} {
		if status != exitInput || !strings.Contains(errOut, want) {
			t.Errorf("status %d, stderr %q; want 1 and %q", status, errOut, want)
		}
	}
	if status, _, errOut := runCLI("odds", "--seed", "1", path); status != exitOK {
		t.Errorf("odds --seed 1: status %d: %s", status, errOut)
	}
}

// TestAskAboutAnAction: --action picks the action answered; a move declares no shot and
// says so; an action beyond the script is bad usage.
func TestAskAboutAnAction(t *testing.T) {
	moves := example("dropzone/moves")
	status, out, _ := runCLI("odds", moves)
	if status != exitOK || !strings.Contains(out, "Action 6 of 6 (move): it rolls no die and declares no shot, whatever the dice of actions 1–5 do") || !strings.Contains(out, "none: action 6 (move) declares no shot; ask about another action of the scenario with --action N") {
		t.Errorf("odds moves.yaml: status %d; want the move answered as one:\n%s", status, out)
	}
	status, out, _ = runCLI("odds", "--action", "5", moves)
	if status != exitOK || !strings.Contains(out, "Action 5 of 6 (shoot), after actions 1–4, which roll no dice") || !strings.Contains(out, "hunter-1   destroyed") {
		t.Errorf("odds --action 5 moves.yaml: status %d; want the shot:\n%s", status, out)
	}
	if status, _, errOut := runCLI("aim", "--action", "7", moves); status != exitUsage || !strings.Contains(errOut, "--action 7: the scenario has 6 action(s)") {
		t.Errorf("aim --action 7: status %d, %q; want bad usage", status, errOut)
	}
}
