package opponent

import (
	"context"
	"math"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
)

// Who holds an objective after a move, as the strong level weighs it. A position map's
// point is where the moving unit's centre would stand, and rank counts the unit within
// an objective when that point is. The end counts it within when one of its models or
// bases is (volley.End), and a unit of several models moves them into a formation of its
// own round the point: its centre may stand within an objective while every model stands
// outside (two models side by side, the centre on the circle, each a little beyond it),
// or the other way round. A move that holds an objective only by its centre holds
// nothing at the end.
//
// So each place the strong level may go to is tried on a copy of the battle (as legal
// does anyway, with the first of its moves), and its objectives read from there, as the end reads them: the guess of
// rank is taken out of the move's gain, for where the unit stands now as for where it
// would go, and what the copy says is put in its place.

// heldByModels is gain, a move's gain for unit to point pt of its map m by rank,
// corrected for the objectives its models would hold there, and the names of the
// objectives one of its models would stand within ("" for none). The point's move (or
// moves, one a member of a formation, in their order) is resolved on a copy of the
// battle; where that cannot be done, both are rank's.
//
// A staged rank (staged: a unit of one piece with moves to come before the end,
// planner_staging.go) is not corrected: it counts a place within an objective as one
// more place that keeps it within reach, not by what holding it now is worth, and a
// place whose base reaches into an objective while its centre stands outside keeps it
// within reach as well. Corrected, such a place gained what taking the objective now is
// worth, the worth staging takes out of places within it: units of a wide base (a
// Republique battalion) were drawn to objectives' edges rather than their centres, where
// taking it now is worth no more (a reviewer's finding on session 45's code).
func (p *Player) heldByModels(ctx context.Context, v *view, unit string, m *advise.PositionMap, pt advise.PositionPoint, gain float64, staged bool) (float64, string) {
	guess := v.objectiveAt(pt.X, pt.Y)
	if staged {
		return gain, guess
	}
	if v.end == nil || len(v.result.Objectives) == 0 {
		return gain, guess
	}
	moves := pt.Moves
	if pt.Move != nil {
		moves = []map[string]any{pt.Move}
	}
	c, ok := v.onCopy(ctx, moves...)
	if !ok {
		return gain, guess
	}
	after := read(volley.NewGame(c, v.end))
	from := nearest(m, m.From)
	// A unit destroyed holds nothing: what a place does to the objectives counts as far
	// as the unit lives through the enemy's next fire (planner_staging.go), and so does
	// this correction of it.
	there := v.survives(pt) * (v.heldValue(p.Side, after.result) - v.objectiveValue(p.Side, unit, pt.X, pt.Y))
	here := v.survives(from) * (v.heldValue(p.Side, v.result) - v.objectiveValue(p.Side, unit, from.X, from.Y))
	return gain + there - here, after.objectivesOf(unit)
}

// heldValue is what the objectives as r holds them are worth to side, as objectiveValue
// weighs a place: each its points to the side that holds it, against the side when an
// enemy does, nothing when nobody does; in full in the last round, less the more rounds
// are left.
func (v *view) heldValue(side string, r volley.Result) float64 {
	w := 1.0
	if v.end != nil && v.end.Turns > 0 && v.turn != nil {
		w = 1 / float64(1+max(0, v.end.Turns-v.turn.Number))
	}
	s := 0.0
	for _, o := range r.Objectives {
		switch o.Held {
		case "":
		case side:
			s += w * o.Points
		default:
			s -= w * o.Points
		}
	}
	return s
}

// objectivesOf names the objectives a piece of unit (not destroyed) stands within.
func (v *view) objectivesOf(unit string) string {
	var names []string
	for _, o := range v.result.Objectives {
		for _, pc := range v.pieces {
			if !pc.destroyed && v.owner(pc) == unit && v.within(o, pc.x, pc.y) {
				names = append(names, o.Name)
				break
			}
		}
	}
	return strings.Join(names, " and ")
}

// survives is the chance that a unit at pt lives through the enemy's next fire, as the
// strong level weighs what its place does to the objectives: 1 less the map's danger
// there, or 1 where no enemy acts after it before the end.
func (v *view) survives(pt advise.PositionPoint) float64 {
	if math.IsNaN(pt.Danger) || !v.enemyAfter {
		return 1
	}
	return 1 - pt.Danger
}

// unheld is what destroying unit, an enemy's, does to side's objectives as objectiveValue
// counts them (weighed by the rounds left), with the names of those it stands within: a
// unit destroyed holds nothing, so an objective it holds alone is no longer the enemy's,
// and one it contests may become the side's. Fire is weighed with it (fireOptions): a shot
// at the Hunter that alone holds the crossroads in the last round is worth its points and
// the crossroads. 0 where the unit stands within no objective.
func (v *view) unheld(side, unit string) (float64, string) {
	names := v.objectivesOf(unit)
	if names == "" {
		return 0, ""
	}
	far := math.Inf(1)
	return v.objectiveValue(side, unit, far, far) - v.objectiveValue(side, "", far, far), names
}
