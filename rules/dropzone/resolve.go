package dropzone

import (
	"context"
	"fmt"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rules"
)

// endTurn ends the side's turn: no squad is activated in the next side's, and the
// deployment of a battle begun before edition 5 is over.
func (b *Battle) endTurn() []volley.Step {
	b.act = activation{}
	b.table.Deploying = false
	return b.turns.End()
}

// Resolve rolls a shooting action and applies the damage. The dice are rolled in the
// seed's order for the whole squad at once: every to-hit die, then a damage die per hit,
// then a passive countermeasure die per damage point; damage is then resolved target by
// target. An action with a shot that cannot be taken is refused and changes nothing.
//
// A squad shoots in its side's turn, once a turn (volley's order of play, see
// volley.Turns); end_turn passes the turn to the next side.
func (b *Battle) Resolve(ctx context.Context, a volley.Action, d *dice.Stream) (volley.Outcome, error) {
	if out, ok, err := rules.ResolveTurnAction(ctx, Name, &b.table, a, d, b.endTurn, b.resolveMove, b.resolveDeploy); ok {
		return out, err
	}
	sq := mustShooting(a)
	if err := b.shootCheck(sq); err != nil {
		return volley.Outcome{}, fmt.Errorf("dropzone: %w", err)
	}
	shots, err := b.plan(ctx, b.measured(sq))
	if err != nil {
		return volley.Outcome{}, err
	}
	var bad []string
	for i := range shots {
		if s := &shots[i]; !s.ok() {
			bad = append(bad, fmt.Sprintf("%s's %s at %s is %s: %s", s.Shooter, s.Weapon, s.Target, s.aim.Status, s.aim.Reason))
		}
	}
	if len(bad) > 0 {
		return volley.Outcome{}, volley.Errorf(volley.EINVALID, "dropzone: the squad cannot shoot as declared:\n  - %s", strings.Join(bad, "\n  - "))
	}

	r := resolution{battle: b, dice: d, out: volley.Outcome{Trace: []volley.Step{}, Targets: []volley.TargetResult{}}}
	if b.moves {
		// The facts of movement the shot reads, as measured from the moves (or stated).
		m := b.measured(sq)
		in := map[string]any{"squad": sq.Squad}
		for id, d := range m.Moved {
			in["moved "+id] = roundLength(d, b.unit)
		}
		var facts []string
		switch {
		case m.OutOfCoherency:
			facts = append(facts, "out of coherency (+1 to hit)")
		case len(b.squadUnits(sq.Squad)) < 2:
		case b.options.Coherency <= 0:
			facts = append(facts, "coherency not measured (the scenario gives no coherency distance)")
		default:
			facts = append(facts, "in coherency")
		}
		if sq.stated.coherency {
			facts[len(facts)-1] += " as the action states"
		}
		if m.Disembarked {
			facts = append(facts, "disembarked this activation (+2 to hit)")
		}
		if len(m.Moved) == 0 {
			facts = append(facts, "no unit has moved this activation")
		}
		r.step("Check Movement", in, strings.Join(facts, "; "))
	}
	hitsOf := make([]int, len(shots))
	for i := range shots {
		hitsOf[i] = r.rollToHit(&shots[i])
	}
	damage := map[string]int{}
	hits := map[string]int{}
	var order []string
	for i := range shots {
		s := &shots[i]
		if _, seen := hits[s.Target]; !seen {
			order = append(order, s.Target)
		}
		hits[s.Target] += hitsOf[i]
		damage[s.Target] += r.rollDamage(s, hitsOf[i])
	}
	// Passive countermeasures come after criticals and Devastator, one die per point.
	for _, id := range order {
		damage[id] = r.passive(id, damage[id])
	}
	// Resolve damage: only now does the battle change, so an error above left it intact.
	for _, id := range order {
		u, _ := b.Unit(id)
		before := u.DamagePoints
		applied := min(damage[id], before)
		u.DamagePoints = before - applied
		step := volley.Step{
			Rule:   "resolve damage",
			Inputs: map[string]any{"target": id, "damage": damage[id], "damage_points": before},
			Result: u.DamagePoints,
		}
		if excess := damage[id] - applied; excess > 0 {
			step.Inputs["discarded"] = excess
		}
		r.out.Trace = append(r.out.Trace, step)
		if u.Destroyed() {
			r.step("destroyed", map[string]any{"target": id}, "removed from the table")
		}
		r.out.Targets = append(r.out.Targets, volley.TargetResult{
			Target: id,
			Measures: map[string]float64{
				MeasureHits:     float64(hits[id]),
				MeasureDamage:   float64(applied),
				"damage_points": float64(u.DamagePoints),
			},
			Destroyed: u.Destroyed(),
		})
	}
	if b.moves {
		b.table.Deploying = false
		b.begin(sq.Squad)
		b.fired(sq)
	}
	r.out.Trace = append(r.out.Trace, b.turns.Acted(sq.Squad)...)
	r.out.Rolls = d.Rolls()
	return r.out, nil
}

// resolution carries one Resolve's dice and trace.
type resolution struct {
	battle *Battle
	dice   *dice.Stream
	out    volley.Outcome
	// damageBy remembers, per target, the damage each weapon did, so passive
	// countermeasures know which weapons they may answer (not energy 13 or more).
	damageBy []weaponDamage
}

type weaponDamage struct {
	target string
	shot   *shot
	points int
}

func (r *resolution) step(rule string, in map[string]any, result any) {
	r.out.Trace = append(r.out.Trace, volley.Step{Rule: rule, Inputs: in, Result: result})
}

