package volley_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
)

// TestActivations: where units act one at a time (volley's order of play), the unit
// acting now goes on moving until its activation is over, in its side's turn only; once
// over it may not act again this turn; another unit's action closes the activation of
// the one acting, unless that one's is over.
func TestActivations(t *testing.T) {
	tu := volley.Turns{Order: []string{"red", "blue"}, Number: 1}
	const done = "has fired this turn"
	for _, c := range []struct {
		side, who, acting string
		over              bool
		goesOn            bool
		want              string // "" for no error
	}{
		{"red", "r1", "r1", false, true, ""},
		{"red", "r1", "r1", true, false, "unit r1 has fired this turn (volley's order of play, not in the source)"},
		{"blue", "b1", "b1", false, false, "it is red's turn"},
		{"red", "r2", "r1", false, false, ""},
	} {
		if got := tu.GoesOn(c.side, c.who, c.acting, c.over); got != c.goesOn {
			t.Errorf("GoesOn(%s, %s, acting %s, over %v) = %v", c.side, c.who, c.acting, c.over, got)
		}
		err := tu.CheckActing(c.side, c.who, c.acting, c.over, done)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("CheckActing(%s, %s, acting %s, over %v) = %v; want %q", c.side, c.who, c.acting, c.over, err, c.want)
		}
	}
	tu.Begin("r2")
	if err := tu.CheckActing("red", "r2", "r1", false, done); err == nil || !strings.Contains(err.Error(), "has already acted") {
		t.Errorf("a unit that acted this turn: %v", err)
	}
	for _, c := range []struct {
		acting string
		over   bool
		who    string
		want   string
	}{{"r1", false, "r2", "r1"}, {"r1", false, "r1", ""}, {"r1", true, "r2", ""}, {"", false, "r2", ""}} {
		if got := volley.Closes(c.acting, c.over, c.who); got != c.want {
			t.Errorf("Closes(%q, %v, %q) = %q; want %q", c.acting, c.over, c.who, got, c.want)
		}
	}
	if tu.ActivationEnds() != volley.EndsActivation {
		t.Error("a fire ends an activation")
	}
	if alt := (volley.Turns{Order: tu.Order, Alternate: true}); alt.ActivationEnds() != volley.EndsTurn {
		t.Error("activations alternating, a fire ends the turn")
	}
}

// TestActing: in a side's turn that side acts; without turns every side, each once, in
// the order the units name them.
func TestActing(t *testing.T) {
	units := []struct{ side string }{{"blue"}, {"red"}, {"blue"}}
	all := volley.Distinct(units, func(u *struct{ side string }) string { return u.side })
	if !slices.Equal(all, []string{"blue", "red"}) {
		t.Errorf("Distinct = %v", all)
	}
	if got := (&volley.Turns{}).Acting(all); !slices.Equal(got, all) {
		t.Errorf("without turns, acting = %v", got)
	}
	if got := (&volley.Turns{Order: all, Side: 1}).Acting(all); !slices.Equal(got, []string{"red"}) {
		t.Errorf("in red's turn, acting = %v", got)
	}
	var o volley.Offers
	o.Act("red", "", "blue", "red")
	if !slices.Equal(o.Acting, []string{"red", "blue"}) {
		t.Errorf("Act: %v", o.Acting)
	}
}
