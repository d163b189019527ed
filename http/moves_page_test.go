package http_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/volley-wargames/volley/browsertest"
	vhttp "github.com/volley-wargames/volley/http"
)

// The page's moves: a unit dragged with the mouse, a finger or the keyboard, its ghost
// and what the preview says of it, the move sent, and the position map's overlay.

// unitAt is where the page draws a unit: its x and y on the table.
func (p *browserPage) unitAt(id string) []float64 {
	p.T.Helper()
	return eval[[]float64](p, fmt.Sprintf(`(() => { const u = document.querySelector('#board .unit[data-unit=%q]'); return [Number(u.dataset.x), Number(u.dataset.y)]; })()`, id))
}

// apiUnit is a unit of the battle's table view, as the API has it.
func apiUnit(p *browserPage, id, unit string) map[string]any {
	p.T.Helper()
	v := p.apiGet("/api/battles/"+id, nil)
	for _, u := range v["table"].(map[string]any)["units"].([]any) {
		if m := u.(map[string]any); m["id"] == unit {
			return m
		}
	}
	p.T.Fatalf("no unit %s in the battle's table", unit)
	return nil
}

// loggedActions is the battle's log, as the API has it: each action's body.
func loggedActions(p *browserPage, id string) []map[string]any {
	p.T.Helper()
	var out []map[string]any
	for _, a := range p.apiGet("/api/battles/"+id+"/log", nil)["actions"].([]any) {
		// The log keeps each action's body as it was sent.
		var body map[string]any
		if err := json.Unmarshal([]byte(a.(map[string]any)["action"].(string)), &body); err != nil {
			p.T.Fatal(err)
		}
		out = append(out, body)
	}
	return out
}

const ghostLegal = `document.querySelector('#ghost-base.legal') && document.querySelector('#move-status.ok')`

// endDeployment ends each side's deployment in turn by the button the view offers the
// deploying side (state.turn.end, {type: end_deployment}, as it offers end_turn): each page
// holds the token of the side whose deployment comes, in order. It waits for the header to
// move on each time.
func endDeployment(pages ...*browserPage) {
	for _, p := range pages {
		p.T.Helper()
		p.Wait("the deployment's end offered", `document.querySelector('#turn')?.textContent.endsWith('deployment phase') && document.querySelector('#end-phase')`)
		before := p.Text("#turn")
		if got := p.Text("#end-phase"); got != "End deployment phase" {
			p.T.Errorf("the header offers %q", got)
		}
		p.Click("#end-phase")
		p.Wait("the deployment passed on", fmt.Sprintf(`document.querySelector('#turn')?.textContent !== %q`, before))
	}
}

