package advise_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/geom"
)

// TestTargetIndexMakesEachTargetOnce: a target is made (add called) the first time it is
// named, and keeps its place after.
func TestTargetIndexMakesEachTargetOnce(t *testing.T) {
	var p advise.Problem
	made := 0
	add := func(id string) func() advise.Target {
		return func() advise.Target { made++; return advise.Target{ID: id, Left: 3} }
	}
	got := []int{p.TargetIndex("b", add("b")), p.TargetIndex("a", add("a")), p.TargetIndex("b", add("b"))}
	if !slices.Equal(got, []int{0, 1, 0}) || made != 2 || !slices.Equal(p.TargetIDs(), []string{"b", "a"}) {
		t.Errorf("indexes %v, made %d, targets %v", got, made, p.TargetIDs())
	}
}

// TestNamedAndNotNow: a query that names an actor with no problem is refused in the
// system's words; one that names none gets an empty list. NotNow notes a wait only.
func TestNamedAndNotNow(t *testing.T) {
	q := advise.Query{Side: "A", Actor: "x"}
	if _, err := advise.Named(q, nil, "sys: %s has no unit %q"); volley.ErrorCode(err) != volley.EINVALID || err.Error() != `sys: A has no unit "x"` {
		t.Errorf("named, none: %v", err)
	}
	if out, err := advise.Named(advise.Query{Side: "A"}, nil, "sys: %s has no unit %q"); err != nil || out != nil {
		t.Errorf("none named: %v, %v", out, err)
	}
	p := &advise.Problem{}
	p.NotNow(nil)
	p.NotNow(errors.New("it is B's turn"))
	if !slices.Equal(p.Notes, []string{"not now: it is B's turn"}) {
		t.Errorf("notes %q", p.Notes)
	}
}

// TestFromNamesTheActionsActor: the action a query carries names its actor, unless the
// query names one; an action of another kind is none.
func TestFromNamesTheActionsActor(t *testing.T) {
	unit := func(m *volley.PathMove) string { return m.Unit }
	q, m := advise.From(advise.Query{From: &volley.PathMove{Unit: "u1"}}, unit)
	if q.Actor != "u1" || m == nil {
		t.Errorf("from a move: %q, %v", q.Actor, m)
	}
	if q, _ := advise.From(advise.Query{Actor: "u2", From: &volley.PathMove{Unit: "u1"}}, unit); q.Actor != "u2" {
		t.Errorf("actor named: %q", q.Actor)
	}
	if q, m := advise.From(advise.Query{From: &volley.Placing{Unit: "u1"}}, unit); q.Actor != "" || m != nil {
		t.Errorf("another kind: %q, %v", q.Actor, m)
	}
}

// TestSquareAround: 2k+1 points a side centred on the point, the centre among them; a
// count past MaxDangerPoints, or one that overflows, is refused at "step".
func TestSquareAround(t *testing.T) {
	l, err := advise.SquareAround([2]float64{10, 20}, 2, 0.5, "sys")
	if err != nil || l.Cols != 5 || l.Rows != 5 || l.X0 != 9 || l.Y0 != 19 {
		t.Fatalf("%+v, %v", l, err)
	}
	if x, y := l.At(2, 2, 1); x != 10 || y != 20 {
		t.Errorf("centre at (%g, %g)", x, y)
	}
	// Within 0.5 of the centre: itself and its four neighbours.
	if n := l.Within(func(c, r int) geom.Vec { return geom.V(l.At(c, r, 1)) }, geom.V(10, 20), 0.5); n != 5 {
		t.Errorf("%d points within 0.5", n)
	}
	for _, k := range []float64{250, math.Inf(1)} {
		if _, err := advise.SquareAround([2]float64{0, 0}, k, 1, "sys"); err == nil || volley.ErrorCode(err) != volley.EINVALID {
			t.Errorf("k %g: %v", k, err)
		}
	}
}

// TestTopPlan: a top point keeps its plan, none where its offence failed.
func TestTopPlan(t *testing.T) {
	plan := map[string]any{"unit": "u1"}
	if got := advise.TopPlan(1, plan, nil); got["unit"] != "u1" {
		t.Errorf("%v", got)
	}
	if got := advise.TopPlan(1, plan, errors.New("stopped")); got != nil {
		t.Errorf("after an error: %v", got)
	}
}
