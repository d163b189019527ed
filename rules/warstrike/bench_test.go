package warstrike

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rulestest"
)

// crossfire is the benchmark table: a 10-model unit firing at a 10-model unit
// 26" away across a 48" table with 30 pieces of terrain (woods, ruins, hills, walls,
// buildings, features), so that every one of the 100 pairs is traced through terrain.
func crossfire() string {
	var s strings.Builder
	s.WriteString("ruleset: warstrike\ntables: {weapons: {rifle: {range: 30, shots: 2, to_hit: 4, penetration: 3, kill: 3}}, concealment: {modifiers: [{when: in_area_terrain, modifier: 1}, {when: partly_visible, modifier: 1}]}, long_range: {beyond: 0.5, modifier: 1}, penetrate: {lowest: -3, needs: [6, 5, 4, 3, 2]}, kill: {lowest: -3, needs: [6, 5, 4, 3, 2]}}\nterrain:\n")
	kinds := []string{"area", "hill", "wall", "building", "feature", "area"}
	for i := range 30 {
		x, y := float64(i%6)*8+float64(i/6%2)*4, float64(i/6)*4+10
		switch k := kinds[i%len(kinds)]; k {
		case "wall":
			fmt.Fprintf(&s, "  - {id: t%d, kind: wall, height: 1, line: [[%g, %g], [%g, %g]]}\n", i, x, y, x+3, y+1)
		default:
			h := map[string]float64{"area": 3, "hill": 2, "building": 5, "feature": 4}[k]
			fmt.Fprintf(&s, "  - {id: t%d, kind: %s, height: %g, polygon: [[%g, %g], [%g, %g], [%g, %g], [%g, %g], [%g, %g], [%g, %g]]}\n",
				i, k, h, x, y, x+1.5, y-0.3, x+2.5, y+0.6, x+2.5, y+1.8, x+1.2, y+2.5, x-0.3, y+1.5)
		}
	}
	s.WriteString("units:\n  - {id: a, side: A, base: 1, height: 1.2, weapon: rifle, armour: 3, toughness: 3, models: [")
	for i := range 10 {
		fmt.Fprintf(&s, "{at: [%d, 6]%s},", 4+i*4, map[bool]string{true: ", leader: true"}[i == 0])
	}
	s.WriteString("]}\n  - {id: b, side: B, base: 1, height: 1.2, weapon: rifle, armour: 3, toughness: 3, models: [")
	for i := range 10 {
		fmt.Fprintf(&s, "{at: [%d, 32]},", 3+i*4)
	}
	s.WriteString("]}\naction: {unit: a, targets: [{unit: b}]}\n")
	return s.String()
}

// sightEditions are the two ways a benchmark measures sight side by side: exactly
// (edition 4) and by 3 × 4 rays (edition 2).
var sightEditions = []struct {
	name    string
	edition int
}{{"exact", 4}, {"sampled", 2}}