// TestPageMoveLive: three pages on one server, the UCM's, the Scourge's and a
// spectator's. A Sabre dragged 3" up the table on the UCM's page shows its ghost (the
// path's length against the 6" it may move, legal, the railgun's chance at the Hunter it
// aims at, the danger there), and Enter sends the move: the other pages show the Sabre
// where it went, without a reload, and their logs have the move. The scenario's
// deployment zones are drawn while the sides deploy; the header says whose deployment it
// is, and each side's page ends its own with the button the view offers, the UCM's first.
// The spectator has no move controls, and a drag pans.
func TestPageMoveLive(t *testing.T) {
	exe, base := chromiumAndServer(t)
	id, tokens := battle(t, base, example(t, "dropzone/moves.yaml"))
	ucm, scourge, spectator := newBrowserAt(t, exe, base), newBrowserAt(t, exe, base), newBrowserAt(t, exe, base)
	for _, pg := range []struct {
		p     *browserPage
		query string
	}{{ucm, "UCM=" + tokens["UCM"]}, {scourge, "Scourge=" + tokens["Scourge"]}, {spectator, "spectator=" + watch(id)}} {
		pg.p.Do(chromedp.EmulateViewport(1500, 1000))
		pg.p.Do(chromedp.Navigate(base + "/#/battles/" + id + "?" + pg.query))
		pg.p.Wait("the board", `document.querySelector('#board .unit') && document.querySelector('#log h2')`)
		pg.p.Wait("the live badge", `document.querySelector('#live.on')`)
		eval[bool](pg.p, `(window.__notReloaded = true)`)
	}
	// Deployment first: the zones are drawn, and a drag would deploy. The UCM deploy first
	// (they play first); both are content, and end their deployment.
	if n := eval[int](ucm, `document.querySelectorAll('#board .zone').length`); n != 2 {
		t.Errorf("%d deployment zones drawn, want the two sides'", n)
	}
	ucm.Wait("the deployment's checkbox, ticked", `document.querySelector('#move-deploy').checked`)
	if got := scourge.Text("#turn"); got != "UCM's turn, deployment phase" || eval[bool](scourge, `!!document.querySelector('#end-phase')`) {
		t.Errorf("the Scourge's header reads %q, and offers to end the UCM's deployment: %v", got, eval[bool](scourge, `!!document.querySelector('#end-phase')`))
	}
	ucm.Screenshot("move-deployment")
	endDeployment(ucm, scourge)
	ucm.Wait("the battle begun", `document.querySelector('#turn').textContent === "UCM's turn" && !document.querySelector('#board .zone')`)

	ucm.MouseDrag(browsertest.UnitPoint("sabre-1"), browsertest.TablePoint(14, 9))
	ucm.Wait("the ghost, legal", ghostLegal)
	ucm.Wait("the aim from the ghost", `document.querySelector('#move-aim .move-chance') && document.querySelector('#ghost-los.clear')`)
	if got := ucm.Text("#move-length"); !strings.HasPrefix(got, "Path 3") || !strings.Contains(got, "of 6″ left") {
		t.Errorf("the ghost's length reads %q, want about 3″ of 6″", got)
	}
	if got := ucm.Text("#move-aim"); !strings.Contains(got, "hunter-1") || !strings.Contains(got, "Avenger Railgun") {
		t.Errorf("the aim from the ghost reads %q", got)
	}
	ucm.Wait("the danger at the ghost", `document.querySelector('#move-danger-value')`)
	ucm.Screenshot("move-ghost")
	eval[bool](ucm, `(scrollTo(0, 0), true)`)
	ucm.view("move-dropzone", 0.6)

	// The spectator: no move panel, and dragging a Sabre pans the table.
	if eval[bool](spectator, `!!document.querySelector('#move') && !document.querySelector('#move').hidden`) {
		t.Error("the spectator is offered the move panel")
	}
	before := spectator.viewBox()
	spectator.MouseDrag(browsertest.UnitPoint("sabre-2"), browsertest.TablePoint(22, 14))
	if after := spectator.viewBox(); after[0] == before[0] && after[1] == before[1] {
		t.Errorf("the spectator's drag on a Sabre did not pan: viewBox %v", after)
	}
	if eval[bool](spectator, `!!document.querySelector('#ghost-base')`) {
		t.Error("the spectator's drag made a ghost")
	}

	// Enter sends it; the other page shows it live.
	ucm.Do(chromedp.KeyEvent(kb.Enter))
	ucm.Wait("the move in the log", `document.querySelectorAll('#log li.entry').length === 3`)
	moved := apiUnit(ucm, id, "sabre-1")
	x, y := moved["x"].(float64), moved["y"].(float64)
	if math.Abs(x-14) > 0.15 || math.Abs(y-9) > 0.15 {
		t.Errorf("sabre-1 moved to %v, %v; it was dragged to 14, 9", x, y)
	}
	for _, other := range []*browserPage{scourge, spectator} {
		other.Wait("the move, live", fmt.Sprintf(`(() => { const u = document.querySelector('#board .unit[data-unit="sabre-1"]'); return u && Number(u.dataset.y) === %v; })()`, y))
		if !eval[bool](other, `window.__notReloaded === true`) {
			t.Error("a page reloaded to show the move")
		}
	}
	if got := scourge.Text("#log"); !strings.Contains(got, "sabre-1 moved") {
		t.Errorf("the Scourge's log lacks the move: %q", got)
	}
	if n := eval[int](scourge, `document.querySelectorAll('#board .zone').length`); n != 0 {
		t.Errorf("%d zones drawn once the battle began", n)
	}
	scourge.Screenshot("move-live")
	// The Scourge may not move a UCM unit, nor their own out of turn: no ghost, the reason.
	scourge.MouseDrag(browsertest.UnitPoint("hunter-1"), browsertest.TablePoint(12, 28))
	scourge.Wait("the reason the Hunter may not move", `document.querySelector('#move-error:not([hidden])')`)
	if got := scourge.Text("#move-error"); !strings.Contains(got, "UCM's turn") {
		t.Errorf("dragging the Hunter out of turn reads %q", got)
	}
	if eval[bool](scourge, `!!document.querySelector('#ghost-base')`) {
		t.Error("a ghost for a unit that may not move")
	}
	if n := len(loggedActions(ucm, id)); n != 3 {
		t.Errorf("%d actions logged, want the two ends of deployment and the one move", n)
	}
}

