package volley

import (
	"fmt"

	"github.com/volley-wargames/volley/geom"
)

// A unit's move along a path on an open table measured in inches, spending an allowance
// a turn, in a battle whose units act one at a time (Activation): what no text defines of
// it (whose move it is, what is left, a path too long, the table's edge, the record of
// it) written once. The rule system says what the allowance is, why a unit may not move
// (destroyed, not on the table) and what stands in the way of a leg.

// Movable is how far unit id of side may still move now of its allowance a turn, or why
// it may not: out of its side's turn or its action over (CheckMove; done says what ended
// it), or its allowance spent.
func (a *Activation) Movable(t *Turns, side, id string, allowance float64, done string) (left float64, why string) {
	if err := a.CheckMove(t, side, id, done); err != nil {
		return 0, ErrorMessage(err)
	}
	if left = a.Left(id, allowance); left <= geom.Tolerance {
		return 0, fmt.Sprintf("%s has moved its %g\" this turn", id, allowance)
	}
	return left, ""
}

// AllowanceMove is one move of unit Unit on a round base of radius Radius along Path,
// which begins where the unit stands. Left and Why are what its rule system says of the
// unit now (Activation.Movable, and its own reasons first); InWay says what stands in the
// way of a leg by its rules ("would pass over b1"), "" for nothing.
type AllowanceMove struct {
	System    string // the errors' prefix: the rule system's name
	Unit      string
	Path      geom.Path
	Radius    float64
	Allowance float64
	Left      float64
	Why       string
	InWay     func(leg geom.Segment) string
}

// Check says why the move may not be made now, or nil: the unit may not move now (Why,
// ECONFLICT), the path is longer than it has left, or a leg is blocked by InWay or the
// table's edge (Tabletop.PathBlocked), each EINVALID.
func (m *AllowanceMove) Check(t *Tabletop) error {
	if m.Why != "" {
		return Errorf(ECONFLICT, "%s: %s may not move now: %s", m.System, m.Unit, m.Why)
	}
	if l := m.Path.Length(); l > m.Left+geom.Tolerance {
		return Errorf(EINVALID, "%s: %s's move is %.3g\" long, and it may move %.3g\" more this turn", m.System, m.Unit, l, m.Left)
	}
	if why := t.PathBlocked(m.Path, m.Radius, func(_ int, leg geom.Segment) string { return m.InWay(leg) }); why != "" {
		return Errorf(EINVALID, "%s: %s cannot move there: %s", m.System, m.Unit, why)
	}
	return nil
}

// Make checks the move and makes it: the unit is the one acting now and has moved the
// path's length more (Activation.Move), the deployment is over, and moved puts the unit
// at the path's end. The trace's step says where it went and how much of its allowance
// it has moved. A move that may not be made changes nothing.
func (m *AllowanceMove) Make(t *Tabletop, turns *Turns, a *Activation, moved func(to geom.Vec)) (Outcome, error) {
	if err := m.Check(t); err != nil {
		return Outcome{}, err
	}
	to := m.Path.End()
	a.Move(turns, m.Unit, m.Path.Length())
	t.Deploying = false
	moved(to)
	step := Step{Rule: "move", Inputs: map[string]any{"unit": m.Unit, "to": []float64{to.X, to.Y}},
		Result: fmt.Sprintf("%.3g\" of its %g\"", a.Moved[m.Unit], m.Allowance)}
	return Outcome{Trace: []Step{step}, Targets: []TargetResult{}}, nil
}
