package dropzone

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// Movement (Check Movement). A squad's activation is its units' moves and its shooting,
// in any order: a unit that moved further than a weapon's M&F may not fire it, and a unit
// that fired may move no further in all than the smallest M&F of the weapons it used.
// Both are judged unit by unit. From edition 4 (volley.EditionMoves) the distances are
// measured from the moves the battle's log holds, and so are coherency and disembarking;
// a refereed action may no longer state them.

// Move is one unit's move along a path of straight legs, from where it stands (or, for a
// unit carried in a transport, from the transport's centre: it disembarks).
type Move struct {
	Unit string
	// Path starts where the unit stands and ends where it stops.
	Path geom.Path
	// Facing is the unit's facing at the end, nil to keep it.
	Facing *float64
	at     scenario.Pos
}

// Kind returns "move".
func (*Move) Kind() string { return volley.MoveAction }

// ActingUnit is the unit that moves.
func (m *Move) ActingUnit() string { return m.Unit }

// Deploy places a unit before the battle's first action, anywhere in its side's
// deployment zone (the whole table without one).
type Deploy struct {
	Unit   string
	At     geom.Vec
	Facing *float64
}

// Kind returns "deploy".
func (*Deploy) Kind() string { return volley.DeployAction }

// ActingUnit is the unit placed.
func (d *Deploy) ActingUnit() string { return d.Unit }

// activation is what the squad acting now has done: how far each unit moved, and the
// most each unit that fired may move in all (the smallest M&F of the weapons it used).
type activation struct {
	squad string
	// moved is the distance each unit has moved, inches.
	moved map[string]float64
	// firedLimit holds, for each unit that fired, the smallest M&F of its weapons (+Inf
	// for weapons with a dash).
	firedLimit  map[string]float64
	fired       bool
	disembarked bool
}

func (a activation) clone() activation {
	a.moved = maps.Clone(a.moved)
	a.firedLimit = maps.Clone(a.firedLimit)
	return a
}

// cloneMap is maps.Clone, as the position maps' copies call it.
func cloneMap(m map[string]float64) map[string]float64 { return maps.Clone(m) }

// moveSpec is a move as written.
type moveSpec struct {
	Type   string           `yaml:"type"`
	Unit   string           `yaml:"unit,required"`
	Path   []scenario.Point `yaml:"path,required"`
	Facing *float64         `yaml:"facing"`
}

// deploySpec is a deployment as written.
type deploySpec struct {
	Type   string         `yaml:"type"`
	Unit   string         `yaml:"unit,required"`
	At     scenario.Point `yaml:"at,required"`
	Facing *float64       `yaml:"facing"`
}

func (b *Battle) decodeMove(doc *scenario.Doc) (volley.Action, error) {
	doc = doc.WithUnit(b.unit) // sent on its own, it is written in the battle's unit
	return volley.ReadAction(doc, func(spec *moveSpec, errs *scenario.ErrorList) volley.Action {
		if volley.RefuseNoMoves(errs, doc, &spec.Type, volley.MoveAction, "units", true) { // the action's edition alone decides
			return nil
		}
		u, ok := b.Unit(spec.Unit)
		if !ok {
			volley.RefuseUnknown(errs, doc, &spec.Unit, "move: unknown unit", b.unitIDs)
			return nil
		}
		if volley.RefusePath(errs, doc, &spec.Path) {
			return nil
		}
		m := &Move{Unit: u.ID, Facing: spec.Facing, at: doc.Root()}
		start := u.At
		if u.Embarked != "" {
			if t, ok := b.Unit(u.Embarked); ok {
				start = t.At
			}
		}
		m.Path = geom.Path{start}
		for i := range spec.Path {
			p := &spec.Path[i]
			checkPoint(doc, p, "move: path", errs)
			m.Path = append(m.Path, geom.V(p.X, p.Y))
		}
		b.checkFacing(doc, spec.Facing, "move", errs)
		return m
	})
}

