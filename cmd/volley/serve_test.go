package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/volley-wargames/volley"
	vhttp "github.com/volley-wargames/volley/http"
	"github.com/volley-wargames/volley/rules"
)

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

// volleyBinary builds the command once for the tests that run it as a child process.
func volleyBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "volley-bin")
		if err != nil {
			buildErr = err
			return
		}
		binary = filepath.Join(dir, "volley")
		out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binary
}

// server is `volley serve` running as a child process.
type server struct {
	cmd *exec.Cmd
	url string

	mu  sync.Mutex
	out []string // the lines it printed
}

// printed returns the lines the server printed so far.
func (s *server) printed() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.out...)
}

var servingLine = regexp.MustCompile(`serving (http://\S+)`)

// startServer starts `volley serve` on a free loopback port with the given store and
// waits until it says where it listens.
func startServer(t *testing.T, db string, extra ...string) *server {
	t.Helper()
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db}, extra...)
	cmd := exec.Command(volleyBinary(t), args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(stdout)
	found := make(chan string, 1)
	srv := &server{cmd: cmd}
	go func() {
		for lines.Scan() { // keeps the pipe drained too
			srv.mu.Lock()
			srv.out = append(srv.out, lines.Text())
			srv.mu.Unlock()
			if m := servingLine.FindStringSubmatch(lines.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case u := <-found:
		srv.url = u
		return srv
	case <-time.After(20 * time.Second):
		t.Fatal("volley serve did not say where it listens within 20 s")
	}
	return nil
}

// request sends one request; err is set when the server could not be reached.
func request(method, u, token string, body []byte) (int, map[string]any, error) {
	req, err := http.NewRequest(method, u, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, err
	}
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		return resp.StatusCode, nil, fmt.Errorf("not JSON: %s", raw)
	}
	return resp.StatusCode, v, nil
}

func mustRequest(t *testing.T, method, u, token string, body []byte, want int) map[string]any {
	t.Helper()
	status, v, err := request(method, u, token, body)
	if err != nil || status != want {
		t.Fatalf("%s %s: %d %v %v; want %d", method, u, status, v, err, want)
	}
	return v
}

func readExample(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(example(name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const sabresAction = `squad: sabres
declarations:
  - {unit: sabre-1, weapon: Avenger Railgun, target: hunter-1}
  - {unit: sabre-2, weapon: Avenger Railgun, target: hunter-2}
  - {unit: sabre-3, weapon: Avenger Railgun, target: hunter-3}
  - {unit: sabre-1, weapon: Equalizer Machinegun, target: warriors-1}
`

// crashScenario is a battle whose one action changes the state every time it succeeds
// and can go on for ever: a machinegun against a fortress of 1,000 damage points.
const crashScenario = `ruleset: dropzone
types:
  - name: Gun
    armour: 10
    damage_points: 3
    base: 1
    height: 1
    move: 2
    weapons: [{name: MG, mf: "-", arc: F/S/R, full_range: ∞, countered_range: ∞, shots: 2, accuracy: 3+, energy: 5}]
  - {name: Fortress, armour: 7, damage_points: 1000, base: 4, height: 3}
units:
  - {id: gun, type: Gun, side: A, at: [0, 0]}
  - {id: fortress, type: Fortress, side: B, at: [0, 10]}
`

const crashAction = "declarations: [{unit: gun, weapon: MG, target: fortress}]\n"

// TestCrash kills the server with SIGKILL in the middle of a stream of actions, starts
// it again on the same SQLite file, and checks that every acknowledged action is in the
// log with the outcome it was acknowledged with, and that replaying the log from the
// revealed seed gives byte for byte the state the server shows.
func TestCrash(t *testing.T) {
	db := filepath.Join(t.TempDir(), "volley.db")
	fast := []string{"--no-demo", "--reads", "100000/s"} // four clients on one address, as fast as they can
	srv := startServer(t, db, fast...)

	// The walk: the sabres act; the other side may not act for them.
	c := mustRequest(t, "POST", srv.url+"/api/battles", "", readExample(t, "sabres"), 201)
	sabres := c["id"].(string)
	tok := c["tokens"].(map[string]any)
	acted := mustRequest(t, "POST", srv.url+"/api/battles/"+sabres+"/actions", tok["UCM"].(string), []byte(sabresAction), 200)
	if rolls := acted["outcome"].(map[string]any)["rolls"].([]any); len(rolls) == 0 {
		t.Fatal("the action answered without rolls")
	}
	if status, _, _ := request("POST", srv.url+"/api/battles/"+sabres+"/actions", tok["Scourge"].(string), []byte(sabresAction)); status != 403 {
		t.Fatalf("the Scourge acting for the UCM: %d; want 403", status)
	}

	// A stream of actions on four battles, cut short by kill -9.
	type ack struct {
		seq     int
		outcome string
		state   string
	}
	ids := make([]string, 4)
	tokens := make([]string, 4)
	others := make([]string, 4)
	for i := range ids {
		v := mustRequest(t, "POST", srv.url+"/api/battles", "", []byte(crashScenario), 201)
		toks := v["tokens"].(map[string]any)
		ids[i], tokens[i], others[i] = v["id"].(string), toks["A"].(string), toks["B"].(string)
	}
	// Two rounds of play: the gun moves an inch and fires, and A ends its turn; B, with
	// nothing to fire, ends its own; then the gun moves back.
	a := func(i int) string { return tokens[i] }
	b := func(i int) string { return others[i] }
	round := []struct {
		token func(i int) string
		body  string
	}{{a, "{type: move, unit: gun, path: [[0, 1]]}"}, {a, crashAction}, {a, "type: end_turn"}, {b, "type: end_turn"},
		{a, "{type: move, unit: gun, path: [[0, 0]]}"}, {a, crashAction}, {a, "type: end_turn"}, {b, "type: end_turn"}}
	var mu sync.Mutex
	acks := map[string][]ack{}
	var wg sync.WaitGroup
	started := make(chan struct{})
	var once sync.Once
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				move := round[n%len(round)]
				status, v, err := request("POST", srv.url+"/api/battles/"+ids[i]+"/actions", move.token(i), []byte(move.body))
				if err != nil {
					return // the server is gone
				}
				if status != 200 {
					t.Errorf("battle %s: %d %v", ids[i], status, v)
					return
				}
				out, _ := json.Marshal(v["outcome"])
				state, _ := json.Marshal(v["state"])
				mu.Lock()
				acks[ids[i]] = append(acks[ids[i]], ack{int(v["seq"].(float64)), string(out), string(state)})
				k := len(acks[ids[i]])
				mu.Unlock()
				if k == 60 {
					once.Do(func() { close(started) })
				}
			}
		}()
	}
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("no battle reached 60 acknowledged actions in 30 s")
	}
	time.Sleep(50 * time.Millisecond)              // let more requests be in flight
	if err := srv.cmd.Process.Kill(); err != nil { // SIGKILL: no chance to flush anything
		t.Fatal(err)
	}
	srv.cmd.Wait()
	wg.Wait()

	srv = startServer(t, db, fast...)
	log := mustRequest(t, "GET", srv.url+"/api/battles/"+sabres+"/log", tok["UCM"].(string), nil, 200)
	if n := len(log["actions"].([]any)); n != 1 {
		t.Errorf("after the restart the sabres' log has %d actions; want 1", n)
	}
	total := 0
	for i, id := range ids {
		entries := mustRequest(t, "GET", srv.url+"/api/battles/"+id+"/log", tokens[i], nil, 200)["actions"].([]any)
		for j, e := range entries {
			if seq := int(e.(map[string]any)["seq"].(float64)); seq != j {
				t.Fatalf("battle %s: entry %d has seq %d", id, j, seq)
			}
		}
		for _, a := range acks[id] {
			total++
			if a.seq >= len(entries) {
				t.Errorf("battle %s: acknowledged action %d is missing after the crash", id, a.seq)
				continue
			}
			got, _ := json.Marshal(entries[a.seq].(map[string]any)["outcome"])
			if string(got) != a.outcome {
				t.Errorf("battle %s: action %d was acknowledged with another outcome than the log holds", id, a.seq)
			}
		}
		// The server may also have stored actions whose answers never arrived. Replaying
		// the log up to the last acknowledged action must give the state that answer
		// showed, and replaying all of it the state the restarted server shows.
		last := acks[id][len(acks[id])-1]
		checkReplay(t, srv.url, id, tokens[i], last.seq, last.state)
	}
	t.Logf("%d acknowledged actions on 4 battles all survived kill -9", total)
}

