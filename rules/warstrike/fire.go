package warstrike

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/scenario"
)

// plan is a shooting action worked out against the table as it stands: who may shoot,
// which targets stand, which models fire at which, and what each sees.
type plan struct {
	unit *Unit
	as   Action
	// chosen says how the action was chosen, for the trace (edition 4): with the unit's
	// move, in the scenario, as the action states, or by default.
	chosen string
	// refusal is why the unit may not shoot at all (Who Can Shoot?), "" if it may.
	refusal string
	targets []planTarget
}

// planTarget is one target unit of a plan.
type planTarget struct {
	unit *Unit
	// refusal is why this target may not be chosen (Select Your Targets), "" if it may.
	refusal string
	// firers are the firing models given to this target.
	firers []firer
}

// firer is one firing model at its target unit: what it sees of each target model and
// the model its to-hit roll is read against.
type firer struct {
	model *Model
	// listed says the action gave this model to the target by name.
	listed bool
	looks  []shotAt // one per target model, in the unit's order, dead ones left out
	// chosen is the index in looks of the model the roll is read against, -1 when it
	// sees none in range.
	chosen int
}

// shotAt is one firing model against one target model.
type shotAt struct {
	target *Model
	look   look
	aim    volley.Aim
}

// sees reports whether the firing model sees at least one model of its target.
func (f *firer) sees() bool {
	for i := range f.looks {
		if f.looks[i].look.seen {
			return true
		}
	}
	return false
}

// shots is the weapon's dice to hit and the chance of each, 0 when it cannot hit.
func (f *firer) shots(b *Battle) (int, float64) {
	if f.chosen < 0 {
		return 0, 0
	}
	return b.tables.Weapons[f.model.Weapon].Shots, f.looks[f.chosen].aim.PHit
}

// armed reports whether a model has a weapon the tables know.
func (b *Battle) armed(m *Model) bool {
	return m.Weapon != "" && b.tables.Weapons[m.Weapon] != nil
}

// whoMayShoot is why a unit may not shoot, by the rule of Who Can Shoot?, or "".
func (b *Battle) whoMayShoot(u *Unit, as Action) string {
	armed := false
	for i := range u.Models {
		if u.Models[i].Alive() && b.armed(&u.Models[i]) {
			armed = true
		}
	}
	switch {
	case u.Destroyed():
		return fmt.Sprintf("%s has no models left", u.ID)
	case u.Specialist != "" && !u.SpecialistMayShoot:
		return fmt.Sprintf("%s is a %s: specialists with better things to do on the battlefield do not shoot (Who Can Shoot?)", u.ID, u.Specialist)
	case !armed:
		return fmt.Sprintf("%s has no ranged weapons: only units with ranged weapons shoot (Who Can Shoot?)", u.ID)
	case as == AtTheDouble || as == FallBack:
		return fmt.Sprintf("%s chose %s this turn: units that moved At-The-Double or fell back may not shoot (Who Can Shoot?)", u.ID, as.Title())
	case u.SuppressionAtStart >= SuppressedAt:
		return fmt.Sprintf("%s had %d suppression markers when its player's action phase began: %d or more pin a unit down (Who Can Shoot?)", u.ID, u.SuppressionAtStart, SuppressedAt)
	case !as.allowsShooting():
		return fmt.Sprintf("%s chose %s this turn, which is not an action that allows shooting (Who Can Shoot?; Actions That Allow Shooting)", u.ID, as.Title())
	}
	return ""
}

// actionFor is the action a shooting action is taken as, and why that is not possible:
// a unit that chose an action this turn keeps it. From edition 4 the action is the one
// the unit chose with its move; a stated one (the command line's "what if") wins, and a
// unit that has chosen none shoots as Open Fire.
func (b *Battle) actionFor(u *Unit, s *Shoot) (Action, string) {
	if b.moves {
		switch {
		case s.As != "":
			return s.As, ""
		case u.Action != "":
			return u.Action, ""
		}
		return OpenFire, ""
	}
	switch {
	case u.Action == "" && s.As == "":
		return OpenFire, ""
	case u.Action == "":
		return s.As, ""
	case s.As != "" && s.As != u.Action:
		return u.Action, fmt.Sprintf("%s chose %s this turn already, not %s: a unit chooses one action a turn", u.ID, u.Action.Title(), s.As.Title())
	}
	return u.Action, ""
}

