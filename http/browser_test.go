package http_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/browsertest"
	vhttp "github.com/volley-wargames/volley/http"
	"github.com/volley-wargames/volley/servertest"
)

// The page's tests drive Debian's chromium, headless, through browsertest (chromedp).
// They need the browser that scripts/test installs; without it they skip, unless
// VOLLEY_REQUIRE_CHROMIUM=1 (set by scripts/test) turns a missing browser into a failure.

// browserPage is one headless chromium tab on a volley server at base.
type browserPage struct {
	*browsertest.Page
	base string
}

func newBrowserPage(t *testing.T) *browserPage {
	exe, base := chromiumAndServer(t)
	return newBrowserAt(t, exe, base)
}

// chromiumAndServer is the headless chromium's path (the test skipped where there is
// none) and the address of a page server over a new SQLite store: what most page tests
// start from, before they open one browser or more on it.
func chromiumAndServer(t *testing.T) (exe, base string) {
	return browsertest.Chromium(t), pageServer(t, servertest.SQLite(t))
}

// pageServer serves the page and the API over store, with the examples on disk.
func pageServer(t *testing.T, store volley.Store) string {
	return pageServerWith(t, store, servertest.Limits())
}

// pageServerWith is pageServer with limits of its own.
func pageServerWith(t *testing.T, store volley.Store, limits vhttp.Limits) string {
	srv := servertest.New(store, limits)
	srv.Examples = os.DirFS(filepath.Join("..", "examples"))
	srv.Schemas = os.DirFS(filepath.Join("..", "cmd", "volley", "schema"))
	srv.Starters = os.DirFS(filepath.Join("..", "cmd", "volley", "new"))
	return servertest.Start(t, srv).URL
}

// newBrowserAt starts a headless chromium of its own on the page at base.
func newBrowserAt(t *testing.T, exe, base string) *browserPage {
	return &browserPage{Page: browsertest.New(t, exe), base: base}
}

// eval runs a JavaScript expression on the page and decodes its value into T.
func eval[T any](p *browserPage, expr string) T {
	p.T.Helper()
	return browsertest.Eval[T](p.Page, expr)
}

// selectUnit selects a War Engine unit in the unit list, unless it is selected already.
func (p *browserPage) selectUnit(id string) {
	p.T.Helper()
	p.Press(fmt.Sprintf(`.unit-btn[data-unit=%q]`, id))
}

// selectWeapon selects a weapon of the selected unit, unless it is selected already.
func (p *browserPage) selectWeapon(name string) {
	p.T.Helper()
	p.Press(fmt.Sprintf(`button.weapon[data-weapon=%q]`, name))
}

// square is the viewport point of a War Engine square's centre, after scrolling the board into view.
func square(x, y int) string {
	return fmt.Sprintf(`(() => { const b = document.getElementById('board'); b.scrollIntoView({block: 'center'});
		const p = b.createSVGPoint(); p.x = (%d + 0.5) * 24; p.y = (%d + 0.5) * 24;
		const q = p.matrixTransform(b.getScreenCTM()); return [q.x, q.y]; })()`, x, y)
}

// create starts a battle from the form, with the scenario chosen as the test says, and
// opens it.
func (p *browserPage) create(choose func()) string {
	p.T.Helper()
	p.Do(chromedp.Navigate(p.base + "/"))
	p.Wait("the new-battle form", `document.querySelector('#new-battle')`)
	choose()
	p.Click("#create")
	p.Wait("the created battle's link", `document.querySelector('#open-battle')`)
	id := p.Text("#open-battle")
	if !strings.Contains(p.Text("#created"), "token") {
		p.T.Errorf("the tokens are not shown after creating: %q", p.Text("#created"))
	}
	p.Click("#open-battle")
	p.Wait("the board", `document.querySelector('#board')`)
	p.Wait("the log", `document.querySelector('#log h2')`)
	return id
}

// pickExample chooses an example from the form's list.
func (p *browserPage) pickExample(name string) func() {
	return func() {
		p.Choose("#example", name)
		p.Wait("the example's text", `document.querySelector('#scenario').value.includes('ruleset:')`)
	}
}

