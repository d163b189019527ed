package http_test

import (
	"fmt"
	"strings"
	"testing"
)

// showDanger asks the page for the danger map of a copy of the type as, placed among
// side's units, and waits for its overlay (#danger-layer's element overlay); the legend
// must say each of want.
func (p *browserPage) showDanger(side, as, overlay string, want ...string) {
	p.T.Helper()
	p.Choose("#danger-side", side)
	p.Choose("#danger-as", as)
	p.Click("#danger-toggle")
	p.Wait("the danger overlay", fmt.Sprintf("document.querySelector(%q)", "#danger-layer "+overlay))
	for _, w := range want {
		if got := p.Text("#danger-legend"); !strings.Contains(got, w) {
			p.T.Errorf("the legend reads %q, without %q", got, w)
		}
	}
}

// TestPageAdvisor asks the page for the Sabres' best plans and fires the best; then
// turns on the danger map of crossfire.yaml and reads the overlay's pixels on either side
// of the long wall: dark where the Scourge guns see a Sabre, clear in the wall's shadow.
func TestPageAdvisor(t *testing.T) {
	p := newBrowserPage(t)
	p.create(p.pickExample("dropzone/sabres.yaml"))
	p.Choose("#advice-objective", "destroyed")
	p.Click("#advise")
	p.Wait("the plans", `document.querySelectorAll('#advice li.plan').length === 3`)
	if got := p.Text(`#advice li.plan[data-rank="1"] .plan-value`); !strings.Contains(got, "expected units destroyed: 2.08") {
		t.Errorf("the best plan reads %q", got)
	}
	if got := p.Text(`#advice li.plan[data-rank="1"] .picks`); strings.Count(got, "→ hunter-1") != 3 {
		t.Errorf("the best plan's railguns: %q", got)
	}
	p.Screenshot("advisor-plans")
	p.Click(`#advice li.plan[data-rank="1"] button.fire-plan`)
	p.Wait("the plan in the log", `document.querySelectorAll('#log tr.die').length > 0`)

	p.create(p.pickExample("dropzone/crossfire.yaml"))
	p.Wait("the advisor's sides", `document.querySelector('#danger-side option')`)
	p.showDanger("UCM", "Sabre", "image.danger-map", "P(destroyed) of a Sabre of UCM", "beast-1, beast-2, beast-3")
	// Read the overlay's own pixels at two table points: just behind the wall (south,
	// y 25.25) and just in front of it (y 28.25), at x 24.25.
	eval[bool](p, `(() => {
		const im = document.querySelector('#danger-layer image');
		const d = im.dataset;
		const img = new Image();
		img.onload = () => {
			const c = document.createElement('canvas');
			c.width = img.width; c.height = img.height;
			const g = c.getContext('2d');
			g.drawImage(img, 0, 0);
			const px = (x, y) => {
				const col = Math.round((x - d.x0) / d.step), row = Math.round((y - d.y0) / d.step);
				return [...g.getImageData(col, Number(d.rows) - 1 - row, 1, 1).data];
			};
			window.__dangerPixels = {behind: px(24.25, 25.25), front: px(24.25, 28.25), wall: px(24.25, 26.25)};
		};
		img.src = im.getAttribute('href');
		return true;
	})()`)
	p.Wait("the overlay's pixels", `window.__dangerPixels`)
	px := eval[map[string][]int](p, `window.__dangerPixels`)
	if b := px["behind"]; b[0] < 0xf0 || b[1] < 0xf0 || b[3] != 255 {
		t.Errorf("behind the wall the overlay is %v, want the palest", b)
	}
	if f := px["front"]; f[0] > 0x80 || f[1] > 0x40 {
		t.Errorf("in front of the wall the overlay is %v, want dark red", f)
	}
	if w := px["wall"]; w[3] != 0 {
		t.Errorf("the wall itself is %v, want transparent (no unit stands in it)", w)
	}
	p.Screenshot("advisor-danger")
	p.Click("#danger-toggle")
	p.Wait("the overlay gone", `!document.querySelector('#danger-layer image')`)

	// A grid map: the War Engine's plans come as steps, and its danger map covers the squares.
	p.create(p.pickExample("warengine/murphy.yaml"))
	p.Wait("the advisor's sides", `document.querySelector('#danger-side option')`)
	p.Click("#advise")
	p.Wait("the plans", `document.querySelectorAll('#advice li.plan').length > 0`)
	if got := p.Text(`#advice li.plan[data-rank="1"] .picks`); !strings.Contains(got, "murphy HMG Model 50 →") {
		t.Errorf("the War Engine plan reads %q", got)
	}
	p.showDanger("raiders", "Trooper", "image.danger-map[data-grid]", "P(destroyed) of a Trooper of raiders", "firers: murphy")
	p.Screenshot("advisor-danger-grid")
	if errs := eval[string](p, `[...document.querySelectorAll('.error:not([hidden])')].map(e => e.textContent).join(' | ')`); errs != "" {
		t.Errorf("errors on the page: %s", errs)
	}
}
