package warengine

import (
	"context"
	"sort"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
)

// The measures a shot inflicts, as named in odds and results.
const (
	MeasureHits    = "hits"    // hits lost
	MeasureStruck  = "struck"  // 1 if the shot (or its blast) reached the target
	MeasureHealed  = "healed"  // hits regained from a healing weapon
	MeasureStunned = "stunned" // 1 if a weapon of strength 0 stunned the unit
)

// shotFor is the shot an order fires: at its target, or its declared one, corrected onto
// the weapon's envelope as a declaration would be. corrected is true when it moved.
func (b *Battle) shotFor(o *Order) (s *shot, corrected bool, ok bool) {
	u, _ := b.Unit(o.Unit)
	target, friendly, ok := b.targetOf(o)
	if !ok {
		return nil, false, false
	}
	s = b.orderShot(o, u, u.loadout(o.Weapon), target, friendly)
	c, ok := b.correct(s, target)
	if !ok {
		return nil, false, false
	}
	s.target = c
	return s, c != target, true
}

// Odds is the exact outcome of firing a declare or fire order's weapon: where the shot
// lands (a heat-map over squares, after every pick and the interception), and for every
// unit and piece of terrain it can strike, the distribution of hits it loses. A target
// outside the weapon's envelope is corrected first, as a declaration would be.
func (b *Battle) Odds(ctx context.Context, a volley.Action) (volley.Odds, error) {
	if err := ctx.Err(); err != nil {
		return volley.Odds{}, err
	}
	o := order(a)
	odds := volley.Odds{Aims: []volley.Aim{}, Targets: []volley.TargetOdds{}, Values: map[string]float64{}}
	if o.Type != Declare && o.Type != Fire {
		return odds, nil
	}
	aim, _, land := b.aim(o)
	odds.Aims = append(odds.Aims, aim)
	u, _ := b.Unit(o.Unit)
	s, corrected, ok := b.shotFor(o)
	if !ok || u.Destroyed() || aim.Status == volley.StatusNotEligible {
		return odds, nil
	}
	if corrected {
		fixed := *o
		fixed.Target = &s.target
		var a2 volley.Aim
		a2, _, land = b.aim(&fixed)
		odds.Aims = append(odds.Aims, a2)
	}
	if land == nil { // the corrected square is not eligible either (a friend, say)
		return odds, nil
	}
	l := *land
	b.values(s, l, odds.Values)
	l.landed.each(func(i int, p float64) {
		q := b.square(i)
		odds.Squares = append(odds.Squares, volley.SquareOdds{X: q.X, Y: q.Y, P: p})
	})
	targets, err := b.victimOdds(ctx, s, l, nil)
	if err != nil {
		return volley.Odds{}, err
	}
	odds.Targets = targets
	return odds, nil
}

// values fills the scalars a player quotes for the declared square.
func (b *Battle) values(s *shot, l landing, v map[string]float64) {
	first := l.first
	v["chance_to_hit"] = first.cth
	v["max_distance_missed_by"] = float64(first.r)
	v["area_width"] = float64(2*first.r + 1)
	v["p_pass"] = first.pass
	v["p_hit"] = b.struckChance(l, s.target)
	v["picks"] = float64(s.picks)
	if b.effect(s.w) != damages {
		return
	}
	var c *damageCheck
	if u := b.unitAt(s.target); u != nil {
		c = b.checkDamage(s, s.target, u, s.target, false)
	} else if b.terrainAt(s.target).Hits > 0 {
		c = b.checkDamage(s, s.target, nil, s.target, false)
	}
	if c == nil || c.skipped != "" {
		return
	}
	v["adjusted_strength"] = c.adjusted
	v["obstacle_modifier"] = float64(c.obstacle)
	v["strength_after_obstacle"] = c.afterObstacle
	v["damage_roll"] = c.roll
	v["toughness"] = float64(c.toughness)
	v["cover_modifier"] = float64(c.cover)
	v["chance_to_damage"] = c.chance
	v["save"] = float64(c.save)
}

