package republique

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rules"
)

// record gathers a resolution's trace; a nil record (simulation) keeps nothing.
type record = rules.Record

// Aim says, for every battery of a fire, whether it may fire at the target and why not
// (with the main target the rules force instead), every modifier and the true chance to
// score; for a skirmish marker the same; for the end of a step, each leader's test.
func (b *Battle) Aim(ctx context.Context, a volley.Action) ([]volley.Aim, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	switch a := a.(type) {
	case *Fire:
		v := b.fireView(a)
		when, wait := ArtillerySegment, ""
		if a.Passing {
			when = Maneuver
		}
		if v.phase.step != when {
			// Aimed in another step: worked out as the fire would be in its own, on the
			// table as it stands, and marked not now.
			c := *v
			c.phase.step, v = when, &c
			wait = b.whenFire(&Unit{}, a.Passing)
		}
		return b.waitAims(v.fireAims(v.plan(a)), wait, a.Passing), nil
	case *SkirmishFire:
		v, wait := b, ""
		if b.phase.step != Skirmish {
			c := *b
			c.phase.step, v = Skirmish, &c
			wait = fmt.Sprintf("skirmishers fire in the skirmish fire step, and this is the %s step", b.phase.step)
		}
		return b.waitAims([]volley.Aim{v.planSkirmish(a).aim}, wait, false), nil
	case *Move, *Deploy, *Decline, *volley.DeploymentEnd:
		return []volley.Aim{}, nil // no shot
	case *Save:
		var out []volley.Aim
		v := b.saveView(a)
		for _, id := range a.Batteries {
			aim := volley.Aim{Shooter: id, Weapon: "saved fire", Status: volley.StatusOK, Reason: "may save its fire: its next fire has its fire points doubled", Modifiers: []volley.Modifier{}}
			if why := v.maySave(v.Unit(id)); why != "" {
				aim.Status, aim.Reason = volley.StatusNotEligible, why
			}
			out = append(out, aim)
		}
		return out, nil
	case *Oppose:
		aim := volley.Aim{Shooter: b.phasing(), Weapon: "opposed skirmishers", Status: volley.StatusOK, Reason: "the pairing is valid", Modifiers: []volley.Modifier{}}
		if why := b.checkOppose(a); why != "" {
			aim.Status, aim.Reason = volley.StatusNotEligible, why
		}
		return []volley.Aim{aim}, nil
	case *EndStep:
		return b.endAims(), nil
	}
	return nil, volley.Errorf(volley.EINVALID, "republique: not an action of this system")
}

// waitAims marks the aims of a shot that may not be taken now, though the rules would
// take it as aimed: wait says why (another step), else the deployment under way or play
// waiting on an answer to a move (for a shot that is not that answer).
func (b *Battle) waitAims(aims []volley.Aim, wait string, answer bool) []volley.Aim {
	if wait == "" {
		if err := b.table.CheckBegun(); err != nil {
			wait = volley.ErrorMessage(err)
		} else if b.moves && b.phase.window != nil && !answer {
			wait = b.waiting()
		}
	}
	if wait == "" {
		return aims
	}
	for i := range aims {
		if aims[i].Status == volley.StatusOK {
			aims[i].Wait(wait)
		}
	}
	return aims
}

// endAims are the leader tests ending the artillery segment would roll.
func (b *Battle) endAims() []volley.Aim {
	out := []volley.Aim{}
	if b.phase.step != ArtillerySegment {
		return out
	}
	for _, t := range b.injuryTests() {
		_, i, k := b.injuryOdds(t)
		need := 0
		for face := D10; face >= 1; face-- {
			if b.charts.injury(face+t.sum) != Unhurt {
				need = face
			}
		}
		out = append(out, volley.Aim{Shooter: t.l.ID, Weapon: "leader injury", Target: t.l.ID, Status: volley.StatusOK, Reason: t.why,
			Modifiers: append([]volley.Modifier{}, t.mods...), Die: D10, PHit: i + k, Need: float64(need),
			Notes: []string{fmt.Sprintf("modified d10 = d10 %+d on the leader injury chart: killed %.0f%%, injured %.0f%%", t.sum, k*100, i*100)}})
	}
	return out
}

