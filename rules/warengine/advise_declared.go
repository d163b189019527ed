package warengine

import (
	"context"
	"fmt"

	"github.com/volley-wargames/volley/advise"
)

// The War Engine's fire is declared before any of it is fired: every unit of the side
// finds its targets in the target phase, and only then does the fire phase fire them.
// A plan scored against the battle as it stands would not see the fire already declared,
// and every unit would declare at the same best target, which the first shot may well
// destroy (not in the source: the manual says how a target is found, not which). So in
// its own target phase the advisor scores a unit's shot at a target by what it adds to
// the fire the side's other units have declared there and not yet fired: the chance
// that this shot is the one that destroys it (afterDeclared).

// declaredFire is the fire the other units of side have declared and not yet fired, in
// side's own target phase: for each enemy unit it may hurt, the exact distribution of
// the hits it loses to all of it (each shot its own dice, so convolved, capped at the
// hits it has), and the declarations in words. Outside that phase, or with nothing
// declared, it is empty.
func (b *Battle) declaredFire(ctx context.Context, side, except string) (map[string][]float64, []string, error) {
	if b.phase != PhaseTarget || b.side != side {
		return nil, nil, nil
	}
	fire := map[string][]float64{}
	var words []string
	for i := range b.units {
		w := &b.units[i]
		if w.Side != side || w.ID == except || w.Destroyed() || w.StunnedFor > 0 {
			continue // a unit stunned for the coming fire phase will not fire it
		}
		for _, d := range w.Declared {
			// The shot as the fire phase will fire it: at the declared square, from where
			// the unit stands, aiming as it does.
			_, shot, land := b.aim(&Order{Type: Fire, Unit: w.ID, Weapon: d.Weapon})
			if land == nil {
				continue
			}
			victims, err := b.victimOdds(ctx, shot, *land, nil)
			land.release()
			if err != nil {
				return nil, nil, err
			}
			hurts := false
			for _, t := range victims {
				v, ok := b.Unit(t.Target)
				if !ok || v.Side == side || v.Destroyed() || t.Distributions[MeasureHits].Max() == 0 {
					continue
				}
				hurts = true
				e := advise.Capped(t.Distributions[MeasureHits], v.Hits)
				if old, ok := fire[v.ID]; ok {
					next := make([]float64, v.Hits+1)
					advise.Convolve(next, old, e)
					e = next
				}
				fire[v.ID] = e
			}
			if hurts {
				words = append(words, fmt.Sprintf("%s's %s at %s", w.ID, d.Weapon, squareName(d.Target)))
			}
		}
	}
	return fire, words, nil
}

// declaredWork is the work of declaredFire: each declared shot's odds, priced as Cost
// prices its fire order (a problem of a group of one weapon works them out).
func (b *Battle) declaredWork(side, except string) int64 {
	if b.phase != PhaseTarget || b.side != side {
		return 0
	}
	work := int64(0)
	for i := range b.units {
		w := &b.units[i]
		if w.Side != side || w.ID == except || w.Destroyed() || w.StunnedFor > 0 {
			continue
		}
		for _, d := range w.Declared {
			work += b.Cost(&Order{Type: Fire, Unit: w.ID, Weapon: d.Weapon})
		}
	}
	return work
}

// afterDeclared is what a shot does to a target of left hits, when the side's fire
// declared before it (declared, the distribution of the hits the target loses to that
// fire) fires too: the target's loss counted as left when this shot is the one that
// destroys it, else the hits this shot takes off it while it stands (nothing when the
// declared fire destroys it anyway). Its chance at left is the chance this shot destroys
// the target that the declared fire alone would not, so a shot at a target the declared
// fire probably destroys is worth little, and the shot's own odds are what it says.
func afterDeclared(own, declared []float64) []float64 {
	left := len(own) - 1
	out := make([]float64, left+1)
	out[0] = declared[left] // destroyed by the declared fire: this shot adds nothing
	for k, pk := range declared[:left] {
		if pk == 0 {
			continue
		}
		for n, q := range own {
			if k+n >= left {
				out[left] += pk * q
			} else {
				out[n] += pk * q
			}
		}
	}
	return out
}

// groupSize is how many weapons of u's type are in group g.
func groupSize(u *Unit, g int) int {
	n := 0
	for i := range u.Type.Weapons {
		if u.Type.Weapons[i].Group == g {
			n++
		}
	}
	return n
}
