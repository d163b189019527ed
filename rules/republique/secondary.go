package republique

import (
	"fmt"
	"math"

	"github.com/volley-wargames/volley/geom"
)

// The units a fire hurts besides its main target: the deep target the centre of fire
// passes through, and the tandem and adjacent secondary targets that share its roll.

// deepTarget counts the combat bases the centre of fire passes through in the target's
// bracket that count for a deep target, and says why the modifier is not applicable
// even so, or "". Bases in cover or beyond an obstacle never count. From edition 3 the
// text's other words hold too: the bases must all be in open terrain, so one crossed in
// cover or beyond an obstacle spoils the deep target, and a main target in cover (half
// or more of it, as for the cover modifier) is never one.
func (b *Battle) deepTarget(bp *batteryPlan, t *Unit) (int, string) {
	bat := bp.bat
	line := bp.zone.Line()
	n, why := 0, ""
	bp.deepUnits = nil
	for i := range b.units {
		u := &b.units[i]
		if u.Side == bat.Side || b.opts.combatBases && !u.CombatBases() {
			continue
		}
		counted := false
		for _, r := range u.Bases {
			if segRectDist(line, r) > geom.Tolerance || b.charts.bracketOf(bat.Gun, segRectDist(bat.Bases[0].Front(), r)) != bp.cand.bracket {
				continue
			}
			switch {
			case b.coverAt(r.C) != Open:
				if why == "" {
					why = fmt.Sprintf("a base of %s that the centre of fire passes through is in %s cover, and the bases must all be in open terrain", u.ID, b.coverAt(r.C))
				}
			case b.beyondObstacle(bat.muzzle(), r.C):
				if why == "" {
					why = fmt.Sprintf("a base of %s that the centre of fire passes through is beyond an obstacle", u.ID)
				}
			default:
				n++
				counted = true
			}
		}
		if counted && u != t {
			bp.deepUnits = append(bp.deepUnits, u)
		}
	}
	if !b.opts.deepOpen {
		return n, ""
	}
	if b.covered(t, Solid) {
		return n, fmt.Sprintf("the main target %s is in cover, and the modifier is not applicable against targets in woods or buildings", t.ID)
	}
	return n, why
}

// nextTo reports whether u stands "next to" the main target t, for the adjacent target
// rule: a base of u within adjacent_within of a base of t and, by default from edition
// 3, beside it — flank to flank, level with it along t's front-to-rear axis, not in
// front of it or behind it (the tandem rule is the one for units behind). The option
// adjacent: any_side counts any side.
func (b *Battle) nextTo(u, t *Unit) bool {
	for _, r := range u.Bases {
		for _, q := range t.Bases {
			if rectDist(r, q) > b.opts.adjacentWithin+geom.Tolerance {
				continue
			}
			if b.opts.adjacentAny || beside(r, q) {
				return true
			}
		}
	}
	return false
}

// beside reports whether base r stands level with base q, to one of q's flanks: their
// extents along q's front-to-rear axis overlap, and r lies wholly to q's left or right.
func beside(r, q Rect) bool {
	fwd, right := q.fwd(), q.right()
	lo, hi, left, rgt := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, c := range r.Corners() {
		d := c.Sub(q.C)
		y, x := fwd.Dot(d), right.Dot(d)
		lo, hi, left, rgt = min(lo, y), max(hi, y), min(left, x), max(rgt, x)
	}
	overlap := min(hi, q.D/2) - max(lo, -q.D/2)
	flank := left >= q.W/2-geom.Tolerance || rgt <= -q.W/2+geom.Tolerance
	return overlap > geom.Tolerance && flank
}

// distribute shares one roll's hits between the main target (caps[0]), its tandem
// targets (the next tandems) and its adjacent targets (the rest), as the text's
// secondary target rules say:
//   - each tandem target suffers half the morale hits (rounded down) besides the main
//     target's; half the base hits (rounded down) are taken from the main target's share
//     and fall on the tandem target;
//   - base hits the main target cannot take (all its bases gone) carry over to the tandem
//     targets in turn;
//   - only when the main and every tandem target are destroyed by the roll does the
//     closest adjacent target suffer the balance, and half the morale hits.
func distribute(h Hits, caps []int, tandems int) []effect {
	eff := make([]effect, len(caps))
	share := 0
	if tandems > 0 {
		share = h.Bases / 2
	}
	eff[0].Morale = h.Morale
	eff[0].Bases = min(h.Bases-share, caps[0])
	rest := h.Bases - share - eff[0].Bases
	gone := eff[0].Bases >= caps[0]
	for i := 1; i <= tandems; i++ {
		eff[i].Morale = h.Morale / 2
		give := rest
		if i == 1 {
			give += share
		}
		eff[i].Bases = min(give, caps[i])
		rest = give - eff[i].Bases
		gone = gone && eff[i].Bases >= caps[i]
	}
	if gone && h.Bases > 0 && len(caps) > tandems+1 {
		j := tandems + 1
		eff[j].Morale = h.Morale / 2
		eff[j].Bases = min(rest, caps[j])
	}
	return eff
}
