package http_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/volley-wargames/volley"
	vhttp "github.com/volley-wargames/volley/http"
	"github.com/volley-wargames/volley/servertest"
)

// The inputs of the issue that tried volley serve as a hostile client would, each sent
// again here: every one is answered 400, 401, 409, 413, 429 or 503, within its deadline,
// while the server's live heap stays under abuseHeap.
const abuseHeap = 256 << 20

// heapPeak runs f while sampling the live heap every half millisecond, and returns the
// most it grew above where it started.
func heapPeak(f func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	base := read()
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			if v := read(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-time.After(500 * time.Microsecond):
			}
		}
	}()
	f()
	close(stop)
	<-done
	if p := peak.Load(); p > base {
		return p - base
	}
	return 0
}

// serveServer starts the API with limits and returns the server too, for what only it
// can tell (the cache's size).
func serveServer(tb testing.TB, limits vhttp.Limits) (*vhttp.Server, *httptest.Server) {
	tb.Helper()
	srv := servertest.New(servertest.SQLite(tb), limits)
	ts := httptest.NewServer(srv.Handler())
	tb.Cleanup(ts.Close)
	return srv, ts
}

// answer is a request's answer, raw.
type answer struct {
	status int
	header http.Header
	body   []byte
	took   time.Duration
}

func (a answer) json(tb testing.TB) map[string]any {
	tb.Helper()
	var v map[string]any
	if err := json.Unmarshal(a.body, &v); err != nil {
		tb.Fatalf("answer %d is not JSON: %.200s", a.status, a.body)
	}
	return v
}

func send(tb testing.TB, method, u, token string, body []byte) answer {
	tb.Helper()
	req := servertest.Request(tb, method, u, token, body)
	t0 := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header, raw, time.Since(t0)}
}

// billionLaughs is nine levels of ten aliases: a billion values in 600 bytes.
func billionLaughs(last string) string {
	var b strings.Builder
	b.WriteString("l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 10), ", "))
	}
	return b.String() + last
}

// unknownKeys is a 26 KB scenario whose alias of 1,000 unknown keys is used 4,000 times.
func unknownKeys() string {
	var b strings.Builder
	b.WriteString("ruleset: dropzone\nk: &k {")
	for i := range 1000 {
		fmt.Fprintf(&b, "u%d: 1, ", i)
	}
	b.WriteString("}\nunits: [")
	for range 4000 {
		b.WriteString("*k, ")
	}
	b.WriteString("]\n")
	return b.String()
}

// polygonScenario is a Dropzone scenario with one terrain piece of n vertices.
func polygonScenario(n int) string {
	var b strings.Builder
	b.WriteString("ruleset: dropzone\ntypes: [{name: T, armour: 5, damage_points: 3, base: 1, height: 1}]\n")
	b.WriteString("units: [{id: a, type: T, side: A, at: [0, 0]}, {id: b, type: T, side: B, at: [0, 90]}]\n")
	b.WriteString("terrain:\n  - id: hill\n    height: 2\n    polygon: [")
	for i := range n {
		a := 2 * math.Pi * float64(i) / float64(n)
		fmt.Fprintf(&b, "[%.6f, %.6f], ", 40+10*math.Cos(a), 40+10*math.Sin(a))
	}
	b.WriteString("]\n")
	return b.String()
}

