package http_test

import (
	"bufio"
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/volley-wargames/volley/servertest"
	"github.com/volley-wargames/volley/storetest"
)

// fanoutSubscribers is the benchmark's audience: a thousand streams on one battle.
const fanoutSubscribers = 1000

// BenchmarkFanout opens 1,000 event streams on one battle over loopback, then posts
// actions (each side ending its turn in turn, the cheapest actions there are) and
// measures, for each, the time from the action's acknowledgement (its POST answered) to
// the receipt of its event by the last of the 1,000. It reports the p50 and p99 over the
// actions (run with -benchtime=200x for figures; the suite runs one action).
//
//   - sqlite: one server holds every stream and takes the actions.
//   - postgres: two servers over one PostgreSQL database, 500 streams on each, the
//     actions posted to the first: half the audience hears through LISTEN/NOTIFY.
func BenchmarkFanout(b *testing.B) {
	var lim syscall.Rlimit // 2,000 sockets in one process: raise the soft limit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err == nil && lim.Cur < lim.Max {
		lim.Cur = lim.Max
		_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
	}
	limits := servertest.Limits()
	limits.StreamsPerClient = 2 * fanoutSubscribers
	limits.StreamsPerBattle = 2 * fanoutSubscribers
	limits.StreamsPerTicket = 2 * fanoutSubscribers // one ticket opens them all
	b.Run("sqlite", func(b *testing.B) {
		fanout(b, []string{servertest.Serve(b, servertest.SQLite(b), limits).URL})
	})
	b.Run("postgres", func(b *testing.B) {
		url := storetest.PostgresURL(b)
		fanout(b, []string{servertest.Serve(b, storetest.Postgres(b, url), limits).URL, servertest.Serve(b, storetest.Postgres(b, url), limits).URL})
	})
}

// fanout runs the benchmark with the streams spread over the servers at bases, the
// actions posted to the first.
func fanout(b *testing.B, bases []string) {
	id, tokens := battle(b, bases[0], example(b, "dropzone/sabres.yaml"))
	tk := ticket(b, bases[0], id, watch(id))

	// got[seq] counts the streams that have the action; last[seq] is when the last did.
	var mu sync.Mutex
	got := map[int]int{}
	last := map[int]time.Time{}
	all := map[int]chan struct{}{}
	done := func(seq int) chan struct{} {
		if all[seq] == nil {
			all[seq] = make(chan struct{})
		}
		return all[seq]
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 0, MaxIdleConnsPerHost: fanoutSubscribers}}
	var ready sync.WaitGroup
	for i := range fanoutSubscribers {
		ready.Add(1)
		go func() {
			req, _ := http.NewRequestWithContext(ctx, "GET", bases[i%len(bases)]+"/api/battles/"+id+"/events?ticket="+tk, nil)
			resp, err := client.Do(req)
			if err != nil || resp.StatusCode != http.StatusOK {
				b.Errorf("stream: %v %v", err, resp)
				ready.Done()
				return
			}
			defer resp.Body.Close()
			sc := bufio.NewScanner(resp.Body)
			sc.Buffer(make([]byte, 64<<10), 1<<20)
			hello := false
			for sc.Scan() {
				line := sc.Text()
				if !hello && strings.HasPrefix(line, "event: hello") {
					hello = true
					ready.Done()
				}
				if seq, ok := strings.CutPrefix(line, "id: "); ok {
					n, _ := strconv.Atoi(seq)
					now := time.Now()
					mu.Lock()
					got[n]++
					if got[n] == fanoutSubscribers {
						last[n] = now
						close(done(n))
					}
					mu.Unlock()
				}
			}
		}()
	}
	ready.Wait()
	sides := []string{"UCM", "Scourge"}
	var lat []time.Duration
	seq := 0
	for b.Loop() {
		mu.Lock()
		wait := done(seq)
		mu.Unlock()
		status, v := call(b, "POST", bases[0]+"/api/battles/"+id+"/actions", tokens[sides[seq%2]], "", []byte(`{type: end_turn}`))
		acked := time.Now()
		if status != http.StatusOK {
			b.Fatalf("action %d: %d %v", seq, status, v)
		}
		select {
		case <-wait:
		case <-time.After(30 * time.Second):
			b.Fatalf("action %d reached %d of %d streams in 30 s", seq, got[seq], fanoutSubscribers)
		}
		mu.Lock()
		lat = append(lat, max(0, last[seq].Sub(acked)))
		mu.Unlock()
		seq++
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(fanoutSubscribers, "streams")
}
