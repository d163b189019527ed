package http_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/volley-wargames/volley"
	vhttp "github.com/volley-wargames/volley/http"
)

// The page's tests drive Debian's chromium, headless, through chromedp (v0.23: one
// action per Run, results returned rather than written through pointers). They need
// the browser that scripts/test installs; without it they skip, unless
// VOLLEY_REQUIRE_CHROMIUM=1 (set by scripts/test) turns a missing browser into a failure.

// chromiumFlags are the flags the page's tests start chromium with: headless, no sandbox
// (the tests run as root in CI), and none of its calls home, which a closed network
// refuses by the dozen.
var chromiumFlags = []string{"no-sandbox", "disable-gpu", "disable-dev-shm-usage", "disable-background-networking",
	"disable-component-update", "disable-sync", "disable-quic"}

// browserPage is one headless chromium tab on a fresh volley server.
type browserPage struct {
	t    *testing.T
	ctx  context.Context
	base string
	shot string // where screenshots go

	mu     sync.Mutex
	errors []string // uncaught exceptions and console errors of the page
}

func chromiumPath(t *testing.T) string {
	for _, p := range []string{os.Getenv("VOLLEY_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p == "" {
			continue
		}
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if os.Getenv("VOLLEY_REQUIRE_CHROMIUM") == "1" {
		t.Fatal("chromium is not installed (scripts/chromium installs it)")
	}
	t.Skip("chromium is not installed; scripts/chromium installs it, and scripts/test runs this test")
	return ""
}

func newBrowserPage(t *testing.T) *browserPage {
	exe := chromiumPath(t)
	return newBrowserAt(t, exe, pageServer(t, sqliteStore(t)))
}

// pageServer serves the page and the API over store, with the examples on disk.
func pageServer(t *testing.T, store volley.Store) string {
	return pageServerWith(t, store, testLimits())
}

// pageServerWith is pageServer with limits of its own.
func pageServerWith(t *testing.T, store volley.Store, limits vhttp.Limits) string {
	srv := vhttp.NewServer(store, slog.New(slog.NewTextHandler(io.Discard, nil)), limits)
	srv.Examples = os.DirFS(filepath.Join("..", "examples"))
	srv.Schemas = os.DirFS(filepath.Join("..", "cmd", "volley", "schema"))
	srv.Starters = os.DirFS(filepath.Join("..", "cmd", "volley", "new"))
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	t.Cleanup(srv.Close) // first: end the event streams, which ts.Close waits for
	return ts.URL
}

// newBrowserAt starts a headless chromium of its own on the page at base.
func newBrowserAt(t *testing.T, exe, base string) *browserPage {

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 800))
	for _, f := range chromiumFlags {
		opts = append(opts, chromedp.Flag(f, true))
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(acancel)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	// The first action starts the browser and ties it to ctx: no timeout on this one.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	dir := filepath.Join(os.TempDir(), "volley-screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := &browserPage{t: t, ctx: ctx, base: base, shot: dir}
	err := chromedp.Listen(ctx, func(ev any) {
		var msg string
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			msg = "exception: " + ev.ExceptionDetails.Text
			if ev.ExceptionDetails.Exception != nil {
				msg += " " + ev.ExceptionDetails.Exception.Description
			}
		case *cdplog.EventEntryAdded:
			// The browser's own errors: a blocked resource, a violated security policy, a
			// module that failed to load. An API answering 4xx is the tests' doing.
			e := ev.Entry
			if e.Level == cdplog.EntryLevelError && !(e.Source == cdplog.EntrySourceNetwork && strings.Contains(e.URL, "/api/")) {
				msg = fmt.Sprintf("browser %s error: %s %s", e.Source, e.Text, e.URL)
			}
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				msg = "console.error"
				for _, a := range ev.Args {
					msg += " " + string(a.Value) + a.Description
				}
			}
		}
		if msg != "" {
			p.mu.Lock()
			p.errors = append(p.errors, msg)
			p.mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, e := range p.errors {
			t.Errorf("the page reported %s", e)
		}
	})
	p.do(chromedp.EmulateViewport(1280, 800))
	return p
}

