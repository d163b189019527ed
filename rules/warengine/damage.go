package warengine

import (
	"fmt"
	"math"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/geom"
)

// damageCheck is the seed's chance-to-damage calculation for one victim of a shot,
// kept step by step so that the trace can show it and the odds reuse it.
type damageCheck struct {
	trace   bool   // keep the steps (Resolve); odds only need the numbers
	victim  string // a unit id, or "x,y" for terrain
	unit    *Unit  // nil for terrain
	square  geom.Square
	skipped string // why no check is made (a weapon of strength 0), or ""

	percent       int // courage + aimed + range band, in percent
	adjusted      float64
	obstacle      int
	afterObstacle float64
	roll          float64 // after the base damage roll
	toughness     int
	direction     string
	cover         int
	chance        float64 // the chance to damage, in percent
	save          int     // save plus the weapon's save modifier, in percent

	steps []volley.Step
}

// step records a step of the calculation. Callers build a step's inputs only when
// c.trace is set, as odds compute thousands of checks nobody reads.
func (c *damageCheck) step(rule string, in map[string]any, result any) {
	c.steps = append(c.steps, volley.Step{Rule: rule, Inputs: in, Result: result})
}

// pDamage is the probability that the d100 damage test passes.
func (c *damageCheck) pDamage() float64 {
	if c.skipped != "" {
		return 0
	}
	return chance(c.chance)
}

// hits is the exact distribution of hits the victim loses, given it is struck.
func (c *damageCheck) hits(w *Weapon) dice.Dist {
	p := c.pDamage() * (1 - chance(float64(c.save)))
	if p == 0 {
		return dice.Const(0)
	}
	return dice.Mixture([]float64{1 - p, p}, []dice.Dist{dice.Const(0), damageRange(w)})
}

// damageRange is the hits of a damaging shot: uniform from the weapon's minimum to its
// maximum, both included.
func damageRange(w *Weapon) dice.Dist {
	return dice.Die(w.Damage[1] - w.Damage[0] + 1).Shift(w.Damage[0] - 1)
}

// checkDamage works out the chance to damage a victim struck by a shot that ended on
// square landing: a unit (u), or the terrain on square sq when u is nil.
func (b *Battle) checkDamage(s *shot, landing geom.Square, u *Unit, sq geom.Square, trace bool) *damageCheck {
	c := &damageCheck{unit: u, square: sq, trace: trace}
	if u != nil {
		c.victim = u.ID
	} else {
		c.victim = squareName(sq)
	}
	w, firer := s.w, s.unit
	if w.Strength == 0 {
		c.skipped = "strength 0: this weapon can never damage"
		if c.trace {
			c.step("damage strength", map[string]any{"weapon": w.Name, "strength": 0}, c.skipped)
		}
		return c
	}
	dist := s.from.Chebyshev(landing)
	// 1. Courage or panic of the firing unit.
	morale, why := b.moraleModifier(firer)
	if c.trace {
		c.step("courage", map[string]any{"unit": firer.ID, "morale": firer.Morale, "status": string(firer.Status)}, signed(morale, why))
	}
	// 2. Aiming at a target within 10 squares per point of size.
	size := firer.Type.Size
	if b.opts.aimedByTarget && u != nil {
		size = u.Type.Size
	}
	aimed := 0
	if s.aiming && dist <= AimedRangePerSize*size {
		aimed = AimedModifier
	}
	if c.trace {
		c.step("aimed and within range", map[string]any{"aiming": s.aiming, "distance": dist, "range": AimedRangePerSize * size}, signed(aimed, ""))
	}
	// 3. The range band's strength bonus or penalty.
	bd, name := band(w, dist)
	if c.trace {
		c.step("range band strength", map[string]any{"band": name, "distance": dist}, signed(bd.Strength, ""))
	}
	// 4. The three percentages, applied to the weapon's damage strength.
	c.percent = morale + aimed + bd.Strength
	c.adjusted = percentOf(float64(w.Strength), 100+c.percent)
	if c.trace {
		c.step("adjusted strength", map[string]any{"strength": w.Strength, "percent": c.percent}, c.adjusted)
	}
	// 5. A strength-based weapon takes the firer's strength modifier.
	if w.StrengthBased {
		before := c.adjusted
		c.adjusted = percentOf(c.adjusted, 100+firer.Type.StrengthModifier)
		if c.trace {
			c.step("strength based", map[string]any{"strength": before, "strength_modifier": firer.Type.StrengthModifier}, c.adjusted)
		}
	}
	// 6. Solid-looking obstacles on the way weaken the shot, unless it flies over them
	// or explodes.
	c.afterObstacle = c.adjusted
	if !w.IgnoresTerrain && !w.Explosive() {
		c.obstacle = b.obstacleSum(s, landing, u)
		c.afterObstacle = percentOf(c.adjusted, max(0, 100-c.obstacle))
		if c.trace {
			c.step("obstacle modifier", map[string]any{"firepower": c.obstacle, "strength": c.adjusted}, c.afterObstacle)
		}
	}
	// 7. The base damage roll.
	c.roll = c.afterObstacle + float64(b.opts.baseDamageRoll)
	if c.trace {
		c.step("base damage roll", map[string]any{"strength": c.afterObstacle, "base": b.opts.baseDamageRoll}, c.roll)
	}
	// 8. Toughness by ammo type and the direction the shot comes from.
	c.chance = c.roll
	if u != nil {
		c.toughness, c.direction = toughness(u, w.Ammo, s.from)
		if c.trace {
			c.step("toughness", map[string]any{"target": u.ID, "ammo": ammoName(w.Ammo), "direction": c.direction, "toughness": c.toughness}, c.roll-float64(c.toughness))
		}
	} else if t := b.terrainAt(sq); t.Toughness != 0 {
		c.toughness = t.Toughness
		if c.trace {
			c.step("toughness", map[string]any{"terrain": t.Name, "toughness": c.toughness}, c.roll-float64(c.toughness))
		}
	}
	c.chance -= float64(c.toughness)
	// 9. Cover, unless the shot flies over or explodes.
	if u != nil && !w.IgnoresTerrain && !w.Explosive() && b.opts.cover != CoverOff {
		var from geom.Square
		c.cover, from = b.coverModifier(s, landing, u)
		c.chance -= float64(c.cover)
		if c.trace {
			c.step("cover", map[string]any{"rule": string(b.opts.cover), "square": squareName(from), "firepower": c.cover}, c.chance)
		}
	}
	c.save = b.saveOf(u, sq) + w.SaveModifier
	return c
}

