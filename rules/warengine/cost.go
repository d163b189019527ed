package warengine

import "github.com/volley-wargames/volley"

// Cost bounds the work of an order, in volley.MaxWork's steps. Only declare and fire
// orders compute: a heat-map the size of the map for each pick and for the landing; for
// every square a pick may start from, its ChanceToHit (a walk of the line of fire) and
// its area; for every square the shot may end on, the interception walk and the damage
// checks of what stands there. MaxMapSide and MaxDeviation keep it within MaxWork, so no
// War Engine order is refused for its cost.
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
	work += ends * (2*line + int64(len(b.units)))
	return work
}

var _ volley.Battle = (*Battle)(nil)