// TestPageMoveIllegal: on the position example, a Sabre dragged through the long wall,
// then further than its 10" move: each time the ghost is red and the panel gives the
// rules' reason; Enter and Commit send nothing, and the log stays empty.
func TestPageMoveIllegal(t *testing.T) {
	p, c := openExample(t, "dropzone/position.yaml")
	p.DragRefused(browsertest.UnitPoint("sabre-1"), browsertest.TablePoint(14, 20.5), "long-wall") // through the wall
	p.Screenshot("move-illegal-wall")
	p.Do(chromedp.KeyEvent(kb.Enter))
	p.Wait("the reason, not sent", `document.querySelector('#move-error:not([hidden])')`)
	if got := p.Text("#move-error"); !strings.Contains(got, "Not sent") {
		t.Errorf("Enter on an illegal ghost reads %q", got)
	}
	if !eval[bool](p, `document.querySelector('#move-commit').disabled`) {
		t.Error("Commit is offered for an illegal move")
	}
	// Too far, and through the hab block: the ghost's end dragged on, 14" from where the
	// Sabre stands. The block is named first, the length after it.
	p.MouseDrag(`(() => { const r = document.querySelector('#ghost-base .ghost-shape').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`, browsertest.TablePoint(30, 11))
	p.Wait("the second refusal", `document.querySelector('#move-reason')?.textContent.includes('hab-block')`)
	if got := p.Text("#move-reason"); !strings.Contains(got, "14″ long") || !strings.Contains(got, "10″ left") {
		t.Errorf("the drag too far reads %q", got)
	}
	if got := p.Text("#move-length"); !strings.Contains(got, "Path 14") {
		t.Errorf("the ghost's length reads %q", got)
	}
	p.Screenshot("move-illegal-far")
	p.Do(chromedp.KeyEvent(kb.Enter))
	p.settle()
	if n := len(loggedActions(p, c.id)); n != 0 {
		t.Errorf("%d actions logged after illegal drags", n)
	}
	if at := p.unitAt("sabre-1"); at[0] != 16 || at[1] != 11 {
		t.Errorf("sabre-1 is drawn at %v after illegal drags, want 16, 11", at)
	}
	// Escape drops the ghost.
	p.Do(chromedp.KeyEvent(kb.Escape))
	p.Wait("no ghost", `!document.querySelector('#ghost-base')`)
}

// TestPageMoveKeyboard: the keyboard alone moves a unit: Tab to it, M picks it up, the
// arrows move the ghost (half an inch a press), W keeps a waypoint, ] turns it by 15°,
// Enter sends the move of two legs with its new facing.
func TestPageMoveKeyboard(t *testing.T) {
	p, c := openExample(t, "dropzone/position.yaml")
	p.Do(chromedp.Focus(chromedp.CSS(`#board .unit[data-unit="sabre-1"]`)))
	keys := func(k string, n int) {
		for range n {
			p.Do(chromedp.KeyEvent(k))
		}
	}
	keys("m", 1)
	p.Wait("the ghost", `document.querySelector('#ghost-base')`)
	keys(kb.ArrowDown, 4) // 2" south
	keys("w", 1)
	keys(kb.ArrowLeft, 6) // then 3" west
	keys("]", 2)
	p.Wait("the ghost, legal", ghostLegal+` && document.querySelector('#move-length').textContent.includes('2 legs')`)
	if got := p.Text("#move-length"); !strings.HasPrefix(got, "Path 5″ of 10″ left") {
		t.Errorf("the ghost's length reads %q", got)
	}
	if got := p.Text("#move-facing"); got != "facing 30°" {
		t.Errorf("the ghost's facing reads %q", got)
	}
	p.Screenshot("move-keyboard")
	keys(kb.Enter, 1)
	p.Wait("the move in the log", `document.querySelectorAll('#log li.entry').length === 1`)
	got := loggedActions(p, c.id)[0]
	want := `map[facing:30 path:[[16 9] [13 9]] type:move unit:sabre-1]`
	if fmt.Sprint(got) != want {
		t.Errorf("the keyboard sent %v, want %s", got, want)
	}
	if at := p.unitAt("sabre-1"); at[0] != 13 || at[1] != 9 {
		t.Errorf("sabre-1 is drawn at %v, want 13, 9", at)
	}
}

