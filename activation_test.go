package volley_test

import (
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
)

// TestActivationRecords: a unit's moves make it the unit acting and add up; its action
// ends its activation; alternating, the turn passes with it and nobody has moved in the
// next; the end of a turn clears it all; a clone shares nothing.
func TestActivationRecords(t *testing.T) {
	for _, alternate := range []bool{false, true} {
		tu := volley.Turns{Order: []string{"red", "blue"}, Number: 1, Alternate: alternate}
		var a volley.Activation
		a.Move(&tu, "r1", 2)
		a.Move(&tu, "r1", 1.5)
		if a.Unit != "r1" || a.Over || a.Left("r1", 6) != 2.5 || a.Left("r2", 6) != 6 || a.Left("r1", 3) != 0 {
			t.Fatalf("after two moves: %+v", a)
		}
		c := a.Clone()
		c.Move(&tu, "r1", 1)
		if a.Moved["r1"] != 3.5 {
			t.Errorf("a clone's move changed the original: %v", a.Moved)
		}
		if got := a.Closes("r2"); got != "r1" {
			t.Errorf("r2's action closes %q, want r1's", got)
		}
		if err := a.CheckAct(&tu, "red", "r1"); err != nil {
			t.Errorf("r1 may act after its move: %v", err)
		}
		steps := a.Acted(&tu, "r1")
		if alternate != (len(steps) > 0) || alternate != (tu.Current() == "blue") {
			t.Errorf("alternate %v: the turn is %s's after r1 acted (%v)", alternate, tu.Current(), steps)
		}
		if alternate {
			if a.Unit != "" || len(a.Moved) != 0 {
				t.Errorf("the next side's turn begins with %+v", a)
			}
			continue
		}
		if err := a.CheckMove(&tu, "red", "r1", "has shot"); err == nil || !strings.Contains(err.Error(), "has shot") {
			t.Errorf("r1 moving after its action: %v", err)
		}
		if err := a.CheckAct(&tu, "red", "r1"); err == nil || !strings.Contains(err.Error(), "already acted") {
			t.Errorf("r1 acting twice: %v", err)
		}
		a.EndTurn(&tu)
		if tu.Current() != "blue" || a.Unit != "" || a.Left("r1", 6) != 6 {
			t.Errorf("after the end of the turn: %s's, %+v", tu.Current(), a)
		}
	}
}
