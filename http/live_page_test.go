package http_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/volley-wargames/volley/browsertest"
	"github.com/volley-wargames/volley/servertest"
	"github.com/volley-wargames/volley/storetest"
)

// TestPageLiveAcrossServers: three `volley serve`s over one PostgreSQL database, a
// chromium page on each — UCM's, Scourge's and a spectator's. A shot fired on UCM's page
// shows on the two others, dice and all, without a reload (the page never polls: only its
// stream can bring it); so does the end of UCM's turn. The spectator's page has no action
// controls. How soon it shows is logged, not asserted (a loaded machine stretches it past
// any bound; BenchmarkFanout measures the stream's delivery).
func TestPageLiveAcrossServers(t *testing.T) {
	exe := browsertest.Chromium(t)
	url := storetest.PostgresURL(t)
	bases := []string{pageServer(t, storetest.Postgres(t, url)), pageServer(t, storetest.Postgres(t, url)), pageServer(t, storetest.Postgres(t, url))}
	id, tokens := battle(t, bases[0], example(t, "dropzone/sabres.yaml"))
	links := []string{"UCM=" + tokens["UCM"], "Scourge=" + tokens["Scourge"], "spectator=" + watch(id)}
	pages := make([]*browserPage, 3)
	for i := range pages {
		pages[i] = newBrowserAt(t, exe, bases[i])
		pages[i].Do(chromedp.Navigate(bases[i] + "/#/battles/" + id + "?" + links[i]))
		pages[i].Wait("the board", `document.querySelector('#board')`)
		pages[i].Wait("the live badge", `document.querySelector('#live.on')`)
		eval[bool](pages[i], `(window.__notReloaded = true)`) // a reload would forget it
	}
	ucm, scourge, spectator := pages[0], pages[1], pages[2]

	// The spectator sees the battle and acts on nothing.
	visible := `[...document.querySelectorAll('button[data-verb], button.fire-plan, #end-phase, #end-battle')].filter(b => b.offsetParent !== null).length`
	if n := eval[int](spectator, visible); n != 0 {
		t.Errorf("the spectator's page shows %d action controls", n)
	}

	// UCM fires the advisor's best plan.
	ucm.Click("#advise")
	ucm.Wait("the plans", `document.querySelector('#advice button.fire-plan')`)
	ucm.Click(`#advice li.plan[data-rank="1"] button.fire-plan`)
	ucm.Wait("the shot in UCM's log", `document.querySelectorAll('#log tr.die').length > 0`)
	fired := time.Now()
	for _, p := range []*browserPage{scourge, spectator} {
		p.Wait("the shot, live", `document.querySelectorAll('#log tr.die').length > 0`)
	}
	t.Logf("the shot reached the other two pages within %v of UCM's", time.Since(fired).Round(time.Millisecond))
	for _, p := range []*browserPage{scourge, spectator} {
		if dice, want := eval[int](p, `document.querySelectorAll('#log tr.die').length`), eval[int](ucm, `document.querySelectorAll('#log tr.die').length`); dice != want {
			t.Errorf("%d dice on another page, %d on UCM's", dice, want)
		}
		if !eval[bool](p, `window.__notReloaded === true`) {
			t.Error("a page reloaded to show the shot")
		}
	}
	ucm.Screenshot("live-ucm")
	spectator.Screenshot("live-spectator")

	// UCM ends its turn: Scourge's page says so, live.
	ucm.Click("#end-phase")
	ended := time.Now()
	scourge.Wait("Scourge's turn", `(document.querySelector('#turn') || {}).textContent?.startsWith("Scourge's turn")`)
	spectator.Wait("Scourge's turn", `(document.querySelector('#turn') || {}).textContent?.startsWith("Scourge's turn")`)
	t.Logf("the end of the turn showed on the other two pages %v after the click", time.Since(ended).Round(time.Millisecond))
	if got := scourge.Text("#turn"); !strings.HasPrefix(got, "Scourge's turn") {
		t.Errorf("Scourge's page: %q", got)
	}
	scourge.Screenshot("live-scourge")
}

// TestPageLiveReconnects: the server closes idle streams after half a second and its
// tickets expire after one, so the page's stream drops again and again, and comes back
// by itself (the browser's own retry, then a new ticket). An action stored meanwhile
// through the API still shows on the page, once.
func TestPageLiveReconnects(t *testing.T) {
	exe := browsertest.Chromium(t)
	limits := servertest.Limits()
	limits.StreamIdle = 500 * time.Millisecond
	limits.TicketTTL = time.Second
	srv := servertest.New(servertest.SQLite(t), limits)
	ts := servertest.Start(t, srv)
	id, tokens := battle(t, ts.URL, example(t, "dropzone/sabres.yaml"))
	p := newBrowserAt(t, exe, ts.URL)
	p.Do(chromedp.Navigate(ts.URL + "/#/battles/" + id + "?Scourge=" + tokens["Scourge"]))
	p.Wait("the live badge", `document.querySelector('#live.on')`)
	time.Sleep(2500 * time.Millisecond) // several drops and returns
	p.Wait("the live badge, back", `document.querySelector('#live.on')`)
	if status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/actions", tokens["UCM"], "", []byte(sabresAction)); status != http.StatusOK {
		t.Fatalf("action: %d %v", status, v)
	}
	p.Wait("the action, live", `document.querySelectorAll('#log li.entry').length === 1`)
	time.Sleep(300 * time.Millisecond)
	if n := p.logEntries(); n != 1 {
		t.Errorf("%d log entries, want the one action once", n)
	}
}
