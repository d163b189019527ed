package http_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/volley-wargames/volley/browsertest"
)

// The page's moves on every rule system's real view and rules: the War Engine's squares,
// WarStrike's models and the action chosen with a unit's first move, Warfare's units, and
// Republique's columns, with the passing-fire pause its moves open. Nothing is stubbed:
// each test plays its system's moves.yaml on a server, as a player would.

// gridUnitAt is the square where the grid map draws a unit.
func (p *browserPage) gridUnitAt(id string) []int {
	p.T.Helper()
	return eval[[]int](p, fmt.Sprintf(`(() => { const u = document.querySelector('#board .unit[data-unit=%q]'); return [Number(u.dataset.x), Number(u.dataset.y)]; })()`, id))
}

// openAs opens a battle on a page, with the tokens of the query (a side's, or every
// side's), at a desktop's size.
func (p *browserPage) openAs(id, query string) {
	p.T.Helper()
	p.Do(chromedp.EmulateViewport(1500, 1000))
	p.open(id, query)
	p.Wait("the live badge", `document.querySelector('#live.on')`)
}

// startMoving clicks a unit, waits for the page to offer to move it, starts its move
// and waits for its ghost.
func startMoving(p *browserPage, unit string) {
	p.T.Helper()
	p.Mouse(browsertest.UnitCentre(unit), true, false)
	p.Wait(unit+" selected for moving", fmt.Sprintf(`document.querySelector('#move-start:not([hidden])')?.textContent === 'Move %s'`, unit))
	p.Click("#move-start")
	p.Wait("the ghost", `document.querySelector('#ghost-base')`)
}

