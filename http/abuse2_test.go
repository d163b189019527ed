package http_test

// The second round of the hostile client (abuse_test.go is the first): what broke on the
// newer surface (danger maps, advice, event streams, logs) and in how requests share the
// server. Each test sends the attack of the issue that found it, bounded in count and
// time, and checks what an honest client sees meanwhile.

import (
	"bufio"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	vhttp "github.com/volley-wargames/volley/http"
	"github.com/volley-wargames/volley/servertest"
	"github.com/volley-wargames/volley/sqlite"
)

// swarm is the WarStrike demo with enemy units of models models in all (50 a unit, the
// most one may have) and mounds of edges edges in all (60 a mound): a danger map of it
// would look from every model at every point, past every edge.
func swarm(tb testing.TB, models, edges int) string {
	tb.Helper()
	src := string(example(tb, "warstrike/demo.yaml"))
	var hills strings.Builder
	for h := 0; edges > 0; h++ {
		n := min(edges, 60)
		edges -= n
		fmt.Fprintf(&hills, "  - {id: mound-%d, name: mound, kind: hill, height: 1, polygon: [", h)
		for i := range n {
			a := 2 * math.Pi * float64(i) / float64(n)
			fmt.Fprintf(&hills, "[%.4f, %.4f], ", 50+3*float64(h%10)+math.Cos(a), 40+3*float64(h/10)+math.Sin(a))
		}
		hills.WriteString("]}\n")
	}
	src = strings.Replace(src, "terrain:\n", "terrain:\n"+hills.String(), 1)
	var horde strings.Builder
	for u := 0; u*50 < models; u++ {
		fmt.Fprintf(&horde, "  - id: horde-%d\n    name: Horde %d\n    side: Ironclad\n    base: 1\n    height: 1.2\n    weapon: rifle\n    armour: 3\n    toughness: 3\n    models:\n", u, u)
		for i := range min(50, models-u*50) {
			fmt.Fprintf(&horde, "      - {id: horde-%d-%d, at: [%d, %d]%s}\n", u, i, -40+2*(i%25), 40+4*u+2*(i/25), map[bool]string{true: ", leader: true"}[i == 0])
		}
	}
	return strings.Replace(src, "units:\n", "units:\n"+horde.String(), 1)
}

// crossfire is examples/dropzone/crossfire.yaml, whose danger map at a step of 0.5" is
// about 2×10⁸ steps of work, and a fifth of a second.
func crossfire(tb testing.TB) []byte { return example(tb, "dropzone/crossfire.yaml") }

// dangerURL is the URL of a danger map of crossfire at a step.
func dangerURL(base, id string, step float64) string {
	q := url.Values{"side": {"UCM"}, "as": {"Sabre"}, "step": {fmt.Sprint(step)}}
	return base + "/api/battles/" + id + "/danger?" + q.Encode()
}

// logServer is a server whose access log the test reads.
func logServer(tb testing.TB, limits vhttp.Limits) (*vhttp.Server, *httptest.Server, *syncBuffer) {
	tb.Helper()
	return logServerOn(tb, servertest.SQLite(tb), limits)
}

// logServerOn is logServer over a store the test holds.
func logServerOn(tb testing.TB, store volley.Store, limits vhttp.Limits) (*vhttp.Server, *httptest.Server, *syncBuffer) {
	tb.Helper()
	var logs syncBuffer
	srv := vhttp.NewServer(store, slog.New(slog.NewTextHandler(&logs, nil)), limits)
	ts := servertest.Start(tb, srv)
	return srv, ts, &logs
}

// sendFrom is send from a loopback address of its own (see clientFrom).
func sendFrom(tb testing.TB, ip, method, u, token string, body []byte) answer {
	tb.Helper()
	req := servertest.Request(tb, method, u, token, body)
	t0 := time.Now()
	resp, err := clientFrom(ip).Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header, raw, time.Since(t0)}
}

