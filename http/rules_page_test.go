package http_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/volley-wargames/volley/browsertest"
)

// Only what the rules allow is offered: each test here is one of the errors of play
// issue 30 lists, fixed, on a real server and its rules, nothing stubbed.

// failedRequests records every answer of the API the page gets with a status of 400 or
// more, from now on; the function returned lists them.
func (p *browserPage) failedRequests() func() []string {
	p.T.Helper()
	var mu sync.Mutex
	var failed []string
	p.Do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, network.Enable, network.EnableParams{})
		return err
	}))
	chromedp.Listen(p.Ctx, func(ev any) {
		if r, ok := ev.(*network.EventResponseReceived); ok && r.Response.Status >= 400 && strings.Contains(r.Response.URL, "/api/") {
			mu.Lock()
			failed = append(failed, fmt.Sprintf("%d %s", r.Response.Status, r.Response.URL))
			mu.Unlock()
		}
	})
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), failed...)
	}
}

// bodies records the body of every request the page sends from now on.
func (p *browserPage) bodies() {
	eval[bool](p, `(window.__bodies = [], window.__fetch = window.__fetch || window.fetch,
		window.fetch = (u, o) => { if (o && o.body) window.__bodies.push(String(u) + ' ' + String(o.body)); return window.__fetch(u, o); }, true)`)
}

// TestPageRepubliqueRefusals: in the Republique demo's skirmish step a battery's Fire is
// disabled, the rules' reason beside it (it was offered, and answered 400 with a raw
// code); a skirmish marker, given a target, may fire. On a battle that moves, a battery
// dragged near an enemy skirmish marker aims its preview as the rules would choose (its
// main target), not at the marker, and no request fails; Commit sends only a move the
// rules took.
func TestPageRepubliqueRefusals(t *testing.T) {
	exe, base := chromiumAndServer(t)
	id, tokens := battle(t, base, example(t, "republique/demo.yaml"))
	n0 := begin(t, base, id, tokens)
	p := newBrowserAt(t, exe, base)
	failed := p.failedRequests()
	p.openAs(id, "French="+tokens["French"])
	p.Choose("#firer", "g1")
	p.Wait("Fire refused, with why", `document.querySelector('#shoot')?.disabled && !document.querySelector('#shoot-why').hidden`)
	if got := p.Text("#shoot-why"); !strings.Contains(got, "artillery fires in the artillery fire segment") {
		t.Errorf("the battery's Fire is refused with %q", got)
	}
	p.Screenshot("refused-battery")
	p.Choose("#firer", "s1")
	p.Choose("#add-target", "IR3")
	p.Wait("the marker's Fire offered", `document.querySelector('#shoot') && !document.querySelector('#shoot').disabled && document.querySelector('#shoot-why').hidden`)
	if f := failed(); len(f) > 0 {
		t.Errorf("failed requests: %q", f)
	}

	// A battle that moves, with an Austrian skirmish marker in front of the foot battery.
	src := strings.Replace(string(republiqueMoves(t)), "\nunits:", "\nskirmishers:\n  - {id: k9, parent: grenz, at: [30, 24]}\nunits:", 1)
	src = strings.Replace(src, "\n  - {id: IR,", "\n  - {id: grenz, name: Grenz battalion, side: Austrian, kind: light, frontage: 4, depth: 2, facing: 180, at: [10, 66], bases: 2, deployed: 1}\n  - {id: IR,", 1)
	id, tokens = battle(t, base, []byte(src))
	n0 = begin(t, base, id, tokens)
	p.openAs(id, "French="+tokens["French"])
	if eval[bool](p, `document.querySelector('#move-deploy')?.checked`) {
		p.Click("#move-deploy")
	}
	before := len(failed())
	p.bodies()
	p.MouseDrag(browsertest.UnitCentre("fb"), browsertest.TablePoint(36, 17))
	p.Wait("the ghost, legal", ghostLegal)
	if got := eval[string](p, `document.querySelector('#move-target').value`); got != "*" {
		t.Errorf("the battery's ghost aims at %q, not whom the rules choose", got)
	}
	if sent := eval[string](p, `window.__bodies.filter(b => b.includes('k9')).join('\n')`); sent != "" {
		t.Errorf("a preview aimed the battery at the marker: %s", sent)
	}
	if f := failed(); len(f) > before {
		t.Errorf("failed requests while dragging the battery: %q", f[before:])
	}
	p.Click("#move-commit")
	p.LogCount(n0 + 1)
	if got := loggedActions(p, id)[n0]; got["type"] != "move" || got["unit"] != "fb" {
		t.Errorf("the page sent %v", got)
	}
}

