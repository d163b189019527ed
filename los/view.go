package los

import "github.com/volley-wargames/volley/geom"

// AreaTolerance is the share of a silhouette below which a part of it counts as nothing:
// a part in sight this small is not seen, and a prism hiding this little of it hides
// nothing. It only absorbs float64 rounding, which leaves parts of around 1e-15 where
// shadows meet exactly; a billionth of a 1"×2" model is a square 45 millionths of an
// inch on a side, far below anything a player can see.
const AreaTolerance = 1e-9

// Visibility is how much of a silhouette an eye sees: the area of the part in sight and
// the silhouette's whole area, on the silhouette's plane, in square table units. A
// silhouette without area (no width or no height) is seen whole or not at all, by the
// line to its centre: Total is 1 and Visible 1 or 0.
type Visibility struct {
	Visible, Total float64
}

// tolerance is the area AreaTolerance stands for.
func (v Visibility) tolerance() float64 { return AreaTolerance * v.Total }

// Seen reports whether more than AreaTolerance of the silhouette is in sight.
func (v Visibility) Seen() bool { return v.Visible > v.tolerance() }

// Whole reports whether all but AreaTolerance of the silhouette is in sight.
func (v Visibility) Whole() bool { return v.Total-v.Visible <= v.tolerance() }

// Fraction is the share of the silhouette in sight, in [0, 1]: exactly 0 when it is not
// Seen and exactly 1 when it is Whole.
func (v Visibility) Fraction() float64 {
	switch {
	case !v.Seen():
		return 0
	case v.Whole():
		return 1
	}
	return v.Visible / v.Total
}

// Under reports whether less than the share f of the silhouette is in sight, by more
// than AreaTolerance: a silhouette seen exactly half is not under half.
func (v Visibility) Under(f float64) bool { return v.Visible < f*v.Total-v.tolerance() }

// An Occluder is a prism made ready for exact sight: its footprint cut into convex
// pieces (see [geom.Polygon.ConvexPieces]) and its bounding box. It is never changed, so
// one may be shared by every View and goroutine.
type Occluder struct {
	Prism
	pieces []geom.Polygon
	lo, hi geom.Vec
}

// NewOccluder prepares p. Cutting a footprint costs O(n²) for n corners (nothing for a
// convex one but a check): prepare terrain once. An empty prism (Top not above Bottom)
// or a footprint that is not a valid polygon hides nothing.
func NewOccluder(p Prism) Occluder {
	o := Occluder{Prism: p}
	if !(p.Top > p.Bottom) || p.Footprint.Validate() != nil {
		return o
	}
	o.pieces = p.Footprint.ConvexPieces()
	o.lo, o.hi = p.Footprint.Bounds()
	return o
}

// Pieces are the convex pieces of the occluder's footprint, anticlockwise: none for one
// that hides nothing. They are the occluder's own: do not change them.
func (o *Occluder) Pieces() []geom.Polygon { return o.pieces }

// Box is the occluder's bounding box on the table, Lo to Hi.
func (o *Occluder) Box() (lo, hi geom.Vec) { return o.lo, o.hi }

// Occluders prepares every prism of the scene, in order, so that an occluder's index is
// its prism's.
func (s *Scene) Occluders() []Occluder {
	out := make([]Occluder, len(s.Prisms))
	for i, p := range s.Prisms {
		out[i] = NewOccluder(p)
	}
	return out
}

// A View measures exactly how much of one silhouette an eye sees. Look starts a measure
// with the whole silhouette in sight; each Hide takes away what some occluders hide;
// Visibility and Hiders read the result.
//
// The silhouette is the upright rectangle through the centre of its base, as wide as the
// base and from its Bottom to its top, square on to the eye's horizontal line of sight
// (the rectangle [SilhouettePoints] samples). A point of it is hidden when the segment
// from the eye to it passes through the inside of an occluder. Each occluder's convex
// pieces, cut to the part between the eye and the rectangle, cast a convex shadow on
// the rectangle's plane (the image of the piece's corners from the eye); what stays in
// sight is the rectangle less the union of the shadows, kept as a list of convex polygons
// from which each shadow is cut in turn. Areas are exact up to float64 rounding: no line
// is sampled.
//
// The zero View is ready to use. It keeps its buffers from one measure to the next, so
// once they have grown a measure allocates nothing. A View is not safe for concurrent
// use: give each goroutine its own.
type View struct {
	f      frame
	total  float64
	flat   bool // the silhouette has no area: it is its centre line
	seen   bool // for a flat one, whether the line is clear
	centre Point3
	cur    polys // what is in sight
	next   polys
	// shadows are what the occluders of one Hide cast, cut to the silhouette.
	shadows polys
	hiders  []int
	x       shadowScratch
	a, b    []geom.Vec
}

