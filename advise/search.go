package advise

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/volley-wargames/volley"
)

// Advice is the best plans of one squad, unit or battery under one objective.
type Advice struct {
	Actor     string `json:"actor"`
	Side      string `json:"side"`
	Objective string `json:"objective"`
	// Scores says in words what Value counts.
	Scores  string `json:"scores"`
	Measure string `json:"measure"`
	// Plans are the best plans, best first.
	Plans []Plan `json:"plans"`
	// Total is the number of legal plans; Scored how many were scored one by one;
	// Bounded how many were set aside, in whole branches, by an upper bound below the
	// plans kept. Scored+Bounded = Total when the search is Complete.
	Total    int64 `json:"total"`
	Scored   int64 `json:"scored"`
	Bounded  int64 `json:"bounded"`
	Complete bool  `json:"complete"`
	// Stopped says why a search was cut short, and how far it got.
	Stopped string   `json:"stopped,omitempty"`
	Method  string   `json:"method"`
	Notes   []string `json:"notes,omitempty"`
	// runnerUp is the value of the best plan not listed, if any.
	runnerUp *float64
}

// Plan is one way to fire, with its value and what it does to each target.
type Plan struct {
	Rank    int     `json:"rank"`
	Variant string  `json:"variant,omitempty"`
	Value   float64 `json:"value"`
	// Gap is how far this plan's value is above the next plan's, of all the legal plans
	// (not only those listed).
	Gap     float64         `json:"gap"`
	Picks   []Pick          `json:"picks"`
	Targets []TargetSummary `json:"targets"`
	// Action is the plan as an action in the system's own form, ready to send; Steps
	// the actions in order, for systems whose plan takes several.
	Action map[string]any   `json:"action"`
	Steps  []map[string]any `json:"steps,omitempty"`
	picks  []int
	prob   *Problem
}

// Pick is one slot's choice.
type Pick struct {
	Slot   string `json:"slot"`
	Target string `json:"target"` // "" holds fire
}

// TargetSummary is what a plan does to one target.
type TargetSummary struct {
	Target     string    `json:"target"`
	Mean       float64   `json:"mean"`
	PDestroyed float64   `json:"p_destroyed"`
	Dist       []float64 `json:"dist"`
}

// Budget bounds a search: the nodes of the search tree it may visit (each a convolution
// of one choice into its targets), then it stops and reports the best found.
type Budget struct {
	Nodes int64
}

// DefaultBudget is what a search may do unless told otherwise: about a second of work
// on this machine's slowest problems.
var DefaultBudget = Budget{Nodes: 20_000_000}

// Search finds the k best plans of p under o by branch and bound. p must decompose (see
// Problem.Decomposes). The search stops when ctx is done or the budget is spent, and
// says so in the advice; the plans are then the best of those seen.
func Search(ctx context.Context, p *Problem, o Objective, k int, budget Budget) (*Advice, error) {
	if err := p.validate(o); err != nil {
		return nil, err
	}
	if !p.Decomposes() {
		return nil, fmt.Errorf("advise: %s's plans do not split by slot: use Rank", p.Actor)
	}
	if k < 1 {
		k = 1
	}
	if p.Total() == 0 {
		return nil, volley.Errorf(volley.EINVALID, "advise: %s has no legal plan", p.Actor)
	}
	s := newSearch(ctx, p, o, k+1, budget)
	s.walk(0)
	adv := s.advice(k)
	return adv, nil
}

// search is one branch-and-bound run. The state is each target's capped distribution of
// the measure under the picks so far; a pick convolves its effects into it and undoing it
// restores the arrays saved on the way down. Nothing is allocated per node.
type search struct {
	ctx    context.Context
	p      *Problem
	o      Objective
	keep   int
	budget Budget
	// dists[t] is target t's distribution now, nil while nothing fires at it; vals[t]
	// its share of an additive objective.
	dists     [][]float64
	vals      []float64
	objective float64
	// bufs[depth][e] is where the depth's e-th effect writes its target's new array.
	bufs  [][][]float64
	saves [][]saved
	// bound[d] bounds what slots d.. can add to the objective.
	bound []float64
	// For at_least: tail[d][j] bounds the chance that slots d.. add j or more to the
	// total (see atLeastBound), and total, spare are its scratch.
	tail         [][]float64
	total, spare []float64
	picks        []int
	used         []string
	counter      *counter
	best         []scored
	nodes        int64
	scored       int64
	bounded      int64
	stopped      string
}

