package advise_test

import (
	"math"
	"slices"
	"testing"

	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/dice"
)

// TestChooseAddsTargetsOnce: two slots choosing the same target name it once among the
// targets, each effect capped at what the target has left; TargetIDs keeps their order.
func TestChooseAddsTargetsOnce(t *testing.T) {
	p := &advise.Problem{Slots: make([]advise.Slot, 2)}
	p.Choose(0, advise.Target{ID: "b1", Left: 1}, dice.Binomial(2, 0.5))
	p.Choose(0, advise.Target{ID: "b2", Left: 2}, dice.Binomial(2, 0.5))
	p.Choose(1, advise.Target{ID: "b1", Left: 1}, dice.Binomial(1, 0.5))
	if got := p.TargetIDs(); !slices.Equal(got, []string{"b1", "b2"}) {
		t.Fatalf("targets %v", got)
	}
	e := p.Slots[1].Choices[0].Effects[0]
	if e.Target != 0 || len(e.Dist) != 2 || e.Dist[1] != 0.5 {
		t.Errorf("slot 1 at b1: %+v", e)
	}
	// Two dice at b1, which has one wound left: three chances in four of losing it.
	if d := p.Slots[0].Choices[0].Effects[0].Dist; len(d) != 2 || math.Abs(d[1]-0.75) > 1e-12 {
		t.Errorf("slot 0 at b1: %v", d)
	}
	if c := p.Slots[0].Choices[1]; c.Target != "b2" || c.Effects[0].Target != 1 || len(c.Effects[0].Dist) != 3 {
		t.Errorf("slot 0 at b2: %+v", c)
	}
}
