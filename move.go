package volley

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// Movement. Every rule system reads facts from movement: how far a Dropzone unit moved
// this activation (Move & Fire), whether a War Engine unit stood still in Phase I
// (Aiming), whether a Republique battery stayed stationary (saved fire), which action a
// WarStrike unit moved with (At-The-Double may not shoot). From EditionMoves a battle's
// units move by actions of their own, logged and replayed like any other, and those facts
// are measured from the log: a refereed action (one a player sends a server) may no
// longer state them. The command line still may, as "what if" questions.

// EditionMoves is the first edition whose battles move, and measure the facts the
// rules read from movement rather than taking them from the player.
const EditionMoves = 4

// Moves reports whether a document is read under an edition whose units move.
func Moves(doc *scenario.Doc) bool { return DocEdition(doc) >= EditionMoves }

// RefuseStated adds to errs the error of a refereed action that states a fact the server
// measures from the moves in the log: field is the action's key ("moved",
// "out_of_coherency"), what the fact in words.
func RefuseStated(errs *scenario.ErrorList, doc *scenario.Doc, ptr any, field, what string) {
	errs.Add(doc.At(ptr), "%s: the server measures %s from the moves in the battle's log; an action sent to it may not state it (move the units instead)", field, what)
}

// ReadAction reads doc into a spec of type S (the action as written), and read makes
// of it the action, adding to errs what is wrong with it: the action, or every error at
// once, each at its place (scenario.Doc.DecodeChecked).
func ReadAction[S, A any](doc *scenario.Doc, read func(spec *S, errs *scenario.ErrorList) A) (A, error) {
	var spec S
	var a A
	if err := doc.DecodeChecked(&spec, func(errs *scenario.ErrorList) { a = read(&spec, errs) }); err != nil {
		var none A
		return none, err
	}
	return a, nil
}

// RefuseUnknown adds to errs, at the action's field id, the error of an action naming a
// piece the battle does not have (what: "move: unknown unit"), with a hint among those
// it has (ids, asked only then). An id left out is not one: its field is missing.
func RefuseUnknown(errs *scenario.ErrorList, doc *scenario.Doc, id *string, what string, ids func() []string) {
	if *id != "" {
		errs.Add(doc.At(id), "%s %q%s", what, *id, scenario.Hint(*id, ids()))
	}
}

// MaxLegs bounds a move's path: no honest move needs more turns than this.
const MaxLegs = 64

// RefusePath adds to errs, at the move's path, the error of a path given without a point
// or of more than MaxLegs legs, and reports whether it is too long to read on.
func RefusePath(errs *scenario.ErrorList, doc *scenario.Doc, path *[]scenario.Point) (tooLong bool) {
	switch {
	case len(*path) == 0 && doc.Pos(path).IsValid():
		errs.Add(doc.At(path), "move: path: give the points the unit moves through, ending where it stops")
	case len(*path) > MaxLegs:
		errs.Add(doc.At(path), "move: path: at most %d legs", MaxLegs)
		return true
	}
	return false
}

// RefuseNoMoves adds to errs, at at, the error of a move or a deployment (what: "move",
// "deploy") in a battle whose pieces ("units", "models") do not move, and reports whether
// it did: the action is read under an edition before EditionMoves or, replayed from a log
// without its edition, the battle began before it (battleMoves false).
func RefuseNoMoves(errs *scenario.ErrorList, doc *scenario.Doc, at any, what, pieces string, battleMoves bool) bool {
	switch {
	case !Moves(doc):
		errs.Add(doc.At(at), "%s: a battle begun under edition %d does not move its %s", what, DocEdition(doc), pieces)
	case !battleMoves:
		errs.Add(doc.At(at), "%s: a battle begun before edition %d does not move its %s", what, EditionMoves, pieces)
	default:
		return false
	}
	return true
}