// TestDangerPricedBeforeItStarts (1): a WarStrike map with 350 enemy models and three
// thousand terrain edges ran 52.6 s past its 15 s deadline. It is priced by the model
// that prices actions, and refused at once with a 400 naming the limit and the step.
func TestDangerPricedBeforeItStarts(t *testing.T) {
	_, ts := serveServer(t, servertest.Limits())
	id, _ := battle(t, ts.URL, []byte(swarm(t, 350, 3000)))
	q := url.Values{"side": {"Verdant"}, "as": {"raiders"}}
	a := send(t, "GET", ts.URL+"/api/battles/"+id+"/danger?"+q.Encode(), watch(id), nil)
	v := a.json(t)
	if a.status != 400 || v["field"] != "step" || !strings.Contains(fmt.Sprint(v["message"]), "volley.MaxWork") {
		t.Errorf("the swarm's danger map: %d %v; want 400 at step naming volley.MaxWork", a.status, v)
	}
	if a.took > 2*time.Second {
		t.Errorf("refused in %v: the price is found without doing the work", a.took)
	}
	t.Logf("refused in %v: %s", a.took.Round(time.Millisecond), v["message"])
}

// TestHeavyWorkStopsAtItsDeadline (1): a map within its price but past the request's
// deadline stops within a point's work of it, and answers 503; a client that goes away
// cancels its map, and the heavy place is free for the next at once.
func TestHeavyWorkStopsAtItsDeadline(t *testing.T) {
	limits := servertest.Limits()
	limits.RequestTimeout = 300 * time.Millisecond
	limits.Heavy = 1
	store := servertest.SQLite(t)
	_, ts, logs := logServerOn(t, store, limits)
	id, _ := battle(t, ts.URL, crossfire(t))
	// The swarm's map, few points each costly, is heavy where sight is sampled by rays:
	// a battle begun under edition 3 (exact sight prices it past the limit and then runs
	// it in a fraction of the deadline).
	swarmID, _ := sampledBattle(t, store, "warstrike", swarm(t, 380, 1500), "Ironclad", "Verdant")
	for _, tc := range []struct{ what, url string }{
		// 78,000 points: about 1.8×10⁹ steps, seconds of work on this machine's two cores.
		{"crossfire at 0.19\"", dangerURL(ts.URL, id, 0.19)},
		// Few points, each costly: long rows (the WarStrike map ran 52.6 s).
		{"380 WarStrike models at 20\"", ts.URL + "/api/battles/" + swarmID + "/danger?" + url.Values{"side": {"Verdant"}, "as": {"raiders"}, "step": {"20"}}.Encode()},
	} {
		a := send(t, "GET", tc.url, watch(id), nil)
		if tc.what[0] == '3' {
			a = send(t, "GET", tc.url, watch(swarmID), nil)
		}
		if a.status != 503 {
			t.Fatalf("%s past its deadline: %d %.200s", tc.what, a.status, a.body)
		}
		over := a.took - limits.RequestTimeout
		t.Logf("%s: answered %v after the deadline", tc.what, over.Round(time.Millisecond))
		if over > time.Second {
			t.Errorf("%s: answered %v after the deadline; a map stops within a point's work of it", tc.what, over)
		}
	}

	// A client that gives up after 100 ms: its map stops (the access log has it) long
	// before it would have ended.
	limits.RequestTimeout = 30 * time.Second
	_, ts, logs = logServer(t, limits)
	id, _ = battle(t, ts.URL, crossfire(t))
	req, _ := http.NewRequest("GET", dangerURL(ts.URL, id, 0.19), nil)
	req.Header.Set("Authorization", "Bearer "+watch(id))
	if _, err := (&http.Client{Timeout: 100 * time.Millisecond}).Do(req); err == nil {
		t.Fatal("the map answered within 100 ms")
	}
	gone := time.Now()
	for !strings.Contains(logs.String(), "/danger") {
		if time.Since(gone) > 5*time.Second {
			t.Fatal("the abandoned map was still running 5 s later")
		}
		time.Sleep(5 * time.Millisecond)
	}
	stopped := time.Since(gone)
	t.Logf("the abandoned map stopped %v after its client left", stopped.Round(time.Millisecond))
	if stopped > time.Second {
		t.Errorf("the abandoned map stopped %v after its client left", stopped)
	}
	// The heavy place is free: a small map is answered in its own time.
	if a := send(t, "GET", dangerURL(ts.URL, id, 1), watch(id), nil); a.status != 200 || a.took > 5*time.Second {
		t.Errorf("the next map: %d in %v", a.status, a.took)
	}
}

