package http_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/volley-wargames/volley"
	vhttp "github.com/volley-wargames/volley/http"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/servertest"
	"github.com/volley-wargames/volley/storetest"
)

// chainMoves is a battle of examples/dropzone/moves.yaml as it is played: both sides end
// their deployment, two moves (the first turning sabre-1 to 30°), the squad's shots at
// hunter-1, hunter-2 and warriors-1, the turn's end, and a Scourge move.
var chainMoves = []struct{ side, body string }{
	{"UCM", "type: end_deployment"},
	{"Scourge", "type: end_deployment"},
	{"UCM", "{type: move, unit: sabre-1, path: [[14, 9]], facing: 30}"},
	{"UCM", "{type: move, unit: sabre-2, path: [[18, 9], [19.2, 10.6]], facing: 20}"},
	{"UCM", "squad: sabres\ndeclarations:\n  - {unit: sabre-1, weapon: Avenger Railgun, target: hunter-1}\n  - {unit: sabre-3, weapon: Avenger Railgun, target: hunter-2}\n  - {unit: sabre-3, weapon: Equalizer Machinegun, target: warriors-1}\n"},
	{"UCM", "type: end_turn"},
	{"Scourge", "{type: move, unit: hunter-1, path: [[12, 28]]}"},
}

// headOf reads the head an answer or an event gives.
func headOf(tb testing.TB, what string, v map[string]any) *vhttp.Head {
	tb.Helper()
	raw, _ := json.Marshal(v["head"])
	var h vhttp.Head
	if err := json.Unmarshal(raw, &h); err != nil || len(h.Hash) != 64 || len(h.Signature) != 128 {
		tb.Fatalf("%s gives no signed head: %v", what, v)
	}
	return &h
}

// serverKey is the key GET /api/key serves.
func serverKey(tb testing.TB, base string) string {
	tb.Helper()
	status, v := call(tb, "GET", base+"/api/key", "", "", nil)
	if status != 200 || v["algorithm"] != "Ed25519" || len(fmt.Sprint(v["key"])) != 64 {
		tb.Fatalf("GET /api/key: %d %v", status, v)
	}
	return v["key"].(string)
}

// playChained plays chainMoves through the API, following the battle's event stream, and
// ends it. It returns the battle's log, the head the UCM player kept (the last answer
// given to it), the Scourge player's, and the server's key. Every answer and event gives
// a signed head, and the answers, the events, the battle's view and the log agree.
func playChained(t *testing.T, base string) (lg vhttp.Log, ucm, scourge *vhttp.Head, key string) {
	t.Helper()
	id, tokens := battle(t, base, example(t, "dropzone/moves.yaml"))
	_, v := call(t, "GET", base+"/api/battles/"+id, watch(id), "", nil)
	if h := headOf(t, "the battle's view", v); h.Actions != 0 {
		t.Errorf("the head before any action covers %d actions", h.Actions)
	}
	stream := openStream(t, base, id, ticket(t, base, id, watch(id)), "-1")
	defer stream.close()
	var heads []*vhttp.Head
	for i, m := range chainMoves {
		status, v := call(t, "POST", base+"/api/battles/"+id+"/actions", tokens[m.side], "", []byte(m.body))
		if status != 200 {
			t.Fatalf("%s: %d %v", m.body, status, v)
		}
		h := headOf(t, "an action's answer", v)
		if h.Actions != i+1 {
			t.Errorf("the head after action %d covers %d actions", i, h.Actions)
		}
		if m.side == "UCM" {
			ucm = h
		} else {
			scourge = h
		}
		heads = append(heads, h)
	}
	for i := range chainMoves {
		e := stream.next(t)
		for e.Name != "action" {
			e = stream.next(t)
		}
		if h := headOf(t, "an action's event", e.Data); *h != *heads[i] {
			t.Errorf("event %s gives the head %+v; its answer gave %+v", e.ID, h, heads[i])
		}
	}
	_, v = call(t, "GET", base+"/api/battles/"+id, watch(id), "", nil)
	if h := headOf(t, "the battle's view", v); *h != *heads[len(heads)-1] {
		t.Errorf("the battle's view gives the head %+v; the last answer %+v", h, heads[len(heads)-1])
	}
	status, v := call(t, "POST", base+"/api/battles/"+id+"/end", tokens["Scourge"], "", nil)
	if status != 200 {
		t.Fatalf("end: %d %v", status, v)
	}
	if h := headOf(t, "the end's answer", v); *h != *heads[len(heads)-1] {
		t.Errorf("the end's answer gives the head %+v; the last answer %+v", h, heads[len(heads)-1])
	}
	for e := stream.next(t); ; e = stream.next(t) {
		if e.Name == "end" {
			if h := headOf(t, "the end event", e.Data); *h != *heads[len(heads)-1] {
				t.Errorf("the end event gives the head %+v; the last answer %+v", h, heads[len(heads)-1])
			}
			break
		}
	}
	raw := send(t, "GET", base+"/api/battles/"+id+"/log", watch(id), nil)
	if err := json.Unmarshal(raw.body, &lg); err != nil {
		t.Fatal(err)
	}
	if lg.Head == nil || *lg.Head != *heads[len(heads)-1] {
		t.Errorf("the log's head is %+v; the last answer gave %+v", lg.Head, heads[len(heads)-1])
	}
	return lg, ucm, scourge, serverKey(t, base)
}

