package los

import (
	"slices"
	"sync"

	"github.com/volley-wargames/volley/geom"
)

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
// pieces (see [geom.Polygon.ConvexPieces]), and its bounding box and each piece's. It is
// never changed, so one may be shared by every View and goroutine.
type Occluder struct {
	Prism
	pieces []geom.Polygon
	boxes  []box // each piece's
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
	o.boxes = make([]box, len(o.pieces))
	for k, pc := range o.pieces {
		o.boxes[k] = boxOf(pc)
	}
	o.lo, o.hi = p.Footprint.Bounds()
	return o
}

// Pieces are the convex pieces of the occluder's footprint, anticlockwise: none for one
// that hides nothing. They are the occluder's own: do not change them.
func (o *Occluder) Pieces() []geom.Polygon { return o.pieces }

// Box is the occluder's bounding box on the table, Lo to Hi.
func (o *Occluder) Box() (lo, hi geom.Vec) { return o.lo, o.hi }

// PiecesIn counts the corners and convex pieces of the occluders whose box meets the box
// lo to hi: what an exact look between two things inside that box may have to cut, and
// so what a rule system prices it by.
func PiecesIn(occ []Occluder, lo, hi geom.Vec) (corners, pieces int64) {
	for i := range occ {
		olo, ohi := occ[i].Box()
		if ohi.X < lo.X || olo.X > hi.X || ohi.Y < lo.Y || olo.Y > hi.Y {
			continue
		}
		c, p := occ[i].size()
		corners, pieces = corners+c, pieces+p
	}
	return corners, pieces
}

// AllPieces counts the corners and convex pieces of every occluder: what an exact look
// anywhere on the table may have to cut, for pricing work that looks from and at every
// place.
func AllPieces(occ []Occluder) (corners, pieces int64) {
	for i := range occ {
		c, p := occ[i].size()
		corners, pieces = corners+c, pieces+p
	}
	return corners, pieces
}

// size counts the occluder's corners and convex pieces.
func (o *Occluder) size() (corners, pieces int64) {
	for _, p := range o.pieces {
		corners += int64(len(p))
	}
	return corners, int64(len(o.pieces))
}

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
// Rounding cannot turn a shadow inside out: each is made convex exactly as its float64
// corners lie, by exact orientation tests, with corners closer than 1e-12 merged, and
// the lines that cut what is in sight are only ever its edges. Near-degenerate scenes
// (an eye a hair from a face's plane, a piece ending on the silhouette's plane, pieces
// that touch) err by rounding, a sliver a hair wide, never by a part of the silhouette.
//
// Work is spent only where a line of sight can go: an occluder whose box misses the box
// of the lines of sight, or whose pieces lie wholly outside the pyramid from the eye to
// the rectangle, costs a few comparisons; once nothing is left in sight, Hide stops (and
// Hiders finishes the naming only if asked).
//
// The zero View is ready to use. It keeps its buffers from one measure to the next, so
// once they have grown a measure allocates nothing. A View is not safe for concurrent
// use: give each goroutine its own.
type View struct {
	f      frame
	aimed  bool // f's line of sight and wedge are set, not just its box
	total  float64
	flat   bool // the silhouette has no area: it is its centre line
	seen   bool // for a flat one, whether the line is clear
	centre Point3
	// whole is true while nothing has been hidden: what is in sight is the rectangle,
	// and cur holds nothing yet.
	whole bool
	cur   polys // what is in sight, when not whole
	next  polys
	// start is what was in sight when the latest Hide began, when not whole: what
	// occluders are named for hiding part of.
	start      polys
	startWhole bool
	hiders     []int
	rest       pending
	later      []int // the occluders the latest Hide set aside, to name if asked
	names      []int
	given      []int
	piece      []geom.Vec      // a convex footprint, anticlockwise, for Scene.Visible
	onePiece   [1]geom.Polygon // and it as the pieces of an occluder
	cross      uint8           // the wedge's half-planes the occluder mayHide passed last crosses
	x          shadowScratch
	a, b       []geom.Vec
}

// pending is what the latest Hide left to name: the occluders it set aside (View.later)
// and, if it stopped once nothing was left in sight, those from piece k of occluder i on,
// the i-th having hidden hidden so far. Its names go in Hiders from index from on.
type pending struct {
	occ     []Occluder
	skip    func(i int) bool
	from    int
	stopped bool
	i, k    int
	hidden  float64
}

