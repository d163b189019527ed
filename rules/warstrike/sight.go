package warstrike

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/los"
	"github.com/volley-wargames/volley/scenario"
)

// look is what one model sees of another: whether, why not, and what a to-hit roll
// needs to know.
type look struct {
	seen bool
	// why says why not, naming the piece, the rule and the distances; for a model seen
	// only thanks to the sight distance it says that.
	why string
	// dist is the distance between the two models, measured as the options say.
	dist float64
	// fraction is the share of the target's silhouette the eye sees.
	fraction float64
	// partly says solid terrain hides part of the target's body (concealment's
	// partly_visible).
	partly bool
	// sight is the area terrain sight distance between the two, and through whether
	// area terrain would have hidden the target beyond it.
	sight   float64
	through bool
	// inArea says the target's base is at least partly within area terrain or on a roof.
	inArea bool
	// blockers name what stops the ray to the target's centre, for a blocked look.
	blockers []string
}

// distance is how far apart two models are: base edge to base edge on the table by
// default, or centre to centre (option distance).
func (b *Battle) distance(v, m *Model) float64 {
	d := v.At.Dist(m.At)
	if b.opts.distance == DistanceEdge {
		d = max(0, d-v.Base/2-m.Base/2)
	}
	return d
}

// sightDistance is how far v sees m through area terrain: the text's 12", plus 6" for
// each full 3" of either model's elevation (TLOS And Elevated Positions), halved when
// m's unit has Adaptive Camo and doubled when it is Easily Seen.
func sightDistance(v, m *Model, mu *Unit) float64 {
	d := AreaSightDistance + ElevationBonus*fullSteps(v.Elevation) + ElevationBonus*fullSteps(m.Elevation)
	if mu.has(AdaptiveCamo) {
		d *= CamoFactor
	}
	if mu.has(EasilySeen) {
		d *= EasilySeenFactor
	}
	return d
}

// fullSteps is the number of full ElevationSteps in an elevation (7" is two).
func fullSteps(elevation float64) float64 {
	return math.Floor(elevation/ElevationStep + 1e-9)
}

// standsOn reports whether m stands on the piece: its base's centre over the footprint,
// at the piece's top. The piece it stands on never hides it nor blocks its view.
func standsOn(t *Terrain, m *Model) bool {
	return (t.Kind == Hill || t.Kind == Building) && math.Abs(m.Elevation-t.Top()) < 1e-6 && t.Poly.Contains(m.At)
}

// taller reports whether terrain is taller (or higher) than a model, compared as the
// compare option says: the terrain's height against the body's (size), or their tops
// above the table (top).
func (b *Battle) taller(t *Terrain, m *Model) bool {
	if b.opts.compare == CompareTop {
		return t.Top() > m.Elevation+m.Height+1e-9
	}
	return t.Height > m.Height+1e-9
}

// higherThanModels is the rule of linear obstacles and buildings: higher than the
// models of either unit (the shorter of the pair, by default) or of both.
func (b *Battle) higherThanModels(t *Terrain, v, m *Model) bool {
	tv, tm := b.taller(t, v), b.taller(t, m)
	if b.opts.higher == HigherBoth {
		return tv && tm
	}
	return tv || tm
}

// seesOver reports whether the pair is elevated enough for the standard test to decide
// whether v sees over a linear obstacle (TLOS And Elevated Positions).
func (b *Battle) seesOver(v, m *Model) bool {
	switch b.opts.seeOver {
	case SeeOverElevatedFirer:
		return v.Elevation > 0
	case SeeOverElevatedEither:
		return v.Elevation > 0 || m.Elevation > 0
	}
	return false
}

// within is how much of a model's base is within a piece: 2 completely, 1 partly, 0
// not. A base above the piece's top, or below its bottom, is not within it.
func within(t *Terrain, m *Model) int {
	if m.Elevation >= t.Top()-1e-9 || m.Elevation < t.Bottom-1e-9 {
		return 0
	}
	r := m.Base / 2
	if m.At.X+r <= t.lo.X || m.At.X-r >= t.hi.X || m.At.Y+r <= t.lo.Y || m.At.Y-r >= t.hi.Y {
		return 0 // the base is clear of the piece's box, so of the piece
	}
	inside := t.Poly.Contains(m.At)
	edge := distToBoundary(t.Poly, m.At)
	switch {
	case inside && edge >= r-1e-9:
		return 2
	case inside || edge < r-1e-9:
		return 1
	}
	return 0
}

// distToBoundary is how far p is from the nearest edge of the polygon.
func distToBoundary(p geom.Polygon, q geom.Vec) float64 {
	d := math.Inf(1)
	for i := range p {
		d = min(d, geom.Segment{A: p[i], B: p[(i+1)%len(p)]}.DistTo(q))
	}
	return d
}

// hide is a piece of area terrain (or a roof) that hides a pair beyond the sight
// distance, and why.
type hide struct {
	t   *Terrain
	why string
}

