package rules_test

import (
	"testing"

	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// TestIndexRefusesARepeatedID: the first unit of an id is indexed, the second refused at
// its place and left out of the index.
func TestIndexRefusesARepeatedID(t *testing.T) {
	var errs scenario.ErrorList
	byID := map[string]int{}
	first := rules.Index(&errs, scenario.Pos{Line: 3, Col: 7}, byID, "r1", 0)
	second := rules.Index(&errs, scenario.Pos{Line: 4, Col: 7}, byID, "r1", 1)
	if !first || second || byID["r1"] != 0 || len(byID) != 1 {
		t.Fatalf("first %v, second %v, index %v", first, second, byID)
	}
	if len(errs) != 1 || errs[0].Pos.Line != 4 || errs[0].Msg != `unit id "r1" is used twice` {
		t.Fatalf("errors: %v", errs)
	}
}
