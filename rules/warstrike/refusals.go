package warstrike

import (
	"context"
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// Refusals are the rules' refusals of a shooting action, as Resolve would refuse it: a
// unit that may not shoot now (its turn, Who Can Shoot?) at its name, each target it may
// not choose (Select Your Targets) where the action names the target, and each firing
// model given a target it cannot see where the action names the model, each target no
// model can hit (from volley.EditionHopeless) at its name; a move that may
// not be made at the model's path (or the move); a move or a shot while the sides deploy
// (from edition 5). Ending a turn is never refused here.
func (b *Battle) Refusals(ctx context.Context, a volley.Action) (scenario.ErrorList, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if m, ok := a.(*Move); ok {
		return rules.MoveRefusals(&b.table, m.at.root, func() scenario.ErrorList { return b.moveRefusals(m) }), nil
	}
	s, ok := a.(*Shoot)
	if !ok {
		return nil, nil
	}
	p := b.plan(s)
	if p == nil {
		return nil, nil // an unknown unit is the decoder's error
	}
	if err := b.shootCheck(p.unit); err != nil {
		return rules.RefusalOf(s.at.unit, err, "warstrike"), nil
	}
	if p.refusal != "" {
		return rules.Refusal(s.at.unit, p.unit.ID+" cannot shoot: "+p.refusal), nil
	}
	var list scenario.ErrorList
	pos := func(id string) scenario.Pos {
		if at, ok := s.at.ids[id]; ok {
			return at
		}
		return s.at.unit
	}
	for _, t := range p.targets {
		if t.refusal != "" {
			list.Add(pos(t.unit.ID), "%s cannot shoot at %s: %s", p.unit.ID, t.unit.ID, t.refusal)
			continue
		}
		if b.hopeless && !slices.ContainsFunc(t.firers, func(f firer) bool { return f.chosen >= 0 }) {
			list.Add(pos(t.unit.ID), "%s cannot shoot at %s: no model of %s can hit it, every aim at it out of range or unseen: a shot that can do nothing is refused", p.unit.ID, t.unit.ID, p.unit.ID)
			continue
		}
		for _, f := range t.firers {
			if f.listed && !f.sees() {
				list.Add(pos(f.model.ID), "%s sees no model of %s: every model firing at a target must see at least one of its models (Select Your Targets)", f.model.ID, t.unit.ID)
			}
		}
	}
	if len(list) == 0 && len(p.targets) == 0 {
		list.Add(s.at.unit, "%s cannot shoot: the action has no target", p.unit.ID)
	}
	return list, nil
}
