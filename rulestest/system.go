package rulestest

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/volley-wargames/volley"
)

// System is one rule system as its own tests reach it: its examples, in
// examples/<Name> two folders above the system's package (rules/<Name>), and its loader,
// answering the system's own battle and action types. A system's tests declare it once
// and state only what differs from their neighbours'.
type System[B volley.Battle, A volley.Action] struct {
	// Name is the system's name and its examples' folder.
	Name string
	// Ruleset loads the system's scenarios.
	Ruleset volley.Ruleset
	// TestFile is the file name a scenario written in a test is parsed under, which its
	// errors' positions name; "test.yaml" when empty.
	TestFile string
}

// Example is the path of the example called name, from the system's package.
func (s System[B, A]) Example(name string) string {
	return filepath.Join("..", "..", "examples", s.Name, name)
}

// ReadExample is the text of the example called name, failing the test where it cannot
// be read.
func (s System[B, A]) ReadExample(tb testing.TB, name string) string {
	tb.Helper()
	return ReadExample(tb, s.Name, name)
}

// Seed adds the examples called names to a fuzz test's corpus.
func (s System[B, A]) Seed(f *testing.F, names ...string) {
	f.Helper()
	for _, name := range names {
		Seed(f, s.Example(name))
	}
}

// LoadFile loads the example called name, read as the CLI reads it (so that it may
// name files beside it), failing the test on any error or where its action is not an A
// (a missing action is one only where A is an interface).
func (s System[B, A]) LoadFile(tb testing.TB, name string) (B, A) {
	tb.Helper()
	return s.LoadPath(tb, s.Example(name))
}

// LoadPath is LoadFile for the scenario file at path.
func (s System[B, A]) LoadPath(tb testing.TB, path string) (B, A) {
	tb.Helper()
	b, a := LoadFile(tb, s.Ruleset, path)
	act, ok := a.(A)
	if !ok && (a != nil || reflect.TypeFor[A]().Kind() != reflect.Interface) {
		tb.Fatalf("load %s: the action is %T; want %v", path, a, reflect.TypeFor[A]())
	}
	return b.(B), act
}

// LoadAny is LoadFile for an example that may have no action, or another: its action
// is the zero A unless it is an A.
func (s System[B, A]) LoadAny(tb testing.TB, name string) (B, A) {
	tb.Helper()
	b, a := LoadFile(tb, s.Ruleset, s.Example(name))
	act, _ := a.(A)
	return b.(B), act
}

// Load loads a scenario written in a test (its tables inline: bytes cannot name files),
// failing the test on any error. Its action is the zero A unless it is an A.
func (s System[B, A]) Load(tb testing.TB, src string) (B, A) {
	tb.Helper()
	file := s.TestFile
	if file == "" {
		file = "test.yaml"
	}
	b, a := Load(tb, s.Ruleset, file, []byte(src))
	act, _ := a.(A)
	return b.(B), act
}

// SimAgreesWithOdds runs SimAgreesWithOdds, trials rolls from seed, as a subtest for each
// case: the examples called files (each its own subtest's name) and the scenarios
// written in srcs (by name).
func (s System[B, A]) SimAgreesWithOdds(t *testing.T, seed uint64, trials int, files []string, srcs map[string]string) {
	t.Helper()
	run := func(name string, load func(*testing.T) (B, A)) {
		t.Run(name, func(t *testing.T) {
			b, a := load(t)
			SimAgreesWithOdds(t, b, a, seed, trials)
		})
	}
	for _, file := range files {
		run(file, func(t *testing.T) (B, A) { return s.LoadFile(t, file) })
	}
	for name, src := range srcs {
		run(name, func(t *testing.T) (B, A) { return s.Load(t, src) })
	}
}
