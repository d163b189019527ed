package warfare

import (
	"context"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// Refusals are the rules' refusals of a fire, as Resolve would refuse it: a unit that may
// not fire now at its name, and each target it may not fire at (out of range, a friend,
// no stands or missiles left…) where the fire names that target; a move or a fire while
// the sides deploy (from edition 5). Ending a turn is never refused here.
func (b *Battle) Refusals(ctx context.Context, a volley.Action) (scenario.ErrorList, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if m, ok := a.(*Move); ok {
		return rules.MoveRefusals(&b.table, m.At, func() scenario.ErrorList {
			return rules.RefusalOf(m.At, b.checkMove(m), "warfare")
		}), nil
	}
	f, ok := a.(*Fire)
	if !ok {
		return nil, nil
	}
	if err := b.fireCheck(f); err != nil {
		return rules.RefusalOf(f.at.unit, err, "warfare"), nil
	}
	var list scenario.ErrorList
	_, ts := b.plan(f)
	for i := range ts {
		if !ts[i].ok() {
			list.Add(f.at.targets[ts[i].Unit], "%s cannot fire at %s: %s", f.Unit, ts[i].Unit, ts[i].aim.Reason)
		}
	}
	return list, nil
}
