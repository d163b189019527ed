package http

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/scenario"
)

// cpuTime is the CPU time the process has used: what the measurements below count, so
// that a machine shared with other work (which stretches the wall clock) counts the same.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// stepTime is how much CPU time one of volley.MaxWork's steps takes on this machine: a
// Dropzone danger map (crossfire at 0.5", on one core), which its DangerWork prices,
// timed. The benchmarks below measure the server's own work in these steps.
func stepTime(b *testing.B) float64 {
	src, err := os.ReadFile(filepath.Join("..", "examples", "dropzone", "crossfire.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	_, game, _, err := build(&volley.BattleRecord{ID: "0123456789abcdef", Scenario: string(src), Edition: volley.Edition}, scenario.MaxValues)
	if err != nil {
		b.Fatal(err)
	}
	dg := game.Battle().(advise.Dangerer)
	q := advise.DangerQuery{Side: "UCM", As: "Sabre", Step: 0.5}
	work, err := dg.DangerWork(q)
	if err != nil {
		b.Fatal(err)
	}
	ctx := advise.WithCores(context.Background(), 1)
	best := time.Duration(0)
	for range 3 {
		t0 := cpuTime()
		if _, err := dg.Danger(ctx, q); err != nil {
			b.Fatal(err)
		}
		if d := cpuTime() - t0; best == 0 || d < best {
			best = d
		}
	}
	return float64(best) / float64(work)
}

// BenchmarkViewWork measures the work of what the server writes and parses for a request
// (price.go), on the largest scenarios of each kind, in volley.MaxWork's steps: a battle's
// view and its state a value of its scenario (and the view a byte, for a War Engine map,
// which is one value), a scenario parsed again a byte, an export's placements a
// placement and a value. Each rate is reported beside the rate price.go charges, which
// must not be lower.
func BenchmarkViewWork(b *testing.B) {
	step := stepTime(b)
	b.Logf("a step takes %.2f ns now", step)
	all := bigScenarios(b)
	for _, name := range []string{"dropzone/position.yaml", "republique/demo.yaml", "warstrike/demo.yaml", "warengine/murphy.yaml", "warfare/demo.yaml"} {
		src, err := os.ReadFile(filepath.Join("..", "examples", name))
		if err != nil {
			b.Fatal(err)
		}
		all[name] = string(src)
	}
	for name, src := range all {
		rec := &volley.BattleRecord{ID: "0123456789abcdef", Scenario: src, Edition: volley.Edition}
		rs, game, doc, err := build(rec, scenario.MaxValues)
		if err != nil {
			b.Fatal(err)
		}
		battle := game.Battle()
		l := &live{fold: fold{record: rec, ruleset: rs, game: game, battle: battle, title: titleOf(doc), values: doc.Values()}}
		l.measureViews()
		steps := func(f func()) float64 {
			t0 := cpuTime()
			f()
			return float64(cpuTime()-t0) / step
		}
		b.Run(name, func(b *testing.B) {
			var viewed, state, parse, place float64
			for b.Loop() {
				viewed = steps(func() { writeJSON(httptest.NewRecorder(), 200, view(l, false)) })
				state = steps(func() { writeJSON(httptest.NewRecorder(), 200, battle.State()) })
				parse = steps(func() { _, _ = scenario.Parse("scenario", []byte(src)) })
				if pl, ok := battle.(volley.Placer); ok {
					placements := pl.Placements()
					place = steps(func() { _, _ = doc.Place(placements, "action") }) / float64(max(len(placements), 1))
				}
			}
			v := float64(l.values)
			b.ReportMetric(viewed/float64(l.viewBytes), "view-steps/byte")
			b.ReportMetric(state/float64(l.stateBytes), "state-steps/byte")
			b.ReportMetric(parse/float64(len(src)), "parse-steps/byte")
			b.ReportMetric(place/v, "place-steps/placement/value")
			b.Logf("%s: %d bytes, %d values, a view of %d bytes, a state of %d; priced view %d (measured %.0f), state %d (%.0f), parse %.0f, a placement %d (%.0f)", name, len(src), l.values, l.viewBytes, l.stateBytes,
				viewWork(l), viewed, stateWork(l), state, parse, l.values*placeStepsPerValue, place)
		})
	}
}
