package http_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/postgres"
)

// The load test is bounded both ways: it stops after loadActions acknowledged actions
// or loadTime, whichever comes first. Its figures go to docs/benchmarks.md; it asserts
// only that nothing acknowledged was lost or doubled, never a speed.
const (
	loadClients = 16
	loadActions = 20000
	loadTime    = 20 * time.Second
)

func TestLoadSQLite(t *testing.T) { load(t, sqliteStore(t)) }

func TestLoadPostgres(t *testing.T) {
	url := os.Getenv("VOLLEY_TEST_POSTGRES")
	if url == "" {
		if os.Getenv("VOLLEY_REQUIRE_POSTGRES") != "" {
			t.Fatal("VOLLEY_REQUIRE_POSTGRES is set but VOLLEY_TEST_POSTGRES is not: the PostgreSQL server did not start")
		}
		t.Skip("VOLLEY_TEST_POSTGRES not set: scripts/test starts a PostgreSQL server and sets it")
	}
	s, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	load(t, s)
}

// load drives the API with concurrent clients, each acting on its own battle, over
// loopback HTTP, and reports acknowledged actions per second and latency percentiles.
func load(t *testing.T, store volley.Store) {
	if testing.Short() {
		t.Skip("the load test is skipped in -short mode")
	}
	ts := serve(t, store)
	ids := make([]string, loadClients)
	tokens := make([]map[string]string, loadClients)
	for i := range ids {
		ids[i], tokens[i] = battle(t, ts.URL, example(t, "dropzone/equalizer-vs-hunter.yaml"))
	}
	// A round of play: the UCM's sabre shoots and ends its turn, the Scourge ends theirs.
	round := []struct {
		side string
		body []byte
	}{{"UCM", equalizerShot}, {"UCM", []byte("type: end_turn\n")}, {"Scourge", []byte("type: end_turn\n")}}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: loadClients}}
	deadline := time.Now().Add(loadTime)
	var (
		mu        sync.Mutex
		latencies []time.Duration
		acked     = make([]int, loadClients)
		failures  int
	)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range loadClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u := ts.URL + "/api/battles/" + ids[i] + "/actions"
			for n := 0; time.Now().Before(deadline); n++ {
				mu.Lock()
				done := len(latencies) >= loadActions
				mu.Unlock()
				if done {
					return
				}
				move := round[n%len(round)]
				req, _ := http.NewRequest("POST", u, bytes.NewReader(move.body))
				req.Header.Set("Authorization", "Bearer "+tokens[i][move.side])
				t0 := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				took := time.Since(t0)
				mu.Lock()
				if resp.StatusCode == http.StatusOK {
					latencies = append(latencies, took)
					acked[i]++
				} else {
					failures++
					n-- // play the same move again
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	slices.Sort(latencies)
	pct := func(p float64) time.Duration { return latencies[int(p*float64(len(latencies)-1))] }
	if len(latencies) == 0 {
		t.Fatal("no action was acknowledged")
	}
	t.Logf("%d clients: %d actions acknowledged in %.2f s = %.0f actions/s; latency p50 %.2f ms, p99 %.2f ms, max %.2f ms; %d refused",
		loadClients, len(latencies), elapsed.Seconds(), float64(len(latencies))/elapsed.Seconds(),
		ms(pct(0.50)), ms(pct(0.99)), ms(latencies[len(latencies)-1]), failures)
	if failures > 0 {
		t.Errorf("%d actions were refused under load", failures)
	}
	// Nothing acknowledged was lost, nothing was stored twice.
	for i, id := range ids {
		acts, err := store.Actions(context.Background(), id, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(acts) != acked[i] {
			t.Errorf("battle %s: %d acknowledged, %d stored", id, acked[i], len(acts))
		}
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