// TestHeavyWaitHoldsNoSlot (2): seventy legal danger requests from one address took every
// request slot while they waited for the heavy one, and no honest request completed for
// 30 s. Heavy requests wait outside the slots, two an address at most.
func TestHeavyWaitHoldsNoSlot(t *testing.T) {
	limits := servertest.Limits()
	limits.InFlight = 8
	limits.Heavy = 1
	_, ts := serveServer(t, limits)
	id, _ := battle(t, ts.URL, crossfire(t))
	var wg sync.WaitGroup
	statuses := map[int]int{}
	var mu sync.Mutex
	for range 70 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := sendFrom(t, "127.0.0.2", "GET", dangerURL(ts.URL, id, 0.5), watch(id), nil)
			mu.Lock()
			statuses[a.status]++
			mu.Unlock()
		}()
	}
	time.Sleep(50 * time.Millisecond)
	worst := time.Duration(0)
	for range 20 {
		a := sendFrom(t, "127.0.0.3", "GET", ts.URL+"/api/battles/"+id, watch(id), nil)
		if a.status != 200 {
			t.Errorf("an honest read during the flood: %d %.200s", a.status, a.body)
		}
		worst = max(worst, a.took)
	}
	wg.Wait()
	t.Logf("flood answers %v; the slowest honest read took %v", statuses, worst.Round(time.Millisecond))
	if worst > 2*time.Second {
		t.Errorf("an honest read took %v during the flood", worst)
	}
	if statuses[429] == 0 || statuses[500] > 0 {
		t.Errorf("seventy maps from one address: %v; want most refused with 429", statuses)
	}
}

// slowRequest sends a request's head and the first byte of a body of n bytes from ip, and
// returns the connection: the rest comes a byte at a time, or never.
func slowRequest(tb testing.TB, base, ip, method, path, token string, n int) net.Conn {
	tb.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	c, err := d.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	fmt.Fprintf(c, "%s %s HTTP/1.1\r\nHost: volley\r\nAuthorization: Bearer %s\r\nContent-Length: %d\r\n\r\nt", method, path, token, n)
	return c
}

// statusWithin reads the status line of an answer on c, waiting at most d.
func statusWithin(c net.Conn, d time.Duration) (int, error) {
	c.SetReadDeadline(time.Now().Add(d))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return 0, err
	}
	var status int
	_, err = fmt.Sscanf(line, "HTTP/1.1 %d", &status)
	return status, err
}

// TestSlowBodies (3): uploads at a byte a second with a bogus token held every slot until
// the read timeout, since the body was read before the token was checked. The token is
// checked first, and a body must arrive at Limits.MinUploadRate.
func TestSlowBodies(t *testing.T) {
	limits := servertest.Limits()
	limits.InFlight = 8
	limits.UploadGrace = 500 * time.Millisecond
	_, ts := serveServer(t, limits)
	id, tokens := battle(t, ts.URL, example(t, "dropzone/sabres.yaml"))
	var conns []net.Conn
	for i := range 40 {
		conns = append(conns, slowRequest(t, ts.URL, fmt.Sprintf("127.0.1.%d", 1+i/10), "POST", "/api/battles/"+id+"/actions", strings.Repeat("0", 32), 1000))
	}
	// A valid token and a trickled body: cut off once the grace is over.
	honestButSlow := slowRequest(t, ts.URL, "127.0.1.9", "POST", "/api/battles/"+id+"/actions", tokens["UCM"], 1000)
	for i, c := range conns {
		if status, err := statusWithin(c, 2*time.Second); status != 403 {
			t.Fatalf("slow upload %d with a bogus token: %d %v; want 403 before its body", i, status, err)
		}
	}
	for range 10 {
		if a := sendFrom(t, "127.0.1.20", "GET", ts.URL+"/api/battles/"+id, watch(id), nil); a.status != 200 || a.took > time.Second {
			t.Errorf("an honest read beside forty slow uploads: %d in %v", a.status, a.took)
		}
	}
	if status, err := statusWithin(honestButSlow, 5*time.Second); status != 408 {
		t.Errorf("an upload at a byte a second: %d %v; want 408 once the grace is over", status, err)
	}
}

