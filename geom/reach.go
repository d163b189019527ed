package geom

import (
	"container/heap"
	"context"
	"math"
	"slices"
)

// Reach: how far a round base must travel to stand on each point of the table, going
// round what it may not cross. Its centre may not come nearer than its radius r to solid
// terrain, nor nearer than the sum of radii to another base: each obstacle grown by r.
// Shortest paths among polygons run straight from corner to corner (they bend only at
// the obstacles' corners), so they are the shortest paths of the visibility graph of
// the start and those corners: exact for polygons.
//
// A round corner is not a polygon: InflateCircle and Inflate grow by r as a polygon of
// ArcSides sides drawn round the true arc. A path round that polygon is a legal path (it
// keeps the base further off than it needs), and no more than about 2% of r longer per
// corner it turns round (the polygon's corners stand 1/cos(π/ArcSides) − 1 of r out):
// a point reached this way is reachable, and one missed is missed by less than that.

// ArcSides is how many sides the polygon round a grown corner has: see Reach.
const ArcSides = 16

// arcOut is how far out of the true arc the corners of ArcSides-gon drawn round it
// stand, as a share of the radius.
var arcOut = 1 / math.Cos(math.Pi/ArcSides)

// InflateCircle is the region a base of radius r may not have its centre in, for a
// circle c (another base): c grown by r, as an ArcSides-gon drawn round it, anticlockwise.
func InflateCircle(c Circle, r float64) Polygon {
	R := (c.R + r) * arcOut
	p := make(Polygon, ArcSides)
	for i := range ArcSides {
		a := 2 * math.Pi * (float64(i) + 0.5) / ArcSides
		p[i] = V(c.C.X+R*math.Cos(a), c.C.Y+R*math.Sin(a))
	}
	return p
}

// Inflate is the region a base of radius r may not have its centre in, for a valid
// footprint p: each convex piece of p grown by r (their Minkowski sum with the
// ArcSides-gon round a disc of radius r), convex and anticlockwise. Cutting p costs
// O(n²) for n corners: a caller that keeps p's pieces grows them with InflatePieces.
func Inflate(p Polygon, r float64) []Polygon {
	return InflatePieces(p.ConvexPieces(), r)
}

// InflatePieces is Inflate of a footprint already cut into its convex pieces
// (Polygon.ConvexPieces): each piece grown by r, a piece of n corners into at most
// n + ArcSides.
func InflatePieces(pieces []Polygon, r float64) []Polygon {
	disc := InflateCircle(Circle{R: r}, 0)
	out := make([]Polygon, 0, len(pieces))
	for _, piece := range pieces {
		pts := make([]Vec, 0, len(piece)*len(disc))
		for _, a := range piece {
			for _, d := range disc {
				pts = append(pts, a.Add(d))
			}
		}
		out = append(out, ConvexHull(pts))
	}
	return out
}

// ConvexHull is the convex hull of pts, anticlockwise, without points on its edges
// (Andrew's monotone chain).
func ConvexHull(pts []Vec) Polygon {
	ps := slices.Clone(pts)
	slices.SortFunc(ps, func(a, b Vec) int {
		if c := cmpFloat(a.X, b.X); c != 0 {
			return c
		}
		return cmpFloat(a.Y, b.Y)
	})
	if len(ps) < 3 {
		return Polygon(ps)
	}
	hull := make([]Vec, 0, 2*len(ps))
	for pass := 0; pass < 2; pass++ {
		start := len(hull)
		for _, p := range ps {
			for len(hull) >= start+2 && hull[len(hull)-2].Sub(hull[len(hull)-1]).Cross(p.Sub(hull[len(hull)-1])) >= 0 {
				hull = hull[:len(hull)-1]
			}
			hull = append(hull, p)
		}
		hull = hull[:len(hull)-1]
		slices.Reverse(ps)
	}
	return Polygon(hull)
}

// Reach holds the shortest distances from a start point to every corner of the
// obstacles, within a limit: build it once with NewReach, then ask Dist of any point.
type Reach struct {
	start  Vec
	limit  float64
	obs    []Polygon
	boxes  [][2]Vec
	lo, hi Vec
	edged  bool
	nodes  []Vec
	dist   []float64
	prev   []int // the node before each on its shortest path, -1 for the start
	// order lists the nodes reached within the limit, nearest first.
	order []int
	// tests counts the ways NewReach tested, each against every obstacle: what
	// ReachWork prices.
	tests int64
}

// ReachWork is the work of NewReach and of each point asked of it afterwards (Dist,
// Path), in volley.MaxWork's steps (a corner or an edge tested once), found without doing
// any of it: the graph is the n corners within limit of start (found by a look at each
// corner), each tested for standing in an obstacle and then against every other, each
// test a look at every obstacle's box and, at worst, every corner of them; a point is a
// test against every node. near is n, the corners the unit's way may turn round.
func ReachWork(start Vec, obstacles []Polygon, limit float64) (graph, point int64, near int) {
	corners := 0
	for _, o := range obstacles {
		corners += len(o)
		for _, v := range o {
			if v.Dist(start) <= limit {
				near++
			}
		}
	}
	graph, point = reachWork(near, len(obstacles), corners)
	return graph, point, near
}