// percentOf is v × pct / 100, computed in that order so that whole numbers stay exact
// (40 × 120 / 100 is 48, where 40 × 1.2 is not quite).
func percentOf(v float64, pct int) float64 { return v * float64(pct) / 100 }

func signed(v int, why string) string {
	if why == "" {
		return fmt.Sprintf("%+d%%", v)
	}
	return fmt.Sprintf("%+d%% %s", v, why)
}

func ammoName(a string) string {
	if a == "" {
		return "default"
	}
	return a
}

// obstacleSum tallies the firepower of every square strictly between the weapon and the
// victim whose terrain blocks sight (visibility 100).
func (b *Battle) obstacleSum(s *shot, landing geom.Square, u *Unit) int {
	sum := 0
	b.walk(s.from, landing, func(q geom.Square) bool {
		if q == landing || s.unit.covers(q) || (u != nil && u.covers(q)) || !b.onMap(q) {
			return true
		}
		if t := b.terrainAt(q); t.Visibility >= OpaqueVisibility {
			sum += t.Firepower
		}
		return true
	})
	return sum
}

// coverModifier is the "diminishes firepower" of the square that covers the victim,
// by the cover option, and that square.
func (b *Battle) coverModifier(s *shot, landing geom.Square, u *Unit) (int, geom.Square) {
	var q geom.Square
	switch b.opts.cover {
	case CoverOccupied:
		q = landing
	case CoverFacing:
		// One step beyond the footprint, straight ahead of the unit's centre.
		dx, dy := u.Facing.Step()
		q = u.centre()
		for u.covers(q) {
			q = q.Add(dx, dy)
		}
	default:
		// In front as the firer sees it: the last square on the line of fire before it
		// enters the unit, if that is not the firer's own.
		found := false
		b.walk(s.from, landing, func(c geom.Square) bool {
			if u.covers(c) {
				return false
			}
			q, found = c, !s.unit.covers(c)
			return true
		})
		if !found {
			return 0, landing // nothing between: the firer is next to the target
		}
	}
	if !b.onMap(q) {
		return 0, q
	}
	return b.terrainAt(q).Firepower, q
}

// toughness is a unit's toughness against an ammo type from the direction of the
// weapon's square, seen from the middle of the unit: front within 45° of its facing, rear within 45° of straight behind,
// side otherwise. The "default" entry serves ammo types not listed.
func toughness(u *Unit, ammo string, from geom.Square) (int, string) {
	t, ok := u.Type.Toughness[ammo]
	if !ok {
		t = u.Type.Toughness["default"]
	}
	// From the true middle of the footprint, so that an even-sized unit is not skewed.
	diff := math.Abs(geom.AngleDiff(u.Facing.Degrees(), geom.Bearing(u.middle(), from.Centre())))
	switch {
	case u.covers(from) || diff <= FrontHalfArc+geom.AngleTolerance:
		return t.Front, "front"
	case diff >= 180-RearHalfArc-geom.AngleTolerance:
		return t.Rear, "rear"
	}
	return t.Side, "side"
}

// saveOf is the save of a unit, or of the terrain on a square.
func (b *Battle) saveOf(u *Unit, sq geom.Square) int {
	if u != nil {
		return u.Type.Save
	}
	return b.terrainAt(sq).Save
}

// victims are what a shot ending on square landing strikes: for an explosive weapon
// every unit with a square in the blast and every square of terrain in it that can be
// knocked down, under a unit or not; otherwise the unit on the square, or else its
// terrain if that can be knocked down.
//
// A weapon that heals or stuns strikes units only: terrain has nothing to heal and
// nothing to stun.
func (b *Battle) victims(s *shot, landing geom.Square) (units []*Unit, terrain []geom.Square) {
	unitsOnly := b.effect(s.w) != damages
	if !s.w.Explosive() {
		if u := b.unitAt(landing); u != nil {
			return []*Unit{u}, nil
		}
		if b.terrainAt(landing).Hits > 0 && !unitsOnly {
			return nil, []geom.Square{landing}
		}
		return nil, nil
	}
	r := s.w.Blast
	for i := range b.units {
		if u := &b.units[i]; !u.Destroyed() && u.reach(landing) <= r {
			units = append(units, u)
		}
	}
	if unitsOnly {
		return units, nil
	}
	for y := max(0, landing.Y-r); y <= min(b.height-1, landing.Y+r); y++ {
		for x := max(0, landing.X-r); x <= min(b.width-1, landing.X+r); x++ {
			q := geom.Sq(x, y)
			if b.terrainAt(q).Hits > 0 {
				terrain = append(terrain, q)
			}
		}
	}
	return units, terrain
}
