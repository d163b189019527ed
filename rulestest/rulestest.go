// Package rulestest holds what every rule system's tests share: loading scenarios in
// tests (under an edition, beside the sample tables), decoding actions, the properties
// any loader and battle must keep whatever the input (the body of each system's fuzz
// test), the Monte Carlo check of the exact odds, the goldens of the words told and of
// the broken scenarios, and the loops of the benchmarks. It is to rule systems what a
// conformance suite is to stores.
package rulestest

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/scenario"
)

// Load parses and loads a scenario written in src, named file, or when src is nil the
// file at path file, read as the CLI reads it (so that it may refer to files beside it),
// failing the test on any error.
func Load(tb testing.TB, r volley.Ruleset, file string, src []byte) (volley.Battle, volley.Action) {
	tb.Helper()
	doc, err := parse(file, src)
	if err != nil {
		tb.Fatalf("parse %s: %v", file, err)
	}
	b, a, err := r.Load(doc)
	if err != nil {
		tb.Fatalf("load %s: %v", file, err)
	}
	return b, a
}

// LoadErrors loads a scenario that must not load, written in src, named file, or when src
// is nil the file at path file, and answers its errors: a scenario.ErrorList, every error
// at its place (a scenario's mistakes are all reported at once, each where it is written).
// It fails the test otherwise, answering nil where there is no list.
func LoadErrors(tb testing.TB, r volley.Ruleset, file string, src []byte) scenario.ErrorList {
	tb.Helper()
	doc, err := parse(file, src)
	if err != nil {
		tb.Fatalf("parse %s: %v", file, err)
	}
	_, _, err = r.Load(doc)
	var list scenario.ErrorList
	if !errors.As(err, &list) {
		tb.Errorf("load %s: %v; want a list of errors at their places", file, err)
		return nil
	}
	for _, e := range list {
		if !e.Pos.IsValid() {
			tb.Errorf("load %s: an error without its place: %v", file, e)
		}
	}
	return list
}

// LoadFile is Load for the scenario file at path.
func LoadFile(tb testing.TB, r volley.Ruleset, path string) (volley.Battle, volley.Action) {
	tb.Helper()
	return Load(tb, r, path, nil)
}

// parse is the scenario written in src, named file, or when src is nil the file at path
// file, read as the CLI reads it.
func parse(file string, src []byte) (*scenario.Doc, error) {
	if src == nil {
		return scenario.ParseFile(file)
	}
	return scenario.Parse(file, src)
}

// LoadEdition loads a scenario as a battle begun under edition (0: the current one),
// failing the test if it does not parse and answering the loader's error: for the
// rulings an edition keeps or changes. The scenario is src, named file, or when src is
// nil the file at path file, read as the CLI reads it (so that it may name files beside
// it).
func LoadEdition(tb testing.TB, r volley.Ruleset, file string, src []byte, edition int) (volley.Battle, volley.Action, error) {
	tb.Helper()
	doc, err := parse(file, src)
	if err != nil {
		tb.Fatalf("parse %s: %v", file, err)
	}
	doc.Edition = edition
	return r.Load(doc)
}

// MustLoadEdition is LoadEdition for a scenario that must load: it fails the test on
// the loader's error.
func MustLoadEdition(tb testing.TB, r volley.Ruleset, file string, src []byte, edition int) (volley.Battle, volley.Action) {
	tb.Helper()
	b, a, err := LoadEdition(tb, r, file, src, edition)
	if err != nil {
		tb.Fatalf("load %s: %v", file, err)
	}
	return b, a
}

