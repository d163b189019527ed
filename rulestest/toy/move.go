package toy

import (
	"fmt"
	"maps"
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
)

// Moves and deployment: the toy says what an allowance is (Allowance a turn, spent before the
// shot) and what blocks (another token's base); the engine walks the path against the
// table's edge (Tabletop.PathBlocked), the zones (DeployBlocked) and the turns.

// shotCheck is the error that keeps token u from shooting now: out of turn, or its
// action over. The token acting now may shoot after its move.
func (b *Battle) shotCheck(u *Unit) error {
	if err := b.table.CheckBegun(); err != nil {
		return err
	}
	if b.turns.GoesOn(u.Side, u.ID, b.acting, b.shot) {
		return nil
	}
	return b.turns.Check(u.Side, u.ID, "unit")
}

// movable is how far token u may still move now, or why it may not.
func (b *Battle) movable(u *Unit) (left float64, why string) {
	if u.Destroyed() || !u.Placed {
		return 0, u.ID + " is not on the table"
	}
	if err := b.turns.CheckActing(u.Side, u.ID, b.acting, b.shot, "has shot this turn: a token moves before it shoots"); err != nil {
		return 0, volley.ErrorMessage(err)
	}
	if left = Allowance - b.moved[u.ID]; left <= geom.Tolerance {
		return 0, fmt.Sprintf("%s has moved its %g\" this turn", u.ID, Allowance)
	}
	return left, ""
}

// inWay says what stands in the way of a base of u swept along leg: another token's.
func (b *Battle) inWay(u *Unit, leg geom.Segment) string {
	for i := range b.units {
		if o := &b.units[i]; o != u && o.Placed && !o.Destroyed() && geom.SweepHitsCircle(leg, Base/2, o.base()) {
			return "would pass over " + o.ID
		}
	}
	return ""
}

// checkMove says why m may not be made now, or nil.
func (b *Battle) checkMove(m *Move) error {
	u, _ := b.Unit(m.Unit)
	left, why := b.movable(u)
	if why != "" {
		return volley.Errorf(volley.ECONFLICT, "toy: %s may not move now: %s", u.ID, why)
	}
	path := append(geom.Path{u.At}, m.Points...)
	if l := path.Length(); l > left+geom.Tolerance {
		return volley.Errorf(volley.EINVALID, "toy: %s's move is %.3g\" long, and it may move %.3g\" more this turn", u.ID, l, left)
	}
	if why := b.table.PathBlocked(path, Base/2, func(_ int, leg geom.Segment) string { return b.inWay(u, leg) }); why != "" {
		return volley.Errorf(volley.EINVALID, "toy: %s cannot move there: %s", u.ID, why)
	}
	return nil
}

func (b *Battle) resolveMove(m *Move) (volley.Outcome, error) {
	if err := b.checkMove(m); err != nil {
		return volley.Outcome{}, err
	}
	u, _ := b.Unit(m.Unit)
	path := append(geom.Path{u.At}, m.Points...)
	if b.acting != u.ID {
		b.acting, b.shot = u.ID, false
		b.turns.Begin(u.ID)
	}
	b.table.Deploying = false
	u.At = path.End()
	b.moved[u.ID] += path.Length()
	step := volley.Step{Rule: "move", Inputs: map[string]any{"unit": u.ID, "to": []float64{u.At.X, u.At.Y}}, Result: fmt.Sprintf("%.3g\" of its %g\"", b.moved[u.ID], Allowance)}
	return volley.Outcome{Trace: []volley.Step{step}, Targets: []volley.TargetResult{}}, nil
}

func (b *Battle) resolveDeploy(d *Deploy) (volley.Outcome, error) {
	u, _ := b.Unit(d.Unit)
	if err := b.table.CheckDeploy(u.Side, []string{u.ID}, "units"); err != nil {
		return volley.Outcome{}, fmt.Errorf("toy: %w", err)
	}
	why := b.table.DeployBlocked(u.Side, d.At, Base/2)
	if why == "" {
		why = b.inWay(u, geom.Segment{A: d.At, B: d.At})
	}
	if why != "" {
		return volley.Outcome{}, volley.Errorf(volley.EINVALID, "toy: %s cannot be deployed there: %s", u.ID, why)
	}
	u.At, u.Placed = d.At, true
	step := volley.Step{Rule: "deploy", Inputs: map[string]any{"unit": u.ID, "at": []float64{d.At.X, d.At.Y}}, Result: u.ID + " placed"}
	return b.table.DeployOutcome(step, []string{u.ID}, u.ID), nil
}

// endTurn ends the side's turn: no token acts, none has moved.
func (b *Battle) endTurn() []volley.Step {
	b.acting, b.shot, b.moved, b.table.Deploying = "", false, map[string]float64{}, false
	return b.turns.End()
}

var (
	_ volley.Forker = (*Battle)(nil)
	_ volley.Placer = (*Battle)(nil)
)

// Fork is a copy for a "what if", sharing nothing an action changes.
func (b *Battle) Fork() volley.Battle {
	c := *b
	c.units, c.turns, c.table, c.moved = slices.Clone(b.units), b.turns.Clone(), b.table.Clone(), maps.Clone(b.moved)
	return &c
}

// Placements are where the tokens stand, as a scenario writes them.
func (b *Battle) Placements() []volley.Placement {
	var out []volley.Placement
	for _, u := range b.units {
		if u.Placed {
			out = append(out, volley.Placement{ID: u.ID, Set: map[string]any{"at": []float64{u.At.X, u.At.Y}}})
		}
	}
	return out
}
