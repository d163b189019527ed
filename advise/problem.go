// Package advise searches the fire plans open to a side for the best ones, scoring each
// by its exact odds, and maps where on the table a unit is in danger.
//
// A rule system describes the choice a squad, unit or battery faces as a Problem: slots
// (a weapon, a model, a stand) that each choose a target, with the exact distribution of
// what each choice does to its target. Plans that share a target combine by convolution,
// so every weapon–target distribution is worked out once however many plans use it, and
// a branch-and-bound search skips every plan that an upper bound shows cannot reach the
// top. Systems whose outcomes do not split by slot leave the effects out; their plans
// are then scored one by one with the battle's own Odds (Rank).
package advise

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
)

// Planner is implemented by battles that can list the fire plans open to a side.
type Planner interface {
	// Problems describes the choices of every squad, unit or battery of q.Side that may
	// act now, or only of q.Actor. A system with several ways to fire (a War Engine
	// unit's weapon groups, a Republique battery's grouping) gives one Problem for each,
	// all with the same Actor.
	Problems(ctx context.Context, q Query) ([]*Problem, error)
}

// Pinner is implemented by battles whose fire can stop a unit from shooting in its later
// turns without destroying it (WarStrike's suppression markers: two pin a unit down for
// the rest of the battle, since volley takes none off).
type Pinner interface {
	// Pinned is the chance that fire whose exact odds at a target are t leaves the target
	// pinned down when its side's next turn begins: 0 for a unit that is pinned down
	// already, or could not shoot anyway.
	Pinned(t volley.TargetOdds) float64
}

// Query asks for the plans of one side.
type Query struct {
	// Side is the side that fires. Empty: the side whose turn it is.
	Side string
	// Actor is one squad, unit or battery to advise, or "" for every one that may act.
	Actor string
	// From is an action of the scenario, whose stated facts (how far each unit moved, a
	// squad out of coherency) hold for every plan of its actor. It may be nil.
	From volley.Action
	// Centres aims each weapon only at every enemy unit's centre square, as the danger
	// map does, rather than at every square round each enemy: a quicker search, which the
	// position map asks for at every point. Systems whose targets are units ignore it.
	Centres bool
}

// Problem is the choice one squad, unit or battery faces: each slot picks one of its
// choices, and a plan is one pick per slot.
//
// Invariants: every Effect's Target indexes Targets; each Effect's Dist has length at most
// Left+1 of its target (the measure is capped where the target is destroyed).
type Problem struct {
	// Actor is the squad, unit or battery that acts; Variant says which way of firing
	// this problem is ("group 2"), "" when there is one.
	Actor   string
	Variant string
	Side    string
	// Measure is what the effects count, in the system's words: damage, hits, kills…
	Measure string
	Targets []Target
	Slots   []Slot
	// MaxTargets bounds how many different targets one plan may shoot; 0 is no bound.
	MaxTargets int
	// Action writes the action that carries out a plan, in the system's own form: what
	// a scenario's action: section and the HTTP API take. picks[i] indexes Slots[i].Choices.
	// It is nil for a plan that holds all fire, which no action expresses.
	Action func(picks []int) map[string]any
	// Steps, for systems whose plan takes several actions in turn (a War Engine unit
	// chooses its group, then declares each weapon's square), writes them in order. A
	// problem has Action or Steps.
	Steps func(picks []int) []map[string]any
	// Notes are readings the problem rests on, shown with the advice.
	Notes []string
}

// Target is a unit the plans may hurt.
type Target struct {
	ID string
	// Left is the amount of the problem's measure that destroys the target (damage
	// points left, wounds to kill every model). The measure is capped there.
	Left int
	// Count maps the capped measure (0..Left) to what a player counts, when the two
	// differ: wounds to models killed. Nil is the identity.
	Count []int
}

// Slot is one weapon, model or stand that chooses a target.
type Slot struct {
	Label   string
	Choices []Choice
}

// Choice is one target for a slot, or holding fire.
type Choice struct {
	// Target is the unit or square fired at, in the system's words; "" holds fire.
	Target string
	// Effects is what the choice does, one marginal distribution per unit it may hurt.
	// A choice that may hurt several units (a blast) lists each; the effects of two
	// choices are independent (their own dice). Nil effects with a Target mean the
	// system cannot split its outcome by slot: such a problem is scored by Rank.
	Effects []Effect
}

// Effect is what one choice does to one target: Dist[n] is the chance the target loses n
// of the measure, n capped at the target's Left.
type Effect struct {
	Target int
	Dist   []float64
}

