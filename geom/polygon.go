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

// Validate reports why p is not a usable simple polygon, or nil if it is. It
// checks, in order: at least 3 vertices, finite coordinates, no vertex
// repeated by the next one (within [Tolerance]), no edge crossing or
// touching another except its neighbours at their shared vertex, and an area
// that is not negligible (the polygon must be thicker than Tolerance on
// average). The crossing check costs O(n²); call Validate when terrain is
// loaded, not per ray.
func (p Polygon) Validate() error {
	n := len(p)
	if n < 3 {
		return fmt.Errorf("geom: polygon has %d vertices; need at least 3", n)
	}
	for i, v := range p {
		if math.IsNaN(v.X) || math.IsNaN(v.Y) || math.IsInf(v.X, 0) || math.IsInf(v.Y, 0) {
			return fmt.Errorf("geom: polygon vertex %d %v is not finite", i, v)
		}
	}
	for i := range n {
		if e := p.edge(i); e.A.Eq(e.B, Tolerance) {
			return fmt.Errorf("geom: polygon vertex %d repeats vertex %d", (i+1)%n, i)
		}
	}
	for i := range n {
		ei := p.edge(i)
		for j := i + 1; j < n; j++ {
			ej := p.edge(j)
			if j == i+1 || (i == 0 && j == n-1) {
				// Neighbours share a vertex, so they always touch; they are
				// only wrong if the second doubles back along the first.
				a, b := ei, ej
				if i == 0 && j == n-1 {
					a, b = ej, ei
				}
				d1, d2 := a.B.Sub(a.A), b.B.Sub(b.A)
				if d1.Cross(d2) == 0 && d1.Dot(d2) < 0 {
					return fmt.Errorf("geom: polygon edges %d and %d fold back on each other", i, j)
				}
				continue
			}
			if _, ok := ei.Intersect(ej); ok {
				return fmt.Errorf("geom: polygon edges %d and %d cross", i, j)
			}
		}
	}
	perim := 0.0
	for i := range n {
		perim += p.edge(i).Len()
	}
	if p.Area() <= Tolerance*perim {
		return fmt.Errorf("geom: polygon has no area")
	}
	return nil
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
