package dropzone

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/rulestest"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/scenario"
)

// twoUnits is a shooter, a big model in the way and a target; unit is the document's
// length unit and k scales every plain number.
func twoUnits(unit string, k float64, options string) string {
	n := func(x float64) string { return fmt.Sprint(x * k) }
	return `
ruleset: dropzone
distances: ` + unit + `
options: {` + options + `}
types:
  - name: Tank
    armour: 9
    damage_points: 3
    base: ` + n(1) + `
    height: ` + n(1) + `
    weapons:
      - {name: Gun, mf: 2", arc: F, full_range: 20", countered_range: 10", shots: 1, accuracy: 3+, energy: 8}
  - name: Walker
    armour: 9
    damage_points: 5
    base: ` + n(3) + `
    height: ` + n(4) + `
units:
  - {id: shooter, type: Tank, side: A, at: [0, 0], facing: 0}
  - {id: giant, type: Walker, side: B, at: [0, ` + n(6) + `]}
  - {id: target, type: Tank, side: B, at: [0, ` + n(12) + `]}
action:
  moved: {shooter: ` + n(2) + `}
  declarations:
    - {unit: shooter, weapon: Gun, target: target}
`
}

func TestCentimetres(t *testing.T) {
	bi, ai := sys.Load(t, twoUnits("in", 1, ""))
	bc, ac := sys.Load(t, twoUnits("cm", scenario.CentimetresPerInch, ""))
	in, cm := rulestest.Aim(t, bi, ai)[0], rulestest.Aim(t, bc, ac)[0]
	if in.Status != volley.StatusOK || cm.Status != in.Status || cm.Need != in.Need || cm.PHit != in.PHit {
		t.Errorf("inches %+v\ncentimetres %+v\nwant the same shot", in, cm)
	}
	if in.RangeUnit != "in" || cm.RangeUnit != "cm" || math.Abs(cm.Range-in.Range*scenario.CentimetresPerInch) > 0.001 {
		t.Errorf("range %v%s and %v%s; want the same distance in each unit", in.Range, in.RangeUnit, cm.Range, cm.RangeUnit)
	}
}

func TestUnitsBlockLOS(t *testing.T) {
	b, a := sys.Load(t, twoUnits("in", 1, ""))
	if aim := rulestest.Aim(t, b, a)[0]; aim.Status != volley.StatusOK {
		t.Fatalf("by default models do not block: %s (%s)", aim.Status, aim.Reason)
	}
	b, a = sys.Load(t, twoUnits("in", 1, "units_block_los: true"))
	if aim := rulestest.Aim(t, b, a)[0]; aim.Status != volley.StatusBlocked {
		t.Errorf("with units_block_los the walker should block: %s (%s)", aim.Status, aim.Reason)
	}
}

func TestOptionErrors(t *testing.T) {
	for _, tt := range []struct{ options, want string }{
		{"articulated_from: head", `articulated_from: want "centre" or "top", got "head"`},
		{"silhouette_samples: [0, 5]", "silhouette_samples: want two counts of at least 1"},
	} {
		doc, err := scenario.Parse("o.yaml", []byte(twoUnits("in", 1, tt.options)))
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = Ruleset{}.Load(doc)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("options {%s}: %v; want %q", tt.options, err, tt.want)
		}
	}
}