// Capped turns a distribution of the measure into an Effect's form, folding every value
// past left into left.
func Capped(d dice.Dist, left int) []float64 {
	out := make([]float64, left+1)
	for _, o := range d.Outcomes() {
		out[min(max(o.Value, 0), left)] += o.P
	}
	return out
}

// Decomposes reports whether every choice that fires carries its effects, so that the
// fast search applies.
func (p *Problem) Decomposes() bool {
	for _, s := range p.Slots {
		for _, c := range s.Choices {
			if c.Target != "" && c.Effects == nil {
				return false
			}
		}
	}
	return true
}

// ObjectiveKind names what a plan is scored by.
type ObjectiveKind string

// The objectives.
const (
	// Expected is the expected amount of the system's measure: damage, hits, casualties
	// or kills, capped at what each target has left.
	Expected ObjectiveKind = "expected"
	// Destroyed is the expected number of units destroyed.
	Destroyed ObjectiveKind = "destroyed"
	// Destroy is the chance of destroying one named unit.
	Destroy ObjectiveKind = "destroy"
	// AtLeast is the chance of at least K of the measure over every target together.
	AtLeast ObjectiveKind = "at_least"
)

// Objective is what the search maximises.
type Objective struct {
	Kind ObjectiveKind
	Unit string // Destroy's unit
	K    int    // AtLeast's count
}

// ParseObjective reads an objective as the CLI and the API take it: "expected",
// "destroyed", "destroy:UNIT" or "at_least:K". "damage", "hits", "casualties" and
// "kills" are read as "expected", the name a system's players use for its measure.
func ParseObjective(s string) (Objective, error) {
	kind, arg, _ := strings.Cut(strings.TrimSpace(s), ":")
	switch ObjectiveKind(kind) {
	case "", Expected, "damage", "hits", "casualties", "kills", "base_hits":
		return Objective{Kind: Expected}, nil
	case Destroyed:
		return Objective{Kind: Destroyed}, nil
	case Destroy:
		if arg == "" {
			return Objective{}, errors.New("advise: destroy needs a unit: destroy:UNIT")
		}
		return Objective{Kind: Destroy, Unit: arg}, nil
	case AtLeast:
		k, err := strconv.Atoi(arg)
		if err != nil || k < 1 || k > maxAtLeast {
			return Objective{}, fmt.Errorf("advise: at_least needs a count from 1 to %d: at_least:K", maxAtLeast)
		}
		return Objective{Kind: AtLeast, K: k}, nil
	}
	return Objective{}, fmt.Errorf("advise: unknown objective %q: want expected, destroyed, destroy:UNIT or at_least:K", s)
}

// maxAtLeast bounds at_least's count, so that a hostile query cannot size a convolution.
const maxAtLeast = 10000

// String writes the objective as ParseObjective reads it.
func (o Objective) String() string {
	switch o.Kind {
	case Destroy:
		return "destroy:" + o.Unit
	case AtLeast:
		return "at_least:" + strconv.Itoa(o.K)
	}
	return string(o.Kind)
}

// Describe says in words what the objective scores, for a problem's measure.
func (o Objective) Describe(measure string) string {
	switch o.Kind {
	case Destroyed:
		return "expected units destroyed"
	case Destroy:
		return "P(destroy " + o.Unit + ")"
	case AtLeast:
		return fmt.Sprintf("P(at least %d %s)", o.K, measure)
	}
	return "expected " + measure
}

// probability reports whether the objective is a chance (in [0,1]) rather than a count.
func (o Objective) probability() bool { return o.Kind == Destroy || o.Kind == AtLeast }

// Score is the objective's value for one plan of p, given each target's capped
// distribution of the measure, in p.Targets' order (nil for a target nothing fires at).
func (o Objective) Score(p *Problem, dists [][]float64) float64 { return o.score(p, dists) }

// score is the objective's value for one plan, given each target's capped distribution
// of the measure (nil for a target nothing fires at).
func (o Objective) score(p *Problem, dists [][]float64) float64 {
	switch o.Kind {
	case AtLeast:
		return atLeast(p, dists, o.K)
	}
	v := 0.0
	for t := range p.Targets {
		v += o.targetValue(p, t, dists[t])
	}
	return v
}

// targetValue is one target's share of an additive objective.
func (o Objective) targetValue(p *Problem, t int, d []float64) float64 {
	if d == nil {
		return 0
	}
	tg := &p.Targets[t]
	switch o.Kind {
	case Expected:
		return expectedCount(tg, d)
	case Destroyed:
		return d[tg.Left]
	case Destroy:
		if tg.ID == o.Unit {
			return d[tg.Left]
		}
	}
	return 0
}

