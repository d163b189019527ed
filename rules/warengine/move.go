package warengine

import (
	"fmt"
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// Movement (Phase I). The manual's turn is three phases: the units move, then declare
// targets, then fire; a unit that did not move in Phase I is aiming in the two that
// follow. From edition 4 (volley.EditionMoves) a side's turn begins with its Phase I: its
// units move square by square along paths of squares, and whether each is aiming is
// measured from those moves rather than taken from the scenario or the player. How far a
// unit may move is data (its type's move:), since the targeting and firing chapter gives
// no movement rates.

// moveSpec is a move as written: the squares its top-left square steps through, one
// square at a time, and the facing it ends with.
type moveSpec struct {
	Type   string   `yaml:"type,required"`
	Unit   string   `yaml:"unit,required"`
	Path   [][2]int `yaml:"path"`
	Facing *Facing  `yaml:"facing"`
}

// deploySpec is a deployment as written.
type deploySpec struct {
	Type   string  `yaml:"type,required"`
	Unit   string  `yaml:"unit,required"`
	At     [2]int  `yaml:"at,required"`
	Facing *Facing `yaml:"facing"`
}

// noMoves is the error of a move or deployment in a battle begun before units moved.
func (b *Battle) noMoves(doc *scenario.Doc) string {
	return fmt.Sprintf("a battle begun under edition %d does not move its units", min(volley.DocEdition(doc), b.edition))
}

// decodeMove reads a move. Whether the unit may make it now (its turn, its Phase I, its
// move left, the squares on the way) is checkMove's.
func (b *Battle) decodeMove(doc *scenario.Doc) (*Order, error) {
	return volley.ReadAction(doc, func(spec *moveSpec, errs *scenario.ErrorList) *Order {
		if !volley.Moves(doc) || !b.moves {
			errs.Add(doc.At(&spec.Type), "move: %s", b.noMoves(doc))
			return nil
		}
		u, ok := b.Unit(spec.Unit)
		if !ok {
			volley.RefuseUnknown(errs, doc, &spec.Unit, "move: unknown unit", b.unitIDs)
			return nil
		}
		if len(spec.Path) == 0 && spec.Facing == nil {
			errs.Add(doc.Root(), "move: give a path of squares [column, row] (the unit's top-left square, one step at a time), a facing to turn to, or both")
			return nil
		}
		if len(spec.Path) > MaxMove {
			errs.Add(doc.At(&spec.Path), "move: path: at most %d squares", MaxMove)
			return nil
		}
		o := &Order{Type: Move, Unit: u.ID, Facing: spec.Facing}
		o.at.root, o.at.unit = doc.Root(), doc.At(&spec.Unit)
		for i, p := range spec.Path {
			o.Path = append(o.Path, geom.Sq(p[0], p[1]))
			o.at.path = append(o.at.path, doc.At(&spec.Path[i]))
		}
		return o
	})
}

// decodeDeploy reads a deployment.
func (b *Battle) decodeDeploy(doc *scenario.Doc) (*Order, error) {
	return volley.ReadAction(doc, func(spec *deploySpec, errs *scenario.ErrorList) *Order {
		if !volley.Moves(doc) || !b.moves {
			errs.Add(doc.At(&spec.Type), "deploy: %s", b.noMoves(doc))
			return nil
		}
		if why := b.table.NoDeployment(); why != "" {
			errs.Add(doc.At(&spec.Type), "deploy: %s", why)
			return nil
		}
		u, ok := b.Unit(spec.Unit)
		if !ok {
			volley.RefuseUnknown(errs, doc, &spec.Unit, "deploy: unknown unit", b.unitIDs)
			return nil
		}
		o := &Order{Type: Deploy, Unit: u.ID, At: geom.Sq(spec.At[0], spec.At[1]), Facing: spec.Facing}
		o.at.root, o.at.unit, o.at.target = doc.Root(), doc.At(&spec.Unit), doc.At(&spec.At)
		return o
	})
}

// wall reports whether no unit may stand on (or pass over) terrain: terrain that blocks
// sight or stops every shot. The danger map places no unit on it either.
func (t *TerrainType) wall() bool {
	return t.Visibility >= OpaqueVisibility || t.Firepower >= SolidFirepower
}

// canMove reports whether a unit may ever leave its squares: it stands and its type
// gives it a move.
func (u *Unit) canMove() bool { return !u.Destroyed() && u.Type.Move > 0 }

// stepCost is what one step costs of a unit's move: one square, or with diagonal:
// alternate two for every second diagonal step of its turn (n counts them from 1).
func (b *Battle) stepCost(diagonal bool, n int) int {
	if diagonal && b.opts.diagonalAlternate && n%2 == 0 {
		return 2
	}
	return 1
}

// blockedAt says why unit u's footprint may not stand with its top-left on q: a square
// off the map, a wall, another unit; "" when it may.
func (b *Battle) blockedAt(u *Unit, q geom.Square) string {
	n := u.Type.Size
	for dy := range n {
		for dx := range n {
			s := q.Add(dx, dy)
			switch {
			case !b.onMap(s):
				if n == 1 {
					return fmt.Sprintf("%s is off the %d×%d map", squareName(s), b.width, b.height)
				}
				return fmt.Sprintf("its %d×%d footprint from %s would leave the %d×%d map", n, n, squareName(q), b.width, b.height)
			case b.terrainAt(s).wall():
				t := b.terrainAt(s)
				return fmt.Sprintf("the %s at %s blocks it (visibility %d, firepower %d: no unit stands on a wall)", t.Name, squareName(s), t.Visibility, t.Firepower)
			}
			if o := b.unitAt(s); o != nil && o != u {
				return fmt.Sprintf("%s stands on %s", o.ID, squareName(s))
			}
		}
	}
	return ""
}

// movePlan is a move worked out: where it ends, what it costs of the unit's move, and
// its diagonal steps.
type movePlan struct {
	end       geom.Square
	cost      int
	diagonals int
}

// refused is a move's or deployment's refusal and the step (from 0) it names, -1 for
// none.
type refused struct {
	err  error
	step int
}

// checkMove says why a move may not be made now, and otherwise what it costs: the unit
// may not move (out of its side's turn or Phase I, destroyed), a step is not to a square
// next to the last, the path costs more than the move the unit has left this turn, or a
// step puts its footprint off the map, on a wall or on another unit, or cuts a corner
// between two of them.
func (b *Battle) checkMove(o *Order) (movePlan, *refused) {
	u, _ := b.Unit(o.Unit)
	if err := b.refuse(o); err != nil {
		return movePlan{}, &refused{err, -1}
	}
	plan := movePlan{end: u.At}
	if len(o.Path) > 0 && u.Type.Move == 0 {
		return plan, &refused{volley.Errorf(volley.EINVALID, "warengine: %s may only turn: a %s has no move in the scenario (its type's move:, in squares)", u.ID, u.Type.Name), -1}
	}
	// The steps and their cost first: cheap, and a path too long needs no squares looked at.
	prev, diagonals := u.At, u.diagonals
	for i, q := range o.Path {
		if prev.Chebyshev(q) != 1 {
			return plan, &refused{volley.Errorf(volley.EINVALID, "warengine: %s cannot move there: step %d, %s, is not next to %s: a path goes one square at a time (diagonals too), naming the unit's top-left square", u.ID, i+1, squareName(q), squareName(prev)), i}
		}
		diagonal := q.X != prev.X && q.Y != prev.Y
		if diagonal {
			diagonals++
			plan.diagonals++
		}
		plan.cost += b.stepCost(diagonal, diagonals)
		prev = q
	}
	if left := u.Type.Move - u.Moved; plan.cost > left {
		return plan, &refused{volley.Errorf(volley.EINVALID, "warengine: %s's path costs %s of its move, and it has %d left this turn (its move is %s a Phase I, its type's move:%s)",
			u.ID, squares(plan.cost), left, squares(u.Type.Move), b.diagonalWords()), -1}
	}
	prev = u.At
	for i, q := range o.Path {
		if why := b.blockedAt(u, q); why != "" {
			return plan, &refused{volley.Errorf(volley.EINVALID, "warengine: %s cannot move there: step %d, to %s: %s", u.ID, i+1, squareName(q), why), i}
		}
		if q.X != prev.X && q.Y != prev.Y && !b.opts.cutCorners {
			// Both squares beside the diagonal, each the footprint moved one way only.
			a, c := b.blockedAt(u, geom.Sq(q.X, prev.Y)), b.blockedAt(u, geom.Sq(prev.X, q.Y))
			if a != "" && c != "" {
				return plan, &refused{volley.Errorf(volley.EINVALID, "warengine: %s cannot move there: step %d, from %s to %s, cuts the corner between two blocked squares (%s; %s): a diagonal step needs one of the two ways round it open (option cut_corners: true allows it)",
					u.ID, i+1, squareName(prev), squareName(q), a, c), i}
			}
		}
		prev = q
	}
	plan.end = prev
	return plan, nil
}

// diagonalWords says how diagonal steps were counted, when they were not one square.
func (b *Battle) diagonalWords() string {
	if b.opts.diagonalAlternate {
		return "; every second diagonal step costs 2, diagonal: alternate"
	}
	return ""
}

// resolveMove checks a move and makes it. It rolls no die; a refused move changes
// nothing.
func (b *Battle) resolveMove(o *Order, r *record) error {
	plan, no := b.checkMove(o)
	if no != nil {
		return no.err
	}
	u, _ := b.Unit(o.Unit)
	i := b.byID[u.ID]
	from, facing := u.At, u.Facing
	b.vacate(i)
	u.At = plan.end
	b.occupy(i)
	if o.Facing != nil {
		u.Facing = *o.Facing
	}
	u.Moved += plan.cost
	u.diagonals += plan.diagonals
	turned := u.Facing != facing
	if len(o.Path) > 0 || turned && b.opts.facingChangeMoves {
		u.Aiming = false
	}
	u.measured = true
	in := map[string]any{"unit": u.ID, "from": squareName(from), "to": squareName(u.At), "steps": len(o.Path), "cost": plan.cost,
		"moved_this_turn": u.Moved, "move": u.Type.Move}
	if o.Facing != nil {
		in["facing"] = u.Facing.String()
	}
	var result string
	switch {
	case len(o.Path) > 0:
		result = fmt.Sprintf("%s moved to %s, %d of its move of %d this turn", u.ID, squareName(u.At), u.Moved, u.Type.Move)
	case turned:
		result = fmt.Sprintf("%s turned from %s to %s on its squares", u.ID, facing, u.Facing)
	default:
		result = fmt.Sprintf("%s kept its squares and its facing", u.ID)
	}
	if o.Facing != nil && len(o.Path) > 0 {
		result += ", facing " + u.Facing.String()
	}
	switch {
	case u.Aiming:
		result += ": it has not moved in Phase I, so it still aims"
		if turned {
			result += " (turning is not moving; option facing_change_moves: true makes it so)"
		}
	case len(o.Path) == 0 && u.Moved == 0:
		result += ": it turned in Phase I (facing_change_moves), so it is not aiming this turn"
	default:
		result += ": it moved in Phase I, so it is not aiming this turn"
	}
	r.step("move (Phase I)", in, result)
	return nil
}

// checkDeploy says why a unit may not be deployed where a deployment puts it: the
// battle has begun, or it is another side's deployment (from edition 5), or its footprint would leave the map, stand on a wall or another
// unit, or lie outside its side's deployment zone.
func (b *Battle) checkDeploy(o *Order) *refused {
	u, _ := b.Unit(o.Unit)
	if err := b.table.CheckDeploy(u.Side, []string{u.ID}, "units"); err != nil {
		return &refused{fmt.Errorf("warengine: %w", err), -1}
	}
	switch {
	case u.Destroyed():
		return &refused{volley.Errorf(volley.EINVALID, "warengine: %s is destroyed", u.ID), -1}
	}
	why := b.blockedAt(u, o.At)
	if z, ok := b.table.Zones[u.Side]; ok && why == "" {
		// A square is in the zone when its centre is: the zone's corners are the squares'.
		for _, q := range u.footprintAt(o.At) {
			if !geom.CircleInPolygon(geom.V(float64(q.X)+0.5, float64(q.Y)+0.5), 0, z) {
				why = fmt.Sprintf("%s lies outside %s's deployment zone", squareName(q), u.Side)
				break
			}
		}
	}
	if why != "" {
		return &refused{volley.Errorf(volley.EINVALID, "warengine: %s cannot be deployed at %s: %s", u.ID, squareName(o.At), why), 0}
	}
	return nil
}

// resolveDeploy places a unit before the battle begins: from edition 5 in its side's
// deployment, before it until the battle's first other action.
func (b *Battle) resolveDeploy(o *Order, r *record) error {
	if no := b.checkDeploy(o); no != nil {
		return no.err
	}
	u, _ := b.Unit(o.Unit)
	i := b.byID[u.ID]
	b.vacate(i)
	u.At = o.At
	b.occupy(i)
	if o.Facing != nil {
		u.Facing = *o.Facing
	}
	r.step("deploy", map[string]any{"unit": u.ID, "at": squareName(u.At), "facing": u.Facing.String()}, u.ID+" placed")
	r.steps = append(r.steps, b.table.Deployed([]string{u.ID}, u.ID)...)
	return nil
}

// footprintAt lists the squares the unit would cover with its top-left on q.
func (u *Unit) footprintAt(q geom.Square) []geom.Square {
	v := *u
	v.At = q
	return v.footprint()
}

// moveRefusals is a move's or deployment's refusal, for check: at the step it names, or
// at the action.
func (b *Battle) moveRefusals(o *Order) scenario.ErrorList {
	var no *refused
	if o.Type == Deploy {
		no = b.checkDeploy(o)
	} else {
		_, no = b.checkMove(o)
	}
	if no == nil {
		return nil
	}
	pos := o.at.root
	switch {
	case o.Type == Deploy && no.step == 0:
		pos = o.at.target
	case no.step >= 0 && no.step < len(o.at.path):
		pos = o.at.path[no.step]
	}
	return rules.RefusalOf(pos, no.err, "warengine")
}

// aimingOf is whether a unit's shot is aimed: as the order states (the command line's
// "what if"), else as the battle has it.
func aimingOf(o *Order, u *Unit) bool {
	if o != nil && o.Aiming != nil {
		return *o.Aiming
	}
	return u.Aiming
}

// aimingWords says where a unit's aiming comes from, for the trace of its shot.
func (b *Battle) aimingWords(o *Order, u *Unit) string {
	aims := u.ID + " aims"
	if !aimingOf(o, u) {
		aims = u.ID + " does not aim"
	}
	switch {
	case o != nil && o.Aiming != nil:
		return aims + ", as the order states (a \"what if\": the battle would measure it from its moves)"
	case !u.measured:
		return aims + ", as the scenario says: the battle began after its side's Phase I"
	case u.Moved > 0:
		return fmt.Sprintf("%s moved %s in Phase I, so it does not aim", u.ID, squares(u.Moved))
	case !u.Aiming:
		return u.ID + " turned in Phase I (facing_change_moves), so it does not aim"
	}
	return u.ID + " stood still in Phase I, so it aims"
}

// squares writes a count of squares as a player says it: "1 square", "3 squares".
func squares(n int) string {
	if n == 1 {
		return "1 square"
	}
	return fmt.Sprintf("%d squares", n)
}

// aimingInputs are the inputs of the trace step that says whether a unit aims.
func aimingInputs(o *Order, u *Unit) map[string]any {
	in := map[string]any{"unit": u.ID, "aiming": aimingOf(o, u)}
	if u.measured {
		in["moved"] = u.Moved
	}
	return in
}

// movable says how far u may still move now, or why it may not.
func (b *Battle) movable(u *Unit) (left int, why string) {
	switch {
	case u.Destroyed():
		return 0, u.ID + " is destroyed"
	case u.Side != b.side:
		return 0, fmt.Sprintf("it is %s's turn", b.side)
	case b.phase != PhaseMove:
		return 0, fmt.Sprintf("units move in the move phase (Phase I); this is the %s phase", b.phase)
	case u.Type.Move == 0:
		return 0, fmt.Sprintf("a %s has no move in the scenario (its type's move:): it may only turn", u.Type.Name)
	case u.Moved >= u.Type.Move:
		return 0, fmt.Sprintf("%s has moved its whole move of %s this turn: it may only turn", u.ID, squares(u.Type.Move))
	}
	return u.Type.Move - u.Moved, ""
}

// moveView is how u may move now, for the page.
func (b *Battle) moveView(u *Unit) *volley.MoveView {
	if !b.moves {
		return nil
	}
	left, why := b.movable(u)
	moved := 0
	if u.Side == b.side {
		moved = u.Moved
	}
	return b.table.MoveView(float64(u.Type.Move), float64(moved), float64(left), why)
}

// Fork is a copy of the battle for a "what if": its units (and their declarations), the
// map's terrain as shots have left it, who stands where and the deployment are its own;
// what no action changes (types, weapons, the legend) is shared.
func (b *Battle) Fork() volley.Battle {
	c := *b
	c.units = slices.Clone(b.units)
	for i := range c.units {
		c.units[i].Declared = slices.Clone(b.units[i].Declared)
	}
	c.cells = slices.Clone(b.cells)
	c.cellHits = slices.Clone(b.cellHits)
	c.occ = slices.Clone(b.occ)
	c.table = b.table.Clone()
	return &c
}

// Placements are the units as they stand now, as a scenario writes them: at (the
// top-left square), facing, and hits when they are not the type's (0 for a unit
// destroyed, which a scenario keeps off the map).
func (b *Battle) Placements() []volley.Placement {
	out := make([]volley.Placement, 0, len(b.units))
	for i := range b.units {
		u := &b.units[i]
		p := volley.Placement{ID: u.ID, Set: map[string]any{"at": []int{u.At.X, u.At.Y}, "facing": u.Facing.String()}}
		if u.Hits != u.Type.Hits {
			p.Set["hits"] = u.Hits
		} else {
			p.Drop = []string{"hits"}
		}
		out = append(out, p)
	}
	return out
}

// MovedUnit is the unit a move or a deployment places, "" for other orders.
func (o *Order) MovedUnit() string {
	if o.Type == Move || o.Type == Deploy {
		return o.Unit
	}
	return ""
}

// moveTypes names the move and deploy actions in a list of the action types, where the
// battle has them.
func (b *Battle) moveTypes() string {
	switch {
	case b.table.Deployment != nil:
		return "move, deploy, end_deployment, "
	case b.moves:
		return "move, deploy, "
	}
	return ""
}

// loadMoves reads what a scenario says of movement: the deployment zones, and where the
// battle begins. A battle that begins in a side's Phase I measures whether that side's
// units aim; a battle that begins after it takes the scenario's aiming: for them.
func (b *Battle) loadMoves(doc *scenario.Doc, f *file, errs *scenario.ErrorList) {
	if f.Table != nil {
		errs.Add(doc.At(f.Table), "table: a War Engine battlefield is its map, which no unit may leave; leave table: out")
		f.Table = nil
	}
	b.table = volley.LoadTable(doc, &f.Header, b.sides, errs)
	// From edition 5 the sides deploy in the order they play, from the side whose turn
	// the battle begins with.
	deploys := rules.Deploys(b.units, func(u *Unit) (string, string, bool) { return u.Side, u.ID, !u.Destroyed() })
	b.table.PlanDeployment(volley.FromFirst(b.sides, slices.Index(b.sides, b.side)), deploys, false)
	if b.phase == PhaseMove && !b.moves {
		errs.Add(doc.At(&f.Turn.Phase), "turn: phase move: %s: its turns begin with the target phase", b.noMoves(doc))
		b.phase = PhaseTarget
	}
	if !b.moves {
		return
	}
	for i := range f.Units {
		s := &f.Units[i]
		u, ok := b.Unit(s.ID)
		if !ok || u.Side != b.side {
			continue
		}
		if b.phase == PhaseMove && doc.Pos(&s.Aiming).IsValid() {
			b.notes = append(b.notes, fmt.Sprintf("%s: unit %q: aiming: the battle begins in %s's Phase I, where whether a unit aims is measured: it aims unless it moves", doc.At(&s.Aiming), u.ID, b.side))
		}
		if b.phase == PhaseMove && len(s.Target) > 0 {
			errs.Add(doc.At(&s.Target), "unit %q: targets: the battle begins in %s's Phase I, before its target phase: declare them there (or begin the battle in the target phase, turn: {phase: target})", u.ID, b.side)
			s.Target = nil
		}
	}
	if b.phase == PhaseMove {
		b.beginPhaseI(b.side)
	}
}
