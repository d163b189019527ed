package dropzone

import (
	"math"
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/los"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// Name is the value of `ruleset:` that selects this system.
const Name = "dropzone"

func init() { rules.Register(Ruleset{}) }

// Ruleset is the Dropzone-style weapon-profile system.
type Ruleset struct{}

// What the engine may ask of the system: what it asks of every battle (rules.Battle), and
// the interfaces its Ruleset, Battle or actions answer beyond it, where a reader looks first.
var (
	_ volley.Describer = Ruleset{}
	_ rules.Battle     = (*Battle)(nil)
	_ volley.Table     = (*Battle)(nil)
	_ advise.Coster    = (*Battle)(nil)
)

// Name returns "dropzone".
func (Ruleset) Name() string { return Name }

// Load decodes a Dropzone scenario and the action of its `action:` section, if any.
func (Ruleset) Load(doc *scenario.Doc) (volley.Battle, volley.Action, error) {
	var f file
	return rules.Load(doc, &f, load, (*Battle).decodeAction)
}

// costWhy says what an action's cost counts, for the error that refuses it.
const costWhy = "line of sight: each firer, eye point and target × (terrain corners + convex pieces³ between them), or × silhouette rays × terrain edges before edition 4; odds: shots × damage"

// Battle is a Dropzone battle: the table, the units and the damage they have taken.
type Battle struct {
	unit    scenario.Unit
	options Options
	types   map[string]*UnitType
	units   []Unit
	byID    map[string]int
	terrain []Terrain
	// exact says sight is measured exactly (edition 4, volley.Edition); terrainOcc is
	// then the terrain that blocks line of sight made ready for it, in order.
	exact      bool
	terrainOcc []los.Occluder
	// bounded says the battle's actions are held to the bounds of BoundsEdition.
	bounded bool
	// needs says each die's purpose names the roll it needs (NeedsEdition).
	needs bool
	// turns is whose turn it is and which squads have shot in it (volley's order of
	// play: the seed gives none).
	turns volley.Turns
	// broken holds the ids of units written in the scenario that failed to load, their
	// errors reported where they are written: a reference to one says nothing more.
	broken map[string]bool
	// moves is true from volley.EditionMoves: units move, and the facts of movement are
	// measured. act is the activation under way, table the table's edge and deployment.
	moves bool
	act   activation
	table volley.Tabletop
}

// Unit is one model on the table.
type Unit struct {
	ID        string
	Type      *UnitType
	Side      string
	Squad     string
	At        geom.Vec // base centre, inches
	Facing    float64  // compass degrees
	Elevation float64  // height of the base above the table, inches
	// DamagePoints left. At zero the unit is destroyed.
	DamagePoints int
	// Garrison is the id of the terrain piece (a building) the unit is inside, or "".
	Garrison string
	// Embarked is the id of the transport carrying the unit, or "": a carried unit is
	// not on the table (it stands where its transport does) until it moves off it.
	Embarked string
}

// Destroyed reports whether the unit has no damage points left.
func (u *Unit) Destroyed() bool { return u.DamagePoints <= 0 }

// Circle is the unit's base on the table.
func (u *Unit) Circle() geom.Circle { return geom.Circle{C: u.At, R: u.Type.Base.Inches() / 2} }

// Terrain is a piece of terrain: a footprint with a height.
type Terrain struct {
	ID        string
	Footprint geom.Polygon
	Height    float64 // inches
	BlocksLOS bool
}

func (b *Battle) terrainIndex(id string) int {
	for i, t := range b.terrain {
		if t.ID == id {
			return i
		}
	}
	return -1
}

// Unit returns the unit with the given id.
func (b *Battle) Unit(id string) (*Unit, bool) { return rules.Unit(b.units, b.byID, id) }

// State lists every unit with its damage points, and whose turn it is.
func (b *Battle) State() volley.State {
	s := volley.State{Turn: rules.TurnState(b.turns.View(), &b.table), Units: make([]volley.UnitState, len(b.units))}
	for i := range b.units {
		u := &b.units[i]
		s.Units[i] = volley.UnitState{
			ID:   u.ID,
			Name: u.Type.Name,
			Side: u.Side,
			Values: map[string]float64{
				"damage_points":     float64(u.DamagePoints),
				"max_damage_points": float64(u.Type.DamagePoints),
				"armour":            float64(u.Type.Armour),
			},
			Destroyed: u.Destroyed(),
		}
		if b.moves && u.Type.Move > 0 {
			// What the unit has moved this activation, and its move (Check Movement).
			s.Units[i].Values["move"] = roundLength(u.Type.Move.Inches(), b.unit)
			moved := 0.0
			if b.act.squad == u.Squad {
				moved = b.act.moved[u.ID]
			}
			s.Units[i].Values["moved"] = roundLength(moved, b.unit)
		}
		if u.Embarked != "" {
			s.Units[i].Values["embarked"] = 1
		}
	}
	return s
}

// Shooting is a squad's shooting action: every unit of the squad declares a target for
// each weapon it fires before any die is rolled.
type Shooting struct {
	Squad string
	// OutOfCoherency and Disembarked are facts about the squad's activation that the
	// player states; the seed gives no rule to compute them.
	OutOfCoherency bool
	Disembarked    bool
	// Moved is how far each unit moved this activation, in inches.
	Moved        map[string]float64
	Declarations []Declaration
	// stated records which facts of movement the action states itself (the command
	// line's "what if"), which win over the measured ones.
	stated struct {
		moved                  map[string]bool
		coherency, disembarked bool
	}
	// at is where the action was written: its start and each declaration, parallel to
	// Declarations, where a refusal is reported (see Refusals). Zero for an action built
	// in code.
	at struct {
		root  scenario.Pos
		decls []scenario.Pos
	}
}

// Kind returns "shoot".
func (*Shooting) Kind() string { return "shoot" }

// TurnEnd is the action that ends the current side's turn.
type TurnEnd = rules.TurnEnd

// Declaration is one weapon of one unit aimed at one target. A weapon with several shots
// puts them all on this target.
type Declaration struct {
	Shooter string
	Weapon  string
	Target  string
}

// actionSpec is a shooting action as written.
type actionSpec struct {
	Type           string                     `yaml:"type"`
	Squad          string                     `yaml:"squad"`
	OutOfCoherency bool                       `yaml:"out_of_coherency"`
	Disembarked    bool                       `yaml:"disembarked"`
	Moved          map[string]scenario.Length `yaml:"moved"`
	Declarations   []declarationSpec          `yaml:"declarations,required"`
}

type declarationSpec struct {
	Unit   string `yaml:"unit,required"`
	Weapon string `yaml:"weapon,required"`
	Target string `yaml:"target,required"`
}

// DecodeAction decodes a shooting action, or the end of a turn, in the form of a
// scenario's `action:` section.
func (b *Battle) DecodeAction(doc *scenario.Doc) (volley.Action, error) {
	return rules.DecodeAction(Name, doc, b.decodeAction)
}

// decodeAction decodes an action: its type decides its form.
func (b *Battle) decodeAction(doc *scenario.Doc) (volley.Action, error) {
	if a, ok, err := rules.DecodeTurnAction(doc, &b.turns, &b.table, b.decodeMove, b.decodeDeploy); ok {
		return a, err
	}
	a, err := volley.ReadAction(doc, func(s *actionSpec, errs *scenario.ErrorList) *Shooting { return b.checkAction(doc, s, errs) })
	if err != nil {
		return nil, err
	}
	if err := volley.CheckCost(doc, b, a, costWhy); err != nil {
		return nil, err
	}
	return a, nil
}

// checkAction resolves the names in an action against the battle. Whether each shot is
// possible is Aim's business, not the decoder's: an impossible shot is still a valid
// question to ask.
func (b *Battle) checkAction(doc *scenario.Doc, s *actionSpec, errs *scenario.ErrorList) *Shooting {
	if s.Type != "" && s.Type != "shoot" {
		errs.Add(doc.At(&s.Type), "action type %q is not one of this system's: shoot, move, deploy, end_turn", s.Type)
	}
	a := &Shooting{
		Squad:          s.Squad,
		OutOfCoherency: s.OutOfCoherency,
		Disembarked:    s.Disembarked,
		Moved:          map[string]float64{},
	}
	a.at.root = doc.Root()
	a.stated.moved = map[string]bool{}
	a.stated.coherency = doc.Pos(&s.OutOfCoherency).IsValid()
	a.stated.disembarked = doc.Pos(&s.Disembarked).IsValid()
	if doc.Refereed && volley.Moves(doc) {
		// The server measures these from the moves in the log (Check Movement).
		if s.Moved != nil {
			volley.RefuseStated(errs, doc, &s.Moved, "moved", "how far each unit moved this activation")
		}
		if a.stated.coherency {
			volley.RefuseStated(errs, doc, &s.OutOfCoherency, "out_of_coherency", "whether the squad is out of coherency")
		}
		if a.stated.disembarked {
			volley.RefuseStated(errs, doc, &s.Disembarked, "disembarked", "whether the squad disembarked this activation")
		}
	}
	totalShots := 0
	seen := map[[2]string]bool{}
	for i := range s.Declarations {
		d := &s.Declarations[i]
		u, ok := b.Unit(d.Unit)
		if !ok {
			if d.Unit != "" && !b.broken[d.Unit] {
				errs.Add(doc.At(&d.Unit), "unknown unit %q%s", d.Unit, scenario.Hint(d.Unit, b.unitIDs()))
			}
			continue
		}
		if a.Squad == "" {
			a.Squad = u.Squad
		}
		if u.Squad != a.Squad {
			errs.Add(doc.At(&d.Unit), "unit %q is in squad %q, not %q: a shooting action is one squad's", u.ID, u.Squad, a.Squad)
		}
		if w := u.Type.weapon(d.Weapon); w == nil {
			if d.Weapon != "" {
				errs.Add(doc.At(&d.Weapon), "unit %q (%s) has no weapon %q%s", u.ID, u.Type.Name, d.Weapon, scenario.Hint(d.Weapon, u.Type.weaponNames()))
			}
		} else if totalShots += w.Shots.Max(); totalShots > MaxShotsPerAction {
			errs.Add(doc.At(&d.Weapon), "the action declares more than %d shots in all; volley refuses it rather than compute for minutes", MaxShotsPerAction)
			totalShots = math.MinInt / 2 // report once
		}
		key := [2]string{d.Unit, d.Weapon}
		if seen[key] {
			errs.Add(doc.At(&d.Weapon), "unit %q already declared a target for %q: a weapon fires at one target", d.Unit, d.Weapon)
		}
		seen[key] = true
		if _, ok := b.Unit(d.Target); !ok {
			if d.Target != "" && !b.broken[d.Target] {
				errs.Add(doc.At(&d.Target), "unknown target %q%s", d.Target, scenario.Hint(d.Target, b.unitIDs()))
			}
			continue
		}
		if u.Type.weapon(d.Weapon) == nil {
			continue
		}
		a.Declarations = append(a.Declarations, Declaration{Shooter: d.Unit, Weapon: d.Weapon, Target: d.Target})
		a.at.decls = append(a.at.decls, doc.At(d))
	}
	for id, dist := range s.Moved {
		u, ok := b.Unit(id)
		switch {
		case !ok && b.broken[id]:
		case !ok:
			errs.Add(doc.KeyPos(&s.Moved, id), "moved: unknown unit %q", id)
		case a.Squad != "" && u.Squad != a.Squad:
			errs.Add(doc.KeyPos(&s.Moved, id), "moved: unit %q is not in squad %q", id, a.Squad)
		default:
			a.Moved[id] = dist.Inches()
			a.stated.moved[id] = true
		}
	}
	if a.Squad != "" && s.Squad != "" && !b.hasSquad(s.Squad) {
		errs.Add(doc.At(&s.Squad), "unknown squad %q", s.Squad)
	}
	return a
}

func (b *Battle) hasSquad(name string) bool {
	for i := range b.units {
		if b.units[i].Squad == name {
			return true
		}
	}
	return false
}

// squadNames are the battle's squads, in the order the scenario first names them.
func (b *Battle) squadNames() []string { return b.distinct(func(u *Unit) string { return u.Squad }) }

// distinct is what of gives for the battle's units, each once, in the order the units
// first give it.
func (b *Battle) distinct(of func(*Unit) string) []string { return volley.Distinct(b.units, of) }

func (b *Battle) unitIDs() []string { return rules.IDs(b.units, func(u *Unit) string { return u.ID }) }

func (t *UnitType) weapon(name string) *Weapon {
	for i := range t.Weapons {
		if t.Weapons[i].Name == name {
			return &t.Weapons[i]
		}
	}
	return nil
}

func (t *UnitType) weaponNames() []string {
	return rules.IDs(t.Weapons, func(w *Weapon) string { return w.Name })
}

// Actor is the side of the squad that shoots; ending a turn is the side whose turn it is,
// ending a deployment the side deploying.
func (b *Battle) Actor(a volley.Action) string {
	if side, ok := rules.UnitActor(&b.turns, &b.table, a, func(id string) string {
		if u, ok := b.Unit(id); ok {
			return u.Side
		}
		return ""
	}); ok {
		return side
	}
	s := mustShooting(a)
	for _, d := range s.Declarations {
		if u, ok := b.Unit(d.Shooter); ok {
			return u.Side
		}
	}
	for i := range b.units {
		if b.units[i].Squad == s.Squad {
			return b.units[i].Side
		}
	}
	return ""
}

// Table is the table as it stands, for drawing: bases, facings, arcs and the two range
// bands of every weapon (countered first, then full), in the scenario's own unit.
func (b *Battle) Table() volley.TableView {
	u := b.unit.OrInch()
	in := func(x float64) float64 { return scenario.Inches(x).In(u) }
	v := volley.TableView{Unit: string(u), Measured: "edge", Terrain: []volley.TablePiece{}}
	for _, t := range b.terrain {
		p := volley.TablePiece{ID: t.ID, Height: in(t.Height), BlocksLOS: t.BlocksLOS}
		for _, q := range t.Footprint {
			p.Polygon = append(p.Polygon, [2]float64{in(q.X), in(q.Y)})
		}
		v.Terrain = append(v.Terrain, p)
	}
	for i := range b.units {
		m := &b.units[i]
		facing := m.Facing
		tu := volley.TableUnit{
			ID: m.ID, Name: m.Type.Name, Side: m.Side, Squad: m.Squad, Placed: m.Embarked == "",
			X: in(m.At.X), Y: in(m.At.Y), Base: m.Type.Base.In(u), Facing: &facing,
			Weapons: []volley.WeaponView{}, Destroyed: m.Destroyed(), Move: b.moveView(m, in),
		}
		for _, w := range m.Type.Weapons {
			wv := volley.WeaponView{Name: w.Name, Arcs: quadrantSpans(w.Arc.Arc)}
			for _, r := range []struct {
				name string
				r    Range
			}{{"countered", w.CounteredRange}, {"full", w.FullRange}} {
				switch r.r.Kind {
				case RangeFinite:
					wv.Ranges = append(wv.Ranges, volley.RangeView{Name: r.name, Reach: r.r.Length.In(u)})
				case RangeInfinite:
					wv.Ranges = append(wv.Ranges, volley.RangeView{Name: r.name, Unlimited: true})
				}
			}
			tu.Weapons = append(tu.Weapons, wv)
		}
		v.Units = append(v.Units, tu)
	}
	// The page builds a squad's shooting from this: a row per weapon of the squad's units,
	// each with its own target, and the squad's movement and flags.
	v.Declare = volley.DeclareView{Title: "Shooting declaration", FirerLabel: "Squad", Prompt: "— choose a squad —", Verb: "Shoot",
		Rows: "weapons", RowsKey: "declarations", TargetKey: "target",
		Help:    "Pick a weapon, then click an enemy (or choose it in the list). Point at an enemy to see the line of sight.",
		Choices: []volley.ChoiceView{}}
	if b.moves {
		// Movement is measured from the moves: the page drags units, and states nothing.
		v.Moves = &volley.MoveForm{Facing: true, SquadPosition: true}
		b.table.View(&v)
		v.Declare.Help = "Drag a unit to move it; pick a weapon, then click an enemy (or choose it in the list). Point at an enemy to see the line of sight."
	} else {
		v.Declare.Fields = []volley.FieldView{
			{Key: "moved", Label: "Moved this activation (" + string(u) + ")", Kind: "unit_numbers"},
			{Key: "out_of_coherency", Label: "out of coherency", Kind: "flag"},
			{Key: "disembarked", Label: "disembarked this activation", Kind: "flag"},
		}
	}
	// A squad may shoot while one of its units standing has a weapon; every unit of it
	// still standing acts with it, since its movement counts even without a weapon.
	for _, tu := range v.Units {
		if tu.Destroyed || len(tu.Weapons) == 0 || slices.ContainsFunc(v.Declare.Choices, func(c volley.ChoiceView) bool { return c.Action["squad"] == tu.Squad }) {
			continue
		}
		c := volley.ChoiceView{Label: tu.Squad + " (" + tu.Side + ")", Side: tu.Side, Action: map[string]any{"squad": tu.Squad}}
		for _, m := range v.Units {
			if m.Squad == tu.Squad && !m.Destroyed {
				c.Units = append(c.Units, m.ID)
			}
		}
		v.Declare.Choices = append(v.Declare.Choices, c)
	}
	v.Columns = []volley.ColumnView{
		{Label: "damage points", Key: "damage_points", Of: "max_damage_points"},
		{Label: "armour", Key: "armour"},
	}
	v.FitBounds()
	return v
}

// quadrantSpans turns an arc of quadrants into sectors relative to the facing, each
// quadrant 90° wide and centred on its own direction.
func quadrantSpans(a geom.Arc) [][2]float64 {
	var spans [][2]float64
	for _, q := range []struct {
		arc    geom.Arc
		centre float64
	}{{geom.ArcFront, 0}, {geom.ArcRight, 90}, {geom.ArcRear, 180}, {geom.ArcLeft, -90}} {
		if a&q.arc != 0 {
			spans = append(spans, [2]float64{q.centre - 45, q.centre + 45})
		}
	}
	return spans
}
