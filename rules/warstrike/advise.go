package warstrike

import (
	"context"
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/dice"
)

// Problems lists the choices of every unit of q.Side that may shoot now (or of q.Actor):
// one slot per armed living model, choosing among the enemy units it sees (every model
// firing at a target must see one of its models), at most two targets a plan with the
// leader and one without, every target seen by the leader. A model may also hold fire.
//
// Each model's dice are its own: its wounds on a target are a binomial, so a target's
// wounds are the convolution over the models given to it, and its kills follow from the
// wounds through the casualty order. The plan's measure is kills.
func (b *Battle) Problems(ctx context.Context, q advise.Query) ([]*advise.Problem, error) {
	q, from := advise.From(q, func(s *Shoot) string { return s.Unit })
	var out []*advise.Problem
	for i := range b.units {
		u := &b.units[i]
		if u.Side != q.Side || (q.Actor != "" && u.ID != q.Actor) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var as Action
		if from != nil && from.Unit == u.ID {
			as = from.As
		}
		act, _ := b.actionFor(u, &Shoot{Unit: u.ID, As: as})
		why := b.whoMayShoot(u, act)
		wait := b.shootCheck(u)
		if q.Actor == "" && (why != "" || wait != nil) {
			continue
		}
		if why != "" {
			return nil, volley.Errorf(volley.EINVALID, "warstrike: %s", why)
		}
		p := b.problem(u, as)
		p.NotNow(wait)
		out = append(out, p)
	}
	return advise.Named(q, out, "warstrike: %s has no unit %q")
}

// AdviceCost is the work of building q's problems: for each unit planned, its leader's
// look at every enemy model and each armed model's (lookCost).
func (b *Battle) AdviceCost(q advise.Query) int64 {
	q, _ = advise.From(q, func(s *Shoot) string { return s.Unit })
	enemies := func(side string) int64 {
		n := int64(0)
		for i := range b.units {
			if t := &b.units[i]; t.Side != side && !t.Destroyed() {
				n += int64(t.Left())
			}
		}
		return n
	}
	work := int64(0)
	for i := range b.units {
		u := &b.units[i]
		if u.Side != q.Side || (q.Actor != "" && u.ID != q.Actor) {
			continue
		}
		lookers := int64(1)
		for j := range u.Models {
			if m := &u.Models[j]; m.Alive() && b.armed(m) {
				lookers++
			}
		}
		work += lookers * enemies(u.Side) * b.lookCost()
	}
	return work
}

// problem is one unit's choice.
func (b *Battle) problem(u *Unit, as Action) *advise.Problem {
	p := &advise.Problem{Actor: u.ID, Side: u.Side, Measure: MeasureKills, MaxTargets: MaxTargetsWithoutLeader}
	leader := u.Leader()
	if leader != nil {
		p.MaxTargets = MaxTargetsWithLeader
	}
	var models []string
	sc := &sightScratch{}
	for mi := range u.Models {
		m := &u.Models[mi]
		if !m.Alive() || !b.armed(m) {
			continue
		}
		slot := advise.Slot{Label: m.ID + " " + m.Weapon}
		for ti := range b.units {
			t := &b.units[ti]
			if t.Side == u.Side || t.Destroyed() || (leader != nil && !b.seesUnit(sc, leader, t)) {
				continue
			}
			f := b.newFirer(sc, m, true, t)
			if !f.sees() {
				continue
			}
			k := p.TargetIndex(t.ID, func() advise.Target { return b.adviseTarget(t) })
			n, ph := f.shots(b)
			pp, pk := b.throughChances(m, t)
			slot.Choices = append(slot.Choices, advise.Choice{Target: t.ID,
				Effects: []advise.Effect{{Target: k, Dist: advise.Capped(dice.Binomial(n, ph*pp*pk), p.Targets[k].Left)}}})
		}
		slot.Choices = append(slot.Choices, advise.Choice{}) // holding fire
		p.Slots = append(p.Slots, slot)
		models = append(models, m.ID)
	}
	// Kills follow from wounds alone when every model that may die next needs as many
	// wounds as the others: then the casualty order, which depends on who fires, does not
	// change the count. Otherwise plans are scored one by one with Odds.
	for k := range p.Targets {
		t, _ := b.Unit(p.Targets[k].ID)
		if !evenWounds(t) {
			for s := range p.Slots {
				for c := range p.Slots[s].Choices {
					p.Slots[s].Choices[c].Effects = nil
				}
			}
			p.Notes = append(p.Notes, "a target's models have taken different wounds, so plans are scored one by one")
			break
		}
	}
	p.Action = func(picks []int) map[string]any {
		byTarget := map[string][]string{}
		var order []string
		for i, c := range picks {
			t := p.Slots[i].Choices[c].Target
			if t == "" {
				continue
			}
			if _, ok := byTarget[t]; !ok {
				order = append(order, t)
			}
			byTarget[t] = append(byTarget[t], models[i])
		}
		if len(order) == 0 {
			return nil
		}
		targets := []any{}
		for _, t := range order {
			targets = append(targets, map[string]any{"unit": t, "models": byTarget[t]})
		}
		body := map[string]any{"unit": u.ID, "targets": targets}
		if as != "" {
			body["as"] = string(as)
		}
		return body
	}
	p.Notes = append(p.Notes, "a model holding fire is left out of the action: if it sees one of the plan's targets it fires at the first it sees, which only adds to the plan")
	return p
}

// adviseTarget is a target unit in the advisor's terms: the wounds that kill every living
// model, and the kills those wounds make in the casualty order.
func (b *Battle) adviseTarget(t *Unit) advise.Target {
	order := b.casualtyOrder(&planTarget{unit: t})
	total := 0
	for _, c := range order {
		total += c.needs
	}
	tg := advise.Target{ID: t.ID, Left: total, Count: make([]int, total+1)}
	for w := range tg.Count {
		tg.Count[w] = killsFrom(order, w)
	}
	return tg
}

// evenWounds reports whether the models the casualty order sorts by distance (those not
// named in the unit's casualty_order) all need the same wounds to die.
func evenWounds(t *Unit) bool {
	need := -1
	for i := range t.Models {
		m := &t.Models[i]
		if !m.Alive() || slices.Contains(t.CasualtyOrder, m.ID) {
			continue
		}
		if need >= 0 && t.Wounds-m.WoundsLost != need {
			return false
		}
		need = t.Wounds - m.WoundsLost
	}
	return true
}