// crowd is the worst Dropzone aim: many units with Articulated weapons, ten
// thousand rays a silhouette (sampled sight, editions 2 and 3), a 700-vertex hill, and a low
// ridge of sixty teeth in the way of every line of sight, each tooth a convex piece whose
// shadow is cut out of the target (exact sight, edition 4). declarations is how many of
// the units aim (each with weapons weapons).
func crowd(units, weapons int) (scenarioText, action string) {
	var b strings.Builder
	b.WriteString("ruleset: dropzone\noptions: {silhouette_samples: [100, 100]}\ntypes:\n  - {name: T, armour: 5, damage_points: 3, base: 1, height: 1, weapons: [")
	for w := range weapons {
		fmt.Fprintf(&b, `{name: W%d, mf: "-", arc: F/S/R, full_range: ∞, countered_range: ∞, shots: 1, accuracy: 3+, energy: 5, special: [Articulated]}, `, w)
	}
	b.WriteString("]}\nterrain:\n  - id: hill\n    height: 5\n    polygon: [")
	for i := range 700 {
		a := 2 * math.Pi * float64(i) / 700
		fmt.Fprintf(&b, "[%.4f, %.4f], ", 50+5*math.Cos(a), 50+5*math.Sin(a))
	}
	b.WriteString("]\n  - id: ridge\n    height: 0.5\n    polygon: [[0, 20], [100, 20], [100, 21], ")
	for i := 59; i >= 0; i-- {
		x := float64(i)*100/60 + 0.2
		fmt.Fprintf(&b, "[%.3f, 21], [%.3f, 23], [%.3f, 23], [%.3f, 21], ", x+1, x+1, x, x)
	}
	b.WriteString("[0, 21]]\nunits:\n")
	for i := range units {
		fmt.Fprintf(&b, "  - {id: u%d, type: T, side: A, squad: s, at: [%d, %d]}\n", i, i%100, i/100)
	}
	b.WriteString("  - {id: t, type: T, side: B, at: [50, 100]}\n")
	var a strings.Builder
	a.WriteString("squad: s\ndeclarations:\n")
	for i := range units {
		for w := range weapons {
			fmt.Fprintf(&a, "  - {unit: u%d, weapon: W%d, target: t}\n", i, w)
		}
	}
	return b.String(), a.String()
}

// sampledBattle stores scenario, of the given rule system, as a battle begun under
// edition 3, the last whose sight was sampled by rays, and returns its id and its sides'
// tokens (and watch gives its spectator's). The crowd's odds and the swarm's danger map
// are heavy there: ten thousand rays a silhouette, twelve rays a model against every
// edge of a thousand. Exact sight (edition 4) makes both light.
func sampledBattle(tb testing.TB, store volley.Store, ruleset, scenario string, sides ...string) (string, map[string]string) {
	tb.Helper()
	return editionBattle(tb, store, 3, ruleset, []byte(scenario), sides...)
}

// blastEverywhere is the War Engine order that once took odds 30 s and sim over 100 s:
// a repeating weapon whose blast covers the largest map, every square of it with hits.
func blastEverywhere() string {
	return `ruleset: warengine
turn: {side: blue, phase: fire}
map:
  legend:
    "#": {name: wall, save: 20, hits: 5, becomes: "."}
    ".": {name: rubble}
  rows: |
` + strings.Repeat("    "+strings.Repeat("#", 512)+"\n", 512) + `weapons:
  - {name: Mortar, arc: 360, short: {range: 10}, medium: {range: 25}, long: {range: 60}, strength: 40, damage: [1, 3], repeating: true, blast: 512}
types:
  - {name: Gunner, weapon_skill: 45, hits: 3, weapons: [{weapon: Mortar, group: 1}]}
units:
  - {id: gunner, type: Gunner, side: blue, at: [5, 40], facing: N, targets: [{weapon: Mortar, at: [5, 10]}]}
  - {id: target, type: Gunner, side: red, at: [5, 10]}
action: {type: fire, unit: gunner, weapon: Mortar}
`
}

