package republique

import (
	"math"

	"github.com/volley-wargames/volley/geom"
)

// The table's geometry, in centimetres. Bearings are compass degrees (0 north, 90 east),
// as everywhere in volley; y grows north.

// dir is the unit vector of a compass bearing.
func dir(bearing float64) geom.Vec {
	r := bearing * math.Pi / 180
	return geom.V(math.Sin(r), math.Cos(r))
}

// Rect is one rectangular base: its centre, the bearing it faces, its frontage (the
// width of its front edge) and its depth. Invariant: W > 0, D > 0.
type Rect struct {
	C      geom.Vec
	Facing float64
	W, D   float64
}

// fwd and right are the base's own axes.
func (r Rect) fwd() geom.Vec   { return dir(r.Facing) }
func (r Rect) right() geom.Vec { return dir(r.Facing + 90) }

// Corners are front-left, front-right, rear-right, rear-left.
func (r Rect) Corners() [4]geom.Vec {
	f, s := r.fwd().Scale(r.D/2), r.right().Scale(r.W/2)
	return [4]geom.Vec{r.C.Add(f).Sub(s), r.C.Add(f).Add(s), r.C.Sub(f).Add(s), r.C.Sub(f).Sub(s)}
}

// Polygon is the base's outline.
func (r Rect) Polygon() geom.Polygon {
	c := r.Corners()
	return geom.Polygon{c[0], c[1], c[2], c[3]}
}

// Front is the front edge, from the front-left to the front-right corner.
func (r Rect) Front() geom.Segment {
	c := r.Corners()
	return geom.Segment{A: c[0], B: c[1]}
}

// Contains reports whether p lies on or inside the base.
func (r Rect) Contains(p geom.Vec) bool {
	d := p.Sub(r.C)
	return math.Abs(d.Dot(r.fwd())) <= r.D/2+geom.Tolerance && math.Abs(d.Dot(r.right())) <= r.W/2+geom.Tolerance
}

// segDist is the shortest distance between two segments: 0 when they cross.
func segDist(a, b geom.Segment) float64 {
	if _, ok := a.Intersect(b); ok {
		return 0
	}
	return min(a.DistTo(b.A), a.DistTo(b.B), b.DistTo(a.A), b.DistTo(a.B))
}

// edges are a polygon's sides.
func edges(p []geom.Vec) []geom.Segment {
	out := make([]geom.Segment, len(p))
	for i := range p {
		out[i] = geom.Segment{A: p[i], B: p[(i+1)%len(p)]}
	}
	return out
}

// segRectDist is the shortest distance from a segment to a base: 0 when it touches it.
func segRectDist(s geom.Segment, r Rect) float64 {
	if r.Contains(s.A) || r.Contains(s.B) {
		return 0
	}
	d := math.Inf(1)
	for _, e := range edges(r.Polygon()) {
		d = min(d, segDist(s, e))
	}
	return d
}

// rectDist is the shortest distance between two bases, edge to edge: 0 when they touch
// or overlap. "Closest" between rectangles means this everywhere in the package.
func rectDist(a, b Rect) float64 {
	d := math.Inf(1)
	for _, e := range edges(a.Polygon()) {
		d = min(d, segRectDist(e, b))
	}
	return d
}

// pointRectDist is the distance from a point to a base: 0 inside it.
func pointRectDist(p geom.Vec, r Rect) float64 {
	if r.Contains(p) {
		return 0
	}
	d := math.Inf(1)
	for _, e := range edges(r.Polygon()) {
		d = min(d, e.DistTo(p))
	}
	return d
}

// halfPlane is the points p with n·p >= c: one side of a line.
type halfPlane struct {
	n geom.Vec
	c float64
}

func (h halfPlane) in(p geom.Vec) bool { return h.n.Dot(p) >= h.c-geom.Tolerance }

// leftOf is the half-plane on the left of the directed line from a along bearing:
// left as one looks along it.
func leftOf(a geom.Vec, bearing float64) halfPlane {
	n := dir(bearing - 90)
	return halfPlane{n, n.Dot(a)}
}

// clip cuts a convex polygon by half-planes (Sutherland–Hodgman): what remains is the
// part of the polygon inside all of them, possibly empty.
func clip(poly []geom.Vec, hs ...halfPlane) []geom.Vec {
	out := poly
	for _, h := range hs {
		if len(out) == 0 {
			return nil
		}
		in := out
		out = nil
		for i := range in {
			a, b := in[i], in[(i+1)%len(in)]
			da, db := h.n.Dot(a)-h.c, h.n.Dot(b)-h.c
			if da >= -geom.Tolerance {
				out = append(out, a)
			}
			if (da < -geom.Tolerance && db > geom.Tolerance) || (da > geom.Tolerance && db < -geom.Tolerance) {
				out = append(out, a.Lerp(b, da/(da-db)))
			}
		}
	}
	return out
}

// area is a polygon's area, whatever its winding.
func area(p []geom.Vec) float64 {
	if len(p) < 3 {
		return 0
	}
	return geom.Polygon(p).Area()
}

