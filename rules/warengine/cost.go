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

// Cost bounds the work of an order, in volley.MaxWork's steps. Only declare and fire
// orders compute:
//   - a heat-map the size of the map for each pick and for the landing;
//   - for every square a pick may start from, its ChanceToHit (a walk of the line of
//     fire) and its deviation area;
//   - for every square the shot may end on, the interception walk and what it strikes:
//     every unit's footprint is looked at, every square of an explosive weapon's blast,
//     and each victim's damage check walks the line twice.
//
// A blast reaching much of a big map can make an order far costlier than MaxWork; the
// order is then refused when it is decoded, naming the limit.
func (b *Battle) Cost(a volley.Action) int64 {
	o := order(a)
	if o.Type != Declare && o.Type != Fire {
		return int64(len(b.units)) + 1
	}
	squares := int64(b.width) * int64(b.height)
	line := int64(b.width + b.height)
	area := int64(2*MaxDeviation+1) * int64(2*MaxDeviation+1)
	work := (RepeatingPicks + 2) * squares
	reach := int64(0) // how far from the declared square a pick may start
	for range RepeatingPicks {
		starts := min((2*reach+1)*(2*reach+1), squares)
		work += starts * (line + area)
		reach += MaxDeviation
	}
	ends := min((2*reach+1)*(2*reach+1), squares)
	footprints := int64(0)
	for i := range b.units {
		footprints += int64(b.units[i].Type.Size) * int64(b.units[i].Type.Size)
	}
	// A walk runs from the weapon's square to where the shot ends: at most the declared
	// square's distance plus the picks' reach, twice over for a line that cuts corners.
	walk := line
	blast, victims := int64(0), int64(1)
	if u, ok := b.Unit(o.Unit); ok {
		if l := u.loadout(o.Weapon); l != nil {
			if target, _, ok := b.targetOf(o); ok {
				walk = min(line, 2*(int64(u.mount(l).Chebyshev(target))+reach)+2)
			}
			if w := b.weapons[l.Weapon]; w != nil && w.Explosive() {
				r := int64(w.Blast)
				blast = min((2*r+1)*(2*r+1), squares)
				victims = int64(len(b.units)) + blast
			}
		}
	}
	return work + ends*(walk+footprints+blast+victims*(2*walk+damageCheckWork))
}

var _ volley.Battle = (*Battle)(nil)
