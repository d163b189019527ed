package warengine

import (
	"context"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/scenario"
)

var _ volley.Refuser = (*Battle)(nil)

// Refusals are the rules' refusals of an order, as Resolve would refuse it: a move's or
// a deployment's at the square of its path (or its at) that breaks a rule, else at the
// action; for the other orders the turn,
// the phase, the group or a missing declaration at the order's unit, and a target the
// declaration may not take (its own square, a friend, out of every reach) at the
// target. A fire order with a target of its own is aim and odds' "what if": its target
// is checked as a declaration would be.
func (b *Battle) Refusals(ctx context.Context, a volley.Action) (scenario.ErrorList, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	o := order(a)
	if err := b.table.CheckBegun(); err != nil && o.Type != Deploy && o.Type != EndDeployment {
		var list scenario.ErrorList
		list.Add(o.at.root, "%s", volley.ErrorMessage(err)) // from edition 5, the sides deploy first
		return list, nil
	}
	if o.Type == Move || o.Type == Deploy {
		return b.moveRefusals(o), nil
	}
	var list scenario.ErrorList
	if err := b.refuseAs(o, true); err != nil {
		list.Add(o.at.unit, "%s", strings.TrimPrefix(err.Error(), "warengine: "))
		return list, nil
	}
	if o.Type != Declare && o.Type != Fire {
		return nil, nil
	}
	u, _ := b.Unit(o.Unit)
	l := u.loadout(o.Weapon)
	target, friendly, ok := b.targetOf(o)
	if !ok {
		return nil, nil
	}
	pos := o.at.target
	if o.Target == nil {
		pos = o.at.unit // the declared target, written elsewhere or before
	}
	if _, err := b.aimAt(u, l, target, friendly); err != nil {
		list.Add(pos, "%s cannot fire %s: %v", u.ID, l.Name(), err)
	}
	return list, nil
}
