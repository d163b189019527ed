package storetest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/volley-wargames/volley"
)

// benchParallelism is how many goroutines per core append at once in the parallel
// benchmark: a server has many requests in flight, most of them waiting.
const benchParallelism = 8

// benchOutcome is an outcome of a typical size: the JSON of the rolls and the trace.
var benchOutcome = `{"rolls":[` + strings.Repeat(`{"die":6,"need":4,"hit":true},`, 30) + `{}],"trace":"..."}`

// BenchmarkAppendAction measures AppendAction as a server uses it, every action with
// an idempotency key: "serial" appends to one battle from one goroutine (the latency
// of one append); "parallel" appends from many goroutines, each to a battle of its
// own (the throughput of the store). Both report appends/s; parallel also reports
// the 99th percentile of the latency of an append, in milliseconds. open returns a
// new, empty store and closes it when the benchmark ends.
func BenchmarkAppendAction(b *testing.B, open func(b *testing.B) volley.Store) {
	b.Run("serial", func(b *testing.B) {
		s := open(b)
		MustCreate(b, s, NewBattle("bench", 1))
		ctx := context.Background()
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			a := benchAction("bench", i)
			if _, err := s.AppendAction(ctx, a); err != nil {
				b.Fatalf("AppendAction(seq %d) = %v", i, err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "appends/s")
	})
	b.Run("parallel", func(b *testing.B) {
		s := open(b)
		ctx := context.Background()
		var battles atomic.Int64
		var mu sync.Mutex
		var latencies []time.Duration
		b.ReportAllocs()
		b.SetParallelism(benchParallelism)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			id := fmt.Sprintf("bench-%d", battles.Add(1))
			if err := s.CreateBattle(ctx, NewBattle(id, 1)); err != nil {
				b.Errorf("CreateBattle(%s) = %v", id, err) // not Fatal: this is not the test's goroutine
				return
			}
			var mine []time.Duration
			for seq := 0; pb.Next(); seq++ {
				start := time.Now()
				if _, err := s.AppendAction(ctx, benchAction(id, seq)); err != nil {
					b.Errorf("AppendAction(%s, seq %d) = %v", id, seq, err)
					return
				}
				mine = append(mine, time.Since(start))
			}
			mu.Lock()
			latencies = append(latencies, mine...)
			mu.Unlock()
		})
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "appends/s")
		if len(latencies) > 0 {
			slices.Sort(latencies)
			p99 := latencies[len(latencies)*99/100]
			b.ReportMetric(float64(p99)/float64(time.Millisecond), "p99-ms")
		}
	})
}

// benchAction is action seq of battle id as the benchmarks append it.
func benchAction(id string, seq int) *volley.ActionRecord {
	return &volley.ActionRecord{
		BattleID:       id,
		Seq:            seq,
		Side:           "red",
		Body:           "fire:\n  unit: tiger-1\n  weapon: kwk36\n  at: sherman-3\n",
		Outcome:        benchOutcome,
		IdempotencyKey: fmt.Sprintf("%s-%d", id, seq),
	}
}