// maySave is why a battery may not save its fire now, or "".
func (b *Battle) maySave(u *Unit) string {
	switch {
	case b.phase.step != ArtillerySegment:
		return fmt.Sprintf("saved fire is announced at the start of the artillery fire segment, and this is the %s step", b.phase.step)
	case u.Destroyed():
		return u.ID + " is destroyed"
	case u.SavedFire:
		return u.ID + " already has a saved fire marker: a battery holds one at most"
	case u.Morale != 0:
		return fmt.Sprintf("%s is %s: only ordered batteries may save fire", u.ID, b.moraleName(u.Morale))
	case u.Moved:
		return u.ID + " is not stationary: only stationary batteries may save fire"
	case u.Limbered:
		return u.ID + " is limbered: only a stationary battery in action (unlimbered) may save fire"
	case u.Outside:
		return u.ID + " is out of command radius and may not save fire"
	case slices.Contains(b.phase.passed, u.ID):
		return u.ID + " conducted passing fire and does not receive saved fire for the phase it misses"
	case slices.Contains(b.phase.done, u.ID):
		return u.ID + " has fired or saved fire this player turn already"
	}
	return ""
}

// Odds gives the exact distribution of an action's outcomes.
func (b *Battle) Odds(ctx context.Context, a volley.Action) (volley.Odds, error) {
	if err := ctx.Err(); err != nil {
		return volley.Odds{}, err
	}
	switch a := a.(type) {
	case *Fire:
		v := b.fireView(a)
		return v.fireOdds(v.plan(a)), nil
	case *SkirmishFire:
		return b.skirmishOdds(a), nil
	case *EndStep:
		o := volley.Odds{Aims: b.endAims(), Targets: []volley.TargetOdds{}, Values: map[string]float64{}}
		if b.phase.step == ArtillerySegment {
			// The leader tests follow the segment's damage: work them out on a copy.
			c := b.copy()
			c.applyPending(nil)
			o.Aims = c.endAims()
			for _, t := range c.injuryTests() {
				u, i, k := c.injuryOdds(t)
				d := distOf(map[int]float64{0: u, 1: i, 2: k})
				o.Targets = append(o.Targets, volley.TargetOdds{Target: t.l.ID, Distributions: map[string]dice.Dist{"injury": d}, Mean: map[string]float64{"injury": d.Mean()}, PDestroyed: i + k})
				o.Values["p_killed:"+t.l.ID] = k
				o.Values["p_injured:"+t.l.ID] = i
			}
		}
		return o, nil
	}
	aims, err := b.Aim(ctx, a)
	return volley.Odds{Aims: aims, Targets: []volley.TargetOdds{}, Values: map[string]float64{}}, err
}

// saveView is the battle a save is worked out on: b, or a copy in which its batteries
// stand as the action states.
func (b *Battle) saveView(a *Save) *Battle {
	if len(a.stated) == 0 {
		return b
	}
	c := b.copy()
	c.state(a.stated)
	return c
}

// copy is a deep copy of the battle's changing state.
func (b *Battle) copy() *Battle {
	c := *b
	c.units = slices.Clone(b.units)
	for i := range c.units {
		c.units[i].Bases = slices.Clone(c.units[i].Bases)
	}
	c.leaders = slices.Clone(b.leaders)
	c.markers = slices.Clone(b.markers)
	c.phase = b.phase.clone()
	c.table = b.table.Clone()
	return &c
}