// plan works out a shooting action. It never fails: what the rules refuse is in the
// refusals, for Aim to show and Resolve to refuse.
func (b *Battle) plan(s *Shoot) *plan {
	u, ok := b.Unit(s.Unit)
	if !ok {
		return nil
	}
	p := &plan{unit: u}
	as, why := b.actionFor(u, s)
	p.as = as
	if b.moves {
		switch {
		case s.As != "":
			p.chosen = "as the action states (what if)"
		case b.act.unit == u.ID:
			p.chosen = "with its move"
		case u.Action != "":
			p.chosen = "in the scenario"
		default:
			p.chosen = "by default (no move chose one this turn): Open Fire, not in the source"
		}
	}
	if why == "" {
		why = b.whoMayShoot(u, as)
	}
	p.refusal = why
	leader := u.Leader()
	most := MaxTargetsWithoutLeader
	if leader != nil {
		most = MaxTargetsWithLeader
	}
	given := map[string]int{}
	for ti, t := range s.Targets {
		for _, id := range t.Models {
			given[id] = ti
		}
	}
	for ti, t := range s.Targets {
		tu, ok := b.Unit(t.Unit)
		if !ok {
			continue
		}
		pt := planTarget{unit: tu}
		switch {
		case tu.Side == u.Side:
			pt.refusal = fmt.Sprintf("%s is on %s's own side", tu.ID, u.ID)
		case tu.Destroyed():
			pt.refusal = fmt.Sprintf("%s has no models left", tu.ID)
		case ti >= most:
			pt.refusal = fmt.Sprintf("%s has lost its leader, so it may fire at a single target (Select Your Targets)", u.ID)
		}
		p.targets = append(p.targets, pt)
	}
	if p.refusal != "" {
		return p
	}
	// Each armed model fires at the target it is given, or at the first target it sees.
	sc := &sightScratch{}
	for i := range u.Models {
		m := &u.Models[i]
		if !m.Alive() || !b.armed(m) {
			continue
		}
		if ti, ok := given[m.ID]; ok {
			if ti < len(p.targets) {
				p.targets[ti].firers = append(p.targets[ti].firers, b.newFirer(sc, m, true, p.targets[ti].unit))
			}
			continue
		}
		placed := false
		var first *firer
		for ti := range p.targets {
			if p.targets[ti].refusal != "" {
				continue
			}
			f := b.newFirer(sc, m, false, p.targets[ti].unit)
			if f.sees() {
				p.targets[ti].firers = append(p.targets[ti].firers, f)
				placed = true
				break
			}
			if first == nil {
				first = &f
			}
		}
		if !placed && first != nil {
			// Seeing none of them, it does not fire; its looks at the first target show why.
			first.chosen = -1
			for ti := range p.targets {
				if p.targets[ti].refusal == "" {
					p.targets[ti].firers = append(p.targets[ti].firers, *first)
					break
				}
			}
		}
	}
	// The leader, firing or not, must see each target (Select Your Targets).
	for ti := range p.targets {
		pt := &p.targets[ti]
		if pt.refusal != "" || leader == nil {
			continue
		}
		if !b.seesUnit(sc, leader, pt.unit) {
			pt.refusal = fmt.Sprintf("%s's leader %s sees no model of %s: the leader must see at least one model of each target (Select Your Targets)", u.ID, leader.ID, pt.unit.ID)
		}
	}
	return p
}

// seesUnit reports whether m sees at least one model of unit t.
func (b *Battle) seesUnit(sc *sightScratch, m *Model, t *Unit) bool {
	for i := range t.Models {
		if t.Models[i].Alive() && b.look(sc, m, &t.Models[i], t).seen {
			return true
		}
	}
	return false
}

// newFirer looks from m at every model of t and chooses the one its roll is read
// against: the nearest it sees in range, or (aim_at: best) the easiest to hit. From
// edition 4 models nearer by no more than tieDistance are as near, and the first in the
// scenario is taken; editions 2 and 3 compared the distances as float64 left them.
func (b *Battle) newFirer(sc *sightScratch, m *Model, listed bool, t *Unit) firer {
	f := firer{model: m, listed: listed, chosen: -1}
	w := b.tables.Weapons[m.Weapon]
	for i := range t.Models {
		tm := &t.Models[i]
		if !tm.Alive() {
			continue
		}
		l := b.look(sc, m, tm, t)
		f.looks = append(f.looks, shotAt{target: tm, look: l, aim: b.aimAt(m, w, tm, l)})
	}
	for i := range f.looks {
		a := &f.looks[i].aim
		if a.Status != volley.StatusOK {
			continue
		}
		if f.chosen < 0 {
			f.chosen = i
			continue
		}
		c := &f.looks[f.chosen]
		better := b.nearer(f.looks[i].look.dist, c.look.dist)
		if b.opts.aimAt == AimAtBest {
			better = a.PHit > c.aim.PHit || a.PHit == c.aim.PHit && better
		}
		if better {
			f.chosen = i
		}
	}
	return f
}

