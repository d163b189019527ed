package opponent

import (
	"context"
	"fmt"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/dice"
)

// Fire that pins an enemy down, as the strong level weighs it (session 48).
//
// In WarStrike a shot that penetrates gives its target a suppression marker, and a unit
// with two when its player's action phase begins may not shoot; volley takes no marker off
// (the text names no way to: a reading, in docs/rules/warstrike.md), so a unit pinned
// down does not shoot again in the battle. A fire option was worth
// what it was likely to destroy, and a shot that pins was worth no more than one that
// does not: the Support team (two support guns, toughness 4, two wounds a model), which
// strong's fire almost never destroys, with one marker already, was left to shoot, and in
// the last round it destroyed Fireteam Alpha on the crossroads, turning a won battle
// into a lost one (WarStrike against random, seed 11, battle 38; seed 15, battle 10,
// where Alpha advanced onto the crossroads rather than fire at the team that then
// destroyed it). A player fires at the team that threatens his objective's holder to pin
// it down, when a penetration or two will do it.
//
// A unit pinned down keeps its points and what it holds; what it loses is its fire. So a
// fire option is worth, beside what it destroys, for each enemy it may pin down, the
// chance that it does (advise.Pinner: the markers' exact distribution against what the
// target has now), as far as the target is not destroyed instead (its destruction counts
// already), times what that enemy's next fire is worth to it (threat): the points of the
// side's units its best plan is likely to destroy, and what those units' loss does to
// the objectives, as fire is weighed. Where no enemy acts after the side before the end,
// nothing. Battles that have no such thing (every system but WarStrike) do not implement
// advise.Pinner, and nothing changes there. None of this is in any of the texts; it is
// how a player reads the suppression rule.
//
// A first version counted a point (what rank counts for a unit's "after") for each enemy
// pinned, whatever it threatened: Alpha pinned the Raiders, far from anything of the
// Ironclad's worth shooting, in the last round, while the Support team, with no marker,
// destroyed it on the crossroads (seed 14, battle 24).

// pins is what the steps of a fire plan of side are worth by the enemies they may pin
// down (see above), with the words that say it; 0 where the battle has no pinning, or
// where no enemy acts after side before the end.
func (p *Player) pins(ctx context.Context, v *view, steps []map[string]any) (float64, []string) {
	pn, ok := v.b.(advise.Pinner)
	if !ok || !v.enemyAfter {
		return 0, nil
	}
	worth := 0.0
	var words []string
	for t := range v.stepTargets(ctx, steps) {
		if s := v.sideOf(t.Target); s == p.Side || s == "" {
			continue
		}
		pin := pn.Pinned(t) * (1 - t.PDestroyed)
		if pin <= 0 {
			continue
		}
		threat := p.threat(ctx, v, t.Target)
		if threat <= 0 {
			continue
		}
		worth += pin * threat
		if pin >= 0.005 {
			words = append(words, fmt.Sprintf("%s to pin %s down (its next fire worth %s)", pct(pin), t.Target, num(threat)))
		}
	}
	return worth, words
}

// threat is what enemy unit's next fire is worth against p's side: on a copy of the
// battle, p's side's phases are ended until another side's turn begins (its units'
// markers then read as that turn reads them), and the advisor's plan of the unit most
// likely to destroy is weighed as fireOptions weighs one, by the points of the side's
// units it may destroy and what their loss does to the objectives. Read once a unit for
// the battle as it stands (Player.threats); 0 where no such turn comes, or the unit may
// not shoot in it.
func (p *Player) threat(ctx context.Context, v *view, unit string) float64 {
	if w, ok := p.threats[unit]; ok {
		return w
	}
	if p.threats == nil {
		p.threats = map[string]float64{}
	}
	w := 0.0
	if next, ok := p.nextTurn(ctx, v); ok {
		after := read(volley.NewGame(next, v.end))
		enemy := v.sideOf(unit)
		advice, err := advise.Advise(ctx, next, advise.Query{Side: enemy, Actor: unit}, advise.Objective{Kind: advise.Destroyed}, 1, budget)
		if err == nil {
			for _, a := range advice {
				for _, pl := range a.Plans[:min(1, len(a.Plans))] {
					for _, t := range pl.Targets {
						if after.sideOf(t.Target) != p.Side {
							continue
						}
						gain, _ := after.unheld(enemy, t.Target)
						w += t.PDestroyed * (after.points[t.Target] + gain)
					}
				}
				break
			}
		}
	}
	p.threats[unit] = w
	return w
}

// nextTurn is a copy of the battle at the beginning of the next turn of a side other
// than p's: p's phases ended one by one (at most maxEndSteps); false where the battle
// cannot be copied, refuses to end a phase, or ends first.
func (p *Player) nextTurn(ctx context.Context, v *view) (volley.Battle, bool) {
	f, ok := v.b.(volley.Forker)
	if !ok {
		return nil, false
	}
	c := f.Fork()
	for range maxEndSteps {
		t := c.State().Turn
		if t == nil || (v.end != nil && v.end.Turns > 0 && t.Number > v.end.Turns) {
			return nil, false
		}
		if t.Side != p.Side {
			return c, true
		}
		if t.End == nil {
			return nil, false
		}
		act, err := decode(c, t.End)
		if err != nil {
			return nil, false
		}
		if _, err := c.Resolve(ctx, act, dice.NewUnrecorded(1)); err != nil {
			return nil, false
		}
	}
	return nil, false
}