// Resolve rolls an action and applies it. Nothing changes if the action is refused.
func (b *Battle) Resolve(ctx context.Context, a volley.Action, d *dice.Stream) (volley.Outcome, error) {
	if err := ctx.Err(); err != nil {
		return volley.Outcome{}, err
	}
	if b.charts == nil {
		return volley.Outcome{}, volley.Errorf(volley.EINVALID, "republique: the battle has no charts")
	}
	r := &record{}
	out := volley.Outcome{Targets: []volley.TargetResult{}}
	switch a.(type) {
	case *Deploy, *volley.DeploymentEnd:
	default:
		// From edition 5 the battle begins once every side has deployed.
		if err := b.table.CheckBegun(); err != nil {
			return out, fmt.Errorf("republique: %w", err)
		}
	}
	if b.moves && b.phase.window != nil {
		// The phasing player's movement pauses for the enemy's answer to a move.
		f, passing := a.(*Fire)
		if _, decline := a.(*Decline); !decline && !(passing && f.Passing) {
			return out, volley.Errorf(volley.ECONFLICT, "republique: %s", b.waiting())
		}
	}
	switch a := a.(type) {
	case *Move:
		o, err := b.resolveMove(a)
		if err != nil {
			return out, err
		}
		r.Steps = o.Trace
	case *Deploy:
		o, err := b.resolveDeploy(a)
		if err != nil {
			return out, err
		}
		r.Steps = o.Trace
	case *volley.DeploymentEnd:
		steps, err := b.table.EndDeployment()
		if err != nil {
			return out, fmt.Errorf("republique: %w", err)
		}
		r.Steps = steps
	case *Decline:
		if err := b.resolveDecline(r); err != nil {
			return out, err
		}
	case *Fire:
		v := b.fireView(a)
		p := v.plan(a)
		if !p.ok {
			return out, refusal(v.fireAims(p))
		}
		if a.Die != 0 {
			return out, volley.Errorf(volley.EINVALID, "republique: die: a fixed die is for aim and odds; resolving rolls it")
		}
		if v != b {
			p.rebind(b)
		}
		if b.moves {
			var passing *Fire
			if a.Passing {
				passing = a
			}
			r.Steps = append(r.Steps, b.movementStep(v, a.Batteries, a.stated, passing))
		}
		for _, bp := range p.bats {
			if bp.disorder != "" {
				read, when := b.disorderRead(bp.bat, a.Passing)
				r.Step("disordered+", map[string]any{"battery": bp.bat.ID, "morale_read": b.moraleName(read), "read": when, "morale_now": b.moraleName(bp.bat.Morale)}, bp.disorder)
			}
		}
		face := d.Roll(D10, rules.Purpose(d, "artillery fire: %s at %s", strings.Join(a.Batteries, "+"), p.target.ID))
		die, h, eff := p.roll(b, face)
		r.Step("artillery fire", map[string]any{"batteries": strings.Join(a.Batteries, "+"), "target": p.target.ID, "fire_points": p.points,
			"d10": face, "die_modifier": p.dieSum}, fmt.Sprintf("modified %d on the %g-point column: %s", die, p.points, h))
		from := p.bats[0].bat.Bases[0]
		for i, u := range p.hit {
			role := "main target"
			switch {
			case i > 0 && i <= p.tandems:
				role = "tandem target"
			case i > p.tandems:
				role = "adjacent target"
			}
			r.Step(role, map[string]any{"unit": u.ID, "can_lose": p.caps[i]}, fmt.Sprintf("%d morale hit(s), %d base hit(s)", eff[i].Morale, eff[i].Bases))
		}
		for _, bp := range p.bats {
			b.phase.done = append(b.phase.done, bp.bat.ID)
			if bp.bat.SavedFire {
				bp.bat.SavedFire = false
				r.Step("saved fire", map[string]any{"battery": bp.bat.ID}, "spent")
			}
		}
		// Only a fire with a modified chance to score puts nearby leaders at risk.
		if pHit, _ := p.chance(b); pHit > 0 && !a.Passing && !slices.Contains(b.phase.firedUpon, p.target.ID) {
			b.phase.firedUpon = append(b.phase.firedUpon, p.target.ID)
		}
		if a.Passing {
			b.phase.passed = append(b.phase.passed, a.Batteries...)
		}
		for i, u := range p.hit {
			b.addPending(u.ID, eff[i].Morale, eff[i].Bases, &from)
		}
		if a.Passing {
			// Passing fire happens during the enemy's movement, not in the simultaneous
			// segment: it takes effect at once.
			b.applyPending(r)
			if b.moves {
				b.closeWindow(r)
			}
		} else if b.moves {
			// A battery that prolonged in the movement before has lost simultaneous fire
			// against enemy artillery: its hits take effect at once.
			for _, u := range p.hit {
				if pend := b.pendingFor(u.ID); u.Battery() && b.phase.prolonged[u.ID] > 0 && (pend.Morale > 0 || pend.Bases > 0) {
					r.Step("prolonged", map[string]any{"battery": u.ID}, u.ID+" prolonged in the movement before: enemy artillery's hits on it take effect at once, not at the end of the segment")
					b.applyUnit(u.ID, r)
				}
			}
		}
		for i, u := range p.hit {
			pend := b.pendingFor(u.ID)
			m := map[string]float64{MeasureMorale: float64(eff[i].Morale), MeasureBases: float64(eff[i].Bases)}
			if !a.Passing {
				m["pending_morale_hits"], m["pending_base_hits"] = float64(pend.Morale), float64(pend.Bases)
			}
			out.Targets = append(out.Targets, volley.TargetResult{Target: u.ID, Measures: m, Destroyed: u.Destroyed() || pend.Bases >= u.Capacity()})
		}
	case *SkirmishFire:
		p := b.planSkirmish(a)
		if p.aim.Status != volley.StatusOK {
			return out, refusal([]volley.Aim{p.aim})
		}
		if a.Die != 0 {
			return out, volley.Errorf(volley.EINVALID, "republique: die: a fixed die is for aim and odds; resolving rolls it")
		}
		if !b.phase.paired {
			b.phase.pairs, b.phase.paired = b.defaultPairs(), true
			r.Step("opposed skirmishers", map[string]any{"pairing": "closest first"}, pairText(b.phase.pairs))
		}
		face := d.Roll(D10, rules.Purpose(d, "skirmish fire: %s at %s", a.Marker, a.Target))
		hits := b.charts.Skirmish.morale(p.bracket, face)
		r.Step("skirmish fire", map[string]any{"marker": a.Marker, "target": a.Target, "range": b.charts.Skirmish.Ranges[p.bracket].Name, "d10": face}, fmt.Sprintf("%d morale hit(s)", hits))
		b.phase.done = append(b.phase.done, a.Marker)
		if !slices.Contains(b.phase.firedUpon, a.Target) {
			b.phase.firedUpon = append(b.phase.firedUpon, a.Target)
		}
		if hits > 0 && !slices.Contains(b.phase.skirmished, a.Target) {
			b.phase.skirmished = append(b.phase.skirmished, a.Target)
		}
		b.addPending(a.Target, hits, 0, nil)
		out.Targets = append(out.Targets, volley.TargetResult{Target: a.Target, Measures: map[string]float64{MeasureMorale: float64(hits), "pending_morale_hits": float64(b.pendingFor(a.Target).Morale)}})
	case *Save:
		v := b.saveView(a)
		for _, id := range a.Batteries {
			if why := v.maySave(v.Unit(id)); why != "" {
				return out, volley.Errorf(volley.EINVALID, "republique: %s may not save fire: %s", id, why)
			}
		}
		if b.moves {
			r.Steps = append(r.Steps, b.movementStep(v, a.Batteries, a.stated, nil))
		}
		for _, id := range a.Batteries {
			b.Unit(id).SavedFire = true
			b.phase.done = append(b.phase.done, id)
			r.Step("saved fire", map[string]any{"battery": id}, "a saved fire marker is placed; the battery does not fire this phase")
		}
	case *Oppose:
		if why := b.checkOppose(a); why != "" {
			return out, volley.Errorf(volley.EINVALID, "republique: %s", why)
		}
		b.phase.pairs, b.phase.paired = slices.Clone(a.Pairs), true
		r.Step("opposed skirmishers", map[string]any{"declared_by": b.phasing()}, pairText(a.Pairs))
	case *EndStep:
		b.endStep(d, r)
	default:
		return out, volley.Errorf(volley.EINVALID, "republique: not an action of this system")
	}
	switch a.(type) {
	case *Deploy, *volley.DeploymentEnd:
	default:
		b.table.Deploying = false // before edition 5 the first other action ends the deployment
	}
	out.Rolls = d.Rolls()
	out.Trace = r.Steps
	return out, nil
}

