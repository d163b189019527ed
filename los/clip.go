package los

import "github.com/volley-wargames/volley/geom"

// This file holds the convex polygon work of exact sight, on the silhouette's plane:
// clipping by a half-plane, intersecting, and the buffers that hold many polygons
// without allocating once grown.

// snap is the distance, in table units, within which a corner counts as on a cutting
// line. The polygons cut here lie on a silhouette's plane, within a model's size of its
// centre, where float64 rounding is around 1e-15: a corner a hair off the line would
// otherwise leave a sliver with a needle's width.
const snap = 1e-12

// halfPlane is the side of a line where N·p >= C, N of length 1 (so N·p - C is the
// signed distance to the line).
type halfPlane struct {
	N geom.Vec
	C float64
}

// leftOf is the half-plane to the left of the line from a through b (its inside, for
// an anticlockwise polygon's edge a→b). An edge of no length has no line: everything is
// on it (the zero halfPlane), so that it neither cuts nor parts anything. Lines are only
// taken from a shadow's edges, which are never shorter than snap (see tidy).
func leftOf(a, b geom.Vec) halfPlane {
	d := b.Sub(a)
	l := d.Len()
	if l == 0 {
		return halfPlane{}
	}
	n := geom.V(-d.Y/l, d.X/l)
	return halfPlane{n, n.Dot(a)}
}

// flip is the other side of the same line.
func (h halfPlane) flip() halfPlane { return halfPlane{h.N.Scale(-1), -h.C} }

// dist is p's signed distance inside h, snapped to 0 near the line.
func (h halfPlane) dist(p geom.Vec) float64 {
	g := h.N.Dot(p) - h.C
	if g < snap && g > -snap {
		return 0
	}
	return g
}

// clip appends to dst the part of the convex polygon src inside h, and returns it: no
// corners when nothing is inside. Corners on the line are kept; a crossing is placed
// by the ratio of the two corners' distances.
func clip(dst, src []geom.Vec, h halfPlane) []geom.Vec {
	n := len(src)
	if n == 0 {
		return dst
	}
	p := src[n-1]
	gp := h.dist(p)
	for _, q := range src {
		gq := h.dist(q)
		if gp > 0 && gq < 0 || gp < 0 && gq > 0 {
			dst = append(dst, p.Lerp(q, gp/(gp-gq)))
		}
		if gq >= 0 {
			dst = append(dst, q)
		}
		p, gp = q, gq
	}
	return dst
}

// side says where the convex polygon p lies against h: +1 wholly inside (corners on the
// line allowed), -1 wholly outside, 0 across it.
func side(p []geom.Vec, h halfPlane) int {
	in, out := false, false
	for _, q := range p {
		switch g := h.dist(q); {
		case g > 0:
			in = true
		case g < 0:
			out = true
		}
	}
	switch {
	case in && out:
		return 0
	case out:
		return -1
	}
	return 1
}

// outsideShadow reports whether the polygon p lies wholly outside an edge of the shadow
// s, or on its line: then they share no area. Only the shadow's edges are asked: a
// shadow is convex exactly (see tidy), so the line along each of its edges truly has all
// of it on one side, while a polygon left in sight may carry a corner that rounding
// turned the wrong way by a hair, and the line of that hair's edge could point anywhere.
func outsideShadow(p, s []geom.Vec) bool {
	for i := range s {
		h := leftOf(s[i], s[(i+1)%len(s)])
		if h.N == (geom.Vec{}) {
			continue
		}
		out := true
		for _, v := range p {
			if h.dist(v) > 0 {
				out = false
				break
			}
		}
		if out {
			return true
		}
	}
	return false
}

// area is the area of the polygon p, whatever its winding.
func area(p []geom.Vec) float64 {
	if len(p) < 3 {
		return 0
	}
	o := p[0]
	s := 0.0
	for i := 1; i+1 < len(p); i++ {
		s += p[i].Sub(o).Cross(p[i+1].Sub(o))
	}
	if s < 0 {
		s = -s
	}
	return s / 2
}

// box is an axis-aligned box, Lo to Hi.
type box struct{ Lo, Hi geom.Vec }

// boxOf is the smallest box holding p.
func boxOf(p []geom.Vec) box {
	b := box{p[0], p[0]}
	for _, q := range p[1:] {
		b.Lo.X, b.Lo.Y = min(b.Lo.X, q.X), min(b.Lo.Y, q.Y)
		b.Hi.X, b.Hi.Y = max(b.Hi.X, q.X), max(b.Hi.Y, q.Y)
	}
	return b
}

// join is the box holding b and o, or o alone when first.
func (b box) join(o box, first bool) box {
	if first {
		return o
	}
	return box{geom.V(min(b.Lo.X, o.Lo.X), min(b.Lo.Y, o.Lo.Y)), geom.V(max(b.Hi.X, o.Hi.X), max(b.Hi.Y, o.Hi.Y))}
}

// overlaps reports whether two boxes share more than an edge.
func (b box) overlaps(o box) bool {
	return b.Lo.X < o.Hi.X && o.Lo.X < b.Hi.X && b.Lo.Y < o.Hi.Y && o.Lo.Y < b.Hi.Y
}

// polys is a list of convex polygons in one buffer: polygon k is
// pts[start(k):ends[k]]. Its zero value is empty; reset keeps the buffers.
type polys struct {
	pts  []geom.Vec
	ends []int
	// boxes are the polygons' boxes, kept beside them to set aside quickly those a
	// shadow cannot reach, and box holds them all.
	boxes []box
	box   box
}

func (ps *polys) reset() {
	ps.pts, ps.ends, ps.boxes = ps.pts[:0], ps.ends[:0], ps.boxes[:0]
	ps.box = box{}
}

func (ps *polys) len() int { return len(ps.ends) }

func (ps *polys) at(k int) []geom.Vec {
	start := 0
	if k > 0 {
		start = ps.ends[k-1]
	}
	return ps.pts[start:ps.ends[k]:ps.ends[k]]
}

// truncate drops every polygon from the k-th on.
func (ps *polys) truncate(k int) {
	end := 0
	if k > 0 {
		end = ps.ends[k-1]
	}
	ps.pts, ps.ends, ps.boxes = ps.pts[:end], ps.ends[:k], ps.boxes[:k]
	ps.box = box{}
	for i, b := range ps.boxes {
		ps.box = ps.box.join(b, i == 0)
	}
}

// add appends a copy of p.
func (ps *polys) add(p []geom.Vec) {
	ps.pts = append(ps.pts, p...)
	ps.ends = append(ps.ends, len(ps.pts))
	b := boxOf(p)
	ps.box = ps.box.join(b, len(ps.boxes) == 0)
	ps.boxes = append(ps.boxes, b)
}

// area is the polygons' total area.
func (ps *polys) area() float64 {
	s := 0.0
	for k := range ps.len() {
		s += area(ps.at(k))
	}
	return s
}
