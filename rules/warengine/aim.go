package warengine

import (
	"context"
	"fmt"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
)

// Aim is the hover of the game, made exact: for a declare or fire order, whether the
// shot is possible, ChanceToHit with every term, and the true probability that the
// shot ends on what was aimed at, friends in the way and all. Other orders aim nothing.
//
// Its work is bounded by the map's size and MaxDeviation (see Cost), so ctx is only
// checked before it starts.
func (b *Battle) Aim(ctx context.Context, a volley.Action) ([]volley.Aim, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	o := order(a)
	if o.Type != Declare && o.Type != Fire {
		return nil, nil
	}
	aim, _, _ := b.aim(o)
	if aim.Status == volley.StatusOK || aim.Status == volley.StatusBlocked {
		// Another side's turn, another phase, a stunned unit or a deployment under way:
		// the aim is as the shot would be, and says why it must wait.
		err := b.table.CheckBegun()
		if err == nil {
			err = b.refuseAs(o, true)
		}
		if volley.ErrorCode(err) == volley.ECONFLICT {
			aim.Wait(strings.TrimPrefix(volley.ErrorMessage(err), "warengine: "))
		}
	}
	return []volley.Aim{aim}, nil
}

// aim works out the aim of a declare or fire order, the shot it would fire and that
// shot's exact landing (nil when the shot cannot be fired as aimed).
func (b *Battle) aim(o *Order) (volley.Aim, *shot, *landing) {
	u, _ := b.Unit(o.Unit)
	l := u.loadout(o.Weapon)
	target, friendly, ok := b.targetOf(o)
	aim := volley.Aim{Shooter: u.ID, Weapon: o.Weapon, RangeUnit: "squares", Modifiers: []volley.Modifier{}, Die: D100}
	if !ok {
		aim.Status, aim.Reason = volley.StatusNotEligible, fmt.Sprintf("%s has no target declared for %s", u.ID, o.Weapon)
		return aim, nil, nil
	}
	s := b.orderShot(o, u, l, target, friendly)
	aim.Target = b.targetName(target)
	aim.Range = float64(s.from.Chebyshev(target))
	aim.Line = b.line(s.from, target)
	fail := func(st volley.AimStatus, format string, args ...any) (volley.Aim, *shot, *landing) {
		aim.Status, aim.Reason = st, fmt.Sprintf(format, args...)
		return aim, nil, nil
	}
	switch v := b.unitAt(target); {
	case u.Destroyed():
		return fail(volley.StatusNotEligible, "%s is destroyed", u.ID)
	case o.Type == Fire && u.Stunned:
		return fail(volley.StatusNotEligible, "%s is stunned: it may not fire this phase", u.ID)
	case u.Group != 0 && l.Group != u.Group:
		return fail(volley.StatusNotEligible, "%s is in group %d, not in %s's active group %d: a unit fires one group a turn", o.Weapon, l.Group, u.ID, u.Group)
	case u.covers(target):
		return fail(volley.StatusNotEligible, "a unit cannot target its own square")
	case v != nil && v.Side == u.Side && !friendly:
		return fail(volley.StatusNotEligible, "%s is a friendly unit: a click would select it; target it with friendly: true (the game's shift-click)", v.ID)
	case aim.Range > float64(s.w.MaxRange):
		return fail(volley.StatusOutOfRange, "%s is %s away, beyond %s's maximum range of %d; %s",
			aim.Target, squares(int(aim.Range)), o.Weapon, s.w.MaxRange, b.correction(s, target))
	case !b.inArc(s, target):
		return fail(volley.StatusOutOfArc, "%s is outside %s's %d° arc around facing %s; %s",
			aim.Target, o.Weapon, s.w.Arc, u.Facing, b.correction(s, target))
	}
	aim.Status = volley.StatusOK
	cth, mods := b.chanceToHit(s, target, true)
	aim.Need, aim.Modifiers = cth, mods
	land := b.exactLanding(s)
	aim.PHit = b.struckChance(land, target)
	r := maxDistanceMissedBy(s.from, target)
	aim.Reason = fmt.Sprintf("ChanceToHit %g%%, MaxDistanceMissedBy %d (a %d×%d area)", cth, r, 2*r+1, 2*r+1)
	if blocker, ok := b.sightBlocker(s, target); ok {
		aim.Status = volley.StatusBlocked
		aim.Reason = fmt.Sprintf("no line of sight: %s at %s blocks the view; terrain may still be targeted unseen; %s", blocker.Name, squareName(blocker.at), aim.Reason)
	}
	if o.Target == nil {
		if d := u.declared(o.Weapon); d != nil && d.Corrected != "" {
			aim.Notes = append(aim.Notes, "the target was "+d.Corrected)
		}
	}
	if b.moves && (u.measured || o.Aiming != nil) {
		aim.Notes = append(aim.Notes, b.aimingWords(o, u)) // measured from Phase I, or stated
	}
	if s.picks > 1 {
		aim.Notes = append(aim.Notes, fmt.Sprintf("repeating weapon fired without aiming: the square is picked %d times, each pick from the last", s.picks))
	}
	aim.Notes = append(aim.Notes, fmt.Sprintf("the d100 needs %d or less; the true chance that the shot ends on %s is %.4g%%", need(cth), aim.Target, aim.PHit*100))
	return aim, s, &land
}

// correction says where a declaration at an out-of-envelope square would go.
func (b *Battle) correction(s *shot, target geom.Square) string {
	if c, ok := b.correct(s, target); ok {
		return "a declaration there is corrected to " + squareName(c)
	}
	return "and no square is inside its envelope"
}

// targetName is how an aim names a square: the unit on it, or "x,y".
func (b *Battle) targetName(q geom.Square) string {
	if u := b.unitAt(q); u != nil {
		return u.ID
	}
	return squareName(q)
}

// struckChance is the probability that a shot ends on the unit at q (any of its
// squares) or, for an empty square, on q itself.
func (b *Battle) struckChance(l landing, q geom.Square) float64 {
	v := b.unitAt(q)
	p := 0.0
	l.landed.each(func(i int, pr float64) {
		if sq := b.square(i); sq == q || v != nil && v.covers(sq) {
			p += pr
		}
	})
	return p
}

type blocker struct {
	*TerrainType
	at geom.Square
}

// sightBlocker finds terrain that hides the target: a square strictly between the
// weapon and the target whose terrain blocks sight.
func (b *Battle) sightBlocker(s *shot, target geom.Square) (blocker, bool) {
	v := b.unitAt(target)
	for _, q := range b.line(s.from, target) {
		if q == target || s.unit.covers(q) || v != nil && v.covers(q) {
			continue
		}
		if t := b.terrainAt(q); t.Visibility >= OpaqueVisibility {
			return blocker{t, q}, true
		}
	}
	return blocker{}, false
}
