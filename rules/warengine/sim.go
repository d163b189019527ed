package warengine

import (
	"context"
	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
)

// Sampler prepares a declare or fire order for Monte Carlo: each draw rolls the picks,
// the line of fire and every damage check, without a trace and without changing the
// battle. The targets are those the exact odds list. Draw is safe for concurrent use.
func (b *Battle) Sampler(a volley.Action) (*volley.Sim, error) {
	o := order(a)
	if o.Type != Declare && o.Type != Fire {
		return nil, volley.Errorf(volley.EINVALID, "warengine: only declare and fire orders shoot; a %s order has nothing to simulate", o.Type)
	}
	odds, err := b.Odds(context.Background(), o)
	if err != nil {
		return nil, err
	}
	// The measures of a draw, in this order: what the shot does to a victim (hits lost,
	// hits regained, or a stun, by the weapon), whether it struck, whether it destroyed.
	const (
		doneAt = iota
		struckAt
		destroyedAt
		stride
	)
	done := MeasureHits
	s, _, ok := b.shotFor(o)
	if ok {
		switch b.effect(s.w) {
		case heals:
			done = MeasureHealed
		case stuns:
			done = MeasureStunned
		}
	}
	sim := &volley.Sim{Measures: []string{done, MeasureStruck, "destroyed"}, Destroyed: destroyedAt}
	index := map[string]int{}
	var left []int
	for i, t := range odds.Targets {
		sim.Targets = append(sim.Targets, t.Target)
		index[t.Target] = i
		if u, ok := b.Unit(t.Target); ok {
			left = append(left, u.Hits)
		} else {
			sq, _ := b.resolveSquareName(t.Target)
			left = append(left, b.cellHits[b.index(sq)])
		}
	}
	sim.Draw = func(d *dice.Stream, out []int) {
		clear(out)
		if !ok || len(sim.Targets) == 0 {
			return
		}
		landed := b.rollLanding(s, d, nil)
		for _, bl := range b.rollDamage(s, landed, d, nil) {
			t, known := index[bl.id]
			if !known {
				continue // the exact odds say this cannot be struck; the test comparing both would show it
			}
			acc := out[t*stride:]
			acc[struckAt] = 1
			switch bl.kind {
			case heals:
				acc[doneAt] = bl.healed
			case stuns:
				acc[doneAt] = 1
			default:
				acc[doneAt] = min(bl.hits, left[t])
				if left[t] > 0 && bl.hits >= left[t] {
					acc[destroyedAt] = 1
				}
			}
		}
	}
	return sim, nil
}