func pairText(ps [][2]string) string {
	if len(ps) == 0 {
		return "no markers opposed"
	}
	var s []string
	for _, p := range ps {
		s = append(s, p[0]+"–"+p[1])
	}
	return strings.Join(s, ", ")
}

// refusal is the error of an action that cannot be taken, with each reason.
func refusal(aims []volley.Aim) error {
	var bad []string
	for _, a := range aims {
		if a.Status != volley.StatusOK {
			s := fmt.Sprintf("%s at %s is %s: %s", a.Shooter, a.Target, a.Status, a.Reason)
			if a.Target == "" { // refused before a target is chosen
				s = fmt.Sprintf("%s is %s: %s", a.Shooter, a.Status, a.Reason)
			}
			bad = append(bad, s)
		}
	}
	if len(bad) == 0 {
		bad = append(bad, "no battery may fire")
	}
	return volley.Errorf(volley.EINVALID, "republique: the fire cannot be made as declared:\n  - %s", strings.Join(bad, "\n  - "))
}

// addPending adds hits that take effect at the end of the step.
func (b *Battle) addPending(id string, morale, bases int, from *Rect) {
	if morale == 0 && bases == 0 {
		return
	}
	for i := range b.phase.pending {
		p := &b.phase.pending[i]
		if p.Unit == id {
			p.Morale += morale
			p.Bases += bases
			if p.From == nil && bases > 0 {
				p.From = from
			}
			return
		}
	}
	ph := pendingHits{Unit: id, Morale: morale, Bases: bases}
	if bases > 0 {
		ph.From = from
	}
	b.phase.pending = append(b.phase.pending, ph)
}

