package http_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestPagePlayAgainstVolley plays a whole battle against volley from the home page:
// "Play against volley" with the Dropzone battle, UCM for the player and the Scourge for
// volley at the greedy level. The page opens the battle with UCM's token alone; the
// player ends each of its phases and turns with the page's own button, and volley's
// actions arrive by themselves, each marked as volley's with its reasons in the log,
// until the end screen shows the verdict and the dice checked. Screenshots of the battle
// under way and of its end, at a desktop's size and a phone's.
func TestPagePlayAgainstVolley(t *testing.T) {
	exe, base := chromiumAndServer(t)
	p := newBrowserAt(t, exe, base)
	p.Do(chromedp.EmulateViewport(1500, 1000))
	p.Do(chromedp.Navigate(base + "/"))
	p.Wait("the panel", `document.querySelector('#against-start')`)
	idx := eval[string](p, `[...document.querySelectorAll('#against-battle option')].find(o => o.textContent.includes('(dropzone)'))?.value ?? ''`)
	if idx == "" {
		t.Fatal("no Dropzone battle is offered to play against volley")
	}
	p.Choose("#against-battle", idx)
	p.Choose("#against-side", "UCM")
	p.Choose("#against-level", "greedy")
	p.Click("#against-start")
	p.Wait("the battle", `document.querySelector('#board') && document.querySelector('#log h2')`)
	if got := eval[string](p, `Object.keys(JSON.parse(localStorage.getItem('volley.tokens.' + location.hash.slice(10, 26)) || '{}')).join(',')`); got != "UCM" {
		t.Errorf("the page holds the tokens of %q; want UCM's alone", got)
	}
	shots := 0
	for turn := 0; ; turn++ {
		p.Wait("UCM's turn, or the end", `document.querySelector('#end-verdict') || (document.querySelector('#end-phase') && !document.querySelector('#end-phase').disabled)`)
		if eval[bool](p, `!!document.querySelector('#end-verdict')`) {
			break
		}
		if turn > 40 {
			t.Fatal("the battle has not ended after 40 of UCM's phases")
		}
		if turn == 4 {
			eval[bool](p, `(document.querySelector('#log').scrollIntoView(), true)`)
			p.view("against-volley", 0.6) // docs/screenshots/, for docs/page.md
			eval[bool](p, `(scrollTo(0, 0), true)`)
			p.Screenshot("against-volley")
			p.Do(chromedp.EmulateViewport(390, 844))
			p.Screenshot("against-volley-phone")
			p.Do(chromedp.EmulateViewport(1500, 1000))
			shots++
		}
		n := eval[int](p, `document.querySelectorAll('#log li.entry').length`)
		p.Click("#end-phase")
		p.Wait("UCM's end in the log", fmt.Sprintf(`document.querySelectorAll('#log li.entry').length > %d || document.querySelector('#end-verdict')`, n))
	}
	p.Wait("the dice checked", `document.querySelector('#verify-result .ok')`)
	volley := eval[int](p, `[...document.querySelectorAll('#log li.entry')].filter(e => e.querySelector('.entry-head .badge')?.textContent === 'volley').length`)
	whys := eval[[]string](p, `[...document.querySelectorAll('#log li.entry .why')].map(e => e.textContent)`)
	if volley == 0 || len(whys) != volley {
		t.Errorf("%d of the log's entries are volley's, %d say why", volley, len(whys))
	}
	for _, w := range whys {
		if !strings.HasPrefix(w, "Why: ") || len(w) < 10 {
			t.Errorf("volley's reason reads %q", w)
		}
	}
	if got := p.Text("#end-verdict"); got == "" {
		t.Error("no verdict")
	}
	eval[bool](p, `(scrollTo(0, 0), true)`)
	p.Screenshot("against-volley-end")
	t.Logf("volley took %d actions; the verdict: %s; %d mid-battle screenshots", volley, p.Text("#end-verdict"), shots)
}