type scored struct {
	value float64
	picks []int
	dists [][]float64 // each target's distribution, to tell like plans apart
}

func newSearch(ctx context.Context, p *Problem, o Objective, keep int, budget Budget) *search {
	s := &search{ctx: ctx, p: p, o: o, keep: keep, budget: budget,
		dists: make([][]float64, len(p.Targets)), vals: make([]float64, len(p.Targets)),
		bufs: make([][][]float64, len(p.Slots)), saves: make([][]saved, len(p.Slots)), bound: make([]float64, len(p.Slots)+1),
		picks: make([]int, len(p.Slots)), counter: newCounter(p)}
	for d, sl := range p.Slots {
		most := 0
		for _, c := range sl.Choices {
			most = max(most, len(c.Effects))
		}
		s.bufs[d] = make([][]float64, most)
		s.saves[d] = make([]saved, most)
		for e := range s.bufs[d] {
			s.bufs[d][e] = make([]float64, 0, s.maxLeft()+1)
		}
	}
	for d := len(p.Slots) - 1; d >= 0; d-- {
		b := 0.0
		for _, c := range p.Slots[d].Choices {
			b = max(b, s.choiceBound(c))
		}
		s.bound[d] = s.bound[d+1] + b
	}
	if o.Kind == AtLeast {
		s.total, s.spare = make([]float64, o.K+1), make([]float64, o.K+1)
		s.tail = atLeastTails(p, o.K)
	}
	return s
}

// atLeastTails bounds what the slots from each depth on can add to the counted total.
// Each slot's choices are bounded by one distribution U whose tail P(U ≥ j) is the
// largest tail of any choice: every choice is stochastically below it. A slot adds at
// most its choice's counted effect to the total (capping only takes away, and Count is
// subadditive), so the total at the end lies below the total now plus the U of every
// slot left, each independent. tail[d][j] is P(U_d + … + U_last ≥ j), for j up to k;
// nil where the bound does not hold (a Count that is not subadditive, a choice hurting
// several targets).
func atLeastTails(p *Problem, k int) [][]float64 {
	for _, t := range p.Targets {
		if !subadditive(&t) {
			return nil
		}
	}
	n := len(p.Slots)
	sum := make([]float64, k+1) // the pmf of U_d + … + U_last, capped at k
	sum[0] = 1
	tails := make([][]float64, n+1)
	tails[n] = tailOf(sum)
	for d := n - 1; d >= 0; d-- {
		up := make([]float64, k+2) // up[j] = the largest P(choice ≥ j)
		up[0] = 1
		for _, c := range p.Slots[d].Choices {
			if len(c.Effects) > 1 {
				return nil
			}
			for _, e := range c.Effects {
				tg := &p.Targets[e.Target]
				tailC := make([]float64, k+2)
				for n, q := range e.Dist {
					tailC[min(tg.count(n), k)] += q
				}
				for j := k - 1; j >= 0; j-- {
					tailC[j] += tailC[j+1]
				}
				for j := 1; j <= k; j++ {
					up[j] = max(up[j], tailC[j])
				}
			}
		}
		u := make([]float64, k+1)
		for j := 0; j < k; j++ {
			u[j] = max(0, up[j]-up[j+1])
		}
		u[k] = up[k]
		next := make([]float64, k+1)
		Convolve(next, sum, u)
		sum = next
		tails[d] = tailOf(sum)
	}
	return tails
}

// tailOf turns a pmf into its tail: t[j] = P(X ≥ j).
func tailOf(pmf []float64) []float64 {
	t := make([]float64, len(pmf))
	acc := 0.0
	for j := len(pmf) - 1; j >= 0; j-- {
		acc += pmf[j]
		t[j] = acc
	}
	return t
}

func (s *search) maxLeft() int {
	m := 0
	for _, t := range s.p.Targets {
		m = max(m, t.Left)
	}
	return m
}

