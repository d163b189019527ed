package warstrike

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// Movement. In the action phase a player selects a unit and chooses its action for the
// turn (Actions That Allow Shooting): one of the four that allow shooting, or Advance,
// At-The-Double, Fall Back, Halt or Go To Ground, which do not (Who Can Shoot?). From
// edition 4 (volley.EditionMoves) the action is chosen with the unit's move, its models
// move one by one, each as far as the action allows (data: the tables' moves:), and a
// shooting action is taken as the action the unit moved with: a refereed shot may not
// state it.

// Move is a unit's move: the action it chooses for the turn (or keeps), and a path for
// each of its models that moves, in the order they move. A move without paths chooses the
// action standing still (Halt, Focus Fire…).
type Move struct {
	Unit string
	// Action is the action chosen with the move, "" to keep the one chosen this turn.
	Action Action
	Paths  []ModelPath
	// first is the model the move is about, for a preview: the first that moves, or the
	// unit's first living model.
	first string
	at    struct {
		root   scenario.Pos
		action scenario.Pos
	}
}

// ModelPath is one model's path: the points it moves through from where it stands,
// ending where it stops, and from edition 5 (ClimbEdition) the elevation it climbs to
// there (a floor's height, or the ground's), nil to stay at the level it walks at.
type ModelPath struct {
	Model     string
	Points    []geom.Vec
	Elevation *float64
	at        scenario.Pos
}

// Kind returns "move".
func (*Move) Kind() string { return volley.MoveAction }

// MovedUnit is the model the move is about: where a preview looks after it.
func (m *Move) MovedUnit() string { return m.first }

// ActingUnit is the unit that moves.
func (m *Move) ActingUnit() string { return m.Unit }

// activation is the unit acting now: it has chosen its action (or shot without a move),
// its models may move while it acts, and once it has shot they may not.
type activation struct {
	unit string
	shot bool
}

// moveSpec is a move as written: unit names a unit (its models' paths in models:) or a
// model (its path in path:).
type moveSpec struct {
	Type   string           `yaml:"type"`
	Unit   string           `yaml:"unit,required"`
	Action Action           `yaml:"action"`
	Path   []scenario.Point `yaml:"path"`
	Models []modelPathSpec  `yaml:"models"`
	// Elevation is the level a model named by unit: climbs to where its path ends.
	Elevation *scenario.Length `yaml:"elevation"`
}

type modelPathSpec struct {
	ID   string           `yaml:"id,required"`
	Path []scenario.Point `yaml:"path"`
	// Elevation is the level the model climbs to where its path ends (edition 5): a
	// floor's height above the table, or the ground's.
	Elevation *scenario.Length `yaml:"elevation"`
}

// maxMoveLegs bounds a move, not a rule: a unit of MaxModelsPerUnit models moves in
// maxMoveLegs legs at most in one action (a model's path in volley.MaxLegs).
const maxMoveLegs = 256

