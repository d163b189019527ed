package warstrike

import (
	"math"
	"slices"

	"github.com/volley-wargames/volley/geom"
)

// casualty is one model in the order wounds are allocated, with the wounds it takes to
// kill it.
type casualty struct {
	model *Model
	needs int
}

// casualtyOrder is the order wounds fall on a target's living models: the owner's
// casualty_order first, then the rest nearest first to the models firing at it (the
// text: "remove or mark dead models"; which ones it leaves to the players). From edition
// 3 only the models that fire count (a model given the target that sees none of it in
// range does not fire), and models as near as each other (see tieDistance) keep the
// scenario's order; editions 2 and 3 counted every model given the target and compared the
// distances as float64 left them.
func (b *Battle) casualtyOrder(t *planTarget) []casualty {
	u := t.unit
	near := func(m *Model) float64 {
		d := math.Inf(1)
		for _, f := range t.firers {
			if b.exact && f.chosen < 0 {
				continue
			}
			d = min(d, b.distance(f.model, m))
		}
		return d
	}
	type ranked struct {
		m    *Model
		dist float64
	}
	var rest []ranked
	var out []casualty
	for _, id := range u.CasualtyOrder {
		for i := range u.Models {
			if m := &u.Models[i]; m.ID == id && m.Alive() {
				out = append(out, casualty{m, u.Wounds - m.WoundsLost})
			}
		}
	}
	for i := range u.Models {
		m := &u.Models[i]
		if m.Alive() && !slices.Contains(u.CasualtyOrder, m.ID) {
			rest = append(rest, ranked{m, near(m)})
		}
	}
	slices.SortStableFunc(rest, func(x, y ranked) int {
		switch {
		case x.dist < y.dist:
			return -1
		case x.dist > y.dist:
			return 1
		}
		return 0
	})
	if b.exact {
		// Ties: each run of models within tieDistance of the run's nearest goes in the
		// scenario's order (rest's models are in the unit's slice, so their addresses
		// keep that order).
		for i := 0; i < len(rest); {
			j := i + 1
			for j < len(rest) && rest[j].dist-rest[i].dist <= tieDistance {
				j++
			}
			slices.SortFunc(rest[i:j], func(x, y ranked) int { return modelIndex(u, x.m) - modelIndex(u, y.m) })
			i = j
		}
	}
	for _, r := range rest {
		out = append(out, casualty{r.m, u.Wounds - r.m.WoundsLost})
	}
	return out
}

// modelIndex is a model's place in its unit, in the scenario's order.
func modelIndex(u *Unit, m *Model) int {
	for i := range u.Models {
		if &u.Models[i] == m {
			return i
		}
	}
	return -1
}

// tieDistance is how far apart, in inches, two distances may be and still be a tie:
// float64 leaves distances that are equal on paper (two models placed symmetrically)
// a few units in the last place apart, around 1e-15", and no player measures to a
// billionth of an inch. From edition 4 a tie goes to the model first in the scenario.
const tieDistance = geom.Tolerance

// nearer reports whether a distance is nearer than another: by more than tieDistance
// from edition 4, as float64 compares them before.
func (b *Battle) nearer(d, than float64) bool {
	if b.exact {
		return d < than-tieDistance
	}
	return d < than
}

// killsFrom is how many models w wounds kill, allocated in order, each model taking
// wounds until it dies.
func killsFrom(order []casualty, w int) int {
	k := 0
	for _, c := range order {
		if w < c.needs {
			return k
		}
		w -= c.needs
		k++
	}
	return k
}
