package http_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/browsertest"
)

// TestPageLogWords: the log speaks words. A move and a shot read as their words, with
// inches as ″ and no JSON, "Trace" or code outside the folded details, which still hold
// the action as sent and every die; the aim reads its range with its unit and at most
// two decimals, and a shot the rules refuse reads "out of range", not out_of_range.
func TestPageLogWords(t *testing.T) {
	exe, base := chromiumAndServer(t)
	id, tokens, n0 := sabresBegun(t, base)
	for _, a := range []string{
		`{"type":"move","unit":"sabre-1","path":[[14,8.3333333]]}`,
		`{"squad":"sabres","declarations":[{"unit":"sabre-3","weapon":"Avenger Railgun","target":"hunter-2"}]}`,
	} {
		actWant(t, base, id, tokens["UCM"], a, 200)
	}
	p := newBrowserAt(t, exe, base)
	p.openAs(id, "UCM="+tokens["UCM"])
	p.LogCount(n0 + 2)
	// What a player reads: each entry without its folded details.
	read := eval[string](p, `[...document.querySelectorAll('#log li.entry')].map(li => { const c = li.cloneNode(true); c.querySelector('details')?.remove(); return c.textContent; }).join('\n')`)
	if !strings.Contains(read, "sabre-1 moved 2.33″") {
		t.Errorf("the move reads %q, want it moved 2.33″", read)
	}
	for _, bad := range []string{"{", "Trace", "_", "\""} {
		if strings.Contains(read, bad) {
			t.Errorf("the log a player reads holds %q: %q", bad, read)
		}
	}
	shot := fmt.Sprintf("#action-%d", n0+1)
	if got := p.Text(shot + " details"); !strings.Contains(got, `"declarations"`) || !strings.Contains(got, "to-hit") {
		t.Errorf("the shot's details lack its body or dice: %q", got)
	}
	if n := eval[int](p, `document.querySelectorAll('`+shot+` details tr.die').length`); n == 0 {
		t.Error("the shot's dice are not in its details")
	}

	// The aim: a range with its unit, two decimals at most; a refused shot in words.
	p.Choose("#firer", "sabre-1")
	p.Mouse(browsertest.UnitPoint("hunter-1"), false, false)
	p.Wait("the aim at hunter-1", `document.querySelector('#aim-status')`)
	if got := p.Text("#aim"); !regexp.MustCompile(`Range \d+(\.\d{1,2})?″`).MatchString(got) {
		t.Errorf("the aim reads %q, without a range in inches of at most two decimals", got)
	}
	// sabre-2's railgun at hunter-1: beyond its 24″ countered range.
	p.Click(`button.weapon[data-unit="sabre-2"][data-weapon="Avenger Railgun"]`)
	p.Mouse(browsertest.UnitPoint("hunter-2"), false, false)
	p.Mouse(browsertest.UnitPoint("hunter-1"), false, false)
	p.Wait("sabre-2's aim at hunter-1", `document.querySelector('#aim h2')?.textContent.includes('sabre-2')`)
	if got := p.Text("#aim-status"); got != "Out of range" {
		t.Errorf("sabre-2's aim at hunter-1 reads %q", got)
	}
	p.Wait("the line of sight's label", `document.querySelector('#sight .los-label')?.textContent`) // drawn after the aim
	if got := p.Text("#sight .los-label"); got != "out of range" {
		t.Errorf("the line of sight's label reads %q", got)
	}
}
