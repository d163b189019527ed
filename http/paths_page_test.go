package http_test

import (
	"math"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/browsertest"
)

// TestPageMovePaths: moving as players expect. A move of two legs made this turn stays
// drawn from where the Sabre stood, through its waypoint; a move taken back is not drawn;
// the Sabre selected for moving shows the move it has left as a ring; dragged 9″ of its 6″,
// the ghost's path is green to 6″ and red beyond; once the turn ends, its paths go.
func TestPageMovePaths(t *testing.T) {
	exe, base := chromiumAndServer(t)
	id, tokens, _ := sabresBegun(t, base)
	for _, a := range []string{
		`{"type":"move","unit":"sabre-1","path":[[14,8],[16,9]]}`,
		`{"type":"move","unit":"sabre-3","path":[[22,9]]}`,
		`{"type":"take_back"}`,
	} {
		actWant(t, base, id, tokens["UCM"], a, 200)
	}
	p := newBrowserAt(t, exe, base)
	p.openAs(id, "UCM="+tokens["UCM"])
	p.Wait("the turn's path", `document.querySelector('#turn-paths polyline[data-unit="sabre-1"]')`)
	if n := eval[int](p, `document.querySelectorAll('#turn-paths polyline').length`); n != 1 {
		t.Errorf("%d paths drawn; sabre-3's move was taken back", n)
	}
	// Its points, back on the table: from 14,6 through 14,8 to 16,9.
	pts := eval[[][]float64](p, `(() => { const b = document.getElementById('board'), k = Number(b.dataset.scale), [x0, y1] = b.dataset.origin.split(',').map(Number);
		return document.querySelector('#turn-paths polyline').getAttribute('points').split(' ').map(s => s.split(',').map(Number)).map(([x, y]) => [x / k + x0, y1 - y / k]); })()`)
	want := [][]float64{{14, 6}, {14, 8}, {16, 9}}
	if len(pts) != len(want) {
		t.Fatalf("the path has points %v, want %v", pts, want)
	}
	for i := range want {
		if math.Abs(pts[i][0]-want[i][0]) > 0.01 || math.Abs(pts[i][1]-want[i][1]) > 0.01 {
			t.Errorf("the path has points %v, want %v", pts, want)
			break
		}
	}

	// sabre-2 selected: the ring of the 6″ it has left.
	if eval[bool](p, `document.querySelector('#move-deploy')?.checked`) {
		p.Click("#move-deploy")
	}
	p.Mouse(browsertest.UnitPoint("sabre-2"), true, false)
	p.Wait("the reach ring", `document.querySelector('#reach-ring')`)
	if got := eval[float64](p, `Number(document.querySelector('#reach-ring').dataset.left)`); got != 6 {
		t.Errorf("the ring is of %v″ left, want 6″", got)
	}
	// Dragged 9″ up: green to 6″, red beyond.
	p.MouseDrag(browsertest.UnitPoint("sabre-2"), browsertest.TablePoint(18, 15))
	p.Wait("the ghost's path beyond its move", `document.querySelector('#ghost-beyond') && document.querySelector('#ghost-within')`)
	cut := eval[[]float64](p, `(() => { const b = document.getElementById('board'), k = Number(b.dataset.scale), [x0, y1] = b.dataset.origin.split(',').map(Number);
		const [x, y] = document.querySelector('#ghost-within').getAttribute('points').split(' ').at(-1).split(',').map(Number); return [x / k + x0, y1 - y / k]; })()`)
	if math.Abs(cut[0]-18) > 0.05 || math.Abs(cut[1]-12) > 0.05 {
		t.Errorf("the path turns red at %v, want 18, 12 (6″ from 18, 6)", cut)
	}
	p.Screenshot("move-paths")
	p.Click("#move-cancel")

	// The turn ends: its paths go.
	p.Click("#end-phase")
	p.Wait("the Scourge's turn", `document.querySelector('#turn')?.textContent.startsWith("Scourge")`)
	p.Wait("no path", `!document.querySelector('#turn-paths polyline')`)
	if got := p.Text("#log"); !strings.Contains(got, "took back") {
		t.Errorf("the log lacks the take-back: %q", got)
	}
}