// TestPageWarStrikeRefusals: a WarStrike unit's move must choose its action first. The
// model selected says so beside the action's select (which asks to choose, not "as
// chosen"), and the board draws what each action allows as rings; chosen, the readout
// is the action's (4″ for a Shooting Advance, not the 12″ of the one that moves
// farthest). "Where to stand" maps the model's unit (its id, not the model's). A unit
// that moved and may move on is warned of before another unit fires, and nothing is
// sent unless the player confirms.
func TestPageWarStrikeRefusals(t *testing.T) {
	exe, base := chromiumAndServer(t)
	src := string(example(t, "warstrike/moves.yaml"))
	id, tokens := battle(t, base, []byte(src[:strings.Index(src, "\nactions:")+1]))
	n0 := begin(t, base, id, tokens)
	p := newBrowserAt(t, exe, base)
	failed := p.failedRequests()
	p.openAs(id, "Ironclad="+tokens["Ironclad"])
	if eval[bool](p, `document.querySelector('#move-deploy')?.checked`) {
		p.Click("#move-deploy")
	}
	p.Mouse(browsertest.UnitPoint("alpha-3"), true, false)
	p.Wait("the choice asked for", `document.querySelector('#move-needs')`)
	if got := eval[string](p, `document.querySelector('#move-fields select[data-field="action"] option').textContent`); !strings.Contains(got, "choose") {
		t.Errorf("the action's select starts at %q", got)
	}
	p.Wait("the actions' rings", `document.querySelectorAll('#ghost .band-ring').length >= 3`)
	rings := eval[[]float64](p, `[...document.querySelectorAll('#ghost .band-ring')].map(g => Number(g.dataset.left))`)
	for _, want := range []float64{4, 6, 12} {
		found := false
		for _, r := range rings {
			found = found || r == want
		}
		if !found {
			t.Errorf("the actions' rings are %v, without %v″", rings, want)
		}
	}
	p.Screenshot("warstrike-choose-first")
	p.Choose(`#move-fields select[data-field="action"]`, "shooting_advance")
	p.Wait("the readout of the action chosen", `document.querySelector('#move-help')?.textContent.includes('may move 4″ more')`)
	if got := eval[float64](p, `Number(document.querySelector('#reach-ring')?.dataset.left)`); got != 4 {
		t.Errorf("the reach ring is of %v″, want the Shooting Advance's 4″", got)
	}

	// Where to stand: the unit's map.
	p.Click("#position-toggle")
	p.Wait("alpha's map", `document.querySelector('#position-legend')?.textContent.includes("alpha's") && document.querySelector('#position-top button')`)
	p.Click("#position-toggle")

	// bravo-2 moves (through the API); then alpha is chosen to shoot.
	move := `{"type":"move","unit":"bravo-2","path":[[7,15]],"action":"advance"}`
	if status, body := call(t, "POST", base+"/api/battles/"+id+"/actions", tokens["Ironclad"], "", []byte(move)); status != 200 {
		t.Fatalf("the move: %d %v", status, body)
	}
	p.LogCount(n0 + 1)
	p.Choose("#firer", "alpha-leader")
	p.Choose("#add-target", "raiders")
	p.Wait("Shoot offered", `!document.querySelector('#shoot').disabled`)
	p.Click("#shoot")
	p.Wait("the warning", `!document.querySelector('#shoot-warn').hidden`)
	if got := p.Text("#shoot-warn"); !strings.Contains(got, "Fireteam Bravo moved last") {
		t.Errorf("the warning reads %q", got)
	}
	p.Screenshot("warstrike-warning")
	p.Click("#shoot-not-now")
	p.settle()
	if n := p.logEntries(); n != n0+1 {
		t.Errorf("%d actions after Not now, want the move alone", n)
	}
	p.Click("#shoot")
	p.Wait("the warning again", `!document.querySelector('#shoot-warn').hidden`)
	p.Click("#shoot-anyway")
	p.LogCount(n0 + 2)
	if f := failed(); len(f) > 0 {
		t.Errorf("failed requests: %q", f)
	}
}

