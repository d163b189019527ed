package warstrike

import (
	"fmt"
	"math"

	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/los"
)

// lookExact is the standard test and the area terrain exceptions, measured exactly
// (los.View): the part of the body solid terrain leaves in sight, then the part area
// terrain taller than the target (not decided by the within rules) leaves of that. Any
// part seen counts, however thin (Check Line Of Sight: "any part" of the body), down to
// los.AreaTolerance of it.
func (b *Battle) lookExact(sc *sightScratch, l look, eye los.Point3, sil los.Silhouette, m *Model, wh *hide) look {
	v := &sc.view
	v.Look(eye, sil)
	ignore, exempt := sc.ignore, sc.exempt
	v.Hide(b.occ, func(i int) bool { return b.terrain[i].Kind == Area || ignore[i] })
	clear := v.Visibility()
	solid := len(v.Hiders())
	if !clear.Seen() {
		for _, i := range v.Hiders() {
			l.blockers = append(l.blockers, b.terrain[i].ID)
		}
		return b.blockedBy(l)
	}
	// Concealment's partly_visible is solid terrain hiding part of the body: area
	// terrain, which hides by its own rules, does not count towards it.
	l.partly = !clear.Whole()
	v.Hide(b.occ, func(i int) bool {
		t := &b.terrain[i]
		return t.Kind != Area || exempt[i] || !b.taller(t, m)
	})
	open := v.Visibility()
	switch {
	case wh != nil:
		return b.sightLimited(l, wh, clear.Fraction())
	case open.Seen():
		l.seen, l.fraction = true, open.Fraction()
		l.why = "sees " + percentOf(l.fraction) + " of the body"
		if !open.Whole() && clear.Whole() {
			l.why += ", the rest behind area terrain"
		}
		return l
	}
	if len(v.Hiders()) == solid {
		// Area terrain hid no more than los.AreaTolerance: what solid terrain left in
		// sight was no more than a hair over it.
		l.seen, l.fraction = true, clear.Fraction()
		l.why = "sees " + percentOf(l.fraction) + " of the body"
		return l
	}
	behind := &b.terrain[v.Hiders()[solid]]
	return b.sightLimited(l, &hide{behind, "the target is completely behind it"}, clear.Fraction())
}

// percentOf writes a share as a whole percentage for a reason, without rounding a sliver
// to nothing or nearly all to all.
func percentOf(f float64) string {
	switch p := 100 * f; {
	case p > 0 && p < 0.5:
		return "less than 1%"
	case p < 100 && p >= 99.5:
		return "more than 99%"
	default:
		return fmt.Sprintf("%d%%", int(math.Round(p)))
	}
}

// farSide reports whether a model partly within a piece of area terrain is on the far
// side of it from the other model (TLOS And Area Terrain: a partly-within model sees and
// is seen only from its own side). Edition 4 decides it from the whole base and the line
// of sight: the piece lies between them when the line from centre to centre, less the
// stretches over the two bases, passes through it. Editions 2 and 3 looked at one point, the
// edge of the base facing the other model.
func (b *Battle) farSide(t *Terrain, m, other *Model) bool {
	if !b.exact {
		return nearSideWithin(t, m, other.At)
	}
	line := geom.Segment{A: m.At, B: other.At}
	n := line.Len()
	lo, hi := (m.Base/2)/n, 1-(other.Base/2)/n
	if !(n > 0) || lo >= hi {
		return false // bases touching or overlapping: nothing lies between them
	}
	var buf [8]geom.Interval
	for _, in := range t.Poly.AppendSegmentInside(buf[:0], line) {
		if (min(in.T1, hi)-max(in.T0, lo))*n > geom.Tolerance {
			return true
		}
	}
	return false
}
