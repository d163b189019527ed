package warengine

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/volley-wargames/volley"
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
	odds, err := b.Odds(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
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