// expectedCount is the mean of the counted measure.
func expectedCount(tg *Target, d []float64) float64 {
	m := 0.0
	for n, q := range d {
		m += float64(tg.count(n)) * q
	}
	return m
}

func (t *Target) count(n int) int {
	if t.Count == nil {
		return n
	}
	return t.Count[n]
}

// atLeast is the chance that the counted measure over every target reaches k. The
// targets' dice are their own, so their totals are independent.
func atLeast(p *Problem, dists [][]float64, k int) float64 {
	total := []float64{1} // total[n] = P(sum = n), with n capped at k
	for t, d := range dists {
		if d == nil {
			continue
		}
		tg := &p.Targets[t]
		next := make([]float64, k+1)
		for a, pa := range total {
			if pa == 0 {
				continue
			}
			for n, q := range d {
				if q != 0 {
					next[min(a+tg.count(n), k)] += pa * q
				}
			}
		}
		total = next
	}
	if k < len(total) {
		return total[k]
	}
	return 0
}

// validate checks a problem's invariants. (A Destroy objective whose unit the problem
// cannot hurt scores 0 on every plan; Advise refuses it when no actor can.)
func (p *Problem) validate(o Objective) error {
	if o.Kind == AtLeast {
		for _, s := range p.Slots {
			for _, c := range s.Choices {
				if len(c.Effects) > 1 {
					// The units one blast hurts share its landing: their totals are not
					// independent, and the problem holds only each one's marginal.
					return volley.Errorf(volley.EINVALID, "advise: at_least is not offered for %s: one shot of its may hurt several units at once, whose losses are not independent; use expected or destroyed", p.Actor)
				}
			}
		}
	}
	for i, t := range p.Targets {
		if t.Left < 1 || (t.Count != nil && len(t.Count) != t.Left+1) {
			return fmt.Errorf("advise: target %d (%s): bad left or count", i, t.ID)
		}
	}
	for _, s := range p.Slots {
		if len(s.Choices) == 0 {
			return fmt.Errorf("advise: slot %s has no choice", s.Label)
		}
		for _, c := range s.Choices {
			for _, e := range c.Effects {
				if e.Target < 0 || e.Target >= len(p.Targets) || len(e.Dist) > p.Targets[e.Target].Left+1 {
					return fmt.Errorf("advise: slot %s: an effect on a target out of range", s.Label)
				}
			}
		}
	}
	return nil
}

// Total counts the legal plans: one pick per slot, at most MaxTargets different
// targets. It saturates at math.MaxInt64.
func (p *Problem) Total() int64 {
	c := newCounter(p)
	return c.completions(0, nil)
}

// counter counts the plans that complete a partial plan, remembering its answers.
type counter struct {
	p    *Problem
	memo map[string]int64
}

func newCounter(p *Problem) *counter { return &counter{p: p, memo: map[string]int64{}} }

// completions counts the ways to pick slots from..end, given the targets used so far
// (sorted, only kept when MaxTargets bounds them).
func (c *counter) completions(from int, used []string) int64 {
	if from == len(c.p.Slots) {
		return 1
	}
	if c.p.MaxTargets == 0 {
		n := int64(1)
		for _, s := range c.p.Slots[from:] {
			n = satMul(n, int64(len(s.Choices)))
		}
		return n
	}
	key := strconv.Itoa(from) + "|" + strings.Join(used, "|")
	if n, ok := c.memo[key]; ok {
		return n
	}
	n := int64(0)
	for _, ch := range c.p.Slots[from].Choices {
		next, ok := withTarget(used, ch.Target, c.p.MaxTargets)
		if ok {
			n = addSat(n, c.completions(from+1, next))
		}
	}
	c.memo[key] = n
	return n
}

// withTarget adds a target to a sorted set of the targets used, unless that would pass
// max. Holding fire uses no target.
func withTarget(used []string, t string, maxTargets int) ([]string, bool) {
	if t == "" || maxTargets == 0 {
		return used, true
	}
	for i, u := range used {
		if u == t {
			return used, true
		}
		if u > t {
			if len(used) >= maxTargets {
				return nil, false
			}
			next := make([]string, 0, len(used)+1)
			next = append(append(append(next, used[:i]...), t), used[i:]...)
			return next, true
		}
	}
	if len(used) >= maxTargets {
		return nil, false
	}
	return append(append(make([]string, 0, len(used)+1), used...), t), true
}

// addSat is a+b for non-negative a and b, or the largest int64 when that overflows (as
// satMul).
func addSat(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
