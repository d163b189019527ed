package republique

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/rulestest"
)

// dangerDemo is the demo battle in its artillery segment, with IR3 moved to p (cm).
func dangerDemo(t *testing.T, p *[2]float64) string { return dangerDemoSrc(t, p) }

func dangerDemoSrc(t testing.TB, p *[2]float64) string {
	t.Helper()
	s := strings.Replace(sys.ReadExample(t, "demo.yaml"), "step: skirmish", "step: artillery", 1)
	if p != nil {
		s = strings.Replace(s, "facing: 180, at: [-4, 30], bases: 3", fmt.Sprintf("facing: 180, at: [%g, %g], bases: 3", p[0], p[1]), 1)
	}
	return s
}

// The value at a point is what Odds gives when IR3 stands there: each French battery
// fires alone, at IR3 if the rules let it, else at its main target, and the base hits
// IR3 takes from each add up. IR3 on its own ground is the grand battery's main target;
// behind IR4 it is IR4's tandem target; where its bases would overlap IR4 it cannot stand.
func TestDangerRepublique(t *testing.T) {
	bt, _ := rulestest.Load(t, Ruleset{}, sys.Example("x.yaml"), []byte(dangerDemo(t, nil)))
	b := bt.(*Battle)
	for _, obj := range []advise.ObjectiveKind{advise.Destroyed, advise.Expected} {
		m := rulestest.Danger(t, b, advise.DangerQuery{Side: "Austrian", As: "IR3", Objective: obj})
		// The points nearest: IR3's own ground, behind IR4, beside IR4, over the brook, in
		// front of the horse battery, in the wood, far left and far away.
		values := map[[2]float64]float64{}
		for _, p := range [][2]float64{{-4, 30}, {-4, 37}, {9, 34}, {0, 12}, {20, 20}, {37, 40}, {-40, 45}, {-60, 60}} {
			c, r := int(math.Round((p[0]-m.X0)/m.Step)), int(math.Round((p[1]-m.Y0)/m.Step))
			if c < 0 || r < 0 || c >= m.Cols || r >= m.Rows {
				continue
			}
			at := [2]float64{m.X0 + float64(c)*m.Step, m.Y0 + float64(r)*m.Step}
			got := m.At(c, r)
			values[p] = got
			if math.IsNaN(got) {
				continue // checked below, on a point of its own
			}
			if want := bruteRepublique(t, at, obj); math.Abs(got-want) > 1e-12 {
				t.Errorf("%s at %v: map %.12f, Odds of each battery's fire with IR3 there %.12f", obj, at, got, want)
			}
		}
		if v := values[[2]float64{-4, 30}]; !(v > 0) {
			t.Errorf("%s: IR3 near its own ground reads %g", obj, v)
		}
		if got := strings.Join(m.Firers, ","); got != "g1,g2,h1" {
			t.Errorf("firers %s", got)
		}
	}
	// A map of one point each: IR3 at its own place, behind IR4 (its tandem target),
	// beside IR4, and on IR4's bases, where it cannot stand.
	one := func(x, y float64) float64 {
		m := rulestest.Danger(t, b, advise.DangerQuery{Side: "Austrian", As: "IR3", Step: 1, Area: [4]float64{x - 0.5, y - 0.5, x + 0.5, y + 0.5}})
		return m.At(0, 0)
	}
	for _, p := range [][2]float64{{-4, 30}, {-4, 37}, {9, 34}, {-60, 60}} {
		if got, want := one(p[0], p[1]), bruteRepublique(t, p, advise.Destroyed); math.Abs(got-want) > 1e-12 {
			t.Errorf("at %v: map %.12f, Odds %.12f", p, got, want)
		}
	}
	if v := one(-4, 37); !(v > 0) {
		t.Errorf("IR3 behind IR4 reads %g: a tandem target can be hurt", v)
	}
	if v := one(-60, 60); v != 0 {
		t.Errorf("out of every battery's range reads %g", v)
	}
	if v := one(-4, 34); !math.IsNaN(v) {
		t.Errorf("IR3 on IR4's bases reads %g, want no value", v)
	}
	// Its own side's skirmishers give way to it, as they do to a move; the enemy's do not.
	if v := one(-24, 18); math.IsNaN(v) {
		t.Error("IR3 on the Grenz marker k1 has no value: its own side's markers give way to it")
	}
	if v := one(-24, 10); !math.IsNaN(v) {
		t.Errorf("IR3 on the French marker s1 reads %g, want no value", v)
	}
}

