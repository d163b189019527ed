package http_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/volley-wargames/volley"
	vhttp "github.com/volley-wargames/volley/http"
	"github.com/volley-wargames/volley/postgres"
	_ "github.com/volley-wargames/volley/rules/dropzone"
	_ "github.com/volley-wargames/volley/rules/republique"
	_ "github.com/volley-wargames/volley/rules/warengine"
	_ "github.com/volley-wargames/volley/rules/warfare"
	_ "github.com/volley-wargames/volley/rules/warstrike"
	"github.com/volley-wargames/volley/servertest"
	"github.com/volley-wargames/volley/sqlite"
	"github.com/volley-wargames/volley/storetest"
)

// serve starts the API over store on a loopback test server (servertest.Serve).
func serve(tb testing.TB, store volley.Store) *httptest.Server {
	tb.Helper()
	return servertest.Serve(tb, store, servertest.Limits())
}

// exampleBattle starts examples/<name> on a fresh server over SQLite: the server, the
// battle's id and its sides' tokens.
func exampleBattle(t *testing.T, name string) (*httptest.Server, string, map[string]string) {
	t.Helper()
	ts := serve(t, servertest.SQLite(t))
	id, tokens := battle(t, ts.URL, example(t, name))
	return ts, id, tokens
}

func example(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("..", "examples", name))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// call sends a request and decodes the JSON answer into a map (servertest.Do), with key
// as its idempotency key unless "".
func call(tb testing.TB, method, u, token, key string, body []byte) (int, map[string]any) {
	tb.Helper()
	req := servertest.Request(tb, method, u, token, body)
	if key != "" {
		req.Header.Set(vhttp.IdempotencyHeader, key)
	}
	return servertest.Do(tb, req)
}

// actWant posts an action to battle id with token and fails the test unless it is
// answered with the status want; it returns the answer.
func actWant(t *testing.T, base, id, token, body string, want int) map[string]any {
	t.Helper()
	status, v := call(t, "POST", base+"/api/battles/"+id+"/actions", token, "", []byte(body))
	if status != want {
		t.Fatalf("%s: %d %v; want %d", body, status, v, want)
	}
	return v
}

// sidesActor posts actions to the battle id served at base, each body as the side named
// (with its token of tokens), and answers the status and what the server says.
func sidesActor(t *testing.T, base, id string, tokens map[string]string) func(side, body string) (int, map[string]any) {
	return func(side, body string) (int, map[string]any) {
		return call(t, "POST", base+"/api/battles/"+id+"/actions", tokens[side], "", []byte(body))
	}
}

// unitsOf is the units of the battle id served at base by id, as its view lists them in
// part ("table" or "board").
func unitsOf(t *testing.T, base, id, part string) map[string]map[string]any {
	_, v := call(t, "GET", base+"/api/battles/"+id, watch(id), "", nil)
	out := map[string]map[string]any{}
	for _, u := range v[part].(map[string]any)["units"].([]any) {
		m := u.(map[string]any)
		out[m["id"].(string)] = m
	}
	return out
}

// actorOf is actWant for the battle id served at base: each action's body sent with a
// token, and the status it must answer.
func actorOf(t *testing.T, base, id string) func(token, body string, want int) map[string]any {
	return func(token, body string, want int) map[string]any {
		t.Helper()
		return actWant(t, base, id, token, body, want)
	}
}

// sideTokens is the tokens of sides a and b of a battle just posted, failing the test
// where either has none.
func sideTokens(t *testing.T, tokens map[string]string, a, b string) (string, string) {
	t.Helper()
	if tokens[a] == "" || tokens[b] == "" {
		t.Fatalf("tokens %v", tokens)
	}
	return tokens[a], tokens[b]
}

// wantFieldError checks that GET u (what it asks, for the message) answers 400 with the
// fault at field.
func wantFieldError(tb testing.TB, what, u, token, field string) {
	tb.Helper()
	if status, v := call(tb, "GET", u, token, "", nil); status != 400 || v["field"] != field {
		tb.Errorf("%s: %d %v; want 400 at %s", what, status, v, field)
	}
}

