package dropzone

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/los"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// shot is one declaration worked out against the battle as it stands: whether it may
// fire, what it needs, and the units and weapon involved.
type shot struct {
	Declaration
	shooter *Unit
	target  *Unit
	weapon  *Weapon
	aim     volley.Aim
	// need is the to-hit roll after modifiers (meaningful unless the weapon hits
	// automatically).
	need int
	auto bool
	// visible is the fraction of the target the firer sees, in [0,1].
	visible float64
}

func (s *shot) ok() bool { return s.aim.Status == volley.StatusOK }

// Aim works out every declared shot of a shooting action.
// Ending a turn aims nothing. Whose turn it is, and whether the squad has shot in it, is
// for Resolve: an aim answers what the shot would need, and notes that it must wait.
func (b *Battle) Aim(ctx context.Context, a volley.Action) ([]volley.Aim, error) {
	s, ok := a.(*Shooting)
	if !ok {
		return nil, nil // ending a turn, a move, a deployment: no shot
	}
	shots, err := b.plan(ctx, b.measured(s))
	if err != nil {
		return nil, err
	}
	wait := b.shootCheck(s)
	aims := make([]volley.Aim, len(shots))
	for i := range shots {
		aims[i] = shots[i].aim
		if wait != nil && aims[i].Status == volley.StatusOK {
			aims[i].Wait(wait.Error())
		}
	}
	return aims, nil
}

func mustShooting(a volley.Action) *Shooting { return rules.Must[*Shooting](Name, a) }

// plan works out every declaration of a in order. The checks follow the seed's sequence:
// movement, then arc and line of sight, then range, then the roll to hit. Line of sight
// between one firer and one target is traced once for the whole action, however many of
// the firer's weapons aim at it. It stops when ctx is done.
func (b *Battle) plan(ctx context.Context, a *Shooting) ([]shot, error) {
	sight := b.newSight(len(a.Declarations))
	shots := make([]shot, len(a.Declarations))
	for i, d := range a.Declarations {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s := &shots[i]
		s.Declaration = d
		s.shooter, _ = b.Unit(d.Shooter)
		s.target, _ = b.Unit(d.Target)
		s.weapon = s.shooter.Type.weapon(d.Weapon)
		s.aim = volley.Aim{
			Shooter:   d.Shooter,
			Weapon:    d.Weapon,
			Target:    d.Target,
			RangeUnit: string(b.unit),
			Modifiers: []volley.Modifier{},
		}
		b.check(a, s, sight)
	}
	return shots, nil
}

