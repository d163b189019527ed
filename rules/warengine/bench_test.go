package warengine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/scenario"
)

// bigBattle is a 128×128 map with scattered terrain and units, and a repeating weapon
// fired without aiming at a square 40 squares away: three picks over 11×11 areas.
func bigBattle(tb testing.TB) (*Battle, *Order) {
	tb.Helper()
	b, a, err := Ruleset{}.Load(bigDoc(tb))
	if err != nil {
		tb.Fatal(err)
	}
	return b.(*Battle), a.(*Order)
}

// bigDoc is the parsed scenario of bigBattle.
func bigDoc(tb testing.TB) *scenario.Doc {
	tb.Helper()
	const side = 128
	rng := rand.New(rand.NewPCG(1, 2)) // fixed: the same map every run
	rows := openRows(side)
	for y := range rows {
		for x := range rows[y] {
			switch r := rng.IntN(100); {
			case r < 6:
				rows[y][x] = 'b'
			case r < 9:
				rows[y][x] = 't'
			case r < 10:
				rows[y][x] = '#'
			}
		}
	}
	var units strings.Builder
	for i := range 60 {
		x, y := 30+rng.IntN(70), 20+rng.IntN(70)
		rows[y][x] = '.'
		fmt.Fprintf(&units, "  - {id: u%d, type: Trooper, side: %s, at: [%d, %d], facing: S}\n", i, []string{"red", "blue"}[i%2], x, y)
	}
	rows[110][64] = '.'
	src := grownMap("{side: blue, phase: fire}", 5, rows) + `weapons:
  - {name: Chaingun, arc: 360, short: {range: 10}, medium: {range: 25}, long: {range: 60}, strength: 40, damage: [1, 3], repeating: true}
types:
  - {name: Trooper, weapon_skill: 40, hits: 2, toughness: {default: {front: 20, side: 15, rear: 10}}}
  - {name: Gunner, weapon_skill: 45, hits: 3, weapons: [{weapon: Chaingun, group: 1}]}
units:
  - {id: gunner, type: Gunner, side: blue, at: [64, 110], facing: N, targets: [{weapon: Chaingun, at: [64, 70]}]}
` + units.String() + `action: {type: fire, unit: gunner, weapon: Chaingun}
`
	return rulestest.Parse(tb, "big.yaml", src)
}

// BenchmarkOddsRepeating128 is the exact heat-map and damage odds of a repeating weapon
// fired without aiming at long range on a 128×128 map: what the page computes on hover.
func BenchmarkOddsRepeating128(b *testing.B) {
	battle, o := bigBattle(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := battle.Odds(context.Background(), o); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLandingRepeating128 is the landing distribution alone.
func BenchmarkLandingRepeating128(b *testing.B) {
	battle, o := bigBattle(b)
	s, _, _ := battle.shotFor(o)
	b.ReportAllocs()
	for b.Loop() {
		battle.exactLanding(s)
	}
}

// BenchmarkSimulatedShot is one simulated shot of the same weapon: picks, line of fire
// and damage, without a trace.
func BenchmarkSimulatedShot(b *testing.B) {
	battle, o := bigBattle(b)
	rulestest.BenchDraw(b, battle, o)
}

// BenchmarkResolveFire is a whole recorded fire order with its trace. Each iteration
// fires at a fresh copy of the battle, loaded from the already parsed document.
func BenchmarkResolveFire(b *testing.B) {
	doc := bigDoc(b)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		fresh, a, err := Ruleset{}.Load(doc)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := fresh.Resolve(context.Background(), a, dice.ForAction(1, 0)); err != nil {
			b.Fatal(err)
		}
	}
}
