package los

import (
	"math"

	"github.com/volley-wargames/volley/geom"
)

// This file casts a convex prism's shadow from the eye onto a silhouette's plane.
//
// The plane is upright, through the centre of the silhouette's base, square on to the
// eye's horizontal line of sight. On it, u runs to the eye's right from the base's centre
// line and v up from the eye's height: the silhouette is the rectangle
// [-R, R] × [Bottom-eye, Top-eye]. A point of the table at depth d along the line of
// sight (the plane lies at depth D), lateral offset l to the eye's right and height h
// above the eye is seen on the plane at (l·D/d, h·D/d).
//
// Only the part of a prism between the eye and the plane, and within the wedge of table
// from the eye to the base's width, can hide any of the rectangle: the footprint is
// clipped to that triangle first, so that every corner left is seen within u ∈ [-R, R].
// The prism (clipped footprint × [bottom, top]) is convex, so its shadow is the convex
// hull of its corners' images, clipped to the rectangle's heights.
//
// Robustness. Rounding moves each corner by a unit in the last place or so, and that
// alone can leave a polygon that turns the wrong way by a hair at one corner: two
// corners 1e-16 apart, and the line through them pointing anywhere. Cutting along such a
// line would cut through the shadow and count what it hides as in sight. So every shadow
// is made convex exactly as its float64 corners lie, with exact orientation tests
// (geom.Orient, geom.AppendHull), and corners closer than snap are merged (tidy): along
// each edge of a shadow the whole shadow lies on one side, exactly, and no edge is
// shorter than snap. The cutting in clip.go takes its lines only from shadows' edges.

// nearDepth is how close to the eye, along its line of sight, a prism is cut away: the
// eye's own point (a prism's face through the eye only grazes the lines from it).
const nearDepth = geom.Tolerance

// planeDistance is the least horizontal distance from the eye to a silhouette's centre
// for the projection: closer (an eye above the model, within a millionth of an inch),
// the eye is taken to lie in the silhouette's plane, which then faces north, and the
// shadows are cast within that plane (see inPlaneShadow).
const planeDistance = 1e-6

// frame is one eye's view of one silhouette, as the package comment above sets it out.
// Its box (the first group of fields) is all that [frame.mayHide] needs and is set by
// [frame.setBox]; the rest, the line of sight and the wedge, only by [frame.aim], so that
// a look past terrain that is nowhere near the line costs no square root.
type frame struct {
	eye       Point3
	c         geom.Vec // the base's centre
	r         float64  // the silhouette's half width
	vlo, vhi  float64  // its bottom and top, above the eye
	lo, hi    geom.Vec // the table box of the eye and the base: lines of sight stay in it
	zlo, zhi  float64  // and between these heights
	n, right  geom.Vec // the horizontal line of sight and the eye's right, of length 1
	dist      float64  // D, the depth of the silhouette's plane
	inPlane   bool     // the eye lies in the plane (closer than planeDistance)
	eyeU      float64  // the eye's u, when in the plane
	wedge     [4]halfPlane
	k         float64     // the wedge's slope, R/D
	slope     [3]geom.Vec // |d|, |k·d + l| and |k·d - l| per unit of X and of Y
	rectangle [4]geom.Vec
}

func newFrame(eye Point3, t Silhouette) frame {
	var f frame
	f.setBox(eye, t)
	f.aim()
	return f
}

// setBox sets what the frame needs to set aside the terrain no line of sight reaches.
func (f *frame) setBox(eye Point3, t Silhouette) {
	c := t.Base.C
	f.eye, f.c, f.r = eye, c, t.Base.R
	f.vlo, f.vhi = t.Bottom-eye.Z, t.Bottom+t.Height-eye.Z
	f.lo = geom.V(min(eye.X, c.X-f.r), min(eye.Y, c.Y-f.r))
	f.hi = geom.V(max(eye.X, c.X+f.r), max(eye.Y, c.Y+f.r))
	f.zlo, f.zhi = min(eye.Z, t.Bottom), max(eye.Z, t.Bottom+t.Height)
}