// TestHostileBodies sends the documents to POST /api/battles with no token, and
// the bodies of hostile actions with one. Each is refused with the limit it breaks.
func TestHostileBodies(t *testing.T) {
	srv, ts := serveServer(t, servertest.Limits())
	_ = srv
	deadline := vhttp.DefaultLimits().RequestTimeout
	murphy, murphyTokens := battle(t, ts.URL, example(t, "warengine/murphy.yaml"))
	crowdScenario, crowdAction := crowd(333, 2)
	crowdID, crowdTokens := battle(t, ts.URL, []byte(crowdScenario))
	_, hugeAction := crowd(333, 6)
	for _, tc := range []struct {
		name, path, token, body string
		status                  int
		want                    string
	}{
		{"quote bypass, 100,000 brackets", "/api/battles", "", "ruleset: dropzone\nx: -'\ny: " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n# '\n",
			400, "tokens; at most 100000"},
		{"quote bypass, 70 brackets", "/api/battles", "", "ruleset: dropzone\nx: -'\ny: " + strings.Repeat("[", 70) + strings.Repeat("]", 70) + "\n# '\n",
			400, "nested more than 64 deep"},
		{"billion laughs in a scenario's declared target", "/api/battles", "", billionLaughs("ruleset: warengine\nunits: [{id: a, type: t, side: x, at: [0, 0], targets: [{weapon: w, at: *l9}]}]\n"),
			400, "values once its aliases and merge keys are expanded"},
		{"alias of unknown keys used 4,000 times", "/api/battles", "", unknownKeys(), 400, "values once its aliases and merge keys are expanded"},
		{"a 40,000-vertex polygon", "/api/battles", "", polygonScenario(40000), 400, "tokens; at most 100000"},
		{"a 1,025-vertex polygon", "/api/battles", "", polygonScenario(1025), 400, "polygon has 1025 vertices; at most 1024"},
		{"a blast over the largest map of walls", "/api/battles", "", blastEverywhere(), 400, "volley refuses more than 200000000 (volley.MaxWork)"},
		{"a megabyte and a byte", "/api/battles", "", strings.Repeat("#", 1<<20+1), 413, "larger than 1048576 bytes"},
		{"a NUL in a side's name", "/api/battles", "", strings.Replace(string(example(t, "dropzone/sabres.yaml")), "side: UCM", "side: \"U\\0CM\"", 1),
			400, "control character U+0000"},
		{"an escape sequence in an id", "/api/battles", "", strings.Replace(string(example(t, "dropzone/sabres.yaml")), "id: sabre-1", "id: \"\\e[31msabre\"", 1),
			400, "control character U+001B"},
		{"20,000 keys in one mapping", "/api/battles", "", strings.Repeat("k: 1\n", 1) + func() string {
			var b strings.Builder
			for i := range 19000 {
				fmt.Fprintf(&b, "k%d: 1\n", i)
			}
			return b.String()
		}(), 400, "a mapping has more than 1000 keys"},
		{"billion laughs in an action's target", "/api/battles/" + murphy + "/aim", murphyTokens["trenchers"],
			billionLaughs("type: fire\nunit: murphy\nweapon: HMG Model 50\ntarget: *l9\n"), 400, "values once its aliases and merge keys are expanded"},
		{"the crowd's aim, over the work limit", "/api/battles/" + crowdID + "/aim", crowdTokens["A"], crowdAction, 400, "volley refuses more than 200000000 (volley.MaxWork)"},
		{"the crowd's aim with six weapons each", "/api/battles/" + crowdID + "/aim", crowdTokens["A"], hugeAction, 413, "larger than 65536 bytes"},
		{"an aim with no token is not even read", "/api/battles/" + murphy + "/aim", "", billionLaughs("target: *l9\n"), 401, "send a token of this battle"},
		{"moved 1e308", "/api/battles/" + crowdID + "/aim", crowdTokens["A"], "squad: s\nmoved: {u0: 1e308}\ndeclarations: [{unit: u0, weapon: W0, target: t}]\n",
			400, "a length or coordinate lies within ±100000 inches"},
		{"a float tagged as a whole number", "/api/battles", "", strings.Replace(string(example(t, "dropzone/sabres.yaml")), "armour: 10", "armour: !!float 10", 1),
			400, "want a whole number, got 10"},
		{"a binary number", "/api/battles", "", strings.Replace(string(example(t, "dropzone/sabres.yaml")), "armour: 10", "armour: 0b1010", 1),
			400, "plain decimal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			method := "POST"
			var a answer
			grew := heapPeak(func() { a = send(t, method, ts.URL+tc.path, tc.token, []byte(tc.body)) })
			v := a.json(t)
			msg := fmt.Sprint(v["message"], v["errors"])
			if a.status != tc.status || !strings.Contains(msg, tc.want) {
				t.Errorf("%d %.300s; want %d with %q", a.status, msg, tc.status, tc.want)
			}
			if len(a.body) > 64<<10 {
				t.Errorf("the answer is %d bytes", len(a.body))
			}
			if grew > abuseHeap {
				t.Errorf("the heap grew %d MiB; the bound is %d MiB", grew>>20, abuseHeap>>20)
			}
			if a.took > deadline {
				t.Errorf("answered in %v, past the %v deadline", a.took, deadline)
			}
			t.Logf("%d bytes: %d in %v, heap +%d MiB", len(tc.body), a.status, a.took.Round(time.Millisecond), grew>>20)
		})
	}
	// The aim's query parameter is bounded too, before it is read.
	q := url.Values{"action": {strings.Repeat("#", 70<<10)}}
	if a := send(t, "GET", ts.URL+"/api/battles/"+murphy+"/aim?"+q.Encode(), murphyTokens["trenchers"], nil); a.status != 413 {
		t.Errorf("a 70 KB action in the query: %d", a.status)
	}
}