// GrownReachWork is ReachWork of the obstacles a base of radius r goes round, found from
// them before they are grown (Inflate, InflatePieces and InflateCircle are work too: a
// hull of each piece's corners with each of the disc's): footprints already cut into
// their convex pieces, and other bases. A piece of n corners grows into at most
// n+ArcSides, a base into ArcSides; all of an obstacle's are counted near when the box
// round it, grown, comes within limit of start. An upper bound of ReachWork's, found in
// a look at each corner.
func GrownReachWork(start Vec, pieces []Polygon, bases []Circle, r, limit float64) (graph, point int64, near int) {
	grow := r * arcOut
	obstacles, corners := len(pieces)+len(bases), 0
	within := func(lo, hi Vec, by float64) bool {
		dx := max(lo.X-by-start.X, start.X-hi.X-by, 0)
		dy := max(lo.Y-by-start.Y, start.Y-hi.Y-by, 0)
		return math.Hypot(dx, dy) <= limit
	}
	for _, p := range pieces {
		n := len(p) + ArcSides
		corners += n
		if lo, hi := p.Bounds(); within(lo, hi, grow) {
			near += n
		}
	}
	for _, b := range bases {
		corners += ArcSides
		if within(b.C, b.C, (b.R+r)*arcOut) {
			near += ArcSides
		}
	}
	graph, point = reachWork(near, obstacles, corners)
	return graph, point, near
}

// reachWork is ReachWork's price of near corners within the limit among obstacles of
// corners corners in all.
func reachWork(near, obstacles, corners int) (graph, point int64) {
	n := int64(near) + 1                      // and the start
	test := int64(obstacles) + int64(corners) // one way tested against every obstacle
	graph = satAdd(int64(corners), satMul(satMul(n, n+1), test))
	point = satMul(n+2, test)
	return graph, point
}

// satMul is a·b for non-negative a and b, or the largest int64 when that overflows.
func satMul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

// satAdd is a+b for non-negative a and b, or the largest int64 when that overflows.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// reachCheckEvery is how many tests of a way NewReach makes between two looks at its
// context: a few microseconds of work at the least, a fraction of a second at the most
// (every test a look at every obstacle).
const reachCheckEvery = 256