// aim sets the line of sight, the silhouette's plane and the wedge, once setBox has run.
func (f *frame) aim() {
	d := f.c.Sub(f.eye.XY())
	f.dist = d.Len()
	f.n = geom.V(0, 1)
	f.inPlane = f.dist <= planeDistance
	if !f.inPlane {
		f.n = d.Scale(1 / f.dist)
	}
	// A quarter turn clockwise of the line of sight is the eye's right.
	f.right = geom.V(f.n.Y, -f.n.X)
	f.eyeU = 0
	if f.inPlane {
		f.eyeU = f.eye.XY().Sub(f.c).Dot(f.right)
	}
	// The wedge, in the frame's (depth, lateral) coordinates: |l| <= d·R/D, d <= D,
	// d >= nearDepth.
	k := f.r / f.dist
	f.k = k
	abs := func(x, y float64) geom.Vec { return geom.V(math.Abs(x), math.Abs(y)) }
	f.slope = [3]geom.Vec{
		abs(f.n.X, f.n.Y),
		abs(k*f.n.X+f.right.X, k*f.n.Y+f.right.Y),
		abs(k*f.n.X-f.right.X, k*f.n.Y-f.right.Y),
	}
	w := math.Hypot(k, 1)
	f.wedge = [4]halfPlane{
		{geom.V(k/w, 1/w), 0},
		{geom.V(k/w, -1/w), 0},
		{geom.V(-1, 0), -f.dist},
		{geom.V(1, 0), nearDepth},
	}
	f.rectangle = [4]geom.Vec{geom.V(-f.r, f.vlo), geom.V(f.r, f.vlo), geom.V(f.r, f.vhi), geom.V(-f.r, f.vhi)}
}

// mayHide reports whether an occluder's box reaches the box every line of sight from the
// eye to the silhouette stays in, above and below and across. Touching is not reaching.
func (f *frame) mayHide(o *Occluder) bool {
	if !(o.Top > o.Bottom) || f.zlo >= o.Top || f.zhi <= o.Bottom {
		return false
	}
	return f.hi.X > o.lo.X && f.lo.X < o.hi.X && f.hi.Y > o.lo.Y && f.lo.Y < o.hi.Y
}

// reaches reports whether the block over the table box b, from height bottom to top,
// may reach the pyramid of lines of sight from the eye to the rectangle: it is false
// only when the block lies wholly outside one side of the wedge of table, wholly beyond
// the silhouette's plane or behind the eye, or wholly above or below the pyramid over the
// depths it spans. Blocks that only touch the pyramid may be kept; none that reaches into
// it is set aside, by a margin far above rounding. An eye in the silhouette's plane has
// no wedge: every block may reach.
//
// cross says which of the wedge's four half-planes the box is not wholly inside (bit i
// for f.wedge[i]): the only ones a footprint within the box needs clipping to.
func (f *frame) reaches(b box, bottom, top float64) (cross uint8, ok bool) {
	if f.inPlane {
		return allPlanes, true
	}
	// The box's centre in the frame, (depth, lateral), and how far the box reaches from
	// it along the depth and along each side's inward normal (k·d ± l, for the wedge's
	// sides l = ∓k·d): a linear function over a box is greatest at a corner, by half the
	// box's width and height times its slopes along X and Y, and least by as much.
	w, h := b.Hi.X-b.Lo.X, b.Hi.Y-b.Lo.Y
	c := b.Lo.Add(b.Hi).Scale(0.5).Sub(f.eye.XY())
	d, l := c.Dot(f.n), c.Dot(f.right)
	margin := snap * (1 + math.Abs(d) + math.Abs(l) + w + h)
	reach := (w*f.slope[0].X + h*f.slope[0].Y) / 2
	left, leftReach := f.k*d+l, (w*f.slope[1].X+h*f.slope[1].Y)/2
	right, rightReach := f.k*d-l, (w*f.slope[2].X+h*f.slope[2].Y)/2
	dmin, dmax := d-reach, d+reach
	if left+leftReach < -margin || right+rightReach < -margin ||
		dmin > f.dist+margin || dmax < nearDepth-margin {
		return 0, false
	}
	// Over depths d0 to d1 the pyramid spans heights vlo·d/D to vhi·d/D above the eye.
	d0, d1 := max(dmin, 0), min(dmax, f.dist)
	lowest := min(f.vlo*d0, f.vlo*d1) / f.dist
	highest := max(f.vhi*d0, f.vhi*d1) / f.dist
	hmargin := snap * (1 + math.Abs(lowest) + math.Abs(highest))
	if !(top-f.eye.Z > lowest-hmargin && bottom-f.eye.Z < highest+hmargin) {
		return 0, false
	}
	for i, in := range [4]bool{left-leftReach > margin, right-rightReach > margin, dmax < f.dist-margin, dmin > nearDepth+margin} {
		if !in {
			cross |= 1 << i
		}
	}
	return cross, true
}

