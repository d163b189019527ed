package warengine

import (
	"context"
	"fmt"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

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
	if o.Type != Deploy && o.Type != EndDeployment {
		if list := rules.NotBegun(&b.table, o.at.root); list != nil {
			return list, nil
		}
	}
	if o.Type == Move || o.Type == Deploy {
		return b.moveRefusals(o), nil
	}
	if err := b.refuseAs(o, true); err != nil {
		return rules.RefusalOf(o.at.unit, err, "warengine"), nil
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
		return rules.Refusal(pos, fmt.Sprintf("%s cannot fire %s: %v", u.ID, l.Name(), err)), nil
	}
	return nil, nil
}
