package dropzone

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rulestest"
)

// cornerBattle is battle.yaml, deployed, with walker-1 standing at (x, y).
func cornerBattle(tb testing.TB, x, y float64) *Battle {
	tb.Helper()
	src := sys.ReadExample(tb, "battle.yaml")
	was := "{id: walker-1, type: Scout Walker, side: UCM, squad: scouts, at: [36, 6],"
	if !strings.Contains(src, was) {
		tb.Fatal("battle.yaml no longer places walker-1 at (36, 6)")
	}
	src = strings.Replace(src, was, fmt.Sprintf("{id: walker-1, type: Scout Walker, side: UCM, squad: scouts, at: [%v, %v],", x, y), 1)
	b, _ := sys.Load(tb, src)
	rulestest.EndDeployment(tb, b)
	return b
}

// TestPositionCornerPathsMove: every way a position map offers round a corner of solid
// terrain is one the battle accepts. Seed 14's battle 48 found walker-1 at (31.5, 20.5),
// by east-hab's corner (30, 22), offered 15 places whose way there, written to a
// thousandth, cut the corner by less than a thousandth and was refused ("leg 2 would pass
// through east-hab"). Here the map's best places of units standing by the habs' corners
// are each moved to on a fork.
func TestPositionCornerPathsMove(t *testing.T) {
	ctx := context.Background()
	for _, at := range [][2]float64{{31.5, 20.5}, {29.5, 20.5}, {36.5, 21.5}, {29.2, 28.8}, {14.5, 19.5}, {5.5, 26.5}, {26.6, 13.4}} {
		b := cornerBattle(t, at[0], at[1])
		for _, obj := range []string{"expected", "destroyed"} {
			o, _ := advise.ParseObjective(obj)
			m, err := b.Position(ctx, advise.PositionQuery{Unit: "walker-1", Objective: o, Top: 40})
			if err != nil {
				t.Fatal(err)
			}
			moved := 0
			for _, tp := range m.Top {
				if tp.Move == nil {
					continue
				}
				moved++
				src, _ := json.Marshal(tp.Move)
				f := b.Fork().(*Battle)
				if _, err := f.Resolve(ctx, decode(t, f, string(src)), dice.ForAction(1, 0)); err != nil {
					t.Errorf("walker-1 at %v, %s: the map's way to (%v, %v), %s, is refused: %v", at, obj, tp.X, tp.Y, src, err)
				}
			}
			if moved < 10 {
				t.Errorf("walker-1 at %v, %s: only %d of the map's best places are moves", at, obj, moved)
			}
		}
	}
}

// TestPositionWrittenWaysMove: the property behind TestPositionCornerPathsMove, over every
// point a quarter inch apart within walker-1's move from places by the habs' and the
// ruin's corners and beside walker-2 and sabre-3: its way there, written as a map writes it (writtenWay), passes the
// move's check (nothing in the way, no longer than the move left), as the way computed
// does, and is written to thousandths (not at full precision, writtenWay's last resort).
func TestPositionWrittenWaysMove(t *testing.T) {
	ctx := context.Background()
	for _, at := range [][2]float64{{31.5, 20.5}, {36.5, 21.5}, {29.2, 28.8}, {14.5, 19.5}, {26.6, 13.4}, {24, 12}, {41.5, 6}, {27.5, 5.5}} {
		b := cornerBattle(t, at[0], at[1])
		s, err := b.positionSetup(advise.PositionQuery{Unit: "walker-1"})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.ways(ctx, b.table.Edged); err != nil {
			t.Fatal(err)
		}
		ways, bent := 0, 0
		for x := at[0] - s.left; x <= at[0]+s.left; x += 0.25 {
			for y := at[1] - s.left; y <= at[1]+s.left; y += 0.25 {
				p := geom.V(x, y)
				path := s.reach.Path(p)
				if !(s.reach.Dist(p) <= s.left) || len(path) < 2 {
					continue
				}
				ways++
				if len(path) > 2 {
					bent++
				}
				if why := b.pathBlocked(s.u, path); why != "" {
					t.Fatalf("walker-1 at %v: the way to %v as computed, %v: %s", at, p, path, why)
				}
				written := geom.Path{s.u.At}
				pts := b.writtenWay(s.u, path, s.unitLength, s.perInch, s.left)
				for _, q := range pts {
					xy := q.([]float64)
					written = append(written, geom.V(xy[0]/s.perInch, xy[1]/s.perInch))
					if math.Abs(math.Round(xy[0]*1000)-xy[0]*1000) > 1e-6 || math.Abs(math.Round(xy[1]*1000)-xy[1]*1000) > 1e-6 {
						t.Errorf("walker-1 at %v: the way to %v is written at full precision, %v: no thousandths near its corners pass", at, p, pts)
						break
					}
				}
				if why := b.pathBlocked(s.u, written); why != "" {
					t.Errorf("walker-1 at %v: the way to %v as written, %v: %s", at, p, pts, why)
				} else if l := written.Length(); l > s.left+geom.Tolerance {
					t.Errorf("walker-1 at %v: the way to %v as written, %v, is %v long: more than the %v left", at, p, pts, l, s.left)
				}
			}
		}
		if ways < 1000 || bent < 10 {
			t.Errorf("walker-1 at %v: %d ways, %d of them bent: too few to tell", at, ways, bent)
		}
	}
}