// apiGet reads the API directly, as a second opinion on what the page shows.
func (p *browserPage) apiGet(path string, action any) map[string]any {
	p.T.Helper()
	u := p.base + path
	if action != nil {
		b, _ := json.Marshal(action)
		u += "?action=" + url.QueryEscape(string(b))
	}
	// A token of the battle, as the page keeps it: reads need one.
	id := strings.Split(strings.TrimPrefix(path, "/api/battles/"), "/")[0]
	token := eval[string](p, `Object.values(JSON.parse(localStorage.getItem('volley.tokens.`+id+`')) || {})[0] || localStorage.getItem('volley.spectator.`+id+`') || ''`)
	status, body := call(p.T, "GET", u, token, "", nil)
	if status != 200 {
		p.T.Fatalf("GET %s: %d %v", u, status, body)
	}
	return body
}

func (p *browserPage) logEntries() int {
	return eval[int](p, `document.querySelectorAll('#log li.entry').length`)
}

// TestPageWarEngine plays the War Engine through the page: murphy's declared shot reads
// 55% on hover, as the API says; the declared shot fires, and the dice reach the log;
// targets are declared and cleared by clicking; the battle survives a reload.
func TestPageWarEngine(t *testing.T) {
	p := newBrowserPage(t)
	id := p.create(p.pickExample("warengine/murphy.yaml"))

	// The scenario's found target, in the fire phase: a red dotted line and a ready marker.
	p.Wait("the found target, ready to fire", `document.querySelector('.found.ready[data-unit="murphy"]')`)
	if got := p.Text("#turn"); got != "trenchers' turn, fire phase" {
		t.Errorf("turn reads %q", got)
	}

	// Hover the transport's square with the HMG selected: the aim the API gives.
	p.selectUnit("murphy")
	p.selectWeapon("HMG Model 50")
	if got := p.Text("#aim"); !strings.Contains(got, "Point at a square") {
		t.Errorf("the aim panel before hovering reads %q", got)
	}
	p.Screenshot("warengine-selected")
	p.Mouse(square(11, 8), false, false)
	p.Wait("the aim at 11,8", `document.querySelector('#aim-chance')`)
	api := p.apiGet("/api/battles/"+id+"/aim", map[string]any{"type": "fire", "unit": "murphy", "weapon": "HMG Model 50", "target": []int{11, 8}})
	want := api["aims"].([]any)[0].(map[string]any)["need"].(float64)
	if got := p.Text("#aim-chance"); got != "55%" || want != 55 {
		t.Errorf("hovering murphy's declared shot reads %q; the API's chance to hit is %v; the seed's is 55%%", got, want)
	}
	for _, term := range []string{"weapon skill", "+40", "aiming", "+20", "-5"} {
		if !strings.Contains(p.Text("#aim-terms"), term) {
			t.Errorf("the aim's terms lack %q: %q", term, p.Text("#aim-terms"))
		}
	}
	p.Wait("the landing heat-map", `document.querySelectorAll('#heat rect').length > 0`)
	odds := p.apiGet("/api/battles/"+id+"/odds", map[string]any{"type": "fire", "unit": "murphy", "weapon": "HMG Model 50", "target": []int{11, 8}})
	if got, want := eval[int](p, `document.querySelectorAll('#heat rect').length`), len(odds["squares"].([]any)); got != want {
		t.Errorf("the heat-map has %d squares; the API's odds have %d", got, want)
	}
	p.Screenshot("warengine-hover")

	// A square behind the wall, out of the HMG's arc: the page says so.
	p.Mouse(square(11, 33), false, false)
	p.Wait("an out-of-arc aim", `document.querySelector('#aim-status')?.textContent === 'Out of arc'`)

	// Fire the found target: where it landed, and its dice in the log.
	p.Click(`button[data-fire="HMG Model 50"]`)
	p.Wait("the landing", `document.querySelector('#landed')`)
	p.Wait("the fire in the log", `document.querySelectorAll('#log tr.die').length > 0`)
	if !strings.Contains(p.Text("#log"), "ChanceToHit, murphy HMG Model 50, pick 1") {
		t.Errorf("the log lacks the ChanceToHit die: %q", p.Text("#log"))
	}
	if eval[int](p, `document.querySelectorAll('.landed').length`) != 1 {
		t.Error("no landing marker on the board")
	}
	p.Screenshot("warengine-fired")

	// Round the turn: the raiders' two phases, then the trenchers' target phase.
	for _, want := range []string{"raiders' turn, target phase", "raiders' turn, fire phase", "trenchers' turn, target phase"} {
		p.Click("#end-phase")
		p.Wait(want, fmt.Sprintf(`document.querySelector('#turn')?.textContent === %q`, want))
	}

	// Declare by clicking a square, clear by clicking it again, declare again.
	p.selectUnit("murphy")
	p.selectWeapon("HMG Model 50")
	p.Mouse(square(11, 8), true, false)
	p.Wait("the declared target", `document.querySelector('.found[data-unit="murphy"]') && !document.querySelector('.found.ready')`)
	if got := p.Text(`button.weapon[data-weapon="HMG Model 50"] .found-tag`); got != "→ 11,8" {
		t.Errorf("the weapon shows its target as %q", got)
	}
	p.Screenshot("warengine-declared")
	p.Mouse(square(11, 8), true, false)
	p.Wait("the target cleared", `!document.querySelector('.found[data-unit="murphy"]')`)
	// Shift-click: a friendly target is allowed (here an empty square, marked friendly).
	// A click that lands while the board is drawn again (the clearing's answer) is made
	// again.
	for range 3 {
		p.Mouse(square(12, 12), true, true)
		if p.Poll(5*time.Second, `document.querySelector('.found[data-unit="murphy"] title')?.textContent.includes('friendly')`) {
			break
		}
	}
	p.Wait("the shift-clicked target", `document.querySelector('.found[data-unit="murphy"] title')?.textContent.includes('friendly')`)
	p.Mouse(square(12, 12), true, false)
	p.Wait("the target cleared", `!document.querySelector('.found[data-unit="murphy"]')`)
	// The keyboard: from 12,12, one square left and four up, and Enter declares there.
	p.Do(chromedp.Focus(chromedp.CSS("#board")), chromedp.KeyEvent(kb.ArrowLeft))
	for range 4 {
		p.Do(chromedp.KeyEvent(kb.ArrowUp))
	}
	p.Wait("the keyboard's aim at 11,8", `document.querySelector('#aim h2')?.textContent.includes('(11,8)') && document.querySelector('#aim-chance')?.textContent === '55%'`)
	p.Do(chromedp.KeyEvent(kb.Enter))
	p.Wait("the declared target", `document.querySelector('.found[data-unit="murphy"] title')?.textContent.includes('→ 11,8')`)

	p.Click("#end-phase")
	p.Wait("the fire phase", `document.querySelector('#turn')?.textContent === "trenchers' turn, fire phase"`)
	p.selectUnit("murphy")
	before := p.logEntries()
	p.Click(`button[data-fire="HMG Model 50"]`)
	p.Wait("the second fire in the log", fmt.Sprintf(`document.querySelectorAll('#log li.entry').length === %d`, before+1))
	entries := p.logEntries()
	if entries != 11 { // fire, 3 phase ends, declare, clear, declare, clear, declare, phase end, fire
		t.Errorf("the log shows %d actions, want 11", entries)
	}

	// Reload: the battle is the server's, and the page shows it as it was.
	p.Do(chromedp.Reload())
	p.Wait("the board after reload", `document.querySelector('#board') && document.querySelectorAll('#log li.entry').length > 0`)
	if got := p.logEntries(); got != entries {
		t.Errorf("after a reload the log has %d actions, before %d", got, entries)
	}
	if got := p.Text("#turn"); got != "trenchers' turn, fire phase" {
		t.Errorf("after a reload the turn reads %q", got)
	}

	// Without the side's token: the error appears beside the phase button, in words.
	token := eval[string](p, `JSON.parse(localStorage.getItem('volley.tokens.`+id+`')).trenchers`)
	eval[bool](p, `(localStorage.setItem('volley.tokens.`+id+`', JSON.stringify({raiders: 'x'})), true)`)
	p.Click("#end-phase")
	p.Wait("the missing-token error", `document.querySelector('#head-error:not([hidden])')`)
	if got := p.Text("#head-error"); !strings.Contains(got, "trenchers' token") {
		t.Errorf("acting without the token reads %q", got)
	}
	// A link that hands the trenchers' token to their player: the page keeps the token,
	// takes it out of the address bar, and can act again.
	p.Do(chromedp.Navigate(p.base + "/#/battles/" + id + "?trenchers=" + token))
	p.Wait("the battle from the link", `document.querySelector('#end-phase') && location.hash === '#/battles/`+id+`'`)
	p.Click("#end-phase")
	p.Wait("the raiders' turn", `document.querySelector('#turn')?.textContent === "raiders' turn, target phase"`)

	// Phone width: the board above the controls, nothing wider than the screen.
	p.Do(chromedp.EmulateViewport(390, 844))
	time.Sleep(300 * time.Millisecond) // a relayout
	if w := eval[int](p, `document.documentElement.scrollWidth`); w > 390 {
		wide := eval[string](p, `[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 391).map(e => e.tagName + '.' + e.className + '#' + e.id).slice(0, 8).join(' ')`)
		t.Errorf("at a phone's width the page is %d px wide: %s", w, wide)
	}
	p.Screenshot("warengine-phone")
}

