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
// hull of its corners' images; it is built without sorting. Write s = D/d: the footprint
// maps to a convex polygon G of points (u, s) with its corners in the same order, and
// at a given u the shadow spans from the least of bottom·s to the most of top·s over G's
// column there. Those are G's near (most s) or far (least s) chain, scaled, according to
// the signs of bottom and top relative to the eye: the shadow is one chain of G scaled
// by the bottom below another scaled by the top.

// nearDepth is how close to the eye, along its line of sight, a prism is cut away: the
// eye's own point (a prism's face through the eye only grazes the lines from it).
const nearDepth = geom.Tolerance

// planeDistance is the least horizontal distance from the eye to a silhouette's centre
// for the projection: closer (an eye above the model, within a millionth of an inch),
// the eye is taken to lie in the silhouette's plane, which then faces north, and the
// shadows are cast within that plane (see inPlaneShadow).
const planeDistance = 1e-6

// frame is one eye's view of one silhouette, as the package comment above sets it out.
type frame struct {
	eye       Point3
	c         geom.Vec // the base's centre
	n, right  geom.Vec // the horizontal line of sight and the eye's right, of length 1
	dist      float64  // D, the depth of the silhouette's plane
	r         float64  // the silhouette's half width
	vlo, vhi  float64  // its bottom and top, above the eye
	inPlane   bool     // the eye lies in the plane (closer than planeDistance)
	eyeU      float64  // the eye's u, when in the plane
	lo, hi    geom.Vec // the table box of the eye and the base: lines of sight stay in it
	zlo, zhi  float64  // and between these heights
	wedge     [4]halfPlane
	rectangle [4]geom.Vec
}

func newFrame(eye Point3, t Silhouette) frame {
	c := t.Base.C
	f := frame{eye: eye, c: c, r: t.Base.R, vlo: t.Bottom - eye.Z, vhi: t.Bottom + t.Height - eye.Z}
	d := c.Sub(eye.XY())
	f.dist = d.Len()
	f.n = geom.V(0, 1)
	if f.dist <= planeDistance {
		f.inPlane = true
	} else {
		f.n = d.Scale(1 / f.dist)
	}
	// A quarter turn clockwise of the line of sight is the eye's right.
	f.right = geom.V(f.n.Y, -f.n.X)
	if f.inPlane {
		f.eyeU = eye.XY().Sub(c).Dot(f.right)
	}
	f.lo = geom.V(min(eye.X, c.X-f.r), min(eye.Y, c.Y-f.r))
	f.hi = geom.V(max(eye.X, c.X+f.r), max(eye.Y, c.Y+f.r))
	f.zlo, f.zhi = min(eye.Z, t.Bottom), max(eye.Z, t.Bottom+t.Height)
	// The wedge, in the frame's (depth, lateral) coordinates: |l| <= d·R/D, d <= D,
	// d >= nearDepth.
	k := f.r / f.dist
	w := math.Hypot(k, 1)
	f.wedge = [4]halfPlane{
		{geom.V(k/w, 1/w), 0},
		{geom.V(k/w, -1/w), 0},
		{geom.V(-1, 0), -f.dist},
		{geom.V(1, 0), nearDepth},
	}
	f.rectangle = [4]geom.Vec{geom.V(-f.r, f.vlo), geom.V(f.r, f.vlo), geom.V(f.r, f.vhi), geom.V(-f.r, f.vhi)}
	return f
}

// mayHide reports whether an occluder's box reaches the box every line of sight from the
// eye to the silhouette stays in, above and below and across. Touching is not reaching.
func (f *frame) mayHide(o *Occluder) bool {
	if !(o.Top > o.Bottom) || f.zlo >= o.Top || f.zhi <= o.Bottom {
		return false
	}
	return f.hi.X > o.lo.X && f.lo.X < o.hi.X && f.hi.Y > o.lo.Y && f.lo.Y < o.hi.Y
}

// shadowScratch is the room the shadow of one piece is built in.
type shadowScratch struct {
	a, b []geom.Vec // the footprint in the frame, clipped
	u, s []float64  // each corner's u and s
	out  []geom.Vec // the shadow, then clipped to the rectangle
	tmp  []geom.Vec
}

