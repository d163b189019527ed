package geom

import (
	"container/heap"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// TestReachAroundABlock: round a square block the shortest way turns round its grown
// corners; straight on where nothing is in the way; nowhere inside it or past the limit.
func TestReachAroundABlock(t *testing.T) {
	block := Polygon{V(4, -2), V(6, -2), V(6, 2), V(4, 2)}
	r := 0.5
	obs := Inflate(block, r)
	reach, err := NewReach(context.Background(), V(0, 0), obs, Vec{}, Vec{}, false, 20)
	if err != nil {
		t.Fatal(err)
	}
	if d := reach.Dist(V(0, 3)); math.Abs(d-3) > 1e-9 {
		t.Errorf("straight ahead: %v", d)
	}
	if d := reach.Dist(V(5, 0)); !math.IsInf(d, 1) {
		t.Errorf("inside the block: %v", d)
	}
	if d := reach.Dist(V(19, 19)); !math.IsInf(d, 1) {
		t.Errorf("past the limit: %v", d)
	}
	// Behind the block: over it, round its two grown top corners. The true way (round
	// arcs of radius r) is tangent from the start to the first arc, round it, along the
	// top, round the second and tangent to the end; the way round the polygons drawn
	// round the arcs is no shorter, and longer by a hair.
	behind := V(10, 0)
	d := reach.Dist(behind)
	oc := math.Hypot(4, 2)
	side := math.Sqrt(oc*oc-r*r) + r*(math.Atan2(2, 4)+math.Asin(r/oc))
	exact := 2*side + 2
	if !(d >= exact-1e-9) || d > exact+0.02 {
		t.Errorf("behind the block: %v; want just above %v", d, exact)
	}
	// Its path is legal: no leg brings the base within r of the block.
	path := reach.Path(behind)
	if len(path) < 3 || math.Abs(path.Length()-d) > 1e-9 {
		t.Fatalf("the path %v is not of the length %v", path, d)
	}
	for i := range len(path) - 1 {
		if SweepHitsPolygon(path.Leg(i), r, block) {
			t.Errorf("leg %d of %v passes too near the block", i, path)
		}
	}
}

// TestReachAgreesWithAGrid: on random tables of blocks and bases, the visibility graph's
// distance to a point is the length of a legal path there (its legs checked against the
// true obstacles, not the grown polygons), and never longer than a fine grid's legal way:
// so it lies between the true shortest distance and any path a grid can find.
func TestReachAgreesWithAGrid(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := 30
	if testing.Short() {
		n = 8
	}
	for scene := range n {
		const size, r = 20.0, 0.5
		var blocks []Polygon
		var bases []Circle
		var obs []Polygon
		for range 4 {
			x, y := 2+rng.Float64()*14, 2+rng.Float64()*14
			w, h := 1+rng.Float64()*4, 1+rng.Float64()*4
			b := Polygon{V(x, y), V(x+w, y), V(x+w, y+h), V(x, y+h)}
			blocks = append(blocks, b)
			obs = append(obs, Inflate(b, r)...)
		}
		for range 3 {
			c := Circle{C: V(2+rng.Float64()*16, 2+rng.Float64()*16), R: 0.6}
			bases = append(bases, c)
			obs = append(obs, InflateCircle(c, r))
		}
		start := V(0.5+r, 0.5+r)
		lo, hi := V(r, r), V(size-r, size-r)
		reach, err := NewReach(context.Background(), start, obs, lo, hi, true, 100)
		if err != nil {
			t.Fatal(err)
		}
		if graph, _, _ := ReachWork(start, obs, 100); reach.tests*int64(len(obs)+corners(obs)) > graph {
			t.Errorf("scene %d: %d tests against %d obstacles is more work than ReachWork's %d", scene, reach.tests, len(obs), graph)
		}
		if !reach.free(start) {
			continue
		}
		legal := func(p Vec) bool {
			path := reach.Path(p)
			for i := range len(path) - 1 {
				for _, b := range blocks {
					if SweepHitsPolygon(path.Leg(i), r, b) {
						return false
					}
				}
				for _, c := range bases {
					if SweepHitsCircle(path.Leg(i), r, c) {
						return false
					}
				}
			}
			return true
		}
		for _, g := range gridDistances(start, obs, lo, hi, 0.1) {
			d := reach.Dist(g.p)
			if math.IsInf(d, 1) {
				t.Fatalf("scene %d: %v, which a grid path reaches, is unreachable", scene, g.p)
			}
			if d > g.d+1e-6 {
				t.Fatalf("scene %d: to %v the graph says %.4f, a grid path is %.4f", scene, g.p, d, g.d)
			}
			if p := reach.Path(g.p); math.Abs(p.Length()-d) > 1e-9 || !legal(g.p) {
				t.Fatalf("scene %d: the path to %v, %v, is not a legal path of length %.4f", scene, g.p, p, d)
			}
		}
	}
}

type gridPoint struct {
	p Vec
	d float64
}

// gridDistances is Dijkstra on a grid of step h with 16 neighbours (knight's moves as
// well), whose steps are checked against the obstacles: the length of a legal path to
// every free grid point.
func gridDistances(start Vec, obs []Polygon, lo, hi Vec, h float64) []gridPoint {
	cols, rows := int((hi.X-lo.X)/h)+1, int((hi.Y-lo.Y)/h)+1
	at := func(c, r int) Vec { return V(lo.X+float64(c)*h, lo.Y+float64(r)*h) }
	dist := make([]float64, cols*rows)
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	reach := &Reach{obs: obs, lo: lo, hi: hi, edged: true}
	for _, o := range obs {
		a, b := o.Bounds()
		reach.boxes = append(reach.boxes, [2]Vec{a, b})
	}
	// Start from the grid point nearest the start, reached straight.
	c0, r0 := int(math.Round((start.X-lo.X)/h)), int(math.Round((start.Y-lo.Y)/h))
	dist[r0*cols+c0] = start.Dist(at(c0, r0))
	q := &nodeQueue{items: []queued{{r0*cols + c0, dist[r0*cols+c0]}}}
	steps := [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1},
		{2, 1}, {2, -1}, {-2, 1}, {-2, -1}, {1, 2}, {1, -2}, {-1, 2}, {-1, -2}}
	done := make([]bool, len(dist))
	for q.Len() > 0 {
		i := heap.Pop(q).(queued).node
		if done[i] {
			continue
		}
		done[i] = true
		c, r := i%cols, i/cols
		for _, s := range steps {
			nc, nr := c+s[0], r+s[1]
			if nc < 0 || nr < 0 || nc >= cols || nr >= rows {
				continue
			}
			j := nr*cols + nc
			a, b := at(c, r), at(nc, nr)
			if d := dist[i] + a.Dist(b); d < dist[j] && reach.free(b) && reach.clear(a, b) {
				dist[j] = d
				heap.Push(q, queued{j, d})
			}
		}
	}
	var out []gridPoint
	for i, d := range dist {
		if !math.IsInf(d, 1) && i%7 == 0 {
			out = append(out, gridPoint{at(i%cols, i/cols), d + 0.5*h}) // the start's snap
		}
	}
	return out
}