// Look starts a measure of target seen from eye, with all of it in sight. Base.R and
// Height must be >= 0.
func (v *View) Look(eye Point3, target Silhouette) {
	v.f.setBox(eye, target)
	v.aimed = false
	v.total = 2 * target.Base.R * target.Height
	v.flat = !(v.total > 0)
	v.seen = true
	v.centre = P3(target.Base.C, target.Bottom+target.Height/2)
	v.whole = !v.flat
	v.cur.reset()
	v.hiders = v.hiders[:0]
	v.rest = pending{}
	v.later = v.later[:0]
}

// Hide takes out of sight what the occluders hide, except those skip (if not nil)
// exempts by index: a piece of terrain a model stands on, say. An occluder that hides
// more than AreaTolerance of the silhouette out of what was in sight when Hide began is
// added to Hiders, so calling Hide twice (solid terrain, then area terrain) names in the
// second only the pieces that hide what the first left in sight.
//
// Hide spends work only on what can still change the answer: an occluder that cannot
// reach the part left in sight is set aside, and once nothing is left in sight Hide
// stops. Whether those hide a part of what was in sight when Hide began is decided only
// if Hiders is asked for, before the next Look (skip may then be called again). Hide does
// not allocate once the View's buffers have grown.
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
	if len(occ) == 0 || !v.whole && v.cur.len() == 0 {
		return // nothing to hide, or nothing left to hide
	}
	v.settle() // while the start it names against is kept
	v.startWhole = v.whole
	if !v.whole {
		v.start.reset()
		for k := range v.cur.len() {
			v.start.add(v.cur.at(k))
		}
	}
	v.rest = pending{occ: occ, skip: skip, from: len(v.hiders)}
	v.later = v.later[:0]
	tol := AreaTolerance * v.total
	for i := range occ {
		o := &occ[i]
		if !v.mayHide(o, i, skip) {
			continue
		}
		if !v.reachesSeen(o) {
			v.later = append(v.later, i)
			continue
		}
		hidden := 0.0
		for k := range o.pieces {
			s := v.shadow(o, k)
			if s == nil {
				continue
			}
			h := v.overlap(s)
			if h <= 0 {
				continue
			}
			hidden += h
			v.subtract(s)
			if v.cur.len() == 0 {
				v.rest.stopped, v.rest.i, v.rest.k, v.rest.hidden = true, i, k+1, hidden
				return
			}
		}
		if hidden > tol {
			v.hiders = append(v.hiders, i)
		}
	}
}

// mayHide reports whether the i-th occluder, o, is not exempted by skip and may reach the
// lines of sight: its box meets theirs, and it reaches into the pyramid from the eye to
// the rectangle. It aims the frame the first time a box meets theirs, and keeps which of
// the wedge's half-planes o's box crosses for shadow.
func (v *View) mayHide(o *Occluder, i int, skip func(i int) bool) bool {
	if skip != nil && skip(i) || !v.f.mayHide(o) {
		return false
	}
	if !v.aimed {
		v.f.aim()
		v.aimed = true
	}
	var ok bool
	v.cross, ok = v.f.reaches(box{o.lo, o.hi}, o.Bottom, o.Top)
	return ok
}

// reachesSeen reports whether o, which mayHide passed, may reach the part of the
// silhouette still in sight: the pyramid from the eye through the box of what is left.
func (v *View) reachesSeen(o *Occluder) bool {
	return v.whole || v.f.reachesPart(box{o.lo, o.hi}, o.Bottom, o.Top, v.cur.box)
}

// shadow is the shadow of o's k-th piece, or nil, once mayHide has passed o: a piece of
// a footprint cut into several is first set aside if it cannot reach the pyramid.
func (v *View) shadow(o *Occluder, k int) []geom.Vec {
	cross := v.cross
	if len(o.pieces) > 1 {
		var ok bool
		if cross, ok = v.f.reaches(o.boxes[k], o.Bottom, o.Top); !ok {
			return nil
		}
	}
	return v.f.shadow(&v.x, o.pieces[k], o.Bottom, o.Top, cross)
}

// shadowArea is the area of the shadow of o's k-th piece, as shadow would give it but
// for rounding, without making it exactly convex: enough to tell whether it hides more
// than AreaTolerance of a silhouette wholly in sight.
func (v *View) shadowArea(o *Occluder, k int) float64 {
	cross := v.cross
	if len(o.pieces) > 1 {
		var ok bool
		if cross, ok = v.f.reaches(o.boxes[k], o.Bottom, o.Top); !ok {
			return 0
		}
	}
	v.x.rough = true
	s := v.f.shadow(&v.x, o.pieces[k], o.Bottom, o.Top, cross)
	v.x.rough = false
	return area(s)
}

