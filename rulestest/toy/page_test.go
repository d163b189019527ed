package toy_test

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/volley-wargames/volley/browsertest"
	"github.com/volley-wargames/volley/servertest"
)

// The page plays the toy as it plays the five systems, with no line of JavaScript for
// it: a headless chromium (browsertest, as http's page tests start it) on the real server.

// TestPageMovesAndShoots opens a toy battle on the page with both sides' tokens: the
// deployment is ended by the header's button, r1 is dragged 4" up the table and the
// move committed, a drag further than the 2" left is refused with the rules' reason,
// then r1 is chosen to shoot, b1 clicked, its odds drawn, and the shot sent.
func TestPageMovesAndShoots(t *testing.T) {
	p := browsertest.New(t, browsertest.Chromium(t))
	p.Do(chromedp.EmulateViewport(1500, 1000))
	base := server(t)
	id, tokens := battle(t, base)
	_, v := servertest.Call(t, "POST", base+"/api/battles/"+id+"/actions", tokens["red"], []byte(`{"type": "deploy", "unit": "r2", "at": [12, 3]}`))
	if v["seq"] == nil {
		t.Fatalf("deploying r2: %v", v)
	}
	p.Do(chromedp.Navigate(fmt.Sprintf("%s/#/battles/%s?blue=%s&red=%s", base, id, url.QueryEscape(tokens["blue"]), url.QueryEscape(tokens["red"]))))
	p.Wait("the board and the log", `document.querySelector('#board') && document.querySelector('#log h2')`)
	for range 2 { // red's deployment, then blue's
		p.Wait("the deployment's end offered", `document.querySelector('#turn')?.textContent.endsWith('deployment phase') && document.querySelector('#end-phase')`)
		before := browsertest.Eval[string](p, `document.querySelector('#turn').textContent`)
		p.Click("#end-phase")
		p.Wait("the deployment passed on", fmt.Sprintf(`document.querySelector('#turn')?.textContent !== %q`, before))
	}
	p.Wait("red's turn", `document.querySelector('#turn')?.textContent.includes('red')`)

	p.MouseDrag(browsertest.UnitPoint("r1"), browsertest.TablePoint(6, 8))
	p.Wait("the ghost, legal", `document.querySelector('#ghost-base.legal') && document.querySelector('#move-status.ok')`)
	if got := browsertest.Eval[string](p, `document.querySelector('#move-length').textContent.trim()`); got != "Path 4″ of 6″ left" {
		t.Errorf("the ghost reads %q", got)
	}
	p.Click("#move-commit")
	p.LogCount(4)
	p.Wait("r1 drawn where it went", `document.querySelector('#board .unit[data-unit="r1"]')?.dataset.y === '8'`)

	p.DragRefused(browsertest.UnitPoint("r1"), browsertest.TablePoint(6, 11), "may move 2″ more")
	p.Do(chromedp.KeyEvent("\u001b")) // Escape

	p.Choose("#firer", "r1") // once r1 is offered to shoot
	b1 := browsertest.Eval[[]float64](p, browsertest.UnitPoint("b1"))
	p.Do(chromedp.MouseClickXY(b1[0], b1[1]))
	p.Wait("b1's odds", `document.querySelector('#hist-b1')`)
	p.Click("#shoot")
	p.LogCount(5)
	_, log := servertest.Call(t, "GET", base+"/api/battles/"+id+"/log", tokens["red"], nil)
	actions := log["actions"].([]any)
	if got := actions[len(actions)-1].(map[string]any)["action"].(string); !strings.Contains(got, `"target":"b1"`) || !strings.Contains(got, `"unit":"r1"`) {
		t.Errorf("the page sent %s", got)
	}
}