func corners(obs []Polygon) int {
	n := 0
	for _, o := range obs {
		n += len(o)
	}
	return n
}

// starField is a table of n star-shaped pieces of k corners (each cut into its convex
// pieces and grown by r), in rows round the start: the cornered table.
func starField(n, k int, r float64) []Polygon {
	var obs []Polygon
	for i := range n {
		cx, cy := 4+float64(i%8)*6, 4+float64(i/8)*6
		star := make(Polygon, k)
		for j := range k {
			a := 2 * math.Pi * float64(j) / float64(k)
			rad := 2.0
			if j%2 == 1 {
				rad = 1.2
			}
			star[j] = V(cx+rad*math.Cos(a), cy+rad*math.Sin(a))
		}
		obs = append(obs, Inflate(star, r)...)
	}
	return obs
}

// TestReachStopsWithItsContext (issue 34, 2): a table of forty pieces of 64 corners
// made one position map's ways run for minutes after its client had left. NewReach now
// stops when its context ends, within a few of its tests; ReachWork prices it before.
func TestReachStopsWithItsContext(t *testing.T) {
	obs := starField(40, 64, 0.5)
	start := V(1, 1)
	graph, point, near := ReachWork(start, obs, 100)
	if near < 2000 || graph < 10*2_000_000_000 {
		t.Errorf("the cornered table: %d corners near, a graph of %d steps; want thousands of corners, more than MaxHeavyWork many times over", near, graph)
	}
	if point <= 0 {
		t.Errorf("a point's work %d", point)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewReach(ctx, start, obs, Vec{}, Vec{}, false, 100); !errors.Is(err, context.Canceled) {
		t.Errorf("an ended context: %v", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	_, err := NewReach(ctx, start, obs, Vec{}, Vec{}, false, 100)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a deadline: %v", err)
	}
	t.Logf("stopped %v after its deadline", time.Since(t0)-50*time.Millisecond)
}

// TestReachWorkCountsLimit: only the corners within the limit are nodes, so a short
// move on a big table is cheap; the price falls with the limit.
func TestReachWorkCountsLimit(t *testing.T) {
	obs := starField(40, 64, 0.5)
	far, _, nearFar := ReachWork(V(1, 1), obs, 100)
	short, _, nearShort := ReachWork(V(1, 1), obs, 4)
	if !(nearShort < nearFar && short < far) {
		t.Errorf("limit 4: %d corners, %d steps; limit 100: %d corners, %d steps", nearShort, short, nearFar, far)
	}
	reach, err := NewReach(context.Background(), V(1, 1), obs, Vec{}, Vec{}, false, 4)
	if err != nil {
		t.Fatal(err)
	}
	if len(reach.nodes) > nearShort+1 || reach.tests*int64(len(obs)+corners(obs)) > short {
		t.Errorf("%d nodes and %d tests, more than ReachWork's %d corners and %d steps", len(reach.nodes), reach.tests, nearShort, short)
	}
}

// TestGrownReachWork: priced from the footprints' pieces and the bases before they are
// grown, the price is never below ReachWork's of the grown obstacles.
func TestGrownReachWork(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for range 30 {
		var pieces []Polygon
		var bases []Circle
		for range 6 {
			x, y := rng.Float64()*40, rng.Float64()*40
			star := make(Polygon, 12)
			for j := range star {
				a := 2 * math.Pi * float64(j) / 12
				rad := 1 + float64(j%2)
				star[j] = V(x+rad*math.Cos(a), y+rad*math.Sin(a))
			}
			pieces = append(pieces, star.ConvexPieces()...)
			bases = append(bases, Circle{C: V(rng.Float64()*40, rng.Float64()*40), R: rng.Float64()})
		}
		r, limit, start := 0.5+rng.Float64(), 2+rng.Float64()*30, V(rng.Float64()*40, rng.Float64()*40)
		obs := InflatePieces(pieces, r)
		for _, b := range bases {
			obs = append(obs, InflateCircle(b, r))
		}
		g, p, n := ReachWork(start, obs, limit)
		G, P, N := GrownReachWork(start, pieces, bases, r, limit)
		if G < g || P < p || N < n {
			t.Fatalf("before growing: %d, %d, %d corners; after: %d, %d, %d", G, P, N, g, p, n)
		}
	}
}
