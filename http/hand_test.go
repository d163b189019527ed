package http_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/browsertest"
	vhttp "github.com/volley-wargames/volley/http"
	"github.com/volley-wargames/volley/servertest"
)

// handScenario is sabres.yaml played with dice rolled by hand.
func handScenario(t *testing.T) []byte {
	return bytes.Replace(example(t, "dropzone/sabres.yaml"), []byte("ruleset: dropzone\n"), []byte("ruleset: dropzone\ndice: players\n"), 1)
}

// railgun is sabre-1's railgun at hunter-1, the dice given beside it.
func railgun(dice string) []byte {
	s := "squad: sabres\ndeclarations:\n  - {unit: sabre-1, weapon: Avenger Railgun, target: hunter-1}\n"
	if dice != "" {
		s += "dice: " + dice + "\n"
	}
	return []byte(s)
}

// TestHandRolledBattle plays a battle whose players roll the dice over the API: the
// server asks for each die in order and stores nothing until it has them all; the rolls
// given are the rolls used; a face that is not its die's, a roll beyond those needed or
// out of turn is a 400 naming it; the log says the dice were the players' and verifies.
func TestHandRolledBattle(t *testing.T) {
	ts := serve(t, servertest.SQLite(t))
	status, created := call(t, "POST", ts.URL+"/api/battles", "", "", handScenario(t))
	if status != http.StatusCreated || created["dice"] != "players" {
		t.Fatalf("create: %d %v", status, created)
	}
	id := created["id"].(string)
	ucm := created["tokens"].(map[string]any)["UCM"].(string)
	scourge := created["tokens"].(map[string]any)["Scourge"].(string)
	spectator := created["spectator"].(string)
	actions := ts.URL + "/api/battles/" + id + "/actions"
	stored := func() float64 {
		_, v := call(t, "GET", ts.URL+"/api/battles/"+id, spectator, "", nil)
		if v["dice"] != "players" {
			t.Errorf("the battle's view says its dice are %v's", v["dice"])
		}
		return v["actions"].(float64)
	}

	// Without dice: the first die it needs, and nothing stored.
	status, v := call(t, "POST", actions, ucm, "", railgun(""))
	need, _ := v["need"].(map[string]any)
	if status != http.StatusUnprocessableEntity || v["code"] != "needs_roll" || v["field"] != "dice" || need == nil ||
		need["index"] != 0.0 || need["sides"] != 6.0 || !strings.Contains(need["purpose"].(string), "to-hit") {
		t.Fatalf("an action without its dice: %d %v", status, v)
	}
	// With the to-hit die: the damage die next.
	status, v = call(t, "POST", actions, ucm, "", railgun("[5]"))
	need, _ = v["need"].(map[string]any)
	if status != http.StatusUnprocessableEntity || need == nil || need["index"] != 1.0 || !strings.Contains(need["purpose"].(string), "damage") {
		t.Fatalf("an action with its first die: %d %v", status, v)
	}
	// Every side's view says which die is awaited, from whom, and what was given.
	for _, tok := range []string{spectator, scourge} {
		_, v := call(t, "GET", ts.URL+"/api/battles/"+id, tok, "", nil)
		aw, _ := v["awaiting"].(map[string]any)
		die, _ := aw["die"].(map[string]any)
		if aw == nil || aw["side"] != "UCM" || aw["action"] != "shoot" || fmt.Sprint(aw["given"]) != "[5]" ||
			die["index"] != 1.0 || die["sides"] != 6.0 || !strings.HasPrefix(die["purpose"].(string), "damage") {
			t.Fatalf("the view while a die is awaited: %v", v["awaiting"])
		}
	}
	if n := stored(); n != 0 {
		t.Fatalf("%v actions stored while the dice were being asked for", n)
	}
	// A 7 on a d6, and a roll beyond the action's dice: 400s naming the face.
	for dice, want := range map[string]string{
		"[5, 7]":    "dice[1]: 7 is not a face of die 2, a d6 for damage",
		"[5, 6, 3]": "dice[2]: a roll out of turn: this action rolls 2 dice, and 3 were given",
		"[5, six]":  "want a whole number",
	} {
		status, v := call(t, "POST", actions, ucm, "", railgun(dice))
		if status != http.StatusBadRequest || !strings.Contains(v["message"].(string), want) || !strings.HasPrefix(v["field"].(string), "body:4:") {
			t.Errorf("dice %s: %d %v; want a 400 at the face saying %q", dice, status, v, want)
		}
	}
	// The dice given are the dice used.
	status, v = call(t, "POST", actions, ucm, "", railgun("[5, 6]"))
	if status != http.StatusOK {
		t.Fatalf("the action with its dice: %d %v", status, v)
	}
	rolls := v["outcome"].(map[string]any)["rolls"].([]any)
	if len(rolls) != 2 {
		t.Fatalf("rolls %v", rolls)
	}
	for i, want := range []float64{5, 6} {
		r := rolls[i].(map[string]any)
		if r["value"] != want || r["by"] != "UCM" || r["sides"] != 6.0 {
			t.Errorf("roll %d: %v; want %v, UCM's", i, r, want)
		}
	}
	if n := stored(); n != 1 {
		t.Fatalf("%v actions stored", n)
	}
	if _, v := call(t, "GET", ts.URL+"/api/battles/"+id, ucm, "", nil); v["awaiting"] != nil {
		t.Errorf("a die is still awaited once the action is taken: %v", v["awaiting"])
	}
	// The squad has fired this turn: its dice are rolled out of turn.
	status, v = call(t, "POST", actions, ucm, "", railgun("[4, 4]"))
	if status != http.StatusBadRequest || !strings.Contains(v["message"].(string), "a roll out of turn") {
		t.Errorf("dice for a squad that has fired: %d %v", status, v)
	}
	// A move, an end of turn: they roll no die, and take none.
	status, v = call(t, "POST", actions, ucm, "", []byte("{type: end_turn, dice: [3]}"))
	if status != http.StatusBadRequest || !strings.Contains(v["message"].(string), "this action rolls no die") {
		t.Errorf("dice with an end of turn: %d %v", status, v)
	}
	if status, v := call(t, "POST", actions, ucm, "", []byte("{type: end_turn}")); status != http.StatusOK {
		t.Fatalf("end of turn: %d %v", status, v)
	}

	// The log says whose dice they were, in its words too.
	status, lg := call(t, "GET", ts.URL+"/api/battles/"+id+"/log", spectator, "", nil)
	if status != http.StatusOK || lg["dice"] != "players" {
		t.Fatalf("log: %d %v", status, lg["dice"])
	}
	words := lg["actions"].([]any)[0].(map[string]any)["words"].([]any)
	if len(words) == 0 || !strings.Contains(words[0].(string), "rolled by hand by UCM, not by the server: 5 (d6), 6 (d6)") {
		t.Errorf("words %v", words)
	}
	if status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/end", ucm, "", nil); status != http.StatusOK {
		t.Fatalf("end: %d %v", status, v)
	}
	status, v = call(t, "GET", ts.URL+"/api/battles/"+id+"/verify", spectator, "", nil)
	if status != http.StatusOK || v["verified"] != true || v["rolled_by"] != "players" || v["dice"] != 2.0 {
		t.Errorf("verify: %d %v", status, v)
	}
	// And it tests UCM's dice against fair ones: a 5 and a 6 on d6s.
	fair, _ := json.Marshal(v["fairness"])
	if want := `[{"by":"UCM","chi_square":4,"exact":true,"faces":[0,0,0,0,1,1],"p":1,"rolls":2,"sides":6}]`; string(fair) != want {
		t.Errorf("verify's fairness: %s; want %s", fair, want)
	}
	// The log downloaded verifies as volley verify checks it, and a face changed in it
	// does not.
	raw := readLog(t, ts.URL, id, spectator)
	var full vhttp.Log
	if err := json.Unmarshal(raw, &full); err != nil {
		t.Fatal(err)
	}
	got, err := vhttp.Verify(t.Context(), full)
	if err != nil || !got.Hand || got.Dice != 2 {
		t.Errorf("Verify: %+v, %v", got, err)
	}
	forged := full
	forged.Actions = append([]vhttp.LogEntry(nil), full.Actions...)
	forged.Actions[0].Outcome = json.RawMessage(strings.Replace(string(full.Actions[0].Outcome), `"value":6`, `"value":1`, 1))
	if _, err := vhttp.Verify(t.Context(), forged); err == nil {
		t.Error("a log whose roll was changed verifies")
	}
}

