package rules

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/scenario"
)

// Exact odds across a script. The action asked about (the last of a scenario's script)
// is asked of every battle the actions before it may leave, each with its chance: the
// actions are played in every way their dice may fall (dice.Ways), one action at a time,
// and the battles they leave are merged where they are equal, so that the next action is
// played from each different battle once.

// Branch is one battle the actions before the one asked about may leave, and its chance.
type Branch struct {
	Battle volley.Battle
	// P is the chance of this battle: the sum, over the ways of the dice that lead to it,
	// of each way's chance.
	P float64
	// Ways counts the ways of the dice, through every action before, that lead to it.
	Ways int64
}

// Limits of exact odds across a script. They are a command line's: the server never
// plays a script (it resolves one action a request), so a question may take seconds, as
// long as it is bounded before it starts and stops when the user interrupts it.
const (
	// MaxScriptWays is the most ways of the dice the actions before the one asked about
	// may be played in, counted over all of them: each way is a copy of a battle, a
	// resolution and a comparison, whatever the action's own cost says.
	MaxScriptWays = 200_000
	// MaxScriptWork is the most work exact odds across a script may do, in
	// volley.MaxWork's steps (about a nanosecond each): the ways of the actions before
	// the one asked about, each priced at its action's Cost and wayWork, and the action
	// asked about from every different battle they leave. Five heavy requests' worth,
	// about ten seconds of one core.
	MaxScriptWork = 5 * volley.MaxHeavyWork
	// wayWork is the work of one way beyond the action's Cost, in volley.MaxWork's steps:
	// the copy of the battle, and its comparison with the battles already reached (its
	// state written as the key they are found by, and the battle compared field by field),
	// as measured on The War Engine's example of moves.yaml, whose map is 320 squares.
	wayWork = 20_000
)

// scriptTooCostly is the error of a script whose earlier actions fall in too many ways
// for exact odds, by action n (from 0): ways is the count of ways, work the work priced,
// both estimated when estimated is true.
func scriptTooCostly(n int, kind string, ways, work int64, estimated bool) error {
	what := fmt.Sprintf("%d ways (volley refuses more than %d)", ways, MaxScriptWays)
	switch {
	case ways > MaxScriptWays && !estimated:
		what = fmt.Sprintf("more than %d ways, volley's limit", MaxScriptWays)
	case ways <= MaxScriptWays:
		what = fmt.Sprintf("%d ways and about %d steps of work (volley refuses more than %d)", ways, work, int64(MaxScriptWork))
	}
	if estimated {
		what = "about " + what + ", as ways drawn at random estimate them"
	}
	return volley.Errorf(volley.ETOOLARGE, "rules: exact odds over every way the dice of the actions before the one asked about may fall are too costly here: by action %d (%s) they come to %s; ask for the odds given one roll of them with --seed N", n+1, kind, what)
}

// Branches plays the script's first n actions on b in every way their dice may fall,
// and returns every different battle they may leave with its chance (in the order first
// reached), without touching b. Two battles are merged when they are equal in everything
// an action could read of them: the same State, and the same battle field by field
// (reflect.DeepEqual), so that a fact State leaves out (a wall's hits left) never merges
// two battles that differ. b must be a volley.Forker.
//
// Every action must be played in every way: an action that does not decode, or that the
// rules refuse, in some of the battles the ones before it leave is an error that says in
// how many of them (by chance) and why.
//
// The work is priced before it is done, action by action: the ways of each are first
// estimated from a few ways drawn at random (dice.Probe), and an action whose ways would
// plainly pass MaxScriptWays or MaxScriptWork is refused then; the ways are then counted
// as they are played, and the enumeration stops at either limit, so that the work done
// before a refusal is never more than they allow. work adds up the work, in
// volley.MaxWork's steps. The refusal is an ETOOLARGE error.
func (s *Script) Branches(ctx context.Context, b volley.Battle, n int, work *int64) ([]Branch, error) {
	if _, ok := b.(volley.Forker); !ok {
		return nil, volley.Errorf(volley.ENOTSUPPORTED, "rules: this battle cannot be copied, so the outcomes of a script's actions cannot be counted")
	}
	p := pricing{work: work}
	branches := []Branch{{Battle: b, P: 1, Ways: 1}}
	for i := range n {
		var next merged
		var refusedP float64
		var refused error
		kind := ""
		acts := make([]volley.Action, len(branches))
		docs := make([]*scenario.Doc, len(branches))
		for j, br := range branches {
			a, doc, err := s.Action(i, br.Battle)
			if err != nil {
				refusedP += br.P
				refused = err
				continue
			}
			acts[j], docs[j], kind = a, doc, a.Kind()
		}
		if refused != nil {
			return nil, notEverywhere(i, kind, refusedP, refused)
		}
		if err := p.estimate(ctx, i, kind, branches, acts); err != nil {
			return nil, err
		}
		for j, br := range branches {
			a := acts[j]
			if a == nil {
				continue
			}
			w := dice.NewWays()
			cost := br.Battle.Cost(a)
			for {
				if err := p.way(ctx, i, kind, cost); err != nil {
					return nil, err
				}
				fork := br.Battle.(volley.Forker).Fork()
				if _, err := fork.Resolve(ctx, a, w.Stream()); err != nil {
					if c := volley.ErrorCode(err); c == volley.EINTERNAL || c == volley.EUNAVAILABLE || ctx.Err() != nil {
						return nil, err
					}
					refusedP += br.P * w.P()
					refused = placed(docs[j], err)
				} else if err := next.add(fork, br.P*w.P(), br.Ways); err != nil {
					return nil, err
				}
				if !w.Next() {
					break
				}
			}
			if err := w.Err(); err != nil {
				return nil, volley.Errorf(volley.EINTERNAL, "rules: action %d (%s): %v", i+1, kind, err)
			}
		}
		if refused != nil {
			return nil, notEverywhere(i, kind, refusedP, refused)
		}
		branches = next.list
	}
	return branches, nil
}