// forge writes another history of an ended battle, as anyone can once its seed is out:
// the log's actions with edit applied to their bodies, every outcome worked out again
// from the revealed seed with volley.ReplayAction, and no head (a forger cannot sign one).
func forge(t *testing.T, lg vhttp.Log, edit func(seq int, body string) string) vhttp.Log {
	t.Helper()
	seed, doc := servertest.Revealed(t, lg)
	doc.Edition = lg.Edition
	doc.Accepted = true
	_, b, _, err := rules.Open(doc)
	if err != nil {
		t.Fatal(err)
	}
	f := lg
	f.Head = nil
	f.Actions = nil
	for _, a := range lg.Actions {
		body := edit(a.Seq, a.Action)
		_, actor, out, err := volley.ReplayAction(context.Background(), b, body, seed.ForAction(a.Seq))
		if err != nil {
			t.Fatalf("forging action %d (%s): %v", a.Seq, body, err)
		}
		o, _ := json.Marshal(out)
		f.Actions = append(f.Actions, vhttp.LogEntry{Seq: a.Seq, Side: actor, Action: body, Outcome: o})
	}
	return f
}

// TestForgedHistory is issue 34's first break. A real battle played through the API
// (SQLite, and PostgreSQL when the tests have it) is ended, and its log forged three ways:
// another history of the same battle, sabre-1 shooting warriors-1 rather than hunter-1,
// every outcome worked out again from the revealed seed; sabre-1's first move swapped
// for another as long, its trace worked out again; and sabre-1's facing edited, which no
// outcome records. The seed alone cannot tell either from the real log: both
// pass Verify. The head either player kept refuses them, and so does the server's key,
// whether the forger leaves the log unsigned, keeps the real signed head, or chains the
// forgery and signs it with another key; the real log passes every check.
func TestForgedHistory(t *testing.T) {
	for name, open := range map[string]func(t *testing.T) string{
		"sqlite":   func(t *testing.T) string { return serve(t, servertest.SQLite(t)).URL },
		"postgres": func(t *testing.T) string { return serve(t, storetest.Postgres(t, storetest.PostgresURL(t))).URL },
	} {
		t.Run(name, func(t *testing.T) {
			lg, ucm, scourge, keyHex := playChained(t, open(t))
			key, err := vhttp.ParseKey(keyHex)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			for what, trust := range map[string]vhttp.Trust{
				"alone":                 {},
				"with UCM's head":       {Head: ucm},
				"with Scourge's head":   {Head: scourge},
				"with the hash alone":   {Head: &vhttp.Head{Actions: -1, Hash: ucm.Hash}},
				"with the key":          {Key: key},
				"with the head and key": {Head: ucm, Key: key},
			} {
				if _, err := vhttp.VerifyWith(ctx, lg, trust); err != nil {
					t.Errorf("the real log, %s: %v", what, err)
				}
				// Read and written again by a JSON tool (keys sorted, indented, <>& as they
				// are, as a browser's JSON.stringify of the log writes them), it still chains.
				if _, err := vhttp.VerifyWith(ctx, rewritten(t, lg), trust); err != nil {
					t.Errorf("the real log written again by a JSON tool, %s: %v", what, err)
				}
			}

			other := forge(t, lg, func(seq int, body string) string {
				if seq == 4 {
					return strings.Replace(body, "{unit: sabre-1, weapon: Avenger Railgun, target: hunter-1}", "{unit: sabre-1, weapon: Avenger Railgun, target: warriors-1}", 1)
				}
				return body
			})
			if strings.Contains(other.Actions[4].Action, "hunter-1") {
				t.Fatal("the forgery did not change the shot")
			}
			swapped := forge(t, lg, func(seq int, body string) string {
				return strings.Replace(body, "path: [[14, 9]]", "path: [[11, 6]]", 1) // 3" as well, to the left
			})
			facing := lg
			facing.Actions = append([]vhttp.LogEntry(nil), lg.Actions...)
			facing.Actions[2].Action = strings.Replace(lg.Actions[2].Action, "facing: 30", "facing: 200", 1)
			for name, forged := range map[string]vhttp.Log{"another history": other, "a move swapped for another as long": swapped, "the facing edited": facing} {
				unsigned := forged
				unsigned.Head = nil
				if _, err := vhttp.Verify(ctx, unsigned); err != nil {
					t.Errorf("%s: the seed alone should not tell it from the real log, yet: %v", name, err)
				}
				// The forger's choices of head: none; the real one, signed; its own chain's,
				// signed with a key of its own.
				own := chained(t, forged)
				for headName, head := range map[string]*vhttp.Head{"no head": nil, "the real head": lg.Head, "its own head": own} {
					f := forged
					f.Head = head
					for what, trust := range map[string]vhttp.Trust{
						"UCM's head":     {Head: ucm},
						"Scourge's head": {Head: scourge},
						"the hash alone": {Head: &vhttp.Head{Actions: -1, Hash: scourge.Hash}},
						"the key":        {Key: key},
					} {
						_, err := vhttp.VerifyWith(ctx, f, trust)
						if err == nil || !strings.HasPrefix(err.Error(), "REJECTED") {
							t.Errorf("%s with %s, checked against %s: %v; want REJECTED", name, headName, what, err)
						}
					}
				}
			}
			// A log cut short of the head a player kept is refused too.
			short := lg
			short.Actions, short.Head = lg.Actions[:5], nil
			if _, err := vhttp.VerifyWith(ctx, short, vhttp.Trust{Head: scourge}); err == nil || !strings.Contains(err.Error(), "left off its end") {
				t.Errorf("a log cut short of the kept head: %v", err)
			}
		})
	}
}

