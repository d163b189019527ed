package advise

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/scenario"
)

// MaxRanked bounds how many plans Rank scores with the battle's own Odds before it stops
// and reports the best of those seen.
const MaxRanked = 50_000

// Rank scores every legal plan of p one by one: it writes each plan's action, decodes it
// as a player's action would be, and asks the battle's Odds. It is the search for systems
// whose outcomes do not split by slot, and the brute force the tests hold Search to.
func Rank(ctx context.Context, b volley.Battle, p *Problem, o Objective, k int) (*Advice, error) {
	if err := p.validate(o); err != nil {
		return nil, err
	}
	if k < 1 {
		k = 1
	}
	adv := &Advice{Actor: p.Actor, Side: p.Side, Objective: o.String(), Scores: o.Describe(p.Measure),
		Measure: p.Measure, Total: p.Total(), Complete: true, Method: "every plan scored by the battle's exact odds", Notes: p.Notes}
	if adv.Total == 0 {
		return nil, volley.Errorf(volley.EINVALID, "advise: %s has no legal plan", p.Actor)
	}
	var best []rankedPlan
	var failed error
	each(p, func(picks []int) bool {
		if err := ctx.Err(); err != nil {
			adv.Complete, adv.Stopped = false, "the deadline passed ("+err.Error()+")"
			return false
		}
		if adv.Scored >= MaxRanked {
			adv.Complete, adv.Stopped = false, fmt.Sprintf("the limit of %d plans scored one by one was reached", MaxRanked)
			return false
		}
		odds, err := OddsOf(ctx, b, p.Action(picks))
		if err != nil {
			failed = fmt.Errorf("advise: plan %v of %s: %w", picks, p.Actor, err)
			return false
		}
		adv.Scored++
		v := ScoreOdds(p, o, odds)
		pos := len(best)
		for pos > 0 && v > best[pos-1].value+tieTolerance {
			pos--
		}
		dists := measureDists(p, odds)
		for i := pos - 1; i >= 0 && best[i].value <= v+tieTolerance; i-- {
			if sameDists(best[i].dists, dists) {
				return true // the same plan to a player (see search.leaf)
			}
		}
		if pos <= k {
			best = slices.Insert(best, pos, rankedPlan{scored{v, slices.Clone(picks), dists}, odds})
			if len(best) > k+1 {
				best = best[:k+1]
			}
		}
		return true
	})
	if failed != nil {
		return nil, failed
	}
	if !adv.Complete {
		adv.Stopped = fmt.Sprintf("%s after %d of %d plans", adv.Stopped, adv.Scored, adv.Total)
	}
	all := make([]scored, len(best))
	for i, r := range best {
		all[i] = r.scored
		if i == k {
			break
		}
		pl := Plan{Rank: i + 1, Variant: p.Variant, Value: r.value, picks: r.picks, prob: p, Action: p.Action(r.picks)}
		for s, sl := range p.Slots {
			pl.Picks = append(pl.Picks, Pick{Slot: sl.Label, Target: sl.Choices[r.picks[s]].Target})
		}
		pl.Targets = summaries(p, r.odds)
		adv.Plans = append(adv.Plans, pl)
	}
	setGaps(adv.Plans, all)
	if len(best) > k {
		adv.runnerUp = &best[k].value
	}
	return adv, nil
}

type rankedPlan struct {
	scored
	odds volley.Odds
}

// each calls f with every legal plan of p, in slot and choice order, until f says stop.
func each(p *Problem, f func(picks []int) bool) {
	picks := make([]int, len(p.Slots))
	var walk func(d int, used []string) bool
	walk = func(d int, used []string) bool {
		if d == len(p.Slots) {
			return f(picks)
		}
		for i, c := range p.Slots[d].Choices {
			next, ok := withTarget(used, c.Target, p.MaxTargets)
			if !ok {
				continue
			}
			picks[d] = i
			if !walk(d+1, next) {
				return false
			}
		}
		return true
	}
	walk(0, nil)
}

// Each calls f with every legal plan of p, in slot and choice order, until f returns
// false: the brute force a test compares a search with.
func Each(p *Problem, f func(picks []int) bool) { each(p, f) }