// choiceBound is the most a choice can add to the objective, whatever was picked before
// it. Adding fire to a target never lowers its measure, so the objective never falls as
// picks are made, and a branch can end no higher than its value now plus the bounds of
// the slots left.
//   - Expected: E[min(X+Y, c)] − E[min(X, c)] ≤ E[min(Y, c)] (capping is subadditive).
//     With a Count that is not subadditive, the bound is Count(c)·P(Y ≥ 1).
//   - A chance (destroyed, destroy, at_least): it can only change when the choice does
//     something, so P(Y ≥ 1) bounds it, and for destroyed each target's gain is bounded.
func (s *search) choiceBound(c Choice) float64 {
	b := 0.0
	for _, e := range c.Effects {
		tg := &s.p.Targets[e.Target]
		some := 0.0
		for n := 1; n < len(e.Dist); n++ {
			some += e.Dist[n]
		}
		switch s.o.Kind {
		case Expected:
			if subadditive(tg) {
				b += expectedCount(tg, e.Dist)
			} else {
				b += float64(tg.count(tg.Left)) * some
			}
		case Destroy:
			if tg.ID == s.o.Unit {
				b += some
			}
		default:
			b += some
		}
	}
	if s.o.probability() {
		b = min(b, 1)
	}
	return b
}

// subadditive reports whether Count(min(a+b, c)) ≤ Count(a)+Count(b) for every a, b.
func subadditive(t *Target) bool {
	if t.Count == nil {
		return true
	}
	for a := 0; a <= t.Left; a++ {
		for b := 0; b <= t.Left; b++ {
			if t.Count[min(a+b, t.Left)] > t.Count[a]+t.Count[b] {
				return false
			}
		}
	}
	return true
}

// tieTolerance is how close two values must be to count as equal: the earlier plan
// (in slot and choice order) then ranks first, so rankings do not depend on rounding.
const tieTolerance = 1e-12

// floor is the value a branch must beat to matter: the worst plan kept, once enough are.
func (s *search) floor() (float64, bool) {
	if len(s.best) < s.keep {
		return 0, false
	}
	return s.best[len(s.best)-1].value, true
}

func (s *search) walk(d int) {
	if s.stopped != "" {
		return
	}
	s.nodes++
	if s.nodes%1024 == 0 {
		if err := s.ctx.Err(); err != nil {
			s.stopped = "the deadline passed (" + err.Error() + ")"
			return
		}
	}
	if s.budget.Nodes > 0 && s.nodes > s.budget.Nodes {
		s.stopped = fmt.Sprintf("the search budget of %d steps was spent", s.budget.Nodes)
		return
	}
	if d == len(s.p.Slots) {
		s.leaf()
		return
	}
	if f, full := s.floor(); full && s.upper(d) < f+tieTolerance {
		s.bounded = addSat(s.bounded, s.counter.completions(d, s.used))
		return
	}
	for i := range s.p.Slots[d].Choices {
		prev, ok := s.pick(d, i)
		if !ok {
			continue
		}
		s.walk(d + 1)
		s.unpick(d, i, prev)
		if s.stopped != "" {
			return
		}
	}
}

// current is the objective's value of the picks so far, as if the rest held fire. For
// at_least it is computed afresh; the others are kept up to date.
func (s *search) current() float64 {
	if s.o.Kind == AtLeast {
		return s.totalNow()[s.o.K]
	}
	return s.objective
}

// totalNow is the distribution of the counted total over every target under the picks
// so far, capped at at_least's k, in the search's scratch.
func (s *search) totalNow() []float64 {
	k := s.o.K
	clear(s.total)
	s.total[0] = 1
	for t, d := range s.dists {
		if d == nil {
			continue
		}
		tg := &s.p.Targets[t]
		clear(s.spare)
		for a, pa := range s.total {
			if pa == 0 {
				continue
			}
			for n, q := range d {
				if q != 0 {
					s.spare[min(a+tg.count(n), k)] += pa * q
				}
			}
		}
		s.total, s.spare = s.spare, s.total
	}
	return s.total
}

// atLeastBound bounds the at_least value of any plan completing the picks made before
// depth d: P(total now + what slots d.. can add ≥ k).
func (s *search) atLeastBound(d int) float64 {
	if s.tail == nil {
		return s.current() + s.bound[d]
	}
	k, b := s.o.K, 0.0
	for a, pa := range s.totalNow() {
		b += pa * s.tail[d][k-a]
	}
	return b
}