// endVerified ends battle id with token and checks that its log verifies with actions
// actions.
func endVerified(tb testing.TB, base, id, token string, actions int) {
	tb.Helper()
	if status, v := call(tb, "POST", base+"/api/battles/"+id+"/end", token, "", nil); status != 200 {
		tb.Fatalf("end: %d %v", status, v)
	}
	if status, v := call(tb, "GET", base+"/api/battles/"+id+"/verify", watch(id), "", nil); status != 200 || v["verified"] != true || v["actions"] != float64(actions) {
		tb.Errorf("verify: %d %v; want %d actions verified", status, v, actions)
	}
}

// scenarioNow is the scenario of battle id as it stands (GET …/scenario): the units
// where they are now, ready for a new battle.
func scenarioNow(tb testing.TB, base, id string) string {
	tb.Helper()
	raw := send(tb, "GET", base+"/api/battles/"+id+"/scenario", watch(id), nil)
	if raw.status != 200 {
		tb.Fatalf("the scenario as it stands: %d\n%s", raw.status, raw.body)
	}
	return string(raw.body)
}

// spectators holds the spectator token of each battle the tests created, by id.
var spectators sync.Map

// watch returns the spectator token of battle id, which reads it.
func watch(id string) string {
	t, _ := spectators.Load(id)
	s, _ := t.(string)
	return s
}

// battle creates a battle from a scenario and returns its id and its sides' tokens; watch
// gives its spectator's.
func battle(tb testing.TB, base string, scenario []byte) (string, map[string]string) {
	tb.Helper()
	status, v := call(tb, "POST", base+"/api/battles", "", "", scenario)
	if status != http.StatusCreated {
		tb.Fatalf("create: %d %v", status, v)
	}
	tokens := map[string]string{}
	for side, t := range v["tokens"].(map[string]any) {
		tokens[side] = t.(string)
	}
	if c, _ := v["commitment"].(string); len(c) != 64 {
		tb.Errorf("commitment %q is not a hex SHA-256", c)
	}
	spectators.Store(v["id"].(string), v["spectator"].(string))
	return v["id"].(string), tokens
}

const sabresAction = `squad: sabres
declarations:
  - {unit: sabre-1, weapon: Avenger Railgun, target: hunter-1}
  - {unit: sabre-2, weapon: Avenger Railgun, target: hunter-2}
  - {unit: sabre-3, weapon: Avenger Railgun, target: hunter-3}
`