func (b *Battle) decodeDeploy(doc *scenario.Doc) (volley.Action, error) {
	doc = doc.WithUnit(b.unit) // sent on its own, it is written in the battle's unit
	return volley.ReadAction(doc, func(spec *deploySpec, errs *scenario.ErrorList) volley.Action {
		if b.table.RefuseDeploy(errs, doc, &spec.Type, "units", true) { // the action's edition alone decides
			return nil
		}
		u, ok := b.Unit(spec.Unit)
		if !ok {
			volley.RefuseUnknown(errs, doc, &spec.Unit, "deploy: unknown unit", b.unitIDs)
			return nil
		}
		checkPoint(doc, &spec.At, "deploy: at", errs)
		b.checkFacing(doc, spec.Facing, "deploy", errs)
		return &Deploy{Unit: u.ID, At: geom.V(spec.At.X, spec.At.Y), Facing: spec.Facing}
	})
}

// checkFacing adds to errs the error of a facing (of what: "move") that is not a number
// of degrees, or, in a battle whose numbers are bounded, more than MaxFacing either way.
func (b *Battle) checkFacing(doc *scenario.Doc, f *float64, what string, errs *scenario.ErrorList) {
	if f != nil && (math.IsNaN(*f) || math.IsInf(*f, 0) || b.bounded && math.Abs(*f) > MaxFacing) {
		errs.Add(doc.At(f), "%s: facing must be a number of degrees, at most %d either way", what, MaxFacing)
	}
}

// movable says why unit u may not move now (in the rules and in the turn), or "" when it
// may; left is how far it may still move.
func (b *Battle) movable(u *Unit) (left float64, why string) {
	allow := u.Type.Move.Inches()
	switch {
	case u.Destroyed():
		return 0, u.ID + " is destroyed"
	case !given0(u.Type.Move):
		return 0, fmt.Sprintf("a %s has no move in the scenario (its type's move:)", u.Type.Name)
	}
	if err := b.activationCheck(u.Side, u.Squad); err != nil {
		return 0, err.Error()
	}
	moved := 0.0
	limit := allow
	if b.act.squad == u.Squad {
		moved = b.act.moved[u.ID]
		if l, ok := b.act.firedLimit[u.ID]; ok {
			limit = min(limit, l)
		}
	}
	left = max(limit-moved, 0)
	if left <= geom.Tolerance {
		if l, ok := b.act.firedLimit[u.ID]; ok && b.act.squad == u.Squad && l < allow {
			return 0, fmt.Sprintf("%s fired a weapon of M&F %s and has moved %s: a unit that fires may move no further in all than its M&F (Check Movement)",
				u.ID, b.formatLength(l), b.formatLength(moved))
		}
		return 0, fmt.Sprintf("%s has moved its whole move of %s this activation", u.ID, b.formatLength(allow))
	}
	return left, ""
}

// given0 reports whether a length was given (a type without move: has 0).
func given0(l scenario.Length) bool { return l > 0 }

// activationCheck returns the error that keeps squad, of side, from acting now: out of
// turn, or its activation over. The squad acting now may go on acting.
func (b *Battle) activationCheck(side, squad string) error {
	if b.act.squad == squad && b.act.squad != "" {
		if b.turns.Kept() && side != b.turns.Current() {
			return b.turns.Check(side, squad, "squad")
		}
		return nil
	}
	return b.turns.Check(side, squad, "squad")
}

// shootCheck returns the error that keeps a squad from shooting now: the battle not begun
// (its deployment goes on), out of turn, its activation over, or its shot taken this
// activation.
func (b *Battle) shootCheck(sq *Shooting) error {
	if err := b.table.CheckBegun(); err != nil {
		return err
	}
	if err := b.activationCheck(b.Actor(sq), sq.Squad); err != nil {
		return err
	}
	if b.act.squad == sq.Squad && b.act.fired {
		return volley.Errorf(volley.ECONFLICT, "squad %s has already acted this turn: it shot this activation, and a squad shoots once an activation", sq.Squad)
	}
	return nil
}