// victimOdds works out, for every victim the shot can strike, the exact hits it loses.
// The hits of a damaging shot do not depend on where it landed, so a victim's
// distribution needs only the total chance that it is struck and damaged and not saved.
//
// Its work grows with the landing squares times an explosive weapon's blast (see Cost), so
// it stops when ctx ends. With only set, it works out that unit's odds alone (a danger
// map's placed unit).
func (b *Battle) victimOdds(ctx context.Context, s *shot, l landing, only *Unit) ([]volley.TargetOdds, error) {
	type acc struct {
		order  int // units first in unit order, then terrain in row order
		left   int
		struck float64
		harmed float64 // struck, damaged and not saved
	}
	accs := map[string]*acc{}
	add := func(id string, order, left int, p float64, c *damageCheck) {
		a, ok := accs[id]
		if !ok {
			a = &acc{order: order, left: left}
			accs[id] = a
		}
		a.struck += p
		if c != nil {
			a.harmed += float64(p * c.pDamage() * (1 - chance(float64(c.save)))) // no fused multiply-add
		}
	}
	kind := b.effect(s.w)
	var err error
	l.landed.each(func(i int, p float64) {
		if err != nil {
			return
		}
		if err = ctx.Err(); err != nil {
			return
		}
		at := b.square(i)
		units, terrain := b.victims(s, at)
		if only != nil {
			terrain = nil
		}
		for _, u := range units {
			if only != nil && u != only {
				continue
			}
			if kind != damages { // healed or stunned whenever struck: no damage check
				add(u.ID, b.byID[u.ID], u.Hits, p, nil)
				continue
			}
			add(u.ID, b.byID[u.ID], u.Hits, p, b.checkDamage(s, at, u, at, false))
		}
		for _, q := range terrain {
			add(squareName(q), len(b.units)+b.index(q), b.cellHits[b.index(q)], p, b.checkDamage(s, at, nil, q, false))
		}
	})
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(accs))
	for id := range accs {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return accs[ids[i]].order < accs[ids[j]].order })
	out := make([]volley.TargetOdds, 0, len(ids))
	for _, id := range ids {
		a := accs[id]
		strike := dice.Bernoulli(min(a.struck, 1))
		switch kind {
		case heals:
			u, _ := b.Unit(id)
			healed := dice.Mixture([]float64{1 - strike.Mean(), strike.Mean()}, []dice.Dist{dice.Const(0), damageRange(s.w).Cap(u.Type.Hits - u.Hits)})
			out = append(out, volley.TargetOdds{
				Target:        id,
				Distributions: map[string]dice.Dist{MeasureHealed: healed, MeasureStruck: strike},
				Mean:          map[string]float64{MeasureHealed: healed.Mean(), MeasureStruck: strike.Mean()},
			})
			continue
		case stuns:
			out = append(out, volley.TargetOdds{
				Target:        id,
				Distributions: map[string]dice.Dist{MeasureStunned: strike, MeasureStruck: strike},
				Mean:          map[string]float64{MeasureStunned: strike.Mean(), MeasureStruck: strike.Mean()},
			})
			continue
		}
		q := min(max(a.harmed, 0), 1)
		hits := dice.Mixture([]float64{1 - q, q}, []dice.Dist{dice.Const(0), damageRange(s.w)}).Cap(max(a.left, 0))
		pd := 0.0
		if a.left > 0 {
			pd = hits.AtLeast(a.left)
		}
		out = append(out, volley.TargetOdds{
			Target:        id,
			Distributions: map[string]dice.Dist{MeasureHits: hits, MeasureStruck: strike},
			Mean:          map[string]float64{MeasureHits: hits.Mean(), MeasureStruck: strike.Mean()},
			PDestroyed:    pd,
		})
	}
	return out, nil
}
