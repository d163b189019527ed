package opponent

import (
	"context"
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
)

// The end of the battle, as the strong level weighs it. Only where the units stand and
// what has been destroyed when the last round ends scores, so in the last round:
//
//   - a unit has no "after": losing it costs its points, not a point more for what it
//     would have done in later rounds (there are none);
//   - danger is the enemy's next fire, and it matters only if an enemy still acts after
//     this side before the end: the side that acts last in the last round stands where
//     nothing can shoot it again;
//
// None of this is in any of the texts; it is how a player reasons about the last round.

// maxEndSteps bounds the ends of phases followed on a copy of the battle to find who
// acts next: a side's turn has at most a few phases.
const maxEndSteps = 8

// enemyActsAfter reports whether a side other than side may act after side's present
// turn or phase before the battle ends: the present phase, and every later one of side's,
// is ended on a copy of the battle, and the turn that follows read, and at each step the
// sides the battle says may act in it (an enemy's batteries may fire in side's turn). Where that cannot be
// told (the battle cannot be copied, or refuses to end a phase), it reports true: danger
// counts unless the rules show it cannot come.
func enemyActsAfter(ctx context.Context, b volley.Battle, end *volley.End, side string) bool {
	if end == nil || end.Turns <= 0 {
		return true
	}
	f, ok := b.(volley.Forker)
	if !ok {
		return true
	}
	c := f.Fork()
	for range maxEndSteps {
		t := c.State().Turn
		if t == nil || t.Number > end.Turns {
			return false // the battle is over
		}
		if t.Side != side {
			return true
		}
		// A step of side's turn may be another side's too: Republique's artillery
		// segment is fired by the batteries of both sides, in the phasing side's turn.
		if o, ok := c.(volley.Offerer); ok && slices.ContainsFunc(o.Offers().Acting, func(s string) bool { return s != side }) {
			return true
		}
		if t.End == nil {
			return true
		}
		act, err := decode(c, t.End)
		if err != nil {
			return true
		}
		if _, err := c.Resolve(ctx, act, dice.NewUnrecorded(1)); err != nil {
			return true
		}
	}
	return true
}