// aimAt is the aim of one model's weapon at one target model it looked at.
func (b *Battle) aimAt(m *Model, w *Weapon, tm *Model, l look) volley.Aim {
	a := volley.Aim{Shooter: m.ID, Weapon: m.Weapon, Target: tm.ID, Range: roundMilli(scenario.Inches(l.dist).In(b.unit)), RangeUnit: b.unitName(),
		Modifiers: []volley.Modifier{}, Die: b.tables.Die}
	switch {
	case !l.seen:
		a.Status, a.Reason = volley.StatusBlocked, l.why
		return a
	case l.dist > w.Range.Inches()+1e-9:
		a.Status = volley.StatusOutOfRange
		a.Reason = fmt.Sprintf("%s; %s is beyond the %s's %s range (Check Range)", l.why, b.length(l.dist), m.Weapon, b.length(w.Range.Inches()))
		return a
	}
	a.Status = volley.StatusOK
	need := w.ToHit
	var conceal []volley.Modifier
	for _, c := range b.tables.Concealment.Modifiers {
		holds := c.When == InAreaTerrain && l.inArea || c.When == ThroughAreaTerrain && l.through || c.When == PartlyVisible && l.partly
		if holds {
			conceal = append(conceal, volley.Modifier{Rule: "concealment: " + strings.ReplaceAll(c.When, "_", " "), Value: float64(c.Modifier)})
		}
	}
	if !b.tables.Concealment.Stack && len(conceal) > 1 {
		best := slices.MaxFunc(conceal, func(x, y volley.Modifier) int { return int(x.Value - y.Value) })
		conceal = []volley.Modifier{best}
	}
	a.Modifiers = append(a.Modifiers, conceal...)
	if lr := b.tables.LongRange; lr != nil && l.dist > lr.Beyond*w.Range.Inches()+1e-9 {
		a.Modifiers = append(a.Modifiers, volley.Modifier{Rule: fmt.Sprintf("long range: beyond %s", b.length(lr.Beyond*w.Range.Inches())), Value: float64(lr.Modifier)})
	}
	for _, mod := range a.Modifiers {
		need += int(mod.Value)
	}
	a.Need = float64(need)
	a.PHit = b.tables.chance(need)
	a.Shots = float64(w.Shots)
	a.Reason = fmt.Sprintf("%s; %s at %s, to hit %s", l.why, m.Weapon, b.length(l.dist), b.tables.needWords(need))
	if l.through {
		a.Notes = append(a.Notes, fmt.Sprintf("seen through area terrain: the sight distance is %s", b.length(l.sight)))
	}
	return a
}

func roundMilli(x float64) float64 { return math.Round(x*1000) / 1000 }

// unitName is the scenario's unit of length.
func (b *Battle) unitName() string { return string(b.unit.OrInch()) }

// blind lists the models the action gave a target by name that see none of it: every
// model firing at a target must see at least one of its models (Select Your Targets).
func (p *plan) blind() []string {
	var out []string
	for _, t := range p.targets {
		if t.refusal != "" {
			continue
		}
		for _, f := range t.firers {
			if f.listed && !f.sees() {
				out = append(out, fmt.Sprintf("%s sees no model of %s: every model firing at a target must see at least one of its models (Select Your Targets)", f.model.ID, t.unit.ID))
			}
		}
	}
	return out
}

// refusals are every reason the plan cannot be resolved. From volley.EditionHopeless
// (hopeless) a target no firing model can hit, every aim at it out of range or unseen,
// is one: the shot would do nothing to it.
func (p *plan) refusals(hopeless bool) []string {
	if p.refusal != "" {
		return []string{p.refusal}
	}
	var out []string
	for _, t := range p.targets {
		switch {
		case t.refusal != "":
			out = append(out, fmt.Sprintf("not at %s: %s", t.unit.ID, t.refusal))
		case hopeless && !slices.ContainsFunc(t.firers, func(f firer) bool { return f.chosen >= 0 }):
			out = append(out, fmt.Sprintf("not at %s: no model of %s can hit it, every aim at it out of range or unseen: a shot that can do nothing is refused", t.unit.ID, p.unit.ID))
		}
	}
	out = append(out, p.blind()...)
	if len(out) == 0 && len(p.targets) == 0 {
		out = append(out, "the action has no target")
	}
	return out
}