// openExample starts a battle of an example scenario over the API and opens it on a new
// page at a desktop's size, holding every side's tokens.
func openExample(t *testing.T, name string) (*browserPage, created) {
	t.Helper()
	p := newBrowserPage(t)
	c := p.mustCreateAPI(example(t, name))
	p.Do(chromedp.EmulateViewport(1500, 1000))
	p.open(c.id, c.sides)
	return p, c
}

// selectForMoving clicks a unit and waits for the page to offer to move it.
func selectForMoving(p *browserPage, unit string) {
	p.T.Helper()
	p.Mouse(browsertest.UnitCentre(unit), true, false)
	p.Wait(unit+" selected for moving", `document.querySelector('#move-start:not([hidden])')`)
}

// TestPagePosition: the position map of a selected Sabre appears over the table with its
// Pareto front and its best point, as the API gives them; a click on the best point
// starts the move there along the map's move, and a click on a point the Sabre reaches
// only round the long wall's end starts a move of legs round it, which the rules take.
func TestPagePosition(t *testing.T) {
	p, c := openExample(t, "dropzone/position.yaml")
	selectForMoving(p, "sabre-1")
	// The map's progress, reported every millisecond, moves the bar (hidden for a map this
	// quick, but kept up to date): its values are recorded as they change.
	t.Cleanup(vhttp.SetProgressEvery(time.Millisecond))
	eval[bool](p, `(window.positionProgress = [], new MutationObserver(() => { const b = document.querySelector('#position-progress');
		if (b.hasAttribute('value')) window.positionProgress.push([b.value, b.max]); }).observe(document.querySelector('#position-progress'), {attributes: true}), true)`)
	p.Click("#position-toggle")
	p.Wait("the overlay", `document.querySelector('#board image.position-map') && document.querySelector('#position-best')`)
	pos := p.apiGet("/api/battles/"+c.id+"/position?unit=sabre-1", nil)["position"].(map[string]any)
	if got := eval[[][2]float64](p, `window.positionProgress`); len(got) == 0 || got[len(got)-1][1] != 2*pos["rows"].(float64) || got[len(got)-1][0] < 1 {
		t.Errorf("the progress bar went %v; want values of 2 × %v rows (the danger layer, then the offence)", got, pos["rows"])
	}
	pareto := pos["pareto"].([]any)
	if n := eval[int](p, `document.querySelectorAll('#board .position-pareto').length`); n != len(pareto) {
		t.Errorf("%d Pareto points marked, the API's front has %d", n, len(pareto))
	}
	best := pos["top"].([]any)[0].(map[string]any)
	if got := eval[[]float64](p, `['x', 'y'].map(k => Number(document.querySelector('#position-best').dataset[k]))`); got[0] != best["x"] || got[1] != best["y"] {
		t.Errorf("the best point is marked at %v, the API's is %v, %v", got, best["x"], best["y"])
	}
	if got := p.Text("#position-legend"); !strings.Contains(got, fmt.Sprint(pos["reachable"])) {
		t.Errorf("the legend reads %q", got)
	}
	p.Screenshot("position-offence")

	// From the keyboard: the best points and the front are buttons; Enter on the front's
	// first (the least danger) puts the ghost there.
	if n := eval[int](p, `document.querySelectorAll('#position-top button').length`); n != len(pos["top"].([]any)) {
		t.Errorf("%d best points listed, the API's top has %d", n, len(pos["top"].([]any)))
	}
	safe := pareto[0].(map[string]any)
	eval[bool](p, `(document.querySelector('#position-front button').focus(), true)`)
	p.Do(chromedp.KeyEvent(kb.Enter))
	p.Wait("the ghost at the front's first point", ghostLegal)
	if got := eval[[]float64](p, `['x', 'y'].map(k => Number(document.querySelector('#ghost-base').dataset[k]))`); got[0] != safe["x"] || got[1] != safe["y"] {
		t.Errorf("the ghost is at %v, the front's first point at %v, %v", got, safe["x"], safe["y"])
	}
	if got := eval[string](p, `document.activeElement.id`); got != "board" {
		t.Errorf("after the pick the focus is on %q, not the board (where Enter commits)", got)
	}
	p.Do(chromedp.KeyEvent(kb.Escape))
	p.Wait("no ghost", `!document.querySelector('#ghost-base')`)

	// A click on the point of most offence a little away from the Sabre (the best lie
	// under its base): the ghost is there, and the rules take it.
	from := pos["from"].([]any)
	fx, fy := from[0].(float64), from[1].(float64)
	var near map[string]any
	for _, q := range pos["points"].([]any) {
		pt := q.(map[string]any)
		if math.Hypot(pt["x"].(float64)-fx, pt["y"].(float64)-fy) > 1.5 && (near == nil || pt["offence"].(float64) > near["offence"].(float64)) {
			near = pt
		}
	}
	p.Mouse(browsertest.TablePoint(near["x"].(float64), near["y"].(float64)), true, false)
	p.Wait("the ghost at the point clicked", ghostLegal)
	if got := eval[[]float64](p, `['x', 'y'].map(k => Number(document.querySelector('#ghost-base').dataset[k]))`); got[0] != near["x"] || got[1] != near["y"] {
		t.Errorf("the ghost is at %v, the point clicked at %v, %v", got, near["x"], near["y"])
	}
	p.Do(chromedp.KeyEvent(kb.Escape))
	p.Wait("no ghost", `!document.querySelector('#ghost-base')`)

	// A point round the wall's end: its way is longer than the straight line.
	var far map[string]any
	for _, q := range pos["points"].([]any) {
		pt := q.(map[string]any)
		x, y, reach := pt["x"].(float64), pt["y"].(float64), pt["reach"].(float64)
		if y > 19 && reach > math.Hypot(x-fx, y-fy)+0.3 && (far == nil || reach > far["reach"].(float64)) {
			far = pt
		}
	}
	if far == nil {
		t.Fatal("no point of the map lies round the wall's end")
	}
	p.Choose("#position-layer", "danger")
	p.Wait("the danger layer", `document.querySelector('#board image.position-map[data-position="danger"]')`)
	p.Mouse(browsertest.TablePoint(far["x"].(float64), far["y"].(float64)), true, false)
	p.Wait("the ghost round the wall", `document.querySelector('#move-length')?.textContent.includes('legs')`)
	p.Wait("the rules' answer", `document.querySelector('#ghost-base.legal, #ghost-base.illegal')`)
	if got := p.Text("#move-status"); !strings.Contains(got, "The rules take this move") {
		t.Errorf("the move round the wall to %v, %v (its way %v): %q", far["x"], far["y"], far["reach"], got)
	}
	p.Screenshot("position-danger")
	eval[bool](p, `(scrollTo(0, 0), true)`)
	p.view("position-page", 0.6)
	p.Do(chromedp.KeyEvent(kb.Enter))
	p.Wait("the move in the log", `document.querySelectorAll('#log li.entry').length === 1`)
	if at := p.unitAt("sabre-1"); at[0] != far["x"] || at[1] != far["y"] {
		t.Errorf("sabre-1 moved to %v, the point clicked is %v, %v", at, far["x"], far["y"])
	}
	p.Wait("the map asked again after the move", `!document.querySelector('#board .position-map') || document.querySelector('#position-legend').textContent.includes('sabre-1')`)
}