// TestPageDropzone uploads a scenario file, reads the line of sight on hover (clear and
// blocked, with the reason), builds a squad's declaration by clicking, sees its odds as
// a histogram, shoots, and ends the battle to verify its dice.
func TestPageDropzone(t *testing.T) {
	p := newBrowserPage(t)
	path, err := filepath.Abs(filepath.Join("..", "examples", "dropzone", "checks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	id := p.create(func() {
		p.Do(chromedp.SetUploadFiles(chromedp.CSS("#scenario-file"), []string{path}))
		p.Wait("the uploaded file's text", `document.querySelector('#scenario').value.includes('ruleset: dropzone')`)
	})

	// The guns squad: gun-2's turret has the tower between it and "screened".
	p.Choose("#firer", "gun")
	p.Click(`button.weapon[data-unit="gun-2"][data-weapon="Turret"]`)
	p.Mouse(browsertest.UnitPoint("screened"), false, false)
	p.Wait("a blocked line of sight", `document.querySelector('#los-line.blocked')`)
	if got := p.Text("#aim-reason"); !strings.Contains(got, "tower in the way") {
		t.Errorf("the blocked sight's reason reads %q", got)
	}
	p.Screenshot("dropzone-blocked")

	// gun's cannon at "walled", hull down behind the low wall: clear, needing 5+.
	p.Click(`button.weapon[data-unit="gun"][data-weapon="Cannon"]`)
	p.Mouse(browsertest.UnitPoint("walled"), false, false)
	p.Wait("a clear line of sight", `document.querySelector('#los-line.clear')`)
	api := p.apiGet("/api/battles/"+id+"/aim", map[string]any{"squad": "guns", "declarations": []any{map[string]any{"unit": "gun", "weapon": "Cannon", "target": "walled"}}})
	pHit := api["aims"].([]any)[0].(map[string]any)["p_hit"].(float64)
	if got := eval[float64](p, `Number(document.querySelector('#aim-chance').dataset.p)`); got != pHit {
		t.Errorf("the chance on hover is %v (%s); the API's is %v", got, p.Text("#aim-chance"), pHit)
	}
	// Click the target: the odds before rolling, as a histogram.
	p.Mouse(browsertest.UnitPoint("walled"), true, false)
	p.Wait("the odds histogram", `document.querySelector('#hist-walled rect')`)
	p.Screenshot("dropzone-declared")
	p.Click("#shoot")
	p.Wait("the rolled dice", `document.querySelector('#dice')`)
	p.Wait("the shot in the log", `document.querySelectorAll('#log tr.die').length > 0`)
	p.Screenshot("dropzone-shot")

	// End the battle: the seed is revealed and the dice verify.
	eval[bool](p, `(window.confirm = () => true, true)`)
	p.Click("#end-battle")
	p.Click("#verify")
	p.Wait("the verification", `document.querySelector('#verify-result .ok')`)
	if got := p.Text("#verify-result"); !strings.Contains(got, "Verified: 1 actions") || !strings.Contains(got, "seed matches the commitment") {
		t.Errorf("verification reads %q", got)
	}
	// The page kept the head it was given, and the log is held to it.
	lg := p.apiGet("/api/battles/"+id+"/log", nil)
	if kept := eval[string](p, `JSON.parse(localStorage.getItem('volley.head.`+id+`')).hash`); kept != lg["head"].(map[string]any)["hash"] || !strings.Contains(p.Text("#verify-kept"), "first 1 actions") {
		t.Errorf("the head kept is %s, the log's %v; the check reads %q", kept, lg["head"], p.Text("#verify-result"))
	}
	p.Screenshot("dropzone-verified")
}

