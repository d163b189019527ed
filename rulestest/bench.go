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

// BenchPosition benchmarks the position map q of bt, answering the last map made, for
// the figures a benchmark reports beside its time (how many points it reached).
func BenchPosition(b *testing.B, bt advise.Positioner, q advise.PositionQuery) *advise.PositionMap {
	b.Helper()
	var m *advise.PositionMap
	for b.Loop() {
		var err error
		if m, err = bt.Position(context.Background(), q); err != nil {
			b.Fatal(err)
		}
	}
	return m
}
