package geom

import (
	"fmt"
	"math"
	"slices"
)

// A Polygon is a simple polygon, such as a terrain footprint: its vertices in
// order, either winding, with the last vertex joined back to the first (do
// not repeat the first vertex at the end). A valid polygon has at least three
// vertices, non-zero area and edges that do not cross; see [Polygon.Validate].
//
// The polygon's interior is open: points on the boundary (within
// [Tolerance] of an edge) are not inside. That is the rule line of sight
// needs, where a ray sliding along a wall's face or clipping its corner is
// not looking through it.
type Polygon []Vec

// edge returns the i-th edge, from vertex i to the next one (wrapping).
func (p Polygon) edge(i int) Segment {
	j := i + 1
	if j == len(p) {
		j = 0
	}
	return Segment{p[i], p[j]}
}

// MaxVertices is the most vertices a valid polygon may have. No terrain footprint needs
// more, and the cost of everything done with a polygon (validating it, testing a line of
// sight against it) grows with its vertices: the cap keeps a hostile scenario's terrain
// as cheap as an honest one's.
const MaxVertices = 1024

// Validate reports why p is not a usable simple polygon, or nil if it is. It
// checks, in order: at least 3 and at most MaxVertices vertices, finite
// coordinates, no vertex repeated by the next one (within [Tolerance]),
// neighbouring edges that do not fold back on each other, no edge crossing or
// touching another but its neighbours at their shared vertex, and an area that
// is not negligible (the polygon must be thicker than Tolerance on average).
//
// The crossing check is a sweep of a vertical line across the polygon
// (Shamos and Hoey's): it keeps the edges the line cuts in the order it cuts
// them, and tests an edge only against those next to it in that order, when it
// joins and when an edge between them leaves. Two edges that meet first are
// next to each other just before the sweep reaches that point, so every crossing
// or touching is found with O(n log n) comparisons (the order is a slice, so
// joining and leaving also move up to n references; for MaxVertices that is
// about a million words in all). Edges that only come within Tolerance of each
// other without touching are found when they are next in the order, which any
// two such edges are unless a third passes between them.
func (p Polygon) Validate() error {
	n := len(p)
	if n < 3 {
		return fmt.Errorf("geom: polygon has %d vertices; need at least 3", n)
	}
	if n > MaxVertices {
		return fmt.Errorf("geom: polygon has %d vertices; at most %d", n, MaxVertices)
	}
	if err := p.vertexError(); err != nil {
		return err
	}
	// Neighbours share a vertex, so they always touch; they are only wrong if the
	// second doubles back along the first.
	for i := range n {
		a, b := p.edge(i), p.edge((i+1)%n)
		if d1, d2 := a.B.Sub(a.A), b.B.Sub(b.A); d1.Cross(d2) == 0 && d1.Dot(d2) < 0 {
			i, j := i, (i+1)%n
			if j < i {
				i, j = j, i
			}
			return fmt.Errorf("geom: polygon edges %d and %d fold back on each other", i, j)
		}
	}
	if i, j, ok := p.crossing(); ok {
		return fmt.Errorf("geom: polygon edges %d and %d cross", i, j)
	}
	return p.areaError()
}

// vertexError says why p's vertices cannot make a polygon, whatever its edges do: one
// that is not finite, or one repeated by the next (Validate's and its tests' first checks).
func (p Polygon) vertexError() error {
	for i, v := range p {
		if math.IsNaN(v.X) || math.IsNaN(v.Y) || math.IsInf(v.X, 0) || math.IsInf(v.Y, 0) {
			return fmt.Errorf("geom: polygon vertex %d %v is not finite", i, v)
		}
	}
	for i := range p {
		if e := p.edge(i); e.A.Eq(e.B, Tolerance) {
			return fmt.Errorf("geom: polygon vertex %d repeats vertex %d", (i+1)%len(p), i)
		}
	}
	return nil
}

// areaError says that p's area is negligible, where p is not thicker than Tolerance on
// average (Validate's last check, and its tests').
func (p Polygon) areaError() error {
	perim := 0.0
	for i := range p {
		perim += p.edge(i).Len()
	}
	if p.Area() <= Tolerance*perim {
		return fmt.Errorf("geom: polygon has no area")
	}
	return nil
}

// neighbours reports whether edges i and j of a polygon of n edges share a vertex.
func neighbours(i, j, n int) bool {
	d := i - j
	return d == 1 || d == -1 || d == n-1 || d == 1-n
}