// Aim gives, for every firing model and every model of its target, whether it sees it
// and why not, the range, the modifiers and the chance to hit; a unit or a target the
// rules refuse is one not_eligible aim naming the rule.
func (b *Battle) Aim(ctx context.Context, a volley.Action) ([]volley.Aim, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s, ok := a.(*Shoot)
	if !ok {
		return []volley.Aim{}, nil // ending a turn, a move, a deployment: no shot
	}
	p := b.plan(s)
	if p == nil {
		return nil, volley.Errorf(volley.ENOTFOUND, "warstrike: unknown unit %q", s.Unit)
	}
	aims := []volley.Aim{}
	refused := func(target, why string) volley.Aim {
		return volley.Aim{Shooter: p.unit.ID, Target: target, Status: volley.StatusNotEligible, Reason: why, RangeUnit: b.unitName(), Modifiers: []volley.Modifier{}}
	}
	for _, t := range p.targets {
		if p.refusal != "" {
			aims = append(aims, refused(t.unit.ID, p.refusal))
			continue
		}
		if t.refusal != "" {
			aims = append(aims, refused(t.unit.ID, t.refusal))
			continue
		}
		for _, f := range t.firers {
			for i, sa := range f.looks {
				aim := sa.aim
				switch {
				case f.chosen < 0 && !f.sees():
					aim.Notes = append(slices.Clip(aim.Notes), fmt.Sprintf("%s sees no model of %s and does not fire", f.model.ID, t.unit.ID))
				case i == f.chosen:
					aim.Notes = append(slices.Clip(aim.Notes), "its roll to hit is read against this model")
				}
				aims = append(aims, aim)
			}
		}
	}
	if err := b.shootCheck(p.unit); err != nil {
		// Another side's turn, the unit's activation over, the deployment under way: the
		// aims are as the shot would be, and say why it must wait.
		for i := range aims {
			if aims[i].Status == volley.StatusOK {
				aims[i].Wait(strings.TrimPrefix(volley.ErrorMessage(err), "warstrike: "))
			}
		}
	}
	return aims, nil
}

// Measures of a target's odds.
const (
	MeasureHits         = "hits"
	MeasurePenetrations = "penetrations"
	MeasureWounds       = "wounds"
	MeasureKills        = "kills"
	MeasureSuppression  = "suppression"
)

// targetOdds is one target's exact distributions.
type targetOdds struct {
	hits, pens, wounds, kills, markers dice.Dist
	left                               int
}

// oddsOf works out a target's distributions. Every die to hit, to penetrate and to kill
// is its own, so each count is a sum of independent trials, each with its own chance: a
// binomial per firing model, convolved.
func (b *Battle) oddsOf(t *planTarget) targetOdds {
	hits, pens, wounds := dice.Const(0), dice.Const(0), dice.Const(0)
	shotAt := false
	for _, f := range t.firers {
		n, p := f.shots(b)
		if n == 0 {
			continue
		}
		shotAt = true
		pp, pk := b.throughChances(f.model, t.unit)
		hits = hits.Add(dice.Binomial(n, p))
		pens = pens.Add(dice.Binomial(n, p*pp))
		wounds = wounds.Add(dice.Binomial(n, p*pp*pk))
	}
	order := b.casualtyOrder(t)
	o := targetOdds{hits: hits, pens: pens, wounds: wounds, left: t.unit.Left()}
	o.kills = wounds.Map(func(w int) int { return killsFrom(order, w) })
	o.markers = b.markers(shotAt, hits, pens, wounds)
	return o
}

// throughChances are the chances that a hit from m's weapon penetrates the target's
// armour and then kills.
func (b *Battle) throughChances(m *Model, t *Unit) (float64, float64) {
	w := b.tables.Weapons[m.Weapon]
	return b.tables.through(&b.tables.Penetrate, w.Penetration-t.Armour), b.tables.through(&b.tables.Kill, w.Kill-t.Toughness)
}

// through is the chance that a roll on a need table at difference d succeeds: 1 with no
// table to roll on, 0 below the table.
func (t *Tables) through(nt *NeedTable, d int) float64 {
	if len(nt.Needs) == 0 {
		return 1
	}
	need, ok := nt.need(d)
	if !ok {
		return 0
	}
	return t.chance(need)
}

