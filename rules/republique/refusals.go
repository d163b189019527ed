package republique

import (
	"context"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// Refusals are the rules' refusals of an action, as Resolve would refuse it: each
// battery that may not fire (or save) where the action names it, a skirmish marker's at
// its name, a pairing of opposed skirmishers at its pairs, a move or a deployment at the
// action, a decline with nothing to decline; any of them but a deployment while the sides
// deploy (from edition 5). Ending a step is never refused here (while play waits on a
// passing fire, or the sides deploy, Resolve refuses it).
func (b *Battle) Refusals(ctx context.Context, a volley.Action) (scenario.ErrorList, error) {
	if at, ok := actionAt(a); ok {
		if list := rules.NotBegun(&b.table, at); list != nil {
			return list, nil
		}
	}
	switch a := a.(type) {
	case *Move, *Deploy:
		return b.moveRefusals(a), nil
	case *Decline:
		if b.phase.window == nil {
			return rules.Refusal(a.at, "there is no passing fire to decline: no enemy move waits for an answer"), nil
		}
		return nil, nil
	}
	aims, err := b.Aim(ctx, a)
	if err != nil {
		return nil, err
	}
	var at declared
	verb := "cannot fire at"
	switch a := a.(type) {
	case *Fire:
		at = a.at
	case *SkirmishFire:
		at = a.at
	case *Save:
		at, verb = a.at, "cannot save fire"
	case *Oppose:
		at, verb = a.at, "cannot be paired"
	default:
		return nil, nil
	}
	var list scenario.ErrorList
	for _, x := range aims {
		if x.Status == volley.StatusOK {
			continue
		}
		switch {
		case verb == "cannot be paired":
			list.Add(at.root, "the opposed skirmishers cannot be paired so: %s", x.Reason)
		case verb == "cannot save fire":
			list.Add(at.pos(x.Shooter), "%s %s: %s", x.Shooter, verb, x.Reason)
		case x.Target == "":
			// Refused before a target is chosen (a limbered battery): no target to name.
			list.Add(at.pos(x.Shooter), "%s cannot fire: %s", x.Shooter, x.Reason)
		default:
			list.Add(at.pos(x.Shooter), "%s %s %s: %s", x.Shooter, verb, x.Target, x.Reason)
		}
	}
	return list, nil
}

// actionAt is where an action other than a deployment or the end of a step is written,
// for a refusal of the whole of it; false for those.
func actionAt(a volley.Action) (scenario.Pos, bool) {
	switch a := a.(type) {
	case *Move:
		return a.at, true
	case *Decline:
		return a.at, true
	case *Fire:
		return a.at.root, true
	case *Save:
		return a.at.root, true
	case *SkirmishFire:
		return a.at.root, true
	case *Oppose:
		return a.at.root, true
	}
	return scenario.Pos{}, false
}