// TestDeadlines: work past a request's deadline stops and is answered 503 with a
// Retry-After, never 500, and so is a request that waited its whole deadline for its
// turn at heavy work. Reading a battle does not wait for another's odds.
func TestDeadlines(t *testing.T) {
	limits := servertest.Limits()
	limits.RequestTimeout = 60 * time.Millisecond
	limits.Heavy = 1
	limits.HeavyPerClient = 4 // the four below come from one address
	store := servertest.SQLite(t)
	ts := servertest.Serve(t, store, limits)
	// A battle begun under edition 3, when sight was sampled: eight Articulated weapons,
	// two eye points each, ten thousand rays each past a 700-vertex hill and a ridge of
	// 245: 150 million steps, within MaxWork, and well past the deadline on this machine
	// or any slower. (Exact sight, from edition 4, makes the same odds light.)
	scen, heavy := crowd(8, 1)
	id, tokens := sampledBattle(t, store, "dropzone", scen, "A", "B")
	// Folded once (folding a big scenario is heavy work too), so that the read below is
	// light. A slow machine (the race detector) may need a few tries within 60 ms.
	for try := 0; send(t, "GET", ts.URL+"/api/battles/"+id, watch(id), nil).status != 200; try++ {
		if try == 20 {
			t.Fatal("the battle could not be read within its deadline")
		}
	}
	var wg sync.WaitGroup
	answers := make([]answer, 4)
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i] = send(t, "POST", ts.URL+"/api/battles/"+id+"/odds", tokens["A"], []byte(heavy))
		}()
	}
	// Meanwhile a light read of the same battle is answered.
	time.Sleep(20 * time.Millisecond)
	if a := send(t, "GET", ts.URL+"/api/battles/"+id, watch(id), nil); a.status != 200 {
		t.Errorf("reading the battle during heavy odds: %d %.200s", a.status, a.body)
	}
	wg.Wait()
	unavailable := 0
	for _, a := range answers {
		switch a.status {
		case 200:
		case 503:
			unavailable++
			if a.header.Get("Retry-After") == "" || a.json(t)["code"] != "unavailable" {
				t.Errorf("a 503 without Retry-After or code: %v %s", a.header, a.body)
			}
		default:
			t.Errorf("heavy odds past the deadline: %d %.200s", a.status, a.body)
		}
		if a.took > limits.RequestTimeout+2*time.Second {
			t.Errorf("answered in %v, long past the %v deadline", a.took, limits.RequestTimeout)
		}
	}
	if unavailable == 0 {
		t.Error("four heavy odds past the deadline, one at a time: none ran out of time")
	}
}

// TestRates: a client over its rate of new battles or of reads is answered 429 with a
// Retry-After; another client is not.
func TestRates(t *testing.T) {
	limits := servertest.Limits()
	limits.Creates = vhttp.Rate{PerSecond: 1.0 / 60, Burst: 2}
	limits.Reads = vhttp.Rate{PerSecond: 1, Burst: 3}
	_, ts := serveServer(t, limits)
	body := example(t, "dropzone/sabres.yaml")
	var id, tok string
	for i := range 3 {
		a := send(t, "POST", ts.URL+"/api/battles", "", body)
		switch {
		case i < 2 && a.status != 201:
			t.Fatalf("battle %d: %d", i, a.status)
		case i == 2 && (a.status != 429 || a.header.Get("Retry-After") == ""):
			t.Errorf("a third battle in a minute: %d %v %s", a.status, a.header, a.body)
		case i == 0:
			v := a.json(t)
			id, tok = v["id"].(string), v["spectator"].(string)
		}
	}
	statuses := []int{}
	for range 5 {
		statuses = append(statuses, send(t, "GET", ts.URL+"/api/battles/"+id, tok, nil).status)
	}
	if statuses[0] != 200 || statuses[4] != 429 {
		t.Errorf("five reads at once with a burst of three: %v", statuses)
	}
}

// TestCacheBoundedByBytes: battles kept folded never take more than the cache's bytes
// (or the one battle in use, when it alone is larger).
func TestCacheBoundedByBytes(t *testing.T) {
	limits := servertest.Limits()
	limits.CacheBytes = 1 << 20
	srv, ts := serveServer(t, limits)
	body := example(t, "warengine/murphy.yaml")
	for range 40 {
		id, _ := battle(t, ts.URL, body)
		if a := send(t, "GET", ts.URL+"/api/battles/"+id, watch(id), nil); a.status != 200 {
			t.Fatal(a.status)
		}
		if got := srv.CacheBytes(); got > limits.CacheBytes {
			t.Fatalf("the cache holds %d bytes; its limit is %d", got, limits.CacheBytes)
		}
	}
	if srv.CacheBytes() == 0 {
		t.Error("the cache holds nothing")
	}
}

