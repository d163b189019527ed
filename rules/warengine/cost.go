package warengine

import (
	"github.com/volley-wargames/volley"
)

// Costs of one order, in volley.MaxWork's steps, beyond the walks and areas Cost counts.
const (
	// damageCheckWork is a victim's damage check apart from its two line walks (the
	// obstacles and the cover): toughness, save, the distribution of its hits.
	damageCheckWork = 20
)

// Cost bounds the work of an order, in volley.MaxWork's steps. A move looks at its
// footprint at each step (and, for a diagonal step, the two ways round it); a deployment
// at its footprint and its side's zone. Only declare and fire orders compute more:
//   - one heat-map the size of the map (its distributions are kept for reuse, so it is
//     cleared square by square after) and, for each pick and the landing, the squares it
//     touches;
//   - for every square a pick may start from, its ChanceToHit (a walk of the line of
//     fire) and its deviation area;
//   - for every square the shot may end on, the interception walk and what it strikes:
//     an explosive weapon looks at every unit (how far its footprint lies) and every
//     square of its blast, and each victim's damage check walks the line twice.
//
// The bound follows the work, not the map (issue 23): a weapon that is not repeating, or
// a unit aiming, picks once, so its shot starts and ends within one deviation of the
// declared square; and a blast strikes at most as many units as it has squares, since
// no two units share a square. A blast reaching much of a big map can still make an
// order far costlier than MaxWork; the order is then refused when it is decoded, naming
// the limit.
func (b *Battle) Cost(a volley.Action) int64 {
	o := order(a)
	switch o.Type {
	case Move, Deploy:
		// Each step's footprint looked at, and for a diagonal the two ways round it; a
		// deployment's footprint against each corner of its side's zone.
		size := int64(1)
		zone := int64(0)
		if u, ok := b.Unit(o.Unit); ok {
			size = int64(u.Type.Size)
			zone = int64(len(b.table.Zones[u.Side]))
		}
		if o.Type == Deploy {
			return size*size*(1+zone) + 1
		}
		return int64(len(o.Path))*3*size*size + 1
	case Declare, Fire:
	default:
		return int64(len(b.units)) + 1
	}
	squares := int64(b.width) * int64(b.height)
	line := int64(b.width + b.height)
	area := int64(2*MaxDeviation+1) * int64(2*MaxDeviation+1)
	picks := int64(RepeatingPicks) // the most, when the order names no weapon it has
	var u *Unit
	var l *Loadout
	if v, ok := b.Unit(o.Unit); ok {
		u = v
		if l = u.loadout(o.Weapon); l != nil {
			if w := b.weapons[l.Weapon]; w != nil && (!w.Repeating || aimingOf(o, u)) {
				picks = 1
			}
		}
	}
	work := squares   // the heat-map, made once
	reach := int64(0) // how far from the declared square a pick may start
	for range picks {
		starts := min((2*reach+1)*(2*reach+1), squares)
		work += starts * (line + area)
		reach += MaxDeviation
	}
	ends := min((2*reach+1)*(2*reach+1), squares)
	work += (picks + 1) * ends // each pick's distribution and the landing's, square by square
	// A walk runs from the weapon's square to where the shot ends: at most the declared
	// square's distance plus the picks' reach, twice over for a line that cuts corners.
	walk := line
	scan, blast, victims := int64(0), int64(0), int64(1)
	if l != nil {
		if target, _, ok := b.targetOf(o); ok {
			walk = min(line, 2*(int64(u.mount(l).Chebyshev(target))+reach)+2)
		}
		if w := b.weapons[l.Weapon]; w != nil && w.Explosive() {
			r := int64(w.Blast)
			blast = min((2*r+1)*(2*r+1), squares)
			scan = int64(len(b.units))
			// Units struck and terrain squares struck: no two units share a square.
			victims = min(int64(len(b.units)), blast) + blast
		}
	}
	return work + ends*(walk+scan+blast+victims*(2*walk+damageCheckWork))
}
