package republique

import (
	"context"
	"testing"

	"github.com/volley-wargames/volley/rulestest"
)

// BenchmarkOddsGrandBattery is the exact odds of the demo's two-battery fire: the main
// target rule for each battery, the frontage zones, the secondary targets and the joint
// distribution.
func BenchmarkOddsGrandBattery(b *testing.B) {
	bt, a := withAction(b, "demo.yaml", "{type: fire, batteries: [g1, g2]}")
	bt.phase.step = ArtillerySegment
	ctx := context.Background()
	for b.Loop() {
		if _, err := bt.Odds(ctx, a); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTable is the page's view of the demo: every battery's arc, zone and main target.
func BenchmarkTable(b *testing.B) {
	bt, _ := loadFile(b, "demo.yaml")
	for b.Loop() {
		bt.Table()
	}
}

// BenchmarkLoad reads the demo with its charts in place.
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		rulestest.LoadFile(b, Ruleset{}, example("demo.yaml"))
	}
}