// TestPageRefusalsEverywhere: on a grid, a drag still on the unit's own square sends no
// preview of an empty path; Warfare's "Where to stand" is not offered to a unit that
// may not move, and says why; Dropzone's "Aim at" names two Hunters apart, and the
// ghost's labels overlap no other label.
func TestPageRefusalsEverywhere(t *testing.T) {
	exe, base := chromiumAndServer(t)
	p := newBrowserAt(t, exe, base)
	failed := p.failedRequests()

	// The War Engine: murphy pressed and moved within his square, then on.
	id, tokens := battle(t, base, example(t, "warengine/moves.yaml"))
	begin(t, base, id, tokens)
	p.openAs(id, "trenchers="+tokens["trenchers"])
	if eval[bool](p, `document.querySelector('#move-deploy')?.checked`) {
		p.Click("#move-deploy")
	}
	p.bodies()
	at := p.gridUnitAt("murphy")
	p.MouseDrag(square(at[0], at[1]), fmt.Sprintf(`(() => { const [x, y] = %s; return [x + 3, y - 3]; })()`, square(at[0], at[1])))
	p.MouseDrag(square(at[0], at[1]), square(at[0], at[1]-2))
	p.Wait("the ghost", `document.querySelector('#ghost-base.legal, #ghost-base.illegal')`)
	if sent := eval[string](p, `window.__bodies.filter(b => b.includes('"path":[]')).join('\n')`); sent != "" {
		t.Errorf("a preview sent an empty path: %s", sent)
	}
	p.Click("#move-cancel")

	// Warfare: both sides' tokens; the French knights may not move in the English turn.
	id, tokens = battle(t, base, example(t, "warfare/moves.yaml"))
	begin(t, base, id, tokens)
	p.openAs(id, "English="+tokens["English"]+"&French="+tokens["French"])
	if eval[bool](p, `document.querySelector('#move-deploy')?.checked`) {
		p.Click("#move-deploy")
	}
	p.Mouse(browsertest.UnitPoint("knights"), true, false)
	p.Wait("Where to stand refused", `document.querySelector('#position-toggle').disabled && !document.querySelector('#position-why').hidden`)
	if got := p.Text("#position-why"); !strings.Contains(got, "knights may not move now") {
		t.Errorf("Where to stand reads %q", got)
	}
	p.Mouse(browsertest.UnitPoint("longbowmen"), true, false)
	p.Wait("Where to stand offered", `!document.querySelector('#position-toggle').disabled`)

	// Dropzone: two Hunters apart in Aim at; the ghost's labels clear of the others.
	id, tokens, _ = sabresBegun(t, base)
	p.openAs(id, "UCM="+tokens["UCM"])
	if eval[bool](p, `document.querySelector('#move-deploy')?.checked`) {
		p.Click("#move-deploy")
	}
	p.MouseDrag(browsertest.UnitPoint("sabre-1"), browsertest.TablePoint(17.2, 7.6))
	p.Wait("the ghost, legal", ghostLegal+` && document.querySelector('#ghost-los-label')`)
	names := eval[[]string](p, `[...document.querySelectorAll('#move-target option')].map(o => o.textContent)`)
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			t.Errorf("Aim at lists %q twice: %q", n, names)
		}
		seen[n] = true
	}
	if !seen["Hunter hunter-1 (Scourge)"] || !seen["Hunter hunter-2 (Scourge)"] {
		t.Errorf("Aim at lists %q", names)
	}
	p.settle()
	overlaps := eval[[]string](p, `(() => {
		const shown = (e) => e.getBoundingClientRect().width > 0 && getComputedStyle(e).visibility !== 'hidden';
		const mine = ['#ghost-label', '#ghost-los-label'].map(s => document.querySelector(s)).filter(e => e && shown(e));
		const others = [...document.querySelectorAll('#board text.label')].filter(shown);
		const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
		const out = [];
		for (const m of mine) for (const o of [...others, ...mine]) if (o !== m && hit(m.getBoundingClientRect(), o.getBoundingClientRect())) out.push(m.textContent + ' over ' + o.textContent);
		return out; })()`)
	if len(overlaps) > 0 {
		t.Errorf("the ghost's labels overlap: %q", overlaps)
	}
	p.Screenshot("ghost-labels")
	if f := failed(); len(f) > 0 {
		t.Errorf("failed requests: %q", f)
	}
}
