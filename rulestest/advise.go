package rulestest

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/dice"
)

// AdviceTrials and AdviceTolerance are the Monte Carlo check of a recommended plan: its
// objective over AdviceTrials seeded draws must lie within AdviceTolerance of the exact
// value (for a count, within that fraction of it, or of 1 if it is smaller). At 200,000
// draws the standard error of a chance is at most 0.0011, so 0.01 is about nine of them.
const (
	AdviceTrials    = 200_000
	AdviceTolerance = 0.01
)

// CheckAdvice holds the advisor to the two things it must agree with, for every problem
// q gives and every objective: the best value Advise finds equals the maximum over every
// legal plan, each scored by the battle's own Odds on its decoded action (brute force);
// and a Monte Carlo run of the recommended plan agrees with its exact value. It returns
// the advice per objective, for further checks.
func CheckAdvice(tb testing.TB, b volley.Battle, q advise.Query, objectives ...advise.Objective) map[string][]*advise.Advice {
	tb.Helper()
	ctx := context.Background()
	probs, err := b.(advise.Planner).Problems(ctx, q)
	if err != nil {
		tb.Fatalf("problems: %v", err)
	}
	if len(probs) == 0 {
		tb.Fatalf("no problem for %+v", q)
	}
	out := map[string][]*advise.Advice{}
	for _, o := range objectives {
		out[o.String()] = advised(tb, b, q, o)
		for _, adv := range out[o.String()] {
			if !adv.Complete {
				tb.Fatalf("%s %s: search cut short: %s", adv.Actor, o, adv.Stopped)
			}
			// The brute force: every legal plan of every variant, by the battle's Odds.
			brute := math.Inf(-1)
			n := int64(0)
			for _, p := range probs {
				if p.Actor != adv.Actor {
					continue
				}
				advise.Each(p, func(picks []int) bool {
					odds, err := advise.OddsOf(ctx, b, p.Action(picks))
					if err != nil {
						tb.Fatalf("%s plan %v: %v", p.Actor, picks, err)
					}
					n++
					brute = max(brute, advise.ScoreOdds(p, o, odds))
					return true
				})
			}
			if n != adv.Total {
				tb.Errorf("%s %s: %d plans counted, brute force walked %d", adv.Actor, o, adv.Total, n)
			}
			best := adv.Plans[0]
			if math.Abs(best.Value-brute) > 1e-9 {
				tb.Errorf("%s %s: advisor's best %.12f, brute force %.12f", adv.Actor, o, best.Value, brute)
			}
			checkPlanByMonteCarlo(tb, b, probs, adv, o)
		}
	}
	return out
}

// checkPlanByMonteCarlo simulates the recommended plan and compares its objective.
func checkPlanByMonteCarlo(tb testing.TB, b volley.Battle, probs []*advise.Problem, adv *advise.Advice, o advise.Objective) {
	tb.Helper()
	smp, ok := b.(volley.Sampler)
	if !ok {
		return
	}
	best := adv.Plans[0]
	if best.Action == nil { // the best is to hold all fire: nothing to simulate
		if best.Value != 0 {
			tb.Errorf("%s %s: holding all fire scores %v", adv.Actor, o, best.Value)
		}
		return
	}
	a, err := advise.DecodePlan(b, best.Action)
	if err != nil {
		tb.Fatalf("decode plan: %v", err)
	}
	sim, err := smp.Sampler(a)
	if err != nil {
		tb.Fatalf("sampler: %v", err)
	}
	r := volley.Simulate(sim, 1, AdviceTrials, nil)
	var p *advise.Problem
	for _, q := range probs {
		if q.Actor == adv.Actor && q.Variant == best.Variant {
			p = q
		}
	}
	mc := advise.ScoreOdds(p, o, volley.Odds{Targets: r.Targets})
	tol := AdviceTolerance
	if o.Kind == advise.Expected || o.Kind == advise.Destroyed {
		tol *= max(1, best.Value)
	}
	if math.Abs(mc-best.Value) > tol {
		tb.Errorf("%s %s: exact %.4f, Monte Carlo %.4f over %d draws (tolerance %.4f)", adv.Actor, o, best.Value, mc, AdviceTrials, tol)
	}
}

// advised is the advisor's three best plans for o, failing the test on an error.
func advised(tb testing.TB, b volley.Battle, q advise.Query, o advise.Objective) []*advise.Advice {
	tb.Helper()
	advice, err := advise.Advise(context.Background(), b, q, o, 3, advise.DefaultBudget)
	if err != nil {
		tb.Fatalf("advise %s: %v", o, err)
	}
	return advice
}