// RefuseDeploy is RefuseNoMoves for a deployment, which a battle that moves refuses too
// when it has no deployment (NoDeployment).
func (t *Tabletop) RefuseDeploy(errs *scenario.ErrorList, doc *scenario.Doc, at any, pieces string, battleMoves bool) bool {
	if RefuseNoMoves(errs, doc, at, DeployAction, pieces, battleMoves) {
		return true
	}
	if why := t.NoDeployment(); why != "" {
		errs.Add(doc.At(at), "deploy: %s", why)
		return true
	}
	return false
}

// MoveAction is the type of a move action, and DeployAction of the action that places a
// unit before the battle's first action.
const (
	MoveAction   = "move"
	DeployAction = "deploy"
)

// Tabletop is what a table system knows of its table beyond its terrain: where the table
// ends (no base may leave it) and each side's deployment zone, and whether units may
// still be deployed, and by whom (deploy.go).
type Tabletop struct {
	// Edged is false for a table without edges (the scenario gives no `table:`).
	Edged  bool
	Lo, Hi geom.Vec
	// Zones are the sides' deployment zones; a side without one deploys anywhere on the
	// table.
	Zones map[string]geom.Polygon
	// Deploying is true while units may be deployed: before EditionDeployTurns until the
	// battle's first action other than a deployment; from it, in a battle that deploys,
	// until every side's deployment has ended.
	Deploying bool
	// Deployment is the deployment in turns of a battle that deploys, from
	// EditionDeployTurns (set by PlanDeployment); nil before.
	Deployment *Deployment
	plan       deployPlan
}

// LoadTable reads a scenario's `table:`, `deployment:` and `deployment_order:` (in its
// Header) for the sides of its units, in inches (perInch converts the document's unit).
// Errors are added to errs. From EditionDeployTurns the rule system then plans the
// deployment's turns (PlanDeployment).
func LoadTable(doc *scenario.Doc, h *scenario.Header, sides []string, errs *scenario.ErrorList) Tabletop {
	t := Tabletop{Deploying: true, Zones: map[string]geom.Polygon{}}
	t.loadDeployment(doc, h, errs)
	if h.Table != nil {
		w, ht := h.Table.Width.Inches(), h.Table.Height.Inches()
		if !(w > 0) || !(ht > 0) {
			errs.Add(doc.At(h.Table), "table: width and height must be above 0")
		}
		t.Edged = true
		t.Lo = geom.V(h.Table.Corner.X, h.Table.Corner.Y)
		t.Hi = t.Lo.Add(geom.V(w, ht))
	}
	for _, side := range slices.Sorted(maps.Keys(h.Deployment)) {
		pts := h.Deployment[side]
		if !slices.Contains(sides, side) {
			errs.Add(doc.KeyPos(&h.Deployment, side), "deployment: no unit is on side %q%s", side, scenario.Hint(side, sides))
			continue
		}
		poly := make(geom.Polygon, len(pts))
		for i, p := range pts {
			poly[i] = geom.V(p.X, p.Y)
		}
		if err := poly.Validate(); err != nil {
			errs.Add(doc.KeyPos(&h.Deployment, side), "deployment: %s's zone: %v", side, err)
			continue
		}
		t.Zones[side] = poly
	}
	// A side without a zone deploys anywhere on the table (Zones), which a scenario may
	// mean; but a side whose name is a letter or two from that of a side of the units that
	// has a zone is that side misspelt on a unit, which would otherwise become a side of
	// its own, unseen until it plays. Said where the name is first written, with the way
	// out for a side meant. Sides of one series ("Red 1" and "Red 2", "US" and "UK") are
	// not taken for misspellings of each other.
	for _, side := range sides {
		if _, ok := h.Deployment[side]; ok {
			continue
		}
		var like []string
		for _, z := range sides {
			if _, ok := h.Deployment[z]; ok && !sideSeries(side, z) {
				like = append(like, z)
			}
		}
		if hint := scenario.Hint(side, like); hint != "" {
			errs.Add(doc.ValuePos(side), "side %q has no deployment zone%s; give it one (deployment:) if it is a side of its own", side, hint)
		}
	}
	return t
}

