package geom

import "math"

// A Path is a route across the table: straight legs from each point to the next. Its
// first point is where the route starts. A path of one point goes nowhere.
type Path []Vec

// Length is the distance along the path: the sum of its legs.
func (p Path) Length() float64 {
	l := 0.0
	for i := 1; i < len(p); i++ {
		l += p[i-1].Dist(p[i])
	}
	return l
}

// End is where the path ends: its last point, or the zero Vec for an empty path.
func (p Path) End() Vec {
	if len(p) == 0 {
		return Vec{}
	}
	return p[len(p)-1]
}

// Leg is the i-th leg, from point i to point i+1.
func (p Path) Leg(i int) Segment { return Segment{p[i], p[i+1]} }

// SegmentDist is the distance between the nearest points of two segments: 0 when they
// meet.
func SegmentDist(s, o Segment) float64 {
	if _, ok := s.Intersect(o); ok {
		return 0
	}
	return math.Sqrt(min(s.distSq(o.A), s.distSq(o.B), o.distSq(s.A), o.distSq(s.B)))
}

// PolygonDist is the distance from segment s to polygon p: 0 when s touches p or lies
// inside it, else the distance to p's nearest edge.
func PolygonDist(s Segment, p Polygon) float64 {
	if len(p) == 0 {
		return math.Inf(1)
	}
	if p.Contains(s.A) {
		return 0
	}
	d := math.Inf(1)
	for i := range p {
		d = min(d, SegmentDist(s, p.edge(i)))
		if d == 0 {
			return 0
		}
	}
	return d
}

// A sweep of a round base along a leg covers every point within the base's radius of
// the leg: a capsule. Two bases overlap when their centres are nearer than the sum of
// their radii; bases that touch do not overlap. Overlap is tested with Tolerance, so
// that a base moved into contact, its centre computed with rounding, still touches.

// SweepHitsCircle reports whether a base of radius r swept along leg overlaps the circle
// c (another base standing still).
func SweepHitsCircle(leg Segment, r float64, c Circle) bool {
	return leg.DistTo(c.C) < r+c.R-Tolerance
}

// SweepHitsPolygon reports whether a base of radius r swept along leg overlaps polygon p
// (a solid footprint): its interior, or within r of its edges.
func SweepHitsPolygon(leg Segment, r float64, p Polygon) bool {
	return PolygonDist(leg, p) < r-Tolerance || p.Contains(leg.A) || p.Contains(leg.B)
}

// Inside reports whether a base of radius r centred on c lies wholly within the
// rectangle [lo, hi] (a table, a deployment zone given as bounds).
func Inside(c Vec, r float64, lo, hi Vec) bool {
	return c.X-r >= lo.X-Tolerance && c.Y-r >= lo.Y-Tolerance && c.X+r <= hi.X+Tolerance && c.Y+r <= hi.Y+Tolerance
}

// CircleInPolygon reports whether a base of radius r centred on c lies wholly within
// polygon p: its centre inside, and no edge nearer than r.
func CircleInPolygon(c Vec, r float64, p Polygon) bool {
	if !p.Contains(c) {
		return false
	}
	for i := range p {
		if p.edge(i).DistTo(c) < r-Tolerance {
			return false
		}
	}
	return true
}