// Pinned is the chance that fire whose odds at a target are t pins it down: that the
// markers it gains bring it from fewer than SuppressedAt to SuppressedAt or more, so that
// it may not shoot when its player's next action phase begins, nor in any later one
// (volley takes no marker off: the text names no way to, see Turns in
// docs/rules/warstrike.md). 0 for a unit pinned down already, destroyed, or with
// nothing to shoot with (Who Can Shoot?): it loses no fire. It implements
// advise.Pinner.
func (b *Battle) Pinned(t volley.TargetOdds) float64 {
	u, ok := b.Unit(t.Target)
	if !ok || u.Destroyed() || u.Suppression >= SuppressedAt {
		return 0
	}
	if u.Specialist != "" && !u.SpecialistMayShoot {
		return 0
	}
	armed := false
	for i := range u.Models {
		armed = armed || (u.Models[i].Alive() && b.armed(&u.Models[i]))
	}
	d, ok := t.Distributions[MeasureSuppression]
	if !armed || !ok {
		return 0
	}
	return d.AtLeast(SuppressedAt - u.Suppression)
}

// markers is the distribution of suppression markers a target gains.
func (b *Battle) markers(shotAt bool, hits, pens, wounds dice.Dist) dice.Dist {
	s := b.tables.Suppression
	var from dice.Dist
	switch s.From {
	case FromShotAt:
		if !shotAt {
			return dice.Const(0)
		}
		return dice.Const(s.Markers)
	case FromPenetration:
		from = pens
	case FromKill:
		from = wounds
	default:
		from = hits
	}
	return from.Map(func(n int) int { return markersFor(s, n) })
}

// gained is the markers a target gains from a resolved shooting: the scalar form of
// markers.
func (s Suppression) gained(shotAt bool, hits, pens, wounds int) int {
	switch s.From {
	case FromShotAt:
		if shotAt {
			return s.Markers
		}
		return 0
	case FromPenetration:
		return markersFor(s, pens)
	case FromKill:
		return markersFor(s, wounds)
	}
	return markersFor(s, hits)
}

// markersFor is the markers for n hits (or penetrations, or kills).
func markersFor(s Suppression, n int) int {
	switch {
	case n == 0:
		return 0
	case s.Each:
		return min(s.Markers*n, MaxMarkers)
	}
	return s.Markers
}

// Odds gives, for every target the action may shoot, the exact distributions of hits,
// penetrations, wounds, kills (models removed or marked) and the suppression markers it
// gains, and the chance it is wiped out.
func (b *Battle) Odds(ctx context.Context, a volley.Action) (volley.Odds, error) {
	aims, err := b.Aim(ctx, a)
	if err != nil {
		return volley.Odds{}, err
	}
	odds := volley.Odds{Aims: aims, Targets: []volley.TargetOdds{}, Values: map[string]float64{}}
	s, ok := a.(*Shoot)
	if !ok {
		return odds, nil
	}
	p := b.plan(s)
	if p.refusal != "" {
		return odds, nil
	}
	shots, hitsMean, killsMean := 0, 0.0, 0.0
	for i := range p.targets {
		if err := ctx.Err(); err != nil {
			return volley.Odds{}, err
		}
		t := &p.targets[i]
		if t.refusal != "" {
			continue
		}
		for _, f := range t.firers {
			n, _ := f.shots(b)
			shots += n
		}
		o := b.oddsOf(t)
		hitsMean += o.hits.Mean()
		killsMean += o.kills.Mean()
		odds.Targets = append(odds.Targets, volley.TargetOdds{
			Target: t.unit.ID,
			Distributions: map[string]dice.Dist{MeasureHits: o.hits, MeasurePenetrations: o.pens, MeasureWounds: o.wounds,
				MeasureKills: o.kills, MeasureSuppression: o.markers},
			Mean: map[string]float64{MeasureHits: o.hits.Mean(), MeasurePenetrations: o.pens.Mean(), MeasureWounds: o.wounds.Mean(),
				MeasureKills: o.kills.Mean(), MeasureSuppression: o.markers.Mean()},
			PDestroyed: o.kills.AtLeast(o.left),
		})
	}
	odds.Values["shots"] = float64(shots)
	odds.Values["expected_hits"] = hitsMean
	odds.Values["expected_kills"] = killsMean
	return odds, nil
}