// reachesPart reports whether the block over the table box b, from height bottom to
// top, may reach the pyramid of lines of sight from the eye to the part p of the
// rectangle (in the rectangle's u and v), as reaches does for the whole: what is left in
// sight lies within p, so a block that cannot reach p's pyramid cannot hide any of it.
// It is asked only of blocks reaches kept.
func (f *frame) reachesPart(b box, bottom, top float64, p box) bool {
	if f.inPlane {
		return true
	}
	w, h := b.Hi.X-b.Lo.X, b.Hi.Y-b.Lo.Y
	c := b.Lo.Add(b.Hi).Scale(0.5).Sub(f.eye.XY())
	d, l := c.Dot(f.n), c.Dot(f.right)
	margin := snap * (1 + math.Abs(d) + math.Abs(l) + w + h)
	// u >= p.Lo.X where l·D >= p.Lo.X·d, and u <= p.Hi.X where l·D <= p.Hi.X·d: the
	// greatest of l - a·d over the box is at its centre plus half its extents times the
	// slopes of (right - a·n) along X and Y.
	side := func(a, sgn float64) float64 {
		g := sgn * (l - a*d)
		sx, sy := math.Abs(f.right.X-a*f.n.X), math.Abs(f.right.Y-a*f.n.Y)
		return g + (w*sx+h*sy)/2
	}
	if side(p.Lo.X/f.dist, 1) < -margin || side(p.Hi.X/f.dist, -1) < -margin {
		return false
	}
	reach := (w*f.slope[0].X + h*f.slope[0].Y) / 2
	d0, d1 := max(d-reach, 0), min(d+reach, f.dist)
	lowest := min(p.Lo.Y*d0, p.Lo.Y*d1) / f.dist
	highest := max(p.Hi.Y*d0, p.Hi.Y*d1) / f.dist
	hmargin := snap * (1 + math.Abs(lowest) + math.Abs(highest))
	return top-f.eye.Z > lowest-hmargin && bottom-f.eye.Z < highest+hmargin
}

// allPlanes asks shadow to clip to every half-plane of the wedge.
const allPlanes = 0b1111

// shadowScratch is the room the shadow of one piece is built in.
type shadowScratch struct {
	a, b []geom.Vec // the footprint in the frame, clipped
	cols []column   // the images of the clipped prism's upright edges
	out  []geom.Vec // the shadow, then clipped to the rectangle
	tmp  []geom.Vec
	// rough asks only for the shadow's area: it is not made exactly convex once
	// clipped to the rectangle's heights.
	rough bool
}

// shadow returns the shadow of the convex anticlockwise footprint piece fp, extruded
// from bottom to top, on the silhouette's rectangle: a convex polygon running
// anticlockwise in (u, v), or nil when it hides no area. It is convex exactly as its
// float64 corners lie (see [tidy]), so that every line along one of its edges has all of
// it on one side. cross names the wedge's half-planes the piece may cross (see
// [frame.reaches]); it is clipped to those only. The result lives in x until the next
// call.
func (f *frame) shadow(x *shadowScratch, fp geom.Polygon, bottom, top float64, cross uint8) []geom.Vec {
	if f.inPlane {
		return f.inPlaneShadow(x, fp, bottom, top)
	}
	e := f.eye.XY()
	x.a = x.a[:0]
	for _, p := range fp {
		q := p.Sub(e)
		x.a = append(x.a, geom.V(q.Dot(f.n), q.Dot(f.right)))
	}
	for i, h := range f.wedge {
		if cross&(1<<i) == 0 {
			continue
		}
		x.b = clip(x.b[:0], x.a, h)
		x.a, x.b = x.b, x.a
		if len(x.a) < 3 {
			return nil
		}
	}
	// The clipped prism is convex and lies between the eye and the plane, so its shadow
	// is the convex hull of its corners' images: a corner at depth d, lateral l, height
	// h above the eye is seen at (l·s, h·s) for s = D/d. Its u lies within the
	// rectangle's but for rounding.
	hb, ht := bottom-f.eye.Z, top-f.eye.Z
	x.cols = x.cols[:0]
	for _, p := range x.a {
		s := f.dist / p.X
		u := min(max(p.Y*s, -f.r), f.r)
		x.cols = append(x.cols, column{u, hb * s, ht * s})
	}
	if x.columnHull(); len(x.out) < 3 {
		return nil
	}
	return f.clipHeights(x)
}