// TestServerDiceTakeNone: a battle whose server rolls the dice refuses dice given with
// an action, at their place; its view, log and verification say the dice were the
// server's, and its rolls name no hand.
func TestServerDiceTakeNone(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "dropzone/sabres.yaml")
	status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/actions", tokens["UCM"], "", railgun("[6, 6]"))
	if status != http.StatusBadRequest || v["field"] != "body:4:7" || !strings.Contains(v["message"].(string), "this battle's dice are the server's") {
		t.Errorf("dice given to the server: %d %v", status, v)
	}
	status, v = call(t, "POST", ts.URL+"/api/battles/"+id+"/actions", tokens["UCM"], "", railgun(""))
	rolls, _ := v["outcome"].(map[string]any)["rolls"].([]any)
	if status != http.StatusOK || len(rolls) == 0 || rolls[0].(map[string]any)["by"] != nil {
		t.Fatalf("the shot rolled by the server: %d %v", status, v)
	}
	if _, v := call(t, "GET", ts.URL+"/api/battles/"+id, watch(id), "", nil); v["dice"] != "server" || v["awaiting"] != nil {
		t.Errorf("view: dice %v, awaiting %v", v["dice"], v["awaiting"])
	}
	call(t, "POST", ts.URL+"/api/battles/"+id+"/end", tokens["UCM"], "", nil)
	var lg vhttp.Log
	if err := json.Unmarshal(readLog(t, ts.URL, id, watch(id)), &lg); err != nil {
		t.Fatal(err)
	}
	if lg.Dice != "server" || strings.Contains(strings.Join(lg.Actions[0].Words, "\n"), "by hand") {
		t.Errorf("log: dice %q, words %q", lg.Dice, lg.Actions[0].Words)
	}
	if _, v := call(t, "GET", ts.URL+"/api/battles/"+id+"/verify", watch(id), "", nil); v["verified"] != true || v["rolled_by"] != "server" {
		t.Errorf("verify: %v", v)
	}
}

