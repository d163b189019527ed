package http

import (
	"context"
	"slices"
	"time"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/opponent"
)

// The opponent: a battle whose scenario names a side volley plays (`opponent:`) has no
// token for that side; the server takes its actions. When an action is stored, or the
// battle is read while the opponent has something to do, wakeOpponent starts a worker
// for the battle (one at most), which takes the opponent's actions one at a time, each
// as a player's action is taken (the same pricing, dice, chain and events), until the
// opponent has nothing to do now.
//
// Each decision is heavy work of the server's own: it waits for a heavy place (and holds
// no request slot), thinks under Limits.OpponentThink (past it, the opponent ends its phase or
// turn, if it may, so that a battle never stalls on it), and at most Limits.Opponents
// battles' opponents think at once. Before each action it pauses Limits.OpponentPace, so
// that its moves arrive on the page one by one, as a person's would.

// wakeOpponent starts the worker of battle id's opponent, unless one is running.
func (s *Server) wakeOpponent(id string) {
	s.botMu.Lock()
	if s.bots == nil {
		s.bots = map[string]bool{}
	}
	if s.bots[id] || s.base.Err() != nil {
		s.botMu.Unlock()
		return
	}
	s.bots[id] = true
	s.botMu.Unlock()
	s.botWG.Add(1)
	go func() {
		defer s.botWG.Done()
		defer func() {
			s.botMu.Lock()
			delete(s.bots, id)
			s.botMu.Unlock()
		}()
		for {
			more, err := s.opponentStep(id)
			if err != nil {
				if s.base.Err() == nil {
					s.logger.Warn("the opponent could not act", "battle", id, "error", err)
				}
				return
			}
			if !more {
				return
			}
		}
	}()
}

// opponentWaits reports whether the battle's opponent has its turn now: then a read of
// the battle wakes it (after a restart, or a worker that gave up).
func opponentWaits(l *live) bool {
	if l.seat == nil || l.record.Ended || l.game.Over() || l.botPassed == l.next {
		return false
	}
	if t := l.battle.State().Turn; t != nil && t.Side == l.seat.Side {
		return true
	}
	// Another side's turn, in which this side may act too (Republique's fire steps).
	return slices.Contains(offersOf(l.game, false).Acting, l.seat.Side)
}

// opponentStep takes the opponent's next action, if it has one now, and reports
// whether it took one.
func (s *Server) opponentStep(id string) (bool, error) {
	if pace := s.limits.OpponentPace; pace > 0 {
		select {
		case <-time.After(pace):
		case <-s.base.Done():
			return false, s.base.Err()
		}
	}
	ctx, cancel := context.WithTimeout(s.base, s.limits.OpponentThink+s.limits.RequestTimeout)
	defer cancel()
	if err := s.thinkers.Acquire(ctx, 1); err != nil {
		return false, err
	}
	defer s.thinkers.Release(1)
	// Its thinking is heavy work: it waits for a heavy place, as a heavy request does,
	// and holds no request slot.
	adm := &admission{s: s, client: "volley's opponent"}
	ctx = context.WithValue(ctx, admissionKey{}, adm)
	defer adm.release()
	if err := s.heavyTurn(ctx); err != nil {
		return false, err
	}
	signer, err := s.signingKey(ctx)
	if err != nil {
		return false, err
	}
	// It thinks under the read lock, so that the battle can be read meanwhile, and acts
	// under the write lock if nothing was appended since.
	l, done, err := s.openRead(ctx, id)
	if err != nil {
		return false, err
	}
	if !opponentWaits(l) {
		done()
		return false, nil
	}
	seq := l.next
	side := l.seat.Side
	t := l.battle.State().Turn
	think, stop := context.WithTimeout(ctx, s.limits.OpponentThink)
	d, err := l.bot.Next(think, l.game, l.record.Seed.ForChoice(seq))
	stop()
	done()
	if (err != nil || d == nil) && (t == nil || t.Side != side) {
		// In another side's turn it has nothing it wants to do: it lets the turn go on,
		// and is not woken again until something is appended.
		if l, done, werr := s.openWrite(ctx, id); werr == nil {
			if l.next == seq {
				l.botPassed = seq
			}
			done()
		}
		return false, err
	}
	if err != nil || d == nil {
		if t.End == nil {
			return false, err
		}
		// Out of time, or nothing it could find to do: it ends its phase or turn rather
		// than hold the battle.
		why := "nothing more it could find to do"
		if err != nil {
			why = "out of time to think"
			s.logger.Warn("the opponent ran out of time; it ends its phase", "battle", id, "error", err)
		}
		d = &opponent.Decision{Action: t.End, Why: why}
	}
	body := []byte(d.Body())
	l, done, err = s.openWritePriced(ctx, id, body)
	if err != nil {
		return false, err
	}
	defer done()
	if l.next != seq || !opponentWaits(l) {
		return true, nil // the battle moved on meanwhile: think again
	}
	a, err := decodeGameAction(l, body)
	if err != nil {
		return false, err
	}
	if actor := l.game.Actor(a); actor != side {
		return false, volley.Errorf(volley.EINTERNAL, "http: the opponent chose %s, which is %s's to take", body, actor)
	}
	if _, prev, err := s.append(ctx, l, signer, side, a, body, ""); err != nil || prev != nil {
		return false, err
	}
	return true, nil
}
