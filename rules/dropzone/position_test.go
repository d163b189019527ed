package dropzone

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/geom"
)

// soloSabre is moves.yaml with sabre-1 a squad of its own, so that its squad's best plan
// is its own.
func soloSabre(tb testing.TB) *Battle {
	tb.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "dropzone", "moves.yaml"))
	if err != nil {
		tb.Fatal(err)
	}
	s := strings.Replace(string(src), "{id: sabre-1, type: Sabre, side: UCM, squad: sabres,", "{id: sabre-1, type: Sabre, side: UCM, squad: solo,", 1)
	s = s[:strings.Index(s, "\nactions:")] + "\n"
	b, _ := mustLoad(tb, s)
	return b
}

// TestPositionMatchesBruteForce: at sample points, each of a position map's two values
// equals what a real move there gives — the advisor's best plan of the unit after a move
// action along the map's way there, and the danger map at the point it ends on.
func TestPositionMatchesBruteForce(t *testing.T) {
	b := soloSabre(t)
	ctx := context.Background()
	for _, obj := range []string{"expected", "destroyed"} {
		o, _ := advise.ParseObjective(obj)
		m, err := b.Position(ctx, advise.PositionQuery{Unit: "sabre-1", Objective: o, Step: 1})
		if err != nil {
			t.Fatal(err)
		}
		if m.Reachable < 50 || len(m.Pareto) == 0 || len(m.Top) == 0 {
			t.Fatalf("%s: %d points reachable, front %d, top %d", obj, m.Reachable, len(m.Pareto), len(m.Top))
		}
		checked := 0
		for i, reach := range m.Reach {
			if math.IsNaN(reach) || i%7 != 0 {
				continue
			}
			checked++
			p := m.Point(i)
			// The real move: along the map's own way there.
			f := b.Fork().(*Battle)
			way, _ := b.positionSetup(advise.PositionQuery{Unit: "sabre-1", Step: 1})
			pts := way.reach.Path(geom.V(p.X, p.Y))
			if math.Abs(pts.Length()-reach) > 1e-9 {
				t.Fatalf("the way to %v is %v long; the map says %v", p, pts.Length(), reach)
			}
			var legs []string
			for _, q := range pts[1:] {
				legs = append(legs, fmt.Sprintf("[%v, %v]", q.X, q.Y))
			}
			mv := decode(t, f, "{type: move, unit: sabre-1, path: ["+strings.Join(legs, ", ")+"]}")
			if _, err := f.Resolve(ctx, mv, dice.ForAction(1, 0)); err != nil {
				t.Fatalf("the map's way to %v is refused: %v", p, err)
			}
			adv, err := advise.Advise(ctx, f, advise.Query{Side: "UCM", Actor: "solo"}, o, 1, advise.Budget{})
			if err != nil {
				t.Fatal(err)
			}
			if want := adv[0].Plans[0].Value; math.Abs(p.Offence-want) > 1e-9 {
				t.Errorf("%s at %v: offence %v; the advisor after the move: %v", obj, p, p.Offence, want)
			}
			dm, err := f.Danger(ctx, advise.DangerQuery{Side: "UCM", As: "Sabre", Step: 0.01,
				Area: [4]float64{p.X - 0.005, p.Y - 0.005, p.X + 0.005, p.Y + 0.005}})
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(p.Danger-dm.Values[0]) > 1e-12 {
				t.Errorf("at %v: danger %v; the danger map after the move: %v", p, p.Danger, dm.Values[0])
			}
		}
		if checked < 10 {
			t.Errorf("only %d points checked", checked)
		}
		// The front is what its name says: no reachable point beats one of it on both.
		for _, fp := range m.Pareto {
			for i, reach := range m.Reach {
				if math.IsNaN(reach) {
					continue
				}
				q := m.Point(i)
				if q.Offence >= fp.Offence && q.Danger <= fp.Danger && (q.Offence > fp.Offence+1e-12 || q.Danger < fp.Danger-1e-12) {
					t.Fatalf("%v on the front is beaten by %v", fp, q)
				}
			}
		}
	}
}

// TestPositionRefuses: a unit that may not move has no map; nor does a battle begun
// before moves.
func TestPositionRefuses(t *testing.T) {
	b := movesBattle(t)
	if _, err := b.Position(context.Background(), advise.PositionQuery{Unit: "hunter-1"}); err == nil || !strings.Contains(err.Error(), "may not move now") {
		t.Errorf("an enemy in the UCM's turn: %v", err)
	}
	if _, err := b.Position(context.Background(), advise.PositionQuery{Unit: "nobody"}); volley.ErrorCode(err) != volley.EINVALID {
		t.Errorf("no such unit: %v", err)
	}
}
