package warengine

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rulestest"
)

// openRows is a side×side map of open ground, for a test to draw its terrain on.
func openRows(side int) [][]byte {
	rows := make([][]byte, side)
	for y := range rows {
		rows[y] = []byte(strings.Repeat(".", side))
	}
	return rows
}

// grownMap begins a scenario on the map rows, whose terrain is brush ('b'), trees ('t')
// and walls ('#') of wallHits: its ruleset, its turn and its map.
func grownMap(turn string, wallHits int, rows [][]byte) string {
	var m strings.Builder
	for _, r := range rows {
		m.WriteString("    " + string(r) + "\n")
	}
	return `ruleset: warengine
turn: ` + turn + `
map:
  legend:
    ".": {name: open}
    "b": {name: brush, visibility: 10, firepower: 10}
    "t": {name: trees, visibility: 50, firepower: 30}
    "#": {name: wall, visibility: 100, firepower: 100, save: 20, hits: ` + strconv.Itoa(wallHits) + `, becomes: "."}
  rows: |
` + m.String()
}

// dangerMap is a 64×64 map with a wall across the middle, a wood and brush, and four
// enemy units, each with a rifle (group 1) and a launcher (group 2), none repeating: the
// danger map's benchmark and its tests.
func dangerMap(extra string) string {
	rows := openRows(64)
	for x := 16; x < 48; x++ {
		rows[30][x] = '#' // the wall
	}
	for y := 40; y < 46; y++ {
		for x := 4; x < 12; x++ {
			rows[y][x] = 't'
		}
	}
	for x := 50; x < 60; x++ {
		rows[20][x] = 'b'
	}
	return grownMap("{side: red, phase: target}", 8, rows) + `weapons:
  - {name: Rifle, arc: 90, short: {range: 10, accuracy: 10}, medium: {range: 25}, long: {range: 45, accuracy: -10}, strength: 45, damage: [1, 3]}
  - {name: Launcher, arc: 90, short: {range: 12}, medium: {range: 24}, long: {range: 36, accuracy: -10}, strength: 55, damage: [1, 4], blast: 1}
types:
  - {name: Rifleman, weapon_skill: 45, hits: 3, toughness: {default: {front: 25, side: 20, rear: 15}}, save: 10,
     weapons: [{weapon: Rifle, group: 1}, {weapon: Launcher, group: 2}]}
  - {name: Walker, size: 2, weapon_skill: 40, hits: 4, toughness: {default: {front: 30, side: 25, rear: 20}}, save: 20}
units:
  - {id: red-1, type: Rifleman, side: red, at: [10, 5], facing: S}
  - {id: red-2, type: Rifleman, side: red, at: [26, 8], facing: S}
  - {id: red-3, type: Rifleman, side: red, at: [40, 6], facing: S}
  - {id: red-4, type: Rifleman, side: red, at: [54, 10], facing: S}
  - {id: blue-1, type: Walker, side: blue, at: [30, 56], facing: N}
` + extra
}

// The danger at a square is what the Odds of the enemies' fire give for a Walker standing
// there, each enemy's best group chosen; the wall casts a shadow no shot reaches.
func TestDangerWarEngine(t *testing.T) {
	b, _ := sys.Load(t, dangerMap(""))
	m := rulestest.Danger(t, b, advise.DangerQuery{Side: "blue", As: "Walker"})
	if m.Cols != 64 || m.Rows != 64 || !m.Grid {
		t.Fatalf("%d×%d grid %v", m.Cols, m.Rows, m.Grid)
	}
	for _, q := range []geom.Square{{X: 30, Y: 20}, {X: 30, Y: 32}, {X: 8, Y: 14}, {X: 52, Y: 22}} {
		// Place a real Walker there, facing as the map faces it, and add up each enemy's
		// best group from the Odds of its fire orders.
		bt, _ := sys.Load(t, dangerMap(fmt.Sprintf("  - {id: probe, type: Walker, side: blue, at: [%d, %d], facing: %s}\n", q.X, q.Y, probeFacing(t, b, q))))
		probe, _ := bt.Unit("probe")
		var options [][][]float64
		for _, e := range []string{"red-1", "red-2", "red-3", "red-4"} {
			eu, _ := bt.Unit(e)
			var groups [][]float64
			for _, w := range []string{"Rifle", "Launcher"} {
				c := probe.centre()
				odds := rulestest.Odds(t, bt, &Order{Type: Fire, Unit: eu.ID, Weapon: w, Target: &c})
				aims := odds.Aims
				if len(aims) != 1 || aims[0].Status == "out_of_range" || aims[0].Status == "out_of_arc" {
					continue
				}
				for _, tg := range odds.Targets {
					if tg.Target == "probe" && tg.Distributions[MeasureHits].Max() > 0 {
						groups = append(groups, advise.Capped(tg.Distributions[MeasureHits], probe.Hits))
					}
				}
			}
			if len(groups) > 0 {
				options = append(options, groups)
			}
		}
		want := bestCombination(options, advise.Destroyed, probe.Hits)
		if got := m.At(q.X, q.Y); math.Abs(got-want) > 1e-12 {
			t.Errorf("danger at %v = %.12f; a Walker placed there, by Odds: %.12f", q, got, want)
		}
	}
	if v := m.At(30, 32); v != 0 {
		t.Errorf("behind the wall: %v, want 0", v)
	}
	if v := m.At(30, 20); v <= 0 {
		t.Errorf("in front of the wall: %v, want above 0", v)
	}
	for _, q := range []geom.Square{{X: 30, Y: 30}, {X: 63, Y: 63}, {X: 30, Y: 56}, {X: 10, Y: 5}} {
		if !math.IsNaN(m.At(q.X, q.Y)) {
			t.Errorf("%v (a wall, off the map, a unit) has a value: %v", q, m.At(q.X, q.Y))
		}
	}
	if _, err := b.Danger(context.Background(), advise.DangerQuery{Side: "blue", As: "Tank"}); err == nil || !strings.Contains(err.Error(), "unknown unit type") {
		t.Errorf("unknown type: %v", err)
	}
}

