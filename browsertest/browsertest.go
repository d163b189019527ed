// Package browsertest drives a headless chromium for the tests of volley's page: it finds
// the browser, starts one of a test's own, and runs what a player does (clicks, drags,
// taps, keys) and what a test reads back (JavaScript values, text, screenshots), each
// step with a time limit. It knows the page's board (board.go) and no game. Only tests
// import it, so chromedp stays out of the binaries.
//
// chromedp is v0.23: one action per Run, results returned rather than written through
// pointers (its docs/MIGRATION.md).
package browsertest

import (
	"context"
	"fmt"
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
)

// Flags are the flags the page's tests start chromium with: headless, no sandbox (the
// tests run as root in CI), and none of its calls home, which a closed network refuses by
// the dozen.
var Flags = []string{"no-sandbox", "disable-gpu", "disable-dev-shm-usage", "disable-background-networking",
	"disable-component-update", "disable-sync", "disable-quic"}

// Width and Height are the window and viewport a page starts with; a test emulates
// another size where it needs one.
const (
	Width  = 1280
	Height = 800
)

// WaitFor is how long a page may take to show what a test waits for: long, since the
// suite runs packages side by side on two cores and chromium gets what is left.
const WaitFor = 45 * time.Second

// stepTime bounds one step in the browser.
const stepTime = 20 * time.Second

// Shots is the folder screenshots go to: volley-screenshots in the temporary folder.
var Shots = filepath.Join(os.TempDir(), "volley-screenshots")

// Chromium is the path of the browser: $VOLLEY_CHROMIUM, else Debian's chromium. Without
// one the test skips, unless VOLLEY_REQUIRE_CHROMIUM=1 (set by scripts/test, which
// installs it with scripts/chromium) makes a missing browser a failure.
func Chromium(t *testing.T) string {
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

// Page is one headless chromium tab of a test's own. Whatever the page reports as an
// error (an uncaught exception, console.error, the browser's own errors) fails the test
// when it ends.
type Page struct {
	T   *testing.T
	Ctx context.Context

	mu     sync.Mutex
	errors []string
}

// New starts a headless chromium of its own, the browser at exe, closed when the test ends.
func New(t *testing.T, exe string) *Page {
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(Width, Height))
	for _, f := range Flags {
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
	if err := os.MkdirAll(Shots, 0o755); err != nil {
		t.Fatal(err)
	}
	p := &Page{T: t, Ctx: ctx}
	if err := chromedp.Listen(ctx, p.record); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, e := range p.errors {
			t.Errorf("the page reported %s", e)
		}
	})
	p.Do(chromedp.EmulateViewport(Width, Height))
	return p
}

// record keeps the errors the page reports.
func (p *Page) record(ev any) {
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
}

// Do runs steps with a time limit, failing the test with the step's error.
func (p *Page) Do(steps ...chromedp.Action[chromedp.Void]) {
	p.T.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, stepTime)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.T.Fatal(err)
	}
}

// Eval runs a JavaScript expression and decodes its value into T.
func Eval[T any](p *Page, expr string) T {
	p.T.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, stepTime)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.T.Fatalf("%s: %v", expr, err)
	}
	return v
}

// Wait polls a JavaScript condition until it holds, and fails the test with what the
// page's error boxes say if it never does.
func (p *Page) Wait(what, cond string) {
	p.T.Helper()
	if p.Poll(WaitFor, cond) {
		return
	}
	errs := Eval[string](p, `[...document.querySelectorAll('.error:not([hidden])')].map(e => e.textContent).join(' | ')`)
	p.T.Fatalf("waited %v for %s (%s); errors on the page: %q", WaitFor, what, cond, errs)
}

// Poll waits up to d for a JavaScript condition, and says whether it came to hold.
func (p *Page) Poll(d time.Duration, cond string) bool {
	p.T.Helper()
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if Eval[bool](p, "!!("+cond+")") {
			return true
		}
	}
	return false
}

// Text is the text of the element sel, trimmed; "" without one.
func (p *Page) Text(sel string) string {
	p.T.Helper()
	return Eval[string](p, fmt.Sprintf(`(document.querySelector(%q)?.textContent ?? '').trim()`, sel))
}

// Click waits for the element sel and clicks it.
func (p *Page) Click(sel string) {
	p.T.Helper()
	p.Wait(sel, fmt.Sprintf("document.querySelector(%q)", sel))
	p.Do(chromedp.Click(chromedp.CSS(sel)))
}

// Press clicks a toggle button unless it is pressed already.
func (p *Page) Press(sel string) {
	p.T.Helper()
	p.Wait(sel, fmt.Sprintf("document.querySelector(%q)", sel))
	if Eval[string](p, fmt.Sprintf("document.querySelector(%q).getAttribute('aria-pressed')", sel)) != "true" {
		p.Click(sel)
	}
}

// Choose sets a <select> to value as a player would, firing its change event.
func (p *Page) Choose(sel, value string) {
	p.T.Helper()
	p.Wait(sel, fmt.Sprintf(`[...document.querySelectorAll('%s option')].some(o => o.value === %q)`, sel, value))
	Eval[bool](p, fmt.Sprintf(`(() => { const s = document.querySelector(%q); s.value = %q; return s.dispatchEvent(new Event('change')); })()`, sel, value))
}

// Keys presses a key n times.
func (p *Page) Keys(k string, n int) {
	p.T.Helper()
	for range n {
		p.Do(chromedp.KeyEvent(k))
	}
}

// Screenshot saves the whole page as name.png in Shots, and logs where.
func (p *Page) Screenshot(name string) {
	p.T.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, stepTime)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.T.Fatal(err)
	}
	path := filepath.Join(Shots, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.T.Fatal(err)
	}
	p.T.Logf("screenshot %s", path)
}