// probes is how many ways of an action are drawn at random from each battle to estimate
// how many it has, and estimateMargin how far above a limit the estimate must be for the
// action to be refused on it alone: the estimate is unbiased but spread, and the count
// catches what it misses.
const (
	probes         = 16
	estimateMargin = 2
)

// pricing counts the ways of a script's actions and their work against the limits.
type pricing struct {
	ways int64
	work *int64
}

// wayCost is the work of one way of an action that costs cost.
func (p *pricing) wayCost(cost int64) int64 { return cost + wayWork }

// way counts one way of action i that costs cost, refusing it past a limit.
func (p *pricing) way(ctx context.Context, i int, kind string, cost int64) error {
	p.ways++
	*p.work += p.wayCost(cost)
	if p.ways > MaxScriptWays || *p.work > MaxScriptWork {
		return scriptTooCostly(i, kind, p.ways, *p.work, false)
	}
	return ctx.Err()
}

// estimate prices action i from each battle before it is played in every way: a few
// ways drawn at random estimate how many there are (dice.Probe), and the action is
// refused when they plainly pass a limit. The probes' work counts too.
func (p *pricing) estimate(ctx context.Context, i int, kind string, branches []Branch, acts []volley.Action) error {
	ways, work := float64(p.ways), float64(*p.work)
	for j, br := range branches {
		a := acts[j]
		if a == nil {
			continue
		}
		w := dice.Probe(dice.NewUnrecorded(uint64(i)))
		cost := p.wayCost(br.Battle.Cost(a))
		sum := 0.0
		for range probes {
			*p.work += cost
			if err := ctx.Err(); err != nil {
				return err
			}
			if _, err := br.Battle.(volley.Forker).Fork().Resolve(ctx, a, w.Stream()); err != nil && ctx.Err() != nil {
				return err
			}
			sum += 1 / w.P()
		}
		ways += sum / probes
		work += sum / probes * float64(cost)
	}
	if ways > estimateMargin*MaxScriptWays || work > estimateMargin*MaxScriptWork {
		return scriptTooCostly(i, kind, int64(math.Round(ways)), int64(math.Round(work)), true)
	}
	return nil
}

// notEverywhere is the error of action i (from 0), of kind kind, that cannot be read or
// played in the battles of chance p the actions before it leave: err says why in one of
// them. An action that fails in every battle is err itself, as a single play would say.
func notEverywhere(i int, kind string, p float64, err error) error {
	if kind == "" || p > 1-1e-9 {
		return err
	}
	return fmt.Errorf("rules: action %d (%s) cannot be played in %s of the ways the actions before it fall, so exact odds over them cannot be counted (ask for the odds given one roll of them with --seed N): %w", i+1, kind, percent(p), err)
}