// crossing finds two edges that are not neighbours and meet (see Segment.Intersect),
// by the sweep Validate describes; i < j.
func (p Polygon) crossing() (i, j int, found bool) {
	n := len(p)
	type event struct {
		x, y  float64
		leave bool // the edge's right end; a left end joins
		edge  int
	}
	left := func(e Segment) (Vec, Vec) {
		if e.A.X < e.B.X || e.A.X == e.B.X && e.A.Y <= e.B.Y {
			return e.A, e.B
		}
		return e.B, e.A
	}
	events := make([]event, 0, 2*n)
	for k := range n {
		a, b := left(p.edge(k))
		events = append(events, event{a.X, a.Y, false, k}, event{b.X, b.Y, true, k})
	}
	// At one x, edges join before any leaves, so that edges meeting at an end are
	// both in the order there and can be compared.
	slices.SortFunc(events, func(a, b event) int {
		switch {
		case a.x != b.x:
			return cmpFloat(a.x, b.x)
		case a.leave != b.leave:
			if a.leave {
				return 1
			}
			return -1
		}
		return cmpFloat(a.y, b.y)
	})
	// yAt is where the sweep line at x cuts edge k: a vertical edge counts at its foot.
	yAt := func(k int, x float64) float64 {
		a, b := left(p.edge(k))
		if b.X == a.X {
			return a.Y
		}
		t := min(max((x-a.X)/(b.X-a.X), 0), 1)
		return a.Y + t*(b.Y-a.Y)
	}
	slope := func(k int) float64 {
		a, b := left(p.edge(k))
		if b.X == a.X {
			return math.Inf(1)
		}
		return (b.Y - a.Y) / (b.X - a.X)
	}
	meet := func(a, b int) bool {
		if neighbours(a, b, n) {
			return false
		}
		_, ok := p.edge(a).Intersect(p.edge(b))
		return ok
	}
	order := make([]int, 0, n) // the edges the sweep line cuts, from the bottom up
	pair := func(a, b int) (int, int, bool) { return min(a, b), max(a, b), true }
	for _, ev := range events {
		k := ev.edge
		if !ev.leave {
			y, s := yAt(k, ev.x), slope(k)
			at, _ := slices.BinarySearchFunc(order, k, func(o, _ int) int {
				if c := cmpFloat(yAt(o, ev.x), y); c != 0 {
					return c
				}
				if c := cmpFloat(slope(o), s); c != 0 {
					return c
				}
				return o - k
			})
			order = slices.Insert(order, at, k)
			if at > 0 && meet(order[at-1], k) {
				return pair(order[at-1], k)
			}
			if at+1 < len(order) && meet(order[at+1], k) {
				return pair(order[at+1], k)
			}
			continue
		}
		at := slices.Index(order, k)
		if at > 0 && at+1 < len(order) && meet(order[at-1], order[at+1]) {
			return pair(order[at-1], order[at+1])
		}
		order = slices.Delete(order, at, at+1)
	}
	return 0, 0, false
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Contains reports whether q lies strictly inside p, by the even-odd rule.
// Points on the boundary (within [Tolerance] of an edge, vertices included)
// are not inside. A polygon with fewer than 3 vertices contains nothing.
func (p Polygon) Contains(q Vec) bool {
	if len(p) < 3 {
		return false
	}
	inside := false
	a := p[len(p)-1]
	for _, b := range p {
		if (Segment{a, b}).distSq(q) <= Tolerance*Tolerance {
			return false
		}
		// Cast a ray from q towards +X and count the edges it crosses. Each
		// edge owns its lower end but not its upper one, so a ray through a
		// vertex is counted once where it crosses and not at all where it
		// only touches.
		if (a.Y > q.Y) != (b.Y > q.Y) {
			x := a.X + (q.Y-a.Y)*(b.X-a.X)/(b.Y-a.Y)
			if q.X < x {
				inside = !inside
			}
		}
		a = b
	}
	return inside
}

// signedArea2 returns twice the signed area of p: positive when the vertices
// run anticlockwise. Coordinates are taken relative to the first vertex so
// that polygons far from the origin keep their precision.
func (p Polygon) signedArea2() float64 {
	if len(p) < 3 {
		return 0
	}
	o := p[0]
	sum := 0.0
	for i := 1; i+1 < len(p); i++ {
		sum += p[i].Sub(o).Cross(p[i+1].Sub(o))
	}
	return sum
}

// Area returns the area enclosed by p, whatever its winding.
func (p Polygon) Area() float64 { return math.Abs(p.signedArea2()) / 2 }

// Centroid returns the centre of mass of the region p encloses. A polygon
// with no area has no such centre; it gets the mean of its vertices instead,
// and an empty polygon gets the zero Vec.
func (p Polygon) Centroid() Vec {
	if len(p) == 0 {
		return Vec{}
	}
	o := p[0]
	var a2 float64
	var c Vec
	// Sum the centroids of the fan triangles (o, p[i], p[i+1]), weighted by
	// their signed areas.
	for i := 1; i+1 < len(p); i++ {
		u, v := p[i].Sub(o), p[i+1].Sub(o)
		w := u.Cross(v)
		a2 += w
		c = c.Add(u.Add(v).Scale(w))
	}
	if a2 == 0 {
		var sum Vec
		for _, v := range p {
			sum = sum.Add(v.Sub(o))
		}
		return o.Add(sum.Scale(1 / float64(len(p))))
	}
	return o.Add(c.Scale(1 / (3 * a2)))
}

// Bounds returns the smallest axis-aligned box holding p, as its lower-left
// and upper-right corners. An empty polygon gives two zero Vecs.
func (p Polygon) Bounds() (min, max Vec) {
	if len(p) == 0 {
		return Vec{}, Vec{}
	}
	min, max = p[0], p[0]
	for _, v := range p[1:] {
		// Plain comparisons: the builtins min and max are shadowed by the
		// result names, and math.Min's NaN handling is slow and not needed.
		if v.X < min.X {
			min.X = v.X
		} else if v.X > max.X {
			max.X = v.X
		}
		if v.Y < min.Y {
			min.Y = v.Y
		} else if v.Y > max.Y {
			max.Y = v.Y
		}
	}
	return min, max
}

// An Interval is the closed range [T0, T1] of a segment's parameter, with
// 0 <= T0 <= T1 <= 1 (see [Segment.At]).
type Interval struct {
	T0, T1 float64
}

// SegmentInside returns, in increasing order, the parts of s inside p as
// parameter intervals on s. Between T0 and T1 the segment is strictly inside;
// at T0 and T1 it is on the boundary, or at an end of s.
//
// Touching is not entering: a segment that only grazes a vertex or runs along
// an edge gets no interval for that stretch. A segment that meets the
// boundary from inside without leaving (passing through a reflex vertex of a
// concave polygon) gets one interval across the touch, not two. A segment
// that is a single point inside p gets [0, 1].
func (p Polygon) SegmentInside(s Segment) []Interval {
	return p.AppendSegmentInside(nil, s)
}

// maxStackCrossings is how many boundary crossings AppendSegmentInside keeps
// on the stack; more (a long segment across a very jagged polygon) costs one
// allocation.
const maxStackCrossings = 32

// AppendSegmentInside is [Polygon.SegmentInside] appending to dst and
// returning the extended slice. With a reused dst it does not allocate
// (unless s meets the boundary of a very jagged polygon more than about 30
// times), so it suits per-ray loops such as line of sight.
func (p Polygon) AppendSegmentInside(dst []Interval, s Segment) []Interval {
	if len(p) < 3 {
		return dst
	}
	var buf [maxStackCrossings]float64
	ts := p.appendCrossings(buf[:0], s)
	slices.Sort(ts)

	// Between neighbouring breakpoints s never meets the boundary, so each
	// piece is wholly inside, wholly outside or wholly along an edge, and its
	// midpoint tells which.
	l := s.Len()
	start := len(dst)
	for i := 0; i+1 < len(ts); i++ {
		t0, t1 := ts[i], ts[i+1]
		if t1 == t0 && l != 0 {
			continue
		}
		if !p.Contains(s.At((t0 + t1) / 2)) {
			continue
		}
		// A piece that starts where the previous inside piece ended (to
		// within Tolerance, e.g. across a reflex vertex) continues it.
		if n := len(dst); n > start && (t0-dst[n-1].T1)*l <= Tolerance {
			dst[n-1].T1 = t1
			continue
		}
		dst = append(dst, Interval{t0, t1})
	}
	return dst
}

// appendCrossings appends to ts every parameter on s where s might change
// between inside, outside and on the boundary of p: both ends of s, each
// crossing with an edge, and the projection of each vertex that lies on s.
// Extra breakpoints are harmless (they only split a piece in two), so the
// tests are generous; a missing one would not be.
func (p Polygon) appendCrossings(ts []float64, s Segment) []float64 {
	ts = append(ts, 0, 1)
	d := s.B.Sub(s.A)
	l := d.Len()
	if l == 0 {
		return ts
	}
	tt := Tolerance / l
	a := p[len(p)-1]
	for _, b := range p {
		// Vertices on s cover touches, vertex crossings and both ends of any
		// stretch along an edge.
		if s.distSq(b) <= Tolerance*Tolerance {
			ts = append(ts, clamp01(s.project(b)))
		}
		q := b.Sub(a)
		if denom := d.Cross(q); denom != 0 {
			w := a.Sub(s.A)
			t := w.Cross(q) / denom
			u := w.Cross(d) / denom
			if t > -tt && t < 1+tt && u >= 0 && u <= 1 {
				ts = append(ts, clamp01(t))
			}
		}
		a = b
	}
	return ts
}
