package opponent

import (
	"context"
	"fmt"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
)

// Match is a battle played to its end by players, one a side, with the battle's own
// dice: action n rolls from Seed.ForAction(n), and the players' choices before it draw
// from Seed.ForChoice(n), so that the same scenario, seed and players give the same
// battle.
type Match struct {
	Game    *volley.Game
	Players map[string]*Player
	Seed    dice.Seed
	// Log holds every action taken, in order.
	Log []Entry
	// MaxActions bounds a battle that would not end (a scenario without a last round
	// played by two sides that never destroy each other): past it Play stops.
	MaxActions int
}

// Entry is one action of a match: as sent (its reasons in a comment), by whom, and what
// came of it.
type Entry struct {
	Seq     int
	Side    string
	Body    string
	Outcome volley.Outcome
	Why     string
	Weighed int
}

// DefaultMaxActions is the most actions Play takes when MaxActions is 0.
const DefaultMaxActions = 2000

// Next asks the players for the next action: the side whose turn it is, except that
// before it ends its phase or turn every other side may take what it may take then
// (Republique's artillery fire step lets both sides fire). It returns nil when no player
// has anything to do.
func (m *Match) Next(ctx context.Context) (string, *Decision, error) {
	t := m.Game.Battle().State().Turn
	if t == nil || m.Game.Over() {
		return "", nil, nil
	}
	rng := m.Seed.ForChoice(len(m.Log))
	p := m.Players[t.Side]
	if p == nil {
		return "", nil, fmt.Errorf("opponent: nobody plays %s", t.Side)
	}
	d, err := p.Next(ctx, m.Game, rng)
	if err != nil {
		return "", nil, err
	}
	if d == nil || (t.End != nil && same(d.Action, t.End)) {
		for side, other := range sorted(m.Players) {
			if side == t.Side {
				continue
			}
			od, err := other.Next(ctx, m.Game, rng)
			if err != nil {
				return "", nil, err
			}
			if od != nil {
				return side, od, nil
			}
		}
	}
	return t.Side, d, nil
}

// Step takes the next action. It reports false when none was taken: the battle is over,
// or nobody has anything to do.
func (m *Match) Step(ctx context.Context) (bool, error) {
	side, d, err := m.Next(ctx)
	if err != nil || d == nil {
		return false, err
	}
	return true, m.take(ctx, side, d)
}

// take resolves a decision of side's as the next action, with the battle's dice.
func (m *Match) take(ctx context.Context, side string, d *Decision) error {
	seq := len(m.Log)
	body := d.Body()
	_, actor, out, err := m.Game.Replay(ctx, body, m.Seed.ForAction(seq))
	if err != nil {
		return fmt.Errorf("opponent: %s's action %d (%s) was refused: %w", side, seq, body, err)
	}
	if actor != side {
		return fmt.Errorf("opponent: %s took action %d (%s), which is %s's", side, seq, body, actor)
	}
	m.Log = append(m.Log, Entry{Seq: seq, Side: actor, Body: body, Outcome: out, Why: d.Why, Weighed: d.Weighed})
	return nil
}

// Play takes actions until the battle is over, nobody has anything to do, or
// MaxActions have been taken.
func (m *Match) Play(ctx context.Context) error {
	limit := m.MaxActions
	if limit == 0 {
		limit = DefaultMaxActions
	}
	for len(m.Log) < limit {
		more, err := m.Step(ctx)
		if err != nil || !more {
			return err
		}
	}
	return nil
}

// sorted iterates over players in the order of their sides' names.
func sorted(ps map[string]*Player) func(func(string, *Player) bool) {
	return func(yield func(string, *Player) bool) {
		var sides []string
		for s := range ps {
			sides = append(sides, s)
		}
		for i := range sides {
			for j := i + 1; j < len(sides); j++ {
				if sides[j] < sides[i] {
					sides[i], sides[j] = sides[j], sides[i]
				}
			}
		}
		for _, s := range sides {
			if !yield(s, ps[s]) {
				return
			}
		}
	}
}