// do runs steps with a time limit, failing the test with the step's error.
func (p *browserPage) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.t.Fatal(err)
	}
}

// eval runs a JavaScript expression and decodes its value into T.
func eval[T any](p *browserPage, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// pageWait is how long a page may take to show what a test waits for: long, since the
// suite runs packages side by side on two cores and chromium gets what is left.
const pageWait = 45 * time.Second

// wait polls a JavaScript condition until it holds, and fails the test with what the
// condition's element says if it never does.
func (p *browserPage) wait(what, cond string) {
	p.t.Helper()
	deadline := time.Now().Add(pageWait)
	for time.Now().Before(deadline) {
		if eval[bool](p, "!!("+cond+")") {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	errs := eval[string](p, `[...document.querySelectorAll('.error:not([hidden])')].map(e => e.textContent).join(' | ')`)
	p.t.Fatalf("waited %v for %s (%s); errors on the page: %q", pageWait, what, cond, errs)
}

func (p *browserPage) text(sel string) string {
	p.t.Helper()
	return eval[string](p, fmt.Sprintf(`(document.querySelector(%q)?.textContent ?? '').trim()`, sel))
}

// selectUnit selects a War Engine unit in the unit list, unless it is selected already.
func (p *browserPage) selectUnit(id string) {
	p.t.Helper()
	p.press(fmt.Sprintf(`.unit-btn[data-unit=%q]`, id))
}

// selectWeapon selects a weapon of the selected unit, unless it is selected already.
func (p *browserPage) selectWeapon(name string) {
	p.t.Helper()
	p.press(fmt.Sprintf(`button.weapon[data-weapon=%q]`, name))
}

// press clicks a toggle button unless it is pressed already.
func (p *browserPage) press(sel string) {
	p.t.Helper()
	p.wait(sel, fmt.Sprintf("document.querySelector(%q)", sel))
	if eval[string](p, fmt.Sprintf("document.querySelector(%q).getAttribute('aria-pressed')", sel)) != "true" {
		p.click(sel)
	}
}

func (p *browserPage) click(sel string) {
	p.t.Helper()
	p.wait(sel, fmt.Sprintf("document.querySelector(%q)", sel))
	p.do(chromedp.Click(chromedp.CSS(sel)))
}

// mouse moves the pointer to a point the expression gives in viewport pixels ([x, y]),
// and clicks there when asked, with Shift held when asked.
func (p *browserPage) mouse(pointExpr string, click, shift bool) {
	p.t.Helper()
	xy := eval[[]float64](p, pointExpr)
	var opts []chromedp.MouseOption
	if shift {
		opts = append(opts, chromedp.ButtonModifiers(chromedp.ModifierShift))
	}
	p.do(chromedp.MouseEvent(chromedp.MouseMoved, xy[0], xy[1], opts...))
	if click {
		p.do(chromedp.MouseClickXY(xy[0], xy[1], opts...))
	}
}

// square is the viewport point of a War Engine square's centre, after scrolling the board into view.
func square(x, y int) string {
	return fmt.Sprintf(`(() => { const b = document.getElementById('board'); b.scrollIntoView({block: 'center'});
		const p = b.createSVGPoint(); p.x = (%d + 0.5) * 24; p.y = (%d + 0.5) * 24;
		const q = p.matrixTransform(b.getScreenCTM()); return [q.x, q.y]; })()`, x, y)
}

// unitPoint is the viewport point of a tabletop unit's base.
func unitPoint(id string) string {
	return fmt.Sprintf(`(() => { const c = document.querySelector('#board [data-unit=%q] circle'); c.scrollIntoView({block: 'center'});
		const r = c.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`, id)
}

func (p *browserPage) screenshot(name string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatal(err)
	}
	path := filepath.Join(p.shot, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot %s", path)
}

// create starts a battle from the form, with the scenario chosen as the test says, and
// opens it.
func (p *browserPage) create(choose func()) string {
	p.t.Helper()
	p.do(chromedp.Navigate(p.base + "/"))
	p.wait("the new-battle form", `document.querySelector('#new-battle')`)
	choose()
	p.click("#create")
	p.wait("the created battle's link", `document.querySelector('#open-battle')`)
	id := p.text("#open-battle")
	if !strings.Contains(p.text("#created"), "token") {
		p.t.Errorf("the tokens are not shown after creating: %q", p.text("#created"))
	}
	p.click("#open-battle")
	p.wait("the board", `document.querySelector('#board')`)
	p.wait("the log", `document.querySelector('#log h2')`)
	return id
}

// choose sets a <select> to value as a player would, firing its change event.
func (p *browserPage) choose(sel, value string) {
	p.t.Helper()
	p.wait(sel, fmt.Sprintf(`[...document.querySelectorAll('%s option')].some(o => o.value === %q)`, sel, value))
	eval[bool](p, fmt.Sprintf(`(() => { const s = document.querySelector(%q); s.value = %q; return s.dispatchEvent(new Event('change')); })()`, sel, value))
}

// pickExample chooses an example from the form's list.
func (p *browserPage) pickExample(name string) func() {
	return func() {
		p.choose("#example", name)
		p.wait("the example's text", `document.querySelector('#scenario').value.includes('ruleset:')`)
	}
}

// apiGet reads the API directly, as a second opinion on what the page shows.
func (p *browserPage) apiGet(path string, action any) map[string]any {
	p.t.Helper()
	u := p.base + path
	if action != nil {
		b, _ := json.Marshal(action)
		u += "?action=" + url.QueryEscape(string(b))
	}
	// A token of the battle, as the page keeps it: reads need one.
	id := strings.Split(strings.TrimPrefix(path, "/api/battles/"), "/")[0]
	token := eval[string](p, `Object.values(JSON.parse(localStorage.getItem('volley.tokens.`+id+`')) || {})[0] || localStorage.getItem('volley.spectator.`+id+`') || ''`)
	status, body := call(p.t, "GET", u, token, "", nil)
	if status != 200 {
		p.t.Fatalf("GET %s: %d %v", u, status, body)
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
	p.wait("the found target, ready to fire", `document.querySelector('.found.ready[data-unit="murphy"]')`)
	if got := p.text("#turn"); got != "trenchers' turn, fire phase" {
		t.Errorf("turn reads %q", got)
	}

	// Hover the transport's square with the HMG selected: the aim the API gives.
	p.selectUnit("murphy")
	p.selectWeapon("HMG Model 50")
	if got := p.text("#aim"); !strings.Contains(got, "Point at a square") {
		t.Errorf("the aim panel before hovering reads %q", got)
	}
	p.screenshot("warengine-selected")
	p.mouse(square(11, 8), false, false)
	p.wait("the aim at 11,8", `document.querySelector('#aim-chance')`)
	api := p.apiGet("/api/battles/"+id+"/aim", map[string]any{"type": "fire", "unit": "murphy", "weapon": "HMG Model 50", "target": []int{11, 8}})
	want := api["aims"].([]any)[0].(map[string]any)["need"].(float64)
	if got := p.text("#aim-chance"); got != "55%" || want != 55 {
		t.Errorf("hovering murphy's declared shot reads %q; the API's chance to hit is %v; the seed's is 55%%", got, want)
	}
	for _, term := range []string{"weapon skill", "+40", "aiming", "+20", "-5"} {
		if !strings.Contains(p.text("#aim-terms"), term) {
			t.Errorf("the aim's terms lack %q: %q", term, p.text("#aim-terms"))
		}
	}
	p.wait("the landing heat-map", `document.querySelectorAll('#heat rect').length > 0`)
	odds := p.apiGet("/api/battles/"+id+"/odds", map[string]any{"type": "fire", "unit": "murphy", "weapon": "HMG Model 50", "target": []int{11, 8}})
	if got, want := eval[int](p, `document.querySelectorAll('#heat rect').length`), len(odds["squares"].([]any)); got != want {
		t.Errorf("the heat-map has %d squares; the API's odds have %d", got, want)
	}
	p.screenshot("warengine-hover")

	// A square behind the wall, out of the HMG's arc: the page says so.
	p.mouse(square(11, 33), false, false)
	p.wait("an out-of-arc aim", `document.querySelector('#aim-status')?.textContent === 'Out of arc'`)

	// Fire the found target: where it landed, and its dice in the log.
	p.click(`button[data-fire="HMG Model 50"]`)
	p.wait("the landing", `document.querySelector('#landed')`)
	p.wait("the fire in the log", `document.querySelectorAll('#log tr.die').length > 0`)
	if !strings.Contains(p.text("#log"), "ChanceToHit, murphy HMG Model 50, pick 1") {
		t.Errorf("the log lacks the ChanceToHit die: %q", p.text("#log"))
	}
	if eval[int](p, `document.querySelectorAll('.landed').length`) != 1 {
		t.Error("no landing marker on the board")
	}
	p.screenshot("warengine-fired")

	// Round the turn: the raiders' two phases, then the trenchers' target phase.
	for _, want := range []string{"raiders' turn, target phase", "raiders' turn, fire phase", "trenchers' turn, target phase"} {
		p.click("#end-phase")
		p.wait(want, fmt.Sprintf(`document.querySelector('#turn')?.textContent === %q`, want))
	}

	// Declare by clicking a square, clear by clicking it again, declare again.
	p.selectUnit("murphy")
	p.selectWeapon("HMG Model 50")
	p.mouse(square(11, 8), true, false)
	p.wait("the declared target", `document.querySelector('.found[data-unit="murphy"]') && !document.querySelector('.found.ready')`)
	if got := p.text(`button.weapon[data-weapon="HMG Model 50"] .found-tag`); got != "→ 11,8" {
		t.Errorf("the weapon shows its target as %q", got)
	}
	p.screenshot("warengine-declared")
	p.mouse(square(11, 8), true, false)
	p.wait("the target cleared", `!document.querySelector('.found[data-unit="murphy"]')`)
	// Shift-click: a friendly target is allowed (here an empty square, marked friendly).
	// A click that lands while the board is drawn again (the clearing's answer) is made
	// again.
	for range 3 {
		p.mouse(square(12, 12), true, true)
		if p.poll(5*time.Second, `document.querySelector('.found[data-unit="murphy"] title')?.textContent.includes('friendly')`) {
			break
		}
	}
	p.wait("the shift-clicked target", `document.querySelector('.found[data-unit="murphy"] title')?.textContent.includes('friendly')`)
	p.mouse(square(12, 12), true, false)
	p.wait("the target cleared", `!document.querySelector('.found[data-unit="murphy"]')`)
	// The keyboard: from 12,12, one square left and four up, and Enter declares there.
	p.do(chromedp.Focus(chromedp.CSS("#board")), chromedp.KeyEvent(kb.ArrowLeft))
	for range 4 {
		p.do(chromedp.KeyEvent(kb.ArrowUp))
	}
	p.wait("the keyboard's aim at 11,8", `document.querySelector('#aim h2')?.textContent.includes('(11,8)') && document.querySelector('#aim-chance')?.textContent === '55%'`)
	p.do(chromedp.KeyEvent(kb.Enter))
	p.wait("the declared target", `document.querySelector('.found[data-unit="murphy"] title')?.textContent.includes('→ 11,8')`)

	p.click("#end-phase")
	p.wait("the fire phase", `document.querySelector('#turn')?.textContent === "trenchers' turn, fire phase"`)
	p.selectUnit("murphy")
	before := p.logEntries()
	p.click(`button[data-fire="HMG Model 50"]`)
	p.wait("the second fire in the log", fmt.Sprintf(`document.querySelectorAll('#log li.entry').length === %d`, before+1))
	entries := p.logEntries()
	if entries != 11 { // fire, 3 phase ends, declare, clear, declare, clear, declare, phase end, fire
		t.Errorf("the log shows %d actions, want 11", entries)
	}

	// Reload: the battle is the server's, and the page shows it as it was.
	p.do(chromedp.Reload())
	p.wait("the board after reload", `document.querySelector('#board') && document.querySelectorAll('#log li.entry').length > 0`)
	if got := p.logEntries(); got != entries {
		t.Errorf("after a reload the log has %d actions, before %d", got, entries)
	}
	if got := p.text("#turn"); got != "trenchers' turn, fire phase" {
		t.Errorf("after a reload the turn reads %q", got)
	}

	// Without the side's token: the error appears beside the phase button, in words.
	token := eval[string](p, `JSON.parse(localStorage.getItem('volley.tokens.`+id+`')).trenchers`)
	eval[bool](p, `(localStorage.setItem('volley.tokens.`+id+`', JSON.stringify({raiders: 'x'})), true)`)
	p.click("#end-phase")
	p.wait("the missing-token error", `document.querySelector('#head-error:not([hidden])')`)
	if got := p.text("#head-error"); !strings.Contains(got, "trenchers' token") {
		t.Errorf("acting without the token reads %q", got)
	}
	// A link that hands the trenchers' token to their player: the page keeps the token,
	// takes it out of the address bar, and can act again.
	p.do(chromedp.Navigate(p.base + "/#/battles/" + id + "?trenchers=" + token))
	p.wait("the battle from the link", `document.querySelector('#end-phase') && location.hash === '#/battles/`+id+`'`)
	p.click("#end-phase")
	p.wait("the raiders' turn", `document.querySelector('#turn')?.textContent === "raiders' turn, target phase"`)

	// Phone width: the board above the controls, nothing wider than the screen.
	p.do(chromedp.EmulateViewport(390, 844))
	time.Sleep(300 * time.Millisecond) // a relayout
	if w := eval[int](p, `document.documentElement.scrollWidth`); w > 390 {
		wide := eval[string](p, `[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 391).map(e => e.tagName + '.' + e.className + '#' + e.id).slice(0, 8).join(' ')`)
		t.Errorf("at a phone's width the page is %d px wide: %s", w, wide)
	}
	p.screenshot("warengine-phone")
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
		p.do(chromedp.SetUploadFiles(chromedp.CSS("#scenario-file"), []string{path}))
		p.wait("the uploaded file's text", `document.querySelector('#scenario').value.includes('ruleset: dropzone')`)
	})

	// The guns squad: gun-2's turret has the tower between it and "screened".
	p.choose("#firer", "gun")
	p.click(`button.weapon[data-unit="gun-2"][data-weapon="Turret"]`)
	p.mouse(unitPoint("screened"), false, false)
	p.wait("a blocked line of sight", `document.querySelector('#los-line.blocked')`)
	if got := p.text("#aim-reason"); !strings.Contains(got, "tower in the way") {
		t.Errorf("the blocked sight's reason reads %q", got)
	}
	p.screenshot("dropzone-blocked")

	// gun's cannon at "walled", hull down behind the low wall: clear, needing 5+.
	p.click(`button.weapon[data-unit="gun"][data-weapon="Cannon"]`)
	p.mouse(unitPoint("walled"), false, false)
	p.wait("a clear line of sight", `document.querySelector('#los-line.clear')`)
	api := p.apiGet("/api/battles/"+id+"/aim", map[string]any{"squad": "guns", "declarations": []any{map[string]any{"unit": "gun", "weapon": "Cannon", "target": "walled"}}})
	pHit := api["aims"].([]any)[0].(map[string]any)["p_hit"].(float64)
	if got := eval[float64](p, `Number(document.querySelector('#aim-chance').dataset.p)`); got != pHit {
		t.Errorf("the chance on hover is %v (%s); the API's is %v", got, p.text("#aim-chance"), pHit)
	}
	// Click the target: the odds before rolling, as a histogram.
	p.mouse(unitPoint("walled"), true, false)
	p.wait("the odds histogram", `document.querySelector('#hist-walled rect')`)
	p.screenshot("dropzone-declared")
	p.click("#shoot")
	p.wait("the rolled dice", `document.querySelector('#dice')`)
	p.wait("the shot in the log", `document.querySelectorAll('#log tr.die').length > 0`)
	p.screenshot("dropzone-shot")

	// End the battle: the seed is revealed and the dice verify.
	eval[bool](p, `(window.confirm = () => true, true)`)
	p.click("#end-battle")
	p.click("#verify")
	p.wait("the verification", `document.querySelector('#verify-result .ok')`)
	if got := p.text("#verify-result"); !strings.Contains(got, "Verified: 1 actions") || !strings.Contains(got, "seed matches the commitment") {
		t.Errorf("verification reads %q", got)
	}
	// The page kept the head it was given, and the log is held to it.
	lg := p.apiGet("/api/battles/"+id+"/log", nil)
	if kept := eval[string](p, `JSON.parse(localStorage.getItem('volley.head.`+id+`')).hash`); kept != lg["head"].(map[string]any)["hash"] || !strings.Contains(p.text("#verify-kept"), "first 1 actions") {
		t.Errorf("the head kept is %s, the log's %v; the check reads %q", kept, lg["head"], p.text("#verify-result"))
	}
	p.screenshot("dropzone-verified")
}

// TestPageWarfare pastes a scenario, fires at two targets and sees the casualties' odds;
// a scenario with mistakes is refused with every error, next to the form.
func TestPageWarfare(t *testing.T) {
	p := newBrowserPage(t)
	p.do(chromedp.Navigate(p.base + "/"))
	p.wait("the form", `document.querySelector('#scenario')`)
	p.do(chromedp.SetValue(chromedp.CSS("#scenario"), "ruleset: warfare\nsystem: alternate\ntables: {ranges: {}}\nunits:\n  - {id: a, side: x, stands: two}\n  - {id: b, sid: y, stands: 2}\n"))
	p.click("#create")
	p.wait("the scenario's errors", `document.querySelectorAll('#create-error li').length >= 2`)
	if got := p.text("#create-error"); !strings.Contains(got, "line 5") || !strings.Contains(got, "line 6") {
		t.Errorf("the errors do not name their lines: %q", got)
	}
	p.screenshot("create-errors")

	demo, err := os.ReadFile(filepath.Join("..", "examples", "warfare", "demo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	p.create(func() { p.do(chromedp.SetValue(chromedp.CSS("#scenario"), string(demo))) })
	p.choose("#firer", "longbowmen")
	p.mouse(unitPoint("knights"), true, false)
	p.mouse(unitPoint("spearmen"), true, false)
	p.wait("both histograms", `document.querySelector('#hist-knights') && document.querySelector('#hist-spearmen')`)
	p.screenshot("warfare-declared")
	p.click("#shoot")
	p.wait("the fire in the log", `document.querySelectorAll('#log tr.die').length > 0`)
	p.screenshot("warfare-fired")
	if errs := eval[string](p, `[...document.querySelectorAll('.error:not([hidden])')].map(e => e.textContent).join(' | ')`); errs != "" {
		t.Errorf("errors on the page: %s", errs)
	}

	// A unit the scenario does not place fires from the lists, with the range band given.
	unplaced, _, _ := strings.Cut(string(demo), "\naction:") // its action measures from the position
	unplaced = strings.Replace(unplaced, "weapon: longbow, at: [0, 0]}", "weapon: longbow}", 1)
	if !strings.Contains(unplaced, "weapon: longbow}") {
		t.Fatal("demo.yaml no longer places the longbowmen as this test expects")
	}
	p.create(func() { p.do(chromedp.SetValue(chromedp.CSS("#scenario"), unplaced)) })
	p.choose("#firer", "longbowmen")
	p.choose("#add-target", "knights")
	p.choose(`select[aria-label="range band to knights"]`, "close")
	p.wait("the histogram", `document.querySelector('#hist-knights')`)
	p.click("#shoot")
	p.wait("the fire in the log", `document.querySelectorAll('#log tr.die').length > 0`)
}