// TestPageMoveWarEngine plays examples/warengine/moves.yaml's Phase I on the page, on the
// real War Engine's view: the deployment zones are drawn on the squares while units may
// be deployed; the trenchers end their deployment (they deploy first), the raiders' page
// deploys raider-2 in their zone and ends theirs; Murphy dragged four squares north shows his path square by square and
// what is left of his six, Enter sends it, the log records the path and the raiders'
// page shows him there live; Hale dragged into the ruined wall is refused with the rules'
// reason, and nothing is sent; then the keyboard moves Hale round the wall's end (M, the
// arrows, W, ]): two legs, written square by square, and a facing of 45°. The position
// map's overlay lies on the squares, and a click on one puts the ghost there.
func TestPageMoveWarEngine(t *testing.T) {
	exe, base := chromiumAndServer(t)
	id, tokens := battle(t, base, example(t, "warengine/moves.yaml"))
	p, raiders := newBrowserAt(t, exe, base), newBrowserAt(t, exe, base)
	p.openAs(id, "trenchers="+tokens["trenchers"])
	raiders.openAs(id, "raiders="+tokens["raiders"])
	eval[bool](raiders, `(window.__notReloaded = true)`)

	if n := eval[int](p, `document.querySelectorAll('#board .zone').length`); n != 2 {
		t.Errorf("%d deployment zones drawn on the map, want the two sides'", n)
	}
	// The trenchers, who deploy first, are done; the raiders deploy raider-2 in their zone.
	endDeployment(p)
	raiders.Wait("the deployment's checkbox, ticked", `document.querySelector('#move-deploy').checked`)
	raiders.MouseDrag(square(17, 14), square(15, 1))
	raiders.Wait("the deployment, legal", ghostLegal)
	if got := raiders.Text("#move-help"); !strings.HasPrefix(got, "Deploying raider-2") {
		t.Errorf("the raiders' panel reads %q", got)
	}
	raiders.Click("#move-commit")
	raiders.LogCount(2)
	if got := loggedActions(p, id)[1]; fmt.Sprint(got) != "map[at:[15 1] type:deploy unit:raider-2]" {
		t.Errorf("the raiders' page sent %v", got)
	}
	p.Wait("the deployment, live", `(() => { const u = document.querySelector('#board .unit[data-unit="raider-2"]'); return u && u.dataset.x === '15' && u.dataset.y === '1'; })()`)
	endDeployment(raiders)
	p.Wait("the battle begun", `document.querySelector('#turn').textContent === "trenchers' turn, move phase"`)

	// Murphy, four squares north.
	p.MouseDrag(square(7, 12), square(7, 8))
	p.Wait("the ghost, legal", ghostLegal)
	if got := p.Text("#move-length"); got != "Path 4 squares of 6 squares left" {
		t.Errorf("murphy's ghost reads %q", got)
	}
	// The danger where he would stand: the map of Murphy himself (the advisor's places
	// name each unit of the board).
	p.Wait("the danger at the ghost", `document.querySelector('#move-danger-value')`)
	p.Screenshot("move-warengine")
	p.Do(chromedp.KeyEvent(kb.Enter))
	p.LogCount(4)
	want := map[string]any{"type": "move", "unit": "murphy", "path": []any{[]any{7.0, 11.0}, []any{7.0, 10.0}, []any{7.0, 9.0}, []any{7.0, 8.0}}}
	if got := loggedActions(p, id)[3]; !reflect.DeepEqual(got, want) {
		t.Errorf("the page sent %v, want %v", got, want)
	}
	if at := p.gridUnitAt("murphy"); at[0] != 7 || at[1] != 8 {
		t.Errorf("murphy is drawn at %v, want 7, 8", at)
	}
	raiders.Wait("murphy's move, live", `(() => { const u = document.querySelector('#board .unit[data-unit="murphy"]'); return u && u.dataset.y === '8'; })()`)
	raiders.LogCount(4)
	if !eval[bool](raiders, `window.__notReloaded === true`) {
		t.Error("the raiders' page reloaded to show the move")
	}
	if n := eval[int](p, `document.querySelectorAll('#board .zone').length`); n != 0 {
		t.Errorf("%d zones drawn once the battle began", n)
	}

	// Hale into the ruined wall: refused, its reason shown, nothing sent.
	p.DragRefused(square(13, 10), square(13, 8), "ruined wall at 13,8")
	p.Screenshot("move-warengine-wall")
	p.Do(chromedp.KeyEvent(kb.Enter))
	p.Wait("the reason, not sent", `document.querySelector('#move-error:not([hidden])')`)
	p.Do(chromedp.KeyEvent(kb.Escape))
	p.Wait("no ghost", `!document.querySelector('#ghost-base')`)
	if n := len(loggedActions(p, id)); n != 4 {
		t.Errorf("%d actions logged after the refused move, want 4", n)
	}
	if at := p.gridUnitAt("hale"); at[0] != 13 || at[1] != 10 {
		t.Errorf("hale is drawn at %v after the refused move, want 13, 10", at)
	}

	// The keyboard: Hale two squares east, a waypoint, two north past the wall's end,
	// turned 45°.
	p.Mouse(square(13, 10), true, false)
	p.Wait("hale selected for moving", `document.querySelector('#move-start:not([hidden])')?.textContent === 'Move hale'`)
	p.Do(chromedp.Focus(chromedp.CSS("#board")))
	p.Keys("m", 1)
	p.Wait("the ghost", `document.querySelector('#ghost-base')`)
	p.Keys(kb.ArrowRight, 2)
	p.Keys("w", 1)
	p.Keys(kb.ArrowUp, 2)
	p.Keys("]", 1)
	p.Wait("the ghost, legal", ghostLegal+` && document.querySelector('#move-length').textContent.includes('2 legs') && document.querySelector('#move-facing').textContent === 'facing 45°'`)
	if got := p.Text("#move-length"); got != "Path 4 squares of 5 squares left, 2 legs" {
		t.Errorf("hale's ghost reads %q", got)
	}
	p.Keys(kb.Enter, 1)
	p.LogCount(5)
	want = map[string]any{"type": "move", "unit": "hale", "facing": 45.0,
		"path": []any{[]any{14.0, 10.0}, []any{15.0, 10.0}, []any{15.0, 9.0}, []any{15.0, 8.0}}}
	if got := loggedActions(p, id)[4]; !reflect.DeepEqual(got, want) {
		t.Errorf("the keyboard sent %v, want %v", got, want)
	}
	raiders.Wait("hale's move, live", `(() => { const u = document.querySelector('#board .unit[data-unit="hale"]'); return u && u.dataset.x === '15' && u.dataset.y === '8'; })()`)

	// The position map of murphy, who has two squares left: on the squares, and a click
	// on one of its squares puts the ghost there.
	p.Mouse(square(7, 8), true, false)
	p.Wait("murphy selected", `document.querySelector('#move-start:not([hidden])')?.textContent === 'Move murphy'`)
	p.Click("#position-toggle")
	p.Wait("the overlay", `document.querySelector('#board image.position-map')`)
	pos := p.apiGet("/api/battles/"+id+"/position?unit=murphy", nil)["position"].(map[string]any)
	if n := eval[int](p, `document.querySelectorAll('#board rect.position-pareto').length`); n != len(pos["pareto"].([]any)) {
		t.Errorf("%d Pareto squares marked, the API's front has %d", n, len(pos["pareto"].([]any)))
	}
	p.Mouse(square(5, 7), true, false)
	p.Wait("the ghost at 5,7", ghostLegal+` && document.querySelector('#ghost-base').dataset.x === '5' && document.querySelector('#ghost-base').dataset.y === '7'`)
	p.Screenshot("position-warengine")
}

