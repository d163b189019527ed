package rules_test

import (
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/scenario"
)

func TestCheckKind(t *testing.T) {
	for _, tc := range []struct {
		src     string
		edition int
		want    string
	}{
		{"type: fire\n", 0, ""},
		{"unit: a\n", 0, ""},
		{"type: shoot\n", volley.EditionMoves, `x.yaml:1:7: action type "shoot" is not one of this system's: fire, move, deploy, end_turn`},
		{"type: shoot\n", volley.EditionMoves - 1, `x.yaml:1:7: action type "shoot" is not one of this system's: fire, end_turn`},
	} {
		doc := rulestest.Parse(t, "x.yaml", tc.src)
		doc.Edition = tc.edition
		var spec struct {
			Type string `yaml:"type"`
			Unit string `yaml:"unit"`
		}
		if err := doc.Decode(&spec); err != nil {
			t.Fatal(err)
		}
		var errs scenario.ErrorList
		rules.CheckKind(doc, &spec.Type, "fire", &errs)
		got := ""
		if err := errs.Err(); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%q under edition %d: got %q, want %q", tc.src, tc.edition, got, tc.want)
		}
	}
}