// A column is the image of an upright edge of a prism: the segment at u from lo to hi.
type column struct{ u, lo, hi float64 }

// columnHull puts in x.out the convex hull of the columns in x.cols, anticlockwise,
// every corner turning strictly anticlockwise by geom.Orient: Andrew's monotone chain,
// as geom.AppendHull, but sorting the columns rather than twice as many corners. A
// column's top lies above its bottom, so only bottoms can be on the lower chain and only
// tops on the upper, but for the columns at either end: the lower chain runs from the
// lowest bottom at the least u to the highest top at the greatest, the upper chain back.
func (x *shadowScratch) columnHull() {
	c := x.cols
	for i := 1; i < len(c); i++ { // by u; a tie's order is left to the chains
		k := c[i]
		j := i
		for ; j > 0 && k.u < c[j-1].u; j-- {
			c[j] = c[j-1]
		}
		c[j] = k
	}
	n := len(c)
	start, end := geom.V(c[0].u, c[0].lo), geom.V(c[n-1].u, c[n-1].hi)
	for _, k := range c {
		if k.u == start.X {
			start.Y = min(start.Y, k.lo)
		}
		if k.u == end.X {
			end.Y = max(end.Y, k.hi)
		}
	}
	out := x.out[:0]
	push := func(p geom.Vec, from int) {
		for len(out)-from >= 2 && geom.Orient(out[len(out)-2], out[len(out)-1], p) <= 0 {
			out = out[:len(out)-1]
		}
		out = append(out, p)
	}
	push(start, 0)
	for _, k := range c {
		push(geom.V(k.u, k.lo), 0)
	}
	push(end, 0)
	upper := len(out) - 1 // the upper chain starts at end
	for i := n - 1; i >= 0; i-- {
		push(geom.V(c[i].u, c[i].hi), upper)
	}
	push(start, upper)
	x.out = out[:len(out)-1] // start, twice
	if len(x.out) < 3 {
		x.out = x.out[:0]
	}
}

// clipHeights clips the shadow in x.out to the rectangle's heights; its u already lie
// within the rectangle. Near the eye the shadow can reach far above or below the
// rectangle, so each crossing is placed along u by the ratio of the heights and put
// exactly on the rectangle's edge. Crossings are rounded along u, so what is left is made
// convex again (tidy).
func (f *frame) clipHeights(x *shadowScratch) []geom.Vec {
	vmin, vmax := x.out[0].Y, x.out[0].Y
	for _, p := range x.out[1:] {
		vmin, vmax = min(vmin, p.Y), max(vmax, p.Y)
	}
	if vmax <= f.vlo || vmin >= f.vhi {
		return nil
	}
	crossed := false
	for _, cut := range [2]struct {
		v   float64
		sgn float64
	}{{f.vlo, 1}, {f.vhi, -1}} {
		if cut.sgn*(vmin-cut.v) >= 0 && cut.sgn*(vmax-cut.v) >= 0 {
			continue // wholly on the rectangle's side of this edge
		}
		x.tmp = x.tmp[:0]
		n := len(x.out)
		if n == 0 {
			return nil
		}
		p := x.out[n-1]
		gp := cut.sgn * (p.Y - cut.v)
		for _, q := range x.out {
			gq := cut.sgn * (q.Y - cut.v)
			if gp > 0 && gq < 0 || gp < 0 && gq > 0 {
				t := gp / (gp - gq)
				u := min(max(p.X+(q.X-p.X)*t, -f.r), f.r)
				x.tmp = append(x.tmp, geom.V(u, cut.v))
				crossed = true
			}
			if gq >= 0 {
				x.tmp = append(x.tmp, q)
			}
			p, gp = q, gq
		}
		x.out, x.tmp = x.tmp, x.out
	}
	switch {
	case x.rough:
		return x.out
	case !crossed:
		// Still the hull it was, less corners wholly outside: exactly convex.
		return x.merge()
	}
	return x.tidy()
}

// tidy makes the polygon in x.out convex exactly as its float64 corners lie, and
// returns it, or nil when it has no area: it is replaced by the convex hull of its
// corners (geom.AppendHull, exact orientation tests), whose corners closer than snap are
// then merged. A polygon that is convex on paper and was only rounded loses at most a
// hair: a corner that rounding turned the wrong way, or that lies a hair from another.
func (x *shadowScratch) tidy() []geom.Vec {
	if len(x.out) < 3 {
		return nil
	}
	if !strictlyConvex(x.out) {
		x.tmp = geom.AppendHull(x.tmp[:0], x.out)
		x.out, x.tmp = x.tmp, x.out
	}
	return x.merge()
}

