package warfare

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/rulestest"
)

// dangerDemo is the demo battle without its action, with a second English unit of
// archers and a crossbow unit that stands nowhere, in the system asked for.
func dangerDemo(t *testing.T, system string) string { return dangerDemoSrc(t, system) }

func dangerDemoSrc(t testing.TB, system string) string {
	t.Helper()
	s, _, _ := strings.Cut(sys.ReadExample(t, "demo.yaml"), "\naction:")
	s = strings.Replace(s, "system: alternate", "system: "+system, 1)
	s = strings.Replace(s, "    longbow: {close: 3, effective: 6, long: 12}", "    longbow: {close: 3, effective: 6, long: 12}\n    crossbow: {close: 2, effective: 5, long: 9}", 1)
	return s + "\n  - {id: archers, side: English, stands: 3, figures_per_stand: 3, weapon: crossbow, at: [9, 1]}" +
		"\n  - {id: reserve, side: English, stands: 3, figures_per_stand: 3, weapon: crossbow}\n"
}

// The value at a point is what Odds gives for a copy of the knights standing there, with
// each English unit on the table firing every stand at it: the chance it loses every
// figure, or the figures it is expected to lose, the units' fires adding up.
func TestDangerWarfare(t *testing.T) {
	for _, system := range []string{"alternate", "existing"} {
		src := dangerDemo(t, system)
		b, _ := sys.Load(t, src)
		q := advise.DangerQuery{Side: "French", As: "knights", Area: [4]float64{-14, -14, 24, 16}, Step: 1}
		for _, obj := range []advise.ObjectiveKind{advise.Destroyed, advise.Expected} {
			q.Objective = obj
			m := rulestest.Danger(t, b, q)
			if m.Cols != 38 || m.Rows != 30 || m.X0 != -13.5 || m.Y0 != -13.5 {
				t.Fatalf("grid %d×%d from (%g, %g), want 38×30 from (-13.5, -13.5)", m.Cols, m.Rows, m.X0, m.Y0)
			}
			at := func(x, y float64) float64 {
				return m.At(int(math.Round((x-m.X0)/m.Step)), int(math.Round((y-m.Y0)/m.Step)))
			}
			// In both bands of both units, in the longbow's alone, and beyond both.
			for _, p := range [][2]float64{{0.5, 2.5}, {6.5, 1.5}, {3.5, 3.5}, {-4.5, 5.5}, {-10.5, -3.5}, {9.5, 8.5}, {20.5, 13.5}, {-13.5, 14.5}} {
				want := bruteDanger(t, src, p, obj)
				if got := at(p[0], p[1]); math.Abs(got-want) > 1e-12 {
					t.Errorf("%s, %s at %v: map %.12f, Odds of each unit's fire at a copy there %.12f", system, obj, p, got, want)
				}
			}
			if v := at(-13.5, 14.5); v != 0 {
				t.Errorf("%s: beyond every range the map reads %g", system, v)
			}
			if got := strings.Join(m.Firers, ","); got != "archers,longbowmen" {
				t.Errorf("firers %s", got)
			}
			if !strings.Contains(strings.Join(m.Notes, " | "), "not on the table, so out of the map: reserve") {
				t.Errorf("the unplaced firer is not noted: %q", m.Notes)
			}
		}
	}
}

// bruteDanger places a copy of the knights at p in the scenario, asks Odds of each English
// unit's fire with all its stands at it, and adds their casualties up.
func bruteDanger(t *testing.T, src string, p [2]float64, obj advise.ObjectiveKind) float64 {
	t.Helper()
	probe := fmt.Sprintf("  - {id: probe, side: French, stands: 4, figures_per_stand: 3, traits: [cavalry, shielded, armoured, conrois, charging], at: [%g, %g]}\n", p[0], p[1])
	const left = 12
	d := make([]float64, left+1)
	d[0] = 1
	for _, f := range []struct {
		unit   string
		stands int
	}{{"longbowmen", 6}, {"archers", 3}} {
		b, a := sys.Load(t, src+probe+fmt.Sprintf("action: {unit: %s, targets: [{unit: probe, stands: %d}]}\n", f.unit, f.stands))
		odds := rulestest.Odds(t, b, a)
		if len(odds.Targets) == 0 {
			continue // out of range: the fire does nothing
		}
		e := advise.Capped(odds.Targets[0].Distributions[MeasureCasualties], left)
		out := make([]float64, left+1)
		advise.Convolve(out, d, e)
		d = out
	}
	return advise.DangerValue(obj, d, left)
}

func TestDangerWarfareRefuses(t *testing.T) {
	b, _ := sys.Load(t, dangerDemo(t, "alternate"))
	rulestest.DangerRefuses(t, b, []rulestest.DangerRefusal{
		{Query: advise.DangerQuery{Side: "French", As: "knight"}, Want: `unknown unit "knight"`},
		{Query: advise.DangerQuery{Side: "Nobody", As: "knights"}, Want: `no unit is on side "Nobody"`},
		{Query: advise.DangerQuery{Side: "French", As: "knights", Step: 0.01}, Want: "more than the 250000"},
	})
	// Forty more units of a thousand stands firing at a copy of the spearmen (18 figures):
	// on each of 250,000 points, a range and 19 × 19 terms of convolution a unit.
	src := dangerDemo(t, "alternate")
	for i := range 40 {
		src += fmt.Sprintf("  - {id: horde-%d, side: English, stands: 1000, figures_per_stand: 1, weapon: longbow, at: [%d, -5]}\n", i, i%10)
	}
	big, _ := sys.Load(t, src)
	q := advise.DangerQuery{Side: "French", As: "spearmen", Step: 0.1, Area: [4]float64{-25, -25, 25, 25}}
	w, err := big.DangerWork(q)
	if err == nil || !strings.Contains(err.Error(), "250000 points × 14817 steps a point, 42 firers") || !strings.Contains(err.Error(), "(10 × volley.MaxWork)") {
		t.Errorf("a map of 40 thousand-stand units at 0.1\": %d, %v", w, err)
	}
	if _, err2 := big.Danger(context.Background(), q); err2 == nil || err2.Error() != err.Error() {
		t.Errorf("Danger refused with %v, DangerWork with %v", err2, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Danger(ctx, advise.DangerQuery{Side: "French", As: "knights"}); err == nil {
		t.Error("a cancelled map returned no error")
	}
}

// What a map may place: every unit with figures left, on its own side.
func TestDangerPlacesWarfare(t *testing.T) {
	b, _ := sys.Load(t, dangerDemo(t, "alternate"))
	var got []string
	for _, p := range b.DangerPlaces() {
		got = append(got, p.As+"/"+p.Side)
	}
	if want := "longbowmen/English knights/French spearmen/French archers/English reserve/English"; strings.Join(got, " ") != want {
		t.Errorf("places %s, want %s", strings.Join(got, " "), want)
	}
}