func readLog(t *testing.T, base, id, token string) []byte {
	t.Helper()
	req, _ := http.NewRequest("GET", base+"/api/battles/"+id+"/log", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// handRolled is an example scenario played with dice rolled by hand.
func handRolled(t *testing.T, name string) []byte {
	t.Helper()
	src := example(t, name)
	i := bytes.Index(src, []byte("\nruleset: "))
	if i < 0 {
		t.Fatalf("%s has no ruleset line", name)
	}
	return append(append(src[:i+1:i+1], "dice: players\n"...), src[i+1:]...)
}

// playByHand sends an action of a battle rolled by hand as a table would: first with no
// dice, then again with each die volley asks for, its face chosen by roll, until the
// action is taken. It returns the dice asked for, in order, and the action's body as
// taken.
func playByHand(t *testing.T, base, id, token, action string, roll func(die map[string]any) int) ([]map[string]any, string) {
	t.Helper()
	var asked []map[string]any
	var faces []string
	for range 20 {
		body := action
		if len(faces) > 0 {
			body += ", dice: [" + strings.Join(faces, ", ") + "]"
		}
		body = "{" + body + "}"
		status, v := call(t, "POST", base+"/api/battles/"+id+"/actions", token, "", []byte(body))
		if status == http.StatusOK {
			return asked, body
		}
		need, _ := v["need"].(map[string]any)
		if status != http.StatusUnprocessableEntity || need == nil || need["index"] != float64(len(faces)) {
			t.Fatalf("%s: %d %v", body, status, v)
		}
		asked = append(asked, need)
		faces = append(faces, fmt.Sprint(roll(need)))
	}
	t.Fatalf("%s: still asking for dice after 20", action)
	return nil, ""
}

// TestHandRolledWarEngine: the War Engine's shot of the Bolter at the soldier behind the
// tree, rolled by hand. volley asks for the percentile die to hit first; a 101 on it is
// a 400 at the face, and so is a 9 on the d8 of a miss's scatter. The faces given are the
// rolls used, in the order asked. Two battles of the same scenario, each with its own
// secret seed, given the same actions and rolls, log byte-identical outcomes: the seed
// decides nothing. Their logs verify.
func TestHandRolledWarEngine(t *testing.T) {
	ts := serve(t, servertest.SQLite(t))
	src := handRolled(t, "warengine/bolter.yaml")
	const fire = "type: fire, unit: in-the-open, weapon: Bolter"
	var logs [2]vhttp.Log
	for n := range logs {
		id, tokens := battle(t, ts.URL, src)
		blue := tokens["blue"]
		if n == 0 {
			// A face that is not its die's: 400 at the face, nothing taken.
			for body, want := range map[string]string{
				"{" + fire + ", dice: [101]}":   "dice[0]: 101 is not a face of die 1, a d100 for ChanceToHit",
				"{" + fire + ", dice: [90, 9]}": "dice[1]: 9 is not a face of die 2, a d8 for pick an empty square",
				"{" + fire + ", dice: [0]}":     "dice[0]: 0 is not a face of die 1",
			} {
				status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/actions", blue, "", []byte(body))
				if status != http.StatusBadRequest || !strings.Contains(v["message"].(string), want) || !strings.HasPrefix(v["field"].(string), "body:1:") {
					t.Errorf("%s: %d %v; want a 400 at the face saying %q", body, status, v, want)
				}
			}
			// Only blue's token may roll for blue's fire.
			status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/actions", tokens["red"], "", []byte("{"+fire+", dice: [5]}"))
			if status != http.StatusForbidden {
				t.Errorf("red rolling for blue's fire: %d %v", status, v)
			}
		}
		faces := []int{90, 3} // a miss, and where it lands
		asked, body := playByHand(t, ts.URL, id, blue, fire, func(die map[string]any) int {
			return faces[int(die["index"].(float64))]
		})
		if len(asked) != 2 || asked[0]["sides"] != 100.0 || !strings.HasPrefix(asked[0]["purpose"].(string), "ChanceToHit") || asked[1]["sides"] != 8.0 {
			t.Fatalf("dice asked for: %v", asked)
		}
		if status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/end", blue, "", nil); status != http.StatusOK {
			t.Fatalf("end: %d %v", status, v)
		}
		if err := json.Unmarshal(readLog(t, ts.URL, id, watch(id)), &logs[n]); err != nil {
			t.Fatal(err)
		}
		lg := logs[n]
		if lg.Dice != "players" || len(lg.Actions) != 1 || lg.Actions[0].Action != body {
			t.Fatalf("log: dice %q, %d actions", lg.Dice, len(lg.Actions))
		}
		var out struct {
			Rolls []struct {
				Sides, Value int
				By           string
			}
		}
		if err := json.Unmarshal(lg.Actions[0].Outcome, &out); err != nil {
			t.Fatal(err)
		}
		if len(out.Rolls) != 2 || out.Rolls[0].Value != 90 || out.Rolls[0].Sides != 100 || out.Rolls[1].Value != 3 || out.Rolls[1].By != "blue" {
			t.Errorf("rolls %+v; want blue's 90 and 3", out.Rolls)
		}
		if v, err := vhttp.Verify(t.Context(), lg); err != nil || !v.Hand || v.Dice != 2 {
			t.Errorf("Verify: %+v, %v", v, err)
		}
	}
	if *logs[0].Seed == *logs[1].Seed {
		t.Fatal("two battles drew the same seed")
	}
	if !bytes.Equal(logs[0].Actions[0].Outcome, logs[1].Actions[0].Outcome) {
		t.Errorf("the same rolls by hand gave different outcomes:\n%s\n%s", logs[0].Actions[0].Outcome, logs[1].Actions[0].Outcome)
	}
}

// TestPageHandRolled plays one shot of a battle rolled by hand on the page: sabres.yaml
// with dice: players, sabre-1's railgun at hunter-1. Shooting asks for the to-hit d6 in a
// panel, then for the damage d6; the faces clicked are the dice of the shot, in the
// page's result, in the log ("rolled by hand") and in the API's log; a cancelled roll
// takes nothing; the dice verify as the players'.
func TestPageHandRolled(t *testing.T) {
	p := newBrowserPage(t)
	id := p.create(func() {
		p.pickExample("dropzone/sabres.yaml")()
		eval[bool](p, `(() => { const s = document.querySelector('#scenario');
			s.value = s.value.replace('\nruleset: dropzone\n', '\nruleset: dropzone\ndice: players\n');
			return s.dispatchEvent(new Event('input')); })()`)
	})
	p.Wait("the battle's dice badge", `document.querySelector('#hand-badge')`)

	declare := func() {
		// A cancelled shot stays declared, and a click on its target would clear it.
		if !eval[bool](p, `!!document.querySelector('#hist-hunter-1 rect')`) {
			p.Choose("#firer", "sabre-1")
			p.Press(`button.weapon[data-unit="sabre-1"][data-weapon="Avenger Railgun"]`)
			p.Mouse(browsertest.UnitPoint("hunter-1"), true, false)
			p.Wait("the odds histogram", `document.querySelector('#hist-hunter-1 rect')`)
		}
		p.Click("#shoot")
		p.Wait("the panel asking for a die", `document.querySelector('#dice-ask:not([hidden]) #die-face-6')`)
	}
	// Cancelled: nothing is taken.
	declare()
	if got := p.Text("#die-h"); got != "UCM: roll a d6" || !strings.Contains(p.Text("#die-purpose"), "to-hit: sabre-1 Avenger Railgun at hunter-1") {
		t.Errorf("the panel asks %q %q", got, p.Text("#die-purpose"))
	}
	if n := eval[int](p, `document.querySelectorAll('#dice-ask .faces button').length`); n != 6 || strings.Contains(p.Text("#dice-ask"), "null") {
		t.Errorf("%d faces offered for a d6; the panel reads %q", n, p.Text("#dice-ask"))
	}
	if aw := p.apiGet("/api/battles/"+id, nil)["awaiting"].(map[string]any); aw["side"] != "UCM" {
		t.Errorf("the view awaits %v", aw)
	}
	p.Click("#die-cancel")
	p.Wait("the cancelled roll", `document.querySelector('#dice-ask[hidden]') && document.querySelector('.error:not([hidden])')?.textContent.includes('cancelled')`)
	if n := p.apiGet("/api/battles/"+id, nil)["actions"].(float64); n != 0 {
		t.Fatalf("%v actions taken after a cancelled roll", n)
	}

	// Rolled: a 5 to hit, then a 6 for damage.
	declare()
	p.Screenshot("hand-ask")
	p.Click("#die-face-5")
	p.Wait("the damage die", `document.querySelector('#die-purpose')?.textContent.includes('damage')`)
	if got := p.Text("#die-given"); !strings.Contains(got, "rolled so far: 5") {
		t.Errorf("the second ask says %q", got)
	}
	p.Click("#die-face-6")
	p.Wait("the rolled dice", `document.querySelector('#dice')`)
	if got := p.Text("#dice"); got != "Dice: d6 5, d6 6" {
		t.Errorf("the result reads %q", got)
	}
	p.Wait("the shot in the log", `document.querySelectorAll('#log tr.die').length === 2`)
	if got := eval[string](p, `[...document.querySelectorAll('#log tr.die td.roll')].map(e => e.textContent).join('|')`); got != "5 rolled by hand (UCM)|6 rolled by hand (UCM)" {
		t.Errorf("the log's dice read %q", got)
	}
	lg := p.apiGet("/api/battles/"+id+"/log", nil)
	rolls := lg["actions"].([]any)[0].(map[string]any)["outcome"].(map[string]any)["rolls"].([]any)
	if len(rolls) != 2 || rolls[0].(map[string]any)["value"] != 5.0 || rolls[1].(map[string]any)["value"] != 6.0 || rolls[1].(map[string]any)["by"] != "UCM" {
		t.Errorf("the API's log has rolls %v", rolls)
	}
	p.Screenshot("hand-shot")

	eval[bool](p, `(window.confirm = () => true, true)`)
	p.Click("#end-battle")
	p.Click("#verify")
	p.Wait("the verification", `document.querySelector('#verify-result .ok')`)
	if got := p.Text("#verify-result"); !strings.Contains(got, "Verified: 1 actions replay exactly from the 2 dice the players rolled by hand") {
		t.Errorf("verification reads %q", got)
	}
	// A 5 and a 6: every way two d6 fall is at least as uneven.
	if got := p.Text(`#verify-result li.fair[data-by="UCM"]`); got != "UCM's d6: 2 throws (1: 0, 2: 0, 3: 0, 4: 0, 5: 1, 6: 1); fair dice spread this unevenly 100% of the time: as fair dice fall." {
		t.Errorf("the dice's fairness reads %q", got)
	}
}