// TestServerRollsEveryDie: over the API a player states no die, and no fact the table
// measures; aim and odds may still ask what if.
func TestServerRollsEveryDie(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "warfare/demo.yaml")
	for _, tc := range []struct{ body, want string }{
		{"unit: longbowmen\ntargets: [{unit: knights}]\nrolls: {firer: 6, target: 1}\n", "rolls: the server rolls every die"},
		{"unit: longbowmen\ntargets: [{unit: spearmen, range: close}]\n", "the server measures the range"},
		{"unit: longbowmen\ntargets: [{unit: spearmen, modifiers: [target is charging]}]\n", `modifier "target is charging" does not apply`},
	} {
		a := send(t, "POST", ts.URL+"/api/battles/"+id+"/actions", tokens["English"], []byte(tc.body))
		if v := a.json(t); a.status != 400 || !strings.Contains(fmt.Sprint(v["message"]), tc.want) || !strings.HasPrefix(fmt.Sprint(v["field"]), "body:") {
			t.Errorf("%q: %d %v; want 400 at the body's line with %q", tc.body, a.status, v, tc.want)
		}
		q := url.Values{"action": {tc.body}}
		if a := send(t, "GET", ts.URL+"/api/battles/"+id+"/odds?"+q.Encode(), tokens["English"], nil); a.status != 200 {
			t.Errorf("odds of %q: %d %s", tc.body, a.status, a.body)
		}
	}
	log := send(t, "GET", ts.URL+"/api/battles/"+id+"/log", watch(id), nil).json(t)
	if n := len(log["actions"].([]any)); n != 0 {
		t.Errorf("refused actions left %d entries", n)
	}
}

// TestTurnsOverTheAPI: one side cannot act four times in a row, nor one squad fire
// sixty times: out of turn, and twice in a turn, are 409.
func TestTurnsOverTheAPI(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "dropzone/sabres.yaml")
	u := ts.URL + "/api/battles/" + id + "/actions"
	if a := send(t, "POST", u, tokens["UCM"], []byte(sabresAction)); a.status != 200 {
		t.Fatalf("the first shot: %d %s", a.status, a.body)
	}
	if a := send(t, "POST", u, tokens["UCM"], []byte(sabresAction)); a.status != 409 || !strings.Contains(string(a.body), "already acted this turn") {
		t.Errorf("the squad again: %d %s", a.status, a.body)
	}
	scourge := "declarations: [{unit: warriors-1, weapon: Blaster, target: sabre-1}]\n"
	if a := send(t, "POST", u, tokens["Scourge"], []byte(scourge)); a.status != 409 && a.status != 400 {
		t.Errorf("the Scourge in the UCM's turn: %d %s", a.status, a.body)
	}
	if a := send(t, "POST", u, tokens["Scourge"], []byte("type: end_turn")); a.status != 403 {
		t.Errorf("the Scourge ending the UCM's turn: %d %s", a.status, a.body)
	}
	if a := send(t, "POST", u, tokens["UCM"], []byte("type: end_turn")); a.status != 200 || !strings.Contains(string(a.body), `"side": "Scourge"`) {
		t.Errorf("the UCM ending its turn: %d %.300s", a.status, a.body)
	}
	id, tokens = battle(t, ts.URL, example(t, "warfare/demo.yaml"))
	fire := "unit: longbowmen\ntargets: [{unit: knights}]\n"
	statuses := []int{}
	for range 4 {
		statuses = append(statuses, send(t, "POST", ts.URL+"/api/battles/"+id+"/actions", tokens["English"], []byte(fire)).status)
	}
	if statuses[0] != 200 || statuses[1] != 409 || statuses[3] != 409 {
		t.Errorf("four fires in a row: %v; want 200 then 409s", statuses)
	}
}