// check fills s.aim. It stops at the first rule that forbids the shot.
func (b *Battle) check(a *Shooting, s *shot, sight *sight) {
	sh, tg, w := s.shooter, s.target, s.weapon
	aim := &s.aim
	edge := geom.EdgeDistance(sh.Circle(), tg.Circle())
	aim.Range = roundLength(edge, b.unit)
	for _, sp := range w.Special {
		if sp.Name != SpecialArticulated && sp.Name != SpecialDevastator {
			aim.Notes = append(aim.Notes, fmt.Sprintf("special rule %s is kept as data: volley applies no effect for it", sp))
		}
	}
	fail := func(st volley.AimStatus, format string, args ...any) {
		aim.Status, aim.Reason = st, fmt.Sprintf(format, args...)
	}
	switch {
	case sh.Destroyed():
		fail(volley.StatusNotEligible, "%s is destroyed and cannot shoot", sh.ID)
		return
	case tg.Destroyed():
		fail(volley.StatusNotEligible, "%s is already destroyed (Resolve Damage: destroyed units leave the table)", tg.ID)
		return
	case tg.Side == sh.Side:
		fail(volley.StatusNotEligible, "%s is on %s's own side: shots go at an enemy unit (Allocate Shots)", tg.ID, sh.ID)
		return
	case sh.Embarked != "":
		fail(volley.StatusNotEligible, "%s is embarked in %s: it must move off it (disembark) before it shoots", sh.ID, sh.Embarked)
		return
	case tg.Embarked != "":
		fail(volley.StatusNotEligible, "%s is embarked in %s, not on the table", tg.ID, tg.Embarked)
		return
	}
	// Check Movement: M&F is judged unit by unit.
	if moved := a.Moved[sh.ID]; !w.MoveAndFire.Allows(lengthOf(moved)) {
		fail(volley.StatusNotEligible, "%s moved %s, more than the %s M&F of %s, so it cannot fire it this activation (Check Movement)",
			sh.ID, b.formatLength(moved), w.Name, b.formatLength(w.MoveAndFire.Max.Inches()))
		return
	}
	sameGarrison := sh.Garrison != "" && sh.Garrison == tg.Garrison
	if w.FullRange.Kind == RangeCloseQuarters {
		if !sameGarrison {
			fail(volley.StatusOutOfRange, "%s is a Close Quarters weapon: the target must be in the same garrison as %s", w.Name, sh.ID)
			return
		}
		b.toHit(a, s, 1)
		return
	}
	// Check Weapon Arcs: the centre of the target must lie in the arc.
	if !w.Arc.Contains(sh.Facing, sh.At, tg.At) {
		q := geom.Quadrants(sh.Facing, sh.At, tg.At)
		fail(volley.StatusOutOfArc, "the centre of %s is in %s's %s arc; %s fires %s (Check Weapon Arcs)",
			tg.ID, sh.ID, arcWords(q), w.Name, w.Arc.Arc)
		return
	}
	// Line of sight: units in one garrison see each other.
	visible := 1.0
	if !sameGarrison {
		var blockers []string
		visible, blockers = sight.visibleFraction(s)
		if visible == 0 {
			fail(volley.StatusBlocked, "no line of sight from %s to %s: %s in the way (Check Line of Sight)", sh.ID, tg.ID, strings.Join(blockers, ", "))
			return
		}
	}
	s.visible = visible
	// Measure range: R(C) against active countermeasures, R(F) otherwise; base contact is
	// always in range.
	rng, rngName, why := w.FullRange, "full range R(F)", ""
	if tg.Type.Countermeasures.Active {
		rng, rngName, why = w.CounteredRange, "countered range R(C)", fmt.Sprintf(", used because %s has active countermeasures", tg.ID)
	}
	contact := sh.Circle().Touches(tg.Circle(), b.options.ContactTolerance.Inches())
	if !contact && !rng.Reaches(edge) {
		if rng.Kind == RangeNone {
			fail(volley.StatusOutOfRange, "%s has no %s (-)%s, so only a target in base contact is in range (Measure Range)",
				w.Name, rngName, why)
			return
		}
		fail(volley.StatusOutOfRange, "%s is %s away, beyond the %s %s%s (Measure Range)",
			tg.ID, b.formatLength(edge), rng.display(b), rngName, why)
		return
	}
	if visible < 1 && !b.hullDown(visible) {
		aim.Notes = append(aim.Notes, fmt.Sprintf("%s sees %s of %s: not hull down", sh.ID, percentOf(visible), tg.ID))
	}
	b.toHit(a, s, visible)
	if contact {
		aim.Reason += "; in base contact, so in range"
	}
}

