package http_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/volley-wargames/volley"
	vhttp "github.com/volley-wargames/volley/http"
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
	load(t, openPostgres(t, postgresURL(t)))
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
		acts, err := store.Actions(context.Background(), id, 0, volley.AllActions)
		if err != nil {
			t.Fatal(err)
		}
		if len(acts) != acked[i] {
			t.Errorf("battle %s: %d acknowledged, %d stored", id, acked[i], len(acts))
		}
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Under attack: attackClients send the worst inputs the issue found while playClients
// play, each from its own loopback address (so each has its own rates). Bounded by
// attackTime. The players' latencies go to docs/benchmarks.md; the test asserts that
// nothing a player was acknowledged is lost, and that no attack got a 500.
const (
	attackClients = 8
	playClients   = 8
	attackTime    = 12 * time.Second
	// playPace is how often a player acts: a brisk human at a table, or a page that
	// asks for aims while the pointer moves.
	playPace = 50 * time.Millisecond
)

// clientFrom is an HTTP client whose connections come from a loopback address of its
// own: Linux routes all of 127.0.0.0/8 to the loopback interface.
func clientFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 4}, Timeout: 30 * time.Second}
}

func TestLoadUnderAttack(t *testing.T) {
	if testing.Short() {
		t.Skip("the load test is skipped in -short mode")
	}
	store := sqliteStore(t)
	ts := serveWith(t, store, vhttp.DefaultLimits())
	// The attackers' own battle, where their heaviest legal aims are computed.
	heavyScenario, heavyAim := crowd(8, 1)
	_, overBudget := crowd(333, 2)
	hostile := [][]byte{
		[]byte("ruleset: dropzone\nx: -'\ny: " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n# '\n"),
		[]byte(billionLaughs("ruleset: warengine\nunits: [{id: a, type: t, side: x, at: [0, 0], targets: [{weapon: w, at: *l9}]}]\n")),
		[]byte(unknownKeys()),
		[]byte(polygonScenario(40000)),
	}
	type result struct {
		status int
		took   time.Duration
	}
	var (
		mu       sync.Mutex
		attacks  = map[int]int{}
		played   []time.Duration
		acked    = make([]int, playClients)
		refused  = map[int]int{}
		ids      = make([]string, playClients)
		tokens   = make([]map[string]string, playClients)
		deadline = time.Now().Add(attackTime)
	)
	post := func(c *http.Client, method, u, token string, body []byte) result {
		req, _ := http.NewRequest(method, u, bytes.NewReader(body))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		t0 := time.Now()
		resp, err := c.Do(req)
		if err != nil {
			t.Error(err)
			return result{}
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return result{resp.StatusCode, time.Since(t0)}
	}
	for i := range ids {
		ids[i], tokens[i] = battle(t, ts.URL, example(t, "dropzone/equalizer-vs-hunter.yaml"))
	}
	var wg sync.WaitGroup
	for a := range attackClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := clientFrom(fmt.Sprintf("127.0.0.%d", 10+a))
			// Its own battle to aim at: created first, within its rate.
			req, _ := http.NewRequest("POST", ts.URL+"/api/battles", strings.NewReader(heavyScenario))
			resp, err := c.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			var created vhttp.Created
			json.NewDecoder(resp.Body).Decode(&created)
			resp.Body.Close()
			for n := 0; time.Now().Before(deadline); n++ {
				var r result
				switch n % 4 {
				case 0:
					r = post(c, "POST", ts.URL+"/api/battles", "", hostile[n/4%len(hostile)])
				case 1:
					r = post(c, "POST", ts.URL+"/api/battles/"+created.ID+"/odds", created.Spectator, []byte(heavyAim))
				case 2:
					r = post(c, "POST", ts.URL+"/api/battles/"+created.ID+"/aim", created.Spectator, []byte(overBudget))
				case 3:
					r = post(c, "POST", ts.URL+"/api/battles/"+ids[a%playClients]+"/aim", "", []byte(billionLaughs("target: *l9\n")))
				}
				mu.Lock()
				attacks[r.status]++
				mu.Unlock()
			}
		}()
	}
	round := []struct {
		side string
		body []byte
	}{{"UCM", equalizerShot}, {"UCM", []byte("type: end_turn\n")}, {"Scourge", []byte("type: end_turn\n")}}
	for p := range playClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := clientFrom(fmt.Sprintf("127.0.0.%d", 30+p))
			u := ts.URL + "/api/battles/" + ids[p]
			for n := 0; time.Now().Before(deadline); n++ {
				time.Sleep(playPace)
				// A look at the odds, then the move.
				look := post(c, "POST", u+"/odds", tokens[p]["UCM"], equalizerShot)
				move := round[n%len(round)]
				r := post(c, "POST", u+"/actions", tokens[p][move.side], move.body)
				mu.Lock()
				played = append(played, look.took, r.took)
				if look.status != 200 {
					refused[look.status]++
				}
				if r.status == 200 {
					acked[p]++
				} else {
					refused[r.status]++
					n--
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(played) == 0 {
		t.Fatal("no player was answered")
	}
	slices.Sort(played)
	pct := func(q float64) time.Duration { return played[int(q*float64(len(played)-1))] }
	t.Logf("under attack by %d clients (answers %v), %d players: %d requests, p50 %.2f ms, p99 %.2f ms, max %.2f ms; refused %v",
		attackClients, attacks, playClients, len(played), ms(pct(0.50)), ms(pct(0.99)), ms(played[len(played)-1]), refused)
	if attacks[500] > 0 || attacks[0] > 0 {
		t.Errorf("attacks answered 500 or not at all: %v", attacks)
	}
	if len(refused) > 0 {
		t.Errorf("players were refused: %v", refused)
	}
	for i, id := range ids {
		acts, err := store.Actions(context.Background(), id, 0, volley.AllActions)
		if err != nil {
			t.Fatal(err)
		}
		if len(acts) != acked[i] {
			t.Errorf("battle %s: %d acknowledged, %d stored", id, acked[i], len(acts))
		}
	}
}