// checkReplay ends a battle, downloads its log and replays it from the revealed seed:
// up to action upTo it must give the state wantAt, acknowledged then, and in full the
// state the server shows now. Then `volley verify` checks the log.
func checkReplay(t *testing.T, base, id, token string, upTo int, wantAt string) {
	t.Helper()
	mustRequest(t, "POST", base+"/api/battles/"+id+"/end", token, nil, 200)
	status, _, raw := apiCall(t, "GET", base+"/api/battles/"+id+"/log", token, nil)
	if status != 200 {
		t.Fatalf("log: %d", status)
	}
	lg, seed, b := openLog(t, raw)
	for _, a := range lg.Actions {
		if _, _, _, err := volley.ReplayAction(context.Background(), b, a.Action, seed.ForAction(a.Seq)); err != nil {
			t.Fatal(err)
		}
		if a.Seq == upTo {
			if mine := canonical(b.State()); mine != wantAt {
				t.Errorf("battle %s: replayed to action %d the state differs from the one acknowledged\nreplayed %s\nanswered %s", id, upTo, mine, wantAt)
			}
		}
	}
	mine, _ := json.Marshal(b.State())
	_, _, battle := apiCall(t, "GET", base+"/api/battles/"+id, token, nil)
	var v struct {
		State volley.State `json:"state"`
	}
	json.Unmarshal(battle, &v)
	// What the view adds from the offers (who may act, and why not) is not the battle's
	// state: it is left out of the comparison, and checked for what an ended battle says.
	for i := range v.State.Units {
		u := &v.State.Units[i]
		if u.MayAct == nil || *u.MayAct || u.WhyNot != "the battle has ended" {
			t.Errorf("battle %s: the ended battle's view says of %s may_act %v, why_not %q", id, u.ID, u.MayAct, u.WhyNot)
		}
		u.MayAct, u.WhyNot = nil, ""
	}
	if v.State.Turn != nil {
		v.State.Turn.Acting = nil
	}
	theirs, _ := json.Marshal(v.State)
	if string(mine) != string(theirs) {
		t.Errorf("battle %s: the replayed state differs from the server's\nreplayed %s\nserver   %s", id, mine, theirs)
	}
	// volley verify accepts the honest log and refuses one with a single die changed.
	dir := t.TempDir()
	honest := filepath.Join(dir, "honest.json")
	os.WriteFile(honest, raw, 0o644)
	if status, out, errOut := runCLI("verify", honest); status != exitOK || !strings.Contains(out, "VERIFIED") {
		t.Errorf("verify of an honest log: %d %s %s", status, out, errOut)
	}
	// The first action that rolled (a move rolls nothing).
	k := slices.IndexFunc(lg.Actions, func(e vhttp.LogEntry) bool { return strings.Contains(string(e.Outcome), `"value"`) })
	if k < 0 {
		return
	}
	original := lg.Actions[k].Outcome
	var outcome map[string]any
	json.Unmarshal(original, &outcome)
	die := outcome["rolls"].([]any)[0].(map[string]any)
	die["value"] = float64(int(die["value"].(float64))%6 + 1) // a different face
	lg.Actions[k].Outcome, _ = json.Marshal(outcome)
	forged, _ := json.Marshal(lg)
	tampered := filepath.Join(dir, "tampered.json")
	os.WriteFile(tampered, forged, 0o644)
	if status, _, errOut := runCLI("verify", tampered); status != exitInput || !strings.Contains(errOut, "REJECTED") || !strings.Contains(errOut, "die 1") {
		t.Errorf("verify of a log with one die changed: %d %s", status, errOut)
	}
	lg.Actions[k].Outcome = original
	wrongSeed := seed.String()[:63] + "0" // another seed: its commitment differs
	if wrongSeed == seed.String() {
		wrongSeed = seed.String()[:63] + "1"
	}
	lg.Seed = &wrongSeed
	forged, _ = json.Marshal(lg)
	os.WriteFile(tampered, forged, 0o644)
	if status, _, errOut := runCLI("verify", tampered); status != exitInput || !strings.Contains(errOut, "commitment") {
		t.Errorf("verify with another seed: %d %s", status, errOut)
	}
}

