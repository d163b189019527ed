package http_test

import (
	"fmt"
	"io/fs"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/volley-wargames/volley/examples"
)

// settle waits until the page has no request under way (api.js counts them on <html>)
// and has had none for a moment: the page has drawn what its reads answered.
func (p *browserPage) settle() {
	p.T.Helper()
	quiet := 0
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if eval[bool](p, `(document.documentElement.dataset.pending || '0') === '0'`) {
			quiet++
			if quiet >= 4 {
				return
			}
		} else {
			quiet = 0
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.T.Fatalf("the page still waits for %s requests after 15 s", eval[string](p, `document.documentElement.dataset.pending`))
}

// shownErrors are the error boxes the page shows, with their text.
func (p *browserPage) shownErrors() string {
	return eval[string](p, `[...document.querySelectorAll('.error:not([hidden])')].map(e => (e.id || e.className) + ': ' + e.textContent).join(' | ')`)
}

// created is a battle the test started through the API, with its links.
type created struct {
	id, sides, spectator string // sides: every side's token, as a link's query
}

func (p *browserPage) createAPI(body []byte) (created, error) {
	p.T.Helper()
	status, res := call(p.T, "POST", p.base+"/api/battles", "", "", body)
	if status != 201 {
		return created{}, fmt.Errorf("%d %v", status, res["message"])
	}
	var q []string
	for side, tok := range res["tokens"].(map[string]any) {
		q = append(q, url.QueryEscape(side)+"="+tok.(string))
	}
	slices.Sort(q)
	return created{id: res["id"].(string), sides: strings.Join(q, "&"), spectator: "spectator=" + res["spectator"].(string)}, nil
}

// mustCreateAPI is createAPI for a battle the server must take, failing the test where
// it does not.
func (p *browserPage) mustCreateAPI(body []byte) created {
	p.T.Helper()
	c, err := p.createAPI(body)
	if err != nil {
		p.T.Fatal(err)
	}
	return c
}

// open shows a battle from a link and waits for every panel to be drawn.
// The browser forgets the tokens of earlier links first, so that a spectator's link
// holds only the spectator's.
func (p *browserPage) open(id, query string) {
	p.T.Helper()
	p.Do(chromedp.Navigate(p.base + "/"))
	eval[bool](p, `(localStorage.clear(), true)`)
	p.Do(chromedp.Navigate(p.base + "/#/battles/" + id + "?" + query))
	p.Wait("the board", `document.querySelector('#board') && document.querySelector('#log h2')`)
	p.settle()
}

// TestPageEveryExample opens every example the server offers, and every demo `volley
// serve` starts, on a side's link and on the spectator's: no panel may fail, throw or
// log an error, and the spectator sees nothing that only a player can use. The demos
// are also opened at a phone's size, and each leaves screenshots at both sizes.
func TestPageEveryExample(t *testing.T) {
	p := newBrowserPage(t)
	names, err := fs.Glob(examples.FS, "*/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	demos := map[string]string{}
	for system, path := range examples.Demos {
		demos[path] = system
	}
	for _, name := range names {
		body := example(t, name)
		c, err := p.createAPI(body)
		if err != nil {
			// Tables and charts files, and scenarios that name one, are not battles a
			// client can post; the examples list leaves them out too.
			continue
		}
		for _, who := range []string{"side", "spectator"} {
			query := c.sides
			if who == "spectator" {
				query = c.spectator
			}
			p.Do(chromedp.EmulateViewport(1500, 1000))
			p.open(c.id, query)
			if errs := p.shownErrors(); errs != "" {
				t.Errorf("%s, %s's link: the page shows errors: %s", name, who, errs)
			}
			if who == "spectator" {
				if got := eval[string](p, spectatorControls); got != "" {
					t.Errorf("%s: the spectator is offered controls a player needs: %s", name, got)
				}
			}
			if got := eval[string](p, labelOverlaps); got != "" {
				t.Errorf("%s, %s's link: labels overlap: %s", name, who, got)
			}
			system, demo := demos[name]
			if !demo {
				continue
			}
			p.Screenshot(fmt.Sprintf("%s-%s-desktop", system, who))
			p.Do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch))
			p.open(c.id, query)
			if w := eval[int](p, `document.documentElement.scrollWidth`); w > 390 {
				t.Errorf("%s, %s's link: at a phone's width the page is %d px wide", name, who, w)
			}
			if errs := p.shownErrors(); errs != "" {
				t.Errorf("%s, %s's link, phone: the page shows errors: %s", name, who, errs)
			}
			if got := eval[string](p, labelOverlaps); got != "" {
				t.Errorf("%s, %s's link, phone: labels overlap: %s", name, who, got)
			}
			if got := eval[string](p, smallTargets); got != "" {
				t.Errorf("%s, %s's link, phone: tap targets under 44 px: %s", name, who, got)
			}
			p.Screenshot(fmt.Sprintf("%s-%s-phone", system, who))
		}
		// Each battle's stream ends with the page: leave it before the next.
		p.Do(chromedp.Navigate(p.base + "/"))
	}
}

// spectatorControls lists the visible controls of a spectator's page that act or choose
// what a player would act with.
const spectatorControls = `[...document.querySelectorAll('#firer, #shoot, [data-verb], button.fire, button.fire-plan, #end-phase, #end-battle, #controls select, #controls input')]
	.filter(e => e.offsetParent !== null).map(e => e.id || e.outerHTML.slice(0, 60)).join(', ')`

// labelOverlaps lists the pairs of labels shown on the board whose boxes overlap.
const labelOverlaps = `(() => {
	const ls = [...document.querySelectorAll('#board text.label')].filter(l => getComputedStyle(l).visibility !== 'hidden')
		.map(l => [l.textContent, l.getBoundingClientRect()]);
	const out = [];
	for (let i = 0; i < ls.length; i++) for (let j = i + 1; j < ls.length; j++) {
		const [a, r] = ls[i], [b, q] = ls[j];
		if (r.left < q.right - 0.5 && q.left < r.right - 0.5 && r.top < q.bottom - 0.5 && q.top < r.bottom - 0.5) out.push(a + ' / ' + b);
	}
	return out.join(', ');
})()`

// smallTargets lists the controls shown in the battle, and the units on its board, that
// a finger cannot hit: less than 44 CSS pixels either way.
const smallTargets = `(() => {
	const small = [];
	for (const e of document.querySelectorAll('main button, main select, main input, main a, #board .hit')) {
		if (e.offsetParent === null && !(e instanceof SVGElement)) continue;
		// A check box is hit through its label.
		const r = (e.type === 'checkbox' && e.closest('label') || e).getBoundingClientRect();
		if (r.width === 0 && r.height === 0) continue;
		if (r.height < 43.5 || (r.width < 43.5 && !e.closest('table.units'))) small.push((e.id || e.dataset.unit || e.textContent.trim().slice(0, 20) || e.tagName) + ' ' + Math.round(r.width) + '×' + Math.round(r.height));
	}
	return small.join(', ');
})()`
