package http_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/volley-wargames/volley/browsertest"
	vhttp "github.com/volley-wargames/volley/http"
	"github.com/volley-wargames/volley/servertest"
)

// demoServer serves the page and the API with demo battles of the examples given (rule
// system → scenario), published as `volley serve` publishes its own.
func demoServer(t *testing.T, scenarios map[string][]byte) (string, []vhttp.Demo) {
	t.Helper()
	srv := servertest.New(servertest.SQLite(t), servertest.Limits())
	srv.Examples = os.DirFS(filepath.Join("..", "examples"))
	demos, err := srv.KeepDemos(context.Background(), scenarios)
	if err != nil {
		t.Fatal(err)
	}
	srv.PublishDemos = true
	ts := servertest.Start(t, srv)
	return ts.URL, demos
}

// TestPageLobby opens the home page of a server with demo battles: each demo is listed
// with "Play as" a side and "Watch"; playing a side keeps only that side's token (and
// the spectator's) and plays it; the battle is then among this browser's battles; Watch
// opens it as a spectator. At a phone's width every link is a 44-pixel target and the
// page no wider than the screen.
func TestPageLobby(t *testing.T) {
	exe := browsertest.Chromium(t)
	base, demos := demoServer(t, map[string][]byte{
		"dropzone":  example(t, "dropzone/moves.yaml"),
		"warstrike": example(t, "warstrike/moves.yaml"),
	})
	p := newBrowserAt(t, exe, base)
	p.Do(chromedp.EmulateViewport(1500, 1000))
	p.Do(chromedp.Navigate(base + "/"))
	p.Wait("the demos", `document.querySelectorAll('#demos li.demo').length === 2`)
	var dz vhttp.Demo
	for _, d := range demos {
		if d.Ruleset == "dropzone" {
			dz = d
		}
	}
	for _, want := range []string{"Sabres on the move", "Play as UCM", "Play as Scourge", "Watch"} {
		if got := p.Text(`#demos li[data-demo="dropzone"]`); !strings.Contains(got, want) {
			t.Errorf("the Dropzone demo reads %q, without %q", got, want)
		}
	}
	p.Wait("your battles", `document.querySelector('#battles p')?.textContent.includes('None')`)
	p.Screenshot("lobby-desktop")

	// A browser that held the other side's token of this demo plays only the side chosen.
	eval[bool](p, `(localStorage.setItem('volley.tokens.`+dz.ID+`', JSON.stringify({Scourge: '`+dz.Sides["Scourge"]+`'})), true)`)
	p.Click(`#demos li[data-demo="dropzone"] a[data-side="UCM"]`)
	p.Wait("the battle", `document.querySelector('#board') && document.querySelector('#log h2')`)
	p.settle()
	held := eval[map[string]string](p, `JSON.parse(localStorage.getItem('volley.tokens.`+dz.ID+`'))`)
	if len(held) != 1 || held["UCM"] != dz.Sides["UCM"] {
		t.Errorf("playing as UCM, the browser holds %v; want only UCM's token", held)
	}
	if got := eval[string](p, `localStorage.getItem('volley.spectator.`+dz.ID+`')`); got != dz.Spectator {
		t.Errorf("the spectator's token kept is %q, want %q", got, dz.Spectator)
	}
	if !strings.Contains(p.Text("#turn"), "UCM") || eval[bool](p, `document.body.classList.contains('spectating')`) {
		t.Errorf("the UCM page does not play: turn %q", p.Text("#turn"))
	}
	p.Wait("End turn offered to UCM", `document.querySelector('#end-phase')`)

	// Home again: the demo is among this browser's battles, played as UCM.
	p.Click(".crumbs a")
	p.Wait("your battles", `document.querySelector('#battles table.battles')`)
	if got := p.Text("#battles"); !strings.Contains(got, "Sabres on the move") || !strings.Contains(got, "UCM") {
		t.Errorf("your battles read %q", got)
	}

	// Watch: a spectator's page of the WarStrike demo.
	eval[bool](p, `(localStorage.clear(), true)`)
	p.Do(chromedp.Reload())
	p.Click(`#demos li[data-demo="warstrike"] a[data-side="spectator"]`)
	p.Wait("the spectator's page", `document.querySelector('#board') && document.body.classList.contains('spectating')`)
	p.settle()
	if eval[bool](p, `!!document.querySelector('#end-phase')`) {
		t.Error("the spectator is offered the end of the turn")
	}

	// A phone: every link a 44-pixel target, the page no wider than the screen.
	p.Do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
	p.Do(chromedp.Navigate(base + "/"))
	p.Wait("the demos", `document.querySelectorAll('#demos li.demo').length === 2`)
	p.settle()
	if small := eval[[]string](p, `[...document.querySelectorAll('#main a.button, #main button, #main select')].filter(e => e.offsetParent && e.getBoundingClientRect().height < 44).map(e => e.textContent || e.id)`); len(small) > 0 {
		t.Errorf("controls under 44 px on a phone: %q", small)
	}
	if w := eval[float64](p, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the home page is %v px wide on a 390 px phone", w)
	}
	p.Screenshot("lobby-phone")
}
