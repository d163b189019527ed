package toy

import (
	"context"
	"fmt"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rules"
)

// The shot: the toy's own rules, nothing shared but the dice and the record.

// need is the d6 roll that hits a target d inches away: 0 beyond Range.
func need(d float64) int {
	switch {
	case d <= CloseRange+1e-9:
		return NeedClose
	case d <= Range+1e-9:
		return NeedLong
	}
	return 0
}

// pHit is the chance one die hits on n+.
func pHit(n int) float64 { return float64(D6-n+1) / D6 }

// wounds is the exact distribution of the wounds one shot on n+ takes from a target with
// left wounds.
func wounds(n, left int) dice.Dist { return dice.Binomial(ShotDice, pHit(n)).Cap(left) }

// aim says whether s may be shot, and why not: the toy's rules; NotNow when only the turn
// keeps it from being shot now.
func (b *Battle) aim(s *Shot) volley.Aim {
	u, _ := b.Unit(s.Unit)
	t, _ := b.Unit(s.Target)
	a := volley.Aim{Shooter: u.ID, Weapon: "shot", Target: t.ID, Status: volley.StatusNotEligible, RangeUnit: "in", Modifiers: []volley.Modifier{}, Die: D6}
	switch {
	case u.Destroyed() || t.Destroyed():
		a.Reason = "a destroyed token neither shoots nor is shot at"
	case u.Side == t.Side:
		a.Reason = t.ID + " is a friend"
	case !u.Placed || !t.Placed:
		a.Reason = "both tokens must be on the table"
	default:
		a.Range = u.At.Dist(t.At)
		n := need(a.Range)
		if n == 0 {
			a.Status, a.Reason = volley.StatusOutOfRange, fmt.Sprintf("%.3g\" is beyond the shot's %g\"", a.Range, Range)
			return a
		}
		a.Status, a.Need, a.PHit, a.Shots = volley.StatusOK, float64(n), pHit(n), ShotDice
		a.Reason = fmt.Sprintf("%d dice, each hits on %d+", ShotDice, n)
		if err := b.shotCheck(u); err != nil {
			a.Wait(volley.ErrorMessage(err))
		}
	}
	return a
}

// Aim is the shot's aim (rules.OneAim: none for the engine's actions).
func (b *Battle) Aim(ctx context.Context, a volley.Action) ([]volley.Aim, error) {
	return rules.OneAim(ctx, a, b.aim)
}

// Odds is the exact distribution of the wounds a shot takes (rules.OneTargetOdds).
func (b *Battle) Odds(ctx context.Context, a volley.Action) (volley.Odds, error) {
	aims, err := b.Aim(ctx, a)
	return rules.OneTargetOdds(aims, err, "wounds", func(aim volley.Aim) (dice.Dist, int) {
		t, _ := b.Unit(aim.Target)
		return wounds(int(aim.Need), t.Left()), t.Left()
	})
}

// Resolve plays an action: the engine's (rules.ResolveTurnAction), or a shot.
func (b *Battle) Resolve(ctx context.Context, a volley.Action, d *dice.Stream) (volley.Outcome, error) {
	if out, ok, err := rules.ResolveTurnAction(ctx, Name, &b.table, a, d, b.endTurn, b.resolveMove, b.resolveDeploy); ok {
		return out, err
	}
	s := a.(*Shot)
	aim := b.aim(s)
	switch {
	case aim.Status != volley.StatusOK:
		return volley.Outcome{}, volley.Errorf(volley.EINVALID, "toy: %s cannot shoot at %s: %s", s.Unit, s.Target, aim.Reason)
	case aim.NotNow != "":
		return volley.Outcome{}, volley.Errorf(volley.ECONFLICT, "toy: %s", aim.NotNow)
	}
	t, _ := b.Unit(s.Target)
	hits := 0
	for i := range ShotDice {
		if d.Roll(D6, rules.Purpose(d, "%s at %s, die %d: hits on %v+", s.Unit, s.Target, i+1, aim.Need)) >= int(aim.Need) {
			hits++
		}
	}
	n := min(hits, t.Left())
	t.Lost += n
	r := &rules.Record{}
	r.Step("shot", map[string]any{"unit": s.Unit, "target": t.ID, "range": aim.Range, "need": aim.Need}, fmt.Sprintf("%d wounds", n))
	b.table.Deploying = false
	r.Steps = append(r.Steps, b.act.Acted(&b.turns, s.Unit)...)
	return volley.Outcome{Rolls: d.Rolls(), Trace: r.Steps, Targets: []volley.TargetResult{{Target: t.ID,
		Measures: map[string]float64{"wounds": float64(n), "wounds_left": float64(t.Left())}, Destroyed: t.Destroyed()}}}, nil
}

var _ volley.Sampler = (*Battle)(nil)

// Sampler rolls a shot by resolving it on a copy (rules.OneSampler), for Monte Carlo.
func (b *Battle) Sampler(a volley.Action) (*volley.Sim, error) {
	return rules.OneSampler(Name, b, a, func(s *Shot) []string { return []string{s.Target} }, "wounds")
}
