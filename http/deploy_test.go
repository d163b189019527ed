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
	"github.com/volley-wargames/volley/servertest"
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

// deployed ends each side's deployment of battle id over the API, in the order the sides
// deploy, so that the battle begins with its units where the scenario placed them.
func deployed(tb testing.TB, base, id string, tokens map[string]string, sides ...string) {
	tb.Helper()
	for _, side := range sides {
		if status, v := call(tb, "POST", base+"/api/battles/"+id+"/actions", tokens[side], "", []byte("{type: end_deployment}")); status != 200 {
			tb.Fatalf("%s's end_deployment: %d %v", side, status, v)
		}
	}
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
	store := servertest.SQLite(t)
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
	// One log per system that deploys.
	for f, lg := range editionLogs(t, volley.EditionMoves, len(edition4Races)) {
		if v, err := vhttp.Verify(context.Background(), lg); err != nil || v.Actions != len(lg.Actions) {
			t.Errorf("%s: %+v, %v", f, v, err)
		}
		if len(lg.Actions) < 2 || !strings.Contains(lg.Actions[0].Action, "deploy") || !strings.Contains(lg.Actions[1].Action, "move") {
			t.Fatalf("%s does not begin with a deployment out of turn and a move", f)
		}
	}
}

// TestDeploymentIsNotARace is issue 34's break 4 on the API: in a battle of the current
// edition, the side that plays first can no longer end the other's deployment by acting
// first. Its move is refused while it deploys; the other side's deployment waits for its
// turn and then takes place; only when both have said they are done does the battle
// begin. Each refusal is a 409 naming whose deployment it is, and changes nothing.
func TestDeploymentIsNotARace(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "dropzone/moves.yaml")
	act := sidesActor(t, ts.URL, id, tokens)
	view := func() map[string]any {
		_, v := call(t, "GET", ts.URL+"/api/battles/"+id, watch(id), "", nil)
		return v
	}
	turn := func() map[string]any {
		tu, _ := view()["state"].(map[string]any)["turn"].(map[string]any)
		return tu
	}
	refused := func(side, body, want string) {
		t.Helper()
		before, _ := json.Marshal(view())
		status, v := act(side, body)
		if status != 409 || !strings.Contains(v["message"].(string), want) {
			t.Errorf("%s's %s: %d %v; want 409 saying %q", side, body, status, v, want)
		}
		if after, _ := json.Marshal(view()); !bytes.Equal(before, after) {
			t.Errorf("%s's refused %s changed the battle", side, body)
		}
	}
	played := func(side, body string) {
		t.Helper()
		if status, v := act(side, body); status != 200 {
			t.Fatalf("%s's %s: %d %v", side, body, status, v)
		}
	}
	// The race: UCM, which plays first, moves before the Scourge has deployed.
	refused("UCM", "{type: move, unit: sabre-1, path: [[14, 9]]}", "it is UCM's deployment")
	if tu := turn(); tu["side"] != "UCM" || tu["phase"] != "deployment" || tu["end"].(map[string]any)["type"] != "end_deployment" {
		t.Fatalf("the turn while UCM deploys: %v", tu)
	}
	refused("Scourge", "{type: deploy, unit: hunter-1, at: [12, 34], facing: 180}", "it is UCM's deployment")
	if view()["table"].(map[string]any)["deploying"] != true {
		t.Error("the board does not say units deploy")
	}
	// Ending the UCM's deployment is the UCM's to do.
	if status, v := act("Scourge", "{type: end_deployment}"); status != 403 || !strings.Contains(v["message"].(string), "this action is UCM's to take") {
		t.Errorf("the Scourge ending the UCM's deployment: %d %v", status, v)
	}
	played("UCM", "{type: deploy, unit: sabre-3, at: [28, 9]}")
	played("UCM", "{type: end_deployment}")
	if tu := turn(); tu["side"] != "Scourge" || tu["phase"] != "deployment" {
		t.Fatalf("the turn after UCM's deployment: %v", tu)
	}
	refused("UCM", "{type: move, unit: sabre-1, path: [[14, 9]]}", "it is Scourge's deployment")
	refused("UCM", "{type: deploy, unit: sabre-2, at: [20, 9]}", "it is Scourge's deployment")
	played("Scourge", "{type: deploy, unit: hunter-1, at: [12, 34], facing: 180}")
	played("Scourge", "{type: end_deployment}")
	if tu := turn(); tu["side"] != "UCM" || tu["phase"] != "turn" {
		t.Fatalf("the turn once both sides have deployed: %v", tu)
	}
	if view()["table"].(map[string]any)["deploying"] == true {
		t.Error("the board says units still deploy once the battle has begun")
	}
	played("UCM", "{type: move, unit: sabre-1, path: [[14, 9]]}")
	refused("Scourge", "{type: deploy, unit: hunter-2, at: [24, 34]}", "the battle has begun")
	refused("UCM", "{type: end_deployment}", "the battle has begun")
}