// placed is the error of an action the rules refuse, at the place the action is written
// when it is written in the file's actions: (doc is nil for its action:).
func placed(doc *scenario.Doc, err error) error {
	if doc == nil {
		return err
	}
	return scenario.ErrorList{{Pos: doc.Root(), Msg: strings.TrimSpace(err.Error())}}
}

// percent writes a chance for a message.
func percent(p float64) string { return fmt.Sprintf("%.3g%%", p*100) }

// merged gathers the battles the ways of one action leave, equal ones once.
type merged struct {
	list  []Branch
	byKey map[string][]int
	last  int // the battle the last way left: the next often leaves the same
}

func (m *merged) add(b volley.Battle, p float64, ways int64) error {
	if len(m.list) > 0 && reflect.DeepEqual(m.list[m.last].Battle, b) {
		m.list[m.last].P += p
		m.list[m.last].Ways += ways
		return nil
	}
	key, err := json.Marshal(b.State())
	if err != nil {
		return volley.Errorf(volley.EINTERNAL, "rules: a battle's state: %v", err)
	}
	if m.byKey == nil {
		m.byKey = map[string][]int{}
	}
	for _, i := range m.byKey[string(key)] {
		if i != m.last && reflect.DeepEqual(m.list[i].Battle, b) {
			m.list[i].P += p
			m.list[i].Ways += ways
			m.last = i
			return nil
		}
	}
	m.last = len(m.list)
	m.byKey[string(key)] = append(m.byKey[string(key)], len(m.list))
	m.list = append(m.list, Branch{Battle: b, P: p, Ways: ways})
	return nil
}

// Asked is one action of a script asked about (Script.Ask): the battles the actions
// before it may leave, each with its chance, and the action as it is read in each.
type Asked struct {
	// N is the action's place in the script, from 0; Kind its kind.
	N    int
	Kind string
	// Branches are the battles it is asked of. Actions[i] is the action decoded against
	// Branches[i].Battle.
	Branches []Branch
	Actions  []volley.Action
	// Ways counts the ways of the dice of the actions before it that were played (1
	// with Seed).
	Ways int64
	// Seed, when not nil, is the seed whose dice the actions before it were played with:
	// the answer is conditioned on that one roll of theirs, as `volley resolve --seed`
	// rolls them (action i with the dice of (seed, i)).
	Seed *uint64
	// Work is the work priced so far, in volley.MaxWork's steps.
	Work int64
	// Move is true when the action is a move (or a deployment): it declares no shot and
	// rolls no die whatever the dice of the actions before it did, so they were not
	// played in every way. Its one battle is the one they leave with the dice of seed 0.
	Move bool
}

// Ask readies action n (from 0) of the script for Aim and Odds. Without a seed the
// actions before it are played on copies of b in every way their dice may fall
// (Branches), and b is left as it was; with one, they are played on b with that seed's
// dice, as Play plays them. The action is then decoded against each battle they leave;
// it must decode in all of them. The work of asking it of every battle is priced here,
// before any of it is done: it must fit in MaxScriptWork with the ways' work.
func (s *Script) Ask(ctx context.Context, b volley.Battle, n int, seed *uint64) (*Asked, error) {
	q := &Asked{N: n, Seed: seed, Ways: 1}
	if seed == nil && n > 0 {
		if f, a := s.moveAt(ctx, b, n); a != nil {
			q.Kind, q.Move, q.Ways = a.Kind(), true, 0
			q.Branches, q.Actions = []Branch{{Battle: f, P: 1}}, []volley.Action{a}
			return q, nil
		}
	}
	if seed != nil {
		if _, err := s.Play(ctx, b, *seed, n); err != nil {
			return nil, err
		}
		q.Branches = []Branch{{Battle: b, P: 1, Ways: 1}}
	} else {
		var err error
		if q.Branches, err = s.Branches(ctx, b, n, &q.Work); err != nil {
			return nil, err
		}
		q.Ways = 0
		for _, br := range q.Branches {
			q.Ways += br.Ways
		}
	}
	var failedP float64
	var failed error
	for _, br := range q.Branches {
		a, _, err := s.Action(n, br.Battle)
		if err != nil {
			failedP += br.P
			failed = err
			q.Actions = append(q.Actions, nil)
			continue
		}
		q.Kind = a.Kind()
		q.Actions = append(q.Actions, a)
		// Aim and Odds each: at most twice the action's Cost.
		q.Work += 2 * br.Battle.Cost(a)
	}
	if failed != nil {
		return nil, notEverywhere(n, q.Kind, failedP, failed)
	}
	if seed == nil && q.Work > MaxScriptWork {
		return nil, scriptTooCostly(n, q.Kind, q.Ways, q.Work, false)
	}
	return q, nil
}

