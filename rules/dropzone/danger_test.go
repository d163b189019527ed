package dropzone

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/rulestest"
)

// The danger at a point is what Odds gives for a Sabre standing there with every weapon
// of the Scourge squad declared at it (shots that cannot be taken add nothing), and the
// long wall casts a shadow where nothing reaches.
func TestDangerCrossfire(t *testing.T) {
	b, _ := sys.LoadAny(t, "crossfire.yaml")
	m := rulestest.Danger(t, b, advise.DangerQuery{Side: "UCM", As: "Sabre", Area: [4]float64{0, 0, 48, 48}})
	if m.Cols != 96 || m.Rows != 96 || m.X0 != 0.25 || m.Y0 != 0.25 {
		t.Fatalf("grid %d×%d from (%g, %g), want 96×96 from (0.25, 0.25)", m.Cols, m.Rows, m.X0, m.Y0)
	}
	src := sys.ReadExample(t, "crossfire.yaml")
	at := func(x, y float64) float64 { return m.At(int((x-m.X0)/m.Step+0.5), int((y-m.Y0)/m.Step+0.5)) }
	for _, p := range [][2]float64{{24.25, 25.25}, {24.25, 28.25}, {4.25, 30.25}, {10.25, 21.25}, {44.75, 22.25}, {2.25, 35.25}, {24.25, 47.75}} {
		probe := fmt.Sprintf("  - {id: probe, type: Sabre, side: UCM, at: [%g, %g], facing: 0}\naction:\n  squad: beasts\n  declarations:\n", p[0], p[1])
		for _, f := range []string{"beast-1", "beast-2", "beast-3"} {
			for _, w := range []string{"Plasma Lance", "Spine Cannon"} {
				probe += fmt.Sprintf("    - {unit: %s, weapon: %s, target: probe}\n", f, w)
			}
		}
		bt, a := sys.Load(t, src+probe)
		odds := rulestest.Odds(t, bt, a)
		want := odds.Targets[0].PDestroyed
		if got := at(p[0], p[1]); math.Abs(got-want) > 1e-12 {
			t.Errorf("danger at %v = %.12f, Odds of every weapon at a Sabre there = %.12f", p, got, want)
		}
	}
	// The wall runs from x 8 to 40 at y 26–27, 3" high: the guns (1.25" tall) to the
	// north see nothing of a Sabre just behind it.
	if v := at(24.25, 25.25); v != 0 {
		t.Errorf("behind the wall: %.4f, want 0", v)
	}
	if v := at(24.25, 28.25); v < 0.9 {
		t.Errorf("in front of the wall: %.4f, want above 0.9", v)
	}
	if !math.IsNaN(at(24.25, 26.25)) {
		t.Errorf("inside the wall: %.4f, want no value", at(24.25, 26.25))
	}
	if got := strings.Join(m.Firers, ","); got != "beast-1,beast-2,beast-3" {
		t.Errorf("firers %s", got)
	}
}

// The map does not depend on how many cores share it.
func TestDangerSameOnOneCore(t *testing.T) {
	b, _ := sys.LoadAny(t, "crossfire.yaml")
	q := advise.DangerQuery{Side: "UCM", As: "Sabre", Step: 2, Objective: advise.Expected}
	many := rulestest.Danger(t, b, q)
	prev := runtime.GOMAXPROCS(1)
	one, err := b.Danger(context.Background(), q)
	runtime.GOMAXPROCS(prev)
	if err != nil {
		t.Fatal(err)
	}
	j1, _ := json.Marshal(many)
	j2, _ := json.Marshal(one)
	if string(j1) != string(j2) {
		t.Fatal("the map differs with one core")
	}
}

func TestDangerRefuses(t *testing.T) {
	b, _ := sys.LoadAny(t, "crossfire.yaml")
	rulestest.DangerRefuses(t, b, []rulestest.DangerRefusal{
		{Query: advise.DangerQuery{Side: "UCM", As: "Sabr"}, Want: `unknown unit type "Sabr"`},
		{Query: advise.DangerQuery{Side: "Nobody", As: "Sabre"}, Want: `no unit is on side "Nobody"`},
		{Query: advise.DangerQuery{Side: "UCM", As: "Sabre", Step: 0.01, Area: [4]float64{0, 0, 48, 48}}, Want: "more than the 250000"},
		{Query: advise.DangerQuery{Side: "UCM", As: "Sabre", Step: 1, Area: [4]float64{5, 5, 5, 9}}, Want: "empty"},
	})
	// Six more beasts: 230,400 points at 0.1", each looked at by 18 weapons, is past the
	// work a map may do (each trace priced exactly, every corner of the ten pieces of
	// terrain and a shadow each: 67,901 steps a point by 9 × 8 rays before edition 4).
	src := sys.ReadExample(t, "crossfire.yaml")
	more := src
	for i := range 6 {
		more += fmt.Sprintf("  - {id: extra-%d, type: Gun Beast, side: Scourge, squad: extras, at: [%d, 46], facing: 180}\n", i, 4+i*7)
	}
	big, _ := sys.Load(t, more)
	_, err := big.Danger(context.Background(), advise.DangerQuery{Side: "UCM", As: "Sabre", Step: 0.1, Area: [4]float64{0, 0, 48, 48}})
	if err == nil || !strings.Contains(err.Error(), "230400 points × 27761 steps a point") || !strings.Contains(err.Error(), "(10 × volley.MaxWork)") {
		t.Errorf("a map of 4 million shots: %v", err)
	}
	if w, err := big.DangerWork(advise.DangerQuery{Side: "UCM", As: "Sabre", Step: 0.1, Area: [4]float64{0, 0, 48, 48}}); w != 230400*27761 || err == nil {
		t.Errorf("DangerWork = %d, %v; want 230400 × 27761 and the refusal", w, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Danger(ctx, advise.DangerQuery{Side: "UCM", As: "Sabre"}); err == nil {
		t.Error("a cancelled map returned no error")
	}
}