// TestPageMoveWarStrike plays examples/warstrike/moves.yaml's Alpha on the page: a
// model of a unit that has chosen no action is dragged, and the rules say its first move
// chooses one; the action is chosen in the move's form, the model dragged again, the
// ghost is legal (the shot from there shown, and the 4" the action allows), and the move
// sent carries the action. The unit's next model moves by the keyboard with the action
// the unit chose, sending none.
func TestPageMoveWarStrike(t *testing.T) {
	p := newBrowserPage(t)
	c := p.mustCreateAPI(example(t, "warstrike/moves.yaml"))
	p.openAs(c.id, c.sides)
	endDeployment(p, p) // the Ironclad's, then the Verdant's: this page holds both sides' tokens

	// alpha-3 clears the way round the wall's end: no action chosen yet.
	p.MouseDrag(browsertest.UnitPoint("alpha-3"), browsertest.TablePoint(25, 14))
	p.Wait("the refusal", `document.querySelector('#move-reason')`)
	if got := p.Text("#move-reason"); !strings.Contains(got, "its first move chooses it") {
		t.Errorf("a move without an action reads %q", got)
	}
	p.Do(chromedp.KeyEvent(kb.Escape))
	p.Wait("no ghost", `!document.querySelector('#ghost-base')`)
	// The action is chosen in the form of the unit selected, then the model is dragged.
	p.Choose(`#move-fields select[data-field="action"]`, "shooting_advance")
	p.MouseDrag(browsertest.UnitPoint("alpha-3"), browsertest.TablePoint(25, 14))
	p.Wait("the ghost, legal", ghostLegal)
	if got := eval[string](p, `document.querySelector('#move-fields select[data-field="action"]').value`); got != "shooting_advance" {
		t.Errorf("the ghost's action is %q", got)
	}
	p.Wait("the shot from the ghost", `document.querySelector('#move-aim .move-chance')`)
	// What it may move is the action's, as the rules measured it: 4", not the 12" of
	// the action that moves farthest.
	if got := p.Text("#move-length"); got != "Path 4″ of 4″ left" {
		t.Errorf("alpha-3's ghost reads %q", got)
	}
	p.Screenshot("move-warstrike")
	p.Click("#move-commit")
	p.LogCount(3)
	got := loggedActions(p, c.id)[2]
	if got["type"] != "move" || got["unit"] != "alpha-3" || got["action"] != "shooting_advance" || fmt.Sprint(got["path"]) != "[[25 14]]" {
		t.Errorf("the page sent %v", got)
	}
	if got := p.Text(`#units tr[data-unit="alpha"]`); !strings.Contains(got, "Shooting Advance") {
		t.Errorf("alpha's row reads %q, want its action", got)
	}

	// alpha-2, by the keyboard: the action is the unit's now, and the form says so.
	p.Do(chromedp.Focus(chromedp.CSS(`#board .unit[data-unit="alpha-2"]`)))
	p.Keys("m", 1)
	p.Wait("the ghost", `document.querySelector('#ghost-base')`)
	p.Keys(kb.ArrowRight, 8) // 4" east
	p.Wait("the ghost, legal", ghostLegal)
	if got := p.Text("#move-length"); got != "Path 4″ of 4″ left" {
		t.Errorf("alpha-2's ghost reads %q", got)
	}
	p.Keys(kb.Enter, 1)
	p.LogCount(4)
	if got := loggedActions(p, c.id)[3]; fmt.Sprint(got) != "map[path:[[23.5 13]] type:move unit:alpha-2]" {
		t.Errorf("the keyboard sent %v", got)
	}
}

