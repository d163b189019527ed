package warfare

import (
	"fmt"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// Name is the value of `ruleset:` that selects this system.
const Name = "warfare"

func init() { rules.Register(Ruleset{}) }

// Ruleset is Warfare missile fire, existing or alternate.
type Ruleset struct{}

// What the engine may ask of the system: what it asks of every battle (rules.Battle), and
// the interfaces its Ruleset, Battle or actions answer beyond it, where a reader looks first.
var (
	_ volley.Describer = Ruleset{}
	_ rules.Battle     = (*Battle)(nil)
	_ volley.Table     = (*Battle)(nil)
	_ volley.Moving    = (*Move)(nil)
)

// Name returns "warfare".
func (Ruleset) Name() string { return Name }

// Load decodes a Warfare scenario and the fire of its `action:` section, if any.
func (Ruleset) Load(doc *scenario.Doc) (volley.Battle, volley.Action, error) {
	var f file
	return rules.Load(doc, &f, load, (*Battle).decodeAction)
}

// Battle is a Warfare battle: the units, their casualties and their ammunition.
type Battle struct {
	system     System
	tables     *Tables
	lowTrigger int
	naturalTen bool
	unit       scenario.Unit
	units      []Unit
	byID       map[string]int
	// turns is whose turn it is and which units have fired in it (volley's order of
	// play: the article gives none).
	turns volley.Turns
	// moves is true from volley.EditionMoves: placed units move, and ranges are measured
	// where they stand. act is the unit acting now and how far each unit has moved this
	// turn, table the table's edge and deployment zones.
	moves bool
	act   volley.Activation
	table volley.Tabletop
}

// Ammo is a unit's ammunition state.
type Ammo string

// The ammunition states. A unit that goes Low again is Out and cannot fire.
const (
	AmmoOK  Ammo = "ok"
	AmmoLow Ammo = "low"
	AmmoOut Ammo = "out"
)

// DecodeScalar reads ok, low or out.
func (a *Ammo) DecodeScalar(s scenario.Scalar) error {
	return scenario.DecodeWord(a, s, AmmoOK, AmmoLow, AmmoOut)
}

// after is the state after one more Low on Missiles result.
func (a Ammo) after() Ammo {
	if a == AmmoOK {
		return AmmoLow
	}
	return AmmoOut
}

// Unit is one unit of stands.
type Unit struct {
	ID, Name, Side  string
	Stands          int
	FiguresPerStand int
	// Weapon is the unit's missile weapon type, a key of the range table.
	Weapon string
	// Traits are what modifiers test for: type (cavalry), protection (shielded,
	// armoured), formation (conrois, skirmish), state (charging)…
	Traits []string
	Ammo   Ammo
	// Lost is the casualties the unit has taken, in figures.
	Lost int
	// At is where the unit stands, in inches; nil for a unit not on the table.
	At *scenario.Point
	// Move is how far the unit may move in a turn, and Base the diameter of the circle
	// its stands take on the table, inches (data, not in the source; 0: it does not
	// move, and it is a point).
	Move, Base float64
}

// Figures is how many figures the unit began with.
func (u *Unit) Figures() int { return u.Stands * u.FiguresPerStand }

// Left is how many figures the unit has left.
func (u *Unit) Left() int { return max(0, u.Figures()-u.Lost) }

// StandsLeft is how many stands still have figures: casualties come off whole stands
// first, so a unit of 4-figure stands that lost 5 figures has one stand fewer.
func (u *Unit) StandsLeft() int { return (u.Left() + u.FiguresPerStand - 1) / u.FiguresPerStand }

// Destroyed reports whether the unit has no figures left.
func (u *Unit) Destroyed() bool { return u.Left() == 0 }

// Unit returns the unit with the given id.
func (b *Battle) Unit(id string) (*Unit, bool) { return rules.Unit(b.units, b.byID, id) }

// State lists every unit with its casualties and ammunition.
func (b *Battle) State() volley.State {
	s := volley.State{Turn: rules.TurnState(b.turns.View(), &b.table), Units: make([]volley.UnitState, len(b.units))}
	for i := range b.units {
		u := &b.units[i]
		ammo := map[Ammo]float64{AmmoOK: 0, AmmoLow: 1, AmmoOut: 2}[u.Ammo]
		s.Units[i] = volley.UnitState{
			ID: u.ID, Name: u.Name, Side: u.Side,
			Values: map[string]float64{
				"stands": float64(u.Stands), "figures": float64(u.Figures()),
				"casualties": float64(u.Lost), "figures_left": float64(u.Left()),
				"ammo": ammo, // 0 ok, 1 low, 2 out
			},
			Destroyed: u.Destroyed(),
		}
		if b.moves && u.Move > 0 {
			// Its move, and what it has moved of it this turn.
			s.Units[i].Values["move"] = roundIn(u.Move, b.unit)
			s.Units[i].Values["moved"] = roundIn(b.act.Moved[u.ID], b.unit)
		}
	}
	return s
}

// Fire is one unit's missile fire at one or more targets. One pair of random-factor
// dice serves every target (alternate system).
type Fire struct {
	Unit    string
	Targets []FireTarget
	// Rolls fixes the alternate system's random-factor dice, to reproduce a worked
	// example; nil leaves them to chance.
	Rolls *Rolls
	// at is where the fire was written: its unit and each target, where a refusal is
	// reported (see Refusals). Zero for a fire built in code.
	at struct {
		unit    scenario.Pos
		targets map[string]scenario.Pos
	}
}

// Kind returns "fire".
func (*Fire) Kind() string { return "fire" }

// ActingUnit is the unit that fires.
func (f *Fire) ActingUnit() string { return f.Unit }

// TurnEnd is the action that ends the current side's turn.
type TurnEnd = rules.TurnEnd

// Rolls are fixed d6 rolls for the random factor: the firer's and the target player's.
type Rolls struct{ Firer, Target int }

// FireTarget is one target of a fire: how many of the firer's stands are eligible
// against it, at what range, and any named modifiers that apply beyond those the
// tables work out.
type FireTarget struct {
	Unit      string
	Stands    int
	Band      Band
	Distance  float64 // inches, when the band was measured
	Modifiers []string
	// measured says the band is the table's to measure (the fire states no range nor
	// distance): it is measured again when the fire is worked out, after any move.
	measured bool
}

// fireSpec is a fire as written.
type fireSpec struct {
	Type    string       `yaml:"type"`
	Unit    string       `yaml:"unit,required"`
	Targets []targetSpec `yaml:"targets,required"`
	Rolls   *rollsSpec   `yaml:"rolls"`
}

type rollsSpec struct {
	Firer  int `yaml:"firer,required"`
	Target int `yaml:"target,required"`
}

type targetSpec struct {
	Unit      string           `yaml:"unit,required"`
	Stands    int              `yaml:"stands"`
	Range     Band             `yaml:"range"`
	Distance  *scenario.Length `yaml:"distance"`
	Modifiers []string         `yaml:"modifiers"`
}

// DecodeAction decodes a fire in the form of a scenario's `action:` section.
func (b *Battle) DecodeAction(doc *scenario.Doc) (volley.Action, error) {
	return rules.DecodeAction(Name, doc, b.decodeAction)
}

// decodeAction decodes a fire, or the end of a turn: its type decides its form.
func (b *Battle) decodeAction(doc *scenario.Doc) (volley.Action, error) {
	if a, ok, err := rules.DecodeTurnAction(doc, &b.turns, &b.table, b.decodeMove, b.decodeDeploy); ok {
		return a, err
	}
	return volley.ReadAction(doc, func(s *fireSpec, errs *scenario.ErrorList) volley.Action { return b.checkFire(doc, s, errs) })
}

// checkFire resolves the names of a fire and works out each target's range band.
//
// A refereed fire (one a player sends a server) states nothing the rules decide: no
// random-factor dice, no range band or distance other than the one the units' positions
// give, no named modifier whose condition does not hold.
func (b *Battle) checkFire(doc *scenario.Doc, s *fireSpec, errs *scenario.ErrorList) *Fire {
	rules.CheckKind(doc, &s.Type, "fire", errs)
	a := &Fire{Unit: s.Unit}
	a.at.unit, a.at.targets = doc.At(&s.Unit), map[string]scenario.Pos{}
	for i := range s.Targets {
		a.at.targets[s.Targets[i].Unit] = doc.At(&s.Targets[i].Unit)
	}
	firer, ok := b.Unit(s.Unit)
	if !ok {
		if s.Unit != "" {
			errs.Add(doc.At(&s.Unit), "unknown unit %q%s", s.Unit, scenario.Hint(s.Unit, b.unitIDs()))
		}
		return nil
	}
	if s.Rolls != nil && doc.Refereed {
		errs.Add(doc.At(s.Rolls), "rolls: the server rolls every die; a player may state rolls only to ask aim or odds what if")
	}
	if s.Rolls != nil {
		if b.system == Existing {
			errs.Add(doc.At(s.Rolls), "rolls: the existing system has no random-factor dice to fix")
		}
		for _, v := range []*int{&s.Rolls.Firer, &s.Rolls.Target} {
			if *v < 1 || *v > D6 {
				errs.Add(doc.At(v), "rolls: a d6 shows 1 to 6, got %d", *v)
			}
		}
		a.Rolls = &Rolls{Firer: s.Rolls.Firer, Target: s.Rolls.Target}
	}
	if len(s.Targets) == 0 && s.Targets != nil {
		errs.Add(doc.At(&s.Targets), "targets: a fire has at least one target")
	}
	if len(s.Targets) > MaxTargets {
		errs.Add(doc.At(&s.Targets), "targets: at most %d", MaxTargets)
	}
	stands, seen := 0, map[string]bool{}
	for i := range s.Targets {
		t := &s.Targets[i]
		tg, ok := b.Unit(t.Unit)
		if !ok {
			if t.Unit != "" {
				errs.Add(doc.At(&t.Unit), "unknown target %q%s", t.Unit, scenario.Hint(t.Unit, b.unitIDs()))
			}
			continue
		}
		if seen[t.Unit] {
			errs.Add(doc.At(&t.Unit), "target %q is listed twice: give all its stands in one entry", t.Unit)
		}
		seen[t.Unit] = true
		ft := FireTarget{Unit: t.Unit, Stands: t.Stands, Band: t.Range, Modifiers: t.Modifiers}
		if ft.Stands == 0 {
			ft.Stands = firer.StandsLeft()
		}
		if doc.Pos(&t.Stands).IsValid() && (ft.Stands < 1 || ft.Stands > firer.StandsLeft()) {
			errs.Add(doc.At(&t.Stands), "stands: %s has %d stands left, so between 1 and %d can fire", firer.ID, firer.StandsLeft(), firer.StandsLeft())
		}
		stands += ft.Stands
		for j, m := range t.Modifiers {
			mod := b.modifier(m)
			switch {
			case mod == nil:
				errs.Add(doc.At(&t.Modifiers[j]), "no modifier %q in the tables%s", m, scenario.Hint(m, b.modifierNames()))
			case doc.Refereed && mod.When != nil && !mod.When.holds(firer, tg):
				errs.Add(doc.At(&t.Modifiers[j]), "modifier %q does not apply: its condition does not hold for %s firing at %s", m, firer.ID, tg.ID)
			}
		}
		if t.Distance != nil && *t.Distance > MaxDistance {
			errs.Add(doc.At(t.Distance), "distance: at most %d", MaxDistance)
			t.Distance = nil
			ft.Band = Long // reported; keep the rest of the checks quiet
		}
		if ft.Band == "" {
			band, dist, err := b.measure(firer, tg, t.Distance)
			if err != nil {
				errs.Add(doc.At(t), "target %q: %v", t.Unit, err)
			}
			ft.Band, ft.Distance = band, dist
			ft.measured = t.Distance == nil
		} else if t.Distance != nil {
			errs.Add(doc.At(t.Distance), "give a range or a distance, not both")
		}
		// Refereed, a range the table can measure is measured: a stated band or distance
		// must give the band the positions give.
		if doc.Refereed && (doc.Pos(&t.Range).IsValid() || t.Distance != nil) {
			if measured, d, err := b.measure(firer, tg, nil); err == nil && measured != ft.Band {
				errs.Add(doc.At(t), "target %q: %s is %s from %s, at %s range; the server measures the range when both units are on the table",
					t.Unit, tg.ID, scenario.Inches(d).Format(b.unit), firer.ID, measured)
			}
		}
		a.Targets = append(a.Targets, ft)
	}
	if stands > firer.StandsLeft() {
		errs.Add(doc.At(&s.Targets), "%s has %d stands left; the targets' stands add up to %d", firer.ID, firer.StandsLeft(), stands)
	}
	return a
}

// measure finds the range band of a target from the given distance, or from the units'
// positions, with the firer's weapon's range table.
func (b *Battle) measure(firer, target *Unit, given *scenario.Length) (Band, float64, error) {
	table, ok := b.tables.Ranges[firer.Weapon]
	if !ok {
		return "", 0, fmt.Errorf("give its range (close, effective or long): %s's weapon has no range table", firer.ID)
	}
	var d float64
	switch {
	case given != nil:
		d = given.Inches()
	case firer.At != nil && target.At != nil:
		d = dist(*firer.At, *target.At)
	default:
		return "", 0, fmt.Errorf("give its range (close, effective or long) or distance, or place both units with at:")
	}
	switch {
	case d <= table.Close.Inches()+1e-9:
		return Close, d, nil
	case d <= table.Effective.Inches()+1e-9:
		return Effective, d, nil
	case d <= table.Long.Inches()+1e-9:
		return Long, d, nil
	}
	return OutOfRange, d, nil
}

func (b *Battle) unitIDs() []string { return rules.IDs(b.units, func(u *Unit) string { return u.ID }) }

func (b *Battle) modifier(name string) *Modifier {
	for i := range b.tables.Modifiers {
		if b.tables.Modifiers[i].Name == name {
			return &b.tables.Modifiers[i]
		}
	}
	return nil
}

func (b *Battle) modifierNames() []string {
	return rules.IDs(b.tables.Modifiers, func(m *Modifier) string { return m.Name })
}

// Actor is the side of the unit that fires, moves or is deployed; ending a turn is the
// side whose turn it is, ending a deployment the side deploying (rules.UnitActor).
func (b *Battle) Actor(a volley.Action) string {
	side, _ := rules.UnitActor(&b.turns, &b.table, a, func(id string) string {
		if u, ok := b.Unit(id); ok {
			return u.Side
		}
		return ""
	})
	return side
}

// Table is the table for drawing: each unit that has a position, with the range bands of
// its missile weapon measured from its centre. Warfare gives units no facing or base
// size here, so the page draws a marker.
func (b *Battle) Table() volley.TableView {
	u := b.unit.OrInch()
	v := volley.TableView{Unit: string(u), Measured: "centre", Terrain: []volley.TablePiece{}}
	for i := range b.units {
		m := &b.units[i]
		name := m.Name
		if name == "" {
			name = m.ID
		}
		tu := volley.TableUnit{ID: m.ID, Name: name, Side: m.Side, Weapons: []volley.WeaponView{}, Destroyed: m.Destroyed(),
			Base: scenario.Inches(m.Base).In(u), Move: b.moveView(m, func(x float64) float64 { return scenario.Inches(x).In(u) })}
		if m.At != nil {
			tu.Placed, tu.X, tu.Y = true, scenario.Length(m.At.X).In(u), scenario.Length(m.At.Y).In(u)
		}
		if r := b.tables.Ranges[m.Weapon]; m.Weapon != "" && r != nil {
			tu.Weapons = append(tu.Weapons, volley.WeaponView{Name: m.Weapon, Ranges: []volley.RangeView{
				{Name: string(Close), Reach: r.Close.In(u)},
				{Name: string(Effective), Reach: r.Effective.In(u)},
				{Name: string(Long), Reach: r.Long.In(u)},
			}})
		}
		v.Units = append(v.Units, tu)
	}
	for _, m := range b.tables.Modifiers {
		if m.When == nil {
			v.Modifiers = append(v.Modifiers, m.Name)
		}
	}
	// The page builds a unit's fire from this: the targets the player adds, each with the
	// stands firing at it (shared out by default), its range band and claimed modifiers.
	v.Declare = volley.DeclareView{Title: "Missile fire", FirerLabel: "Firing unit", Prompt: "— choose a firing unit —", Verb: "Fire",
		Rows: "targets", RowsKey: "targets", TargetKey: "unit",
		Help: "Click an enemy to add or remove it as a target.", Choices: []volley.ChoiceView{},
		RowFields: []volley.FieldView{
			{Key: "stands", Label: "stands", Kind: "number", Share: true},
			{Key: "range", Label: "range", Kind: "select", Options: []string{string(Close), string(Effective), string(Long)}, Empty: "measured"},
			{Key: "modifiers", Label: "modifiers", Kind: "checks", Options: v.Modifiers},
		},
		// State gives ammo as its index in this list.
		Values: map[string][]string{"ammo": {string(AmmoOK), string(AmmoLow), string(AmmoOut)}}}
	if b.moves {
		// Placed units are dragged; a unit has no facing here.
		v.Moves = &volley.MoveForm{}
		b.table.View(&v)
		v.Declare.Help = "Drag a unit to move it (before it fires); click an enemy to add or remove it as a target."
	}
	for i := range b.units {
		m := &b.units[i]
		if m.Destroyed() || m.Weapon == "" || b.tables.Ranges[m.Weapon] == nil {
			continue
		}
		name := m.Name
		if name == "" {
			name = m.ID
		}
		v.Declare.Choices = append(v.Declare.Choices, volley.ChoiceView{Label: name + " (" + m.Side + ")", Side: m.Side, Units: []string{m.ID},
			Action: map[string]any{"unit": m.ID}, Count: m.StandsLeft(),
			Note: fmt.Sprintf("%d stands can fire; ammunition %s.", m.StandsLeft(), m.Ammo)})
	}
	v.Columns = []volley.ColumnView{
		{Label: "figures", Key: "figures_left", Of: "figures"},
		{Label: "stands", Key: "stands", Help: "stands the unit began with"},
		{Label: "casualties", Key: "casualties"},
		{Label: "ammunition", Key: "ammo", Levels: []string{string(AmmoOK), string(AmmoLow), string(AmmoOut)}},
	}
	v.FitBounds()
	return v
}
