package http_test

import (
	"bytes"
	"context"
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
	"github.com/volley-wargames/volley/servertest"
	"github.com/volley-wargames/volley/storetest"
)

// The load test is bounded both ways: it stops after loadActions acknowledged actions
// or loadTime, whichever comes first. Its figures go to docs/benchmarks.md; it asserts
// only that nothing acknowledged was lost or doubled, never a speed.
const (
	loadClients = 16
	loadActions = 20000
	loadTime    = 20 * time.Second
)

func TestLoadSQLite(t *testing.T) { load(t, servertest.SQLite(t)) }

func TestLoadPostgres(t *testing.T) {
	load(t, storetest.Postgres(t, storetest.PostgresURL(t)))
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

// Under attack: attackers send the worst inputs the three rounds of hostile testing
// found, all together, while playClients play, each from its own loopback address (so each has
// its own rates and its own share). The players first play alone for baselineTime, then
// under attack for attackTime; their latencies and completed requests in both go to
// docs/benchmarks.md. The test asserts that nothing a player was acknowledged is lost,
// that no player was refused, and that no attack got a 500.
const (
	attackClients = 8
	playClients   = 8
	baselineTime  = 6 * time.Second
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

// played is what the honest players saw in one phase.
type played struct {
	mu        sync.Mutex
	latencies []time.Duration
	acked     []int
	refused   map[int]int
}

func (p *played) String() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.latencies) == 0 {
		return "no request answered"
	}
	l := slices.Sorted(slices.Values(p.latencies))
	pct := func(q float64) time.Duration { return l[int(q*float64(len(l)-1))] }
	return fmt.Sprintf("%d requests completed, p50 %.2f ms, p99 %.2f ms, max %.2f ms; refused %v",
		len(l), ms(pct(0.50)), ms(pct(0.99)), ms(l[len(l)-1]), p.refused)
}