// upper bounds the value of any plan completing the picks made before depth d.
func (s *search) upper(d int) float64 {
	if s.o.Kind == AtLeast {
		return s.atLeastBound(d)
	}
	return s.objective + s.bound[d]
}

// pick takes choice i of slot d, if the bound on targets lets it add its target: its
// effects applied, its target used. It reports the targets used before it, for unpick.
func (s *search) pick(d, i int) (prev []string, ok bool) {
	c := &s.p.Slots[d].Choices[i]
	used, ok := withTarget(s.used, c.Target, s.p.MaxTargets)
	if !ok {
		return nil, false
	}
	prev = s.used
	s.used = used
	s.picks[d] = i
	s.apply(d, *c)
	return prev, true
}

// unpick takes back pick(d, i), prev the targets used before it.
func (s *search) unpick(d, i int, prev []string) {
	s.undo(d, s.p.Slots[d].Choices[i])
	s.used = prev
}

// saved remembers, per depth, what apply replaced, so that undo can put it back.
type saved struct {
	dist []float64
	val  float64
}

// apply convolves a choice's effects into their targets' arrays.
func (s *search) apply(d int, c Choice) {
	for e, eff := range c.Effects {
		t := eff.Target
		left := s.p.Targets[t].Left
		old := s.dists[t]
		out := s.bufs[d][e][:left+1]
		clear(out)
		if old == nil {
			copy(out, eff.Dist)
		} else {
			for a, pa := range old {
				if pa == 0 {
					continue
				}
				for n, q := range eff.Dist {
					out[min(a+n, left)] += pa * q
				}
			}
		}
		s.bufs[d][e] = out
		s.stash(d, e, saved{old, s.vals[t]})
		s.dists[t] = out
		v := s.o.targetValue(s.p, t, out)
		s.objective += v - s.vals[t]
		s.vals[t] = v
	}
}

func (s *search) undo(d int, c Choice) {
	for e := len(c.Effects) - 1; e >= 0; e-- {
		t := c.Effects[e].Target
		old := s.unstash(d, e)
		s.objective += old.val - s.vals[t]
		s.vals[t] = old.val
		s.dists[t] = old.dist
	}
}

// stash and unstash keep what a depth's effects replaced, in arrays sized once.
func (s *search) stash(d, e int, v saved) { s.saves[d][e] = v }

func (s *search) unstash(d, e int) saved { return s.saves[d][e] }

// leaf scores a complete plan and keeps it if it is among the best. A plan that does
// exactly what a kept plan of the same value does to every target (the same weapons
// swapped between two like firers) is the same plan to a player: it is counted, not kept.
func (s *search) leaf() {
	s.scored++
	v := s.current()
	f, full := s.floor()
	if full && v < f+tieTolerance {
		return
	}
	pos := len(s.best)
	for pos > 0 && v > s.best[pos-1].value+tieTolerance {
		pos--
	}
	for i := pos - 1; i >= 0 && s.best[i].value <= v+tieTolerance; i-- {
		if sameDists(s.best[i].dists, s.dists) {
			return
		}
	}
	if full {
		s.best = s.best[:len(s.best)-1]
	}
	s.best = slices.Insert(s.best, pos, scored{v, slices.Clone(s.picks), cloneDists(s.dists)})
}

func cloneDists(d [][]float64) [][]float64 {
	out := make([][]float64, len(d))
	for i, x := range d {
		out[i] = slices.Clone(x)
	}
	return out
}

// sameDists reports whether two plans leave every target with the same distribution.
func sameDists(a, b [][]float64) bool {
	for t := range a {
		if (a[t] == nil) != (b[t] == nil) || len(a[t]) != len(b[t]) {
			return false
		}
		for n := range a[t] {
			if math.Abs(a[t][n]-b[t][n]) > tieTolerance {
				return false
			}
		}
	}
	return true
}

