package advise

import (
	"slices"

	"github.com/volley-wargames/volley/dice"
)

// Choose adds to slot s of p the choice of firing at target t, whose measure its dice
// take as d (capped at t.Left: Capped); t joins p.Targets the first time a choice names
// it. WarStrike's models and War Engine's weapon groups build their choices so.
func (p *Problem) Choose(s int, t Target, d dice.Dist) {
	k := p.TargetIndex(t.ID, func() Target { return t })
	p.Slots[s].Choices = append(p.Slots[s].Choices, Choice{Target: t.ID, Effects: []Effect{{Target: k, Dist: Capped(d, p.Targets[k].Left)}}})
}

// TargetIndex is the index in p.Targets of the target id, which joins them, as add makes
// it, the first time a choice names it: the targets stand in the order the slots first
// meet them, and add (the target's measure left, which may take some working out) is
// called once a target.
func (p *Problem) TargetIndex(id string, add func() Target) int {
	return TargetIndex(&p.Targets, id, add)
}

// TargetIndex is Problem.TargetIndex for targets that several problems share (a
// Republique side's groupings of its batteries).
func TargetIndex(targets *[]Target, id string, add func() Target) int {
	if k := slices.IndexFunc(*targets, func(o Target) bool { return o.ID == id }); k >= 0 {
		return k
	}
	*targets = append(*targets, add())
	return len(*targets) - 1
}

// TargetIDs are the ids of p's targets, in order: what an offer lets the actor fire at.
func (p *Problem) TargetIDs() []string {
	ids := make([]string, len(p.Targets))
	for i, t := range p.Targets {
		ids[i] = t.ID
	}
	return ids
}
