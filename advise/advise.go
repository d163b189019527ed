package advise

import (
	"context"
	"fmt"
	"slices"

	"github.com/volley-wargames/volley"
)

// Advise finds the k best plans of every squad, unit or battery q names, under o: with
// Search where the problem splits by slot, with Rank where it does not. The ways of
// firing one actor has (its variants) are ranked together.
func Advise(ctx context.Context, b volley.Battle, q Query, o Objective, k int, budget Budget) ([]*Advice, error) {
	pl, ok := b.(Planner)
	if !ok {
		return nil, volley.Errorf(volley.ENOTSUPPORTED, "advise: this rule system has no advisor")
	}
	if q.Side == "" {
		switch {
		case q.From != nil && q.From.Kind() != volley.EndTurn:
			q.Side = b.Actor(q.From)
		case b.State().Turn != nil:
			q.Side = b.State().Turn.Side
		default:
			return nil, volley.Errorf(volley.EINVALID, "advise: the battle keeps no turns: say which side fires")
		}
	}
	if err := CheckAdviceWork(b, q); err != nil {
		return nil, err
	}
	if err := CheckDestroyTarget(b, q.Side, o); err != nil {
		return nil, err
	}
	probs, err := pl.Problems(ctx, q)
	if err != nil {
		return nil, err
	}
	if len(probs) == 0 {
		return nil, &NothingMayFire{Side: q.Side}
	}
	if o.Kind == Destroy {
		// Only the actors that can hurt the unit have a plan worth showing.
		var keep []*Problem
		for _, p := range probs {
			if anyHasTarget(probs, p.Actor, o.Unit) {
				keep = append(keep, p)
			}
		}
		if len(keep) == 0 {
			if q.Actor != "" {
				return nil, volley.Errorf(volley.EINVALID, "advise: %s cannot hurt %q: no weapon of it can reach it", q.Actor, o.Unit)
			}
			return nil, volley.Errorf(volley.EINVALID, "advise: no squad, unit or battery of %s can hurt %q: no weapon can reach it", sideName(q.Side), o.Unit)
		}
		probs = keep
	}
	var out []*Advice
	var actor []*Advice
	flush := func() {
		if len(actor) > 0 {
			out = append(out, merge(actor, k))
			actor = nil
		}
	}
	for i, p := range probs {
		if i > 0 && p.Actor != probs[i-1].Actor {
			flush()
		}
		var a *Advice
		if p.Decomposes() {
			a, err = Search(ctx, p, o, k, budget)
		} else {
			a, err = Rank(ctx, b, p, o, k)
		}
		if err != nil {
			return nil, err
		}
		actor = append(actor, a)
	}
	flush()
	return out, nil
}

// NothingMayFire is Advise's error when no unit of the side asked about (or not the
// actor asked about) may fire now: the question was sound, and its answer is "nothing".
// It is an invalid request (volley.EINVALID) to whoever asks for plans to carry out; the
// server answers it as an empty list of advice.
type NothingMayFire struct{ Side string }

func (e *NothingMayFire) Error() string {
	return fmt.Sprintf("advise: nothing of %s may fire now", sideName(e.Side))
}

// Unwrap gives the error's code: EINVALID, with the same message.
func (e *NothingMayFire) Unwrap() error {
	return &volley.Error{Code: volley.EINVALID, Message: e.Error()}
}

// CheckAdviceWork refuses advice whose problems would cost more to build than
// volley.MaxWork, for planners that price them (Coster); the search that follows is
// bounded by its Budget.
func CheckAdviceWork(b volley.Battle, q Query) error {
	c, ok := b.(Coster)
	if !ok {
		return nil
	}
	if work := c.AdviceCost(q); work > volley.MaxWork {
		return volley.Errorf(volley.EINVALID, "advise: listing the plans would cost %d steps of work, more than volley.MaxWork (%d): name one squad, unit or battery (actor)", work, volley.MaxWork)
	}
	return nil
}

// Coster is implemented by planners whose problems cost enough to build (every weapon
// against every enemy, with its line of sight) that the work is bounded before it starts,
// in volley.MaxWork's steps.
type Coster interface {
	AdviceCost(q Query) int64
}

func sideName(s string) string {
	if s == "" {
		return "the side to act"
	}
	return s
}