// rewritten is a log read into plain JSON values and written again, indented, with its
// objects' keys sorted and nothing escaped that JSON does not require.
func rewritten(t *testing.T, lg vhttp.Log) vhttp.Log {
	t.Helper()
	raw, _ := json.Marshal(lg)
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "    ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	var out vhttp.Log
	if err := json.Unmarshal([]byte(b.String()), &out); err != nil {
		t.Fatal(err)
	}
	if string(out.Actions[4].Outcome) == string(lg.Actions[4].Outcome) {
		t.Fatal("the log written again has the same bytes: the test tests nothing")
	}
	return out
}

// TestOldLogsChain: the logs of battles played before chains (editions 1 to 3, written
// with no head) chain all the same, from their records: a head worked out from one checks,
// and a body edited anywhere is refused against it.
func TestOldLogsChain(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "v*-logs", "*.json"))
	if len(files) < 8 {
		t.Fatalf("%d old logs; want those of editions 1, 2 and 3", len(files))
	}
	ctx := context.Background()
	for _, f := range files {
		lg := readLogFile(t, f)
		v, err := vhttp.Verify(ctx, lg)
		if err != nil || lg.Head != nil {
			t.Fatalf("%s: %+v, %v", f, v, err)
		}
		kept := &vhttp.Head{Actions: len(lg.Actions), Hash: v.Head}
		if v, err := vhttp.VerifyWith(ctx, lg, vhttp.Trust{Head: kept}); err != nil || v.Kept != len(lg.Actions) {
			t.Errorf("%s against its own head: %+v, %v", f, v, err)
		}
		lg.Actions[0].Action += "\n# an edit"
		if _, err := vhttp.VerifyWith(ctx, lg, vhttp.Trust{Head: kept}); err == nil || !strings.Contains(err.Error(), "not the one you were shown") {
			t.Errorf("%s with its first action edited: %v", f, err)
		}
	}
}

// chained is a forged log's own head, as a forger would work it out, signed with a key
// that is not the server's.
func chained(t *testing.T, lg vhttp.Log) *vhttp.Head {
	t.Helper()
	rec := &volley.BattleRecord{ID: lg.ID, Ruleset: lg.Ruleset, Scenario: lg.Scenario, Commitment: lg.Commitment}
	head := volley.ChainStart(rec)
	for _, a := range lg.Actions {
		head = volley.ChainNext(head, &volley.ActionRecord{Seq: a.Seq, Side: a.Side, Body: a.Action, Outcome: string(a.Outcome)})
	}
	return &vhttp.Head{Actions: len(lg.Actions), Hash: head, Signature: strings.Repeat("ab", 64)}
}