// TestPageSquadPosition: a Dropzone unit's squad may be mapped as a formation: the
// select offers it, the overlay is the API's map of the squad, its best points are buttons
// that say how many moves each takes, and one sends them: every Sabre moves, one action
// each, to where the map's moves end.
func TestPageSquadPosition(t *testing.T) {
	p, c := openExample(t, "dropzone/formation.yaml")
	selectForMoving(p, "sabre-1")
	p.Click("#position-toggle")
	p.Wait("sabre-1's own map", `document.querySelector('#board image.position-map') && !document.querySelector('#position-of').hidden`)
	p.Choose("#position-of", "squad")
	p.Wait("the squad's map", `document.querySelector('#position-legend').textContent.includes('the whole of') && document.querySelector('#position-top button')`)
	pos := p.apiGet("/api/battles/"+c.id+"/position?unit=sabres", nil)["position"].(map[string]any)
	var top map[string]any
	for _, q := range pos["top"].([]any) {
		if q := q.(map[string]any); q["moves"] != nil {
			top = q
			break
		}
	}
	if top == nil {
		t.Fatal("the squad's map has no best point with moves")
	}
	moves := top["moves"].([]any)
	if got := p.Text("#position-top button"); !strings.Contains(got, fmt.Sprintf("%v, %v", round2(top["x"]), round2(top["y"]))) || !strings.Contains(got, fmt.Sprintf("%d moves", len(moves))) {
		t.Errorf("the first best point reads %q; the API's is (%v, %v) with %d moves", got, top["x"], top["y"], len(moves))
	}
	if n := eval[int](p, `document.querySelectorAll('#position-front button').length`); n != 0 {
		t.Errorf("a squad's map offers %d front points, which have no moves", n)
	}
	p.Screenshot("position-squad")
	eval[bool](p, `(scrollTo(0, 0), true)`)
	p.view("position-squad", 0.6) // docs/screenshots/position-squad.png
	p.Click("#position-top button")
	p.Wait("the squad's moves in the log", fmt.Sprintf(`document.querySelectorAll('#log li.entry').length === %d`, len(moves)))
	for _, m := range moves {
		mv := m.(map[string]any)
		path := mv["path"].([]any)
		end := path[len(path)-1].([]any)
		if at := p.unitAt(mv["unit"].(string)); math.Abs(at[0]-end[0].(float64)) > 1e-9 || math.Abs(at[1]-end[1].(float64)) > 1e-9 {
			t.Errorf("%s is at %v; its move ends at %v", mv["unit"], at, end)
		}
	}
	if errs := p.shownErrors(); errs != "" {
		t.Errorf("errors on the page: %s", errs)
	}
}