// sideSeries reports whether two side names are of one series rather than one of them
// misspelt: they differ only in digits ("Red 1" and "Red 2", "Player1" and "Player2") or
// in words of one or two letters ("Side A" and "Side B", "US" and "UK").
func sideSeries(a, b string) bool {
	noDigits := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsDigit(r) {
				return -1
			}
			return r
		}, s)
	}
	if noDigits(a) == noDigits(b) {
		return true
	}
	wa, wb := strings.Fields(a), strings.Fields(b)
	if len(wa) != len(wb) {
		return false
	}
	for i := range wa {
		if wa[i] != wb[i] && (utf8.RuneCountInString(wa[i]) > 2 || utf8.RuneCountInString(wb[i]) > 2) {
			return false
		}
	}
	return true
}

// OnTable says why a base of radius r centred on c is off the table, or "" when it is on
// it (or the table has no edges).
func (t *Tabletop) OnTable(c geom.Vec, r float64) string {
	if t.Edged && !geom.Inside(c, r, t.Lo, t.Hi) {
		return fmt.Sprintf("its base would leave the table (%g × %g from %g, %g)", t.Hi.X-t.Lo.X, t.Hi.Y-t.Lo.Y, t.Lo.X, t.Lo.Y)
	}
	return ""
}

// Within is where the centre of a base of radius r may stand on the table: the corners
// of the table drawn in by r.
func (t *Tabletop) Within(r float64) (lo, hi geom.Vec) {
	return t.Lo.Add(geom.V(r, r)), t.Hi.Sub(geom.V(r, r))
}

// ReachArea is the square a base of radius r centred on c may reach with left of its
// move, [x0, y0, x1, y1] (the farthest it could go every way), kept to where the base
// stays on the table when the table has edges (Within).
func (t *Tabletop) ReachArea(c geom.Vec, left, r float64) [4]float64 {
	area := [4]float64{c.X - left, c.Y - left, c.X + left, c.Y + left}
	if t.Edged {
		lo, hi := t.Within(r)
		area = [4]float64{max(area[0], lo.X), max(area[1], lo.Y), min(area[2], hi.X), min(area[3], hi.Y)}
	}
	return area
}

// PathBlocked says why a base of radius r moved along path may not go, leg by leg: what
// inWay says stands in the way of leg i (the system's rules: "would pass over b1"), or
// else the table's edge where the leg ends; "" when it may go. Each reason names its leg
// from 1 ("leg 2 would pass over b1", "leg 3: its base would leave the table (…)").
func (t *Tabletop) PathBlocked(path geom.Path, r float64, inWay func(i int, leg geom.Segment) string) string {
	for i := range len(path) - 1 {
		leg := path.Leg(i)
		if why := inWay(i, leg); why != "" {
			return fmt.Sprintf("leg %d %s", i+1, why)
		}
		if why := t.OnTable(leg.B, r); why != "" {
			return fmt.Sprintf("leg %d: %s", i+1, why)
		}
	}
	return ""
}

// DeployBlocked says why a base of radius r deployed by side centred on c may not stand
// there as the table has it: outside the side's deployment zone, or off the table; "" when
// it may (what else stands in the way is the system's).
func (t *Tabletop) DeployBlocked(side string, c geom.Vec, r float64) string {
	if why := t.InZone(side, c, r); why != "" {
		return why
	}
	return t.OnTable(c, r)
}

// CheckStart adds to errs, at pos, the error of a piece (id) that begins the battle with
// its base of radius r, centred on c, off an edged table: no move could put it there, and
// none could bring it back.
func (t *Tabletop) CheckStart(errs *scenario.ErrorList, pos scenario.Pos, id string, c geom.Vec, r float64) {
	if why := t.OnTable(c, r); why != "" {
		errs.Add(pos, "%s: at: %s", id, strings.Replace(why, "would leave", "lies off", 1))
	}
}

// InZone says why a base of radius r centred on c is outside side's deployment zone, or
// "" when it is inside it (or the side has none).
func (t *Tabletop) InZone(side string, c geom.Vec, r float64) string {
	z, ok := t.Zones[side]
	if !ok || geom.CircleInPolygon(c, r, z) {
		return ""
	}
	return fmt.Sprintf("its base would lie outside %s's deployment zone", side)
}