// BenchmarkAimUnit is what the page asks on hover: the aim of a 10-model unit at a
// 10-model unit, 100 pairs across 30 terrain pieces, measured exactly (edition 4) and by
// 3 × 4 rays (editions 2 and 3), side by side.
func BenchmarkAimUnit(b *testing.B) {
	for _, ed := range sightEditions {
		b.Run(ed.name, func(b *testing.B) {
			battle, a := loadEdition(b, crossfire(), ed.edition)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := battle.Aim(context.Background(), a); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(100*float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
		})
	}
}

// BenchmarkOddsUnit is the exact odds of the same action.
func BenchmarkOddsUnit(b *testing.B) {
	battle, a := rulestest.Load(b, Ruleset{}, "crossfire.yaml", []byte(crossfire()))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := battle.Odds(context.Background(), a); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLook is one pair's line of sight across the crossfire table, measured exactly
// and by 3 × 4 rays, side by side.
func BenchmarkLook(b *testing.B) {
	for _, ed := range sightEditions {
		b.Run(ed.name, func(b *testing.B) {
			vb, _ := loadEdition(b, crossfire(), ed.edition)
			battle := vb.(*Battle)
			v, tu := &battle.units[0].Models[4], &battle.units[1]
			var sc sightScratch
			b.ReportAllocs()
			for b.Loop() {
				battle.look(&sc, v, &tu.Models[5], tu)
			}
		})
	}
}

func BenchmarkSimDraw(b *testing.B) {
	battle, a := sys.LoadFile(b, "split-fire.yaml")
	rulestest.BenchDraw(b, battle, a)
}

// TestCrossfireTracesEveryPair keeps the benchmark honest: its pairs see and are blocked
// for every reason, so the timing covers every path of the line of sight.
func TestCrossfireTracesEveryPair(t *testing.T) {
	battle, a := rulestest.Load(t, Ruleset{}, "crossfire.yaml", []byte(crossfire()))
	aims := rulestest.Aim(t, battle, a)
	kinds := map[string]int{}
	for _, x := range aims {
		switch {
		case x.Status == "ok":
			kinds["seen"]++
		case strings.Contains(x.Reason, "sight distance"):
			kinds["area"]++
		case strings.Contains(x.Reason, "standard line of sight"):
			kinds["solid"]++
		case strings.Contains(x.Reason, "higher than the models"):
			kinds["rule"]++
		default:
			kinds[string(x.Status)]++
		}
	}
	if len(aims) != 100 || kinds["seen"] == 0 || kinds["area"] == 0 || kinds["solid"]+kinds["rule"] == 0 {
		t.Errorf("%d aims: %v", len(aims), kinds)
	}
	t.Logf("%v", kinds)
}

// BenchmarkTable is the page's view of the demo: every model, piece and sight circle.
func BenchmarkTable(b *testing.B) {
	battle, _ := sys.LoadFile(b, "demo.yaml")
	b.ReportAllocs()
	for b.Loop() {
		battle.Table()
	}
}

// BenchmarkDanger is the danger map of the demo for a copy of the raiders: 50 × 50
// points an inch apart, every Ironclad model looking at each of the three placed models,
// measured exactly (edition 4) and by 3 × 4 rays (editions 2 and 3).
func BenchmarkDanger(b *testing.B) {
	src := sys.ReadExample(b, "demo.yaml")
	q := advise.DangerQuery{Side: "Verdant", As: "raiders", Area: [4]float64{-10, -20, 40, 30}}
	for _, ed := range sightEditions {
		b.Run(ed.name, func(b *testing.B) {
			bt, _ := loadEdition(b, src, ed.edition)
			rulestest.BenchDanger(b, bt.(*Battle), q)
		})
	}
}

// BenchmarkPreview is what the server does for one frame of a drag on the WarStrike demo
// (POST …/preview, http/preview.go): fork the battle, decode the move as a refereed
// action and the shot after it, make the move on the fork, read its state and table, the
// exact odds of the unit's shot from where the move ends, and the one-point danger map at
// the ghost. In Verdant's turn the rangers leave their wood westwards with a Shooting
// Advance and shoot at the watchers: the whole unit's move of four models, or the page's
// drag of one model. Goal: under 16 ms, a frame.
func BenchmarkPreview(b *testing.B) {
	src := sys.ReadExample(b, "demo.yaml")
	for _, tc := range []struct{ name, move, ghost string }{
		{"unit", "{type: move, unit: rangers, action: shooting_advance, models: [{id: rangers-1, path: [[20, 12]]}, {id: rangers-2, path: [[22, 13]]}, {id: rangers-3, path: [[24, 11]]}, {id: rangers-4, path: [[21, 15]]}]}", "rangers-1"},
		{"model", "{type: move, unit: rangers-1, action: shooting_advance, path: [[20, 12]]}", "rangers-1"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			bt, _ := loadEdition(b, src, 0)
			battle := bt.(*Battle)
			rulestest.Play(b, battle, "type: end_turn")
			shot := "{unit: rangers, targets: [{unit: watchers}]}"
			q := advise.DangerQuery{Side: "Verdant", As: "rangers", Step: 0.01}
			b.ReportAllocs()
			for b.Loop() {
				fork := battle.Fork().(*Battle)
				move, err := rulestest.DecodeAs(b, fork, tc.move, true, 0)
				if err != nil {
					b.Fatal(err)
				}
				then := rulestest.Decode(b, fork, shot)
				_ = fork.Cost(move) + fork.Cost(then)
				if _, err := fork.Resolve(context.Background(), move, dice.ForAction(0, 0)); err != nil {
					b.Fatal(err)
				}
				fork.State()
				fork.Table()
				odds, err := fork.Odds(context.Background(), then)
				if err != nil || len(odds.Targets) != 1 {
					b.Fatalf("the shot: %v %v", odds.Aims, err)
				}
				m, _, _ := fork.Model(tc.ghost)
				q.Area = [4]float64{m.At.X - q.Step/2, m.At.Y - q.Step/2, m.At.X + q.Step/2, m.At.Y + q.Step/2}
				if _, err := fork.DangerWork(q); err != nil {
					b.Fatal(err)
				}
				d, err := fork.Danger(advise.WithCores(context.Background(), 1), q)
				if err != nil || len(d.Values) != 1 {
					b.Fatalf("the danger at the ghost: %v %v", d, err)
				}
			}
		})
	}
}

// loadEdition loads a scenario as a battle begun under the given edition.
func loadEdition(tb testing.TB, src string, edition int) (volley.Battle, volley.Action) {
	tb.Helper()
	return rulestest.MustLoadEdition(tb, Ruleset{}, "scenario.yaml", []byte(src), edition)
}

// BenchmarkLookBetween is how one exact look grows with the pieces between the two
// models: n features, each hiding a different slice of the target's lower body, stand
// between a model and its target 20" away, and 64 - n more stand off the line, where
// the box of the lines of sight sets them aside before any clipping.
func BenchmarkLookBetween(b *testing.B) {
	for _, n := range []int{0, 1, 2, 4, 8, 16, 32, 64} {
		var s strings.Builder
		s.WriteString("ruleset: warstrike\ntables: {weapons: {rifle: {range: 30, shots: 1, to_hit: 4}}}\nterrain:\n")
		for i := range 64 {
			if i < n {
				// At x from 2 to 18, reaching from the north to (i+1)/n of the target's
				// width, lower than the eye (1.3"), so each hides the target up to a
				// height z of its own.
				x := 2 + 16*float64(i)/float64(n)
				y := (0.5 - float64(i+1)/float64(n)) * x / 20
				z := 0.2 + 0.1*float64(i%8)
				h := 1.3 - (1.3-z)*(x+0.2)/20
				fmt.Fprintf(&s, "  - {id: t%d, kind: feature, height: %g, polygon: [[%g, %g], [%g, %g], [%g, 4], [%g, 4]]}\n", i, h, x, y, x+0.2, y, x+0.2, x)
				continue
			}
			x, y := float64(i%8)*5, 10+float64(i/8)*3
			fmt.Fprintf(&s, "  - {id: t%d, kind: feature, height: 3, polygon: [[%g, %g], [%g, %g], [%g, %g], [%g, %g]]}\n", i, x, y, x+1, y, x+1, y+1, x, y+1)
		}
		s.WriteString("units:\n  - {id: a, side: A, base: 1, height: 1.2, weapon: rifle, models: [{at: [0, 0]}]}\n  - {id: b, side: B, base: 1, height: 1.2, models: [{at: [20, 0]}]}\n")
		vb, _ := loadEdition(b, s.String(), 3)
		battle := vb.(*Battle)
		v, tu := &battle.units[0].Models[0], &battle.units[1]
		var sc sightScratch
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var l look
			for b.Loop() {
				l = battle.look(&sc, v, &tu.Models[0], tu)
			}
			b.ReportMetric(l.fraction, "seen")
		})
	}
}

// BenchmarkPosition is alpha's position map on the demo's ruined crossroads: its four
// models (a carbine, two rifles and a support gun) in their formation, up to 12" (At-The-
// Double) round the field wall, the pylon and the other units, at 0.5"; from each point
// within 4" (Shooting Advance) the advisor's best plan at the three Verdant units, and at
// every point the danger map of alpha itself, nine Verdant models firing back.
func BenchmarkPosition(b *testing.B) {
	src := sys.ReadExample(b, "demo.yaml")
	bt, _ := loadEdition(b, src, 0)
	m := rulestest.BenchPosition(b, bt.(*Battle), advise.PositionQuery{Unit: "alpha", Step: 0.5})
	b.ReportMetric(float64(m.Reachable), "points")
}
