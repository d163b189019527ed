package http_test

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/volley-wargames/volley/browsertest"
)

// withEnd is an example scenario without its actions, and with the end given (a
// scenario's end: section, docs/api.md): a battle to play to its end.
func withEnd(t *testing.T, name, end string) []byte {
	t.Helper()
	src := string(example(t, name))
	if i := strings.Index(src, "\nactions:"); i >= 0 {
		src = src[:i+1]
	}
	return []byte(src + "\n" + end)
}

// begin ends the sides' deployments where the battle deploys in turns (a turn whose end
// is {type: end_deployment}, as the server offers it from edition 5's deployment in
// turns), each side leaving its units where the scenario placed them, so that the battle
// has begun; a battle that offers no such turn is left as it is. It answers how many
// actions the log then holds: the tests count theirs after these.
func begin(t *testing.T, base, id string, tokens map[string]string) int {
	t.Helper()
	for {
		status, v := call(t, "GET", base+"/api/battles/"+id, tokens[firstKey(tokens)], "", nil)
		if status != 200 {
			t.Fatalf("the battle: %d %v", status, v)
		}
		turn, _ := v["state"].(map[string]any)["turn"].(map[string]any)
		end, _ := turn["end"].(map[string]any)
		if turn == nil || end == nil || end["type"] != "end_deployment" {
			return int(v["actions"].(float64))
		}
		side := turn["side"].(string)
		if status, body := call(t, "POST", base+"/api/battles/"+id+"/actions", tokens[side], "", []byte(`{"type":"end_deployment"}`)); status != 200 {
			t.Fatalf("ending %s's deployment: %d %v", side, status, body)
		}
	}
}

// sabresBegun posts the Sabres' battle (dropzone/moves.yaml with sabresEnd) to base and
// ends its deployment: its id, its tokens, and how many actions its log holds then.
func sabresBegun(t *testing.T, base string) (id string, tokens map[string]string, n0 int) {
	t.Helper()
	id, tokens = battle(t, base, withEnd(t, "dropzone/moves.yaml", sabresEnd))
	return id, tokens, begin(t, base, id, tokens)
}

// firstKey is a map's first key in order, for a token that reads the battle.
func firstKey(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys[0]
}

const sabresEnd = `end:
  turns: 2
  points: {hunter-1: 3, hunter-2: 3}
  objectives:
    - {name: the hab block, at: [33, 16], radius: 6, points: 2}
`

