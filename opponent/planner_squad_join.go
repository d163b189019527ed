package opponent

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
)

// A squad's member stepping to join its squad's fire, as the strong level weighs it
// (sessions 47 and 48).
//
// A Dropzone squad shoots once a turn, all its units together, and their shots at one
// target add up: one Sabre's railgun cannot destroy a Gun Beast of three damage points
// (0.83 damage expected), two together can (29%). A unit's position map counts the
// offence of the unit alone, as the enemies it is expected to destroy, so a place from
// which a member's shot would only add to its squad's focus fire counts nothing there,
// and the member stays where it sees nothing while the squad fires without it: in
// Dropzone against random (seed 13, battles 2 and 20, the second round) sabre-3 alone
// fired at beast-2 (0% to destroy, 0.83 and 1.39 damage expected) while sabre-2 stood
// behind the ruin, and both battles were drawn 2 to 2. Session 46's step before the fire
// (planner_squad_fire.go) credits only a place with a shot of the member's own.
//
// So for each member that has no part in its squad's best fire, the places from which it
// has any shot (a second map of the unit's reach, its offence the damage it is expected
// to do there) are weighed as the first map weighs a place, without that offence, and
// each of the best is tried on a copy of the battle: the move, then the squad's best
// fire from there, valued as a fire option is. A move whose squad fire after it is worth
// more than the squad's best fire now is worth its gain (danger, objectives) and that
// fire: it stands against firing now by what the member's shot adds, less what the
// place costs in danger. None of this is in any of the texts: the Shooting chapter says
// a squad declares and shoots together, not where a player moves first.
//
// Only a squad whose fire now can destroy nothing steps out so: one that sees nothing,
// or whose best fire is damage only (the second rounds above). A squad whose fire can
// destroy fires as it is: in the opening, sabre-3 stepping to (23, 7.5) to add its shot
// to the two Sabres' 29% (66%) won more against random but lost against greedy, whose
// beast-2 then closed on the walkers and destroyed them (session 47, seeds 13 and 14:
// 53, 12, 15 of 80 against 65, 12, 3).

// joinPlaces is how many places of a member's second map are tried on a copy.
const joinPlaces = 4

// squadJoin are the strong level's moves of squads' members to places from which they
// add to their squad's best fire (see above), beside moves, the moves already weighed.
func (p *Player) squadJoin(ctx context.Context, v *view, fire []option) []option {
	if p.Policy.Level != Strong {
		return nil
	}
	ps, ok := v.b.(advise.Positioner)
	if !ok {
		return nil
	}
	best := bestFire(fire)
	destroying := map[string]bool{}
	for _, o := range fire {
		destroying[o.actor] = destroying[o.actor] || o.destroys
	}
	var opts []option
	for _, pc := range v.pieces {
		if pc.side != p.Side || pc.destroyed || pc.move == nil || pc.move.Why != "" || !(pc.move.Left > 0) {
			continue
		}
		squad := v.actorOf(pc)
		// A squad with no fire now (none of its members sees a target) is worth nothing
		// firing now: its first member to step to a shot is credited with that shot.
		f, has := best[squad]
		if squad == pc.id || v.owner(pc) != pc.id || p.fired[squad] || p.endsMove[squad] || declares(f, pc.id) {
			continue // a unit that is its own actor, a squad that has fired, a member that fires now
		}
		if has && destroying[squad] {
			continue // a fire that can destroy is taken as it is (above)
		}
		unit := pc.id
		base := p.rank(v, unit)
		base, _ = p.staging(v, pc, unit, base)
		// The first map's rank, without the offence: the member alone destroys nothing
		// from such a place, and what its shot adds is the squad's fire, read on a copy.
		plain := func(pt advise.PositionPoint) float64 {
			pt.Offence = 0
			return base(pt)
		}
		q := advise.PositionQuery{Unit: unit, Objective: advise.Objective{Kind: advise.Expected}, Danger: advise.Destroyed, Step: p.Step, Top: joinPlaces,
			Rank: func(pt advise.PositionPoint) float64 {
				if !(pt.Offence > 0) {
					return math.Inf(-1) // no shot from there
				}
				return plain(pt)
			}}
		key := fmt.Sprintf("join %s %g %g %g %d %s%s", unit, pc.x, pc.y, pc.move.Left, v.destroyed(), p.phase, p.objectivesKey(v, pc, unit)) + p.firedKey(v, pc, unit)
		m := p.maps[key]
		if m == nil {
			var err error
			if m, err = ps.Position(advise.WithCores(ctx, 1), q); err != nil {
				continue
			}
			if p.maps == nil || len(p.maps) > 64 {
				p.maps = map[string]*advise.PositionMap{}
			}
			p.maps[key] = m
		}
		here := plain(nearest(m, m.From))
		for _, pt := range m.Top {
			body := pt.Move
			if body == nil || !(pt.Offence > 0) {
				continue
			}
			gain := plain(pt) - here
			if !v.legal(ctx, body) {
				continue
			}
			c, ok := v.onCopy(ctx, body)
			if !ok {
				continue
			}
			after, why := p.squadFireOn(ctx, v, c, squad)
			if after <= f.value+minGain || gain+after <= f.value {
				continue
			}
			o := option{kind: "move", actor: squad, action: body, value: gain + after}
			o.why = fmt.Sprintf("%s to (%s, %s), %s away: %s chance of being destroyed there; joins its squad's fire first (%s)", unit, num(pt.X), num(pt.Y),
				length(pt.Reach, m.Length), pct(pt.Danger), why)
			if !v.enemyAfter {
				o.why += "; no enemy acts after it before the end"
			}
			opts = append(opts, o)
		}
	}
	return opts
}

// squadFireOn is the worth of squad's best fire on c, a copy of v's battle after a move,
// valued as fireOptions values a plan (its targets' points by their chance of being
// destroyed and the damage done, and what their objectives come to without them), with
// the words that say what it is likely to destroy.
func (p *Player) squadFireOn(ctx context.Context, v *view, c volley.Battle, squad string) (float64, string) {
	cv := read(volley.NewGame(c, v.end))
	best, why := 0.0, ""
	for _, kind := range []advise.ObjectiveKind{advise.Destroyed, advise.Expected} {
		advice, err := advise.Advise(ctx, c, advise.Query{Side: p.Side, Actor: squad}, advise.Objective{Kind: kind}, 1, budget)
		if err != nil {
			continue
		}
		for _, a := range advice {
			for _, pl := range a.Plans {
				value := 0.0
				var words []string
				for _, t := range pl.Targets {
					progress := 0.0
					if n := len(t.Dist) - 1; n > 0 {
						progress = t.Mean / float64(n)
					}
					value += cv.points[t.Target] * (t.PDestroyed + 0.2*progress)
					if t.PDestroyed > 0 {
						gain, _ := cv.unheld(p.Side, t.Target)
						value += t.PDestroyed * gain
					}
					if t.PDestroyed >= 0.005 {
						words = append(words, fmt.Sprintf("%s to destroy %s", pct(t.PDestroyed), t.Target))
					} else {
						words = append(words, fmt.Sprintf("%s %s expected on %s", num(t.Mean), a.Measure, t.Target))
					}
				}
				if value > best {
					best, why = value, "then "+strings.Join(words, "; ")
				}
			}
		}
	}
	return best, why
}
