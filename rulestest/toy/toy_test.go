package toy_test

import (
	"strings"
	"testing"

	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/rulestest/toy"
)

// skirmish is testdata/skirmish.yaml loaded, its deployment ended by both sides.
func skirmish(t *testing.T) *toy.Battle {
	t.Helper()
	b, _ := rulestest.LoadFile(t, toy.Ruleset, "testdata/skirmish.yaml")
	rulestest.Play(t, b, `{type: deploy, unit: r2, at: [9, 3]}`, `{type: end_deployment}`, `{type: end_deployment}`)
	return b.(*toy.Battle)
}

func TestLoad(t *testing.T) {
	b, a := rulestest.LoadFile(t, toy.Ruleset, "testdata/skirmish.yaml")
	if a != nil {
		t.Errorf("action %v, want none", a)
	}
	s := b.State()
	if s.Turn.Phase != "deployment" || s.Turn.Side != "red" || len(s.Units) != 4 {
		t.Fatalf("state %+v", s)
	}
	if w := s.Units[2].Values["wounds_left"]; w != 1 {
		t.Errorf("b1 has %v wounds, the scenario gives 1", w)
	}
	if w := s.Units[0].Values["wounds"]; w != toy.Wounds {
		t.Errorf("r1 has %v wounds, the toy's rule gives %d", w, toy.Wounds)
	}
}

// TestBroken: every mistake of a broken scenario at once, each at its file:line:col.
func TestBroken(t *testing.T) {
	list := rulestest.LoadErrors(t, toy.Ruleset, "testdata/broken.yaml", nil)
	want := []string{
		`testdata/broken.yaml:4:45: unit "r1": wounds from 1 to 20`,
		`testdata/broken.yaml:5:10: unit id "r1" is used twice`,
		`testdata/broken.yaml:6:30: unit "b1": at: its base lies off the table (24 × 24 from 0, 0)`,
		`testdata/broken.yaml:6:39: unknown field "wound" (did you mean "wounds"?)`,
		`testdata/broken.yaml:7:30: unit "b2": at: its base overlaps the base of unit "r1" (at 4:29): two bases may not stand in one place, where neither could move`,
		`testdata/broken.yaml:8:29: unknown unit "r9" (did you mean "r1"?)`,
	}
	if got := list.Error(); got != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}
