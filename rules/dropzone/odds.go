package dropzone

import (
	"context"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
)

// The measures this system inflicts, as named in odds and results.
const (
	MeasureDamage = "damage" // damage points lost, capped at what the target had left
	MeasureHits   = "hits"   // shots that hit, before damage
)

// damageTable is the damage one hit does for each face of the damage die (index 1..6),
// before passive countermeasures: a natural 1 never damages; the roll plus energy equal to
// or over armour does 1; beating armour by 2 or more is a critical for 2; Devastator X
// adds X to every damaging roll.
func damageTable(energy, armour, devastator int) [DieSides + 1]int {
	var t [DieSides + 1]int
	for r := 1; r <= DieSides; r++ {
		t[r] = damageFor(r, energy, armour, devastator)
	}
	return t
}

// damageFor is the damage of one damage roll.
func damageFor(roll, energy, armour, devastator int) int {
	if roll == NoDamageRoll {
		return 0
	}
	margin := roll + energy - armour
	d := 0
	switch {
	case margin >= CriticalMargin:
		d = CriticalDamage
	case margin >= 0:
		d = NormalDamage
	}
	if d > 0 {
		d += devastator
	}
	return d
}

// passiveSave is the D6 roll that discards one damage point, or 0 when passive
// countermeasures cannot help against this weapon.
func passiveSave(target *Unit, w *Weapon) int {
	n := int(target.Type.Countermeasures.Passive)
	if n <= 0 || w.Energy >= PassiveCountermeasureEnergyLimit {
		return 0
	}
	return n
}

// discardChance is the probability that one passive countermeasure die discards a point.
func discardChance(save int) float64 {
	if save <= 0 {
		return 0
	}
	if save <= 1 {
		return 1
	}
	return float64(max(0, DieSides+1-save)) / DieSides
}

// hitDamage is the exact damage of one shot that hit, after passive countermeasures.
func hitDamage(s *shot) dice.Dist {
	t := damageTable(s.weapon.Energy, s.target.Type.Armour, s.weapon.Devastator())
	m := make(map[int]float64, 3)
	for r := 1; r <= DieSides; r++ {
		m[t[r]] += 1.0 / DieSides
	}
	d, err := dice.FromMap(m)
	if err != nil {
		panic("dropzone: damage table: " + err.Error())
	}
	return d.Thin(discardChance(passiveSave(s.target, s.weapon)))
}

// declarationOdds is the exact hits and damage one declaration puts on its target.
func declarationOdds(s *shot) (hits, damage dice.Dist) {
	p := s.aim.PHit
	perShot := dice.Mixture([]float64{1 - p, p}, []dice.Dist{dice.Const(0), hitDamage(s)})
	if k, ok := s.weapon.Shots.Const(); ok {
		return dice.Binomial(k, p), perShot.SumN(k)
	}
	// A rolled number of shots: mix the k-shot results, building the k-fold sums one
	// shot at a time (rolled counts are small, see MaxRolledShots).
	n := s.weapon.Shots.Dist()
	var weights []float64
	var hs, ds []dice.Dist
	hk, dk := dice.Const(0), dice.Const(0)
	hit := dice.Bernoulli(p)
	for k := 0; k <= n.Max(); k++ {
		if k > 0 {
			hk, dk = hk.Add(hit), dk.Add(perShot)
		}
		if w := n.P(k); w > 0 {
			weights = append(weights, w)
			hs, ds = append(hs, hk), append(ds, dk)
		}
	}
	return dice.Mixture(weights, hs), dice.Mixture(weights, ds)
}

// Odds is the exact distribution of hits and damage on every target of the action.
// Shots that cannot be taken contribute nothing.
func (b *Battle) Odds(ctx context.Context, a volley.Action) (volley.Odds, error) {
	s, ok := a.(*Shooting)
	if !ok { // ending a turn, a move, a deployment: nothing rolled
		return volley.Odds{Aims: []volley.Aim{}, Targets: []volley.TargetOdds{}, Values: map[string]float64{}}, nil
	}
	shots, err := b.plan(ctx, b.measured(s))
	if err != nil {
		return volley.Odds{}, err
	}
	odds := volley.Odds{Aims: make([]volley.Aim, len(shots)), Targets: []volley.TargetOdds{}}
	type acc struct {
		hits, damage dice.Dist
	}
	var order []string
	per := map[string]*acc{}
	totalShots := 0.0
	for i := range shots {
		s := &shots[i]
		odds.Aims[i] = s.aim
		t, ok := per[s.Target]
		if !ok {
			t = &acc{}
			per[s.Target] = t
			order = append(order, s.Target)
		}
		if !s.ok() {
			continue
		}
		if err := ctx.Err(); err != nil {
			return volley.Odds{}, err
		}
		// Damage beyond what the target has left is discarded: capping as the sum grows
		// gives the same distribution as capping at the end (min(x+y, c) = min(min(x, c)+y,
		// c) for damage that never goes below zero) and keeps the convolutions small.
		h, d := declarationOdds(s)
		t.hits = t.hits.Add(h)
		t.damage = t.damage.Add(d).Cap(max(s.target.DamagePoints, 0))
		totalShots += s.aim.Shots
	}
	expDamage, expDestroyed := 0.0, 0.0
	for _, id := range order {
		u, _ := b.Unit(id)
		t := per[id]
		left := max(u.DamagePoints, 0)
		damage := t.damage.Cap(left)
		pd := 0.0
		if left > 0 {
			pd = damage.AtLeast(left)
		}
		odds.Targets = append(odds.Targets, volley.TargetOdds{
			Target:        id,
			Distributions: map[string]dice.Dist{MeasureDamage: damage, MeasureHits: t.hits},
			Mean:          map[string]float64{MeasureDamage: damage.Mean(), MeasureHits: t.hits.Mean()},
			PDestroyed:    pd,
		})
		expDamage += damage.Mean()
		expDestroyed += pd
	}
	odds.Values = map[string]float64{
		"shots":                    totalShots,
		"expected_damage":          expDamage,
		"expected_units_destroyed": expDestroyed,
	}
	return odds, nil
}