// strictlyConvex reports whether the polygon p turns strictly anticlockwise at every
// corner (by geom.Orient, exactly) and goes once round: its X turns back no more than
// twice. Such a polygon is convex exactly as its corners lie. It is the quick check
// before a hull, which a shape only rounded from a convex one seldom needs.
func strictlyConvex(p []geom.Vec) bool {
	n := len(p)
	turns, sign := 0, 0
	for i := range p {
		a, b, c := p[(i+n-1)%n], p[i], p[(i+1)%n]
		if geom.Orient(a, b, c) <= 0 {
			return false
		}
		switch dx := c.X - b.X; {
		case dx > 0 && sign < 0, dx < 0 && sign > 0:
			turns++
		}
		if dx := c.X - b.X; dx != 0 {
			sign = int(math.Copysign(1, dx))
		}
	}
	// Counted from the first edge that moves along X, the last change back to it is
	// missed once round: a convex polygon counts 1 or 2.
	return turns <= 2
}

// merge drops each corner of the convex polygon in x.out that lies within snap of the
// corner kept before it (across and up), and returns what is left, or nil when that has
// no area. Dropping corners of a convex polygon leaves a convex polygon.
func (x *shadowScratch) merge() []geom.Vec {
	near := func(p, q geom.Vec) bool { return math.Abs(p.X-q.X) <= snap && math.Abs(p.Y-q.Y) <= snap }
	k := 0
	for _, p := range x.out {
		if k > 0 && near(p, x.out[k-1]) {
			continue
		}
		x.out[k] = p
		k++
	}
	for k > 1 && near(x.out[k-1], x.out[0]) {
		k--
	}
	x.out = x.out[:k]
	if k < 3 {
		return nil
	}
	return x.out
}

// inPlaneShadow is a shadow when the eye lies in the silhouette's plane: every line of
// sight then runs within the plane, and a prism hides the part of the rectangle behind
// its cross-section Q (the footprint along the plane's line, from bottom to top). That
// part is the rectangle clipped to the cone of lines from the eye through Q and to the
// far side of every face of Q turned towards the eye; an eye inside Q sees nothing.
func (f *frame) inPlaneShadow(x *shadowScratch, fp geom.Polygon, bottom, top float64) []geom.Vec {
	// Where the plane's line, c + u·right, is inside the footprint.
	c := f.c
	l0, l1 := math.Inf(-1), math.Inf(1)
	for i := range fp {
		a, b := fp[i], fp[(i+1)%len(fp)]
		e := b.Sub(a)
		// Inside is to the left: e×(c + u·right - a) >= 0.
		k, m := e.Cross(f.right), e.Cross(c.Sub(a))
		switch {
		case k > 0:
			l0 = max(l0, -m/k)
		case k < 0:
			l1 = min(l1, -m/k)
		case m <= 0:
			return nil
		}
	}
	l0, l1 = max(l0, -f.r), min(l1, f.r)
	hb, ht := bottom-f.eye.Z, top-f.eye.Z
	if l1-l0 <= snap || ht-hb <= snap {
		return nil
	}
	e := geom.V(f.eyeU, 0)
	q := [4]geom.Vec{geom.V(l0, hb), geom.V(l1, hb), geom.V(l1, ht), geom.V(l0, ht)}
	x.out = append(x.out[:0], f.rectangle[:]...)
	if e.X > l0 && e.X < l1 && hb < 0 && ht > 0 {
		return x.out
	}
	cut := func(h halfPlane) {
		x.tmp = clip(x.tmp[:0], x.out, h)
		x.out, x.tmp = x.tmp, x.out
	}
	for i := range q {
		a, b := q[i], q[(i+1)%4]
		if geom.Orient(a, b, e) < 0 { // a face turned towards the eye
			cut(leftOf(a, b))
		}
	}
	// The cone: the corners seen furthest clockwise and anticlockwise from the eye.
	right, left := q[0], q[0]
	for _, p := range q[1:] {
		if geom.Orient(e, right, p) < 0 {
			right = p
		}
		if geom.Orient(e, left, p) > 0 {
			left = p
		}
	}
	if right != e {
		cut(leftOf(e, right))
	}
	if left != e {
		cut(leftOf(left, e))
	}
	return x.tidy()
}