// TestDangerWhereAMoveEnds: a preview asks the danger at one square, for the unit that
// moved there: an area of one square, and the unit itself (lifted from its squares)
// rather than a type, whose copy could not stand where the unit does.
func TestDangerWhereAMoveEnds(t *testing.T) {
	b, _ := sys.Load(t, dangerMap(""))
	ctx := context.Background()
	full, err := b.Danger(ctx, advise.DangerQuery{Side: "blue", As: "Walker"})
	if err != nil {
		t.Fatal(err)
	}
	one := func(as string, q geom.Square) float64 {
		t.Helper()
		area := [4]float64{float64(q.X) - 0.005, float64(q.Y) - 0.005, float64(q.X) + 0.005, float64(q.Y) + 0.005}
		m, err := b.Danger(ctx, advise.DangerQuery{Side: "blue", As: as, Area: area})
		if err != nil || m.Cols != 1 || m.Rows != 1 || m.X0 != float64(q.X) || m.Y0 != float64(q.Y) {
			t.Fatalf("%s at %v: %+v %v", as, q, m, err)
		}
		return m.Values[0]
	}
	if got, want := one("Walker", geom.Sq(30, 20)), full.At(30, 20); got != want || got <= 0 {
		t.Errorf("a Walker at 30,20 alone: %v; on the whole map %v", got, want)
	}
	if got, want := one("blue-1", geom.Sq(30, 20)), full.At(30, 20); got != want {
		t.Errorf("blue-1 itself at 30,20: %v; a Walker there %v", got, want)
	}
	if v := one("blue-1", geom.Sq(30, 56)); math.IsNaN(v) || !math.IsNaN(full.At(30, 56)) {
		t.Errorf("blue-1 where it stands: %v (a Walker there: %v)", v, full.At(30, 56))
	}
	if work, err := b.DangerWork(advise.DangerQuery{Side: "blue", As: "Walker", Area: [4]float64{30, 20, 30, 20}}); err != nil || work*100 > mustWork(t, b) {
		t.Errorf("one square's work %d is not a hundredth of the map's %d (%v)", work, mustWork(t, b), err)
	}
	if _, err := b.Danger(ctx, advise.DangerQuery{Side: "blue", As: "Walker", Area: [4]float64{64.5, 0, 70, 3}}); err == nil || !strings.Contains(err.Error(), "no square") {
		t.Errorf("an area off the map: %v", err)
	}
}

func mustWork(t *testing.T, b *Battle) int64 {
	t.Helper()
	w, err := b.DangerWork(advise.DangerQuery{Side: "blue", As: "Walker"})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// probeFacing is the facing the danger map gives a unit placed on q.
func probeFacing(t *testing.T, b *Battle, q geom.Square) string {
	t.Helper()
	p, err := b.dangerPlaced(advise.DangerQuery{Side: "blue", As: "Walker"})
	if err != nil {
		t.Fatal(err)
	}
	d := b.newDangerWorker(p, "blue")
	u := &d.b.units[d.placed]
	u.At = q
	return d.facing(u).String()
}

// BenchmarkDanger is the danger map of a 64×64 map against four units with two
// non-repeating weapons each (in two groups), on every core.
func BenchmarkDanger(b *testing.B) {
	bt, _ := sys.Load(b, dangerMap(""))
	rulestest.BenchDanger(b, bt, advise.DangerQuery{Side: "blue", As: "Walker"})
}

// BenchmarkPosition is a Walker's position map on the 64×64 map of BenchmarkDanger, in
// its side's move phase: the squares its move of 6 reaches round the wall, each with its
// rifle's and launcher's best plan against the four riflemen, and the danger there.
// (A move of 8 is priced above volley.MaxHeavyWork and refused: see docs/benchmarks.md.)
func BenchmarkPosition(b *testing.B) {
	src := strings.Replace(dangerMap(""), "turn: {side: red, phase: target}", "turn: {side: blue, phase: move}", 1)
	src = strings.Replace(src, "  - {name: Walker, size: 2,", "  - {name: Walker, size: 2, move: 6, weapons: [{weapon: Rifle, group: 1}, {weapon: Launcher, group: 2}],", 1)
	src = strings.Replace(src, "{id: blue-1, type: Walker, side: blue, at: [30, 56], facing: N}", "{id: blue-1, type: Walker, side: blue, at: [30, 34], facing: N}", 1)
	bt, _ := sys.Load(b, src)
	m := rulestest.BenchPosition(b, bt, advise.PositionQuery{Unit: "blue-1"})
	b.ReportMetric(float64(m.Reachable), "squares")
}
