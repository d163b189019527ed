package http_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/examples"
	vhttp "github.com/volley-wargames/volley/http"
	"github.com/volley-wargames/volley/servertest"
)

// opponentServer is a server whose battles roll from a seed fixed by name, with an
// opponent that does not pause between its actions.
func opponentServer(t *testing.T, name string) string {
	t.Helper()
	l := servertest.Limits()
	l.OpponentPace = -1
	srv := vhttp.NewServer(servertest.SQLite(t), slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})), l)
	sum := sha256.Sum256([]byte("volley opponent " + name))
	srv.NewSeed = func() (dice.Seed, error) { return dice.NewSeed(bytes.NewReader(sum[:])) }
	ts := servertest.Start(t, srv)
	return ts.URL
}

// withOpponent is examples/<system>/battle.yaml with an opponent: section.
func withOpponent(t *testing.T, system, spec string) []byte {
	t.Helper()
	doc, err := examples.FS.ReadFile(system + "/battle.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return append(doc, []byte("\nopponent: "+spec+"\n")...)
}

// playPassive plays side of battle id as a player who only ever ends its turn, phase or
// step (and lets every pause pass), while volley plays the other side, until the battle
// is over. It returns the log.
func playPassive(t *testing.T, base, id, side, token string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		status, v := call(t, "GET", base+"/api/battles/"+id, token, "", nil)
		if status != 200 {
			t.Fatalf("the battle: %d %v", status, v)
		}
		if r, _ := v["result"].(map[string]any); r != nil && r["over"] == true {
			_, lg := call(t, "GET", base+"/api/battles/"+id+"/log", token, "", nil)
			return lg
		}
		turn, _ := v["state"].(map[string]any)["turn"].(map[string]any)
		if turn == nil || turn["side"] != side {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		end, _ := json.Marshal(turn["end"])
		status, body := call(t, "POST", base+"/api/battles/"+id+"/actions", token, "", end)
		if status == 409 {
			continue // the opponent acted first (the battle ended, or the step passed)
		}
		if status != 200 {
			t.Fatalf("%s ends its %v: %d %v", side, turn["phase"], status, body)
		}
	}
	t.Fatalf("the battle did not end in 3 minutes")
	return nil
}

// TestOpponentPlays serves each system's battle with volley playing one side (at the
// greedy level, the quickest) against a player who only ends its turns: the side volley
// plays has no token; the view names it; volley's actions come by themselves, as its
// side's, each with its reasons in the log (why); at least one of them fires or moves;
// the battle reaches its end; and the log verifies.
func TestOpponentPlays(t *testing.T) {
	for _, tc := range []struct{ system, bot, human string }{
		{"dropzone", "Scourge", "UCM"},
		{"warfare", "French", "English"},
		{"warengine", "raiders", "trenchers"},
		{"republique", "Austrian", "French"},
		{"warstrike", "Verdant", "Ironclad"},
	} {
		t.Run(tc.system, func(t *testing.T) {
			base := opponentServer(t, tc.system)
			doc := withOpponent(t, tc.system, "{side: "+tc.bot+", level: greedy}")
			status, c := call(t, "POST", base+"/api/battles", "", "", doc)
			if status != 201 {
				t.Fatalf("create: %d %v", status, c)
			}
			id := c["id"].(string)
			tokens := c["tokens"].(map[string]any)
			if _, ok := tokens[tc.bot]; ok || tokens[tc.human] == nil || len(tokens) != 1 {
				t.Fatalf("tokens for %v; want %s's alone", tokens, tc.human)
			}
			if o := c["opponent"].(map[string]any); o["side"] != tc.bot || o["level"] != "greedy" {
				t.Errorf("opponent %v", o)
			}
			token := tokens[tc.human].(string)
			_, v := call(t, "GET", base+"/api/battles/"+id, token, "", nil)
			if fmt.Sprint(v["sides"]) != fmt.Sprint(sortedPair(tc.bot, tc.human)) || v["opponent"] == nil {
				t.Errorf("the view's sides %v, opponent %v", v["sides"], v["opponent"])
			}
			lg := playPassive(t, base, id, tc.human, token)
			acted := 0
			for _, e := range lg["actions"].([]any) {
				e := e.(map[string]any)
				if e["side"] != tc.bot {
					continue
				}
				why, _ := e["why"].(string)
				if why == "" {
					t.Errorf("volley's action %v (%s) says no why", e["seq"], e["action"])
				}
				if !strings.Contains(e["action"].(string), `"type":"end`) {
					acted++
				}
			}
			if acted == 0 {
				t.Errorf("volley only ended its turns: %v", lg["actions"])
			}
			_, vv := call(t, "GET", base+"/api/battles/"+id+"/verify", token, "", nil)
			if vv["verified"] != true {
				t.Errorf("verify: %v", vv)
			}
			t.Logf("%d actions, %d of volley's that are not ends", len(lg["actions"].([]any)), acted)
		})
	}
}

func sortedPair(a, b string) []string {
	if b < a {
		a, b = b, a
	}
	return []string{a, b}
}

// TestOpponentDeterministic plays the same battle twice, on two servers with the same
// seed, the player doing the same: volley's actions, their reasons and every outcome
// are the same, byte for byte.
func TestOpponentDeterministic(t *testing.T) {
	var logs [2]string
	for i := range logs {
		base := opponentServer(t, "the same")
		status, c := call(t, "POST", base+"/api/battles", "", "", withOpponent(t, "dropzone", "{side: UCM, level: teaching, style: bold}"))
		if status != 201 {
			t.Fatalf("create: %d %v", status, c)
		}
		lg := playPassive(t, base, c["id"].(string), "Scourge", c["tokens"].(map[string]any)["Scourge"].(string))
		var b strings.Builder
		for _, e := range lg["actions"].([]any) {
			e := e.(map[string]any)
			fmt.Fprintf(&b, "%v %v %v %s\n", e["seq"], e["side"], e["action"], e["outcome"])
		}
		logs[i] = b.String()
	}
	if logs[0] != logs[1] {
		t.Errorf("two plays differ:\n%s\n---\n%s", logs[0], logs[1])
	}
}

// TestOpponentRefused: an opponent: section at fault is a 400 naming its place, for each
// mistake at once, and no battle is made.
func TestOpponentRefused(t *testing.T) {
	base := opponentServer(t, "refused")
	for _, tc := range []struct{ spec, want string }{
		{"{side: Scourges}", `body:94:18: opponent: side: no side "Scourges" (did you mean "Scourge"?)`},
		{"{side: Scourge, level: genius}", `unknown level "genius"`},
		{"{side: Scourge, style: wild}", `style "wild"`},
		{"{level: strong}", "side"},
	} {
		status, v := call(t, "POST", base+"/api/battles", "", "", withOpponent(t, "dropzone", tc.spec))
		if status != 400 || !strings.Contains(fmt.Sprint(v), tc.want) {
			t.Errorf("%s: %d %v; want 400 with %q", tc.spec, status, v, tc.want)
		}
	}
}
