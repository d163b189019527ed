package opponent

import (
	"context"

	"github.com/volley-wargames/volley"
)

// Moving before firing, as the strong level weighs it (session 45).
//
// Where a unit moves and then fires in one activation and its fire ends it (WarStrike's
// "its models move before it shoots, and it acts once a turn"; Warfare's), a fire plan
// and a move of the same unit are not two choices of the same kind. A fire option is
// worth what it is likely to destroy; a move is worth its gain over standing still, by
// rank, and rank counts the offence of each place already (the best fire from there
// after the move), so the gain is what the whole activation gains by going there and
// firing from there rather than firing from here. Compared as they were, a fire worth
// more than the move's gain was taken first, and the move was lost with it: Fireteam
// Alpha, 39% likely to be destroyed where it stood on the crossroads in the last round,
// fired at 28% (worth 0.75) where a place 3″ away, 7% likely, still on the crossroads and
// with a shot from there, gained 0.39 over staying (WarStrike against random, seed 14,
// battle 24; the Support team destroyed it, and took the crossroads).
//
// So a move of a unit whose fire would end its move, to a place from which that same fire
// plan can still be taken, is worth its gain and the plan's worth: what moving and then
// firing is worth against the fire alone (the gain carries the difference between the
// two places' fire, as the map counts it). A move to a place from which the plan cannot be
// taken (a longer action that does not allow shooting, the target out of sight or reach,
// a shot at another enemy only) gives that fire up: it is worth its gain and what the map
// counted of the fire from here, which the gain took off, and no more; its worth is then
// what the place itself is worth, with whatever fire the map counts from there, set
// against the whole fire option. Credit for a fire it cannot take let a step into cover,
// or to a lesser shot, outweigh a shot worth more than the map counts (the lone holder of
// an objective in the last round, planner_held.go): a reviewer's finding on session 45's
// code, and a second review's on the first fix, which credited any place with some shot.
// Whether a shot ends the move is read from the battle, by firing the unit's best plan on a
// copy of it, and whether the plan can be taken after the move by moving, then firing, on
// another: where the unit may still move after firing (a Dropzone squad), nothing changes.
// None of this is in any of the texts.

// moveFirst adds to each strong move option the value of its unit's best fire option,
// where firing that plan first would leave the unit no move and the plan can still be
// taken after the move; to a move that gives the plan up, what its gain took off for it
// (see above).
func (p *Player) moveFirst(ctx context.Context, v *view, fire, moves []option) {
	if p.Policy.Level != Strong || len(fire) == 0 || len(moves) == 0 {
		return
	}
	best := bestFire(fire)
	if p.endsMove == nil {
		p.endsMove = map[string]bool{}
	}
	for i := range moves {
		f, ok := best[moves[i].actor]
		if !ok {
			continue
		}
		// Whether a shot ends the unit's move is the rules' and the same all phase
		// (its activation has not begun while it may still do either): read once.
		end, known := p.endsMove[f.actor]
		if !known {
			// Where it cannot be told (a copy that refuses the shot), the unit is
			// taken to keep its move, and not asked again this phase.
			end, _ = v.fireEndsMove(ctx, f)
			p.endsMove[f.actor] = end
		}
		switch {
		case !end:
		case moves[i].shotThere && v.firesAfter(ctx, moves[i], f):
			moves[i].value += f.value
			moves[i].why += "; better than firing from where it stands, which would end its move"
		default:
			moves[i].value += moves[i].offenceHere
			moves[i].why += "; worth more than its fire from where it stands, which it gives up"
		}
	}
}

// fireEndsMove reports whether firing f, on a copy of the battle, leaves f's actor no
// piece that may still move, and whether that could be told (false where the battle
// cannot be copied or the shot is not taken: then it does not end the move).
func (v *view) fireEndsMove(ctx context.Context, f option) (ends, told bool) {
	c, ok := v.onCopy(ctx, f.action)
	if !ok {
		return false, false
	}
	after := read(volley.NewGame(c, v.end))
	for _, pc := range after.pieces {
		if after.actorOf(pc) == f.actor && !pc.destroyed && pc.move != nil && pc.move.Why == "" && pc.move.Left > 0 {
			return false, true
		}
	}
	return true, true
}

// firesAfter reports whether fire option f can still be taken after move option m, on a
// copy of the battle: m's move, then f's action (false where either is refused, or the
// battle cannot be copied).
func (v *view) firesAfter(ctx context.Context, m, f option) bool {
	_, ok := v.onCopy(ctx, m.action, f.action)
	return ok
}

// bestFire is each actor's most valuable fire option worth anything, by actor.
func bestFire(fire []option) map[string]option {
	best := map[string]option{}
	for _, o := range fire {
		if b, ok := best[o.actor]; o.value > 0 && (!ok || o.value > b.value) {
			best[o.actor] = o
		}
	}
	return best
}