// play runs the honest players until deadline: each looks at the odds, then acts.
func play(t *testing.T, base string, ids []string, tokens []map[string]string, deadline time.Time) *played {
	p := &played{acked: make([]int, len(ids)), refused: map[int]int{}}
	round := []struct {
		side string
		body []byte
	}{{"UCM", equalizerShot}, {"UCM", []byte("type: end_turn\n")}, {"Scourge", []byte("type: end_turn\n")}}
	var wg sync.WaitGroup
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := clientFrom(fmt.Sprintf("127.0.0.%d", 30+i))
			u := base + "/api/battles/" + ids[i]
			// Where this player is in its round: the log says (a phase may end mid-round).
			n := len(send(t, "GET", u+"/log", tokens[i]["UCM"], nil).json(t)["actions"].([]any))
			for time.Now().Before(deadline) {
				time.Sleep(playPace)
				look := timed(t, c, "POST", u+"/odds", tokens[i]["UCM"], equalizerShot)
				move := round[n%len(round)]
				r := timed(t, c, "POST", u+"/actions", tokens[i][move.side], move.body)
				p.mu.Lock()
				p.latencies = append(p.latencies, look.took, r.took)
				if look.status != 200 {
					p.refused[look.status]++
				}
				if r.status == 200 {
					p.acked[i]++
					n++
				} else {
					p.refused[r.status]++
				}
				p.mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return p
}

// timed sends a request with c and times its answer.
func timed(t *testing.T, c *http.Client, method, u, token string, body []byte) answer {
	req, _ := http.NewRequest(method, u, bytes.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	t0 := time.Now()
	resp, err := c.Do(req)
	if err != nil {
		return answer{} // status 0: not answered, which fails the test
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return answer{status: resp.StatusCode, took: time.Since(t0)}
}

// battleFrom is battle, created from the loopback address ip.
func battleFrom(tb testing.TB, ip, base string, scenario []byte) (string, map[string]string) {
	tb.Helper()
	a := sendFrom(tb, ip, "POST", base+"/api/battles", "", scenario)
	v := a.json(tb)
	if a.status != http.StatusCreated {
		tb.Fatalf("create from %s: %d %v", ip, a.status, v)
	}
	tokens := map[string]string{}
	for side, t := range v["tokens"].(map[string]any) {
		tokens[side] = t.(string)
	}
	spectators.Store(v["id"].(string), v["spectator"].(string))
	return v["id"].(string), tokens
}

// many sends k requests at once (send(i) each), reports the status of all but the first
// to also, and returns the first's.
func many(k int, send func(i int) int, also func(status int)) int {
	var wg sync.WaitGroup
	statuses := make([]int, k)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = send(i)
		}()
	}
	wg.Wait()
	for _, s := range statuses[1:] {
		also(s)
	}
	return statuses[0]
}

func TestLoadUnderAttack(t *testing.T) {
	if testing.Short() {
		t.Skip("the load test is skipped in -short mode")
	}
	store := servertest.SQLite(t)
	srv := servertest.New(store, vhttp.DefaultLimits())
	ts := servertest.Start(t, srv)
	ids := make([]string, playClients)
	tokens := make([]map[string]string, playClients)
	for i := range ids {
		ids[i], tokens[i] = battle(t, ts.URL, example(t, "dropzone/equalizer-vs-hunter.yaml"))
	}
	// Alone first: the baseline.
	alone := play(t, ts.URL, ids, tokens, time.Now().Add(baselineTime))
	t.Logf("baseline, %d players alone for %v: %s", playClients, baselineTime, alone)

	// The attackers' own battles: the heaviest legal odds, a danger map, a long log.
	heavyScenario, heavyAim := crowd(8, 1)
	_, overBudget := crowd(333, 2)
	hostile := [][]byte{
		[]byte("ruleset: dropzone\nx: -'\ny: " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n# '\n"),
		[]byte(billionLaughs("ruleset: warengine\nunits: [{id: a, type: t, side: x, at: [0, 0], targets: [{weapon: w, at: *l9}]}]\n")),
		[]byte(unknownKeys()),
		[]byte(polygonScenario(40000)),
		[]byte(swarm(t, 350, 3000)),
		[]byte(strings.Replace(string(example(t, "dropzone/sabres.yaml")), "sabre-1", "s\u0430bre-1", -1)),
	}
	crowdID, crowdTokens := battle(t, ts.URL, []byte(heavyScenario))
	mapID, _ := battle(t, ts.URL, crossfire(t))
	logID := bigLog(t, ts.URL, 60)
	// The third round's: a table of forty pieces of 64 corners whose position maps ran
	// for minutes before their price; a map within its price (heavy work that runs); a
	// table of 100 such pieces and 300 bases whose previews and exports were light.
	// The attackers make these themselves, each from an address of its own.
	corneredID, _ := battleFrom(t, "127.0.0.10", ts.URL, corneredTable(40, 64, 4))
	positionID, _ := battleFrom(t, "127.0.0.11", ts.URL, example(t, "dropzone/position.yaml"))
	bigID, bigTokens := battleFrom(t, "127.0.0.12", ts.URL, corneredTable(100, 64, 300))
	bigPreview := []byte(`{"move": {"type": "move", "unit": "runner", "path": [[44, 47]]}}`)
	var (
		mu       sync.Mutex
		attacks  = map[string]map[int]int{}
		deadline = time.Now().Add(attackTime)
		wg       sync.WaitGroup
	)
	hit := func(kind string, status int) {
		mu.Lock()
		defer mu.Unlock()
		if attacks[kind] == nil {
			attacks[kind] = map[int]int{}
		}
		attacks[kind][status]++
	}
	attack := func(a int, kind string, f func(c *http.Client, ip string, n int) int) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ip := fmt.Sprintf("127.0.0.%d", 10+a)
			c := clientFrom(ip)
			for n := 0; time.Now().Before(deadline); n++ {
				hit(kind, f(c, ip, n))
			}
		}()
	}
	for a := range attackClients {
		// The first round's attacks: hostile scenarios, the heaviest legal odds,
		// over-budget aims, tokenless aims.
		attack(a, "first round", func(c *http.Client, ip string, n int) int {
			switch n % 4 {
			case 0:
				return timed(t, c, "POST", ts.URL+"/api/battles", "", hostile[n/4%len(hostile)]).status
			case 1:
				return timed(t, c, "POST", ts.URL+"/api/battles/"+crowdID+"/odds", crowdTokens["A"], []byte(heavyAim)).status
			case 2:
				return timed(t, c, "POST", ts.URL+"/api/battles/"+crowdID+"/aim", crowdTokens["A"], []byte(overBudget)).status
			}
			return timed(t, c, "POST", ts.URL+"/api/battles/"+ids[a%playClients]+"/aim", "", []byte(billionLaughs("target: *l9\n"))).status
		})
		// Danger maps by the dozen, at once.
		attack(a, "danger flood", func(c *http.Client, ip string, n int) int {
			var inner sync.WaitGroup
			statuses := make([]int, 12)
			for i := range statuses {
				inner.Add(1)
				go func() {
					defer inner.Done()
					statuses[i] = timed(t, c, "GET", dangerURL(ts.URL, mapID, 0.5), watch(mapID), nil).status
				}()
			}
			inner.Wait()
			for _, s := range statuses[1:] {
				hit("danger flood", s)
			}
			return statuses[0]
		})
		// Bodies at a byte a second with a bogus token.
		attack(a, "slow bodies", func(c *http.Client, ip string, n int) int {
			conn := slowRequest(t, ts.URL, ip, "POST", "/api/battles/"+ids[a%playClients]+"/actions", strings.Repeat("0", 32), 1000)
			defer conn.Close()
			status, _ := statusWithin(conn, 5*time.Second)
			return status
		})
		// Streams that never read a long log, from its start; and the largest ids.
		attack(a, "deaf streams", func(c *http.Client, ip string, n int) int {
			tk := ticket(t, ts.URL, logID, watch(logID))
			conn := deafStream(t, ts.URL, ip, logID, tk, "-1")
			time.Sleep(time.Second)
			conn.Close()
			req, _ := http.NewRequest("GET", ts.URL+"/api/battles/"+logID+"/events?ticket="+tk, nil)
			req.Header.Set("Last-Event-ID", "9223372036854775807")
			resp, err := c.Do(req)
			if err != nil {
				return 0
			}
			resp.Body.Close()
			return resp.StatusCode
		})
		// The long log, read again and again.
		attack(a, "log reads", func(c *http.Client, ip string, n int) int {
			return timed(t, c, "GET", ts.URL+"/api/battles/"+logID+"/log", watch(logID), nil).status
		})
		// Position maps by the dozen: on the cornered table (refused at once, by the price
		// of their ways), and within their price (heavy work that runs).
		attack(a, "position flood", func(c *http.Client, ip string, n int) int {
			return many(12, func(i int) int {
				if i%2 == 0 {
					return timed(t, c, "GET", ts.URL+"/api/battles/"+corneredID+"/position?unit=runner", watch(corneredID), nil).status
				}
				return timed(t, c, "GET", ts.URL+"/api/battles/"+positionID+"/position?unit=sabre-1&step=0.5", watch(positionID), nil).status
			}, func(s int) { hit("position flood", s) })
		})
		// Previews and exports of the big table, sixteen at a time from one address.
		attack(a, "preview/export flood", func(c *http.Client, ip string, n int) int {
			return many(16, func(i int) int {
				if i%2 == 0 {
					return timed(t, c, "POST", ts.URL+"/api/battles/"+bigID+"/preview", bigTokens["UCM"], bigPreview).status
				}
				return timed(t, c, "GET", ts.URL+"/api/battles/"+bigID+"/scenario", watch(bigID), nil).status
			}, func(s int) { hit("preview/export flood", s) })
		})
	}
	under := play(t, ts.URL, ids, tokens, deadline)
	wg.Wait()
	t.Logf("under attack by %d addresses for %v (answers %v), %d players: %s", attackClients, attackTime, attacks, playClients, under)
	for kind, statuses := range attacks {
		if statuses[500] > 0 || statuses[0] > 0 {
			t.Errorf("%s answered 500 or not at all: %v", kind, statuses)
		}
	}
	for _, p := range []*played{alone, under} {
		if len(p.refused) > 0 {
			t.Errorf("players were refused: %v", p.refused)
		}
	}
	for i, id := range ids {
		acts, err := store.Actions(context.Background(), id, 0, volley.AllActions)
		if err != nil {
			t.Fatal(err)
		}
		if len(acts) != alone.acked[i]+under.acked[i] {
			t.Errorf("battle %s: %d acknowledged, %d stored", id, alone.acked[i]+under.acked[i], len(acts))
		}
	}
}