// applyPending applies the step's hits: base hits remove bases (nearest the firer
// first; a battery's first base hit damages it), and each morale hit lowers morale one
// step, or is a panic hit for a unit that began the phase demoralized.
func (b *Battle) applyPending(r *record) {
	for _, p := range b.phase.pending {
		b.applyHits(p, r)
	}
	b.phase.pending = nil
}

// applyUnit applies the hits pending against one unit at once.
func (b *Battle) applyUnit(id string, r *record) {
	i := slices.IndexFunc(b.phase.pending, func(p pendingHits) bool { return p.Unit == id })
	if i < 0 {
		return
	}
	p := b.phase.pending[i]
	b.phase.pending = slices.Delete(b.phase.pending, i, i+1)
	b.applyHits(p, r)
}

// applyHits applies one unit's hits.
func (b *Battle) applyHits(p pendingHits, r *record) {
	u := b.Unit(p.Unit)
	if u == nil {
		return
	}
	lost := 0
	for range p.Bases {
		if u.Destroyed() {
			break
		}
		if u.Battery() && !u.Damaged {
			u.Damaged = true
			r.Step("base hit", map[string]any{"unit": u.ID}, "damaged")
			continue
		}
		i := 0
		if p.From != nil {
			for j := range u.Bases {
				if rectDist(*p.From, u.Bases[j]) < rectDist(*p.From, u.Bases[i])-geom.Tolerance {
					i = j
				}
			}
		}
		if u.CombatBases() { // batteries' bases are not combat bases
			b.phase.lost = append(b.phase.lost, lostBase{Unit: u.ID, Side: u.Side, R: u.Bases[i]})
		}
		u.Bases = slices.Delete(u.Bases, i, i+1)
		if w := b.phase.window; w != nil && w.mover == u.ID && i < len(w.start) {
			w.start = slices.Delete(w.start, i, i+1) // where it stood, for the next battery
		}
		lost++
	}
	if lost > 0 {
		res := fmt.Sprintf("%d base(s) removed, %d left", lost, len(u.Bases))
		if u.Destroyed() {
			res += ": destroyed"
		}
		r.Step("base hits", map[string]any{"unit": u.ID, "hits": p.Bases}, res)
	}
	if p.Morale > 0 && !u.Destroyed() {
		if slices.Contains(b.phase.demoralized, u.ID) {
			if b.phase.panic == nil {
				b.phase.panic = map[string]int{}
			}
			b.phase.panic[u.ID] += p.Morale
			r.Step("panic hits", map[string]any{"unit": u.ID, "morale_hits": p.Morale}, fmt.Sprintf("%s began the phase demoralized: %d panic hit(s) pending (the Panic section is not part of this phase)", u.ID, p.Morale))
		} else {
			was := u.Morale
			u.Morale = min(u.Morale+p.Morale, len(b.ladder)-1)
			r.Step("morale hits", map[string]any{"unit": u.ID, "hits": p.Morale, "was": b.moraleName(was)}, b.moraleName(u.Morale))
		}
	}
}

