package geom

import "math"

// A Segment is the straight line from A to B, including both ends. Points on
// it are At(t) for t in [0, 1]: A at t = 0, B at t = 1. A segment with A == B
// is a single point.
type Segment struct {
	A, B Vec
}

// Len returns the length of s.
func (s Segment) Len() float64 { return s.A.Dist(s.B) }

// At returns the point a fraction t along s (see [Vec.Lerp]).
func (s Segment) At(t float64) Vec { return s.A.Lerp(s.B, t) }

// project returns the parameter t of the point of s's line nearest to p, not
// clamped to [0, 1]. A single-point segment projects everything to 0.
func (s Segment) project(p Vec) float64 {
	d := s.B.Sub(s.A)
	l2 := d.Dot(d)
	if l2 == 0 {
		return 0
	}
	return p.Sub(s.A).Dot(d) / l2
}

// DistTo returns the distance from p to the nearest point of s.
func (s Segment) DistTo(p Vec) float64 { return math.Sqrt(s.distSq(p)) }

// distSq is DistTo squared, for comparisons that need no square root.
func (s Segment) distSq(p Vec) float64 {
	t := clamp01(s.project(p))
	d := p.Sub(s.At(t))
	return d.Dot(d)
}

// Intersect reports whether s and o meet, and if so the parameter t on s of
// the meeting point. Crossing and touching (an end of one lying on the other)
// both count; ends within [Tolerance] of each other meet. When the segments
// are collinear and overlap, t is the smallest parameter of the overlap, the
// first point of o met when walking s from A to B.
func (s Segment) Intersect(o Segment) (t float64, ok bool) {
	r := s.B.Sub(s.A)
	q := o.B.Sub(o.A)
	w := o.A.Sub(s.A)
	rl, ql := r.Len(), q.Len()
	switch {
	case rl == 0:
		// s is a point: it meets o if it lies on o.
		return 0, o.distSq(s.A) <= Tolerance*Tolerance
	case ql == 0:
		// o is a point: it meets s if it lies on s.
		return clamp01(s.project(o.A)), s.distSq(o.A) <= Tolerance*Tolerance
	}
	if denom := r.Cross(q); denom != 0 {
		t = w.Cross(q) / denom
		u := w.Cross(r) / denom
		// Convert the distance tolerance into each segment's parameter.
		tt, ut := Tolerance/rl, Tolerance/ql
		if t >= -tt && t <= 1+tt && u >= -ut && u <= 1+ut {
			return clamp01(t), true
		}
		// Near-parallel segments can miss here yet lie within Tolerance of
		// each other; the collinear test below catches them.
	}
	// Parallel (or nearly): they meet only if o lies along s's line.
	if math.Abs(r.Cross(w))/rl > Tolerance || math.Abs(r.Cross(o.B.Sub(s.A)))/rl > Tolerance {
		return 0, false
	}
	t0, t1 := s.project(o.A), s.project(o.B)
	lo, hi := max(min(t0, t1), 0), min(max(t0, t1), 1)
	if lo > hi+Tolerance/rl {
		return 0, false
	}
	return clamp01(lo), true
}

// clamp01 returns t limited to [0, 1].
func clamp01(t float64) float64 { return min(max(t, 0), 1) }