// TestPageEndOfBattle plays a Dropzone battle with an end on two pages, UCM's and the
// Scourge's: the header shows the round of the last and the score; a move is taken back
// on the page that made it (the other page is not offered it); a shot shows its luck in
// the log; UCM offers to end, the Scourge's page shows the offer and accepts it, and both
// pages show the end screen on the first screen: the verdict, why, the scores, the
// objectives, each side's luck, and the dice checked at once.
func TestPageEndOfBattle(t *testing.T) {
	exe, base := chromiumAndServer(t)
	id, tokens, n0 := sabresBegun(t, base)
	ucm, scourge := newBrowserAt(t, exe, base), newBrowserAt(t, exe, base)
	ucm.openAs(id, "UCM="+tokens["UCM"])
	scourge.openAs(id, "Scourge="+tokens["Scourge"])
	if got := ucm.Text("#round"); got != "round 1 of 2" {
		t.Errorf("the round reads %q, want round 1 of 2", got)
	}
	if got := ucm.Text("#score"); got != "Scourge 0 · UCM 0" {
		t.Errorf("the score reads %q", got)
	}

	// A move, taken back on the page that made it.
	ucm.Wait("the deployment's checkbox", `document.querySelector('#move-deploy')`)
	if eval[bool](ucm, `document.querySelector('#move-deploy').checked`) {
		ucm.Click("#move-deploy")
	}
	ucm.MouseDrag(browsertest.UnitPoint("sabre-1"), browsertest.TablePoint(14, 9))
	ucm.Wait("the ghost, legal", ghostLegal)
	ucm.Click("#move-commit")
	ucm.LogCount(n0 + 1)
	ucm.Wait("Take back", `document.querySelector('#take-back')`)
	if got := ucm.Text("#take-back"); !strings.Contains(got, "sabre-1") {
		t.Errorf("the take-back reads %q", got)
	}
	scourge.LogCount(n0 + 1)
	if eval[bool](scourge, `!!document.querySelector('#take-back')`) {
		t.Error("the Scourge's page is offered to take back UCM's move")
	}
	ucm.Click("#take-back")
	ucm.LogCount(n0 + 2)
	ucm.Wait("sabre-1 back where it stood", `Number(document.querySelector('#board .unit[data-unit="sabre-1"]').dataset.y) === 6`)
	if eval[bool](ucm, `!!document.querySelector('#take-back')`) {
		t.Error("Take back is still offered with nothing to take back")
	}

	// A shot: its luck in the log, as the outcome has it.
	ucm.Choose("#firer", "sabre-1")
	ucm.Mouse(browsertest.UnitPoint("hunter-1"), true, false)
	ucm.Wait("a declared target", `!document.querySelector('#shoot').disabled`)
	ucm.Click("#shoot")
	ucm.LogCount(n0 + 3)
	shot := fmt.Sprintf("#action-%d", n0+2)
	ucm.Wait("the shot's luck", `document.querySelector('`+shot+` .luck')`)
	lg := ucm.apiGet("/api/battles/"+id+"/log", nil)
	luck := lg["actions"].([]any)[n0+2].(map[string]any)["outcome"].(map[string]any)["luck"].(map[string]any)["percentile"].(float64)
	if got, want := ucm.Text(shot+" .luck"), fmt.Sprintf("luck %d%%", int(math.Round(luck*100))); got != want {
		t.Errorf("the shot's luck reads %q, want %q", got, want)
	}
	if got := ucm.Text(shot + " ul.words"); got == "" || strings.Contains(got, "{") {
		t.Errorf("the shot's words read %q", got)
	}

	// UCM offers to end; the Scourge's page accepts.
	ucm.Click("#offer-end")
	ucm.LogCount(n0 + 4)
	ucm.Wait("the offer shown", `document.querySelector('#end-offers')?.textContent.includes('UCM (you) has offered')`)
	if eval[bool](ucm, `!!document.querySelector('#offer-end')`) {
		t.Error("UCM is offered to offer again")
	}
	scourge.Wait("the offer to accept", `document.querySelector('#offer-end')?.textContent === 'Accept the offer to end'`)
	if got := scourge.Text("#end-offers"); !strings.Contains(got, "UCM has offered to end the battle") {
		t.Errorf("the Scourge's page reads the offer as %q", got)
	}
	scourge.Screenshot("end-offer")
	scourge.Click("#offer-end")

	v := ucm.apiGet("/api/battles/"+id, nil)
	res := v["result"].(map[string]any)
	for _, p := range []*browserPage{ucm, scourge} {
		p.Wait("the end screen", `document.querySelector('#end-verdict')`)
		p.Wait("the dice checked", `document.querySelector('#verify-result .ok')`)
		if got := p.Text("#verify-result"); !strings.Contains(got, fmt.Sprintf("Verified: %d actions", n0+5)) {
			t.Errorf("the dice check reads %q", got)
		}
		want := "A draw"
		if w, ok := res["winner"].(string); ok && w != "" {
			want = w + " wins"
		}
		if got := p.Text("#end-verdict"); got != want {
			t.Errorf("the verdict reads %q, want %q (result %v)", got, want, res)
		}
		if got := p.Text("#end-reason"); !strings.Contains(got, "agreed") {
			t.Errorf("the reason reads %q", got)
		}
		if got := p.Text("#end-objectives"); !strings.Contains(got, "the hab block") {
			t.Errorf("the objectives read %q", got)
		}
		if got := p.Text(`#end-scores tr[data-side="UCM"] .luck`); got != fmt.Sprintf("%d%%", int(math.Round(luck*100))) {
			t.Errorf("UCM's luck over the battle reads %q; its one roll's was %v", got, luck)
		}
		if top := eval[float64](p, `document.querySelector('#end').getBoundingClientRect().top + scrollY`); top > 400 {
			t.Errorf("the end screen starts %v px down the page", top)
		}
		if eval[bool](p, `!!document.querySelector('#offer-end, #take-back, #end-phase, #move-commit:not([hidden])')`) {
			t.Error("an ended battle offers an action")
		}
	}
	eval[bool](ucm, `(scrollTo(0, 0), true)`)
	ucm.Screenshot("end-screen")
}

