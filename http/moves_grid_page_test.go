package http_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestPageMoveGrid drives the grid map's moves on a view the test describes (the War
// Engine's murphy example, its view given the move form a grid system's would have: paths
// of squares, facings in 45° steps), with the API's preview and position map answered by
// a stub: a drag writes the path square by square, diagonals first; the facing turns
// in the form's steps; a field of the form is chosen and sent with the move; Enter sends
// it. The position map's overlay is drawn on the squares, and a click on one starts the
// move there.
func TestPageMoveGrid(t *testing.T) {
	p, c := openExample(t, "warengine/murphy.yaml")
	view := p.apiGet("/api/battles/"+c.id, nil)
	board := view["board"].(map[string]any)
	board["moves"] = map[string]any{"facing": true, "facing_step": 45, "grid": true,
		"fields": []any{map[string]any{"key": "pace", "label": "Pace", "kind": "select", "options": []any{"walk", "run"}}}}
	for _, u := range board["units"].([]any) {
		u := u.(map[string]any)
		if u["id"] == "murphy" {
			u["move"] = map[string]any{"allowance": 4, "moved": 0, "left": 4}
		} else {
			u["move"] = map[string]any{"allowance": 4, "moved": 0, "left": 0, "why": "not its turn"}
		}
	}
	raw, err := json.Marshal(view)
	if err != nil {
		t.Fatal(err)
	}
	p.Do(chromedp.Navigate(p.base + "/"))
	p.Wait("the page", `document.querySelector('#new-battle')`)
	// The map is mounted on its own; act records the actions, and the preview answers
	// that a path of four squares or fewer may be moved.
	eval[bool](p, fmt.Sprintf(`(() => {
		window.sent = []; window.previews = [];
		const real = window.fetch;
		window.fetch = async (url, opts) => {
			const path = new URL(url, location.href).pathname;
			let body = null;
			if (path.endsWith('/preview')) {
				const q = JSON.parse(opts.body);
				window.previews.push(q);
				const n = q.move.path.length;
				body = n <= 4 ? {legal: true, trace: [{result: 'murphy moved ' + n + ' squares'}]} : {legal: false, reason: 'murphy may move 4 squares'};
			} else if (path.endsWith('/position')) {
				const pts = [];
				for (let x = 9; x <= 13; x++) for (let y = 28; y <= 32; y++) pts.push({x, y, reach: Math.max(Math.abs(x - 11), Math.abs(y - 30)), offence: x / 20, danger: y / 40});
				body = {position: {unit: 'murphy', side: 'trenchers', from: [11, 30], left: 4, offence: 'expected hits', danger: 'P(destroyed)', length_unit: 'square',
					step: 1, x0: 9, y0: 28, cols: 5, rows: 5, grid: true, points: pts, pareto: pts.slice(0, 3), top: [], reachable: pts.length}};
			} else {
				return real(url, opts);
			}
			return new Response(JSON.stringify(body), {status: 200, headers: {'Content-Type': 'application/json'}});
		};
		import('/web/grid.js').then(({mount}) => {
			const field = document.createElement('div'), controls = document.createElement('div'), unitsBox = document.createElement('div');
			document.querySelector('main').prepend(field, controls, unitsBox);
			const ctx = {id: %q, view: %s, reader: () => '', token: (side) => side === 'trenchers' ? 'a token' : '', unitsBox,
				act: async (action, side) => { window.sent.push({action, side}); return {seq: window.sent.length, outcome: {rolls: [], targets: [], trace: []}}; }};
			mount(field, controls, ctx).update();
			window.mounted = true;
		});
		return true; })()`, c.id, raw))
	p.Wait("the map", `window.mounted && document.querySelector('#board .unit[data-unit="murphy"]')`)

	// A drag from murphy's square three right and one down: a diagonal step, then two.
	p.MouseDrag(square(11, 30), square(14, 31))
	p.Wait("the ghost, legal", ghostLegal)
	if got := eval[string](p, `JSON.stringify(window.previews.at(-1).move)`); got != `{"type":"move","unit":"murphy","path":[[12,31],[13,31],[14,31]]}` {
		t.Errorf("the preview was asked of %s", got)
	}
	if got := p.Text("#move-length"); got != "Path 3 squares of 4 squares left" {
		t.Errorf("the ghost's length reads %q", got)
	}
	// Too far: the ghost's end dragged two squares on, then back.
	p.MouseDrag(square(14, 31), square(16, 31))
	p.Wait("the refusal", `document.querySelector('#move-reason')?.textContent === 'murphy may move 4 squares'`)
	p.Do(chromedp.Focus(chromedp.CSS("#board")), chromedp.KeyEvent(kb.ArrowLeft), chromedp.KeyEvent(kb.ArrowLeft))
	p.Wait("the ghost, legal again", ghostLegal)
	p.Do(chromedp.KeyEvent("]"))
	p.Wait("the facing turned", `document.querySelector('#move-facing').textContent === 'facing 45°'`)
	p.Wait("the ghost, legal", ghostLegal)
	// A field the form asks for is chosen with the move, and sent with it.
	p.Choose(`#move-fields select[data-field="pace"]`, "run")
	p.Wait("the preview with the field", `window.previews.at(-1).move.pace === 'run'`)
	p.Do(chromedp.Focus(chromedp.CSS("#board")))
	p.Wait("the ghost, legal", ghostLegal)
	p.Screenshot("move-grid")
	p.Do(chromedp.KeyEvent(kb.Enter))
	p.Wait("the move sent", `window.sent.length === 1`)
	sent := eval[map[string]any](p, `window.sent[0]`)
	want := map[string]any{"side": "trenchers", "action": map[string]any{"type": "move", "unit": "murphy", "facing": 45.0, "pace": "run",
		"path": []any{[]any{12.0, 31.0}, []any{13.0, 31.0}, []any{14.0, 31.0}}}}
	if !reflect.DeepEqual(sent, want) {
		t.Errorf("the map sent %v, want %v", sent, want)
	}

	// The position map, over the squares; a click on one starts the move there.
	p.Mouse(square(11, 30), true, false)
	p.Click("#position-toggle")
	p.Wait("the overlay", `document.querySelector('#board image.position-map')`)
	if n := eval[int](p, `document.querySelectorAll('#board rect.position-pareto').length`); n != 3 {
		t.Errorf("%d Pareto squares marked, want 3", n)
	}
	p.Mouse(square(9, 28), true, false)
	p.Wait("the ghost at 9,28", ghostLegal+` && document.querySelector('#ghost-base').dataset.x === '9' && document.querySelector('#ghost-base').dataset.y === '28'`)
	if got := eval[string](p, `JSON.stringify(window.previews.at(-1).move.path)`); got != `[[10,29],[9,28]]` {
		t.Errorf("the move to 9,28 is %s", got)
	}
}
