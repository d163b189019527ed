package http_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/volley-wargames/volley/browsertest"
	"github.com/volley-wargames/volley/examples"
)

// view saves what the screen shows, scaled, as a PNG: a picture for docs/page.md.
func (p *browserPage) view(name string, scale float64) {
	p.T.Helper()
	at := eval[[]float64](p, `[scrollX, scrollY, innerWidth, innerHeight]`)
	var png []byte
	p.Do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		res, err := cdp.Call(ctx, t, page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng,
			Clip: &page.Viewport{X: at[0], Y: at[1], Width: at[2], Height: at[3], Scale: scale}})
		png = res.Data
		return err
	}))
	dir := filepath.Join(browsertest.Shots, "docs")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.T.Fatal(err)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.T.Fatal(err)
	}
	p.T.Logf("screenshot %s (%d bytes)", path, len(png))
}

// TestPageScreenshots leaves the pictures of docs/page.md: each system's demo on a
// side's link, its firer chosen and a target pointed at, at a desktop's size (1500 ×
// 1000, scaled to 60%) and at a phone's (390 × 844), the table first.
func TestPageScreenshots(t *testing.T) {
	p := newBrowserPage(t)
	shots := []struct {
		system, firer, target string
		grid                  bool
	}{
		{"dropzone", "sabre-2", "beast-1", false},
		{"warengine", "murphy", "", true},
		{"warfare", "longbowmen", "genoese-1", false},
		{"republique", "fb1", "ab1", false},
		{"warstrike", "sniper", "raider-2", false},
	}
	for _, s := range shots {
		body, err := examples.FS.ReadFile(examples.Demos[s.system])
		if err != nil {
			t.Fatal(err)
		}
		c := p.mustCreateAPI(body)
		for _, size := range []struct {
			name          string
			width, height int64
			scale         float64
		}{{"desktop", 1500, 1000, 0.6}, {"phone", 390, 844, 1}} {
			phone := size.name == "phone"
			if phone {
				p.Do(chromedp.EmulateViewport(size.width, size.height, chromedp.EmulateMobile, chromedp.EmulateTouch))
			} else {
				p.Do(chromedp.EmulateViewport(size.width, size.height))
			}
			p.open(c.id, c.sides)
			point := func(expr string) {
				if phone {
					p.Tap(expr)
				} else {
					p.Mouse(expr, true, false)
				}
			}
			if s.grid {
				p.selectUnit(s.firer)
				p.selectWeapon("HMG Model 50")
				p.Mouse(square(11, 8), false, false)
				p.Wait("the aim", `document.querySelector('#aim-chance')`)
			} else {
				point(browsertest.UnitCentre(s.firer))
				p.Wait("the firer chosen", `document.querySelector('#firer').value !== ''`)
				point(browsertest.UnitCentre(s.target))
				p.Wait("the aim", `document.querySelector('#aim-status')`)
			}
			p.settle()
			time.Sleep(200 * time.Millisecond) // the labels of the last zoom
			eval[bool](p, `(document.querySelector(`+"`"+`#field`+"`"+`).scrollIntoView({block: 'start'}), scrollBy(0, -8), true)`)
			p.view(s.system+"-"+size.name, size.scale)
		}
		p.Do(chromedp.Navigate(p.base + "/"))
	}
	playScreenshots(t, p)
}

// playScreenshots leaves docs/page.md's pictures of playing a battle through: the lobby
// of a server with demos, and a battle's end screen and a step of its replay, each at a
// desktop's size and a phone's.
func playScreenshots(t *testing.T, p *browserPage) {
	base, _ := demoServer(t, map[string][]byte{
		"dropzone":   example(t, "dropzone/moves.yaml"),
		"warstrike":  example(t, "warstrike/moves.yaml"),
		"warfare":    example(t, "warfare/moves.yaml"),
		"warengine":  example(t, "warengine/moves.yaml"),
		"republique": republiqueMoves(t),
	})
	id, tokens, n0 := sabresBegun(t, base)
	for _, a := range []struct{ side, body string }{
		{"UCM", `{"type":"move","unit":"sabre-1","path":[[14,9]]}`},
		{"UCM", `{"squad":"sabres","declarations":[{"unit":"sabre-1","weapon":"Avenger Railgun","target":"hunter-1"},{"unit":"sabre-3","weapon":"Equalizer Machinegun","target":"warriors-1"}]}`},
		{"UCM", `{"type":"end_turn"}`},
		{"Scourge", `{"type":"move","unit":"hunter-2","path":[[26,27]]}`},
		{"Scourge", `{"type":"offer_end","side":"Scourge"}`},
		{"UCM", `{"type":"offer_end","side":"UCM"}`},
	} {
		if status, body := call(t, "POST", base+"/api/battles/"+id+"/actions", tokens[a.side], "", []byte(a.body)); status != 200 {
			t.Fatalf("%s: %d %v", a.body, status, body)
		}
	}
	for _, size := range []struct {
		name          string
		width, height int64
		scale         float64
	}{{"desktop", 1500, 1000, 0.6}, {"phone", 390, 844, 1}} {
		if size.name == "phone" {
			p.Do(chromedp.EmulateViewport(size.width, size.height, chromedp.EmulateMobile, chromedp.EmulateTouch))
		} else {
			p.Do(chromedp.EmulateViewport(size.width, size.height))
		}
		p.base = base
		p.Do(chromedp.Navigate(base + "/"))
		p.Wait("the demos", `document.querySelectorAll('#demos li.demo').length === 5`)
		p.settle()
		p.view("lobby-"+size.name, size.scale)
		p.open(id, "UCM="+tokens["UCM"])
		p.Wait("the dice checked", `document.querySelector('#verify-result .ok')`)
		p.settle()
		eval[bool](p, `(scrollTo(0, 0), true)`)
		p.view("end-"+size.name, size.scale)
		p.Click("#replay-start")
		for range n0 + 2 { // to the shot
			p.Click("#replay-next")
		}
		p.Wait("the shot's step", fmt.Sprintf(`document.querySelector('#replay-step')?.textContent === 'step %d of %d' && document.querySelector('#last-shot line')`, n0+2, n0+6))
		p.settle()
		time.Sleep(200 * time.Millisecond)
		eval[bool](p, `(document.querySelector('#replay').scrollIntoView({block: 'start'}), true)`)
		p.view("replay-"+size.name, size.scale)
	}
}