// withinHide finds the first piece that hides the pair because one of them is within
// it (TLOS And Area Terrain) or the target is on a roof (TLOS And Buildings), and marks
// in exempt the pieces the within rules have decided, which the rays then ignore.
func (b *Battle) withinHide(v, m *Model, exempt []bool) (found *hide, inArea bool) {
	// The target's own cover is named first: it is what the players look at.
	var viewer *hide
	for _, i := range b.area {
		t := &b.terrain[i]
		wm, wv := within(t, m), within(t, v)
		if wm > 0 {
			inArea = true
		}
		if wm > 0 || wv > 0 {
			exempt[i] = true
		}
		switch {
		case found != nil:
		case wm == 2 && b.taller(t, m):
			found = &hide{t, "the target is within it"}
		case wm == 1 && b.taller(t, m) && b.farSide(t, m, v):
			found = &hide{t, "the target is partly within it, on the far side"}
		}
		switch {
		case viewer != nil:
		case wv == 2 && b.taller(t, v):
			viewer = &hide{t, "the firer is within it"}
		case wv == 1 && b.taller(t, v) && b.farSide(t, v, m):
			viewer = &hide{t, "the firer is partly within it, looking out on the far side"}
		}
	}
	for _, i := range b.solid {
		t := &b.terrain[i]
		if t.Kind == Building && standsOn(t, m) {
			inArea = true
			if found == nil {
				found = &hide{t, "the target is on its roof, which is area terrain"}
			}
		}
	}
	if found == nil {
		found = viewer
	}
	return found, inArea
}

// sightScratch is the room one goroutine works its looks out in, kept from look to look
// so that looking allocates nothing once it has grown: the exact view and the flags of
// the terrain a look ignores or has decided.
type sightScratch struct {
	view           los.View
	ignore, exempt []bool
}

// flags returns the scratch's two flag slices, one per piece of terrain, all false.
func (sc *sightScratch) flags(n int) (ignore, exempt []bool) {
	if cap(sc.ignore) < n {
		sc.ignore, sc.exempt = make([]bool, n), make([]bool, n)
	}
	sc.ignore, sc.exempt = sc.ignore[:n], sc.exempt[:n]
	clear(sc.ignore)
	clear(sc.exempt)
	return sc.ignore, sc.exempt
}

// look decides whether v sees m, of unit mu: first the rule of linear obstacles and
// buildings higher than the models, then the standard test against the solid terrain,
// then the area terrain exceptions with their sight distance. From edition 4 the
// standard test measures exactly how much of the body is seen (lookExact); battles begun
// before keep the rays they were played with (lookSampled).
func (b *Battle) look(sc *sightScratch, v *Model, m *Model, mu *Unit) look {
	l := look{dist: b.distance(v, m), sight: sightDistance(v, m, mu)}
	ignore, exempt := sc.flags(len(b.terrain))
	for _, i := range b.solid {
		t := &b.terrain[i]
		ignore[i] = standsOn(t, v) || standsOn(t, m)
	}
	// TLOS And Linear Obstacles, TLOS And Buildings: higher than the models blocks,
	// windows or not, unless an elevated firer sees over a linear obstacle.
	line := geom.Segment{A: v.At, B: m.At}
	var buf [8]geom.Interval
	for _, i := range b.solid {
		t := &b.terrain[i]
		if ignore[i] || (t.Kind != Wall && t.Kind != Building) || !b.higherThanModels(t, v, m) {
			continue
		}
		if t.Kind == Wall && b.seesOver(v, m) {
			continue
		}
		if len(t.Poly.AppendSegmentInside(buf[:0], line)) == 0 {
			continue
		}
		rule := "TLOS And Linear Obstacles"
		if t.Kind == Building {
			rule = "TLOS And Buildings"
		}
		l.why = fmt.Sprintf("%s: %s high, higher than the models (%s)", t.label(), b.length(t.Height), rule)
		if t.Kind == Wall && b.opts.seeOver != SeeOverNever {
			l.why += "; only an elevated firer sees over it"
		}
		l.blockers = []string{t.ID}
		return l
	}
	wh, inArea := b.withinHide(v, m, exempt)
	l.inArea = inArea
	eye := los.P3(v.At, v.Elevation+v.Height+b.opts.eyeAbove)
	sil := los.Silhouette{Base: m.circle(), Bottom: m.Elevation, Height: m.Height}
	if b.exact {
		return b.lookExact(sc, l, eye, sil, m, wh)
	}
	return b.lookSampled(l, eye, sil, m, wh, ignore, exempt)
}

// blockedBy is the reason of a pair no part of whose body is seen past the solid
// terrain named.
func (b *Battle) blockedBy(l look) look {
	what := "terrain"
	if len(l.blockers) > 0 {
		names := make([]string, len(l.blockers))
		for k, id := range l.blockers {
			t := &b.terrain[b.index(id)]
			names[k] = fmt.Sprintf("%s (%s)", t.label(), t.Kind)
		}
		what = strings.Join(names, " and ")
	}
	l.why = fmt.Sprintf("blocked by %s: no part of the body is seen (standard line of sight test)", what)
	return l
}

// sightLimited decides a pair that area terrain hides beyond the sight distance.
func (b *Battle) sightLimited(l look, h *hide, fraction float64) look {
	l.through = true
	if l.dist <= l.sight+1e-9 {
		l.seen, l.fraction = true, fraction
		l.why = fmt.Sprintf("%s: %s ≤ %s sight distance (%s, TLOS And Area Terrain)", h.t.label(), b.length(l.dist), b.length(l.sight), h.why)
		return l
	}
	l.why = fmt.Sprintf("%s: %s > %s sight distance (%s, TLOS And Area Terrain)", h.t.label(), b.length(l.dist), b.length(l.sight), h.why)
	l.blockers = []string{h.t.ID}
	return l
}

// index is the place of a piece of terrain by id.
func (b *Battle) index(id string) int {
	for i := range b.terrain {
		if b.terrain[i].ID == id {
			return i
		}
	}
	return -1
}

// length writes a length in inches for a reason, in the scenario's unit, to a tenth:
// 14.2".
func (b *Battle) length(x float64) string {
	u := b.unit.OrInch()
	v := strconv.FormatFloat(math.Round(scenario.Inches(x).In(u)*10)/10, 'f', -1, 64)
	if u == scenario.Centimetre {
		return v + "cm"
	}
	return v + `"`
}
