package warengine

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/scenario"
)

// blastMap is a side × side map where every square has hits, and a repeating weapon with
// a blast of radius blast fired without aiming: the order once took odds 30 s and sim
// more than 100 s on the largest map.
func blastMap(side, blast int) string {
	row := "    " + strings.Repeat("#", side) + "\n"
	return `ruleset: warengine
turn: {side: blue, phase: fire}
map:
  legend:
    "#": {name: wall, visibility: 0, firepower: 0, save: 20, hits: 5, becomes: "."}
    ".": {name: rubble}
  rows: |
` + strings.Repeat(row, side) + `weapons:
  - {name: Mortar, arc: 360, short: {range: 10}, medium: {range: 25}, long: {range: 60}, strength: 40, damage: [1, 3], repeating: true, blast: ` + strconv.Itoa(blast) + `}
types:
  - {name: Gunner, weapon_skill: 45, hits: 3, weapons: [{weapon: Mortar, group: 1}]}
  - {name: Target, weapon_skill: 10, hits: 3}
units:
  - {id: gunner, type: Gunner, side: blue, at: [5, 40], facing: N, targets: [{weapon: Mortar, at: [5, 10]}]}
  - {id: target, type: Target, side: red, at: [5, 10]}
action: {type: fire, unit: gunner, weapon: Mortar}
`
}

// TestBlastCost: a blast over the whole largest map is refused when the order is read,
// naming the limit; a small blast on the same map is computed, within the time its cost
// says.
func TestBlastCost(t *testing.T) {
	doc, err := scenario.Parse("blast.yaml", []byte(blastMap(512, 512)))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Ruleset{}.Load(doc)
	if err == nil || !strings.Contains(err.Error(), "volley.MaxWork") {
		t.Fatalf("a blast over a 512×512 map of walls: %v; want the work limit", err)
	}
	doc, err = scenario.Parse("blast.yaml", []byte(blastMap(512, 4)))
	if err != nil {
		t.Fatal(err)
	}
	b, a, err := Ruleset{}.Load(doc)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	odds := rulestest.Odds(t, b, a)
	took := time.Since(start)
	cost := b.Cost(a)
	t.Logf("blast 4 on 512×512: cost %d steps, %v (%.2f ns a step), %d victims", cost, took, float64(took.Nanoseconds())/float64(cost), len(odds.Targets))
	if cost > volley.MaxWork {
		t.Errorf("blast 4 costs %d; want it under MaxWork", cost)
	}
	// A cancelled context stops the work with the context's error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := b.Odds(ctx, a); volley.ErrorCode(err) != volley.EUNAVAILABLE {
		t.Errorf("odds with a cancelled context: %v", err)
	}
}

// crowdedMap is the case: a 512 × 512 open map with 564 units, and a weapon with
// a blast of 4 declared 60 squares away.
func crowdedMap(repeating, aiming bool) string {
	var units strings.Builder
	n := 0
	for y := 5; y < 512 && n < 562; y += 21 {
		for x := 5; x < 512 && n < 562; x += 21 {
			fmt.Fprintf(&units, "  - {id: u%d, type: Target, side: red, at: [%d, %d]}\n", n, x, y)
			n++
		}
	}
	row := "    " + strings.Repeat(".", 512) + "\n"
	return `ruleset: warengine
turn: {side: blue, phase: fire}
map:
  legend: {".": {name: field}}
  rows: |
` + strings.Repeat(row, 512) + `weapons:
  - {name: Mortar, arc: 360, short: {range: 10}, medium: {range: 25}, long: {range: 80}, strength: 40, damage: [1, 3], repeating: ` + strconv.FormatBool(repeating) + `, blast: 4}
types:
  - {name: Gunner, weapon_skill: 45, hits: 3, weapons: [{weapon: Mortar, group: 1}]}
  - {name: Target, weapon_skill: 10, hits: 3}
units:
  - {id: gunner, type: Gunner, side: blue, at: [256, 400], facing: N, aiming: ` + strconv.FormatBool(aiming) + `, targets: [{weapon: Mortar, at: [256, 340]}]}
  - {id: target, type: Target, side: red, at: [256, 340]}
` + units.String() + "action: {type: fire, unit: gunner, weapon: Mortar}\n"
}

// TestCostFollowsTheWork: the bound counts what the order does — one pick for a weapon
// that does not repeat or a unit that aims, the landing squares rather than the map's,
// and no more units struck than the blast has squares — so the map, once refused
// at about 204 M steps, is computed; the costs are pinned so that a looser bound shows.
func TestCostFollowsTheWork(t *testing.T) {
	for _, tc := range []struct {
		name              string
		repeating, aiming bool
		want              int64
	}{
		{"one pick", false, false, 5_924_516},
		{"repeating, aiming: one pick", true, true, 5_924_516},
		{"repeating: three picks", true, false, 52_117_508},
	} {
		doc := rulestest.Parse(t, "crowded.yaml", crowdedMap(tc.repeating, tc.aiming))
		b, a, err := Ruleset{}.Load(doc)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := b.Cost(a); got != tc.want {
			t.Errorf("%s: cost %d; want %d", tc.name, got, tc.want)
		}
		start := time.Now()
		if _, err := b.Odds(context.Background(), a); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: cost %d steps, odds in %v", tc.name, b.Cost(a), time.Since(start))
	}
}