// TestSabres is the walk through the API.
func TestSabres(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "dropzone/sabres.yaml")
	if len(tokens) != 2 || tokens["UCM"] == "" || tokens["Scourge"] == "" {
		t.Fatalf("tokens %v; want one for UCM and one for Scourge", tokens)
	}
	actions := ts.URL + "/api/battles/" + id + "/actions"

	status, v := call(t, "POST", actions, tokens["UCM"], "", []byte(sabresAction))
	if status != http.StatusOK {
		t.Fatalf("the UCM's own action: %d %v", status, v)
	}
	out := v["outcome"].(map[string]any)
	if rolls := out["rolls"].([]any); len(rolls) < 3 {
		t.Errorf("the answer has %d rolls; want every die", len(rolls))
	}
	if v["seq"].(float64) != 0 || v["side"] != "UCM" {
		t.Errorf("seq %v side %v; want 0 and UCM", v["seq"], v["side"])
	}
	for _, c := range []struct {
		token  string
		status int
	}{{tokens["Scourge"], http.StatusForbidden}, {"", http.StatusUnauthorized}, {"not-a-token", http.StatusForbidden}} {
		status, v := call(t, "POST", actions, c.token, "", []byte(sabresAction))
		if status != c.status || v["code"] == nil || v["field"] != "Authorization" {
			t.Errorf("token %q: %d %v; want %d naming Authorization", c.token, status, v, c.status)
		}
	}
	status, v = call(t, "GET", ts.URL+"/api/battles/"+id+"/log", watch(id), "", nil)
	if status != http.StatusOK || len(v["actions"].([]any)) != 1 || v["seed"] != nil {
		t.Errorf("log: %d %v; want one action and no seed before the end", status, v)
	}
	status, v = call(t, "GET", ts.URL+"/api/battles/"+id, watch(id), "", nil)
	if status != http.StatusOK || v["actions"].(float64) != 1 {
		t.Errorf("state: %d %v", status, v)
	}
	q := url.Values{"action": {sabresAction}}
	status, v = call(t, "GET", ts.URL+"/api/battles/"+id+"/odds?"+q.Encode(), watch(id), "", nil)
	if status != http.StatusOK || v["ruleset"] != "dropzone" || len(v["targets"].([]any)) != 3 {
		t.Errorf("odds: %d %v", status, v)
	}
	status, v = call(t, "POST", ts.URL+"/api/battles/"+id+"/end", tokens["Scourge"], "", nil)
	if status != http.StatusOK || v["seed"] == nil {
		t.Fatalf("end: %d %v", status, v)
	}
	status, v = call(t, "POST", actions, tokens["UCM"], "", []byte(sabresAction))
	if status != http.StatusConflict {
		t.Errorf("an action after the end: %d %v; want 409", status, v)
	}
	status, v = call(t, "GET", ts.URL+"/api/battles/"+id+"/log", watch(id), "", nil)
	if status != http.StatusOK || v["seed"] == nil {
		t.Errorf("log after the end: %d; want the seed revealed", status)
	}
}

func TestIdempotency(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "dropzone/equalizer-vs-hunter.yaml")
	action := []byte("declarations: [{unit: sabre-1, weapon: Equalizer Machinegun, target: hunter-1}]\n")
	u := ts.URL + "/api/battles/" + id + "/actions"
	_, first := call(t, "POST", u, tokens["UCM"], "k1", action)
	_, again := call(t, "POST", u, tokens["UCM"], "k1", action)
	if first["seq"] != again["seq"] || again["replayed"] != true {
		t.Errorf("a retried request: %v then %v; want the same seq, replayed", first["seq"], again)
	}
	fo, _ := json.Marshal(first["outcome"])
	ao, _ := json.Marshal(again["outcome"])
	if string(fo) != string(ao) {
		t.Error("a retried request got a different outcome")
	}
	// The same key with another action is refused, not silently answered with the first.
	other2 := []byte("declarations: [{unit: sabre-1, weapon: Equalizer Machinegun, target: hunter-1}]\nmoved: {sabre-1: 1}\n")
	if status, v := call(t, "POST", u, tokens["UCM"], "k1", other2); status != http.StatusConflict || v["field"] != vhttp.IdempotencyHeader {
		t.Errorf("a reused key with another body: %d %v; want 409 naming the key", status, v)
	}
	_, other := call(t, "POST", u, tokens["UCM"], "k2", []byte("type: end_turn"))
	if other["seq"].(float64) != first["seq"].(float64)+1 {
		t.Errorf("a new key: seq %v; want the next", other["seq"])
	}
	_, v := call(t, "GET", ts.URL+"/api/battles/"+id+"/log", watch(id), "", nil)
	if n := len(v["actions"].([]any)); n != 2 {
		t.Errorf("the log has %d actions; want 2", n)
	}
}

// TestTwoServersOneStore: two servers on one database, posting to one battle at once.
// Every acknowledged action is in the log exactly once, with no gap; the losers of a
// race were told to retry.
func TestTwoServersOneStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared.db")
	t.Run("sqlite", func(t *testing.T) {
		twoServers(t, func() volley.Store {
			s, err := sqlite.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			return s
		})
	})
	t.Run("postgres", func(t *testing.T) {
		url := storetest.PostgresURL(t)
		twoServers(t, func() volley.Store {
			s, err := postgres.Open(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			return s
		})
	})
}

