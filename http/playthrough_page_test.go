package http_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/volley-wargames/volley/browsertest"
	vhttp "github.com/volley-wargames/volley/http"
	"github.com/volley-wargames/volley/servertest"
)

// The play-through tests play each system's examples/<system>/battle.yaml to its end on
// two pages, one a side, through the page's own controls and nothing else: each side
// ends its deployment with the header's button; in each of its phases it moves one unit
// that may move, to the best point of that unit's position map (Where to stand, then the
// map's first best point, then Commit), fires the advisor's best plan where the advisor
// has one (Best plans, then Fire this plan), answers a pause with the first answer
// offered, and ends the phase with the header's button — every round, until the end
// screen. Each page must then show the verdict and the dice checked, and the replay must
// step through the battle. A spectator's page watches it all. No page may log an error or
// see a request fail (the browser pages fail the test on either).

// movedOn is a refusal of an action that arrived after its phase, step or battle had
// ended: "a declare action belongs to the target phase; this is the fire phase",
// "artillery fires in the artillery fire segment, and this is the maneuver step", "the
// battle has ended".
var movedOn = regexp.MustCompile(`^POST /api/battles/[0-9a-f]+/actions .* (409|400) \w+: (.*(belongs to the \w+ phase|fires in the .* segment)[,;] (and )?this is the \w+ (phase|step)|the battle has ended)`)

// playThrough is one battle played on the pages.
type playThrough struct {
	t          *testing.T
	base, id   string
	pages      map[string]*browserPage
	spectator  *browserPage
	moved      int
	fired      int
	answered   int
	screenshot string
}

// TestPlayThroughDropzone plays the Dropzone battle to its end on its two sides' pages.
func TestPlayThroughDropzone(t *testing.T) { playThroughBattle(t, "dropzone") }

// TestPlayThroughWarfare plays the Warfare battle to its end on its two sides' pages.
func TestPlayThroughWarfare(t *testing.T) { playThroughBattle(t, "warfare") }

// TestPlayThroughWarEngine plays the War Engine battle to its end on its two sides' pages.
func TestPlayThroughWarEngine(t *testing.T) { playThroughBattle(t, "warengine") }

// TestPlayThroughRepublique plays the Republique battle to its end on its two sides' pages.
func TestPlayThroughRepublique(t *testing.T) { playThroughBattle(t, "republique") }

// TestPlayThroughWarStrike plays the WarStrike battle to its end on its two sides' pages.
func TestPlayThroughWarStrike(t *testing.T) { playThroughBattle(t, "warstrike") }

func playThroughBattle(t *testing.T, system string) {
	exe := browsertest.Chromium(t)
	// Three browsers share one address here, where players would have one each: each
	// may ask for as much heavy work at once as a client may.
	limits := servertest.Limits()
	limits.HeavyPerClient = 3 * vhttp.DefaultLimits().HeavyPerClient
	base := pageServerWith(t, servertest.SQLite(t), limits)
	id, tokens := battle(t, base, example(t, system+"/battle.yaml"))
	pt := &playThrough{t: t, base: base, id: id, pages: map[string]*browserPage{}}
	for side, tok := range tokens {
		p := newBrowserAt(t, exe, base)
		p.openAs(id, side+"="+tok)
		pt.pages[side] = p
	}
	pt.spectator = newBrowserAt(t, exe, base)
	pt.spectator.Do(chromedp.EmulateViewport(390, 844))
	pt.spectator.open(id, spectatorOf(id))
	phases := map[string]bool{}
	for step := 0; ; step++ {
		if step > 400 {
			t.Fatal("the battle has not ended after 400 steps")
		}
		v := pt.view()
		if r, _ := v["result"].(map[string]any); r["over"] == true {
			break
		}
		turn := v["state"].(map[string]any)["turn"].(map[string]any)
		side, phase := turn["side"].(string), fmt.Sprint(turn["phase"])
		p := pt.pages[side]
		// The page acts on the battle as the API has it: its log holds every action.
		p.Wait("the page up to date", fmt.Sprintf(`document.querySelectorAll('#log li.entry').length === %v`, v["actions"]))
		key := fmt.Sprintf("%v %s %s", turn["number"], side, phase)
		first := !phases[key]
		phases[key] = true
		switch {
		case turn["actions"] != nil:
			pt.act(p, "the first answer offered", `#turn-offers button[data-offer="0"]`)
			pt.answered++
		case phase == "deployment" || !first:
			pt.act(p, "the end of the "+phase, "#end-phase")
		default:
			if pt.move(p, side, v) {
				pt.moved++
			}
			if pt.fire(p, side) {
				pt.fired++
			}
			pt.fired += pt.fireDeclared(p, side, v)
			if pt.screenshot == "" && pt.moved > 2 && pt.fired > 0 {
				pt.screenshot = system
				pt.shots(p, system)
			}
			// The phase ends at the next step (!first), unless the battle moved on.
		}
	}
	for side, p := range pt.pages {
		p.Wait(side+"'s end screen", `document.querySelector('#end-verdict')`)
		p.Wait("the dice checked", `document.querySelector('#verify-result .ok')`)
	}
	pt.spectator.Wait("the spectator's end screen", `document.querySelector('#end-verdict')`)
	var any *browserPage
	for _, side := range slices.Sorted(func(yield func(string) bool) {
		for s := range pt.pages {
			if !yield(s) {
				return
			}
		}
	}) {
		any = pt.pages[side]
		break
	}
	verdict := any.Text("#end-verdict")
	eval[bool](any, `(scrollTo(0, 0), true)`)
	any.Screenshot("playthrough-" + system + "-end")
	// The replay steps through the battle from its start.
	n := eval[int](any, `document.querySelectorAll('#log li.entry').length`)
	any.Click("#replay-start")
	any.Wait("the replay's start", fmt.Sprintf(`document.querySelector('#replay-step')?.textContent === 'step 0 of %d'`, n))
	for i := 1; i <= 3; i++ {
		any.Click("#replay-next")
		any.Wait(fmt.Sprintf("step %d", i), fmt.Sprintf(`document.querySelector('#replay-step')?.textContent === 'step %d of %d' && document.querySelector('#replay-words li')`, i, n))
	}
	any.Click("#replay-leave")
	// No request any page sent was refused (the pages count them: data-failed). One kind
	// is reported rather than failed: an action that reached the server after its phase,
	// step or battle had ended. The test once went on (and ended the phase) before a plan
	// of several actions was all sent; it now waits for the page to say the plan is sent,
	// and the report stays as the watch on that.
	for side, p := range pt.pages {
		if n := eval[string](p, `document.documentElement.dataset.failed || '0'`); n != "0" {
			for _, r := range strings.Split(eval[string](p, `document.documentElement.dataset.refused || ''`), "\n") {
				if movedOn.MatchString(r) {
					t.Logf("%s's page sent an action as the battle moved on: %s", side, r)
					continue
				}
				t.Errorf("%s's page had a request refused: %s", side, r)
			}
		}
	}
	if n := eval[string](pt.spectator, `document.documentElement.dataset.failed || '0'`); n != "0" {
		t.Errorf("the spectator's page had %s requests refused", n)
	}
	if pt.moved == 0 || pt.fired == 0 {
		t.Errorf("the battle ended with %d moves and %d plans fired from the pages", pt.moved, pt.fired)
	}
	t.Logf("%s: %d actions, %d moves, %d plans fired, %d answers, from the pages; %s", system, n, pt.moved, pt.fired, pt.answered, verdict)
}