// overlap is the area of the shadow s that was in sight when the latest Hide began: all
// of it when that was the whole rectangle (a shadow lies within it), else its overlap
// with each polygon then in sight, found by cutting the polygon to each of s's edges.
func (v *View) overlap(s []geom.Vec) float64 {
	if v.startWhole {
		return area(s)
	}
	sb := boxOf(s)
	sum := 0.0
	for k := range v.start.len() {
		p := v.start.at(k)
		if !sb.overlaps(v.start.boxes[k]) || outsideShadow(p, s) {
			continue
		}
		v.a = append(v.a[:0], p...)
		for i := range s {
			v.b = clip(v.b[:0], v.a, leftOf(s[i], s[(i+1)%len(s)]))
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

// subtract cuts the shadow s out of what is in sight. A polygon in sight that s reaches
// is split along each of s's edges in turn: the part outside the edge stays in sight,
// the part inside goes on to the next edge, and what is inside every edge is hidden. s
// is convex exactly (see tidy), so the parts outside its edges are truly outside it. A
// polygon of which s hides no more than a sliver is kept whole rather than split.
func (v *View) subtract(s []geom.Vec) {
	if v.whole {
		v.cur.reset()
		v.cur.add(v.f.rectangle[:])
		v.whole = false
	}
	sb := boxOf(s)
	if !sb.overlaps(v.cur.box) {
		return // s misses everything in sight
	}
	drop := sliver * v.total
	v.next.reset()
	for k := range v.cur.len() {
		p := v.cur.at(k)
		if !sb.overlaps(v.cur.boxes[k]) || outsideShadow(p, s) {
			// Kept whole: splitting it along s's edges would only cut it into pieces
			// that all stay in sight.
			v.next.add(p)
			continue
		}
		mark := v.next.len()
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
		if area(v.a) <= drop {
			// s hides nothing of p but rounding: keep p as it was.
			v.next.truncate(mark)
			v.next.add(p)
		}
	}
	v.cur, v.next = v.next, v.cur
}

// Visibility is how much of the silhouette is still in sight.
func (v *View) Visibility() Visibility {
	switch {
	case v.flat && v.seen:
		return Visibility{1, 1}
	case v.flat:
		return Visibility{0, 1}
	case v.whole:
		return Visibility{v.total, v.total}
	}
	return Visibility{Visible: min(v.cur.area(), v.total), Total: v.total}
}

// Hiders are the indexes of the occluders that hide a part of the silhouette (see Hide),
// in the order met, for every Hide since Look. The slice is the View's: it changes with
// the next Look or Hide. It first decides about the occluders the latest Hide set aside.
func (v *View) Hiders() []int {
	v.settle()
	return v.hiders
}

// settle names, among the occluders the latest Hide set aside or stopped before, those
// that hide a part of what was in sight when it began, as if it had looked at each, and
// puts them in order among the names it gave.
func (v *View) settle() {
	r := v.rest
	if r.occ == nil {
		return
	}
	v.rest = pending{}
	tol := AreaTolerance * v.total
	names := v.names[:0]
	hides := func(o *Occluder, first int, hidden float64) bool {
		for k := first; k < len(o.pieces) && hidden <= tol; k++ {
			if v.startWhole {
				// Only the area is asked: the shadow need not be made exactly convex.
				hidden += v.shadowArea(o, k)
			} else if s := v.shadow(o, k); s != nil {
				hidden += v.overlap(s)
			}
		}
		return hidden > tol
	}
	for _, i := range v.later {
		o := &r.occ[i]
		if v.mayHide(o, i, nil) && hides(o, 0, 0) {
			names = append(names, i)
		}
	}
	v.later = v.later[:0]
	if r.stopped {
		for i := r.i; i < len(r.occ); i++ {
			o := &r.occ[i]
			hidden, first := 0.0, 0
			if i == r.i {
				hidden, first = r.hidden, r.k
			}
			if v.mayHide(o, i, r.skip) && hides(o, first, hidden) {
				names = append(names, i)
			}
		}
	}
	v.names = names
	if len(names) == 0 {
		return
	}
	// Merge the two increasing runs: the names Hide gave, and these.
	given := len(v.hiders) - r.from
	v.hiders = append(v.hiders, names...)
	run := v.hiders[r.from:]
	v.given = append(v.given[:0], run[:given]...)
	a, b := v.given, names
	for k := range run {
		if len(b) == 0 || len(a) > 0 && a[0] < b[0] {
			run[k], a = a[0], a[1:]
		} else {
			run[k], b = b[0], b[1:]
		}
	}
}

// Visible measures exactly how much of target the eye sees across the scene (see
// [View]), ignore exempting prisms by index as for [Scene.Clear]. It prepares (see
// [NewOccluder]) only the prisms that may reach a line of sight, one at a time, and stops
// once nothing is left in sight; to measure often across the same scene, [Scene.Prepare]
// it once. Visible is safe for concurrent use, as Clear is, while nothing changes the
// scene.
func (s *Scene) Visible(eye Point3, target Silhouette, ignore func(i int) bool) Visibility {
	v := viewPool.Get().(*View)
	defer viewPool.Put(v)
	v.Look(eye, target)
	var one [1]Occluder
	for i := range s.Prisms {
		if ignore != nil && ignore(i) {
			continue
		}
		p := &s.Prisms[i]
		if !(p.Top > p.Bottom) {
			continue
		}
		if v.flat {
			if p.Blocks(v.f.eye, v.centre) {
				v.seen = false
				break
			}
			continue
		}
		lo, hi := p.Footprint.Bounds()
		one[0] = Occluder{Prism: *p, lo: lo, hi: hi}
		if !v.mayHide(&one[0], i, nil) || !v.reachesSeen(&one[0]) {
			continue
		}
		if !v.prepareOne(&one[0]) {
			continue
		}
		if v.cut(&one[0]) {
			break
		}
	}
	return v.Visibility()
}

// prepareOne makes o, holding only its prism and box, ready to cut, as NewOccluder would
// but without allocating for a convex footprint: its one piece is the footprint itself,
// turned anticlockwise in the View's room. It reports false for a footprint that is not
// a valid polygon, which hides nothing.
func (v *View) prepareOne(o *Occluder) bool {
	fp := o.Footprint
	if fp.Validate() != nil {
		return false
	}
	if !fp.Convex() {
		*o = NewOccluder(o.Prism)
		return true
	}
	v.piece = append(v.piece[:0], fp...)
	if signedArea(v.piece) < 0 {
		slices.Reverse(v.piece)
	}
	v.onePiece[0] = v.piece
	o.pieces = v.onePiece[:]
	return true
}

// signedArea is twice the area of p, positive when it runs anticlockwise.
func signedArea(p []geom.Vec) float64 {
	s := 0.0
	for i := range p {
		s += p[i].Cross(p[(i+1)%len(p)])
	}
	return s
}

// viewPool keeps the Views of Scene.Visible, buffers grown, between calls. A View's
// buffers never change an answer.
var viewPool = sync.Pool{New: func() any { return new(View) }}

// cut takes out of sight what o hides, naming nothing, and reports whether nothing is
// left in sight. The View must not be flat, and o must have passed mayHide.
func (v *View) cut(o *Occluder) bool {
	for k := range o.pieces {
		if s := v.shadow(o, k); s != nil {
			v.subtract(s)
			if v.cur.len() == 0 {
				return true
			}
		}
	}
	return false
}

// A Prepared is a scene made ready for exact sight: its prisms prepared once (see
// [Occluder]) and a View kept, so that each measure costs only the looking. It is not
// safe for concurrent use: prepare one per goroutine, or share [Prepared.Occluders]
// (which never change) and give each goroutine a View.
type Prepared struct {
	occ []Occluder
	v   View
}

// Prepare prepares the scene's prisms as they are now: a later change to them is not
// seen by the Prepared.
func (s *Scene) Prepare() *Prepared { return &Prepared{occ: s.Occluders()} }

// Occluders are the prepared prisms, an occluder's index its prism's. They are the
// Prepared's own: do not change them.
func (p *Prepared) Occluders() []Occluder { return p.occ }

// Visible is [Scene.Visible] across the prepared prisms: the same answer, without
// preparing anything. It allocates nothing once its View's buffers have grown.
func (p *Prepared) Visible(eye Point3, target Silhouette, ignore func(i int) bool) Visibility {
	v := &p.v
	v.Look(eye, target)
	if v.flat {
		v.Hide(p.occ, ignore)
		return v.Visibility()
	}
	for i := range p.occ {
		o := &p.occ[i]
		if v.mayHide(o, i, ignore) && v.reachesSeen(o) && v.cut(o) {
			break
		}
	}
	return v.Visibility()
}
