package toy_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The page plays the toy as it plays the five systems, with no line of JavaScript for
// it: a headless chromium (as http's page tests start it) on the real server.

// page is one headless chromium tab.
type page struct {
	t   *testing.T
	ctx context.Context

	mu     sync.Mutex
	errors []string // uncaught exceptions and console errors
}

func newPage(t *testing.T) *page {
	exe := ""
	for _, p := range []string{os.Getenv("VOLLEY_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if path, err := exec.LookPath(p); p != "" && err == nil {
			exe = path
			break
		}
	}
	if exe == "" {
		if os.Getenv("VOLLEY_REQUIRE_CHROMIUM") == "1" {
			t.Fatal("chromium is not installed (scripts/chromium installs it)")
		}
		t.Skip("chromium is not installed")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1500, 1000))
	for _, f := range []string{"no-sandbox", "disable-gpu", "disable-dev-shm-usage", "disable-background-networking", "disable-component-update", "disable-sync"} {
		opts = append(opts, chromedp.Flag(f, true))
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(acancel)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	p := &page{t: t, ctx: ctx}
	if err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			p.mu.Lock()
			p.errors = append(p.errors, ev.ExceptionDetails.Text)
			p.mu.Unlock()
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				p.mu.Lock()
				p.errors = append(p.errors, fmt.Sprint("console.error ", ev.Args))
				p.mu.Unlock()
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, e := range p.errors {
			t.Errorf("the page reported %s", e)
		}
	})
	p.do(chromedp.EmulateViewport(1500, 1000))
	return p
}

func (p *page) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.t.Fatal(err)
	}
}