// purpose words a die's purpose: what it decides and, from NeedsEdition, what it needs
// (need). A die not recorded gets none, as the odds' simulations roll thousands.
func (r *resolution) purpose(need, format string, args ...any) string {
	if !r.dice.Recording() {
		return ""
	}
	what := fmt.Sprintf(format, args...)
	if !r.battle.needs {
		return what
	}
	return what + ", " + need
}

// hitNeed words what a to-hit die needs: need or more, and a 6 hits whatever the need
// (isHit).
func hitNeed(need int) string {
	if need > AlwaysHitRoll {
		return fmt.Sprintf("needs %d (a %d always hits)", AlwaysHitRoll, AlwaysHitRoll)
	}
	return fmt.Sprintf("needs %d+", max(need, 1))
}

// damageNeed words what a damage die needs: the lowest roll that does any damage
// (damageFor), or that none can.
func damageNeed(energy, armour, devastator int) string {
	for roll := 1; roll <= DieSides; roll++ {
		if damageFor(roll, energy, armour, devastator) > 0 {
			return fmt.Sprintf("damages on %d+", roll)
		}
	}
	return "no roll damages"
}

func label(s *shot) string {
	return fmt.Sprintf("%s %s at %s", s.Shooter, s.Weapon, s.Target)
}

// rollToHit rolls the declaration's shots and returns how many hit.
func (r *resolution) rollToHit(s *shot) int {
	n, isConst := s.weapon.Shots.Const()
	if !isConst {
		n = s.weapon.Shots.Roll(r.dice, "shots: "+label(s))
	}
	in := map[string]any{"unit": s.Shooter, "weapon": s.Weapon, "target": s.Target, "shots": n}
	if s.auto {
		r.step("to-hit", in, fmt.Sprintf("%d automatic hits (accuracy -)", n))
		return n
	}
	// The need is built up one modifier at a time, as the seed's worked example does:
	// 3+, out of coherency makes it 4+, evasion +2 makes it 6+.
	in["accuracy"] = s.weapon.Accuracy.String()
	need := s.weapon.Accuracy.Value
	r.step("to-hit", in, fmt.Sprintf("needs %d+", max(need, 1)))
	for _, m := range s.aim.Modifiers {
		was := need
		need += int(m.Value)
		r.step("to-hit modifier", map[string]any{"unit": s.Shooter, "weapon": s.Weapon, "modifier": m.Rule, "penalty": m.Value, "need": was},
			fmt.Sprintf("needs %d+", max(need, 1)))
	}
	hit := 0
	for i := 1; i <= n; i++ {
		roll := r.dice.Roll(DieSides, r.purpose(hitNeed(s.need), "to-hit: %s, shot %d", label(s), i))
		result := "miss"
		if isHit(roll, s.need) {
			hit++
			result = "hit"
			if roll < s.need {
				result = "hit (a 6 always hits)"
			}
		}
		r.step("to-hit roll", map[string]any{"unit": s.Shooter, "weapon": s.Weapon, "shot": i, "roll": roll, "need": s.need}, result)
	}
	return hit
}

// rollDamage rolls one damage die per hit: D6 + energy against armour.
func (r *resolution) rollDamage(s *shot, hits int) int {
	w, armour := s.weapon, s.target.Type.Armour
	dev := w.Devastator()
	total := 0
	for i := 1; i <= hits; i++ {
		roll := r.dice.Roll(DieSides, r.purpose(damageNeed(w.Energy, armour, dev), "damage: %s, hit %d", label(s), i))
		d := damageFor(roll, w.Energy, armour, dev)
		in := map[string]any{"weapon": s.Weapon, "target": s.Target, "roll": roll, "energy": w.Energy, "total": roll + w.Energy, "armour": armour}
		switch {
		case roll == NoDamageRoll:
			r.step("damage roll", in, "a natural 1 never damages")
		case d == 0:
			r.step("damage roll", in, "below armour: no damage")
		default:
			result := fmt.Sprintf("%d damage", d-dev)
			if d-dev == CriticalDamage {
				result = fmt.Sprintf("critical: %d damage", d-dev)
			}
			r.step("damage roll", in, result)
			if dev > 0 {
				r.step("devastator", map[string]any{"weapon": s.Weapon, "devastator": dev}, fmt.Sprintf("%d damage", d))
			}
		}
		if d > 0 {
			r.damageBy = append(r.damageBy, weaponDamage{target: s.Target, shot: s, points: d})
		}
		total += d
	}
	return total
}

// passive rolls the target's passive countermeasures against each damage point from a
// weapon they can answer, and returns the damage left.
func (r *resolution) passive(target string, damage int) int {
	left := damage
	for _, wd := range r.damageBy {
		if wd.target != target {
			continue
		}
		save := passiveSave(wd.shot.target, wd.shot.weapon)
		if wd.shot.target.Type.Countermeasures.Passive > 0 && save == 0 {
			r.step("passive countermeasures", map[string]any{"target": target, "weapon": wd.shot.Weapon, "energy": wd.shot.weapon.Energy},
				fmt.Sprintf("not usable against energy %d or more", PassiveCountermeasureEnergyLimit))
			continue
		}
		if save == 0 {
			continue
		}
		for i := 1; i <= wd.points; i++ {
			roll := r.dice.Roll(DieSides, r.purpose(fmt.Sprintf("discards on %d+", save), "passive countermeasures: %s against %s, point %d", target, wd.shot.Weapon, i))
			result := "kept"
			if roll >= save {
				result = "discarded"
				left--
			}
			r.step("passive countermeasures", map[string]any{"target": target, "weapon": wd.shot.Weapon, "roll": roll, "need": save}, result)
		}
	}
	return left
}
