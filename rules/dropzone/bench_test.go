package dropzone

import (
	"context"
	"fmt"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rulestest"
)

// volleyOfShots is one weapon firing n shots that hit on 3+, then D6+3 against armour 6
// with criticals and the natural-1 rule: the case docs/benchmarks.md compares with a
// Python exact-dice library.
func volleyOfShots(n int) string {
	return fmt.Sprintf(`
ruleset: dropzone
types:
  - name: Battery
    armour: 6
    damage_points: 3
    base: 1
    height: 1
    weapons:
      - {name: Guns, mf: "-", arc: F/S/R, full_range: ∞, countered_range: ∞, shots: %d, accuracy: 3+, energy: 3}
  - name: Fortress
    armour: 6
    damage_points: 10000
    base: 2
    height: 2
units:
  - {id: battery, type: Battery, side: A, at: [0, 0]}
  - {id: fortress, type: Fortress, side: B, at: [0, 20]}
action:
  declarations:
    - {unit: battery, weapon: Guns, target: fortress}
`, n)
}

// BenchmarkOddsShots measures the exact damage distribution of n shots, end to end
// (checks, line of sight, distributions), as Odds computes it.
func BenchmarkOddsShots(b *testing.B) {
	for _, n := range []int{20, 400, 2000} {
		b.Run(fmt.Sprintf("shots=%d", n), func(b *testing.B) {
			battle, a := mustLoad(b, volleyOfShots(n))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := battle.Odds(context.Background(), a); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSimDraw measures Monte Carlo per die: one draw of 2,000 shots rolls about
// 2,000 to-hit dice, 1,333 damage dice; the metric divides by the dice actually rolled.
func BenchmarkSimDraw(b *testing.B) {
	battle, a := mustLoad(b, volleyOfShots(2000))
	sim, err := battle.Sampler(a)
	if err != nil {
		b.Fatal(err)
	}
	out := make([]int, len(sim.Targets)*len(sim.Measures))
	d := dice.NewUnrecorded(1)
	var hits int
	for b.Loop() {
		sim.Draw(d, out)
		hits += out[1]
	}
	dicePerDraw := 2000 + float64(hits)/float64(b.N)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/dicePerDraw, "ns/die")
}

// BenchmarkSimulate measures the whole Monte Carlo run over both cores.
func BenchmarkSimulate(b *testing.B) {
	battle, a := mustLoadFile(b, "sabres.yaml")
	sim, _ := battle.Sampler(a)
	for b.Loop() {
		volley.Simulate(sim, 1, 100_000, nil)
	}
}

func BenchmarkAimSabres(b *testing.B) {
	battle, a := mustLoadFile(b, "sabres.yaml")
	b.ReportAllocs()
	for b.Loop() {
		rulestest.Aim(b, battle, a)
	}
}

func BenchmarkOddsSabres(b *testing.B) {
	battle, a := mustLoadFile(b, "sabres.yaml")
	b.ReportAllocs()
	for b.Loop() {
		battle.Odds(context.Background(), a)
	}
}

func BenchmarkResolveSabres(b *testing.B) {
	battle, a := mustLoadFile(b, "sabres.yaml")
	b.ReportAllocs()
	for b.Loop() {
		// Refresh damage points so the targets stay on the table, and the turn so that
		// the squad may shoot again.
		for i := range battle.units {
			battle.units[i].DamagePoints = battle.units[i].Type.DamagePoints
		}
		battle.turns.Done = nil
		if _, err := battle.Resolve(context.Background(), a, dice.ForAction(1, 0)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAimHullDown(b *testing.B) {
	battle, a := mustLoadFile(b, "checks.yaml")
	b.ReportAllocs()
	for b.Loop() {
		rulestest.Aim(b, battle, a)
	}
}
