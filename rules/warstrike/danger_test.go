package warstrike

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rulestest"
)

// The danger to a copy of the raiders at a point is what the Odds of each Ironclad unit
// shooting at a real copy placed there give: their wounds added up, against the three
// wounds that kill the unit.
func TestDangerWarStrike(t *testing.T) {
	path := sys.Example("demo.yaml")
	bt, _ := rulestest.LoadFile(t, Ruleset{}, path)
	b := bt.(*Battle)
	m := rulestest.Danger(t, b, advise.DangerQuery{Side: "Verdant", As: "raiders", Area: [4]float64{-10, -20, 40, 30}})
	if m.Cols != 50 || m.Rows != 50 || m.Placed != "a copy of raiders" {
		t.Fatalf("%d×%d, %q", m.Cols, m.Rows, m.Placed)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	base, _, _ := strings.Cut(string(src), "\naction:")
	raiders := [][2]float64{{23, -9}, {24.5, -7.5}, {22, -11}}
	cx, cy := (23+24.5+22)/3.0, (-9-7.5-11)/3.0
	hurt := 0
	for _, p := range [][2]float64{{10.5, -4.5}, {23.5, -9.5}, {0.5, 6.5}, {30.5, 0.5}, {-5.5, -15.5}} {
		probe := "  - id: probe\n    side: Verdant\n    base: 1\n    height: 1.2\n    weapon: carbine\n    armour: 2\n    toughness: 3\n    models:\n"
		for i, r := range raiders {
			probe += fmt.Sprintf("      - {at: [%g, %g]%s}\n", p[0]+r[0]-cx, p[1]+r[1]-cy, map[bool]string{true: ", leader: true"}[i == 0])
		}
		// The probe stands where the map places its copy, over another base or not: read
		// as an accepted document, past a new scenario's check that no bases overlap.
		doc := rulestest.Parse(t, "probe.yaml", base+"\n"+probe)
		doc.Accepted = true
		pb, _, err := Ruleset{}.Load(doc)
		if err != nil {
			t.Fatal(err)
		}
		wounds := dice.Const(0)
		for _, u := range []string{"watchers", "alpha", "bravo"} {
			a, err := advise.DecodePlan(pb, map[string]any{"unit": u, "targets": []any{map[string]any{"unit": "probe"}}})
			if err != nil {
				t.Fatal(err)
			}
			for _, tg := range rulestest.Odds(t, pb, a).Targets {
				if tg.Target == "probe" {
					wounds = wounds.Add(tg.Distributions[MeasureWounds])
				}
			}
		}
		want := wounds.AtLeast(3)
		if want > 0 {
			hurt++
		}
		got := m.At(int((p[0]-m.X0)/m.Step+0.5), int((p[1]-m.Y0)/m.Step+0.5))
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("danger at %v = %.12f; Odds of every Ironclad unit at a copy placed there: %.12f", p, got, want)
		}
	}
	if hurt < 3 {
		t.Errorf("only %d of the points are in danger at all: the test checks too little", hurt)
	}
	if _, err := b.Danger(context.Background(), advise.DangerQuery{Side: "Verdant", As: "nobody"}); err == nil || !strings.Contains(err.Error(), "copy of a unit") {
		t.Errorf("unknown unit: %v", err)
	}
}