// endStep ends the current step: skirmish results take effect at the end of the skirmish
// step; artillery results at the end of the segment, followed by the leader injury
// tests; then the next player's turn begins.
func (b *Battle) endStep(d *dice.Stream, r *record) {
	p := &b.phase
	switch p.step {
	case Maneuver:
		p.step = Skirmish
		p.demoralized = nil
		for i := range b.units {
			if b.units[i].Morale >= b.demoralized() && !b.units[i].Destroyed() {
				p.demoralized = append(p.demoralized, b.units[i].ID)
			}
		}
		p.firedUpon, p.skirmished, p.pairs, p.paired = nil, nil, nil, false
		r.Step("end of step", map[string]any{"step": string(Maneuver)}, "the skirmish fire step begins")
	case Skirmish:
		b.applyPending(r)
		p.step = ArtillerySegment
		b.beginSegment()
		r.Step("end of step", map[string]any{"step": string(Skirmish)}, "skirmish results take effect; the artillery fire segment begins")
	case ArtillerySegment:
		b.applyPending(r)
		for _, t := range b.injuryTests() {
			face := d.Roll(D10, rules.Purpose(d, "leader injury: %s", t.l.ID))
			res := b.charts.injury(face + t.sum)
			r.Step("leader injury", map[string]any{"leader": t.l.ID, "d10": face, "modifier": t.sum, "at_risk": t.why}, string(res))
			if res != Unhurt {
				t.l.Gone = res
			}
		}
		from := b.phasing()
		p.side = (p.side + 1) % len(p.order)
		if p.side == 0 {
			p.number++
		}
		p.step = Maneuver
		p.began = nil
		p.done, p.passed, p.lost, p.firedUpon, p.skirmished, p.pairs, p.paired = nil, nil, nil, nil, nil, nil, false
		if b.moves {
			// A new player turn: no unit has moved in it yet.
			for i := range b.units {
				b.units[i].Moved = false
			}
			p.newMovement()
		}
		r.Step("end of turn", map[string]any{"side": from}, fmt.Sprintf("%s's turn %d: maneuver step", b.phasing(), p.number))
	}
}

// Sampler draws a fire's or a skirmish fire's outcome for Monte Carlo, as Resolve rolls
// it, without changing the battle.
func (b *Battle) Sampler(a volley.Action) (*volley.Sim, error) {
	switch a := a.(type) {
	case *Fire:
		b := b.fireView(a)
		p := b.plan(a)
		if !p.ok {
			return nil, refusal(b.fireAims(p))
		}
		sim := &volley.Sim{Measures: []string{MeasureMorale, MeasureBases, "destroyed"}, Destroyed: 2}
		for _, u := range p.hit {
			sim.Targets = append(sim.Targets, u.ID)
		}
		sim.Draw = func(d *dice.Stream, out []int) {
			face := a.Die
			if face == 0 {
				face = d.Roll(D10, "")
			}
			_, _, eff := p.roll(b, face)
			for i, u := range p.hit {
				out[i*3], out[i*3+1], out[i*3+2] = eff[i].Morale, eff[i].Bases, 0
				if eff[i].Bases+b.pendingFor(u.ID).Bases >= u.Capacity() {
					out[i*3+2] = 1
				}
			}
		}
		return sim, nil
	case *SkirmishFire:
		p := b.planSkirmish(a)
		if p.aim.Status != volley.StatusOK {
			return nil, refusal([]volley.Aim{p.aim})
		}
		sim := &volley.Sim{Targets: []string{a.Target}, Measures: []string{MeasureMorale}, Destroyed: -1}
		sim.Draw = func(d *dice.Stream, out []int) {
			face := a.Die
			if face == 0 {
				face = d.Roll(D10, "")
			}
			out[0] = b.charts.Skirmish.morale(p.bracket, face)
		}
		return sim, nil
	}
	return nil, volley.Errorf(volley.EINVALID, "republique: only fire and skirmish fire roll dice to simulate")
}
