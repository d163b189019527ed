package warfare

import (
	"context"
	"testing"

	"github.com/volley-wargames/volley/dice"
)

func BenchmarkOdds(b *testing.B) {
	for _, name := range []string{"longbowmen-existing.yaml", "longbowmen-alternate.yaml"} {
		b.Run(name, func(b *testing.B) {
			battle, f := mustLoadFile(b, name)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := battle.Odds(context.Background(), f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("two targets", func(b *testing.B) {
		battle, f := mustLoad(b, twoTargets)
		b.ReportAllocs()
		for b.Loop() {
			battle.Odds(context.Background(), f)
		}
	})
}

func BenchmarkSimDraw(b *testing.B) {
	for _, name := range []string{"longbowmen-existing.yaml", "longbowmen-alternate.yaml"} {
		b.Run(name, func(b *testing.B) {
			battle, f := mustLoadFile(b, name)
			sim, _ := battle.Sampler(f)
			out := make([]int, len(sim.Targets)*len(sim.Measures))
			d := dice.NewUnrecorded(1)
			b.ReportAllocs()
			for b.Loop() {
				sim.Draw(d, out)
			}
		})
	}
}
