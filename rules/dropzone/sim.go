package dropzone

import (
	"context"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
)

// MeasureDestroyed is the 0/1 measure a simulation reports for a destroyed target.
const MeasureDestroyed = "destroyed"

// Sampler prepares the action for Monte Carlo: each draw rolls every die the action
// would roll, without a trace and without changing the battle. Shots that cannot be
// taken contribute nothing, as in Odds. Draw is safe for concurrent use.
func (b *Battle) Sampler(a volley.Action) (*volley.Sim, error) {
	s, ok := a.(*Shooting)
	if !ok {
		return nil, volley.Errorf(volley.EINVALID, "dropzone: %s rolls nothing to simulate", a.Kind())
	}
	shots, err := b.plan(context.Background(), b.measured(s))
	if err != nil {
		return nil, err
	}
	type fastShot struct {
		target int
		shots  Shots
		n      int
		fixed  bool
		auto   bool
		need   int
		table  [DieSides + 1]int
		save   int
	}
	// The measures of a draw, in this order.
	const (
		damageAt = iota
		hitsAt
		destroyedAt
		stride
	)
	sim := &volley.Sim{Measures: []string{MeasureDamage, MeasureHits, MeasureDestroyed}, Destroyed: destroyedAt}
	index := map[string]int{}
	var left []int
	var fs []fastShot
	for i := range shots {
		s := &shots[i]
		t, ok := index[s.Target]
		if !ok {
			t = len(sim.Targets)
			index[s.Target] = t
			sim.Targets = append(sim.Targets, s.Target)
			left = append(left, max(s.target.DamagePoints, 0))
		}
		if !s.ok() {
			continue
		}
		n, fixed := s.weapon.Shots.Const()
		fs = append(fs, fastShot{
			target: t, shots: s.weapon.Shots, n: n, fixed: fixed, auto: s.auto, need: s.need,
			table: damageTable(s.weapon.Energy, s.target.Type.Armour, s.weapon.Devastator()),
			save:  passiveSave(s.target, s.weapon),
		})
	}
	sim.Draw = func(d *dice.Stream, out []int) {
		clear(out)
		for i := range fs {
			f := &fs[i]
			n := f.n
			if !f.fixed {
				n = f.shots.Roll(d, "")
			}
			acc := out[f.target*stride:]
			for range n {
				if !f.auto && !isHit(d.IntN(DieSides)+1, f.need) {
					continue
				}
				acc[hitsAt]++
				dmg := f.table[d.IntN(DieSides)+1]
				if f.save > 0 {
					for range dmg {
						if d.IntN(DieSides)+1 >= f.save {
							dmg--
						}
					}
				}
				acc[damageAt] += dmg
			}
		}
		for t, l := range left {
			acc := out[t*stride:]
			if l > 0 && acc[damageAt] >= l {
				acc[destroyedAt] = 1
			}
			acc[damageAt] = min(acc[damageAt], l)
		}
	}
	return sim, nil
}