// toHit adds the to-hit modifiers and the chance.
func (b *Battle) toHit(a *Shooting, s *shot, visible float64) {
	w, aim := s.weapon, &s.aim
	aim.Status = volley.StatusOK
	aim.Die = DieSides
	aim.Shots = s.weapon.Shots.Dist().Mean()
	if w.Accuracy.Auto {
		s.auto = true
		aim.PHit, aim.Need, aim.Auto = 1, 0, true
		aim.Reason = fmt.Sprintf("%s hits automatically (accuracy -)", w.Name)
		return
	}
	add := func(rule string, v int) {
		aim.Modifiers = append(aim.Modifiers, volley.Modifier{Rule: rule, Value: float64(v)})
		s.need += v
	}
	s.need = w.Accuracy.Value
	if b.hullDown(visible) {
		add(fmt.Sprintf("hull down: %s sees %s of %s", s.shooter.ID, percentOf(visible), s.target.ID), HullDownPenalty)
	}
	if a.OutOfCoherency {
		add("squad out of coherency", OutOfCoherencyPenalty)
	}
	if a.Disembarked {
		add("squad disembarked this activation", DisembarkedPenalty)
	}
	if e := s.target.Type.Countermeasures.Evasion; e != 0 {
		add(fmt.Sprintf("%s's evasion countermeasures", s.target.ID), e)
	}
	aim.Need = float64(effectiveNeed(s.need))
	aim.PHit = hitChance(s.need)
	var terms []string
	terms = append(terms, "accuracy "+w.Accuracy.String())
	for _, m := range aim.Modifiers {
		terms = append(terms, fmt.Sprintf("%+g %s", m.Value, m.Rule))
	}
	switch {
	case s.need > AlwaysHitRoll:
		aim.Reason = fmt.Sprintf("needs %d+, which only the always-hit 6 reaches: %s", s.need, strings.Join(terms, ", "))
	default:
		aim.Reason = fmt.Sprintf("needs %d+ to hit: %s", max(s.need, 1), strings.Join(terms, ", "))
	}
}

// effectiveNeed is the need as a player says it: the lowest face that hits. Modifiers
// may push the sum past 6 (then only the always-hit 6 hits) or below 1 (any roll hits).
func effectiveNeed(need int) int { return min(max(need, 1), AlwaysHitRoll) }

// isHit reports whether a to-hit roll succeeds against need: equal or over, and a 6
// always hits.
func isHit(roll, need int) bool { return roll >= need || roll == AlwaysHitRoll }

// hitChance is the probability that one D6 hits against need.
func hitChance(need int) float64 {
	n := 0
	for r := 1; r <= DieSides; r++ {
		if isHit(r, need) {
			n++
		}
	}
	return float64(n) / DieSides
}

// eyes are the points a unit may draw line of sight from with a weapon: the top of the
// model above its centre, and for an Articulated weapon also a point 1" above the middle
// of the model (or above its top, with articulated_from: top).
func (b *Battle) eyes(u *Unit, w *Weapon) []los.Point3 {
	top := u.Elevation + u.Type.Height.Inches()
	eyes := []los.Point3{los.P3(u.At, top)}
	if w.Has(SpecialArticulated) {
		z := top + ArticulatedRise
		if b.options.ArticulatedFrom == ArticulatedFromCentre {
			z = u.Elevation + u.Type.Height.Inches()/2 + ArticulatedRise
		}
		eyes = append(eyes, los.P3(u.At, z))
	}
	return eyes
}

// basePolygonSides is how many sides the polygon standing in for a round base has when
// models block line of sight.
const basePolygonSides = 16

// circlePolygon approximates a base by a regular polygon inscribed in it.
func circlePolygon(c geom.Circle, n int) geom.Polygon {
	p := make(geom.Polygon, n)
	for i := range p {
		a := 2 * math.Pi * float64(i) / float64(n)
		p[i] = geom.V(c.C.X+c.R*math.Cos(a), c.C.Y+c.R*math.Sin(a))
	}
	return p
}

func arcWords(q geom.Arc) string {
	var w []string
	if q&geom.ArcFront != 0 {
		w = append(w, "front")
	}
	if q&geom.ArcRight != 0 {
		w = append(w, "right side")
	}
	if q&geom.ArcRear != 0 {
		w = append(w, "rear")
	}
	if q&geom.ArcLeft != 0 {
		w = append(w, "left side")
	}
	return strings.Join(w, "/")
}

func lengthOf(inches float64) scenario.Length { return scenario.Inches(inches) }
