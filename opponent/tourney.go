package opponent

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
)

// NewGame starts a game of a scenario: the caller's function, so that this package
// names no rule system.
type NewGame func() (*volley.Game, error)

// SeedOf is the dice seed of battle n of a series played from seed: ChaCha8 keyed with
// the SHA-256 of "volley tourney <seed> <n>", the generator a server's battles roll with.
func SeedOf(seed uint64, n int) dice.Seed {
	sum := sha256.Sum256(fmt.Appendf(nil, "volley tourney %d %d", seed, n))
	return dice.Seed{Generator: dice.GeneratorChaCha8, Bytes: sum[:]}
}

// Tourney is the result of a series of battles between two policies, a and b, the sides
// swapped every other battle.
type Tourney struct {
	A, B    string `json:"-"`
	Battles int    `json:"battles"`
	WinsA   int    `json:"wins_a"`
	WinsB   int    `json:"wins_b"`
	Draws   int    `json:"draws"`
	// Unfinished counts battles stopped at MaxActions without an end (a draw above).
	Unfinished int `json:"unfinished,omitempty"`
	// Low and High bound a's share of wins (a draw counting half) at 95% (Wilson's
	// interval).
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	// ScoreA and ScoreB are each policy's mean score.
	ScoreA float64 `json:"score_a"`
	ScoreB float64 `json:"score_b"`
	// Turn times: the time each policy took to plan a side's turn, its 50th and 95th
	// percentiles in milliseconds, over every turn of the series (a turn is the actions
	// a side takes before the other acts).
	TurnA Percentiles `json:"turn_ms_a"`
	TurnB Percentiles `json:"turn_ms_b"`
	// CPU per turn: the CPU time the whole process spent planning each turn, over all
	// its threads (a position map's rows are shared among the cores). On a machine busy
	// with other work the wall time above stretches while this does not; on an idle one a
	// turn's wall time is at most its CPU time, since planning is all the process does.
	// Zero where the system does not give a process's CPU time.
	CPUA Percentiles `json:"turn_cpu_ms_a"`
	CPUB Percentiles `json:"turn_cpu_ms_b"`
}

// Percentiles are a duration's median, 95th percentile and maximum, in milliseconds.
type Percentiles struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	Max float64 `json:"max"`
}

// PlayTourney plays n battles of newGame between a and b from seed: battle i gives a the
// first side when i is even, the second when it is odd (the sides in the order the
// scenario's units name them). progress, if not nil, is told after each battle.
func PlayTourney(ctx context.Context, newGame NewGame, a, b Policy, n int, seed uint64, progress func(done int)) (*Tourney, error) {
	t := &Tourney{A: a.String(), B: b.String(), Battles: n}
	var timesA, timesB, cpuA, cpuB []float64
	for i := range n {
		g, err := newGame()
		if err != nil {
			return nil, err
		}
		sides := volley.Sides(g.Battle().State())
		if len(sides) != 2 {
			return nil, fmt.Errorf("opponent: a tourney needs a battle of two sides, not %d", len(sides))
		}
		sa, sb := sides[0], sides[1]
		if i%2 == 1 {
			sa, sb = sb, sa
		}
		m := &Match{Game: g, Seed: SeedOf(seed, i), Players: map[string]*Player{
			sa: {Policy: a, Side: sa}, sb: {Policy: b, Side: sb},
		}}
		ta, tb, err := m.timedPlay(ctx, sa, sb)
		if err != nil {
			return nil, fmt.Errorf("opponent: battle %d: %w", i, err)
		}
		timesA, timesB = append(timesA, ta.wall...), append(timesB, tb.wall...)
		cpuA, cpuB = append(cpuA, ta.cpu...), append(cpuB, tb.cpu...)
		r := g.Result()
		if !r.Over {
			t.Unfinished++
		}
		switch r.Winner {
		case sa:
			t.WinsA++
		case sb:
			t.WinsB++
		default:
			t.Draws++
		}
		t.ScoreA += r.Scores[sa] / float64(n)
		t.ScoreB += r.Scores[sb] / float64(n)
		if progress != nil {
			progress(i + 1)
		}
	}
	t.Low, t.High = wilson(float64(t.WinsA)+float64(t.Draws)/2, float64(n))
	t.TurnA, t.TurnB = percentiles(timesA), percentiles(timesB)
	t.CPUA, t.CPUB = percentiles(cpuA), percentiles(cpuB)
	return t, nil
}

// turnTimes are the turns of one side: for each run of actions it took in a row (a turn,
// or a phase's answers), the wall time and the process's CPU time spent choosing them,
// in milliseconds.
type turnTimes struct{ wall, cpu []float64 }

// timedPlay plays the match and returns the turn times of each of two sides.
func (m *Match) timedPlay(ctx context.Context, sa, sb string) (ta, tb turnTimes, err error) {
	limit := m.MaxActions
	if limit == 0 {
		limit = DefaultMaxActions
	}
	wall, cpu, runSide := 0.0, 0.0, ""
	flush := func() {
		switch runSide {
		case sa:
			ta.wall, ta.cpu = append(ta.wall, wall), append(ta.cpu, cpu)
		case sb:
			tb.wall, tb.cpu = append(tb.wall, wall), append(tb.cpu, cpu)
		}
		wall, cpu = 0, 0
	}
	for len(m.Log) < limit {
		start, startCPU := time.Now(), cpuTime()
		side, d, err := m.Next(ctx)
		took, tookCPU := float64(time.Since(start).Microseconds())/1000, cpuTime()-startCPU
		if err != nil {
			return ta, tb, err
		}
		if d == nil {
			break
		}
		if side != runSide {
			flush()
			runSide = side
		}
		wall += took
		cpu += tookCPU
		if err := m.take(ctx, side, d); err != nil {
			return ta, tb, err
		}
	}
	flush()
	return ta, tb, nil
}

// wilson is the 95% Wilson score interval of k successes in n trials.
func wilson(k, n float64) (float64, float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959963984540054
	p := k / n
	d := 1 + z*z/n
	c := p + z*z/(2*n)
	h := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n))
	return max(0, (c-h)/d), min(1, (c+h)/d)
}

// percentiles reads the median, 95th percentile (nearest rank) and maximum of xs.
func percentiles(xs []float64) Percentiles {
	if len(xs) == 0 {
		return Percentiles{}
	}
	s := slices.Sorted(slices.Values(xs))
	rank := func(q float64) float64 { return s[min(len(s)-1, int(math.Ceil(q*float64(len(s))))-1)] }
	return Percentiles{P50: rank(0.5), P95: rank(0.95), Max: s[len(s)-1]}
}
