package toy

import (
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
)

// Moves and deployment: the toy says what an allowance is (Allowance a turn, spent before
// the shot) and what blocks (another token's base); the engine keeps the activation
// (volley.Activation), checks and makes a move (volley.AllowanceMove: what is left, the
// table's edge) and a deployment (Tabletop.Place: the zones).

// shotCheck is the error that keeps token u from shooting now: the deployment goes on,
// out of turn, or its action over.
func (b *Battle) shotCheck(u *Unit) error {
	if err := b.table.CheckBegun(); err != nil {
		return err
	}
	return b.act.CheckAct(&b.turns, u.Side, u.ID)
}

// movable is how far token u may still move now, or why it may not
// (Activation.Movable: out of turn, after its shot, its allowance spent).
func (b *Battle) movable(u *Unit) (left float64, why string) {
	if u.Destroyed() || !u.Placed {
		return 0, u.ID + " is not on the table"
	}
	return b.act.Movable(&b.turns, u.Side, u.ID, Allowance, "has shot this turn: a token moves before it shoots")
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

// resolveMove makes m, a move of up to what is left of the token's Allowance that another
// token's base blocks (volley.AllowanceMove: checked, recorded and traced as the engine
// does every such move).
func (b *Battle) resolveMove(m *volley.PathMove) (volley.Outcome, error) {
	u, _ := b.Unit(m.Unit)
	left, why := b.movable(u)
	move := volley.AllowanceMove{System: Name, Unit: u.ID, Path: m.Path(u.At), Radius: Base / 2, Allowance: Allowance, Left: left, Why: why,
		InWay: func(leg geom.Segment) string { return b.inWay(u, leg) }}
	return move.Make(&b.table, &b.turns, &b.act, func(to geom.Vec) { u.At = to })
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