// OddsOf decodes an action written as a plan's Action and asks the battle's Odds, as a
// player's action would be decoded and priced.
//
// A nil body is a plan that holds all fire: nothing happens.
func OddsOf(ctx context.Context, b volley.Battle, body map[string]any) (volley.Odds, error) {
	if body == nil {
		return volley.Odds{Targets: []volley.TargetOdds{}, Values: map[string]float64{}}, nil
	}
	a, err := DecodePlan(b, body)
	if err != nil {
		return volley.Odds{}, err
	}
	return b.Odds(ctx, a)
}

// DecodePlan decodes a plan's action as the API would.
func DecodePlan(b volley.Battle, body map[string]any) (volley.Action, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	doc, err := scenario.Parse("plan", raw)
	if err != nil {
		return nil, err
	}
	return b.DecodeAction(doc)
}

// ScoreOdds is the objective's value of an action's odds.
func ScoreOdds(p *Problem, o Objective, odds volley.Odds) float64 {
	v := 0.0
	switch o.Kind {
	case Expected:
		for _, t := range odds.Targets {
			v += t.Mean[p.Measure]
		}
	case Destroyed:
		for _, t := range odds.Targets {
			v += t.PDestroyed
		}
	case Destroy:
		for _, t := range odds.Targets {
			if t.Target == o.Unit {
				v += t.PDestroyed
			}
		}
	case AtLeast:
		if len(odds.Joint) > 0 {
			// The targets share a die: their joint distribution says how often the total
			// reaches k.
			for _, j := range odds.Joint {
				n := 0
				for _, c := range j.Outcome {
					n += c
				}
				if n >= o.K {
					v += j.P
				}
			}
			return v
		}
		total := dice.Const(0)
		for _, t := range odds.Targets {
			total = total.Add(t.Distributions[p.Measure]).Cap(o.K)
		}
		v = total.AtLeast(o.K)
	}
	return v
}

// measureDists is each of p's targets' distribution of the measure in odds, in
// p.Targets' order (nil for a target the odds do not touch), to tell like plans apart.
func measureDists(p *Problem, odds volley.Odds) [][]float64 {
	out := make([][]float64, len(p.Targets)+1)
	for _, t := range odds.Targets {
		i := slices.IndexFunc(p.Targets, func(x Target) bool { return x.ID == t.Target })
		if i < 0 {
			i = len(p.Targets) // a unit the problem did not list: compared all the same
		}
		d := t.Distributions[p.Measure]
		row := make([]float64, 0, max(d.Max(), 0)+2)
		for _, oc := range d.Outcomes() {
			for len(row) <= max(oc.Value, 0) {
				row = append(row, 0)
			}
			row[max(oc.Value, 0)] += oc.P
		}
		out[i] = append(row, t.PDestroyed)
	}
	return out
}

// summaries is what an action's odds do to each target, in the advice's form.
func summaries(p *Problem, odds volley.Odds) []TargetSummary {
	var out []TargetSummary
	for _, t := range odds.Targets {
		d := t.Distributions[p.Measure]
		if d.Max() == 0 && t.PDestroyed == 0 {
			continue
		}
		dist := make([]float64, max(d.Max(), 0)+1)
		for _, oc := range d.Outcomes() {
			if oc.Value >= 0 {
				dist[oc.Value] = oc.P
			}
		}
		out = append(out, TargetSummary{Target: t.Target, Mean: t.Mean[p.Measure], PDestroyed: t.PDestroyed, Dist: dist})
	}
	return out
}

// StandingByOdds is StandingOf for a problem that does not split by slot: every plan is
// scored by the battle's Odds, up to MaxRanked of them.
func StandingByOdds(ctx context.Context, b volley.Battle, p *Problem, o Objective, v float64) (better, tied int64, complete bool, err error) {
	n := 0
	complete = true
	each(p, func(picks []int) bool {
		if ctx.Err() != nil || n >= MaxRanked {
			complete = false
			return false
		}
		n++
		odds, e := OddsOf(ctx, b, p.Action(picks))
		if e != nil {
			err = e
			return false
		}
		switch w := ScoreOdds(p, o, odds); {
		case w > v+tieTolerance:
			better++
		case w >= v-tieTolerance:
			tied++
		}
		return true
	})
	return better, tied, complete, err
}