// begin makes squad the squad acting now, its activation starting afresh if another
// squad was acting. It reports whether a new activation began.
func (b *Battle) begin(squad string) bool {
	if b.act.squad == squad {
		return false
	}
	b.act = activation{squad: squad, moved: map[string]float64{}, firedLimit: map[string]float64{}}
	return true
}

// resolveMove checks a move against the rules and the table and applies it. It rolls no
// die. A move that may not be made is refused with the rule it breaks, and changes
// nothing.
func (b *Battle) resolveMove(m *Move) (volley.Outcome, error) {
	if err := b.checkMove(m); err != nil {
		return volley.Outcome{}, err
	}
	u, _ := b.Unit(m.Unit)
	length := m.Path.Length()
	// Applied only now: every check above left the battle as it was. The first action
	// other than a deployment ends the deployment.
	b.table.Deploying = false
	if b.begin(u.Squad) {
		b.turns.Begin(u.Squad)
	}
	from := u.At
	u.At = m.Path.End()
	b.carry(u)
	if m.Facing != nil {
		u.Facing = geom.NormDeg(*m.Facing)
	}
	disembarked := u.Embarked != ""
	if disembarked {
		u.Embarked = ""
		b.act.disembarked = true
	}
	b.act.moved[u.ID] += length
	in := map[string]any{"unit": u.ID, "from": []float64{from.X, from.Y}, "to": []float64{u.At.X, u.At.Y}, "length": roundLength(length, b.unit),
		"moved_this_activation": roundLength(b.act.moved[u.ID], b.unit), "move": roundLength(u.Type.Move.Inches(), b.unit)}
	result := fmt.Sprintf("%s moved %s (%s of its %s this activation)", u.ID, b.formatLength(length), b.formatLength(b.act.moved[u.ID]), b.formatLength(u.Type.Move.Inches()))
	if l, ok := b.act.firedLimit[u.ID]; ok && !math.IsInf(l, 1) {
		result += fmt.Sprintf("; having fired, it may move %s in all this activation", b.formatLength(l))
	}
	if disembarked {
		result += ", disembarking: its squad takes +2 to hit this activation"
	}
	steps := []volley.Step{{Rule: "move (Check Movement)", Inputs: in, Result: result}}
	// What the move means for the unit's weapons this activation: the seed's first half.
	for _, w := range u.Type.Weapons {
		if !w.MoveAndFire.Allows(lengthOf(b.act.moved[u.ID])) {
			steps = append(steps, volley.Step{Rule: "M&F", Inputs: map[string]any{"unit": u.ID, "weapon": w.Name, "mf": w.MoveAndFire.String()},
				Result: fmt.Sprintf("%s may not fire its %s this activation: it moved %s, more than its M&F", u.ID, w.Name, b.formatLength(b.act.moved[u.ID]))})
		}
	}
	return volley.Outcome{Trace: steps, Targets: []volley.TargetResult{}}, nil
}

// checkMove says why a move may not be made now, or nil: the unit may not move (out of
// turn, its activation over, its move spent), the path crosses a base, solid terrain or
// the table's edge, or it is longer than what the unit has left. A path both blocked and
// too long is refused for what blocks it, its length added: the obstacle is what the
// player must go round.
func (b *Battle) checkMove(m *Move) error {
	u, _ := b.Unit(m.Unit)
	left, why := b.movable(u)
	if why != "" {
		return volley.Errorf(volley.ECONFLICT, "dropzone: %s may not move now: %s", u.ID, why)
	}
	length := m.Path.Length()
	tooLong := length > left+geom.Tolerance
	// What is in the way comes first: a shorter path would still meet it.
	if why := b.pathBlocked(u, m.Path); why != "" {
		if tooLong {
			why += fmt.Sprintf(" (and the move is %s long, with %s left this activation)", b.formatLength(length), b.formatLength(left))
		}
		return volley.Errorf(volley.EINVALID, "dropzone: %s cannot move there: %s", u.ID, why)
	}
	if tooLong {
		return volley.Errorf(volley.EINVALID, "dropzone: %s's move is %s long, and it may move %s more this activation (its move %s%s; Check Movement)",
			u.ID, b.formatLength(length), b.formatLength(left), b.formatLength(u.Type.Move.Inches()), b.firedWords(u))
	}
	return nil
}

