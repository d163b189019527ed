package rulestest

import (
	"context"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/dice"
)

// BenchDraw benchmarks one Monte Carlo draw of a with bt's sampler: the inner loop of
// volley.Simulate, an outcome rolled without the trace Resolve keeps.
func BenchDraw(b *testing.B, bt volley.Battle, a volley.Action) {
	b.Helper()
	sim := sampler(b, bt, a)
	out := make([]int, len(sim.Targets)*len(sim.Measures))
	d := dice.NewUnrecorded(1)
	b.ReportAllocs()
	for b.Loop() {
		sim.Draw(d, out)
	}
}

// BenchDanger benchmarks the danger map q of bt.
func BenchDanger(b *testing.B, bt advise.Dangerer, q advise.DangerQuery) {
	b.Helper()
	for b.Loop() {
		if _, err := bt.Danger(context.Background(), q); err != nil {
			b.Fatal(err)
		}
	}
}
