package republique

import (
	"context"
	"testing"

	"github.com/volley-wargames/volley/advise"
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
	bt, _ := sys.LoadFile(b, "demo.yaml")
	for b.Loop() {
		bt.Table()
	}
}

// BenchmarkLoad reads the demo with its charts in place.
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		rulestest.LoadFile(b, Ruleset{}, sys.Example("demo.yaml"))
	}
}

// BenchmarkDanger is the danger map of the demo's IR3, in its formation, at the default
// step (the finest the budget allows: 2 cm, 45 × 37 points), against the three French
// batteries, on every core.
func BenchmarkDanger(b *testing.B) {
	bt, _ := rulestest.Load(b, Ruleset{}, sys.Example("x.yaml"), []byte(dangerDemoSrc(b, nil)))
	q := advise.DangerQuery{Side: "Austrian", As: "IR3"}
	rulestest.BenchDanger(b, bt.(*Battle), q)
}

// BenchmarkPosition is the position map of examples/republique/position.yaml's foot
// battery at the default step (1 cm): every point it can reach round its own line and
// the Grenz marker, its own fire from each after the move, and the danger map of it
// there, on every core.
func BenchmarkPosition(b *testing.B) {
	m := rulestest.BenchPosition(b, positionBattle(b), advise.PositionQuery{Unit: "fb"})
	b.ReportMetric(float64(m.Reachable), "points/op")
	b.ReportMetric(float64(m.Cols*m.Rows), "grid/op")
}
