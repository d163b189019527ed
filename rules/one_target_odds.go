package rules

import (
	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
)

// OneTargetOdds is Odds for a system whose action aims once at one target (OneAim): the
// aims and their error, as Aim gave them; when the aim is OK, its chance to hit
// ("chance_to_hit") and its target's distribution of measure, which dist gives with what
// the target has left (the measure that destroys it).
func OneTargetOdds(aims []volley.Aim, err error, measure string, dist func(volley.Aim) (d dice.Dist, left int)) (volley.Odds, error) {
	o := volley.Odds{Aims: aims, Targets: []volley.TargetOdds{}, Values: map[string]float64{}}
	if err != nil || len(aims) == 0 || aims[0].Status != volley.StatusOK {
		return o, err
	}
	d, left := dist(aims[0])
	o.Targets = append(o.Targets, volley.TargetOdds{Target: aims[0].Target, Distributions: map[string]dice.Dist{measure: d},
		Mean: map[string]float64{measure: d.Mean()}, PDestroyed: d.AtLeast(left)})
	o.Values["chance_to_hit"] = aims[0].PHit
	return o, nil
}

// OneSampler is Sampler for such a system: its action, an A, resolved on copies of b
// (volley.ResolveSampler) at the targets targets gives, with measures tallied; the
// engine's actions roll nothing (NothingRolled).
func OneSampler[A volley.Action](system string, b volley.Battle, a volley.Action, targets func(A) []string, measures ...string) (*volley.Sim, error) {
	s, ok := a.(A)
	if !ok {
		return nil, NothingRolled(system, a)
	}
	return volley.ResolveSampler(b, a, targets(s), measures...)
}
