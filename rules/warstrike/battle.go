package warstrike

import (
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/los"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// Name is the value of `ruleset:` that selects this system.
const Name = "warstrike"

func init() { rules.Register(Ruleset{}) }

// Ruleset is the WarStrike shooting sequence with true line of sight.
type Ruleset struct{}

// What the engine may ask of the system: what it asks of every battle (rules.Battle), and
// the interfaces its Ruleset, Battle or actions answer beyond it, where a reader looks first.
var (
	_ volley.Describer = Ruleset{}
	_ rules.Battle     = (*Battle)(nil)
	_ volley.Table     = (*Battle)(nil)
	_ volley.Moving    = (*Move)(nil)
	_ advise.Coster    = (*Battle)(nil)
)

// Name returns "warstrike".
func (Ruleset) Name() string { return Name }

// Load decodes a WarStrike scenario and the shooting of its `action:` section, if any.
func (Ruleset) Load(doc *scenario.Doc) (volley.Battle, volley.Action, error) {
	var f file
	return rules.Load(doc, &f, load, (*Battle).decodeAction)
}

// Battle is a WarStrike battle: the terrain, the units and their models.
type Battle struct {
	unit     scenario.Unit
	opts     options
	tables   *Tables
	noTables bool
	terrain  []Terrain
	units    []Unit
	byID     map[string]int
	// modelAt finds a model by id: its unit's index and its own in the unit.
	modelAt map[string][2]int
	// scene is the solid terrain as prisms, one per piece in terrain order (area
	// terrain's prism is its volume, tested apart from the solid ones).
	scene los.Scene
	solid []int // indexes into scene of the solid pieces
	area  []int // indexes into terrain of area terrain
	// exact says sight is measured exactly, with edition 4's readings (volley.Edition);
	// occ is then the scene's prisms made ready for it.
	exact bool
	occ   []los.Occluder
	turns volley.Turns
	// moves is true from volley.EditionMoves: models move, and the action a unit shoots
	// with is the one it chose with its move. act is the unit acting now, moved how far
	// each model has moved this turn, table the table's edge and deployment zones.
	moves bool
	// climbs is true from ClimbEdition: a model keeps the floor it stands on, climbs to
	// and from floors, and over walls lower than itself.
	climbs bool
	// hopeless is true from volley.EditionHopeless: a shot at a target no model of the
	// unit can hit is refused, not rolled for nothing.
	hopeless bool
	act      activation
	moved    map[string]float64
	table    volley.Tabletop
}

// Unit is a unit of models.
type Unit struct {
	ID, Name, Side string
	// Action is the action the unit chose this turn, "" while it has chosen none.
	Action Action
	// Suppression is the unit's markers; SuppressionAtStart those it had when its
	// player's action phase began.
	Suppression, SuppressionAtStart int
	Rules                           []string
	Specialist                      string
	SpecialistMayShoot              bool
	Armour, Toughness, Wounds       int
	CasualtyOrder                   []string
	Models                          []Model
	// Moves overrides the tables' move distances for this unit, by action, in inches.
	Moves map[Action]float64
}

// Model is one model: a round base, a body that may be seen, a weapon.
type Model struct {
	ID string
	At geom.Vec
	// Base is the base's diameter; Height the body's height (head, torso, legs and arms:
	// what may be seen); Elevation the height of the base above the table. Inches.
	Base, Height, Elevation float64
	// Weapon is the profile's name in the tables, "" for none.
	Weapon     string
	Leader     bool
	WoundsLost int
	// Dead models are off the table; Marked ones are dead but stay until the turn ends
	// (dead: mark).
	Dead, Marked bool
	// item is the model's place in its unit's models: list, and named says the scenario
	// gives its id (else it is the unit's id and item+1), for writing it back.
	item  int
	named bool
}

// Alive reports whether the model is on the table and not marked dead.
func (m *Model) Alive() bool { return !m.Dead && !m.Marked }

// circle is the model's base on the table.
func (m *Model) circle() geom.Circle { return geom.Circle{C: m.At, R: m.Base / 2} }

// has reports whether the unit has a special rule.
func (u *Unit) has(rule string) bool { return slices.Contains(u.Rules, rule) }

// Leader is the unit's living leader, or nil when it has lost it.
func (u *Unit) Leader() *Model {
	for i := range u.Models {
		if m := &u.Models[i]; m.Leader && m.Alive() {
			return m
		}
	}
	return nil
}

// Left is how many models are still alive.
func (u *Unit) Left() int {
	n := 0
	for i := range u.Models {
		if u.Models[i].Alive() {
			n++
		}
	}
	return n
}

// Destroyed reports whether no model is left.
func (u *Unit) Destroyed() bool { return u.Left() == 0 }

// Unit returns the unit with the given id.
func (b *Battle) Unit(id string) (*Unit, bool) { return rules.Unit(b.units, b.byID, id) }

// Model returns the model with the given id and its unit.
func (b *Battle) Model(id string) (*Model, *Unit, bool) {
	at, ok := b.modelAt[id]
	if !ok {
		return nil, nil, false
	}
	u := &b.units[at[0]]
	return &u.Models[at[1]], u, true
}

// actionIndex is the order of State's action value: 0 for none, then AllActions.
func actionIndex(a Action) int {
	return slices.Index(AllActions, a) + 1
}

// State lists every unit: its models, suppression markers, leader and chosen action.
func (b *Battle) State() volley.State {
	s := volley.State{Turn: rules.TurnState(b.turns.View(), &b.table), Units: make([]volley.UnitState, len(b.units))}
	for i := range b.units {
		u := &b.units[i]
		marked := 0
		for j := range u.Models {
			if u.Models[j].Marked {
				marked++
			}
		}
		leader := 0.0
		if u.Leader() != nil {
			leader = 1
		}
		s.Units[i] = volley.UnitState{
			ID: u.ID, Name: u.Name, Side: u.Side,
			Values: map[string]float64{
				"models": float64(len(u.Models)), "models_left": float64(u.Left()), "marked_dead": float64(marked),
				"suppression": float64(u.Suppression), "suppression_at_start": float64(u.SuppressionAtStart),
				"leader": leader, "action": float64(actionIndex(u.Action)),
			},
			Destroyed: u.Destroyed(),
		}
		if b.moves {
			// How far its models may move this turn (with the action it chose, or the
			// farthest any action allows) and the farthest one has moved.
			s.Units[i].Values["move"] = b.inUnit(b.mostAllowed(u))
			s.Units[i].Values["moved"] = b.inUnit(b.farthest(u))
		}
	}
	return s
}

// Actor is the side of the shooting, moving or deployed unit (or model); ending a turn is
// the side whose turn it is, ending a deployment the side deploying (rules.UnitActor).
func (b *Battle) Actor(a volley.Action) string {
	side, _ := rules.UnitActor(&b.turns, &b.table, a, func(id string) string {
		u, _ := b.Unit(id)
		if u == nil {
			_, u, _ = b.Model(id)
		}
		if u == nil {
			return ""
		}
		return u.Side
	})
	return side
}

// buildScene makes the prisms of the terrain: one per piece, in order.
func (b *Battle) buildScene() {
	b.scene = los.Scene{}
	b.solid, b.area = nil, nil
	for i := range b.terrain {
		t := &b.terrain[i]
		t.lo, t.hi = t.Poly.Bounds()
		b.scene.Prisms = append(b.scene.Prisms, los.Prism{Footprint: t.Poly, Bottom: t.Bottom, Top: t.Top()})
		if t.Kind == Area {
			b.area = append(b.area, i)
		} else {
			b.solid = append(b.solid, i)
		}
	}
	if b.exact {
		b.occ = b.scene.Occluders()
	}
}