// bigLog makes a battle whose log holds n actions of about 60 KB each, every one a
// comment of '<' (which JSON escaping would make six times longer), and returns its id.
func bigLog(tb testing.TB, base string, n int) string {
	tb.Helper()
	id, tokens := battle(tb, base, example(tb, "dropzone/equalizer-vs-hunter.yaml"))
	pad := "# " + strings.Repeat("<", 60_000) + "\n"
	sides := []string{"UCM", "Scourge"}
	for i := range n {
		if status, v := call(tb, "POST", base+"/api/battles/"+id+"/actions", tokens[sides[i%2]], "", []byte("type: end_turn\n"+pad)); status != 200 {
			tb.Fatalf("action %d: %d %v", i, status, v)
		}
	}
	return id
}

// deafStream opens an event stream from ip that never reads what it is sent.
func deafStream(tb testing.TB, base, ip, id, tk, last string) net.Conn {
	tb.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	c, err := d.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		tb.Fatal(err)
	}
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetReadBuffer(4 << 10) // the smallest window: the server's writes block soon
	}
	tb.Cleanup(func() { c.Close() })
	fmt.Fprintf(c, "GET /api/battles/%s/events?ticket=%s&last_event_id=%s HTTP/1.1\r\nHost: volley\r\n\r\n", id, tk, last)
	return c
}

// TestStreamMemoryBounded (4): a stream that never reads kept its whole catch-up queued,
// 130–170 MB each on a large log. A stream holds a page at most, and one that reads no
// faster than StreamWriteTimeout is closed.
func TestStreamMemoryBounded(t *testing.T) {
	limits := servertest.Limits()
	limits.StreamWriteTimeout = time.Second
	srv, ts := serveServer(t, limits)
	id := bigLog(t, ts.URL, 200)
	grew := heapPeak(func() {
		for i := range 16 {
			deafStream(t, ts.URL, "127.0.2.1", id, ticket(t, ts.URL, id, watch(id)), "-1")
			_ = i
		}
		time.Sleep(3 * time.Second)
	})
	t.Logf("16 deaf streams of a %d MB log: heap +%d MiB", 200*60_000>>20, grew>>20)
	if grew > 96<<20 {
		t.Errorf("16 streams that never read grew the heap %d MiB", grew>>20)
	}
	deadline := time.Now().Add(10 * time.Second)
	for srv.Streams() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d deaf streams still open 10 s on", srv.Streams())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestLastEventIDAtItsLimit (5): Last-Event-ID 9223372036854775807 overflowed and stopped
// the battle's shared feed for everyone. It is refused, and the largest id accepted
// starts at the log's end without stopping anyone's stream.
func TestLastEventIDAtItsLimit(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "dropzone/sabres.yaml")
	tk := ticket(t, ts.URL, id, watch(id))
	for _, h := range []string{"9223372036854775807", "2147483648", "-2", "1e3"} {
		req, _ := http.NewRequest("GET", ts.URL+"/api/battles/"+id+"/events?ticket="+tk, nil)
		req.Header.Set("Last-Event-ID", h)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var v map[string]any
		json.NewDecoder(resp.Body).Decode(&v)
		resp.Body.Close()
		if resp.StatusCode != 400 || v["field"] != "Last-Event-ID" {
			t.Errorf("Last-Event-ID %s: %d %v; want 400 at Last-Event-ID", h, resp.StatusCode, v)
		}
	}
	if a := send(t, "GET", ts.URL+"/api/battles/"+id+"/events?last_event_id=9223372036854775807&ticket="+tk, "", nil); a.status != 400 {
		t.Errorf("last_event_id at int64's limit: %d", a.status)
	}
	first := openStream(t, ts.URL, id, tk, "2147483647")
	honest := openStream(t, ts.URL, id, ticket(t, ts.URL, id, tokens["UCM"]), "")
	if status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/actions", tokens["UCM"], "", []byte(sabresAction)); status != 200 {
		t.Fatalf("action: %d %v", status, v)
	}
	for _, s := range []*sseStream{first, honest} {
		if e := s.next(t); e.ID != "0" {
			t.Errorf("%+v; want action 0", e)
		}
	}
}

