package warfare

import (
	"fmt"
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// Movement. The article measures the distance between the firing unit and its target to
// find the range band, and says no more of movement. From edition 4
// (volley.EditionMoves) a unit placed on the table (at:) moves in its side's turn, up to
// its move: allowance (data: the article gives none), before it fires; the ranges its
// fire is measured at are then where the units stand after the moves.

// Move is a unit's move along a path of straight legs from where it stands, written
// {type: move, unit, path} as every open-table system writes it.
type Move = volley.PathMove

// Deploy places a unit before the battle's first action: in its side's deployment zone,
// or anywhere on the table without one. A unit the scenario does not place is placed so.
type Deploy = volley.Placing

// decodeMove reads a move of one of the battle's units, refused before
// volley.EditionMoves.
func (b *Battle) decodeMove(doc *scenario.Doc) (*Move, error) {
	return volley.DecodePathMove(doc, b.unit, b.unitIDs(), b.moves)
}

// decodeDeploy reads a deployment of one of the battle's units.
func (b *Battle) decodeDeploy(doc *scenario.Doc) (*Deploy, error) {
	return b.table.DecodePlacing(doc, b.unit, b.unitIDs(), b.moves)
}

// actCheck returns the error that keeps u from acting now: out of turn, another unit's
// action over, or its own fire done. The unit acting now may go on moving.
func (b *Battle) actCheck(u *Unit) error {
	return b.act.CheckMove(&b.turns, u.Side, u.ID, "has fired this turn: a unit moves before it fires, and acts once a turn")
}

// fireCheck returns the error that keeps f's unit from firing now: the battle not begun
// (its deployment goes on), out of turn, or its action over. From edition 4 a unit that
// moved this turn may then fire.
func (b *Battle) fireCheck(f *Fire) error {
	if err := b.table.CheckBegun(); err != nil {
		return err
	}
	if u, ok := b.Unit(f.Unit); ok && b.moves && b.turns.GoesOn(u.Side, u.ID, b.act.Unit, b.act.Over) {
		return nil
	}
	return b.turns.Check(b.Actor(f), f.Unit, "unit")
}

// movable says why unit u may not move now, or ""; left is how far it may still move
// this turn.
func (b *Battle) movable(u *Unit) (left float64, why string) {
	switch {
	case u.Destroyed():
		return 0, u.ID + " has no figures left"
	case u.At == nil:
		return 0, u.ID + " is not on the table (the scenario gives it no at:)"
	case u.Move <= 0:
		return 0, u.ID + " has no move in the scenario (its move:)"
	}
	if err := b.actCheck(u); err != nil {
		return 0, err.Error()
	}
	left = b.act.Left(u.ID, u.Move)
	if left <= geom.Tolerance {
		return 0, fmt.Sprintf("%s has moved its whole move of %s this turn", u.ID, scenario.Inches(u.Move).Format(b.unit))
	}
	return left, ""
}

// checkMove says why a move may not be made now, or nil: the unit may not move, the path
// is longer than it has left, or its base would cross another's or the table's edge.
func (b *Battle) checkMove(m *Move) error {
	u, _ := b.Unit(m.Unit)
	left, why := b.movable(u)
	if why != "" {
		code := volley.EINVALID
		if b.actCheck(u) != nil {
			code = volley.ECONFLICT
		}
		return volley.Errorf(code, "warfare: %s may not move now: %s", u.ID, why)
	}
	path := b.pathOf(u, m)
	if length := path.Length(); length > left+geom.Tolerance {
		return volley.Errorf(volley.EINVALID, "warfare: %s's move is %s long, and it may move %s more this turn (its move: %s, data: the article gives no moves)",
			u.ID, b.length(length), b.length(left), b.length(u.Move))
	}
	if why := b.pathBlocked(u, path); why != "" {
		return volley.Errorf(volley.EINVALID, "warfare: %s cannot move there: %s", u.ID, why)
	}
	return nil
}

// pathOf is a move's path from where its unit stands.
func (b *Battle) pathOf(u *Unit, m *Move) geom.Path {
	return append(geom.Path{geom.V(u.At.X, u.At.Y)}, m.Points...)
}

// circle is where a unit stands: a circle of its base (a point without one).
func (u *Unit) circle() geom.Circle {
	return geom.Circle{C: geom.V(u.At.X, u.At.Y), R: u.Base / 2}
}

// pathBlocked says why u's base moved along path would overlap another unit's base or
// leave the table, or "" when it may go. A unit without a base is a point, which
// overlaps nothing.
func (b *Battle) pathBlocked(u *Unit, path geom.Path) string {
	r := u.Base / 2
	return b.table.PathBlocked(path, r, func(_ int, leg geom.Segment) string {
		for j := range b.units {
			if o := &b.units[j]; o != u && o.At != nil && !o.Destroyed() && geom.SweepHitsCircle(leg, r, o.circle()) {
				return "would pass over " + o.ID
			}
		}
		return ""
	})
}

// resolveMove checks a move and makes it. It rolls no die; a move that may not be made
// is refused with the rule it breaks, and changes nothing.
func (b *Battle) resolveMove(m *Move) (volley.Outcome, error) {
	if err := b.checkMove(m); err != nil {
		return volley.Outcome{}, err
	}
	u, _ := b.Unit(m.Unit)
	path := b.pathOf(u, m)
	length := path.Length()
	// Applied only now: every check above left the battle as it was. The first action
	// other than a deployment ends the deployment.
	b.table.Deploying = false
	b.act.Move(&b.turns, u.ID, length)
	from := *u.At
	end := path.End()
	u.At = &scenario.Point{X: end.X, Y: end.Y} // a new point: a fork shares the old one
	in := map[string]any{"unit": u.ID, "from": b.point(from), "to": b.point(*u.At), "length": roundIn(length, b.unit),
		"moved_this_turn": roundIn(b.act.Moved[u.ID], b.unit), "move": roundIn(u.Move, b.unit)}
	step := volley.Step{Rule: "move", Inputs: in,
		Result: fmt.Sprintf("%s moved %s (%s of its %s this turn); its fire is measured from where it stands now", u.ID, b.length(length), b.length(b.act.Moved[u.ID]), b.length(u.Move))}
	return volley.Outcome{Trace: []volley.Step{step}, Targets: []volley.TargetResult{}}, nil
}

// length is a distance in inches as a player reads it, in the scenario's unit.
func (b *Battle) length(x float64) string { return scenario.Inches(x).Format(b.unit) }

// point is a point in the scenario's unit, rounded to a thousandth.
func (b *Battle) point(p scenario.Point) []float64 {
	return []float64{roundIn(p.X, b.unit), roundIn(p.Y, b.unit)}
}

// resolveDeploy places a unit, before the battle's first other action.
func (b *Battle) resolveDeploy(d *Deploy) (volley.Outcome, error) {
	u, _ := b.Unit(d.Unit)
	r := u.Base / 2
	blocked := func() string {
		why := b.table.DeployBlocked(u.Side, d.At, r)
		for j := range b.units {
			if o := &b.units[j]; why == "" && o != u && o.At != nil && !o.Destroyed() && geom.SweepHitsCircle(geom.Segment{A: d.At, B: d.At}, r, o.circle()) {
				why = "its base would overlap " + o.ID
			}
		}
		return why
	}
	return b.table.Deploy(Name, u.Side, u.ID, blocked, func() map[string]any {
		u.At = &scenario.Point{X: d.At.X, Y: d.At.Y}
		return map[string]any{"at": b.point(*u.At)}
	})
}

// moveView is how unit u may move now, in the view's unit.
func (b *Battle) moveView(u *Unit, in func(float64) float64) *volley.MoveView {
	if !b.moves {
		return nil
	}
	left, why := b.movable(u)
	return b.table.MoveView(in(u.Move), in(b.act.Moved[u.ID]), in(left), why)
}

// Fork is a copy of the battle for a "what if": its units, turn, activation, moves and
// deployment are its own; the tables are shared. A move gives its unit a new point, so
// the copies may share the old ones.
func (b *Battle) Fork() volley.Battle {
	c := *b
	c.units = slices.Clone(b.units)
	c.turns = b.turns.Clone()
	c.table = b.table.Clone()
	c.act = b.act.Clone()
	return &c
}

// Placements are where the units stand now, as a scenario writes them: at, in the
// scenario's unit, for each unit on the table.
func (b *Battle) Placements() []volley.Placement {
	var out []volley.Placement
	for i := range b.units {
		if u := &b.units[i]; u.At != nil {
			out = append(out, volley.Placement{ID: u.ID, Set: map[string]any{"at": b.point(*u.At)}})
		}
	}
	return out
}