// Look starts a measure of target seen from eye, with all of it in sight. Base.R and
// Height must be >= 0.
func (v *View) Look(eye Point3, target Silhouette) {
	v.f = newFrame(eye, target)
	v.total = 2 * target.Base.R * target.Height
	v.flat = !(v.total > 0)
	v.seen = true
	v.centre = P3(target.Base.C, target.Bottom+target.Height/2)
	v.cur.reset()
	v.hiders = v.hiders[:0]
	if !v.flat {
		v.cur.add(v.f.rectangle[:])
	}
}

// Hide takes out of sight what the occluders hide, except those skip (if not nil)
// exempts by index: a piece of terrain a model stands on, say. An occluder that hides
// more than AreaTolerance of the silhouette out of what was in sight when Hide began is
// added to Hiders, so calling Hide twice (solid terrain, then area terrain) names in the
// second only the pieces that hide what the first left in sight. Hide does not allocate
// once the View's buffers have grown.
func (v *View) Hide(occ []Occluder, skip func(i int) bool) {
	if v.flat {
		for i := range occ {
			if skip != nil && skip(i) {
				continue
			}
			if occ[i].Blocks(v.f.eye, v.centre) {
				v.seen = false
				v.hiders = append(v.hiders, i)
			}
		}
		return
	}
	if v.cur.len() == 0 {
		return
	}
	v.shadows.reset()
	tol := AreaTolerance * v.total
	for i := range occ {
		o := &occ[i]
		if skip != nil && skip(i) || !v.f.mayHide(o) {
			continue
		}
		hidden := 0.0
		for _, fp := range o.pieces {
			s := v.f.shadow(&v.x, fp, o.Bottom, o.Top)
			if s == nil {
				continue
			}
			if h := v.overlap(s); h > 0 {
				hidden += h
				v.shadows.add(s)
			}
		}
		if hidden > tol {
			v.hiders = append(v.hiders, i)
		}
	}
	for k := range v.shadows.len() {
		v.subtract(v.shadows.at(k), v.shadows.boxes[k])
		if v.cur.len() == 0 {
			return
		}
	}
}

// overlap is the area of the shadow s that is in sight.
func (v *View) overlap(s []geom.Vec) float64 {
	sb := boxOf(s)
	sum := 0.0
	for k := range v.cur.len() {
		p := v.cur.at(k)
		if !sb.overlaps(v.cur.boxes[k]) || apart(p, s) {
			continue
		}
		v.a = append(v.a[:0], s...)
		for i := range p {
			v.b = clip(v.b[:0], v.a, leftOf(p[i], p[(i+1)%len(p)]))
			v.a, v.b = v.b, v.a
			if len(v.a) < 3 {
				break
			}
		}
		sum += area(v.a)
	}
	return sum
}

// sliver is the share of the silhouette below which a polygon left in sight after a cut
// is dropped: it can only be rounding, and a million of them would still be below
// AreaTolerance.
const sliver = 1e-15

// subtract cuts the convex shadow s, anticlockwise, out of what is in sight. A polygon
// in sight that s reaches is split along each of s's edges in turn: the part outside the
// edge stays in sight (a convex polygon), the part inside goes on to the next edge, and
// what is inside every edge is hidden.
func (v *View) subtract(s []geom.Vec, sb box) {
	drop := sliver * v.total
	v.next.reset()
	for k := range v.cur.len() {
		p := v.cur.at(k)
		if !sb.overlaps(v.cur.boxes[k]) || apart(p, s) {
			// Kept whole: splitting it along s's edges would only cut it into pieces
			// that all stay in sight.
			v.next.add(p)
			continue
		}
		v.a = append(v.a[:0], p...)
		for i := range s {
			h := leftOf(s[i], s[(i+1)%len(s)])
			switch side(v.a, h) {
			case 1:
				continue
			case -1:
				v.next.add(v.a)
				v.a = v.a[:0]
			default:
				v.b = clip(v.b[:0], v.a, h.flip())
				if area(v.b) > drop {
					v.next.add(v.b)
				}
				v.b = clip(v.b[:0], v.a, h)
				v.a, v.b = v.b, v.a
			}
			if len(v.a) < 3 {
				break
			}
		}
	}
	v.cur, v.next = v.next, v.cur
}

// Visibility is how much of the silhouette is still in sight.
func (v *View) Visibility() Visibility {
	if v.flat {
		if v.seen {
			return Visibility{1, 1}
		}
		return Visibility{0, 1}
	}
	return Visibility{Visible: min(v.cur.area(), v.total), Total: v.total}
}

// Hiders are the indexes of the occluders that hide a part of the silhouette (see Hide),
// in the order met, for every Hide since Look. The slice is the View's: it changes with
// the next Look or Hide.
func (v *View) Hiders() []int { return v.hiders }

// Visible measures exactly how much of target the eye sees across the scene (see
// [View]), ignore exempting prisms by index as for [Scene.Clear]. It prepares the
// scene's prisms and a View for this one measure; to measure often, keep the
// [Occluder]s and a View.
func (s *Scene) Visible(eye Point3, target Silhouette, ignore func(i int) bool) Visibility {
	var v View
	v.Look(eye, target)
	v.Hide(s.Occluders(), ignore)
	return v.Visibility()
}