// TestReadsNeedAToken: a battle's state, aims, odds, log and check are read with one of
// its tokens; the spectator's reads and cannot act; the list shows what the tokens open.
func TestReadsNeedAToken(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "dropzone/sabres.yaml")
	other, _ := battle(t, ts.URL, example(t, "warfare/demo.yaml"))
	q := url.Values{"action": {sabresAction}}
	for _, path := range []string{"", "/log", "/aim?" + q.Encode(), "/odds?" + q.Encode(), "/verify"} {
		u := ts.URL + "/api/battles/" + id + path
		if a := send(t, "GET", u, "", nil); a.status != 401 || a.header.Get("WWW-Authenticate") == "" {
			t.Errorf("GET %s without a token: %d", path, a.status)
		}
		if a := send(t, "GET", u, watch(other), nil); a.status != 403 {
			t.Errorf("GET %s with another battle's token: %d", path, a.status)
		}
		want := 200
		if path == "/verify" {
			want = 409 // not ended yet
		}
		for _, tok := range []string{watch(id), tokens["Scourge"]} {
			if a := send(t, "GET", u, tok, nil); a.status != want {
				t.Errorf("GET %s with the battle's token: %d %.200s", path, a.status, a.body)
			}
		}
	}
	if a := send(t, "POST", ts.URL+"/api/battles/"+id+"/actions", watch(id), []byte(sabresAction)); a.status != 403 || !strings.Contains(string(a.body), "spectator") {
		t.Errorf("a spectator acting: %d %s", a.status, a.body)
	}
	list := func(toks ...string) int {
		return len(send(t, "GET", ts.URL+"/api/battles", strings.Join(toks, ", "), nil).json(t)["battles"].([]any))
	}
	if n := list(); n != 0 {
		t.Errorf("the list without tokens shows %d battles", n)
	}
	if n := list(tokens["UCM"]); n != 1 {
		t.Errorf("one battle's token lists %d", n)
	}
	if n := list(tokens["UCM"], watch(other), "0123"); n != 2 {
		t.Errorf("two battles' tokens list %d", n)
	}
}

// TestLogFull: a battle whose log is full takes no more actions.
func TestLogFull(t *testing.T) {
	limits := servertest.Limits()
	limits.MaxLogBytes = 4 << 10
	_, ts := serveServer(t, limits)
	id, tokens := battle(t, ts.URL, example(t, "warengine/murphy.yaml"))
	u := ts.URL + "/api/battles/" + id + "/actions"
	full := false
	for range 50 {
		side := send(t, "GET", ts.URL+"/api/battles/"+id, watch(id), nil).json(t)["state"].(map[string]any)["turn"].(map[string]any)["side"].(string)
		a := send(t, "POST", u, tokens[side], []byte("type: end_phase"))
		if a.status == 409 && strings.Contains(string(a.body), "log is full") {
			full = true
			break
		}
		if a.status != 200 {
			t.Fatalf("%d %s", a.status, a.body)
		}
	}
	if !full {
		t.Error("50 actions never filled a 4 KB log")
	}
}

// syncBuffer is a log sink for several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestAccessLog: the access log records what the client received: an answer that
// reached it, and one whose client had gone, whose work then stopped.
func TestAccessLog(t *testing.T) {
	var logs syncBuffer
	store := servertest.SQLite(t)
	srv := vhttp.NewServer(store, slog.New(slog.NewTextHandler(&logs, nil)), servertest.Limits())
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	scen, heavy := crowd(8, 1) // heavy under edition 3's sampled sight (see TestDeadlines)
	id, tokens := sampledBattle(t, store, "dropzone", scen, "A", "B")
	impatient := &http.Client{Timeout: 30 * time.Millisecond}
	req, _ := http.NewRequest("POST", ts.URL+"/api/battles/"+id+"/odds", strings.NewReader(heavy))
	req.Header.Set("Authorization", "Bearer "+tokens["A"])
	if _, err := impatient.Do(req); err == nil {
		t.Fatal("the heavy odds answered within 30 ms")
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(logs.String(), "path=/api/battles/"+id+"/odds") {
		if time.Now().After(deadline) {
			t.Fatalf("the abandoned request was never logged:\n%s", logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, line := range strings.Split(logs.String(), "\n") {
		switch {
		case strings.Contains(line, "path=/api/battles/"+id+"/odds"):
			if !strings.Contains(line, "delivered=false") || !strings.Contains(line, "status=503") {
				t.Errorf("the abandoned request is logged as %q", line)
			}
		case strings.Contains(line, "method=POST path=/api/battles ") && !strings.Contains(line, "status=201 ") || strings.Contains(line, "path=/api/battles ") && !strings.Contains(line, "delivered=true"):
			t.Errorf("the created battle is logged as %q", line)
		}
	}
}
