package volley_test

import (
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/scenario"
)

// TestPathBlocked: a path is walked leg by leg, what stands in a leg's way (the rule
// system's) before the table's edge where it ends, each reason naming its leg.
func TestPathBlocked(t *testing.T) {
	tt, err := loadTable(t, "table: {corner: [0, 0], width: 10, height: 10}\n"+zones, 0)
	if err != nil {
		t.Fatal(err)
	}
	path := geom.Path{geom.V(1, 1), geom.V(5, 1), geom.V(12, 1)}
	none := func(int, geom.Segment) string { return "" }
	if got, want := tt.PathBlocked(path, 0.5, none), "leg 2: its base would leave the table (10 × 10 from 0, 0)"; got != want {
		t.Errorf("off the table: %q; want %q", got, want)
	}
	second := func(i int, _ geom.Segment) string {
		if i == 1 {
			return "would pass over b1"
		}
		return ""
	}
	if got, want := tt.PathBlocked(path, 0.5, second), "leg 2 would pass over b1"; got != want {
		t.Errorf("in the way: %q; want %q", got, want)
	}
	if got := tt.PathBlocked(path[:2], 0.5, none); got != "" {
		t.Errorf("a path on the table: %q", got)
	}
	if got, want := tt.DeployBlocked("red", geom.V(5, 8), 0.5), "its base would lie outside red's deployment zone"; got != want {
		t.Errorf("out of the zone: %q; want %q", got, want)
	}
	if got := tt.DeployBlocked("blue", geom.V(5, 8), 0.5); got != "" {
		t.Errorf("blue, without a zone, on the table: %q", got)
	}
}

// TestMoveViewWhileDeploying: while the sides deploy in turns no piece moves, and the
// view says why; else it shows what the system says.
func TestMoveViewWhileDeploying(t *testing.T) {
	tt, err := loadTable(t, zones, 0)
	if err != nil {
		t.Fatal(err)
	}
	tt.PlanDeployment([]string{"red", "blue"}, units, false)
	v := tt.MoveView(6, 2, 4, "")
	if v.Left != 0 || v.Why == "" || v.Allowance != 6 || v.Moved != 2 {
		t.Errorf("deploying: %+v", v)
	}
	var begun volley.Tabletop
	if v := begun.MoveView(6, 2, 4, ""); v.Left != 4 || v.Why != "" {
		t.Errorf("begun: %+v", v)
	}
}

// TestRefusePath: a path given empty is refused and read on; one of more than MaxLegs
// legs is refused and not read.
func TestRefusePath(t *testing.T) {
	for _, c := range []struct {
		n       int
		tooLong bool
		errs    int
	}{{0, false, 1}, {1, false, 0}, {volley.MaxLegs, false, 0}, {volley.MaxLegs + 1, true, 1}} {
		doc := rulestest.Parse(t, "a.yaml", "path: []\n")
		var spec struct {
			Path []scenario.Point `yaml:"path"`
		}
		if err := doc.Decode(&spec); err != nil {
			t.Fatal(err)
		}
		spec.Path = make([]scenario.Point, c.n)
		var errs scenario.ErrorList
		if got := volley.RefusePath(&errs, doc, &spec.Path); got != c.tooLong || len(errs) != c.errs {
			t.Errorf("%d points: too long %v, errors %v", c.n, got, errs)
		}
	}
}
