package warstrike

import (
	"fmt"
	"math"

	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/los"
)

// This file is line of sight as battles begun before edition 4 play it: the body
// sampled by a grid of rays (option samples), and the readings of that edition (a
// partly-within model's side decided by the edge of its base facing the other model;
// partly_visible counted from the rays area terrain stops as well). volley.Edition says
// why they are kept: a battle replays as it was played.

// lookSampled is the standard test and the area terrain exceptions by rays: the share of
// the cols × rows rays from the eye to the body's grid that solid terrain lets through
// (and area terrain taller than the target, not decided by the within rules).
func (b *Battle) lookSampled(l look, eye los.Point3, sil los.Silhouette, m *Model, wh *hide, ignore, exempt []bool) look {
	pts := los.SilhouettePoints(eye, sil, b.opts.cols, b.opts.rows)
	clear, open := 0, 0
	var behind *Terrain
rays:
	for _, p := range pts {
		for _, i := range b.solid {
			if !ignore[i] && b.scene.Prisms[i].Blocks(eye, p) {
				continue rays
			}
		}
		clear++
		for _, i := range b.area {
			t := &b.terrain[i]
			if !exempt[i] && b.taller(t, m) && b.scene.Prisms[i].Blocks(eye, p) {
				if behind == nil {
					behind = t
				}
				continue rays
			}
		}
		open++
	}
	n := float64(len(pts))
	if clear == 0 {
		centre := los.P3(m.At, m.Elevation+m.Height/2)
		for _, i := range b.solid {
			if !ignore[i] && b.scene.Prisms[i].Blocks(eye, centre) {
				l.blockers = append(l.blockers, b.terrain[i].ID)
			}
		}
		what := "terrain"
		if len(l.blockers) > 0 {
			t := &b.terrain[b.index(l.blockers[0])]
			what = fmt.Sprintf("%s (%s)", t.label(), t.Kind)
		}
		l.why = fmt.Sprintf("blocked by %s: no part of the body is seen (standard line of sight test)", what)
		return l
	}
	switch {
	case wh != nil:
		l = b.sightLimited(l, wh, float64(clear)/n)
	case open > 0:
		l.seen, l.fraction = true, float64(open)/n
		l.why = fmt.Sprintf("sees %d%% of the body", int(math.Round(100*l.fraction)))
	default:
		l = b.sightLimited(l, &hide{behind, "the target is completely behind it"}, float64(clear)/n)
	}
	l.partly = l.fraction < 1
	return l
}

// nearSideWithin reports whether the edge of m's base facing the other model lies
// within the piece: editions 2 and 3's reading of a partly-within model on the far side.
func nearSideWithin(t *Terrain, m *Model, other geom.Vec) bool {
	dir := other.Sub(m.At).Norm()
	return t.Poly.Contains(m.At.Add(dir.Scale(m.Base/2 - 1e-6)))
}