// CheckAdviceSteps is CheckAdvice for systems whose plans take several actions (Steps):
// shot asks for the action of a step that shoots, in the form Odds and Sampler take (nil
// for a step that does not). The brute force scores every plan from its shots' Odds,
// each target's measure convolved over the shots and capped; Monte Carlo draws every
// shot of the best plan with its own dice and adds them up per target.
func CheckAdviceSteps(tb testing.TB, b volley.Battle, q advise.Query, shot func(step map[string]any) volley.Action, objectives ...advise.Objective) map[string][]*advise.Advice {
	tb.Helper()
	ctx := context.Background()
	probs, err := b.(advise.Planner).Problems(ctx, q)
	if err != nil || len(probs) == 0 {
		tb.Fatalf("problems: %d, %v", len(probs), err)
	}
	distsOf := func(p *advise.Problem, steps []map[string]any) [][]float64 {
		dists := make([][]float64, len(p.Targets))
		for _, st := range steps {
			a := shot(st)
			if a == nil {
				continue
			}
			odds, err := b.Odds(ctx, a)
			if err != nil {
				tb.Fatalf("odds of %v: %v", st, err)
			}
			for _, t := range odds.Targets {
				k := slices.IndexFunc(p.Targets, func(x advise.Target) bool { return x.ID == t.Target })
				if k < 0 {
					continue
				}
				e := advise.Capped(t.Distributions[p.Measure], p.Targets[k].Left)
				if dists[k] == nil {
					dists[k] = e
					continue
				}
				out := make([]float64, len(e))
				advise.Convolve(out, dists[k], e)
				dists[k] = out
			}
		}
		return dists
	}
	out := map[string][]*advise.Advice{}
	for _, o := range objectives {
		out[o.String()] = advised(tb, b, q, o)
		for _, adv := range out[o.String()] {
			brute, n := math.Inf(-1), int64(0)
			var bestP *advise.Problem
			for _, p := range probs {
				if p.Actor != adv.Actor {
					continue
				}
				advise.Each(p, func(picks []int) bool {
					n++
					brute = max(brute, o.Score(p, distsOf(p, p.Steps(picks))))
					return true
				})
				if p.Variant == adv.Plans[0].Variant {
					bestP = p
				}
			}
			if n != adv.Total {
				tb.Errorf("%s %s: %d plans counted, brute force walked %d", adv.Actor, o, adv.Total, n)
			}
			best := adv.Plans[0]
			if math.Abs(best.Value-brute) > 1e-9 {
				tb.Errorf("%s %s: advisor's best %.12f, brute force %.12f", adv.Actor, o, best.Value, brute)
			}
			// Monte Carlo: every shot of the best plan drawn with its own dice.
			var sims []*volley.Sim
			for _, st := range best.Steps {
				if a := shot(st); a != nil {
					sim, err := b.(volley.Sampler).Sampler(a)
					if err != nil {
						tb.Fatalf("sampler: %v", err)
					}
					sims = append(sims, sim)
				}
			}
			total := 0.0
			loss := map[string]int{}
			for trial := range AdviceTrials {
				d := dice.ForActionUnrecorded(7, trial)
				clear(loss)
				for _, sim := range sims {
					m := slices.Index(sim.Measures, bestP.Measure)
					vals := make([]int, len(sim.Targets)*len(sim.Measures))
					sim.Draw(d, vals)
					for i, id := range sim.Targets {
						loss[id] += vals[i*len(sim.Measures)+m]
					}
				}
				dists := make([][]float64, len(bestP.Targets))
				for k, t := range bestP.Targets {
					if l, ok := loss[t.ID]; ok {
						dists[k] = make([]float64, t.Left+1)
						dists[k][min(l, t.Left)] = 1
					}
				}
				total += o.Score(bestP, dists)
			}
			mc := total / AdviceTrials
			tol := AdviceTolerance
			if o.Kind == advise.Expected || o.Kind == advise.Destroyed {
				tol *= max(1, best.Value)
			}
			if math.Abs(mc-best.Value) > tol {
				tb.Errorf("%s %s: exact %.4f, Monte Carlo %.4f over %d draws", adv.Actor, o, best.Value, mc, AdviceTrials)
			}
		}
	}
	return out
}