// TestLogReadsInBoundedMemory (6): 32 reads at once of a 16.9 MB log took the server from
// 39 MB to 3.4 GB. The log is written a page at a time as it is read.
func TestLogReadsInBoundedMemory(t *testing.T) {
	_, ts := serveServer(t, servertest.Limits())
	id := bigLog(t, ts.URL, 200)
	whole := send(t, "GET", ts.URL+"/api/battles/"+id+"/log", watch(id), nil)
	var lg vhttp.Log
	if err := json.Unmarshal(whole.body, &lg); err != nil || len(lg.Actions) != 200 || !strings.Contains(lg.Actions[199].Action, "<<<") {
		t.Fatalf("the log: %v, %d actions", err, len(lg.Actions))
	}
	want := sha256.Sum256(whole.body)
	var wg sync.WaitGroup
	var same atomic.Int32
	grew := heapPeak(func() {
		for i := range 32 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req, _ := http.NewRequest("GET", ts.URL+"/api/battles/"+id+"/log", nil)
				req.Header.Set("Authorization", "Bearer "+watch(id))
				resp, err := clientFrom(fmt.Sprintf("127.0.3.%d", 1+i%8)).Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				defer resp.Body.Close()
				h := sha256.New()
				io.Copy(h, resp.Body)
				if resp.StatusCode == 200 && [32]byte(h.Sum(nil)) == want {
					same.Add(1)
				}
			}()
		}
		wg.Wait()
	})
	t.Logf("32 reads of a %d MB log at once: heap +%d MiB, %d whole", len(whole.body)>>20, grew>>20, same.Load())
	if same.Load() != 32 {
		t.Errorf("%d of 32 reads got the whole log", same.Load())
	}
	if grew > 128<<20 {
		t.Errorf("32 reads grew the heap %d MiB", grew>>20)
	}
}

// slowScenario is a Dropzone battle whose every shot looks through a thousand-vertex
// hill at 400 rays: each takes milliseconds to resolve, and so to fold again.
func slowScenario() string {
	var b strings.Builder
	b.WriteString("ruleset: dropzone\noptions: {silhouette_samples: [20, 20]}\ntypes:\n")
	b.WriteString("  - {name: T, armour: 5, damage_points: 3, base: 1, height: 1, weapons: [{name: W, mf: \"-\", arc: F/S/R, full_range: ∞, countered_range: ∞, shots: 1, accuracy: 6+, energy: 1}]}\n")
	b.WriteString("  - {name: Fort, armour: 12, damage_points: 10000, base: 1, height: 1}\n")
	b.WriteString("terrain:\n  - id: hill\n    height: 0.5\n    polygon: [")
	for i := range 1000 {
		a := 2 * math.Pi * float64(i) / 1000
		fmt.Fprintf(&b, "[%.4f, %.4f], ", 5+2*math.Cos(a), 25+2*math.Sin(a))
	}
	b.WriteString("]\nunits:\n")
	for i := range 4 {
		fmt.Fprintf(&b, "  - {id: u%d, type: T, side: A, squad: s, at: [%d, 0]}\n", i, 3+i)
	}
	b.WriteString("  - {id: fort, type: Fort, side: B, at: [5, 50]}\n")
	return b.String()
}