// TestServerVerifiesKeptHead: the page's check, GET …/verify?head=…, says where the head
// it kept lies on the stored log's chain, and refuses one that is not on it.
func TestServerVerifiesKeptHead(t *testing.T) {
	ts := serve(t, servertest.SQLite(t))
	lg, ucm, _, _ := playChained(t, ts.URL)
	u := ts.URL + "/api/battles/" + lg.ID + "/verify"
	_, v := call(t, "GET", fmt.Sprintf("%s?head=%s&actions=%d", u, ucm.Hash, ucm.Actions), watch(lg.ID), "", nil)
	if v["verified"] != true || v["kept"] != float64(ucm.Actions) || headOf(t, "verify", v).Hash != lg.Head.Hash {
		t.Errorf("verify with the kept head: %v", v)
	}
	_, v = call(t, "GET", u+"?head="+strings.Repeat("0", 64), watch(lg.ID), "", nil)
	if v["verified"] != false || !strings.Contains(fmt.Sprint(v["problem"]), "not the one you were shown") {
		t.Errorf("verify with a head not on the chain: %v", v)
	}
	wantFieldError(t, "verify with a malformed head", u+"?head=nope", watch(lg.ID), "head")
}

// TestSigningKeyKept: the server's key is the store's. A server started again on the same
// SQLite file serves the same key, and two servers of one PostgreSQL database sign with
// one key: a head one signed checks with the key the other serves.
func TestSigningKeyKept(t *testing.T) {
	store := servertest.SQLite(t)
	first := serve(t, store)
	key := serverKey(t, first.URL)
	first.Close()
	if again := serverKey(t, serve(t, store).URL); again != key {
		t.Errorf("after a restart the key is %s; it was %s", again, key)
	}
	url := storetest.PostgresURL(t)
	a, b := serve(t, storetest.Postgres(t, url)), serve(t, storetest.Postgres(t, url))
	if ka, kb := serverKey(t, a.URL), serverKey(t, b.URL); ka != kb {
		t.Fatalf("two servers of one database serve the keys %s and %s", ka, kb)
	}
	id, tokens := battle(t, a.URL, example(t, "dropzone/moves.yaml"))
	_, v := call(t, "POST", a.URL+"/api/battles/"+id+"/actions", tokens["UCM"], "", []byte(chainMoves[0].body))
	h := headOf(t, "an action's answer", v)
	k, _ := vhttp.ParseKey(serverKey(t, b.URL))
	if !vhttp.SignedBy(k, id, h) {
		t.Error("a head signed by one server does not check with the other's key")
	}
	// The other server gives the same head for the same history.
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, v = call(t, "GET", b.URL+"/api/battles/"+id, watch(id), "", nil)
		if hb := headOf(t, "the other server's view", v); *hb == *h || time.Now().After(deadline) {
			if *hb != *h {
				t.Errorf("the other server gives the head %+v; the first %+v", hb, h)
			}
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// FuzzParseHead: a head given in a query or on the command line is read whole or refused
// with an error, never a panic; a head read has a count (or -1 for a bare hash) and a hash
// of 64 lower-case hex digits, and reads back the same from its JSON.
func FuzzParseHead(f *testing.F) {
	f.Add(`{"actions": 4, "hash": "` + strings.Repeat("aB", 32) + `", "signature": "00"}`)
	f.Add(strings.Repeat("0", 64))
	f.Add(`{"actions": -1, "hash": "` + strings.Repeat("0", 64) + `"}`)
	f.Add(`{"actions": 1, "hash": "` + strings.Repeat("0", 64) + `"} {}`)
	f.Add(`{"actions": 1e3, "hash": "x", "key": 1}`)
	f.Fuzz(func(t *testing.T, s string) {
		h, err := vhttp.ParseHead(s)
		if err != nil {
			return
		}
		if len(h.Hash) != 64 || strings.ToLower(h.Hash) != h.Hash || h.Actions < -1 || (h.Actions == -1) != !strings.HasPrefix(strings.TrimSpace(s), "{") {
			t.Fatalf("ParseHead(%q) = %+v", s, h)
		}
		if h.Actions >= 0 {
			raw, _ := json.Marshal(h)
			if again, err := vhttp.ParseHead(string(raw)); err != nil || *again != *h {
				t.Fatalf("ParseHead(%s) = %+v, %v; want %+v", raw, again, err, h)
			}
		}
	})
}
