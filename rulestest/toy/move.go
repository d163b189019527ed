package toy

import (
	"fmt"
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
)

// Moves and deployment: the toy says what an allowance is (Allowance a turn, spent before
// the shot) and what blocks (another token's base); the engine keeps the activation
// (volley.Activation), walks a path against the table's edge (Tabletop.PathBlocked) and
// a deployment against the zones (DeployBlocked).

// shotCheck is the error that keeps token u from shooting now: the deployment goes on,
// out of turn, or its action over.
func (b *Battle) shotCheck(u *Unit) error {
	if err := b.table.CheckBegun(); err != nil {
		return err
	}
	return b.act.CheckAct(&b.turns, u.Side, u.ID)
}

// movable is how far token u may still move now, or why it may not.
func (b *Battle) movable(u *Unit) (left float64, why string) {
	if u.Destroyed() || !u.Placed {
		return 0, u.ID + " is not on the table"
	}
	if err := b.act.CheckMove(&b.turns, u.Side, u.ID, "has shot this turn: a token moves before it shoots"); err != nil {
		return 0, volley.ErrorMessage(err)
	}
	if left = b.act.Left(u.ID, Allowance); left <= geom.Tolerance {
		return 0, fmt.Sprintf("%s has moved its %g\" this turn", u.ID, Allowance)
	}
	return left, ""
}

// inWay says what stands in the way of u's base swept along leg: another token's.
func (b *Battle) inWay(u *Unit, leg geom.Segment) string {
	for _, o := range b.others(u) {
		if geom.SweepHitsCircle(leg, Base/2, o.base()) {
			return "would pass over " + o.ID
		}
	}
	return ""
}

// others are the tokens on the table but u.
func (b *Battle) others(u *Unit) []*Unit {
	var out []*Unit
	for i := range b.units {
		if o := &b.units[i]; o.ID != u.ID && o.Placed && !o.Destroyed() {
			out = append(out, o)
		}
	}
	return out
}

// checkMove says why m may not be made now, or nil.
func (b *Battle) checkMove(m *volley.PathMove) error {
	u, _ := b.Unit(m.Unit)
	left, why := b.movable(u)
	if why != "" {
		return volley.Errorf(volley.ECONFLICT, "toy: %s may not move now: %s", u.ID, why)
	}
	path := m.Path(u.At)
	if l := path.Length(); l > left+geom.Tolerance {
		return volley.Errorf(volley.EINVALID, "toy: %s's move is %.3g\" long, and it may move %.3g\" more this turn", u.ID, l, left)
	}
	if why := b.table.PathBlocked(path, Base/2, func(_ int, leg geom.Segment) string { return b.inWay(u, leg) }); why != "" {
		return volley.Errorf(volley.EINVALID, "toy: %s cannot move there: %s", u.ID, why)
	}
	return nil
}

func (b *Battle) resolveMove(m *volley.PathMove) (volley.Outcome, error) {
	if err := b.checkMove(m); err != nil {
		return volley.Outcome{}, err
	}
	u, _ := b.Unit(m.Unit)
	path := m.Path(u.At)
	b.act.Move(&b.turns, u.ID, path.Length())
	b.table.Deploying, u.At = false, path.End()
	step := volley.Step{Rule: "move", Inputs: map[string]any{"unit": u.ID, "to": []float64{u.At.X, u.At.Y}},
		Result: fmt.Sprintf("%.3g\" of its %g\"", b.act.Moved[u.ID], Allowance)}
	return volley.Outcome{Trace: []volley.Step{step}, Targets: []volley.TargetResult{}}, nil
}

func (b *Battle) resolveDeploy(d *volley.Placing) (volley.Outcome, error) {
	u, _ := b.Unit(d.Unit)
	return b.table.Place(Name, u.Side, d, Base/2, func() string { return b.inWay(u, geom.Segment{A: d.At, B: d.At}) },
		func() { u.At, u.Placed = d.At, true })
}

// endTurn ends the side's turn, and the deployment of a battle without zones.
func (b *Battle) endTurn() []volley.Step {
	b.table.Deploying = false
	return b.act.EndTurn(&b.turns)
}

var _ volley.Forker = (*Battle)(nil)

// Fork is a copy for a "what if", sharing nothing an action changes.
func (b *Battle) Fork() volley.Battle {
	c := *b
	c.units, c.turns, c.table, c.act = slices.Clone(b.units), b.turns.Clone(), b.table.Clone(), b.act.Clone()
	return &c
}