// TestRebuildKeptWhenTheRequesterGivesUp (7): a battle of many actions, read first after a
// restart, took longer than the deadline to fold; each read began again from nothing and
// none succeeded while the load lasted. A rebuild runs once, in the background, as heavy
// work, and keeps its progress: reads cut short by their deadline see it done soon.
func TestRebuildKeptWhenTheRequesterGivesUp(t *testing.T) {
	store := servertest.SQLite(t)
	first := servertest.Serve(t, store, servertest.Limits())
	id, tokens := battle(t, first.URL, []byte(slowScenario()))
	round := []struct{ side, body string }{
		{"A", "squad: s\ndeclarations: [{unit: u0, weapon: W, target: fort}, {unit: u1, weapon: W, target: fort}, {unit: u2, weapon: W, target: fort}, {unit: u3, weapon: W, target: fort}]\n"},
		{"A", "type: end_turn\n"}, {"B", "type: end_turn\n"},
	}
	t0 := time.Now()
	actions := 0
	for time.Since(t0) < 1500*time.Millisecond {
		for _, m := range round {
			if status, v := call(t, "POST", first.URL+"/api/battles/"+id+"/actions", tokens[m.side], "", []byte(m.body)); status != 200 {
				t.Fatalf("action %d: %d %v", actions, status, v)
			}
			actions++
		}
	}
	// A new server over the same store: nothing folded. Every read gives up at 200 ms.
	limits := servertest.Limits()
	limits.RequestTimeout = 200 * time.Millisecond
	limits.RebuildSlice = 100 * time.Millisecond
	restarted := servertest.Serve(t, store, limits)
	t1 := time.Now()
	tries := 0
	for {
		tries++
		a := send(t, "GET", restarted.URL+"/api/battles/"+id, watch(id), nil)
		if a.status == 200 {
			break
		}
		if a.status != 503 {
			t.Fatalf("a read during the rebuild: %d %.200s", a.status, a.body)
		}
		if time.Since(t1) > 60*time.Second {
			t.Fatalf("the battle of %d actions was still not rebuilt after %d reads in 60 s", actions, tries)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("%d actions (%v to play) read again after a restart in %v, %d reads", actions, time.Since(t0).Round(time.Millisecond)-time.Since(t1).Round(time.Millisecond), time.Since(t1).Round(time.Millisecond), tries)
	if tries < 2 {
		t.Log("the rebuild fit in one request's deadline: this machine is faster than the test assumes")
	}
}

// TestStreamSlotsForPlayers (8): 330 addresses filled the server's streams and honest ones
// got 503; one spectator ticket filled a battle's, and its players got 429. Players draw on
// places of their own, and a ticket opens a few streams at most.
func TestStreamSlotsForPlayers(t *testing.T) {
	limits := servertest.Limits()
	limits.Streams = 6
	limits.StreamsPerBattle = 4
	limits.StreamsPerClient = 2
	limits.StreamsPerSide = 2
	ts := servertest.Serve(t, servertest.SQLite(t), limits)
	id, tokens := battle(t, ts.URL, example(t, "dropzone/sabres.yaml"))
	other, _ := battle(t, ts.URL, example(t, "dropzone/sabres.yaml"))
	open := func(ip, battle, tk string) int {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
		c, err := d.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		fmt.Fprintf(c, "GET /api/battles/%s/events?ticket=%s HTTP/1.1\r\nHost: volley\r\n\r\n", battle, tk)
		status, err := statusWithin(c, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		return status
	}
	// One spectator ticket, from three addresses: four streams, no more.
	spy := ticket(t, ts.URL, id, watch(id))
	var got []int
	for i := range 5 {
		got = append(got, open(fmt.Sprintf("127.0.4.%d", 1+i/2), id, spy))
	}
	if fmt.Sprint(got) != "[200 200 200 200 429]" {
		t.Errorf("five streams of one ticket: %v", got)
	}
	// The battle's spectator places are full; its players' are not.
	if s := open("127.0.4.10", id, ticket(t, ts.URL, id, watch(id))); s != 429 {
		t.Errorf("a fifth spectator: %d", s)
	}
	for _, side := range []string{"UCM", "Scourge"} {
		if s := open("127.0.4.11", id, ticket(t, ts.URL, id, tokens[side])); s != 200 {
			t.Errorf("%s's stream beside a full battle of spectators: %d", side, s)
		}
	}
	// The server's spectator places fill up on another battle; the players still follow
	// theirs.
	open("127.0.4.20", other, ticket(t, ts.URL, other, watch(other)))
	open("127.0.4.21", other, ticket(t, ts.URL, other, watch(other)))
	if s := open("127.0.4.22", other, ticket(t, ts.URL, other, watch(other))); s != 503 {
		t.Errorf("a spectator past the server's places: %d", s)
	}
	if s := open("127.0.4.12", id, ticket(t, ts.URL, id, tokens["UCM"])); s != 200 {
		t.Errorf("a player beside a full server of spectators: %d", s)
	}
	if s := open("127.0.4.13", id, ticket(t, ts.URL, id, tokens["UCM"])); s != 429 {
		t.Errorf("a side's third stream: %d", s)
	}
}

// TestAccessLogDeliveredAfterWriteTimeout (9): the access log said delivered=true for an
// answer the server's write timeout dropped: a small answer sits in the connection's
// buffer until the handler returns, and the write that fails comes after.
func TestAccessLogDeliveredAfterWriteTimeout(t *testing.T) {
	var logs syncBuffer
	store := servertest.SQLite(t)
	srv := vhttp.NewServer(store, slog.New(slog.NewTextHandler(&logs, nil)), servertest.Limits())
	ts := httptest.NewUnstartedServer(srv.Handler())
	ts.Config.WriteTimeout = 100 * time.Millisecond
	ts.Start()
	t.Cleanup(ts.Close)
	t.Cleanup(srv.Close)
	scen, heavy := crowd(4, 1) // heavy under edition 3's sampled sight (see TestDeadlines)
	id, tokens := sampledBattle(t, store, "dropzone", scen, "A", "B")
	// Odds that take longer than the write timeout, and answer a few kilobytes.
	req, _ := http.NewRequest("POST", ts.URL+"/api/battles/"+id+"/odds", strings.NewReader(heavy))
	req.Header.Set("Authorization", "Bearer "+tokens["A"])
	if resp, err := http.DefaultClient.Do(req); err == nil {
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		t.Fatalf("the answer came through: %d, %d bytes", resp.StatusCode, len(raw))
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(logs.String(), "/odds") {
		if time.Now().After(deadline) {
			t.Fatal("the request was never logged")
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, line := range strings.Split(logs.String(), "\n") {
		if strings.Contains(line, "/odds") && !strings.Contains(line, "delivered=false") {
			t.Errorf("an answer the write timeout dropped is logged as %q", line)
		}
	}
}

// TestConfusableNames (10): look-alike and invisible names loaded. Each is refused with a
// 400 at its line and column.
func TestConfusableNames(t *testing.T) {
	_, ts := serveServer(t, servertest.Limits())
	sabres := string(example(t, "dropzone/sabres.yaml"))
	for _, tc := range []struct {
		name, old, new string
		all            bool // every mention, the action's too
		want           string
	}{
		{"a Cyrillic а in a Latin id", "sabre-1", "s\u0430bre-1", true, "mixes the letters of Cyrillic and Latin"},
		{"U+202E in an id", "sabre-1", "\"sabre\\u202e-1\"", true, "invisible character U+202E"},
		{"a zero-width joiner in a side's name beside the side", "{id: sabre-3, type: Sabre, side: UCM", "{id: sabre-3, type: Sabre, side: \"UCM\\u200d\"", false, "invisible character U+200D"},
		{"a 100,000-character id", "warriors-2", strings.Repeat("s", 100_000), true, "has 100000 characters; at most 64"},
		{"two ids alike", "hunter-2", "hunter-l", true, `looks like "hunter-1"`},
		{"a space in an id", "warriors-2", "warriors 2", true, "has a space"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := strings.Replace(sabres, tc.old, tc.new, 1)
			if tc.all {
				body = strings.ReplaceAll(sabres, tc.old, tc.new)
			}
			if body == sabres {
				t.Fatal("the case changes nothing")
			}
			a := send(t, "POST", ts.URL+"/api/battles", "", []byte(body))
			v := a.json(t)
			at := strings.Index(body, tc.new)
			if tc.new[0] == '{' {
				at = strings.Index(body, "\"UCM")
			}
			line := 1 + strings.Count(body[:at], "\n")
			col := 1 + len([]rune(body[strings.LastIndex(body[:at], "\n")+1:at]))
			if a.status != 400 || !strings.Contains(fmt.Sprint(v["message"]), tc.want) || v["field"] != fmt.Sprintf("body:%d:%d", line, col) {
				t.Errorf("%d %v; want 400 at body:%d:%d with %q", a.status, v, line, col, tc.want)
			}
		})
	}
	// A name may be of another script than Latin, and hold spaces; a side too.
	ws := strings.Replace(string(example(t, "warstrike/demo.yaml")), "name: Fireteam Alpha", "name: Огневая группа", 1)
	if a := send(t, "POST", ts.URL+"/api/battles", "", []byte(ws)); a.status != 201 {
		t.Errorf("a unit named in Cyrillic: %d %.300s", a.status, a.body)
	}
}

// TestStoredBattlesKeepTheirNames: a battle stored before names were checked still
// loads and plays: the check is for new scenarios only.
func TestStoredBattlesKeepTheirNames(t *testing.T) {
	store := servertest.SQLite(t)
	ts := serve(t, store)
	body := strings.ReplaceAll(string(example(t, "dropzone/sabres.yaml")), "hunter-2", "hunter-l")
	seed, err := dice.NewSeed(strings.NewReader(strings.Repeat("volley", 10)))
	if err != nil {
		t.Fatal(err)
	}
	const token = "0123456789abcdef0123456789abcdef"
	sum := sha256.Sum256([]byte(token))
	rec := &volley.BattleRecord{ID: "00000000000000aa", Ruleset: "dropzone", Scenario: body, Edition: volley.Edition, Seed: seed,
		TokenHashes: map[string]string{"UCM": hex.EncodeToString(sum[:]), "Scourge": "-"}}
	rec.Commitment = volley.Commitment(rec)
	if err := store.CreateBattle(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	if a := send(t, "GET", ts.URL+"/api/battles/"+rec.ID, token, nil); a.status != 200 {
		t.Errorf("a stored battle with look-alike ids: %d %.300s", a.status, a.body)
	}
	if a := send(t, "POST", ts.URL+"/api/battles/"+rec.ID+"/actions", token, []byte("type: end_turn")); a.status != 200 {
		t.Errorf("acting in it: %d %.300s", a.status, a.body)
	}
}

// TestALogThatNoLongerFolds: a battle whose stored log replays to another outcome (a
// changed die) is refused as the fault it is (500), at once, whether its fold is light or
// a rebuild in the background: a request never waits out its deadline for a rebuild that
// cannot succeed.
func TestALogThatNoLongerFolds(t *testing.T) {
	for _, n := range []int{4, 60} { // folded in the request; rebuilt in the background
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "volley.db")
			store, err := sqlite.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { store.Close() })
			first := servertest.Serve(t, store, servertest.Limits())
			id, tokens := battle(t, first.URL, example(t, "dropzone/equalizer-vs-hunter.yaml"))
			round := []struct{ side, body string }{{"UCM", string(equalizerShot)}, {"UCM", "type: end_turn"}, {"Scourge", "type: end_turn"}}
			for i := range n {
				if status, v := call(t, "POST", first.URL+"/api/battles/"+id+"/actions", tokens[round[i%3].side], "", []byte(round[i%3].body)); status != 200 {
					t.Fatalf("action %d: %d %v", i, status, v)
				}
			}
			// A die of the first shot changed behind the server's back.
			raw, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			defer raw.Close()
			if _, err := raw.Exec(`UPDATE actions SET outcome = replace(outcome, '"value":', '"value":1') WHERE battle_id = ? AND seq = 0`, id); err != nil {
				t.Fatal(err)
			}
			fresh := servertest.Serve(t, store, servertest.Limits())
			a := send(t, "GET", fresh.URL+"/api/battles/"+id, watch(id), nil)
			if a.status != 500 || a.took > 5*time.Second {
				t.Errorf("a log that no longer folds: %d in %v %.200s; want 500 at once", a.status, a.took, a.body)
			}
		})
	}
}
