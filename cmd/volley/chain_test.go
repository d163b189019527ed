package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	vhttp "github.com/volley-wargames/volley/http"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/servertest"
)

// sqliteServer serves the API on a SQLite file of the test's, until the test ends, and
// answers its address.
func sqliteServer(t *testing.T) string {
	t.Helper()
	return servertest.Serve(t, servertest.SQLite(t), vhttp.Limits{}).URL
}

// openLog reads a battle's log as the API gives it (raw) and opens the battle it began
// from, to be replayed with the log's revealed seed.
func openLog(t *testing.T, raw []byte) (vhttp.Log, dice.Seed, volley.Battle) {
	t.Helper()
	var lg vhttp.Log
	if err := json.Unmarshal(raw, &lg); err != nil {
		t.Fatal(err)
	}
	seed, doc := servertest.Revealed(t, lg)
	_, b, _, err := rules.Open(doc)
	if err != nil {
		t.Fatal(err)
	}
	return lg, seed, b
}

// apiCall sends a request to the API and decodes its JSON answer.
func apiCall(t *testing.T, method, u, token string, body []byte) (int, map[string]any, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(servertest.Request(t, method, u, token, body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var v map[string]any
	json.Unmarshal(raw, &v)
	return resp.StatusCode, v, raw
}

// TestVerifyForgedHistory: issue 34's first break, on the command line. A battle is
// played through the API on a SQLite file and ended; its log is forged as anyone can once
// the seed is out (sabre-1 shooting warriors-1, not hunter-1, every outcome worked out
// again from the seed), and, apart, edited in sabre-1's facing, which no outcome records.
// `volley verify` given the head the player kept from the last answer (--head) or the
// server's key (--key) refuses both, with the log's signed head left in or taken out, and
// accepts the real log.
func TestVerifyForgedHistory(t *testing.T) {
	base := sqliteServer(t)
	scen, err := os.ReadFile(filepath.Join("..", "..", "examples", "dropzone", "moves.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	status, v, _ := apiCall(t, "POST", base+"/api/battles", "", scen)
	if status != 201 {
		t.Fatalf("create: %d %v", status, v)
	}
	id, ucm := v["id"].(string), v["tokens"].(map[string]any)["UCM"].(string)
	scourge := v["tokens"].(map[string]any)["Scourge"].(string)
	var kept []byte
	var keptHash string
	for _, act := range []struct{ token, body string }{
		{ucm, "type: end_deployment"},
		{scourge, "type: end_deployment"},
		{ucm, "{type: move, unit: sabre-1, path: [[14, 9]], facing: 30}"},
		{ucm, "squad: sabres\ndeclarations: [{unit: sabre-1, weapon: Avenger Railgun, target: hunter-1}]"},
		{ucm, "type: end_turn"},
	} {
		body := act.body
		status, v, _ := apiCall(t, "POST", base+"/api/battles/"+id+"/actions", act.token, []byte(body))
		if status != 200 {
			t.Fatalf("%s: %d %v", body, status, v)
		}
		if v["head"] == nil {
			t.Fatalf("the answer to %s gives no head for the player to keep: %v", body, v)
		}
		kept, _ = json.Marshal(v["head"])
		keptHash, _ = v["head"].(map[string]any)["hash"].(string)
	}
	apiCall(t, "POST", base+"/api/battles/"+id+"/end", ucm, nil)
	_, _, raw := apiCall(t, "GET", base+"/api/battles/"+id+"/log", ucm, nil)
	_, v, _ = apiCall(t, "GET", base+"/api/key", "", nil)
	key, _ := v["key"].(string)

	dir := t.TempDir()
	write := func(name string, b []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	real := write("real.json", raw)
	for _, args := range [][]string{{"--head", string(kept)}, {"--key", key}, {"--head", string(kept), "--key", key}} {
		if status, out, errOut := runCLI(append([]string{"verify", real}, args...)...); status != exitOK || !strings.Contains(out, "VERIFIED") {
			t.Errorf("verify the real log %v: %d %s %s", args, status, out, errOut)
		}
	}

	lg, seed, b := openLog(t, raw)
	other := lg
	other.Actions = nil
	for _, a := range lg.Actions {
		body := strings.Replace(a.Action, "target: hunter-1", "target: warriors-1", 1)
		_, actor, out, err := volley.ReplayAction(context.Background(), b, body, seed.ForAction(a.Seq))
		if err != nil {
			t.Fatalf("forging action %d: %v", a.Seq, err)
		}
		o, _ := json.Marshal(out)
		other.Actions = append(other.Actions, vhttp.LogEntry{Seq: a.Seq, Side: actor, Action: body, Outcome: o})
	}
	facing := lg
	facing.Actions = append([]vhttp.LogEntry(nil), lg.Actions...)
	facing.Actions[2].Action = strings.Replace(facing.Actions[2].Action, "facing: 30", "facing: 200", 1)
	for name, forged := range map[string]vhttp.Log{"another history": other, "the facing edited": facing} {
		withHead, _ := json.Marshal(forged)
		var m map[string]any
		json.Unmarshal(withHead, &m)
		delete(m, "head")
		withoutHead, _ := json.Marshal(m)
		if status, out, errOut := runCLI("verify", write("bare.json", withoutHead)); status != exitOK {
			t.Errorf("%s: the seed alone should not tell it from the real log, yet: %d %s %s", name, status, out, errOut)
		}
		for file, b := range map[string][]byte{"with the real head": withHead, "without a head": withoutHead} {
			path := write("forged.json", b)
			for _, args := range [][]string{{"--head", string(kept)}, {"--head", keptHash}, {"--key", key}} {
				if status, _, errOut := runCLI(append([]string{"verify", path}, args...)...); status != exitInput || !strings.Contains(errOut, "REJECTED") {
					t.Errorf("verify %s %s %v: %d %s; want REJECTED", name, file, args[0], status, errOut)
				}
			}
		}
	}
}
