package volley

import (
	"fmt"
	"math"
	"slices"

	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// The move and the deployment of a unit on an open table, as every system whose units
// stand on round bases writes them: {type: move, unit, path: [[x, y], …]} and {type:
// deploy, unit, at: [x, y]}. What a move may do is the system's (its allowance, what
// blocks it); reading it is not.

// UnitAction is an action one unit takes: the unit whose side it belongs to.
type UnitAction interface {
	Action
	ActingUnit() string
}

// MaxCoordinate bounds a point of a move or a deployment, in inches: a bound that keeps a
// typo from overflowing, not a rule.
const MaxCoordinate = 10_000

// PathMove is a unit's move along a path of straight legs from where it stands.
type PathMove struct {
	Unit string
	// Points are the points it moves through, ending where it stops, in inches.
	Points []geom.Vec
	// At is where the move is written, for a check's refusal; zero for a move built in code.
	At scenario.Pos
}

// Kind returns "move".
func (*PathMove) Kind() string { return MoveAction }

// MovedUnit is the unit the move moves (Moving).
func (m *PathMove) MovedUnit() string { return m.Unit }

// ActingUnit is the unit that moves.
func (m *PathMove) ActingUnit() string { return m.Unit }

// Path is the move's path from where its unit stands.
func (m *PathMove) Path(from geom.Vec) geom.Path { return append(geom.Path{from}, m.Points...) }

// Placing places a unit at a point before the battle begins.
type Placing struct {
	Unit string
	At   geom.Vec
}

// Kind returns "deploy".
func (*Placing) Kind() string { return DeployAction }

// ActingUnit is the unit placed.
func (d *Placing) ActingUnit() string { return d.Unit }

type pathMoveSpec struct {
	Type string           `yaml:"type"`
	Unit string           `yaml:"unit,required"`
	Path []scenario.Point `yaml:"path,required"`
}

type placingSpec struct {
	Type string         `yaml:"type"`
	Unit string         `yaml:"unit,required"`
	At   scenario.Point `yaml:"at,required"`
}

// DecodePathMove reads a move of one of the units ids (another is refused, with a hint),
// in a battle that moves (battleMoves, as RefuseNoMoves) measured in unit: sent on its
// own, a move is written in the battle's unit.
func DecodePathMove(doc *scenario.Doc, unit scenario.Unit, ids []string, battleMoves bool) (*PathMove, error) {
	doc = doc.WithUnit(unit)
	return ReadAction(doc, func(s *pathMoveSpec, errs *scenario.ErrorList) *PathMove {
		if RefuseNoMoves(errs, doc, &s.Type, MoveAction, "units", battleMoves) || !KnownUnit(errs, doc, &s.Unit, "move: unknown unit", ids) || RefusePath(errs, doc, &s.Path) {
			return nil
		}
		m := &PathMove{Unit: s.Unit, At: doc.Root()}
		for i := range s.Path {
			if p, ok := ReadPoint(errs, doc, &s.Path[i], "move: path"); ok {
				m.Points = append(m.Points, p)
			}
		}
		return m
	})
}

// DecodePlacing reads a deployment of one of the units ids, as DecodePathMove reads a
// move; a battle without a deployment refuses it (RefuseDeploy).
func (t *Tabletop) DecodePlacing(doc *scenario.Doc, unit scenario.Unit, ids []string, battleMoves bool) (*Placing, error) {
	doc = doc.WithUnit(unit)
	return ReadAction(doc, func(s *placingSpec, errs *scenario.ErrorList) *Placing {
		if t.RefuseDeploy(errs, doc, &s.Type, "units", battleMoves) || !KnownUnit(errs, doc, &s.Unit, "deploy: unknown unit", ids) {
			return nil
		}
		if p, ok := ReadPoint(errs, doc, &s.At, "deploy: at"); ok {
			return &Placing{Unit: s.Unit, At: p}
		}
		return nil
	})
}

// KnownUnit reports whether the unit an action names (id) is one of ids, refusing it
// when not (RefuseUnknown; what: "move: unknown unit").
func KnownUnit(errs *scenario.ErrorList, doc *scenario.Doc, id *string, what string, ids []string) bool {
	if slices.Contains(ids, *id) {
		return true
	}
	RefuseUnknown(errs, doc, id, what, func() []string { return ids })
	return false
}

// ReadPoint is p as a point in inches, refused (what: "move: path") beyond MaxCoordinate.
func ReadPoint(errs *scenario.ErrorList, doc *scenario.Doc, p *scenario.Point, what string) (geom.Vec, bool) {
	if !(math.Abs(p.X) <= MaxCoordinate && math.Abs(p.Y) <= MaxCoordinate) {
		errs.Add(doc.At(p), "%s: coordinates must lie within ±%d", what, MaxCoordinate)
		return geom.Vec{}, false
	}
	return geom.V(p.X, p.Y), true
}

// CheckStarts adds to errs the errors of the bases a battle's pieces begin on: off an
// edged table (CheckStart), or overlapping another (CheckOverlaps), unless the scenario
// was accepted before (scenario.Doc.Accepted: a stored battle replays as it began).
func (t *Tabletop) CheckStarts(errs *scenario.ErrorList, bases []StartingBase, accepted bool) {
	for _, b := range bases {
		t.CheckStart(errs, b.Pos, b.What, b.Base.C, b.Base.R)
	}
	if !accepted {
		CheckOverlaps(errs, bases)
	}
}

// PointDeployOffers are the deployments the sides may make now (DeployOffers; for
// Tabletop.OpenOffers) of pieces (each its side and id, in the battle's order), each
// placed at a point of its side's zone (ZoneField) in unit. Warfare's units deploy so.
func (t *Tabletop) PointDeployOffers(o *Offers, pieces [][2]string, unit scenario.Unit) []Offer {
	var ds []Deployer
	for _, p := range pieces {
		if t.CheckDeploy(p[0], []string{p[1]}, "units") == nil {
			ds = append(ds, Deployer{Side: p[0], Actor: Actor{ID: p[1], Action: map[string]any{"unit": p[1]}}})
		}
	}
	return t.DeployOffers(o, ds, func(side string) []Field { return []Field{t.ZoneField(side, unit)} })
}

// Place resolves the deployment d of a piece of side on a round base of radius r: refused,
// with the rule system's prefix (system), when the deployment does not take it now
// (CheckDeploy), outside the side's zone or off the table (DeployBlocked), or where inWay
// (the system's rules) says another piece stands; else place puts the piece there, and
// the outcome says so (DeployOutcome).
func (t *Tabletop) Place(system, side string, d *Placing, r float64, inWay func() string, place func()) (Outcome, error) {
	blocked := func() string {
		if why := t.DeployBlocked(side, d.At, r); why != "" {
			return why
		}
		return inWay()
	}
	return t.Deploy(system, side, d.Unit, blocked, func() map[string]any {
		place()
		return map[string]any{"at": []float64{d.At.X, d.At.Y}}
	})
}

// Deploy resolves the deployment of unit id of side, for the rule system named system (its
// errors' prefix): refused when the deployment does not take the unit now (CheckDeploy),
// or where blocked (the system's rules) says why it may not stand where it would go;
// else place puts it there and gives the step's inputs beside the unit (where it stands
// now, as the trace writes it), and the outcome says so (DeployOutcome). Nothing is
// changed before place.
func (t *Tabletop) Deploy(system, side, id string, blocked func() string, place func() map[string]any) (Outcome, error) {
	if err := t.CheckDeploy(side, []string{id}, "units"); err != nil {
		return Outcome{}, fmt.Errorf("%s: %w", system, err)
	}
	if why := blocked(); why != "" {
		return Outcome{}, Errorf(EINVALID, "%s: %s cannot be deployed there: %s", system, id, why)
	}
	in := place()
	in["unit"] = id
	return t.DeployOutcome(Step{Rule: "deploy", Inputs: in, Result: id + " placed"}, []string{id}, id), nil
}