// shadow returns the shadow of the convex anticlockwise footprint piece fp, extruded
// from bottom to top, on the silhouette's rectangle: a convex polygon running
// anticlockwise in (u, v), or nil when it hides no area. The result lives in x until the
// next call.
func (f *frame) shadow(x *shadowScratch, fp geom.Polygon, bottom, top float64) []geom.Vec {
	if f.inPlane {
		return f.inPlaneShadow(x, fp, bottom, top)
	}
	e := f.eye.XY()
	x.a = x.a[:0]
	for _, p := range fp {
		q := p.Sub(e)
		x.a = append(x.a, geom.V(q.Dot(f.n), q.Dot(f.right)))
	}
	for _, h := range f.wedge {
		x.b = clip(x.b[:0], x.a, h)
		x.a, x.b = x.b, x.a
		if len(x.a) < 3 {
			return nil
		}
	}
	// Each corner's place on the plane, and the corners of G at its ends: leftmost and
	// rightmost, nearest (most s) and farthest among those level with them.
	x.u, x.s = x.u[:0], x.s[:0]
	for _, p := range x.a {
		s := f.dist / p.X
		x.u = append(x.u, min(max(p.Y*s, -f.r), f.r))
		x.s = append(x.s, s)
	}
	umin, umax := x.u[0], x.u[0]
	for _, u := range x.u {
		umin, umax = min(umin, u), max(umax, u)
	}
	eps := snap * max(1, f.r)
	if umax-umin <= eps {
		return nil
	}
	tl, bl, tr, br := -1, -1, -1, -1
	for i, u := range x.u {
		if u <= umin+eps {
			if tl < 0 || x.s[i] > x.s[tl] {
				tl = i
			}
			if bl < 0 || x.s[i] < x.s[bl] {
				bl = i
			}
		}
		if u >= umax-eps {
			if tr < 0 || x.s[i] > x.s[tr] {
				tr = i
			}
			if br < 0 || x.s[i] < x.s[br] {
				br = i
			}
		}
	}
	// The footprint ran anticlockwise on the table; the frame's (depth, lateral) axes
	// turn the other way, and the map to (u, s) keeps the turn: G runs clockwise, so
	// forward from its top left is its near chain and backward from its bottom left its
	// far chain.
	hb, ht := bottom-f.eye.Z, top-f.eye.Z
	x.out = x.out[:0]
	// The lower edge, left to right.
	if hb < 0 {
		x.appendChain(tl, tr, 1, hb)
	} else {
		x.appendChain(bl, br, -1, hb)
	}
	// The upper edge, collected left to right and then turned round.
	start := len(x.out)
	if ht < 0 {
		x.appendChain(bl, br, -1, ht)
	} else {
		x.appendChain(tl, tr, 1, ht)
	}
	for i, j := start, len(x.out)-1; i < j; i, j = i+1, j-1 {
		x.out[i], x.out[j] = x.out[j], x.out[i]
	}
	return f.clipHeights(x)
}

// appendChain appends to the shadow the corners of G from its corner from to its corner
// to, stepping by step (1 forward, -1 backward), each at height h·s.
func (x *shadowScratch) appendChain(from, to, step int, h float64) {
	n := len(x.u)
	for i := from; ; i = (i + n + step) % n {
		x.out = append(x.out, geom.V(x.u[i], h*x.s[i]))
		if i == to {
			return
		}
	}
}

// clipHeights clips the shadow in x.out to the rectangle's heights; its u already lie
// within the rectangle. Near the eye the shadow can reach far above or below the
// rectangle, so each crossing is placed along u by the ratio of the heights and put
// exactly on the rectangle's edge.
func (f *frame) clipHeights(x *shadowScratch) []geom.Vec {
	for _, cut := range [2]struct {
		v   float64
		sgn float64
	}{{f.vlo, 1}, {f.vhi, -1}} {
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
				x.tmp = append(x.tmp, geom.V(p.X+(q.X-p.X)*t, cut.v))
			}
			if gq >= 0 {
				x.tmp = append(x.tmp, q)
			}
			p, gp = q, gq
		}
		x.out, x.tmp = x.tmp, x.out
	}
	if len(x.out) < 3 {
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
		if b.Sub(a).Cross(e.Sub(a)) < 0 { // a face turned towards the eye
			cut(leftOf(a, b))
		}
	}
	// The cone: the corners seen furthest clockwise and anticlockwise from the eye.
	right, left := q[0], q[0]
	for _, p := range q[1:] {
		if right.Sub(e).Cross(p.Sub(e)) < 0 {
			right = p
		}
		if left.Sub(e).Cross(p.Sub(e)) > 0 {
			left = p
		}
	}
	if right != e {
		cut(leftOf(e, right))
	}
	if left != e {
		cut(leftOf(left, e))
	}
	if len(x.out) < 3 {
		return nil
	}
	return x.out
}
