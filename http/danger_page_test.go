package http_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestPageDangerEverySystem turns on the danger map of the Warfare and Republique demos,
// where the view offers one, and reads what it placed; a map cancelled as it starts
// leaves no overlay and says so; a spectator may map too.
func TestPageDangerEverySystem(t *testing.T) {
	p := newBrowserPage(t)
	for _, tc := range []struct{ example, side, as, objective, legend string }{
		{"warfare/demo.yaml", "French", "knights", "expected", "expected casualties of a copy of knights of French"},
		{"republique/demo.yaml", "Austrian", "IR3", "destroyed", "P(destroyed) of IR3 in its formation (3 bases of 4cm × 2cm, facing 180°) of Austrian"},
	} {
		p.create(p.pickExample(tc.example))
		p.Wait("the danger map's controls", `document.querySelector('#danger-as option')`)
		if got := eval[[]string](p, `[...document.querySelectorAll('#danger-as option')].map(o => o.value)`); !contains(got, tc.as) {
			t.Errorf("%s: the map may place %v, not %s", tc.example, got, tc.as)
		}
		p.Choose("#danger-side", tc.side)
		p.Choose("#danger-as", tc.as)
		p.Choose("#danger-objective", tc.objective)
		p.Click("#danger-toggle")
		p.Wait("the danger overlay", `document.querySelector('#danger-layer image.danger-map')`)
		if got := p.Text("#danger-legend"); !strings.Contains(got, tc.legend) {
			t.Errorf("%s: the legend reads %q", tc.example, got)
		}
		if eval[bool](p, `!document.querySelector('#danger-progress').hidden || !document.querySelector('#danger-cancel').hidden`) {
			t.Errorf("%s: the progress is still shown after the map", tc.example)
		}
		p.Screenshot("danger-" + strings.Split(tc.example, "/")[0])

		// Cancelled at once: no map, and the page says so.
		p.Click("#danger-toggle")
		p.Wait("the overlay gone", `!document.querySelector('#danger-layer image')`)
		shown := eval[bool](p, `(() => { document.querySelector('#danger-toggle').click();
			const busy = !document.querySelector('#danger-progress').hidden && !document.querySelector('#danger-cancel').hidden;
			document.querySelector('#danger-cancel').click(); return busy; })()`)
		if !shown {
			t.Errorf("%s: no progress or Cancel button while mapping", tc.example)
		}
		p.Wait("the cancelled map", `document.querySelector('#danger-legend').textContent.includes('Cancelled')`)
		if eval[bool](p, `!!document.querySelector('#danger-layer image') || document.querySelector('#danger-toggle').checked`) {
			t.Errorf("%s: a cancelled map left an overlay or its toggle on", tc.example)
		}
		if errs := p.shownErrors(); errs != "" {
			t.Errorf("%s: errors on the page: %s", tc.example, errs)
		}
	}
}

// TestPageWorthlessPlan: the WarStrike sniper's plans after the first hurt nothing; they
// are shown as worth nothing, with no button to fire them.
func TestPageWorthlessPlan(t *testing.T) {
	p := newBrowserPage(t)
	p.create(p.pickExample("warstrike/demo.yaml"))
	p.Choose("#advice-side", "Ironclad")
	p.Click("#advise")
	p.Wait("the plans", `document.querySelectorAll('#advice li.plan').length >= 3`)
	type plan struct {
		Text      string `json:"text"`
		Button    bool   `json:"button"`
		Worthless bool   `json:"worthless"`
	}
	plans := eval[[]plan](p, `[...document.querySelectorAll('#advice .advice-actor')[0].querySelectorAll('li.plan')].map(li => ({
		text: li.querySelector('.plan-head').textContent, button: !!li.querySelector('button.fire-plan'), worthless: li.classList.contains('worthless')}))`)
	if len(plans) < 2 || !plans[0].Button || plans[0].Worthless {
		t.Fatalf("the sniper's best plan is not offered: %+v", plans)
	}
	for _, pl := range plans[1:] {
		if pl.Button || !pl.Worthless || !strings.Contains(pl.Text, "worth nothing") {
			t.Errorf("a plan of no value is offered as a move: %+v", pl)
		}
	}
	p.Screenshot("advisor-worthless")
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestPageNoDangerMap mounts the advisor on a view that offers neither plans nor a danger
// map: it offers neither, and says why, as the API does.
func TestPageNoDangerMap(t *testing.T) {
	p := newBrowserPage(t)
	p.Do(chromedp.Navigate(p.base + "/"))
	p.Wait("the page", `document.querySelector('#new-battle')`)
	eval[bool](p, `(() => { import('/web/advisor.js').then(({mount}) => {
		const box = document.createElement('section');
		document.body.prepend(box);
		const view = {id: 'x', sides: ['a', 'b'], state: {units: []}, advisor: {plans: false, no_plans: 'someday has no advisor', danger: false, no_danger: 'someday has no danger map'}};
		mount(box, {}, {id: 'x', view, reader: () => '', token: () => ''}).update(view);
		window.mounted = true;
	}); return true; })()`)
	p.Wait("the advisor", `window.mounted`)
	if got := p.Text("#no-danger"); got != "No danger map: someday has no danger map." {
		t.Errorf("the panel says %q", got)
	}
	if got := p.Text("#no-plans"); got != "No best plans: someday has no advisor." {
		t.Errorf("the panel says %q", got)
	}
	if eval[bool](p, `!!document.querySelector('#danger-toggle, #advise')`) {
		t.Error("the panel offers what the view says it has not")
	}
}