func eval[T any](p *page, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// wait polls a JavaScript condition until it holds, for as long as a loaded machine needs.
func (p *page) wait(what, cond string) {
	p.t.Helper()
	for deadline := time.Now().Add(45 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if eval[bool](p, "!!("+cond+")") {
			return
		}
	}
	p.t.Fatalf("waited for %s (%s); errors on the page: %q", what, cond,
		eval[string](p, `[...document.querySelectorAll('.error:not([hidden])')].map(e => e.textContent).join(' | ')`))
}

func (p *page) click(sel string) {
	p.t.Helper()
	p.wait(sel, fmt.Sprintf("document.querySelector(%q)", sel))
	p.do(chromedp.Click(chromedp.CSS(sel)))
}

// drag presses the mouse at one viewport point, moves it in steps to another, lets go.
func (p *page) drag(fromExpr, toExpr string) {
	p.t.Helper()
	from, to := eval[[]float64](p, fromExpr), eval[[]float64](p, toExpr)
	p.do(chromedp.MouseEvent(chromedp.MouseMoved, from[0], from[1]))
	p.do(chromedp.MouseEvent(chromedp.MousePressed, from[0], from[1], chromedp.ButtonLeft, chromedp.ClickCount(1)))
	for s := 1; s <= 10; s++ {
		k := float64(s) / 10
		p.do(chromedp.MouseEvent(chromedp.MouseMoved, from[0]+(to[0]-from[0])*k, from[1]+(to[1]-from[1])*k, chromedp.ButtonLeft))
	}
	p.do(chromedp.MouseEvent(chromedp.MouseReleased, to[0], to[1], chromedp.ButtonLeft, chromedp.ClickCount(1)))
}

// unitPoint is the viewport point of a token's base; tablePoint of a point of the table.
func unitPoint(id string) string {
	return fmt.Sprintf(`(() => { const c = document.querySelector('#board [data-unit=%q] circle'); c.scrollIntoView({block: 'center'});
		const r = c.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`, id)
}

func tablePoint(x, y float64) string {
	return fmt.Sprintf(`(() => { const b = document.getElementById('board');
		const k = Number(b.dataset.scale), [x0, y1] = b.dataset.origin.split(',').map(Number);
		const p = b.createSVGPoint(); p.x = (%g - x0) * k; p.y = (y1 - %g) * k;
		const q = p.matrixTransform(b.getScreenCTM()); return [q.x, q.y]; })()`, x, y)
}

func (p *page) entries(n int) {
	p.t.Helper()
	p.wait(fmt.Sprintf("%d actions in the log", n), fmt.Sprintf(`document.querySelectorAll('#log li.entry').length === %d`, n))
}

// TestPageMovesAndShoots opens a toy battle on the page with both sides' tokens: the
// deployment is ended by the header's button, r1 is dragged 4" up the table and the
// move committed, a drag further than the 2" left is refused with the rules' reason,
// then r1 is chosen to shoot, b1 clicked, its odds drawn, and the shot sent.
func TestPageMovesAndShoots(t *testing.T) {
	p := newPage(t)
	base := server(t)
	id, tokens := battle(t, base)
	_, v := call(t, "POST", base+"/api/battles/"+id+"/actions", tokens["red"], []byte(`{"type": "deploy", "unit": "r2", "at": [12, 3]}`))
	if v["seq"] == nil {
		t.Fatalf("deploying r2: %v", v)
	}
	p.do(chromedp.Navigate(fmt.Sprintf("%s/#/battles/%s?blue=%s&red=%s", base, id, url.QueryEscape(tokens["blue"]), url.QueryEscape(tokens["red"]))))
	p.wait("the board and the log", `document.querySelector('#board') && document.querySelector('#log h2')`)
	for range 2 { // red's deployment, then blue's
		p.wait("the deployment's end offered", `document.querySelector('#turn')?.textContent.endsWith('deployment phase') && document.querySelector('#end-phase')`)
		before := eval[string](p, `document.querySelector('#turn').textContent`)
		p.click("#end-phase")
		p.wait("the deployment passed on", fmt.Sprintf(`document.querySelector('#turn')?.textContent !== %q`, before))
	}
	p.wait("red's turn", `document.querySelector('#turn')?.textContent.includes('red')`)

	p.drag(unitPoint("r1"), tablePoint(6, 8))
	p.wait("the ghost, legal", `document.querySelector('#ghost-base.legal') && document.querySelector('#move-status.ok')`)
	if got := eval[string](p, `document.querySelector('#move-length').textContent.trim()`); got != "Path 4″ of 6″ left" {
		t.Errorf("the ghost reads %q", got)
	}
	p.click("#move-commit")
	p.entries(4)
	p.wait("r1 drawn where it went", `document.querySelector('#board .unit[data-unit="r1"]')?.dataset.y === '8'`)

	p.drag(unitPoint("r1"), tablePoint(6, 11))
	p.wait("the refusal", `document.querySelector('#ghost-base.illegal') && document.querySelector('#move-reason')`)
	if got := eval[string](p, `document.querySelector('#move-reason').textContent`); !strings.Contains(got, "may move 2″ more") {
		t.Errorf("the refusal reads %q", got)
	}
	p.do(chromedp.KeyEvent("\u001b")) // Escape

	p.wait("r1 offered to shoot", `[...document.querySelectorAll('#firer option')].some(o => o.value === 'r1')`)
	eval[bool](p, `(() => { const s = document.querySelector('#firer'); s.value = 'r1'; return s.dispatchEvent(new Event('change')); })()`)
	p.do(chromedp.MouseClickXY(eval[[]float64](p, unitPoint("b1"))[0], eval[[]float64](p, unitPoint("b1"))[1]))
	p.wait("b1's odds", `document.querySelector('#hist-b1')`)
	p.click("#shoot")
	p.entries(5)
	_, log := call(t, "GET", base+"/api/battles/"+id+"/log", tokens["red"], nil)
	actions := log["actions"].([]any)
	if got := actions[len(actions)-1].(map[string]any)["action"].(string); !strings.Contains(got, `"target":"b1"`) || !strings.Contains(got, `"unit":"r1"`) {
		t.Errorf("the page sent %s", got)
	}
}