func hasTarget(p *Problem, id string) bool {
	return slices.ContainsFunc(p.Targets, func(t Target) bool { return t.ID == id })
}

func anyHasTarget(probs []*Problem, actor, id string) bool {
	for _, p := range probs {
		if p.Actor == actor && hasTarget(p, id) {
			return true
		}
	}
	return false
}

// merge ranks the plans of one actor's ways of firing together.
func merge(as []*Advice, k int) *Advice {
	if len(as) == 1 {
		return as[0]
	}
	m := *as[0]
	m.Plans, m.Total, m.Scored, m.Bounded, m.Complete, m.Stopped, m.Notes = nil, 0, 0, 0, true, "", nil
	var all []Plan
	for _, a := range as {
		all = append(all, a.Plans...)
		m.Total = addSat(m.Total, a.Total)
		m.Scored += a.Scored
		m.Bounded = addSat(m.Bounded, a.Bounded)
		m.Complete = m.Complete && a.Complete
		if a.Stopped != "" {
			m.Stopped = joinWords(m.Stopped, a.Stopped)
		}
		for _, n := range a.Notes {
			if !slices.Contains(m.Notes, n) {
				m.Notes = append(m.Notes, n)
			}
		}
	}
	slices.SortStableFunc(all, func(x, y Plan) int {
		switch {
		case x.Value > y.Value+tieTolerance:
			return -1
		case y.Value > x.Value+tieTolerance:
			return 1
		}
		return 0
	})
	// Each variant kept its own (k+1)-th best, so every gap among the first k is to the
	// right next plan.
	values := make([]float64, 0, len(all)+len(as))
	for _, p := range all {
		values = append(values, p.Value)
	}
	for _, a := range as {
		if a.runnerUp != nil {
			values = append(values, *a.runnerUp)
		}
	}
	slices.SortFunc(values, func(x, y float64) int {
		switch {
		case x > y:
			return -1
		case x < y:
			return 1
		}
		return 0
	})
	for i := range all {
		all[i].Rank = i + 1
		all[i].Gap = 0
		if i+1 < len(values) {
			all[i].Gap = max(0, all[i].Value-values[i+1])
		}
	}
	if len(all) > k {
		all = all[:k]
	}
	m.Plans = all
	return &m
}

func joinWords(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// Standing is where an action a player chose stands among its actor's legal plans.
type Standing struct {
	Actor string  `json:"actor"`
	Value float64 `json:"value"`
	// Rank is 1 + the number of plans that score more; Tied counts the plans that score
	// the same, the action's own among them.
	Rank     int64 `json:"rank"`
	Tied     int64 `json:"tied"`
	Total    int64 `json:"total"`
	Complete bool  `json:"complete"`
}

// Place scores the action q.From under o with the battle's Odds and says where it stands
// among the plans of its actor (the problems Problems gives for q). It answers nil where
// a plan takes several actions (War Engine), so that one action is not a whole plan.
func Place(ctx context.Context, b volley.Battle, q Query, o Objective, budget Budget) (*Standing, error) {
	if q.From == nil {
		return nil, volley.Errorf(volley.EINVALID, "advise: no action to place")
	}
	if q.Side == "" {
		q.Side = b.Actor(q.From)
	}
	probs, err := b.(Planner).Problems(ctx, q)
	if err != nil {
		return nil, err
	}
	if len(probs) == 0 {
		return nil, volley.Errorf(volley.EINVALID, "advise: the action's squad has no plan")
	}
	if probs[0].Action == nil {
		return nil, nil // a plan of several actions: one action is not a plan to place
	}
	odds, err := b.Odds(ctx, q.From)
	if err != nil {
		return nil, err
	}
	st := &Standing{Actor: probs[0].Actor, Value: ScoreOdds(probs[0], o, odds), Rank: 1, Complete: true}
	for _, p := range probs {
		if p.Actor != st.Actor {
			continue
		}
		var better, tied int64
		ok := true
		if p.Decomposes() {
			better, tied, ok = StandingOf(ctx, p, o, st.Value, budget)
		} else if better, tied, ok, err = StandingByOdds(ctx, b, p, o, st.Value); err != nil {
			return nil, err
		}
		st.Rank += better
		st.Tied += tied
		st.Total = addSat(st.Total, p.Total())
		st.Complete = st.Complete && ok
	}
	return st, nil
}