// TestPageWarfare pastes a scenario, fires at two targets and sees the casualties' odds;
// a scenario with mistakes is refused with every error, next to the form.
func TestPageWarfare(t *testing.T) {
	p := newBrowserPage(t)
	p.Do(chromedp.Navigate(p.base + "/"))
	p.Wait("the form", `document.querySelector('#scenario')`)
	p.Do(chromedp.SetValue(chromedp.CSS("#scenario"), "ruleset: warfare\nsystem: alternate\ntables: {ranges: {}}\nunits:\n  - {id: a, side: x, stands: two}\n  - {id: b, sid: y, stands: 2}\n"))
	p.Click("#create")
	p.Wait("the scenario's errors", `document.querySelectorAll('#create-error li').length >= 2`)
	if got := p.Text("#create-error"); !strings.Contains(got, "line 5") || !strings.Contains(got, "line 6") {
		t.Errorf("the errors do not name their lines: %q", got)
	}
	p.Screenshot("create-errors")

	demo := example(t, "warfare/demo.yaml")
	p.create(func() { p.Do(chromedp.SetValue(chromedp.CSS("#scenario"), string(demo))) })
	p.Choose("#firer", "longbowmen")
	p.Mouse(browsertest.UnitPoint("knights"), true, false)
	p.Mouse(browsertest.UnitPoint("spearmen"), true, false)
	p.Wait("both histograms", `document.querySelector('#hist-knights') && document.querySelector('#hist-spearmen')`)
	p.Screenshot("warfare-declared")
	p.Click("#shoot")
	p.Wait("the fire in the log", `document.querySelectorAll('#log tr.die').length > 0`)
	p.Screenshot("warfare-fired")
	if errs := eval[string](p, `[...document.querySelectorAll('.error:not([hidden])')].map(e => e.textContent).join(' | ')`); errs != "" {
		t.Errorf("errors on the page: %s", errs)
	}

	// A unit the scenario does not place fires from the lists, with the range band given.
	unplaced, _, _ := strings.Cut(string(demo), "\naction:") // its action measures from the position
	unplaced = strings.Replace(unplaced, "weapon: longbow, at: [0, 0]}", "weapon: longbow}", 1)
	if !strings.Contains(unplaced, "weapon: longbow}") {
		t.Fatal("demo.yaml no longer places the longbowmen as this test expects")
	}
	p.create(func() { p.Do(chromedp.SetValue(chromedp.CSS("#scenario"), unplaced)) })
	p.Choose("#firer", "longbowmen")
	p.Choose("#add-target", "knights")
	p.Choose(`select[aria-label="range band to knights"]`, "close")
	p.Wait("the histogram", `document.querySelector('#hist-knights')`)
	p.Click("#shoot")
	p.Wait("the fire in the log", `document.querySelectorAll('#log tr.die').length > 0`)
}