// TestPageMovePhone: on a phone's screen, by touch alone, a Sabre is deployed in its
// zone: a finger drags it, the ghost turns with a tap on ⟳, a tap on Commit places it.
// Every control shown is a 44-pixel target, and Export scenario downloads the battle as
// it stands.
func TestPageMovePhone(t *testing.T) {
	p := newBrowserPage(t)
	p.Do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
	c := p.mustCreateAPI(example(t, "dropzone/moves.yaml"))
	p.open(c.id, c.sides)
	p.TapOn("#fit-all")
	from := eval[[]float64](p, browsertest.UnitPoint("sabre-3"))
	// The ghost rises above the finger as far as the finger has gone, up to 64 px (LIFT
	// in move.js), clear of it: the finger, gone further than that, stops 64 px below
	// where the Sabre goes.
	to := eval[[]float64](p, browsertest.TablePoint(34, 9))
	p.Swipe([][2]float64{{from[0], from[1]}}, [][2]float64{{to[0], to[1] + 64}})
	p.Wait("the ghost, legal", ghostLegal)
	if got := p.Text("#move-help"); !strings.HasPrefix(got, "Deploying sabre-3") {
		t.Errorf("the panel reads %q", got)
	}
	p.TapOn("#move-right")
	p.Wait("the ghost turned", `document.querySelector('#move-facing').textContent === 'facing 15°'`)
	p.Wait("the ghost, legal", ghostLegal)
	if got := eval[string](p, smallTargets); got != "" {
		t.Errorf("tap targets under 44 px: %s", got)
	}
	p.Screenshot("move-phone")
	p.TapOn("#move-commit")
	p.Wait("the deployment in the log", `document.querySelectorAll('#log li.entry').length === 1`)
	got := loggedActions(p, c.id)[0]
	if got["type"] != "deploy" || got["facing"] != 15.0 {
		t.Errorf("the phone sent %v", got)
	}
	at := got["at"].([]any)
	if math.Abs(at[0].(float64)-34) > 0.3 || math.Abs(at[1].(float64)-9) > 0.3 {
		t.Errorf("sabre-3 deployed at %v, dragged to 34, 9", at)
	}
	if w := eval[int](p, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the page is %d px wide on a 390 px screen", w)
	}

	// Export scenario: the file is the battle as it stands, sabre-3 where it was placed.
	dir := t.TempDir()
	allowDownloads(p, dir)
	p.TapOn("#export-scenario")
	text := waitFile(t, dir, "battle-"+c.id+".yaml")
	if want := fmt.Sprintf("id: sabre-3, type: Sabre, side: UCM, squad: sabres, at: [%v, %v], facing: 15", at[0], at[1]); !strings.Contains(text, want) {
		t.Errorf("the exported scenario lacks %q:\n%s", want, text)
	}
}

// allowDownloads makes the browser save what the page downloads into dir, by its name.
func allowDownloads(p *browserPage, dir string) {
	p.T.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, 20*time.Second)
	defer cancel()
	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir}); err != nil {
		p.T.Fatal(err)
	}
}

// waitFile waits for a downloaded file and answers its text.
func waitFile(t *testing.T, dir, name string) string {
	t.Helper()
	deadline := time.Now().Add(browsertest.WaitFor)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil && len(b) > 0 {
			return string(b)
		}
		time.Sleep(50 * time.Millisecond)
	}
	entries, _ := os.ReadDir(dir)
	t.Fatalf("no %s downloaded; the folder holds %v", name, entries)
	return ""
}

// round2 is a coordinate as the page writes it: to two places at most.
func round2(v any) float64 { return math.Round(v.(float64)*100) / 100 }