func spectatorOf(id string) string {
	s, _ := spectators.Load(id)
	return "spectator=" + s.(string)
}

func (pt *playThrough) view() map[string]any {
	pt.t.Helper()
	_, v := call(pt.t, "GET", pt.base+"/api/battles/"+pt.id, watch(pt.id), "", nil)
	return v
}

func (pt *playThrough) actions() int {
	return int(pt.view()["actions"].(float64))
}

// act clicks a control that sends one action, and waits until the page's log has it.
func (pt *playThrough) act(p *browserPage, what, sel string) {
	pt.t.Helper()
	n := pt.actions()
	// The control is clicked where it is when the page is ready: a live update may draw
	// the header again between finding a node and clicking it.
	p.Wait(what, fmt.Sprintf(`(() => { const b = document.querySelector('%s'); return b && !b.disabled && (b.click(), true); })()`, sel))
	p.Wait(what+" in the log", fmt.Sprintf(`document.querySelectorAll('#log li.entry').length > %d || document.querySelector('#end-verdict')`, n))
}

// move moves the first of side's units that may move to the first best point of its
// position map, and says whether it did.
func (pt *playThrough) move(p *browserPage, side string, v map[string]any) bool {
	pt.t.Helper()
	var units []any
	if b, ok := v["board"].(map[string]any); ok {
		units, _ = b["units"].([]any)
	} else if tb, ok := v["table"].(map[string]any); ok {
		units, _ = tb["units"].([]any)
	}
	for _, u := range units {
		u := u.(map[string]any)
		mv, _ := u["move"].(map[string]any)
		if u["side"] != side || u["destroyed"] == true || mv == nil || mv["why"] != nil || mv["left"].(float64) <= 0 {
			continue
		}
		id := u["id"].(string)
		p.Mouse(browsertest.UnitCentre(id), true, false)
		if !eval[bool](p, `!!document.querySelector('#move-start:not([hidden])')`) {
			continue
		}
		if !eval[bool](p, `document.querySelector('#position-toggle').checked`) {
			p.press0("#position-toggle")
		}
		p.Wait("the position map of "+id, `document.querySelector('#position-top button') || document.querySelector('#position-legend')?.textContent.startsWith('No ') || document.querySelector('#position-error:not([hidden])')`)
		if !eval[bool](p, `!!document.querySelector('#position-top button')`) {
			continue
		}
		// Each best point in turn starts a move there (a ghost, judged by the rules, to
		// commit), or sends the moves of a unit mapped whole (a WarStrike unit's models);
		// the point where the unit stands starts nothing.
		n := pt.actions()
		logged := fmt.Sprintf(`document.querySelectorAll('#log li.entry').length > %d`, n)
		started := false
		for i := range min(4, eval[int](p, `document.querySelectorAll('#position-top button').length`)) {
			p.press0(fmt.Sprintf("#position-top li:nth-child(%d) button", i+1))
			if p.Poll(4*time.Second, `(document.querySelector('#ghost-base') && document.querySelector('#move-status.ok, #move-status.bad')) || `+logged) {
				started = true
				break
			}
		}
		if !started {
			p.Do(chromedp.KeyEvent(kb.Escape))
			continue
		}
		if eval[bool](p, "!!("+logged+")") {
			p.Wait("the unit's moves sent", fmt.Sprintf(`!document.querySelector('#position-top button:disabled') && (%s)`, logged))
			return true
		}
		if !eval[bool](p, "!!("+ghostLegal+")") {
			p.press0("#move-cancel")
			continue
		}
		pt.act(p, "the move of "+id, "#move-commit")
		return true
	}
	return false
}

