package geom

import (
	"container/heap"
	"math"
	"math/rand/v2"
	"testing"
)

// TestReachAroundABlock: round a square block the shortest way turns round its grown
// corners; straight on where nothing is in the way; nowhere inside it or past the limit.
func TestReachAroundABlock(t *testing.T) {
	block := Polygon{V(4, -2), V(6, -2), V(6, 2), V(4, 2)}
	r := 0.5
	obs := Inflate(block, r)
	reach := NewReach(V(0, 0), obs, Vec{}, Vec{}, false, 20)
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
		reach := NewReach(start, obs, lo, hi, true, 100)
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