// firedWords says, for a unit that fired this activation, what it limits its move to.
func (b *Battle) firedWords(u *Unit) string {
	if l, ok := b.act.firedLimit[u.ID]; ok && b.act.squad == u.Squad && !math.IsInf(l, 1) {
		return fmt.Sprintf(", and having fired, at most %s in all: the smallest M&F of the weapons it used", b.formatLength(l))
	}
	return ""
}

// pathBlocked says why a base moved along path would overlap another base or solid
// terrain, or leave the table, or "" when it may go.
func (b *Battle) pathBlocked(u *Unit, path geom.Path) string {
	r := u.Type.Base.Inches() / 2
	return b.table.PathBlocked(path, r, func(i int, leg geom.Segment) string {
		for j := range b.units {
			o := &b.units[j]
			if o == u || o.Destroyed() || o.Embarked != "" || (u.Embarked == o.ID && i == 0) {
				continue // a unit disembarking leaves its transport's base on its first leg
			}
			if geom.SweepHitsCircle(leg, r, o.Circle()) {
				return "would pass over " + o.ID + "'s base"
			}
		}
		for _, t := range b.terrain {
			if t.BlocksLOS && geom.SweepHitsPolygon(leg, r, t.Footprint) {
				return "would pass through " + t.ID + " (solid terrain)"
			}
		}
		return ""
	})
}

// resolveDeploy places a unit, before the battle's first other action.
func (b *Battle) resolveDeploy(d *Deploy) (volley.Outcome, error) {
	u, _ := b.Unit(d.Unit)
	r := u.Type.Base.Inches() / 2
	blocked := func() string {
		why := b.table.DeployBlocked(u.Side, d.At, r)
		for j := range b.units {
			if o := &b.units[j]; why == "" && o != u && !o.Destroyed() && o.Embarked == "" && geom.SweepHitsCircle(geom.Segment{A: d.At, B: d.At}, r, o.Circle()) {
				why = "its base would overlap " + o.ID + "'s"
			}
		}
		for _, t := range b.terrain {
			if why == "" && t.BlocksLOS && geom.SweepHitsPolygon(geom.Segment{A: d.At, B: d.At}, r, t.Footprint) {
				why = "its base would stand in " + t.ID + " (solid terrain)"
			}
		}
		return why
	}
	return b.table.Deploy(Name, u.Side, u.ID, blocked, func() map[string]any {
		u.At = d.At
		u.Embarked = ""
		b.carry(u)
		if d.Facing != nil {
			u.Facing = geom.NormDeg(*d.Facing)
		}
		return map[string]any{"at": []float64{u.At.X, u.At.Y}, "facing": u.Facing}
	})
}

// measured fills in the facts of a shooting action that the battle measures from its
// moves (how far each unit moved this activation, coherency, disembarking), where the
// action does not state them: a stated one (the command line's "what if") wins. It
// returns a copy; a is not changed.
func (b *Battle) measured(a *Shooting) *Shooting {
	if !b.moves {
		return a
	}
	c := *a
	c.Moved = maps.Clone(a.Moved)
	if c.Moved == nil {
		c.Moved = map[string]float64{}
	}
	if b.act.squad == a.Squad {
		for id, d := range b.act.moved {
			if _, stated := a.stated.moved[id]; !stated {
				c.Moved[id] = d
			}
		}
		if !a.stated.disembarked {
			c.Disembarked = b.act.disembarked
		}
	}
	if !a.stated.coherency {
		c.OutOfCoherency = b.outOfCoherency(a.Squad)
	}
	return &c
}