// fire fires the advisor's best plan for side, if it has one worth firing.
func (pt *playThrough) fire(p *browserPage, side string) bool {
	pt.t.Helper()
	p.Choose("#advice-side", side)
	// The plans listed before are taken away first, so that what is read is the answer.
	eval[bool](p, `(document.querySelectorAll('.fire-plan').forEach((b) => b.closest('li')?.remove()), true)`)
	p.press0("#advise")
	p.Wait("the advice", `!document.querySelector('#advise').disabled && !document.querySelector('#advice')?.textContent.includes('Searching')`)
	// A plan the battle does not offer now (another phase or step) is shown with its
	// button disabled, and says so.
	if !eval[bool](p, `!!document.querySelector('.fire-plan:not(:disabled)')`) {
		pt.t.Logf("%s fires nothing: %s", side, eval[string](p, `[...document.querySelectorAll('#advice .plan-head')].slice(0, 2).map(e => e.textContent).join(' | ') || 'no plan'`))
		return false
	}
	// A plan of several actions (a War Engine group and its declarations, batteries
	// firing in turn) is sent an action at a time: the page says when all are sent.
	n := pt.actions()
	p.press0(".fire-plan:not(:disabled)")
	p.Wait("the plan sent", fmt.Sprintf(`(document.querySelector('#advice')?.textContent.includes('fired: see the log') && document.querySelectorAll('#log li.entry').length > %d) || document.querySelector('#advice-error:not([hidden])') || document.querySelector('#end-verdict')`, n))
	return true
}

// shots takes a battle's screenshots mid-battle, at a desktop's size and a phone's.
func (pt *playThrough) shots(p *browserPage, system string) {
	eval[bool](p, `(scrollTo(0, 0), true)`)
	p.Screenshot("playthrough-" + system)
	p.view("battle-"+system+"-desktop", 0.6) // docs/screenshots/, for docs/page.md
	p.Do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
	eval[bool](p, `(scrollTo(0, 0), true)`)
	p.Screenshot("playthrough-" + system + "-phone")
	p.view("battle-"+system+"-phone", 1)
	p.Do(chromedp.EmulateViewport(1500, 1000))
}

// press0 clicks a control where it stands when it is there and enabled: a live update may
// draw a panel again between finding a node and clicking it, which a click by the
// browser's own input would miss.
func (p *browserPage) press0(sel string) {
	p.T.Helper()
	p.Wait(sel, fmt.Sprintf(`(() => { const b = document.querySelector(%q); return b && !b.disabled && (b.click(), true); })()`, sel))
}

// fireDeclared fires, on a grid's page in its fire phase, each target side's units have
// declared: each unit selected in the list of units, then each button beside its weapons
// that acts at a ready target (the War Engine's fire offers: button.weapon-act.primary,
// data-type="fire"). It answers how many it fired.
func (pt *playThrough) fireDeclared(p *browserPage, side string, v map[string]any) int {
	pt.t.Helper()
	if _, grid := v["board"]; !grid {
		return 0
	}
	fired := 0
	for _, u := range v["state"].(map[string]any)["units"].([]any) {
		u := u.(map[string]any)
		if u["side"] != side || u["destroyed"] == true || u["targets"] == nil {
			continue
		}
		sel := fmt.Sprintf(`.unit-btn[data-unit=%q]`, u["id"])
		if !eval[bool](p, "!!document.querySelector('"+sel+"')") {
			continue
		}
		p.Press(sel)
		for range 4 {
			// The button is clicked where it is found, within two seconds: the panel of a
			// weapon just fired may still show until the page draws the new state, and
			// then its button is gone, which is no fault (the unit has no shot left).
			n := pt.actions()
			if !p.Poll(2*time.Second, `(() => { const b = document.querySelector('button.weapon-act.primary[data-type="fire"]:not(:disabled)'); return b && !b.disabled && (b.click(), true); })()`) {
				break
			}
			p.Wait("a declared target fired, in the log", fmt.Sprintf(`document.querySelectorAll('#log li.entry').length > %d || document.querySelector('#end-verdict')`, n))
			fired++
		}
	}
	return fired
}