// View fills a table view's edge and zones, in the view's unit (v.Unit, set before: the
// table is kept in inches, and a table in cm is drawn in cm).
func (t *Tabletop) View(v *TableView) {
	k := scenario.Inches(1).In(scenario.Unit(v.Unit))
	in := func(x float64) float64 { return math.Round(x*k*1e6) / 1e6 }
	if t.Edged {
		v.Edge = &[4]float64{in(t.Lo.X), in(t.Lo.Y), in(t.Hi.X), in(t.Hi.Y)}
	}
	for side, z := range t.Zones {
		if v.Zones == nil {
			v.Zones = map[string][][2]float64{}
		}
		pts := make([][2]float64, len(z))
		for i, p := range z {
			pts[i] = [2]float64{in(p.X), in(p.Y)}
		}
		v.Zones[side] = pts
	}
	v.Deploying = t.Deploying
}

// MoveView is how a unit may move now, for a page that drags it: in the view's unit
// (squares on a grid map).
type MoveView struct {
	// Allowance is the whole move the unit has this turn or activation, Moved what it
	// has moved of it, Left what it may still move (0 when it may not).
	Allowance float64 `json:"allowance"`
	Moved     float64 `json:"moved"`
	Left      float64 `json:"left"`
	// Why says why the unit may not move now, "" when it may.
	Why string `json:"why,omitempty"`
}

// MoveView is how a piece may move now, for the page: its allowance, what it has moved
// of it and what it may still move, in the view's unit, and why it may not move ("" when
// it may). While the sides deploy in turns no piece moves, and the view says so.
func (t *Tabletop) MoveView(allowance, moved, left float64, why string) *MoveView {
	if err := t.CheckBegun(); err != nil && why == "" {
		left, why = 0, ErrorMessage(err)
	}
	return &MoveView{Allowance: allowance, Moved: moved, Left: left, Why: why}
}

// MoveForm describes a system's move action, so that a page builds it without knowing
// the rules: {type: "move", unit: <id>, path: [[x, y], …], facing: <degrees>} plus the
// Fields chosen, and while units deploy {type: "deploy", unit: <id>, at: [x, y], facing}.
type MoveForm struct {
	// Facing says whether a move, or a deployment, may set the unit's facing at its end;
	// FacingStep is the step of the facings allowed (45 on a grid, 0 for any).
	Facing     bool    `json:"facing"`
	FacingStep float64 `json:"facing_step,omitempty"`
	// Fields are chosen with the move (WarStrike's action, Republique's formation).
	Fields []FieldView `json:"fields,omitempty"`
	// Grid says that a path is of squares [column, row], one step at a time.
	Grid bool `json:"grid,omitempty"`
	// SquadPosition says that a squad's name may be given to the position map, which then
	// moves the squad as a formation (Dropzone), its moves one action a unit.
	SquadPosition bool `json:"squad_position,omitempty"`
}

// Forker is implemented by battles that can be copied, so that a "what if" (a move not
// yet made, then a shot from where it ends) is worked out on the copy: Fork returns a
// battle that shares nothing Resolve changes with the original.
type Forker interface {
	Fork() Battle
}

// Placer is implemented by battles that can say where each unit stands, in the
// scenario's own terms, so that a battle deployed or moved can be written back as a
// scenario (scenario.Doc.Place): the page's way to build one, and a player's to copy a
// real table into volley.
type Placer interface {
	Placements() []Placement
}

// Placement is what a scenario's entry for one unit (or model) should say now: the
// entry written with `id: ID`, its keys in Set given these values (in the scenario's own
// form: [x, y], degrees, a facing's name), its keys in Drop removed.
type Placement = scenario.Placement

// Moving is implemented by move actions: the unit (or squad) a move moves, so that a
// preview knows where to look after it.
type Moving interface {
	Action
	MovedUnit() string
}
