package dropzone

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/rulestest"
)

var objectives = []advise.Objective{
	{Kind: advise.Expected}, {Kind: advise.Destroyed}, {Kind: advise.Destroy, Unit: "hunter-2"}, {Kind: advise.AtLeast, K: 3},
}

// The advisor's best plan for the seed's Sabres is the brute-force maximum over every
// legal plan scored by Odds, and Monte Carlo agrees with its value.
func TestAdviceSabres(t *testing.T) {
	b, a := sys.LoadFile(t, "sabres.yaml")
	rulestest.CheckAdvice(t, b, advise.Query{From: a, Actor: "sabres", Side: "UCM"}, objectives...)
}

func TestAdviceSeedChoiceRanks(t *testing.T) {
	b, a := sys.LoadFile(t, "sabres.yaml")
	for _, o := range objectives[:2] {
		adv, err := advise.Advise(context.Background(), b, advise.Query{From: a}, o, 5, advise.DefaultBudget)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range adv[0].Plans {
			t.Logf("%s #%d %.4f %v", o, p.Rank, p.Value, p.Picks)
		}
		t.Logf("total %d scored %d bounded %d", adv[0].Total, adv[0].Scored, adv[0].Bounded)
	}
}

// An advice whose lines of sight alone would pass volley.MaxWork is refused before any
// is traced: 60 gun units against 60 targets around a 1,000-vertex hill, traced by rays
// (editions 2 and 3), or across a field of 300 small blocks, each casting a shadow to cut out
// (edition 4: a round hill is one convex piece, and its shadow costs little).
func TestAdviceCostRefused(t *testing.T) {
	for _, tt := range []struct {
		edition int
		terrain func(w *strings.Builder)
	}{
		{2, func(w *strings.Builder) {
			w.WriteString("  - {id: hill, height: 10, polygon: [")
			for i := range 1000 {
				a := 2 * math.Pi * float64(i) / 1000
				fmt.Fprintf(w, "[%.4f, %.4f], ", 50+10*math.Cos(a), 50+10*math.Sin(a))
			}
			w.WriteString("]}\n")
		}},
		{3, func(w *strings.Builder) {
			for i := range 300 {
				x, y := 20+float64(i%30)*2, 30+float64(i/30)*4
				fmt.Fprintf(w, "  - {id: block-%d, height: 10, polygon: [[%g, %g], [%g, %g], [%g, %g], [%g, %g]]}\n", i, x, y, x+0.5, y, x+0.5, y+0.5, x, y+0.5)
			}
		}},
	} {
		var src strings.Builder
		src.WriteString(`ruleset: dropzone
types:
  - {name: Gun, armour: 8, damage_points: 2, base: 1, height: 1, weapons: [{name: Cannon, mf: "-", arc: F/S/R, full_range: ∞, countered_range: ∞, shots: 1, accuracy: 3+, energy: 8}]}
  - {name: Target, armour: 8, damage_points: 2, base: 1, height: 1}
terrain:
`)
		tt.terrain(&src)
		src.WriteString("units:\n")
		for i := range 60 {
			fmt.Fprintf(&src, "  - {id: gun-%d, type: Gun, side: A, squad: guns, at: [%d, 20]}\n", i, i+20)
			fmt.Fprintf(&src, "  - {id: target-%d, type: Target, side: B, at: [%d, 80]}\n", i, i+20)
		}
		b, _ := rulestest.MustLoadEdition(t, Ruleset{}, "advice.yaml", []byte(src.String()), tt.edition)
		_, err := advise.Advise(context.Background(), b, advise.Query{Side: "A"}, advise.Objective{Kind: advise.Expected}, 3, advise.DefaultBudget)
		if err == nil || !strings.Contains(err.Error(), "more than volley.MaxWork") {
			t.Errorf("edition %d: advice across the terrain: %v", tt.edition, err)
		}
	}
}