// outOfCoherency reports whether a squad's units standing on the table are out of
// coherency: not all linked, unit to unit, by base-edge distances of at most the
// scenario's coherency distance (options.coherency; without it, coherency is not
// measured and a squad is never out of it).
func (b *Battle) outOfCoherency(squad string) bool {
	d := b.options.Coherency.Inches()
	if d <= 0 {
		return false
	}
	members := b.squadUnits(squad)
	if len(members) < 2 {
		return false
	}
	linked := map[*Unit]bool{members[0]: true}
	for grew := true; grew; {
		grew = false
		for _, u := range members {
			if linked[u] {
				continue
			}
			for v := range linked {
				if geom.EdgeDistance(u.Circle(), v.Circle()) <= d+geom.Tolerance {
					linked[u], grew = true, true
					break
				}
			}
		}
	}
	return len(linked) < len(members)
}

// squadUnits are a squad's units standing on the table.
func (b *Battle) squadUnits(squad string) []*Unit {
	var out []*Unit
	for i := range b.units {
		if u := &b.units[i]; u.Squad == squad && !u.Destroyed() && u.Embarked == "" {
			out = append(out, u)
		}
	}
	return out
}

// fired records, after a squad's shooting, the most each unit that fired may move in all
// this activation: the smallest M&F of the weapons it used (Check Movement).
func (b *Battle) fired(a *Shooting) {
	b.act.fired = true
	for _, d := range a.Declarations {
		u, _ := b.Unit(d.Shooter)
		w := u.Type.weapon(d.Weapon)
		l := math.Inf(1)
		if !w.MoveAndFire.Any {
			l = w.MoveAndFire.Max.Inches()
		}
		if old, ok := b.act.firedLimit[u.ID]; !ok || l < old {
			b.act.firedLimit[u.ID] = l
		}
	}
}

// carry keeps the units a transport carries where it is.
func (b *Battle) carry(t *Unit) {
	for i := range b.units {
		if c := &b.units[i]; c.Embarked == t.ID {
			c.At = t.At
		}
	}
}

// moveView is how unit u may move now, in the view's unit.
func (b *Battle) moveView(u *Unit, in func(float64) float64) *volley.MoveView {
	if !b.moves {
		return nil
	}
	left, why := b.movable(u)
	moved := 0.0
	if b.act.squad == u.Squad {
		moved = in(b.act.moved[u.ID])
	}
	return b.table.MoveView(in(u.Type.Move.Inches()), moved, in(left), why)
}

// Fork is a copy of the battle for a "what if": its units, turn, activation and
// deployment are its own; what no action changes (types, terrain) is shared.
func (b *Battle) Fork() volley.Battle {
	c := *b
	c.units = slices.Clone(b.units)
	c.turns = b.turns.Clone()
	c.act = b.act.clone()
	c.table = b.table.Clone()
	return &c
}

// Placements are where the units stand now, as a scenario writes them: at (in the
// scenario's unit) and facing; a unit that has disembarked is no longer embarked.
func (b *Battle) Placements() []volley.Placement {
	u := b.unit.OrInch()
	out := make([]volley.Placement, 0, len(b.units))
	for i := range b.units {
		m := &b.units[i]
		p := volley.Placement{ID: m.ID, Set: map[string]any{"facing": m.Facing}}
		if m.Embarked == "" {
			p.Set["at"] = []float64{roundLength(m.At.X, u), roundLength(m.At.Y, u)}
			p.Drop = []string{"embarked"}
		}
		out = append(out, p)
	}
	return out
}

// MovedUnit is the unit the move moves.
func (m *Move) MovedUnit() string { return m.Unit }