// demoLink is a demo battle's link: its id, and the role and token it carries.
var demoLink = regexp.MustCompile(`#/battles/([0-9a-f]{16})\?([^=\s]+)=([0-9a-f]{32})`)

// demoLinks waits until the server has printed links to at least battles battles, and
// returns them by battle and role ("spectator" or a side).
func demoLinks(t *testing.T, srv *server, battles int) map[string]map[string]string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		links := map[string]map[string]string{}
		for _, line := range srv.printed() {
			m := demoLink.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			if links[m[1]] == nil {
				links[m[1]] = map[string]string{}
			}
			links[m[1]][m[2]] = m[3]
		}
		if len(links) >= battles || time.Now().After(deadline) {
			return links
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestServeDemos: a fresh store gets one demo battle per rule system, printed with a
// link for each side and one to watch, and offered by GET /api/demos with the same
// tokens; the battle list shows them to those tokens; a restart on the same store prints
// the same links again, except that a demo that has ended is replaced by a new one.
func TestServeDemos(t *testing.T) {
	db := filepath.Join(t.TempDir(), "demo.db")
	srv := startServer(t, db)
	links := demoLinks(t, srv, len(rules.Names()))
	// The server serves the schemas `volley schema` prints, for editors and the page.
	for _, name := range []string{"warstrike", ""} {
		resp, err := http.Get(srv.url + strings.TrimSuffix("/api/schema/"+name, "/"))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if want, _ := schemaFile(name); resp.StatusCode != 200 || !bytes.Equal(got, want) {
			t.Errorf("GET /api/schema/%s: %d, %d bytes; volley schema prints %d", name, resp.StatusCode, len(got), len(want))
		}
	}
	if len(links) != len(rules.Names()) {
		t.Fatalf("links to %d demo battles for %d rule systems:\n%s", len(links), len(rules.Names()), strings.Join(srv.printed(), "\n"))
	}
	var toks []string
	for id, roles := range links {
		if len(roles) != 3 || roles["spectator"] == "" {
			t.Errorf("demo %s: links %v; want one a side and one to watch", id, roles)
		}
		for _, tok := range roles {
			toks = append(toks, tok)
		}
	}
	list := mustRequest(t, "GET", srv.url+"/api/battles", strings.Join(toks, ","), nil, 200)["battles"].([]any)
	if len(list) != len(rules.Names()) {
		t.Errorf("%d demo battles for %d rule systems", len(list), len(rules.Names()))
	}
	if none := mustRequest(t, "GET", srv.url+"/api/battles", "", nil, 200)["battles"].([]any); len(none) != 0 {
		t.Errorf("the battle list without tokens shows %d battles", len(none))
	}
	demos := mustRequest(t, "GET", srv.url+"/api/demos", "", nil, 200)["demos"].([]any)
	var ended string
	for _, d := range demos {
		m := d.(map[string]any)
		id := m["id"].(string)
		if links[id] == nil || m["spectator"] != links[id]["spectator"] || m["title"] == "" {
			t.Errorf("GET /api/demos offers %v; the printed links are %v", m, links[id])
		}
		for side, tok := range m["sides"].(map[string]any) {
			if links[id][side] != tok {
				t.Errorf("demo %s: side %s's token %v; printed %q", id, side, tok, links[id][side])
			}
		}
		if ended == "" {
			ended = id
			var side string
			for sd := range m["sides"].(map[string]any) {
				side = sd
			}
			mustRequest(t, "POST", srv.url+"/api/battles/"+id+"/end", links[id][side], nil, 200)
		}
	}
	if len(demos) != len(rules.Names()) {
		t.Errorf("GET /api/demos offers %d demos", len(demos))
	}
	srv.cmd.Process.Kill()
	srv.cmd.Wait()
	srv = startServer(t, db)
	again := demoLinks(t, srv, len(rules.Names()))
	fresh := 0
	for id, roles := range again {
		switch {
		case links[id] == nil:
			fresh++
		case fmt.Sprint(roles) != fmt.Sprint(links[id]):
			t.Errorf("after a restart demo %s's links are %v; they were %v", id, roles, links[id])
		}
	}
	if len(again) != len(rules.Names()) || fresh != 1 || again[ended] != nil {
		t.Errorf("after a restart: links to %d demos, %d new, the ended one still offered: %t; want the same five but the ended one, replaced", len(again), fresh, again[ended] != nil)
	}
}

// canonical writes v as the JSON a decoded answer marshals to (maps, sorted keys), so
// that a state computed here compares with one read from an answer.
func canonical(v any) string {
	raw, _ := json.Marshal(v)
	var generic any
	json.Unmarshal(raw, &generic)
	out, _ := json.Marshal(generic)
	return string(out)
}