// TestPageMoveWarfare plays examples/warfare/moves.yaml on the page: the longbowmen
// dragged 2" forward, the ghost legal with the fire from there at the knights (effective
// range, where they were at long), Commit sends the move, and the unit fires from where
// it stands. A second drag, further than what is left of its 3", is refused with the
// rules' reason. Before the move, the longbowmen's position map lies on the table, and a
// click on its best point starts the move there.
func TestPageMoveWarfare(t *testing.T) {
	p := newBrowserPage(t)
	c := p.mustCreateAPI(example(t, "warfare/moves.yaml"))
	p.openAs(c.id, c.sides)
	endDeployment(p, p) // the English's, then the French's: this page holds both sides' tokens

	// The position map first: a click on one of its points starts the move there.
	// The board is drawn again as the battle begins: a click that lands while it is, is
	// made again.
	for range 3 {
		p.Mouse(browsertest.UnitCentre("longbowmen"), true, false)
		if p.Poll(5*time.Second, `document.querySelector('#move-start:not([hidden])')`) {
			break
		}
	}
	p.Wait("the longbowmen selected for moving", `document.querySelector('#move-start:not([hidden])')`)
	p.Click("#position-toggle")
	p.Wait("the overlay", `document.querySelector('#board image.position-map')`)
	p.Screenshot("position-warfare")
	best := eval[[]float64](p, `['x', 'y'].map(k => Number(document.querySelector('#position-best').dataset[k]))`)
	p.Mouse(browsertest.TablePoint(best[0], best[1]), true, false)
	p.Wait("the ghost at the map's best point, legal", ghostLegal)
	if got := eval[[]float64](p, `['x', 'y'].map(k => Number(document.querySelector('#ghost-base').dataset[k]))`); !reflect.DeepEqual(got, best) {
		t.Errorf("the ghost is at %v, the best point clicked at %v", got, best)
	}
	p.Do(chromedp.KeyEvent(kb.Escape))
	p.Wait("no ghost", `!document.querySelector('#ghost-base')`)
	p.Click("#position-toggle")
	p.Wait("no overlay", `!document.querySelector('#board image.position-map')`)

	p.MouseDrag(browsertest.UnitPoint("longbowmen"), browsertest.TablePoint(0, 2))
	p.Wait("the ghost, legal", ghostLegal)
	p.Wait("the fire from the ghost", `document.querySelector('#move-aim .move-chance')`)
	if got := p.Text("#move-aim"); !strings.Contains(got, "knights") || !strings.Contains(got, "range 6") {
		t.Errorf("the fire from the ghost reads %q", got)
	}
	if got := p.Text("#move-length"); got != "Path 2″ of 3″ left" {
		t.Errorf("the ghost reads %q", got)
	}
	p.Screenshot("move-warfare")
	p.Click("#move-commit")
	p.LogCount(3)
	if got := loggedActions(p, c.id)[2]; fmt.Sprint(got) != "map[path:[[0 2]] type:move unit:longbowmen]" {
		t.Errorf("the page sent %v", got)
	}
	if at := p.unitAt("longbowmen"); at[0] != 0 || at[1] != 2 {
		t.Errorf("the longbowmen are drawn at %v, want 0, 2", at)
	}

	// 2" more, of the 1" left: refused.
	p.MouseDrag(browsertest.UnitPoint("longbowmen"), browsertest.TablePoint(0, 4))
	p.Wait("the refusal", `document.querySelector('#ghost-base.illegal') && document.querySelector('#move-reason')`)
	p.Do(chromedp.KeyEvent(kb.Escape))
	p.Wait("no ghost", `!document.querySelector('#ghost-base')`)

	// The longbowmen fire from where they stand: at effective range.
	p.Choose("#firer", "longbowmen")
	p.Mouse(browsertest.UnitPoint("knights"), true, false)
	p.Wait("the histogram", `document.querySelector('#hist-knights')`)
	p.Click("#shoot")
	p.LogCount(4)
	if n := len(loggedActions(p, c.id)); n != 4 {
		t.Errorf("%d actions logged, want the move and the fire", n)
	}
}