// bruteRepublique moves IR3 to p and adds up the base hits of each French battery's fire,
// as Odds works them out, at IR3 or else at the battery's main target.
func bruteRepublique(t *testing.T, p [2]float64, obj advise.ObjectiveKind) float64 {
	t.Helper()
	const left = 3
	d := make([]float64, left+1)
	d[0] = 1
	src := dangerDemo(t, &p)
	for _, bat := range []string{"g1", "g2", "h1"} {
		var hits []float64
		for _, target := range []string{", target: IR3", ""} {
			b, a := rulestest.Load(t, Ruleset{}, sys.Example("x.yaml"), []byte(src+fmt.Sprintf("action: {type: fire, batteries: [%s]%s}\n", bat, target)))
			odds := rulestest.Odds(t, b, a)
			if odds.Aims[0].Status != "ok" {
				continue
			}
			for _, tg := range odds.Targets {
				if tg.Target == "IR3" {
					hits = advise.Capped(tg.Distributions[MeasureBases], left)
				}
			}
			break
		}
		if hits == nil {
			continue
		}
		out := make([]float64, left+1)
		advise.Convolve(out, d, hits)
		d = out
	}
	return advise.DangerValue(obj, d, left)
}

func TestDangerRepubliqueRefuses(t *testing.T) {
	bt, _ := rulestest.Load(t, Ruleset{}, sys.Example("x.yaml"), []byte(dangerDemo(t, nil)))
	b := bt.(*Battle)
	rulestest.DangerRefuses(t, b, []rulestest.DangerRefusal{
		{Query: advise.DangerQuery{Side: "Austrian", As: "IR33"}, Want: `unknown unit "IR33"`},
		{Query: advise.DangerQuery{Side: "Prussian", As: "IR3"}, Want: `no unit is on side "Prussian"`},
		{Query: advise.DangerQuery{Side: "Austrian", As: "IR3", Step: 0.01}, Want: "more than the 250000"},
	})
	// At 1 cm every point weighs the three batteries' fires, g1's twice (Sénarmont lets
	// it choose): beyond the budget.
	q := advise.DangerQuery{Side: "Austrian", As: "IR3", Step: 1}
	w, err := b.DangerWork(q)
	if err == nil || !strings.Contains(err.Error(), "4 fires of enemy batteries a point") || !strings.Contains(err.Error(), "(10 × volley.MaxWork)") {
		t.Errorf("a map at 0.2 cm: %d, %v", w, err)
	}
	if _, err2 := b.Danger(context.Background(), q); err2 == nil || err2.Error() != err.Error() {
		t.Errorf("Danger refused with %v, DangerWork with %v", err2, err)
	}
	// By default, the finest step the budget allows.
	m := rulestest.Danger(t, b, advise.DangerQuery{Side: "Austrian", As: "IR3"})
	if w, err := b.DangerWork(advise.DangerQuery{Side: "Austrian", As: "IR3", Step: m.Step}); err != nil {
		t.Errorf("the default step %g is past the budget: %d", m.Step, w)
	}
	finer := advise.DangerQuery{Side: "Austrian", As: "IR3", Step: dangerSteps[0]}
	for _, s := range dangerSteps {
		if s < m.Step {
			finer.Step = s
		}
	}
	if finer.Step < m.Step {
		if _, err := b.DangerWork(finer); err == nil {
			t.Errorf("the default step %g, but %g is within the budget", m.Step, finer.Step)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Danger(ctx, advise.DangerQuery{Side: "Austrian", As: "IR3"}); err == nil {
		t.Error("a cancelled map returned no error")
	}
}
