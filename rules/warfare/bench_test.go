package warfare

import (
	"context"
	"testing"

	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/rulestest"
)

func BenchmarkOdds(b *testing.B) {
	for _, name := range []string{"longbowmen-existing.yaml", "longbowmen-alternate.yaml"} {
		b.Run(name, func(b *testing.B) {
			battle, f := sys.LoadFile(b, name)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := battle.Odds(context.Background(), f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("two targets", func(b *testing.B) {
		battle, f := sys.Load(b, twoTargets)
		b.ReportAllocs()
		for b.Loop() {
			battle.Odds(context.Background(), f)
		}
	})
}

func BenchmarkSimDraw(b *testing.B) {
	for _, name := range []string{"longbowmen-existing.yaml", "longbowmen-alternate.yaml"} {
		b.Run(name, func(b *testing.B) {
			battle, f := sys.LoadFile(b, name)
			rulestest.BenchDraw(b, battle, f)
		})
	}
}

// BenchmarkDanger is the danger map of the demo's knights, with the archers beside the
// longbowmen: 38" × 30" at the default 0.5" (4,560 points), two firers, on every core.
func BenchmarkDanger(b *testing.B) {
	for _, system := range []string{"alternate", "existing"} {
		b.Run(system, func(b *testing.B) {
			bt, _ := sys.Load(b, dangerDemoSrc(b, system))
			q := advise.DangerQuery{Side: "French", As: "knights", Area: [4]float64{-14, -14, 24, 16}}
			rulestest.BenchDanger(b, bt, q)
		})
	}
}

// BenchmarkPosition is the longbowmen's position map on examples/warfare/position.yaml:
// a 6" move at the default 0.5" (344 points they can reach round the billmen), their
// fire at three French units, two of which shoot back; both layers, on every core.
func BenchmarkPosition(b *testing.B) {
	for _, system := range []string{"alternate", "existing"} {
		b.Run(system, func(b *testing.B) {
			bt := loadSrc(b, positionSrc(b, system), 0)
			b.ReportAllocs()
			m := rulestest.BenchPosition(b, bt, advise.PositionQuery{Unit: "longbowmen", Danger: advise.Expected})
			b.ReportMetric(float64(m.Reachable), "points/op")
		})
	}
}
