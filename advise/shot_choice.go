package advise

import (
	"slices"

	"github.com/volley-wargames/volley/dice"
)

// Choose adds to slot s of p the choice of firing at target t, whose measure its dice
// take as d (capped at t.Left: Capped); t joins p.Targets the first time a choice names
// it. WarStrike's models and War Engine's weapon groups build their choices so.
func (p *Problem) Choose(s int, t Target, d dice.Dist) {
	k := slices.IndexFunc(p.Targets, func(o Target) bool { return o.ID == t.ID })
	if k < 0 {
		k = len(p.Targets)
		p.Targets = append(p.Targets, t)
	}
	p.Slots[s].Choices = append(p.Slots[s].Choices, Choice{Target: t.ID, Effects: []Effect{{Target: k, Dist: Capped(d, p.Targets[k].Left)}}})
}

// TargetIDs are the ids of p's targets, in order: what an offer lets the actor fire at.
func (p *Problem) TargetIDs() []string {
	ids := make([]string, len(p.Targets))
	for i, t := range p.Targets {
		ids[i] = t.ID
	}
	return ids
}