// WriteBeside writes src as the file name in a new temporary folder, beside copies of
// files (paths, a system's sample tables or charts), and returns its path: a scenario
// written in a test may then name those files as the examples do.
func WriteBeside(tb testing.TB, name, src string, files ...string) string {
	tb.Helper()
	dir := tb.TempDir()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// Aim is b.Aim with no deadline, failing the test on an error.
func Aim(tb testing.TB, b volley.Battle, a volley.Action) []volley.Aim {
	tb.Helper()
	aims, err := b.Aim(context.Background(), a)
	if err != nil {
		tb.Fatalf("aim: %v", err)
	}
	return aims
}

// Odds is b.Odds with no deadline, failing the test on an error.
func Odds(tb testing.TB, b volley.Battle, a volley.Action) volley.Odds {
	tb.Helper()
	odds, err := b.Odds(context.Background(), a)
	if err != nil {
		tb.Fatalf("odds: %v", err)
	}
	return odds
}

// Resolve is b.Resolve with no deadline.
func Resolve(b volley.Battle, a volley.Action, d *dice.Stream) (volley.Outcome, error) {
	return b.Resolve(context.Background(), a, d)
}

// MustResolve is Resolve for an action the rules must accept, failing the test where
// they refuse it.
func MustResolve(tb testing.TB, b volley.Battle, a volley.Action, d *dice.Stream) volley.Outcome {
	tb.Helper()
	out, err := Resolve(b, a, d)
	if err != nil {
		tb.Fatalf("resolve: %v", err)
	}
	return out
}

// NextRound ends turns until the side whose turn it is now has its turn again, so that
// its squads or units may act once more: for tests that act again and again.
func NextRound(tb testing.TB, b volley.Battle) {
	tb.Helper()
	doc, err := scenario.Parse("end.yaml", []byte("type: "+volley.EndTurn))
	if err != nil {
		tb.Fatal(err)
	}
	end, err := b.DecodeAction(doc)
	if err != nil {
		tb.Fatalf("end_turn: %v", err)
	}
	start := b.State().Turn
	if start == nil {
		return
	}
	for {
		if _, err := b.Resolve(context.Background(), end, dice.ForAction(0, 0)); err != nil {
			tb.Fatalf("end_turn: %v", err)
		}
		if t := b.State().Turn; t.Side == start.Side {
			return
		}
	}
}

// Seed adds every file to a fuzz test's corpus.
func Seed(f *testing.F, paths ...string) {
	f.Helper()
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
}

// CheckLoad is the body of a rule system's fuzz test. For any input it checks:
//
//   - the loader never panics, and every error it returns is a scenario.ErrorList
//     whose errors all carry a position;
//   - an accepted action can be aimed and counted, probabilities lie in [0, 1], each
//     distribution sums to 1 and a grid heat-map too;
//   - an action that Resolve refuses leaves the battle exactly as it was.
//
// expensive, if not nil, may skip the odds of a valid action too costly for a fuzzer.
func CheckLoad(t *testing.T, r volley.Ruleset, src []byte, expensive func(volley.Battle, volley.Action) bool) {
	doc, err := scenario.Parse("fuzz.yaml", src)
	if err != nil {
		return
	}
	b, a, err := r.Load(doc)
	if err != nil {
		var list scenario.ErrorList
		if !errors.As(err, &list) {
			t.Fatalf("error without positions: %v", err)
		}
		for _, e := range list {
			if !e.Pos.IsValid() {
				t.Fatalf("error without a position: %v", e)
			}
		}
		return
	}
	if a == nil || expensive != nil && expensive(b, a) {
		return
	}
	ctx := context.Background()
	aims, err := b.Aim(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	for i, aim := range aims {
		if !probability(aim.PHit) {
			t.Fatalf("aim %d: p_hit %v", i, aim.PHit)
		}
	}
	odds, err := b.Odds(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := json.Marshal(odds); err != nil { // an infinity or NaN would break the API
		t.Fatalf("odds cannot be written as JSON: %v", err)
	}
	for _, tg := range odds.Targets {
		if !probability(tg.PDestroyed) {
			t.Fatalf("%s: p_destroyed %v", tg.Target, tg.PDestroyed)
		}
		for m, d := range tg.Distributions {
			if !sumsToOne(d) {
				t.Fatalf("%s %s: %v does not sum to 1", tg.Target, m, d)
			}
		}
	}
	sum := 0.0
	for _, sq := range odds.Squares {
		sum += sq.P
	}
	if len(odds.Squares) > 0 && math.Abs(sum-1) > 1e-9 {
		t.Fatalf("the heat-map sums to %v", sum)
	}
	before := Snapshot(b)
	if _, err := b.Resolve(ctx, a, dice.ForAction(1, 0)); err != nil && Snapshot(b) != before {
		t.Fatalf("a refused action changed the battle: %v", err)
	}
}

// Snapshot is everything a player can see of a battle, for comparing before and after.
func Snapshot(b volley.Battle) string {
	s, _ := json.Marshal(b.State())
	if board, ok := b.(volley.Board); ok {
		v, _ := json.Marshal(board.Board())
		s = append(s, v...)
	}
	return string(s)
}

func probability(p float64) bool { return p >= 0 && p <= 1+1e-12 && !math.IsNaN(p) }

func sumsToOne(d dice.Dist) bool {
	sum := 0.0
	for _, o := range d.Outcomes() {
		if o.P < 0 {
			return false
		}
		sum += o.P
	}
	return math.Abs(sum-1) <= 1e-12
}

// ReadExample is the text of examples/<system>/<name>, read from a system's package
// (rules/<system>, two folders below the examples), failing the test where it cannot be
// read.
func ReadExample(tb testing.TB, system, name string) string {
	tb.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", system, name))
	if err != nil {
		tb.Fatal(err)
	}
	return string(src)
}

// Parse is the scenario, or the action, written in a test as src, named file, failing
// the test where it does not parse.
func Parse(tb testing.TB, file, src string) *scenario.Doc {
	tb.Helper()
	doc, err := scenario.Parse(file, []byte(src))
	if err != nil {
		tb.Fatalf("parse %s: %v", file, err)
	}
	return doc
}