// TestPageReplay steps through an ended battle: the last round over, the end screen
// says so; Replay starts at the battle as it began, and each step (buttons and keys)
// draws the board as the API's replay has it, with the step's words; leaving shows the
// battle as it ended.
func TestPageReplay(t *testing.T) {
	exe, base := chromiumAndServer(t)
	id, tokens := battle(t, base, withEnd(t, "dropzone/moves.yaml", strings.Replace(sabresEnd, "turns: 2", "turns: 1", 1)))
	n0 := begin(t, base, id, tokens)
	acts := []struct{ side, body string }{
		{"UCM", `{"type":"move","unit":"sabre-1","path":[[14,9]]}`},
		{"UCM", `{"type":"move","unit":"sabre-2","path":[[18,9],[19.2,10.6]]}`},
		{"UCM", `{"type":"end_turn"}`},
		{"Scourge", `{"type":"move","unit":"hunter-1","path":[[12,28]]}`},
		{"Scourge", `{"type":"end_turn"}`},
	}
	for _, a := range acts {
		if status, body := call(t, "POST", base+"/api/battles/"+id+"/actions", tokens[a.side], "", []byte(a.body)); status != 200 {
			t.Fatalf("%s: %d %v", a.body, status, body)
		}
	}
	p := newBrowserAt(t, exe, base)
	p.Do(chromedp.EmulateViewport(1500, 1000))
	p.open(id, "UCM="+tokens["UCM"]) // an ended battle has no live stream
	p.Wait("the end screen", `document.querySelector('#end-verdict')`)
	if got := p.Text("#end-reason"); !strings.Contains(got, "Round 1, the last, has ended") {
		t.Errorf("the reason reads %q", got)
	}
	p.Wait("the dice checked", `document.querySelector('#verify-result .ok')`)

	at := func(n int, y float64) {
		t.Helper()
		p.Wait(fmt.Sprintf("step %d", n), fmt.Sprintf(`document.querySelector('#replay-step')?.textContent === 'step %d of %d'`, n, n0+5))
		p.Wait(fmt.Sprintf("sabre-1 at y %v on step %d", y, n), fmt.Sprintf(`Number(document.querySelector('#board .unit[data-unit="sabre-1"]')?.dataset.y) === %v`, y))
		p.settle()
	}
	p.Click("#replay-start")
	at(0, 6)
	if got := p.Text("#replay-words"); !strings.Contains(got, "began") {
		t.Errorf("step 0 reads %q", got)
	}
	if eval[bool](p, `!!document.querySelector('#move:not([hidden]), #shoot')`) {
		t.Error("the replay's board offers a move or a shot")
	}
	for range n0 + 1 { // past the deployments' ends, to the first move
		p.Click("#replay-next")
	}
	at(n0+1, 9)
	if got := p.Text("#replay-words"); !strings.Contains(got, fmt.Sprintf("#%d UCM", n0)) || !strings.Contains(got, "sabre-1 moved 3″") {
		t.Errorf("step 1 reads %q", got)
	}
	p.Screenshot("replay-step")
	// The keys: → and End, ← and Home, from the replay's own buttons.
	p.Do(chromedp.Focus(chromedp.CSS("#replay-next")))
	p.Keys(kb.ArrowRight, 1)
	at(n0+2, 9)
	p.Wait("hunter-1 where it stood", `Number(document.querySelector('#board .unit[data-unit="hunter-1"]').dataset.y) === 31`)
	p.Keys(kb.End, 1)
	at(n0+5, 9)
	p.Wait("hunter-1 where it went", `Number(document.querySelector('#board .unit[data-unit="hunter-1"]').dataset.y) === 28`)
	p.Keys(kb.Home, 1)
	at(0, 6)
	p.Click("#replay-leave")
	p.Wait("the battle as it ended", `!document.querySelector('#field.replaying') && Number(document.querySelector('#board .unit[data-unit="sabre-1"]').dataset.y) === 9`)
}