// NewReach works out the shortest distances from start among obstacles (convex,
// anticlockwise: what Inflate and InflateCircle return), with the centre kept inside the
// rectangle [lo, hi] when edged, for paths no longer than limit. Its work grows with the
// square of the corners within limit (ReachWork prices it): it stops with ctx's error
// when ctx ends, looking at it every reachCheckEvery tests.
func NewReach(ctx context.Context, start Vec, obstacles []Polygon, lo, hi Vec, edged bool, limit float64) (*Reach, error) {
	r := &Reach{start: start, limit: limit, obs: obstacles, lo: lo, hi: hi, edged: edged}
	for _, o := range obstacles {
		a, b := o.Bounds()
		r.boxes = append(r.boxes, [2]Vec{a, b})
	}
	stop := func() error {
		if r.tests++; r.tests%reachCheckEvery == 0 {
			return ctx.Err()
		}
		return nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The graph's nodes: the start, and every corner a path might turn round: within
	// the limit of the start as the crow flies, on the table, inside no obstacle.
	r.nodes = append(r.nodes, start)
	for _, o := range obstacles {
		for _, v := range o {
			if v.Dist(start) <= limit {
				if err := stop(); err != nil {
					return nil, err
				}
				if r.free(v) {
					r.nodes = append(r.nodes, v)
				}
			}
		}
	}
	r.dist = make([]float64, len(r.nodes))
	r.prev = make([]int, len(r.nodes))
	for i := range r.dist {
		r.dist[i], r.prev[i] = math.Inf(1), -1
	}
	r.dist[0] = 0
	q := &nodeQueue{items: []queued{{0, 0}}}
	done := make([]bool, len(r.nodes))
	for q.Len() > 0 {
		u := heap.Pop(q).(queued).node
		if done[u] {
			continue
		}
		done[u] = true
		r.order = append(r.order, u)
		for v := range r.nodes {
			if done[v] {
				continue
			}
			d := r.dist[u] + r.nodes[u].Dist(r.nodes[v])
			if d < r.dist[v] && d <= limit {
				if err := stop(); err != nil {
					return nil, err
				}
				if r.clear(r.nodes[u], r.nodes[v]) {
					r.dist[v], r.prev[v] = d, u
					heap.Push(q, queued{v, d})
				}
			}
		}
	}
	return r, nil
}

// Dist is the length of the shortest path from the start to p that keeps out of every
// obstacle (and on the table), or +Inf when p is in an obstacle or further than the
// limit.
func (r *Reach) Dist(p Vec) float64 {
	d, _ := r.via(p)
	return d
}

// Path is that shortest path, from the start to p through the corners it turns round;
// nil when there is none within the limit.
func (r *Reach) Path(p Vec) Path {
	d, u := r.via(p)
	if math.IsInf(d, 1) {
		return nil
	}
	path := Path{p}
	for ; u >= 0; u = r.prev[u] {
		path = append(path, r.nodes[u])
	}
	slices.Reverse(path)
	return path
}

// via is the shortest distance to p and the last node its path turns round before it
// (0, the start, for a straight line).
func (r *Reach) via(p Vec) (float64, int) {
	if !r.free(p) {
		return math.Inf(1), -1
	}
	if d := r.start.Dist(p); d > r.limit {
		return math.Inf(1), -1
	} else if r.clear(r.start, p) {
		return d, 0 // a straight line is the shortest of all
	}
	best, by := math.Inf(1), -1
	for _, u := range r.order {
		if r.dist[u] >= best {
			break // nearest first: no later corner can do better
		}
		if d := r.dist[u] + r.nodes[u].Dist(p); d < best && d <= r.limit && r.clear(r.nodes[u], p) {
			best, by = d, u
		}
	}
	return best, by
}

// free reports whether a centre may stand at p: on the table, in no obstacle.
func (r *Reach) free(p Vec) bool {
	if r.edged && (p.X < r.lo.X-Tolerance || p.Y < r.lo.Y-Tolerance || p.X > r.hi.X+Tolerance || p.Y > r.hi.Y+Tolerance) {
		return false
	}
	for i, o := range r.obs {
		if b := r.boxes[i]; p.X > b[0].X && p.X < b[1].X && p.Y > b[0].Y && p.Y < b[1].Y && insideConvex(o, p) {
			return false
		}
	}
	return true
}

// clear reports whether the straight way from a to b enters no obstacle's interior
// (running along an edge or touching a corner is allowed: that is how shortest paths go
// round). The table is convex, so a way between two points on it stays on it.
func (r *Reach) clear(a, b Vec) bool {
	lo, hi := V(min(a.X, b.X), min(a.Y, b.Y)), V(max(a.X, b.X), max(a.Y, b.Y))
	for i, o := range r.obs {
		bx := r.boxes[i]
		if bx[1].X <= lo.X || bx[0].X >= hi.X || bx[1].Y <= lo.Y || bx[0].Y >= hi.Y {
			continue
		}
		if crossesConvex(o, a, b) {
			return false
		}
	}
	return true
}

// insideConvex reports whether p lies strictly inside the anticlockwise convex polygon
// o, by more than Tolerance.
func insideConvex(o Polygon, p Vec) bool {
	for i := range o {
		a, b := o[i], o[(i+1)%len(o)]
		e := b.Sub(a)
		if e.Cross(p.Sub(a)) <= Tolerance*e.Len() {
			return false
		}
	}
	return true
}

// crossesConvex reports whether the segment from a to b passes through the interior of
// the anticlockwise convex polygon o (Cyrus and Beck's clipping: the part of the
// segment inside every edge's half-plane, by more than Tolerance, is not empty).
func crossesConvex(o Polygon, a, b Vec) bool {
	d := b.Sub(a)
	t0, t1 := 0.0, 1.0
	for i := range o {
		p, q := o[i], o[(i+1)%len(o)]
		e := q.Sub(p)
		l := e.Len()
		// Inside the edge's half-plane: e × (x − p) > Tolerance·|e|.
		num := e.Cross(a.Sub(p)) - Tolerance*l
		den := e.Cross(d)
		switch {
		case den == 0:
			if num <= 0 {
				return false // parallel, and outside or on the edge
			}
		case den > 0: // entering as t grows
			t0 = max(t0, -num/den)
		default: // leaving as t grows
			t1 = min(t1, -num/den)
		}
		if t0 >= t1 {
			return false
		}
	}
	return t1-t0 > 1e-12
}

// queued is a node in the queue with its distance when it was queued: a node found
// nearer later is queued again, and the stale entry skipped when it comes out.
type queued struct {
	node int
	dist float64
}

// nodeQueue is a min-heap of queued nodes by distance.
type nodeQueue struct {
	items []queued
}

func (q *nodeQueue) Len() int           { return len(q.items) }
func (q *nodeQueue) Less(i, j int) bool { return q.items[i].dist < q.items[j].dist }
func (q *nodeQueue) Swap(i, j int)      { q.items[i], q.items[j] = q.items[j], q.items[i] }
func (q *nodeQueue) Push(x any)         { q.items = append(q.items, x.(queued)) }
func (q *nodeQueue) Pop() any {
	n := len(q.items) - 1
	x := q.items[n]
	q.items = q.items[:n]
	return x
}