// moveAt is action n as the actions before it leave the battle with the dice of seed 0,
// on a copy of b, and that copy, when the action is a move or a deployment
// (volley.Moving naming a unit); nil else, or when they cannot be played so.
func (s *Script) moveAt(ctx context.Context, b volley.Battle, n int) (volley.Battle, volley.Action) {
	fk, ok := b.(volley.Forker)
	if !ok {
		return nil, nil
	}
	f := fk.Fork()
	if _, err := s.Play(ctx, f, 0, n); err != nil {
		return nil, nil
	}
	a, _, err := s.Action(n, f)
	if m, ok := a.(volley.Moving); err != nil || !ok || m.MovedUnit() == "" {
		return nil, nil
	}
	return f, a
}

// Given is what an action's shots are in some of the battles it is asked of: their aims,
// and the chance of those battles.
type Given struct {
	P    float64      `json:"p"`
	Aims []volley.Aim `json:"aims"`
}

// Aims asks the action's aims of every battle and groups the battles whose aims are the
// same, likeliest first (the first reached first among equal chances).
func (q *Asked) Aims(ctx context.Context) ([]Given, error) {
	aims := make([][]volley.Aim, len(q.Branches))
	for i, br := range q.Branches {
		var err error
		if aims[i], err = br.Battle.Aim(ctx, q.Actions[i]); err != nil {
			return nil, err
		}
	}
	return q.group(aims)
}

// group gathers equal aims, adding the chances of their battles.
func (q *Asked) group(aims [][]volley.Aim) ([]Given, error) {
	var out []Given
	at := map[string]int{}
	for i, a := range aims {
		key, err := json.Marshal(a)
		if err != nil {
			return nil, volley.Errorf(volley.EINTERNAL, "rules: an aim: %v", err)
		}
		if j, ok := at[string(key)]; ok {
			out[j].P += q.Branches[i].P
			continue
		}
		at[string(key)] = len(out)
		out = append(out, Given{P: q.Branches[i].P, Aims: a})
	}
	slices.SortStableFunc(out, func(a, b Given) int { return cmp.Compare(b.P, a.P) })
	return out, nil
}

// Odds asks the action's odds of every battle and mixes them, each weighted by its
// chance (MixOdds). The aims are grouped as Aims groups them; the mixed odds' own Aims
// are the aims when every battle agrees on them, and nil when they do not.
func (q *Asked) Odds(ctx context.Context) (volley.Odds, []Given, error) {
	odds := make([]volley.Odds, len(q.Branches))
	aims := make([][]volley.Aim, len(q.Branches))
	ps := make([]float64, len(q.Branches))
	for i, br := range q.Branches {
		var err error
		if odds[i], err = br.Battle.Odds(ctx, q.Actions[i]); err != nil {
			return volley.Odds{}, nil, err
		}
		aims[i], ps[i] = odds[i].Aims, br.P
	}
	given, err := q.group(aims)
	if err != nil {
		return volley.Odds{}, nil, err
	}
	mixed := MixOdds(ps, odds)
	if len(given) == 1 {
		mixed.Aims = given[0].Aims
	}
	return mixed, given, nil
}