// advice writes the k best plans found, each with its per-target summary.
func (s *search) advice(k int) *Advice {
	p := s.p
	adv := &Advice{Actor: p.Actor, Side: p.Side, Objective: s.o.String(), Scores: s.o.Describe(p.Measure),
		Measure: p.Measure, Total: p.Total(), Scored: s.scored, Bounded: s.bounded,
		Complete: s.stopped == "", Method: "branch and bound over exact convolutions", Notes: p.Notes}
	if s.stopped != "" {
		adv.Stopped = fmt.Sprintf("%s after %d of %d plans (%d scored, %d set aside by the bound)",
			s.stopped, addSat(s.scored, s.bounded), adv.Total, s.scored, s.bounded)
	}
	for i, b := range s.best {
		if i == k {
			break
		}
		adv.Plans = append(adv.Plans, s.p.plan(i+1, b.value, b.picks))
	}
	setGaps(adv.Plans, s.best)
	if len(s.best) > k {
		adv.runnerUp = &s.best[k].value
	}
	return adv
}

// setGaps fills each plan's gap to the next-best plan found.
func setGaps(plans []Plan, best []scored) {
	for i := range plans {
		if i+1 < len(best) {
			plans[i].Gap = max(0, best[i].value-best[i+1].value) // ties within tieTolerance read 0
		}
	}
}

// plan writes one plan: its picks, the action and what it does to each target.
func (p *Problem) plan(rank int, value float64, picks []int) Plan {
	pl := Plan{Rank: rank, Variant: p.Variant, Value: value, picks: picks, prob: p}
	dists := p.distsOf(picks)
	for i, sl := range p.Slots {
		pl.Picks = append(pl.Picks, Pick{Slot: sl.Label, Target: sl.Choices[picks[i]].Target})
	}
	for t, d := range dists {
		if d == nil {
			continue
		}
		tg := &p.Targets[t]
		counted := make([]float64, tg.count(tg.Left)+1)
		for n, q := range d {
			counted[tg.count(n)] += q
		}
		pl.Targets = append(pl.Targets, TargetSummary{Target: tg.ID, Mean: expectedCount(tg, d), PDestroyed: d[tg.Left], Dist: counted})
	}
	if p.Action != nil {
		pl.Action = p.Action(picks)
	}
	if p.Steps != nil {
		pl.Steps = p.Steps(picks)
	}
	return pl
}

// distsOf is each target's distribution under a whole plan.
func (p *Problem) distsOf(picks []int) [][]float64 {
	dists := make([][]float64, len(p.Targets))
	for i, sl := range p.Slots {
		for _, e := range sl.Choices[picks[i]].Effects {
			left := p.Targets[e.Target].Left
			old := dists[e.Target]
			if old == nil {
				dists[e.Target] = append(make([]float64, 0, left+1), e.Dist...)
				for len(dists[e.Target]) < left+1 {
					dists[e.Target] = append(dists[e.Target], 0)
				}
				continue
			}
			out := make([]float64, left+1)
			for a, pa := range old {
				for n, q := range e.Dist {
					out[min(a+n, left)] += pa * q
				}
			}
			dists[e.Target] = out
		}
	}
	return dists
}

// Value scores one plan of p directly, with no search: what a test compares the search
// with.
func Value(p *Problem, o Objective, picks []int) float64 {
	return o.score(p, p.distsOf(picks))
}

// StandingOf is where a plan of value v stands among the legal plans of p: how many score
// more, and how many the same (v's own plan among them). The search skips every branch
// whose upper bound is below v. complete is false if ctx ended or the budget ran out.
func StandingOf(ctx context.Context, p *Problem, o Objective, v float64, budget Budget) (better, tied int64, complete bool) {
	s := newSearch(ctx, p, o, 1, budget)
	s.standing(0, v, &better, &tied)
	return better, tied, s.stopped == ""
}

func (s *search) standing(d int, v float64, better, tied *int64) {
	if s.stopped != "" {
		return
	}
	s.nodes++
	if s.nodes%1024 == 0 && s.ctx.Err() != nil {
		s.stopped = "deadline"
		return
	}
	if s.budget.Nodes > 0 && s.nodes > s.budget.Nodes {
		s.stopped = "budget"
		return
	}
	if d == len(s.p.Slots) {
		now := s.current()
		switch {
		case now > v+tieTolerance:
			*better++
		case now >= v-tieTolerance:
			*tied++
		}
		return
	}
	if s.upper(d) < v-tieTolerance {
		return
	}
	for i := range s.p.Slots[d].Choices {
		if prev, ok := s.pick(d, i); ok {
			s.standing(d+1, v, better, tied)
			s.unpick(d, i, prev)
		}
	}
}