// clipSegment keeps the part of a segment inside every half-plane, as the fraction of
// its length that remains.
func clipSegment(s geom.Segment, hs ...halfPlane) float64 {
	t0, t1 := 0.0, 1.0
	d := s.B.Sub(s.A)
	for _, h := range hs {
		den := h.n.Dot(d)
		num := h.c - h.n.Dot(s.A)
		if math.Abs(den) < 1e-12 {
			if num > geom.Tolerance {
				return 0
			}
			continue
		}
		t := num / den
		if den > 0 {
			t0 = max(t0, t)
		} else {
			t1 = min(t1, t)
		}
	}
	return max(0, t1-t0)
}

// Arc is a 60° arc of fire (or an enfilade arc): the region ahead of a front edge and
// between two rays from its ends, each turned outward by half the arc. It is convex.
type Arc struct {
	Edge    geom.Segment // from the left end to the right end, looking out
	Bearing float64      // straight ahead
}

// planes are the arc's three boundaries.
func (a Arc) planes() []halfPlane {
	half := ArcOfFire / 2
	return []halfPlane{
		leftOf(a.Edge.A, a.Bearing+90),          // ahead of the edge
		leftOf(a.Edge.A, a.Bearing-half).flip(), // right of the left ray
		leftOf(a.Edge.B, a.Bearing+half),        // left of the right ray
	}
}

func (h halfPlane) flip() halfPlane { return halfPlane{h.n.Scale(-1), -h.c} }

// Overlaps reports whether any part of the base lies inside the arc (touching counts).
func (a Arc) Overlaps(r Rect) bool {
	return len(clip(r.Polygon(), a.planes()...)) > 0
}

// Inside is the part of a base inside the arc.
func (a Arc) Inside(r Rect) []geom.Vec { return clip(r.Polygon(), a.planes()...) }

// Fraction is the fraction of a segment's length inside the arc.
func (a Arc) Fraction(s geom.Segment) float64 { return clipSegment(s, a.planes()...) }

// Outline is the arc drawn to a depth: a polygon for the page.
func (a Arc) Outline(depth float64) []geom.Vec {
	half := ArcOfFire / 2
	l := a.Edge.A.Add(dir(a.Bearing - half).Scale(depth / math.Cos(half*math.Pi/180)))
	r := a.Edge.B.Add(dir(a.Bearing + half).Scale(depth / math.Cos(half*math.Pi/180)))
	return []geom.Vec{a.Edge.A, l, r, a.Edge.B}
}

// Zone is a battery's frontage zone swung to a bearing: a strip as wide as the battery,
// from the middle of its front edge along the centre of fire, to a depth.
type Zone struct {
	From    geom.Vec // the middle of the battery's front edge
	Bearing float64  // the centre of fire
	Width   float64
	Depth   float64
	// Facing is the battery's: the zone begins at its front edge's line, so that it
	// never reaches back over the batteries beside it.
	Facing float64
}

func (z Zone) planes() []halfPlane {
	f, s, g := dir(z.Bearing), dir(z.Bearing+90), dir(z.Facing)
	return []halfPlane{
		{f, f.Dot(z.From)},
		{g, g.Dot(z.From)},
		{f.Scale(-1), -f.Dot(z.From) - z.Depth},
		{s, s.Dot(z.From) - z.Width/2},
		{s.Scale(-1), -s.Dot(z.From) - z.Width/2},
	}
}

// Overlaps reports whether any part of the base lies in the zone.
func (z Zone) Overlaps(r Rect) bool { return len(clip(r.Polygon(), z.planes()...)) > 0 }

// Outline is the zone's polygon, for the page.
func (z Zone) Outline() []geom.Vec {
	f, s := dir(z.Bearing).Scale(z.Depth), dir(z.Bearing+90).Scale(z.Width/2)
	return []geom.Vec{z.From.Sub(s), z.From.Sub(s).Add(f), z.From.Add(s).Add(f), z.From.Add(s)}
}

// Line is the centre of fire as a segment, to the zone's depth.
func (z Zone) Line() geom.Segment {
	return geom.Segment{A: z.From, B: z.From.Add(dir(z.Bearing).Scale(z.Depth))}
}

// offset is how far a base lies to the side of a line from p along bearing: 0 when the
// line passes through it, else its nearest corner's distance from the line. Only the
// part ahead of p counts.
func offset(from geom.Vec, bearing float64, r Rect) float64 {
	f, s := dir(bearing), dir(bearing+90)
	ahead := clip(r.Polygon(), halfPlane{f, f.Dot(from)})
	if len(ahead) == 0 {
		return math.Inf(1)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range ahead {
		x := s.Dot(p.Sub(from))
		lo, hi = min(lo, x), max(hi, x)
	}
	if lo <= 0 && hi >= 0 {
		return 0
	}
	return min(math.Abs(lo), math.Abs(hi))
}

// along is how far ahead of p, along bearing, the nearest part of a base lies.
func along(from geom.Vec, bearing float64, r Rect) float64 {
	f := dir(bearing)
	d := math.Inf(1)
	for _, c := range r.Corners() {
		d = min(d, f.Dot(c.Sub(from)))
	}
	return d
}

// round3 rounds a measurement for people and for stable output: a thousandth of a cm.
func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