func (b *Battle) decodeMove(doc *scenario.Doc) (volley.Action, error) {
	doc = doc.WithUnit(b.unit) // sent on its own, it is written in the battle's unit
	var spec moveSpec
	var m *Move
	err := doc.DecodeChecked(&spec, func(errs *scenario.ErrorList) {
		if volley.RefuseNoMoves(errs, doc, &spec.Type, volley.MoveAction, "models", b.moves) {
			return
		}
		u, ok := b.Unit(spec.Unit)
		model, mu, isModel := b.Model(spec.Unit)
		switch {
		case isModel:
			u = mu
		case !ok:
			volley.RefuseUnknown(errs, doc, &spec.Unit, "move: unknown unit or model", b.unitIDs)
			return
		}
		m = &Move{Unit: u.ID, Action: spec.Action}
		m.at.root, m.at.action = doc.Root(), doc.At(&spec.Action)
		if !doc.Pos(&spec.Action).IsValid() {
			m.at.action = m.at.root
		}
		legs := 0
		add := func(id string, pts []scenario.Point, ptr any, elev *scenario.Length) {
			var climb *float64
			if elev != nil {
				switch {
				case !b.climbs && volley.DocEdition(doc) < ClimbEdition:
					errs.Add(doc.At(elev), "move: %s's elevation: a battle begun under edition %d does not climb", id, volley.DocEdition(doc))
					return
				case !b.climbs: // a log replayed without its edition: the battle's decides
					errs.Add(doc.At(elev), "move: %s's elevation: a battle begun before edition %d does not climb", id, ClimbEdition)
					return
				case !checkLength(doc, elev, "move: "+id+"'s elevation", errs):
					return
				}
				climb = new(elev.Inches())
			}
			if len(pts) == 0 && climb != nil {
				m.Paths = append(m.Paths, ModelPath{Model: id, Elevation: climb, at: doc.At(elev)})
				return
			}
			if len(pts) == 0 {
				errs.Add(doc.At(ptr), "move: %s's path: give the points it moves through, ending where it stops", id)
				return
			}
			if len(pts) > volley.MaxLegs {
				errs.Add(doc.At(ptr), "move: %s's path: at most %d legs", id, volley.MaxLegs)
				return
			}
			if legs += len(pts); legs > maxMoveLegs {
				errs.Add(doc.At(ptr), "move: at most %d legs in all in one move", maxMoveLegs)
				return
			}
			p := ModelPath{Model: id, Elevation: climb, at: doc.At(ptr)}
			for i := range pts {
				if checkPoint(doc, &pts[i], "move: "+id+"'s path", errs) {
					p.Points = append(p.Points, geom.V(pts[i].X, pts[i].Y))
				}
			}
			m.Paths = append(m.Paths, p)
		}
		switch {
		case isModel:
			if spec.Models != nil {
				errs.Add(doc.At(&spec.Models), "move: %s is a model: give its path, or name its unit %s to move several", model.ID, u.ID)
			}
			if spec.Path != nil || spec.Elevation != nil {
				add(model.ID, spec.Path, &spec.Path, spec.Elevation)
			}
		case spec.Path != nil:
			errs.Add(doc.At(&spec.Path), "move: %s is a unit, whose models move one by one: give models: [{id, path}], or name the model as unit", u.ID)
		case spec.Elevation != nil:
			errs.Add(doc.At(spec.Elevation), "move: %s is a unit, whose models climb one by one: give models: [{id, path, elevation}], or name the model as unit", u.ID)
		default:
			for i := range spec.Models {
				s := &spec.Models[i]
				mm, owner, ok := b.Model(s.ID)
				switch {
				case !ok || owner != u:
					if s.ID != "" {
						errs.Add(doc.At(&s.ID), "move: %s has no model %q%s", u.ID, s.ID, scenario.Hint(s.ID, modelIDs(u)))
					}
					continue
				case slices.ContainsFunc(m.Paths, func(p ModelPath) bool { return p.Model == mm.ID }):
					errs.Add(doc.At(&s.ID), "move: %s is given two paths: a model's path holds all its legs", mm.ID)
					continue
				}
				if s.Path == nil && s.Elevation == nil {
					errs.Add(doc.At(s), "move: %s's path: give the points it moves through, ending where it stops", mm.ID)
					continue
				}
				add(mm.ID, s.Path, &s.Path, s.Elevation)
			}
		}
		switch {
		case len(m.Paths) > 0:
			m.first = m.Paths[0].Model
		case isModel:
			m.first = model.ID
		default:
			m.first = u.ID
			for i := range u.Models {
				if u.Models[i].Alive() {
					m.first = u.Models[i].ID
					break
				}
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// allowance is how far each model of u may move this turn with action a: the unit's own
// moves, else the tables'; 0 for an action neither lists.
func (b *Battle) allowance(u *Unit, a Action) float64 {
	if d, ok := u.Moves[a]; ok {
		return d
	}
	return b.tables.moves[a]
}

// mostAllowed is the farthest a model of u could move this turn: with the action it
// chose, or, before it chooses, with the action that moves farthest.
func (b *Battle) mostAllowed(u *Unit) float64 {
	if u.Action != "" {
		return b.allowance(u, u.Action)
	}
	most := 0.0
	for _, a := range AllActions {
		most = max(most, b.allowance(u, a))
	}
	return most
}

// actCheck returns the error that keeps u from acting now: out of turn, another unit's
// action over, or its own shooting done. The unit acting now may go on moving.
func (b *Battle) actCheck(u *Unit) error {
	return b.turns.CheckActing(u.Side, u.ID, b.act.unit, b.act.shot, "has shot this turn: its models move before it shoots, and it acts once a turn")
}

// shootCheck returns the error that keeps u from shooting now: the battle not begun (its
// deployment goes on), out of turn, or its action over. From edition 4 a unit that moved
// this turn may then shoot.
func (b *Battle) shootCheck(u *Unit) error {
	if err := b.table.CheckBegun(); err != nil {
		return err
	}
	if b.moves && b.turns.GoesOn(u.Side, u.ID, b.act.unit, b.act.shot) {
		return nil
	}
	return b.turns.Check(u.Side, u.ID, "unit")
}

// movable says why model m of unit u may not move now, or "" when it may; left is how
// far it may still move this turn.
func (b *Battle) movable(u *Unit, m *Model) (left float64, why string) {
	switch {
	case !m.Alive():
		return 0, m.ID + " is dead"
	case u.Destroyed():
		return 0, u.ID + " has no models left"
	}
	if err := b.actCheck(u); err != nil {
		return 0, err.Error()
	}
	allow := b.mostAllowed(u)
	left = max(allow-b.moved[m.ID], 0)
	if left <= geom.Tolerance {
		if allow == 0 {
			return 0, fmt.Sprintf("%s chose %s, which moves nothing (the tables' moves:)", u.ID, u.Action.Title())
		}
		return 0, fmt.Sprintf("%s has moved its whole %s this turn", m.ID, b.length(allow))
	}
	return left, ""
}

// chosen is the action a move is made with: the unit's, or the one the move chooses. It
// says why the move may not choose it.
func (b *Battle) chosen(u *Unit, m *Move) (Action, error) {
	switch {
	case u.Action != "" && m.Action != "" && m.Action != u.Action:
		return "", volley.Errorf(volley.EINVALID, "warstrike: %s chose %s this turn already, not %s: a unit chooses one action a turn (Actions That Allow Shooting)", u.ID, u.Action.Title(), m.Action.Title())
	case u.Action != "":
		return u.Action, nil
	case m.Action == "":
		return "", volley.Errorf(volley.EINVALID, "warstrike: action: %s has chosen no action this turn: its first move chooses it (advance, at_the_double, fall_back, halt, go_to_ground, or a shooting action)", u.ID)
	}
	return m.Action, nil
}

// checkMove says why a move may not be made now, or nil: the unit may not act, the
// action may not be chosen, or a model's path is longer than it has left, or crosses a
// base, solid terrain or the table's edge. The models are checked one by one, each
// against the others where the paths before it left them.
func (b *Battle) checkMove(m *Move) error {
	u, _ := b.Unit(m.Unit)
	if u.Destroyed() {
		return volley.Errorf(volley.ECONFLICT, "warstrike: %s has no models left", u.ID)
	}
	if err := b.actCheck(u); err != nil {
		return fmt.Errorf("warstrike: %w", err)
	}
	act, err := b.chosen(u, m)
	if err != nil {
		return err
	}
	moved := newStands()
	for _, p := range m.Paths {
		_, err := b.checkPath(u, act, p, moved)
		if err != nil {
			return err
		}
	}
	return nil
}

// standing is where a model stands.
type standing struct {
	at        geom.Vec
	elevation float64
}

// stands is where the models stand as a move goes on: those it has moved (at), and which
// models stand on a floor (aloft, from edition 5), worked out once a move for each model
// it is asked of.
type stands struct {
	at    map[*Model]standing
	aloft map[*Model]bool
}

func newStands() *stands {
	return &stands{at: map[*Model]standing{}, aloft: map[*Model]bool{}}
}

// of is where model o stands now.
func (s *stands) of(o *Model) standing {
	if st, ok := s.at[o]; ok {
		return st
	}
	return standing{o.At, o.Elevation}
}

// moveTo records that model o has moved to st.
func (s *stands) moveTo(o *Model, st standing) {
	s.at[o] = st
	delete(s.aloft, o)
}

// aloft reports whether model o stands on a floor now.
func (b *Battle) aloft(s *stands, o *Model) bool {
	if v, ok := s.aloft[o]; ok {
		return v
	}
	st := s.of(o)
	v := b.floorAt(st.at, st.elevation) != nil
	s.aloft[o] = v
	return v
}

// checkPath checks one model's path, after the models in moved have moved there, and
// records where it ends in moved. It returns the model's walk.
func (b *Battle) checkPath(u *Unit, act Action, p ModelPath, moved *stands) (walk, error) {
	md, _, _ := b.Model(p.Model)
	if !md.Alive() {
		return walk{}, volley.Errorf(volley.EINVALID, "warstrike: %s is dead and does not move", md.ID)
	}
	w, why := b.walkOf(md, p)
	allow := b.allowance(u, act)
	left := max(allow-b.moved[md.ID], 0)
	if length := w.length(); length > left+geom.Tolerance {
		how := ""
		if w.climb > 0 {
			how = fmt.Sprintf(" (%s along the table and %s climbing)", b.length(w.along), b.length(w.climb))
		}
		return walk{}, volley.Errorf(volley.EINVALID, "warstrike: %s's move is %s long%s, and it may move %s more this turn (%s moves %s a model: the tables' moves:, data)",
			md.ID, b.length(length), how, b.length(left), act.Title(), b.length(allow))
	}
	if why == "" {
		why = b.pathBlocked(md, w, moved)
	}
	if why != "" {
		return walk{}, volley.Errorf(volley.EINVALID, "warstrike: %s cannot move there: %s", md.ID, why)
	}
	moved.moveTo(md, standing{w.path.End(), w.elevation})
	return w, nil
}

// walk is one model's move as the rules measure it: its path on the table from where it
// stands, how long it is there, what its climbs cost (edition 5), and the level it ends
// on.
type walk struct {
	path  geom.Path
	along float64
	// climb is what the climbs cost the move (climbCost of the heights climbed): over
	// walls, and up or down at the path's end (up, signed: 0 for none).
	climb     float64
	walls     []wallClimb
	up        float64
	elevation float64
}

// length is how much of its move the walk spends.
func (w *walk) length() float64 { return w.along + w.climb }

// walkOf measures model md's move along p, and says why a climb it asks for may not be
// made: no such level where it ends, a wall it would stand astride. A model stands at
// the end on the ground there (a hill's or a building's top, or the table); from edition
// 5 on the floor it walked along, and at the level it climbs to.
func (b *Battle) walkOf(md *Model, p ModelPath) (walk, string) {
	w := walk{path: append(geom.Path{md.At}, p.Points...)}
	w.along = w.path.Length()
	end := w.path.End()
	w.elevation = b.groundAt(end)
	if !b.climbs {
		return w, ""
	}
	var why string
	w.walls, why = b.wallClimbs(md, w.path)
	for _, c := range w.walls {
		w.climb += b.climbCost(2*(c.wall.Top()-md.Elevation)) * float64(c.times)
	}
	switch f := b.floorOf(md); {
	case len(p.Points) == 0:
		w.elevation = md.Elevation // it climbs where it stands
	case f != nil:
		w.elevation = f.Height // along its floor (pathBlocked keeps it there)
	}
	if p.Elevation == nil || math.Abs(*p.Elevation-w.elevation) <= levelTolerance {
		return w, why
	}
	to := *p.Elevation
	if why == "" && math.Abs(to-b.groundAt(end)) > levelTolerance && b.floorAt(end, to) == nil {
		why = fmt.Sprintf("there is no floor %s up where its path ends (the levels there: %s)", b.length(to), b.levelsAt(end))
	}
	w.up = to - w.elevation
	w.climb += b.climbCost(math.Abs(w.up))
	w.elevation = to
	return w, why
}

// blocksMove reports whether a piece of terrain stops model m: a wall, a building or a
// feature whose solid volume meets the model's body where it stands (a model walks under
// an arch's lintel, across a roof it stands on). Hills are climbed and area terrain is
// entered: neither stops a model.
func blocksMove(t *Terrain, m *Model) bool {
	if t.Kind != Wall && t.Kind != Building && t.Kind != Feature {
		return false
	}
	return t.Bottom < m.Elevation+m.Height-1e-9 && t.Top() > m.Elevation+1e-9
}

// pathBlocked says why model md's base moved along its walk would overlap another
// model's base (where the models in moved now stand) or terrain that stops it, step off
// the roof or the floor it stands on, or leave the table, or, climbing where it ends,
// meet terrain or a base at the level it climbs to; "" when it may go. From edition 5 a
// base passes over or under another on a floor, their bodies apart in height.
func (b *Battle) pathBlocked(md *Model, w walk, moved *stands) string {
	r := md.Base / 2
	path := w.path
	var roof *Terrain
	for i := range b.terrain {
		if t := &b.terrain[i]; t.Kind == Building && standsOn(t, md) {
			roof = t
		}
	}
	var floor *Floor
	if b.climbs {
		floor = b.floorOf(md)
	}
	// meets is the first other base the base of a model of md's size, standing z up
	// (onFloor: on a floor), would overlap swept along leg.
	var onFloor bool
	meets := func(leg geom.Segment, z float64) *Model {
		for ui := range b.units {
			for mi := range b.units[ui].Models {
				o := &b.units[ui].Models[mi]
				if o == md || o.Dead {
					continue
				}
				at := moved.of(o)
				if b.climbs && (z+md.Height <= at.elevation+levelTolerance || at.elevation+o.Height <= z+levelTolerance) {
					// Apart in height: over or under it, one of them on a floor.
					if onFloor || b.aloft(moved, o) {
						continue
					}
				}
				if geom.SweepHitsCircle(leg, r, geom.Circle{C: at.at, R: o.Base / 2}) {
					return o
				}
			}
		}
		return nil
	}
	onFloor = floor != nil
	why := b.table.PathBlocked(path, r, func(_ int, leg geom.Segment) string {
		if o := meets(leg, md.Elevation); o != nil {
			return "would pass over " + o.ID + "'s base"
		}
		for j := range b.terrain {
			if t := &b.terrain[j]; blocksMove(t, md) && !b.climbsOver(t, md) && geom.SweepHitsPolygon(leg, r, t.Poly) {
				return fmt.Sprintf("would pass through %s (%s)", t.label(), t.Kind)
			}
		}
		if roof != nil && !staysWithin(leg, roof.Poly) {
			return fmt.Sprintf("would step off the roof of %s: climbing down a building is not modelled", roof.label())
		}
		if floor != nil && !staysWithin(leg, floor.Poly) {
			return fmt.Sprintf("would step off the floor of %s, %s up: a model leaves a floor by climbing down (elevation:) where it stands, before it walks on", b.levelPiece(floor), b.length(floor.Height))
		}
		return ""
	})
	if why != "" || w.up == 0 {
		return why
	}
	// The climb where the path ends: the base at the level it climbs to.
	end := path.End()
	stand := *md
	stand.At, stand.Elevation = end, w.elevation
	for j := range b.terrain {
		if t := &b.terrain[j]; blocksMove(t, &stand) && geom.SweepHitsPolygon(geom.Segment{A: end, B: end}, r, t.Poly) {
			return fmt.Sprintf("it would climb into %s (%s)", t.label(), t.Kind)
		}
	}
	onFloor = b.floorAt(end, w.elevation) != nil
	if o := meets(geom.Segment{A: end, B: end}, w.elevation); o != nil {
		return fmt.Sprintf("%s up, its base would overlap %s's", b.length(w.elevation), o.ID)
	}
	return ""
}

// staysWithin reports whether a leg ends inside a polygon without crossing its edges.
func staysWithin(leg geom.Segment, p geom.Polygon) bool {
	if !p.Contains(leg.B) {
		return false
	}
	for i := range p {
		if _, ok := leg.Intersect(geom.Segment{A: p[i], B: p[(i+1)%len(p)]}); ok {
			return false
		}
	}
	return true
}

// resolveMove checks a move and makes it: the unit chooses its action (on its first move
// this turn) and its models move one by one, each standing on the ground where it stops
// (the top of a hill or building under its centre, or the table). It rolls no die. A move
// that may not be made is refused with the rule it breaks, and changes nothing.
func (b *Battle) resolveMove(m *Move) (volley.Outcome, error) {
	if err := b.checkMove(m); err != nil {
		return volley.Outcome{}, err
	}
	u, _ := b.Unit(m.Unit)
	act, _ := b.chosen(u, m)
	// Applied only now: every check above left the battle as it was. The first action
	// other than a deployment ends the deployment.
	b.table.Deploying = false
	if b.act.unit != u.ID {
		b.act = activation{unit: u.ID}
		b.turns.Begin(u.ID)
	}
	var steps []volley.Step
	if u.Action == "" {
		u.Action = act
		steps = append(steps, volley.Step{Rule: "choose an action (Actions That Allow Shooting)", Inputs: map[string]any{"unit": u.ID, "action": act.Title()},
			Result: b.choiceWords(u, act)})
	}
	moved := newStands()
	for _, p := range m.Paths {
		w, _ := b.checkPath(u, act, p, moved)
		md, _, _ := b.Model(p.Model)
		length := w.length()
		from := *md
		md.At = w.path.End()
		md.Elevation = w.elevation
		b.moved[md.ID] += length
		in := map[string]any{"model": md.ID, "from": b.point(from.At), "to": b.point(md.At), "length": b.inUnit(length),
			"moved_this_turn": b.inUnit(b.moved[md.ID]), "move": b.inUnit(b.allowance(u, act)), "elevation": b.inUnit(md.Elevation)}
		result := fmt.Sprintf("%s moved %s (%s of its %s this turn with %s)", md.ID, b.length(length), b.length(b.moved[md.ID]), b.length(b.allowance(u, act)), act.Title())
		if c := b.climbWords(&w, from, md); c != "" {
			in["climbed"] = b.inUnit(w.climb)
			result += "; " + c
		}
		if w := b.elevationWords(from, md); w != "" {
			result += "; " + w
		}
		steps = append(steps, volley.Step{Rule: "move", Inputs: in, Result: result})
	}
	if len(steps) == 0 {
		steps = append(steps, volley.Step{Rule: "move", Inputs: map[string]any{"unit": u.ID, "action": act.Title()}, Result: u.ID + " does not move"})
	}
	return volley.Outcome{Trace: steps, Targets: []volley.TargetResult{}}, nil
}

// choiceWords says what an action chosen means for the unit this turn.
func (b *Battle) choiceWords(u *Unit, a Action) string {
	s := fmt.Sprintf("%s chose %s: each of its models may move %s this turn", u.ID, a.Title(), b.length(b.allowance(u, a)))
	switch {
	case a == AtTheDouble || a == FallBack:
		return s + ", and it may not shoot: units that moved At-The-Double or fell back may not shoot (Who Can Shoot?)"
	case !a.allowsShooting():
		return s + ", and it may not shoot: " + a.Title() + " is not an action that allows shooting (Who Can Shoot?)"
	}
	return s + ", and it may shoot (Actions That Allow Shooting)"
}

// elevationWords says where a model that moved stands now, if it stands above the table
// or did before: elevation follows the ground under its centre (TLOS And Elevated
// Positions measures from the table to the bottom of the base).
func (b *Battle) elevationWords(before Model, m *Model) string {
	switch {
	case m.Elevation > 0 && math.Abs(m.Elevation-before.Elevation) > 1e-9:
		return fmt.Sprintf("it stands %s up, on %s (it stood %s up)", b.length(m.Elevation), b.levelName(m.At, m.Elevation), b.length(before.Elevation))
	case m.Elevation > 0:
		return fmt.Sprintf("it stands %s up, on %s", b.length(m.Elevation), b.levelName(m.At, m.Elevation))
	case before.Elevation > 0:
		return fmt.Sprintf("it stands on the table (it stood %s up)", b.length(before.Elevation))
	}
	return ""
}

// groundName names what a base centred on p stands on: the highest hill or building
// under it.
func (b *Battle) groundName(p geom.Vec) string {
	name, z := "the table", 0.0
	for i := range b.terrain {
		if t := &b.terrain[i]; (t.Kind == Hill || t.Kind == Building) && t.Poly.Contains(p) && t.Top() > z {
			name, z = t.label(), t.Top()
		}
	}
	return name
}

// inUnit is a length in inches in the scenario's unit, rounded to a thousandth.
func (b *Battle) inUnit(x float64) float64 { return roundMilli(scenario.Inches(x).In(b.unit.OrInch())) }

// point is a point in the scenario's unit, rounded to a thousandth.
func (b *Battle) point(p geom.Vec) []float64 { return []float64{b.inUnit(p.X), b.inUnit(p.Y)} }

// moveRefusals is a move's refusal, for check: at the path it refuses, or at the move.
func (b *Battle) moveRefusals(m *Move) scenario.ErrorList {
	err := b.checkMove(m)
	if err == nil {
		return nil
	}
	msg := strings.TrimPrefix(volley.ErrorMessage(err), "warstrike: ")
	pos := m.at.root
	for _, p := range m.Paths {
		if strings.HasPrefix(msg, p.Model+" ") || strings.HasPrefix(msg, p.Model+"'s ") {
			pos = p.at
			break
		}
	}
	if strings.HasPrefix(msg, "action: ") || strings.Contains(msg, "a unit chooses one action a turn") {
		pos = m.at.action
	}
	return rules.Refusal(pos, msg)
}

// moveView is how model m of unit u may move now, in the view's unit.
func (b *Battle) moveView(u *Unit, m *Model, in func(float64) float64) *volley.MoveView {
	if !b.moves {
		return nil
	}
	left, why := b.movable(u, m)
	return b.table.MoveView(in(b.mostAllowed(u)), in(b.moved[m.ID]), in(left), why)
}

// farthest is the farthest a model of u has moved this turn.
func (b *Battle) farthest(u *Unit) float64 {
	d := 0.0
	for i := range u.Models {
		d = max(d, b.moved[u.Models[i].ID])
	}
	return d
}
