package http

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	_ "github.com/volley-wargames/volley/rules/dropzone"
	_ "github.com/volley-wargames/volley/rules/republique"
	_ "github.com/volley-wargames/volley/rules/warengine"
	_ "github.com/volley-wargames/volley/rules/warfare"
	_ "github.com/volley-wargames/volley/rules/warstrike"
	"github.com/volley-wargames/volley/scenario"
)

// bigScenarios are the largest battles a scenario body may hold, of each kind: what the
// cache's footprint estimate must not underrate.
func bigScenarios(t testing.TB) map[string]string {
	murphy, err := os.ReadFile(filepath.Join("..", "examples", "warengine", "murphy.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// The War Engine's largest map, 512 × 512 squares, in place of murphy's.
	head, rest, _ := strings.Cut(string(murphy), "  rows: |\n")
	_, tail, _ := strings.Cut(rest, "\nweapons:")
	row := strings.Repeat(".", 500) + strings.Repeat("t", 12)
	bigMap := head + "  rows: |\n" + strings.Repeat("    "+row+"\n", 512) + "weapons:" + tail

	var units strings.Builder // 2,000 Dropzone units
	units.WriteString("ruleset: dropzone\ntypes: [{name: T, armour: 5, damage_points: 3, base: 1, height: 1, weapons: [{name: G, mf: \"-\", arc: F, full_range: 24, countered_range: 12, shots: 2, accuracy: 3+, energy: 5}]}]\nunits:\n")
	for i := range 2000 {
		fmt.Fprintf(&units, "  - {id: u%d, type: T, side: S%d, squad: q%d, at: [%d, %d]}\n", i, i%2, i/4, i%100, i/100)
	}
	var terrain strings.Builder // 9 terrain pieces of 1,024 vertices: near the token limit
	terrain.WriteString("ruleset: dropzone\ntypes: [{name: T, armour: 5, damage_points: 3, base: 1, height: 1}]\nunits: [{id: a, type: T, side: A, at: [0, 0]}, {id: b, type: T, side: B, at: [0, 9]}]\nterrain:\n")
	for p := range 9 {
		fmt.Fprintf(&terrain, "  - {id: t%d, height: 2, polygon: [", p)
		x0 := p * 1000 // a comb of 255 teeth: 1,022 vertices
		for i := range 255 {
			x := x0 + 2*i
			fmt.Fprintf(&terrain, "[%d, 1], [%d, 5], [%d, 5], [%d, 1],", x, x, x+1, x+1)
		}
		fmt.Fprintf(&terrain, "[%d, 0], [%d, 0]", x0+510, x0)
		terrain.WriteString("]}\n")
	}
	var ws strings.Builder // WarStrike's most models, and round terrain up to the token limit
	ws.WriteString("ruleset: warstrike\ntables: {weapons: {gun: {range: 24, shots: 2, to_hit: 4}}}\nterrain:\n")
	for p := range 110 {
		fmt.Fprintf(&ws, "  - {id: t%d, kind: area, height: 2, polygon: [", p)
		for i := range 64 {
			a := 2 * math.Pi * float64(i) / 64
			fmt.Fprintf(&ws, "[%.1f, %.1f],", float64(p%11*10)+4*math.Cos(a), float64(p/11*10)+4*math.Sin(a))
		}
		ws.WriteString("]}\n")
	}
	ws.WriteString("units:\n")
	for u := range 8 {
		fmt.Fprintf(&ws, "  - {id: u%d, side: S%d, base: 1, height: 1, weapon: gun, models: [", u, u%2)
		for i := range 50 {
			fmt.Fprintf(&ws, "{at: [%d, %d]},", i, 100+u*2)
		}
		ws.WriteString("]}\n")
	}
	return map[string]string{"warengine 512×512": bigMap, "warstrike 400 models": ws.String(), "dropzone 2,000 units": units.String(), "dropzone big terrain": terrain.String()}
}

// TestFootprint measures what folding the largest scenarios keeps in memory, and checks
// that footprint, by which the cache is bounded, does not underrate it.
func TestFootprint(t *testing.T) {
	for name, src := range bigScenarios(t) {
		rec := &volley.BattleRecord{ID: "0123456789abcdef", Scenario: src, Edition: volley.Edition}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		rs, game, doc, err := build(rec, scenario.MaxValues)
		if err != nil {
			t.Fatalf("%s: %.300v", name, err)
		}
		f := fold{record: rec, ruleset: rs, game: game, battle: game.Battle(), title: titleOf(doc)}
		runtime.GC()
		runtime.ReadMemStats(&after)
		kept := int64(after.HeapAlloc) - int64(before.HeapAlloc)
		runtime.KeepAlive(f.battle)
		est := footprint(&f)
		t.Logf("%s: %d KiB of scenario keeps %d KiB; estimated %d KiB", name, len(src)>>10, kept>>10, est>>10)
		if kept > est {
			t.Errorf("%s keeps %d bytes; the cache counts %d", name, kept, est)
		}
	}
}
