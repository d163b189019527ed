package dropzone

import (
	"context"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// Refusals are the rules' refusals of a shooting action, as Resolve would refuse it: a
// squad that may not shoot now at the action's start, and each declared shot the rules
// forbid (out of arc, out of range, no line of sight, moved too far…) at its
// declaration; a move or a shot while the sides deploy (from edition 5). Ending a turn is
// never refused here.
func (b *Battle) Refusals(ctx context.Context, a volley.Action) (scenario.ErrorList, error) {
	if m, ok := a.(*Move); ok {
		return rules.MoveRefusals(&b.table, m.at, func() scenario.ErrorList {
			return rules.RefusalOf(m.at, b.checkMove(m), "dropzone")
		}), nil
	}
	sq, ok := a.(*Shooting)
	if !ok {
		return nil, nil
	}
	if err := b.shootCheck(sq); err != nil {
		return rules.RefusalOf(sq.at.root, err, "dropzone"), nil
	}
	shots, err := b.plan(ctx, b.measured(sq))
	if err != nil {
		return nil, err
	}
	var list scenario.ErrorList
	for i := range shots {
		if s := &shots[i]; !s.ok() {
			pos := sq.at.root
			if i < len(sq.at.decls) {
				pos = sq.at.decls[i]
			}
			list.Add(pos, "%s cannot fire its %s at %s: %s", s.Shooter, s.Weapon, s.Target, s.aim.Reason)
		}
	}
	return list, nil
}