// twoServers runs two API servers, each with its own connection to one database, and
// has eight clients post to one battle through both at once.
func twoServers(t *testing.T, open func() volley.Store) {
	var servers []*httptest.Server
	for range 2 {
		s := open()
		t.Cleanup(func() { s.Close() })
		servers = append(servers, serve(t, s))
	}
	id, tokens := battle(t, servers[0].URL, example(t, "dropzone/equalizer-vs-hunter.yaml"))
	var mu sync.Mutex
	acked := map[float64]int{}
	conflicts := 0
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			base := servers[w%2].URL
			for range 15 {
				// Each client plays what the battle it last saw allows; the others may have
				// played first, and then the place or the turn is gone: 409.
				_, v := call(t, "GET", base+"/api/battles/"+id, watch(id), "", nil)
				side, body := nextMove(v["state"].(map[string]any), "sabre-1", "UCM", equalizerShot)
				status, v := call(t, "POST", base+"/api/battles/"+id+"/actions", tokens[side], "", body)
				mu.Lock()
				switch status {
				case http.StatusOK:
					acked[v["seq"].(float64)]++
				case http.StatusConflict, http.StatusForbidden: // forbidden: the turn passed to the other side
					conflicts++
				default:
					t.Errorf("status %d: %v", status, v)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	_, v := call(t, "GET", servers[1].URL+"/api/battles/"+id+"/log", watch(id), "", nil)
	logged := v["actions"].([]any)
	if len(logged) != len(acked) {
		t.Errorf("%d acknowledged, %d logged", len(acked), len(logged))
	}
	for i, a := range logged {
		seq := a.(map[string]any)["seq"].(float64)
		if seq != float64(i) || acked[seq] != 1 {
			t.Errorf("log entry %d has seq %v, acknowledged %d times", i, seq, acked[seq])
		}
	}
	t.Logf("%d actions acknowledged, %d conflicts answered 409", len(acked), conflicts)
}

// equalizerShot is sabre-1's shot at hunter-1 in equalizer-vs-hunter.yaml.
var equalizerShot = []byte("declarations: [{unit: sabre-1, weapon: Equalizer Machinegun, target: hunter-1}]\n")

// nextMove is the action a battle's state allows next, in a battle of one squad (of
// squadSide) that shoots and other sides that only end their turns: the squad's shot in
// its side's turn if it has not shot yet, else the end of the turn. It returns the side
// to send it as.
func nextMove(state map[string]any, squad, squadSide string, shot []byte) (string, []byte) {
	turn := state["turn"].(map[string]any)
	side := turn["side"].(string)
	done, _ := turn["done"].([]any)
	if side == squadSide && !slices.Contains(done, any(squad)) {
		return side, shot
	}
	return side, []byte("type: end_turn\n")
}

// TestBadRequests: bad input is a 4xx with a code and the field at fault, never a 500.
func TestBadRequests(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "dropzone/sabres.yaml")
	actions := ts.URL + "/api/battles/" + id + "/actions"
	big := bytes.Repeat([]byte("#"), int(vhttp.DefaultLimits().MaxBodyBytes)+10)
	tests := []struct {
		method, url, token string
		body               []byte
		status             int
		field              string
	}{
		{"POST", ts.URL + "/api/battles", "", nil, 400, "body"},
		{"POST", ts.URL + "/api/battles", "", []byte("ruleset: dropzone\nunits: [{id: x, typ: y}]\n"), 400, "body:2:"},
		{"POST", ts.URL + "/api/battles", "", []byte("{{{"), 400, "body:"},
		{"POST", ts.URL + "/api/battles", "", []byte("ruleset: chess\n"), 400, "body:1:10"},
		{"POST", ts.URL + "/api/battles", "", big, 413, "body"},
		{"GET", ts.URL + "/api/battles/nope", "", nil, 404, ""},
		{"POST", actions, tokens["UCM"], []byte("squad: sabres\ndeclarations: [{unit: sabre-1, weapon: Laser, target: hunter-1}]\n"), 400, "body:2:"},
		{"POST", actions, tokens["UCM"], []byte("squad: sabres\ndeklarations: []\n"), 400, "body:2:1"},
		{"POST", actions, tokens["UCM"], []byte("declarations: [{unit: sabre-1, weapon: Avenger Railgun, target: sabre-2}]\n"), 400, ""},
		{"GET", ts.URL + "/api/battles/" + id + "/aim", tokens["UCM"], nil, 400, "action"},
		{"DELETE", ts.URL + "/api/battles/" + id, "", nil, 404, ""},
		{"GET", ts.URL + "/api/nothing", "", nil, 404, ""},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(tt.method, tt.url, bytes.NewReader(tt.body))
		if tt.token != "" {
			req.Header.Set("Authorization", "Bearer "+tt.token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status {
			t.Errorf("%s %s: %d %s; want %d", tt.method, tt.url, resp.StatusCode, raw, tt.status)
			continue
		}
		var e map[string]any
		if err := json.Unmarshal(raw, &e); err != nil || e["code"] == nil || e["message"] == nil {
			t.Errorf("%s %s: %s; want a JSON error", tt.method, tt.url, raw)
			continue
		}
		if f, _ := e["field"].(string); !strings.HasPrefix(f, tt.field) {
			t.Errorf("%s %s: field %q; want %q…", tt.method, tt.url, f, tt.field)
		}
	}
	// Bytes no store keeps as text, and ids that cannot be battles.
	for _, c := range []struct {
		u      string
		body   []byte
		key    string
		status int
		field  string
	}{
		{actions, []byte("# \xff\nsquad: sabres\n"), "", 400, "body"},
		{actions, []byte("squad: sab\x00res\n"), "", 400, "body"},
		{actions, []byte(sabresAction), "k\xff", 400, vhttp.IdempotencyHeader},
		{ts.URL + "/api/battles/%00abc/actions", []byte(sabresAction), "", 404, ""},
		{ts.URL + "/api/battles/ZZZZZZZZZZZZZZZZ/actions", []byte(sabresAction), "", 404, ""},
	} {
		status, v := call(t, "POST", c.u, tokens["UCM"], c.key, c.body)
		if status != c.status || v["field"] != nil && v["field"] != c.field {
			t.Errorf("POST %s %q (key %q): %d %v; want %d naming %q", c.u, c.body, c.key, status, v, c.status, c.field)
		}
	}
	// A refused action changes nothing.
	_, v := call(t, "GET", ts.URL+"/api/battles/"+id+"/log", watch(id), "", nil)
	if n := len(v["actions"].([]any)); n != 0 {
		t.Errorf("refused actions left %d entries in the log", n)
	}
}

// FuzzActionBody sends arbitrary bodies as actions: never a 500.
func FuzzActionBody(f *testing.F) {
	store := servertest.SQLite(f)
	ts := serve(f, store)
	id, tokens := battle(f, ts.URL, example(f, "dropzone/sabres.yaml"))
	f.Add([]byte(sabresAction))
	f.Add([]byte("declarations: [{unit: sabre-1, weapon: Avenger Railgun, target: hunter-1}]"))
	f.Add([]byte(`{"declarations": [{"unit": "sabre-2", "weapon": "Equalizer Machinegun", "target": "warriors-1"}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		req, _ := http.NewRequest("POST", ts.URL+"/api/battles/"+id+"/actions", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tokens["UCM"])
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			t.Fatalf("status %d for body %q", resp.StatusCode, body)
		}
	})
}

// FuzzScenarioBody sends arbitrary scenarios: never a 500.
func FuzzScenarioBody(f *testing.F) {
	ts := serve(f, servertest.SQLite(f))
	for _, name := range []string{"dropzone/sabres.yaml", "warengine/bolter.yaml", "warfare/demo.yaml", "warstrike/demo.yaml"} {
		f.Add(example(f, name))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		resp, err := http.Post(ts.URL+"/api/battles", "application/yaml", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			t.Fatalf("status %d for body %q", resp.StatusCode, body)
		}
	})
}