// MixOdds is the odds of an action asked of several battles, odds[i] with chance ps[i]
// (they sum to 1): each target's distributions are the mixture of its distributions in
// each battle, its means and chance of destruction the weighted sums of each; the landing
// squares and the joint outcomes add their chances; each value is its mean over the
// battles. Where every battle agrees on a distribution or a value it is kept as it is, not
// summed again. A target, measure, square or value a battle lacks counts there as 0.
// Aims are left for the caller (see Asked.Odds).
func MixOdds(ps []float64, odds []volley.Odds) volley.Odds {
	if len(odds) == 1 {
		return odds[0]
	}
	out := volley.Odds{Targets: []volley.TargetOdds{}, Values: map[string]float64{}}
	// Targets, in the order first reached, and their measures.
	var ids []string
	measures := map[string][]string{}
	for _, o := range odds {
		for _, t := range o.Targets {
			if _, ok := measures[t.Target]; !ok {
				ids = append(ids, t.Target)
				measures[t.Target] = []string{}
			}
			for m := range t.Distributions {
				if !slices.Contains(measures[t.Target], m) {
					measures[t.Target] = append(measures[t.Target], m)
				}
			}
			for m := range t.Mean {
				if !slices.Contains(measures[t.Target], m) {
					measures[t.Target] = append(measures[t.Target], m)
				}
			}
		}
	}
	find := func(o volley.Odds, id string) (volley.TargetOdds, bool) {
		for _, t := range o.Targets {
			if t.Target == id {
				return t, true
			}
		}
		return volley.TargetOdds{}, false
	}
	for _, id := range ids {
		t := volley.TargetOdds{Target: id, Distributions: map[string]dice.Dist{}, Mean: map[string]float64{}}
		ts := make([]volley.TargetOdds, len(odds))
		for i, o := range odds {
			ts[i], _ = find(o, id)
		}
		t.PDestroyed = mixValue(ps, func(i int) (float64, bool) { return ts[i].PDestroyed, true })
		for _, m := range measures[id] {
			ds := make([]dice.Dist, len(odds))
			has := false
			for i := range odds {
				d, ok := ts[i].Distributions[m]
				ds[i] = d // the zero Dist is the constant 0
				has = has || ok
			}
			if has {
				t.Distributions[m] = mixDists(ps, ds)
			}
			if mean := mixValue(ps, func(i int) (float64, bool) { v, ok := ts[i].Mean[m]; return v, ok }); has || mean != 0 {
				t.Mean[m] = mean
			}
		}
		out.Targets = append(out.Targets, t)
	}
	// Values.
	var keys []string
	for _, o := range odds {
		for k := range o.Values {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	for _, k := range keys {
		out.Values[k] = mixValue(ps, func(i int) (float64, bool) { v, ok := odds[i].Values[k]; return v, ok })
	}
	out.Squares, out.Joint = mixSquares(ps, odds), mixJoint(ps, odds)
	return out
}

// mixSquares mixes the landing squares, in row order, or keeps them where every battle
// has the same.
func mixSquares(ps []float64, odds []volley.Odds) []volley.SquareOdds {
	same := true
	for _, o := range odds[1:] {
		same = same && slices.Equal(o.Squares, odds[0].Squares)
	}
	if same {
		return odds[0].Squares
	}
	var out []volley.SquareOdds
	sq := map[[2]int]float64{}
	for i, o := range odds {
		for _, s := range o.Squares {
			sq[[2]int{s.X, s.Y}] += ps[i] * s.P
		}
	}
	for _, q := range slices.SortedFunc(maps.Keys(sq), func(a, b [2]int) int {
		return cmp.Or(cmp.Compare(a[1], b[1]), cmp.Compare(a[0], b[0]))
	}) {
		out = append(out, volley.SquareOdds{X: q[0], Y: q[1], P: sq[q]})
	}
	return out
}

// mixJoint mixes the joint outcomes, in the order first reached, or keeps them where
// every battle has the same.
func mixJoint(ps []float64, odds []volley.Odds) []volley.JointOutcome {
	same := true
	for _, o := range odds[1:] {
		same = same && reflect.DeepEqual(o.Joint, odds[0].Joint)
	}
	if same {
		return odds[0].Joint
	}
	var joint []volley.JointOutcome
	at := map[string]int{}
	for i, o := range odds {
		for _, j := range o.Joint {
			key, _ := json.Marshal(j.Outcome) // sorted keys
			if n, ok := at[string(key)]; ok {
				joint[n].P += ps[i] * j.P
				continue
			}
			at[string(key)] = len(joint)
			joint = append(joint, volley.JointOutcome{Outcome: j.Outcome, P: ps[i] * j.P})
		}
	}
	return joint
}

// mixValue is the weighted sum of one value over the battles (0 where one lacks it), or
// the value itself where every battle has the same.
func mixValue(ps []float64, v func(i int) (float64, bool)) float64 {
	first, _ := v(0)
	same := true
	sum := 0.0
	for i, p := range ps {
		x, _ := v(i)
		same = same && x == first
		sum += p * x
	}
	if same {
		return first
	}
	return sum
}

// mixDists is the mixture of ds with weights ps, or the one distribution where they are
// all the same.
func mixDists(ps []float64, ds []dice.Dist) dice.Dist {
	same := true
	for _, d := range ds[1:] {
		same = same && slices.Equal(d.Outcomes(), ds[0].Outcomes())
	}
	if same {
		return ds[0]
	}
	return dice.Mixture(ps, ds)
}