// TestPageMoveRepublique plays examples/republique/moves.yaml's maneuver step on the
// page, the French on one page and the Austrians on another. The 18e Ligne marched
// across the Austrian battery's front opens the passing-fire pause: the Austrians' page
// offers the answers the battle lists (fire ab at the column, or decline) as buttons,
// the French page says that play waits on them, and a French unit may not move
// meanwhile. Fire sends the passing fire: the log has it, and the pause closes on both
// pages. Then the move's fields: the limbered foot battery moves and unlimbers (a flag
// of the form), the reserve battery turns where it stands (no path: a facing only), and
// the line battery wheels on its left front corner (a select of the form), drawn where
// the rules put it, and the hussars, told to form column before they are dragged,
// re-form as they move.
func TestPageMoveRepublique(t *testing.T) {
	exe, base := chromiumAndServer(t)
	id, tokens := battle(t, base, republiqueMoves(t))
	fr, au := newBrowserAt(t, exe, base), newBrowserAt(t, exe, base)
	fr.openAs(id, "French="+tokens["French"])
	au.openAs(id, "Austrian="+tokens["Austrian"])
	// The table's edge and the zones are drawn in the scenario's cm, as the units are.
	table := fr.apiGet("/api/battles/"+id, nil)["table"].(map[string]any)
	if got := fmt.Sprint(table["edge"], table["zones"].(map[string]any)["Austrian"]); got != "[0 0 120 80] [[0 50] [120 50] [120 80] [0 80]]" {
		t.Errorf("the view's edge and Austrian zone: %s", got)
	}
	endDeployment(fr, au) // the French deploy first, then the Austrians

	// The column marches 16cm east, across ab's front.
	fr.MouseDrag(browsertest.UnitCentre("ligne"), browsertest.TablePoint(56, 40))
	fr.Wait("the ghost, legal", ghostLegal)
	if got := fr.Text("#move-trace"); !strings.Contains(got, "ab may pass fire at it") {
		t.Errorf("the march's trace reads %q", got)
	}
	fr.Screenshot("move-republique")
	fr.Do(chromedp.KeyEvent(kb.Enter))
	fr.LogCount(3)
	if got := loggedActions(fr, id)[2]; got["unit"] != "ligne" || got["type"] != "move" {
		t.Errorf("the page sent %v", got)
	}

	// The pause: the Austrians are offered the answers, the French wait.
	au.Wait("the answers offered", `document.querySelector('#turn-offers button[data-type="passing_fire"]')`)
	if got := au.Text(`#turn-offers button[data-type="passing_fire"]`); got != "Passing fire: batteries ab, target ligne" {
		t.Errorf("the passing fire's button reads %q", got)
	}
	if got := au.Text(`#turn-offers button[data-type="decline"]`); got != "Decline" {
		t.Errorf("the decline's button reads %q", got)
	}
	if got := au.Text("#turn"); got != "Austrian's turn, passing fire phase" {
		t.Errorf("the Austrians' turn reads %q", got)
	}
	if eval[bool](au, `!!document.querySelector('#end-phase')`) {
		t.Error("the decline is offered twice: as an answer and as the phase's end")
	}
	fr.Wait("the wait", `document.querySelector('#turn-offers.waiting')`)
	if got := fr.Text("#turn-offers"); !strings.Contains(got, "Play waits on Austrian's answer (passing fire)") || !strings.Contains(got, "batteries ab, target ligne") {
		t.Errorf("the French page reads %q", got)
	}
	if eval[bool](fr, `!!document.querySelector('#turn-offers button')`) {
		t.Error("the French page is offered the Austrians' answers")
	}
	au.Screenshot("republique-pause")
	eval[bool](au, `(scrollTo(0, 0), true)`)
	au.view("pause-republique", 0.6)
	fr.Screenshot("republique-waits")
	fr.MouseDrag(browsertest.UnitCentre("hussars"), browsertest.TablePoint(60, 28))
	fr.Wait("the reason the hussars may not move", `document.querySelector('#move-error:not([hidden])')`)
	if eval[bool](fr, `!!document.querySelector('#ghost-base')`) {
		t.Error("a ghost for a unit that must wait")
	}

	// Fire: the passing fire is rolled, and the pause closes on both pages.
	au.Click(`#turn-offers button[data-type="passing_fire"]`)
	au.LogCount(4)
	if got := loggedActions(au, id)[3]; fmt.Sprint(got) != "map[batteries:[ab] target:ligne type:passing_fire]" {
		t.Errorf("the answer sent is %v", got)
	}
	for _, p := range []*browserPage{au, fr} {
		p.Wait("the pause closed", `!document.querySelector('#turn-offers') && document.querySelector('#turn')?.textContent === "French's turn, maneuver phase"`)
		p.LogCount(4)
	}

	// The foot battery, limbered, moves 10cm and unlimbers at the end.
	fr.MouseDrag(browsertest.UnitCentre("fb"), browsertest.TablePoint(30, 25))
	fr.Wait("the ghost, legal", ghostLegal)
	eval[bool](fr, `(() => { const c = document.querySelector('#move-fields input[data-field="unlimber"]'); c.click(); return c.checked; })()`)
	fr.Wait("the preview of the unlimbering", `document.querySelector('#move-trace')?.textContent.includes('unlimber')`)
	fr.Wait("the ghost, legal", ghostLegal)
	fr.Click("#move-commit")
	fr.LogCount(5)
	if got := loggedActions(fr, id)[4]; got["unit"] != "fb" || got["unlimber"] != true {
		t.Errorf("the page sent %v", got)
	}

	// The reserve battery turns where it stands: a facing, no path.
	startMoving(fr, "fs")
	fr.Keys("]", 1)
	fr.Wait("the ghost turned, legal", ghostLegal+` && document.querySelector('#move-facing').textContent === 'facing 15°'`)
	fr.Keys(kb.Enter, 1)
	fr.LogCount(6)
	if got := loggedActions(fr, id)[5]; fmt.Sprint(got) != "map[facing:15 type:move unit:fs]" {
		t.Errorf("the turn sent is %v", got)
	}

	// The line battery wheels 15° on its left front corner: the ghost's base is where
	// the preview's battle put it, not turned about its centre.
	startMoving(fr, "fp")
	fr.Choose(`#move-fields select[data-field="pivot"]`, "left")
	fr.Do(chromedp.Focus(chromedp.CSS("#board")))
	fr.Keys("]", 1)
	fr.Wait("the ghost wheeled, legal", ghostLegal+` && document.querySelector('#move-facing').textContent === 'facing 15°'`)
	wheel := `{"type": "move", "unit": "fp", "facing": 15, "pivot": "left"}`
	status, ans := call(t, "POST", base+"/api/battles/"+id+"/preview", tokens["French"], "", []byte(`{"move": `+wheel+`}`))
	if status != 200 || ans["legal"] != true {
		t.Fatalf("the wheel's preview: %d %v", status, ans)
	}
	var bases any
	for _, u := range ans["table"].(map[string]any)["units"].([]any) {
		if u := u.(map[string]any); u["id"] == "fp" {
			bases = u["bases"]
		}
	}
	raw, _ := json.Marshal(bases)
	drawn := eval[bool](fr, `(() => { const b = document.getElementById('board'), k = Number(b.dataset.scale), [x0, y1] = b.dataset.origin.split(',').map(Number);
		const want = `+string(raw)+`.map(r => r.map(([x, y]) => `+"`${(x - x0) * k},${(y1 - y) * k}`"+`).join(' ')).join(' | ');
		return [...document.querySelectorAll('#ghost-base .ghost-shape')].map(p => p.getAttribute('points')).join(' | ') === want; })()`)
	if !drawn {
		t.Errorf("the wheeled ghost is not drawn where the preview put fp's base: %s", raw)
	}
	fr.Screenshot("move-republique-wheel")
	fr.Keys(kb.Enter, 1)
	fr.LogCount(7)
	if got := loggedActions(fr, id)[6]; fmt.Sprint(got) != "map[facing:15 pivot:left type:move unit:fp]" {
		t.Errorf("the wheel sent is %v", got)
	}

	// The hussars, selected, are told to form column first, then dragged: the formation
	// goes with the move.
	fr.Mouse(browsertest.UnitCentre("hussars"), true, false)
	fr.Wait("the hussars selected for moving", `document.querySelector('#move-start:not([hidden])')?.textContent === 'Move hussars'`)
	fr.Choose(`#move-fields select[data-field="formation"]`, "column")
	fr.MouseDrag(browsertest.UnitCentre("hussars"), browsertest.TablePoint(72, 20))
	fr.Wait("the ghost, legal, re-forming", ghostLegal+` && document.querySelector('#move-trace').textContent.includes('change of formation')`)
	fr.Click("#move-commit")
	fr.LogCount(8)
	if got := loggedActions(fr, id)[7]; got["unit"] != "hussars" || got["formation"] != "column" || got["path"] == nil {
		t.Errorf("the page sent %v", got)
	}
	au.LogCount(8)
}
