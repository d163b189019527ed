package http_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	vhttp "github.com/volley-wargames/volley/http"
)

var writeV4Logs = flag.Bool("write-v4-logs", false, "write testdata/v4-logs from the edition 4 races played (only on the volley that played edition 4 as it was)")

// editionBattle stores a battle begun under edition ed, as a server of that edition would
// have made it, and returns its id and its sides' tokens (watch gives its spectator's).
func editionBattle(tb testing.TB, store volley.Store, ed int, ruleset string, scenario []byte, sides ...string) (string, map[string]string) {
	tb.Helper()
	hash := func(tok string) string {
		sum := sha256.Sum256([]byte(tok))
		return hex.EncodeToString(sum[:])
	}
	seed, err := dice.NewSeed(rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	name := tb.Name() + ruleset
	spectator := hash("spectator " + name)[:32]
	rec := &volley.BattleRecord{ID: hash("battle " + name)[:16], Ruleset: ruleset, Scenario: string(scenario), Edition: ed, Seed: seed,
		TokenHashes: map[string]string{}, SpectatorHash: hash(spectator)}
	rec.Commitment = volley.Commitment(rec)
	tokens := map[string]string{}
	for _, side := range sides {
		tokens[side] = hash(side + " " + name)[:32]
		rec.TokenHashes[side] = hash(tokens[side])
	}
	if err := store.CreateBattle(context.Background(), rec); err != nil {
		tb.Fatal(err)
	}
	spectators.Store(rec.ID, spectator)
	return rec.ID, tokens
}

// step is one action a side sends, and the status it is answered with.
type step struct {
	side, body string
	status     int
}

// edition4Races are the race issue 34 found, in each system's moves.yaml as edition 4
// plays it: the side that plays second deploys out of the other's turn, the side that
// plays first then moves, which ends the deployment for both, and the second side's next
// deployment is refused.
var edition4Races = []struct {
	ruleset, file string
	sides         []string
	steps         []step
}{
	{"dropzone", "dropzone/moves.yaml", []string{"UCM", "Scourge"}, []step{
		{"Scourge", "{type: deploy, unit: hunter-1, at: [12, 34], facing: 180}", 200},
		{"UCM", "{type: move, unit: sabre-1, path: [[14, 9]]}", 200},
		{"Scourge", "{type: deploy, unit: hunter-2, at: [24, 34]}", 409},
		{"UCM", "{squad: sabres, declarations: [{unit: sabre-3, weapon: Avenger Railgun, target: hunter-2}]}", 200},
	}},
	{"warfare", "warfare/moves.yaml", []string{"English", "French"}, []step{
		{"French", "{type: deploy, unit: spearmen, at: [4, 9]}", 200},
		{"English", "{type: move, unit: longbowmen, path: [[0, 2]]}", 200},
		{"French", "{type: deploy, unit: knights, at: [0, 10]}", 409},
		{"English", "{unit: longbowmen, targets: [{unit: knights, stands: 4}, {unit: spearmen, stands: 2}]}", 200},
	}},
	{"warstrike", "warstrike/moves.yaml", []string{"Ironclad", "Verdant"}, []step{
		{"Verdant", "{type: deploy, unit: raiders, at: [24, 24]}", 200},
		{"Ironclad", "{type: move, unit: bravo, action: at_the_double, models: [{id: bravo-leader, path: [[5, 22]]}, {id: bravo-2, path: [[7, 22]]}, {id: bravo-3, path: [[9, 22]]}]}", 200},
		{"Verdant", "{type: deploy, unit: raider-1, at: [30, 30]}", 409},
	}},
	{"warengine", "warengine/moves.yaml", []string{"trenchers", "raiders"}, []step{
		{"raiders", "{type: deploy, unit: raider-2, at: [15, 1], facing: S}", 200},
		{"trenchers", "{type: move, unit: murphy, facing: NE}", 200},
		{"raiders", "{type: deploy, unit: raider-1, at: [8, 1]}", 409},
	}},
	{"republique", "republique/moves.yaml", []string{"French", "Austrian"}, []step{
		{"Austrian", "{type: deploy, unit: IR, at: [30, 62], facing: 180}", 200},
		{"French", "{type: move, unit: hussars, path: [[60, 28]]}", 200},
		{"Austrian", "{type: deploy, unit: ab2, at: [100, 62], facing: 180}", 409},
	}},
}

// TestEdition4DeploymentAsItWas: a battle begun under edition 4 deploys as it did, the
// race included, in every system that deploys, and its log verifies. With
// -write-v4-logs the logs are kept in testdata/v4-logs, for TestEdition4LogsVerify.
func TestEdition4DeploymentAsItWas(t *testing.T) {
	store := sqliteStore(t)
	ts := serve(t, store)
	for _, race := range edition4Races {
		src := example(t, race.file)
		if race.ruleset == "republique" {
			src = republiqueMoves(t)
		}
		id, tokens := editionBattle(t, store, volley.EditionMoves, race.ruleset, src, race.sides...)
		for _, s := range race.steps {
			if status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/actions", tokens[s.side], "", []byte(s.body)); status != s.status {
				t.Fatalf("%s, edition 4: %s: %d %v; want %d", race.ruleset, s.body, status, v, s.status)
			}
		}
		call(t, "POST", ts.URL+"/api/battles/"+id+"/end", tokens[race.sides[0]], "", nil)
		a := send(t, "GET", ts.URL+"/api/battles/"+id+"/log", watch(id), nil)
		var lg vhttp.Log
		if err := json.Unmarshal(a.body, &lg); err != nil {
			t.Fatal(err)
		}
		if v, err := vhttp.Verify(context.Background(), lg); err != nil || v.Actions != len(lg.Actions) {
			t.Errorf("%s, edition 4: %+v, %v", race.ruleset, v, err)
		}
		if *writeV4Logs {
			var out bytes.Buffer
			if err := json.Indent(&out, a.body, "", "  "); err != nil {
				t.Fatal(err)
			}
			out.WriteByte('\n')
			if err := os.WriteFile(filepath.Join("testdata", "v4-logs", race.ruleset+".json"), out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestEdition4LogsVerify: the logs of the race as edition 4 played it (written by the
// volley before deployment took turns, with -write-v4-logs) still verify, each with a
// deployment out of turn and a move that ended the deployment, and still reject a
// deployment moved elsewhere.
func TestEdition4LogsVerify(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "v4-logs", "*.json"))
	if len(files) != len(edition4Races) {
		t.Fatalf("%d edition 4 logs; want %d, one per system that deploys", len(files), len(edition4Races))
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var lg vhttp.Log
		if err := json.Unmarshal(raw, &lg); err != nil {
			t.Fatal(err)
		}
		if lg.Edition != volley.EditionMoves {
			t.Fatalf("%s is of edition %d; want %d", f, lg.Edition, volley.EditionMoves)
		}
		if v, err := vhttp.Verify(context.Background(), lg); err != nil || v.Actions != len(lg.Actions) {
			t.Errorf("%s: %+v, %v", f, v, err)
		}
		if len(lg.Actions) < 2 || !strings.Contains(lg.Actions[0].Action, "deploy") || !strings.Contains(lg.Actions[1].Action, "move") {
			t.Fatalf("%s does not begin with a deployment out of turn and a move", f)
		}
	}
}
