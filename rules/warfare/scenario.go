package warfare

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// System chooses between the two missile systems.
type System string

// The missile systems.
const (
	Existing  System = "existing"
	Alternate System = "alternate"
)

// DecodeScalar reads existing or alternate.
func (s *System) DecodeScalar(sc scenario.Scalar) error {
	return scenario.DecodeWord(s, sc, Existing, Alternate)
}

// file is a Warfare scenario as written.
type file struct {
	scenario.Header `yaml:",inline"`
	System          System     `yaml:"system,required"`
	Options         Options    `yaml:"options"`
	Tables          tablesSpec `yaml:"tables,required"`
	Units           []unitSpec `yaml:"units,required"`
	// Turn is where the order of play stands (volley's: the article gives none).
	Turn volley.TurnSpec `yaml:"turn"`
	// Action is decoded on its own (decodeAction), as its type decides its form.
	Action scenario.Skip `yaml:"action"`
}

// Options are the readings of the rules a scenario may switch; docs/rules/warfare.md
// gives the default of each.
type Options struct {
	// NaturalTenHits makes a natural 10 hit in the existing system whatever the
	// modifiers (default true).
	NaturalTenHits *bool `yaml:"natural_ten_hits"`
}

// tablesSpec is the range and modifier tables: written inline, or in a file named by
// file (relative to the scenario), such as examples/warfare/sample-tables.yaml.
type tablesSpec struct {
	File   string `yaml:"file"`
	Tables `yaml:",inline"`
}

// Tables are the data of a rule book that the article refers to without printing in
// full: range distances per weapon type, the named missile modifiers, and what makes a
// unit go Low on Missiles in the existing system.
type Tables struct {
	Sample string `yaml:"sample"`
	// Ranges gives, per weapon type, how far close, effective and long range reach.
	Ranges map[string]*RangeTable `yaml:"ranges"`
	// Sign says how Modifiers are written: "alternate" (a help to the firer is
	// positive, as in the article's example, default) or "existing" (a help is
	// negative, as it lowers the roll needed).
	Sign      System     `yaml:"sign"`
	Modifiers []Modifier `yaml:"modifiers"`
	// LowTrigger says what makes a unit go Low on Missiles in the existing system,
	// which the article does not print: this many natural 10s or more among the firing
	// stands' dice (the sample says 1).
	LowTrigger *int `yaml:"low_trigger"`
}

// RangeTable is one weapon type's range bands: up to Close is close range, up to
// Effective is effective, up to Long is long; beyond is out of range.
type RangeTable struct {
	Close     scenario.Length `yaml:"close,required"`
	Effective scenario.Length `yaml:"effective,required"`
	Long      scenario.Length `yaml:"long,required"`
}

// Modifier is a named missile modifier with its value, and when it applies. A modifier
// without a condition applies only when an action names it.
type Modifier struct {
	Name  string     `yaml:"name,required"`
	Value int        `yaml:"value,required"`
	When  *Condition `yaml:"when"`
}

// Condition says when a modifier applies, by the firing unit and its target. Every
// field given must hold.
type Condition struct {
	FirerWeapon  string   `yaml:"firer_weapon"`
	FirerFigures int      `yaml:"firer_figures_per_stand"`
	FirerHas     []string `yaml:"firer_has"`
	FirerLacks   []string `yaml:"firer_lacks"`
	TargetHas    []string `yaml:"target_has"`
	TargetLacks  []string `yaml:"target_lacks"`
}

// holds reports whether the condition holds for a firer and a target.
func (c *Condition) holds(firer, target *Unit) bool {
	return (c.FirerWeapon == "" || c.FirerWeapon == firer.Weapon) &&
		(c.FirerFigures == 0 || c.FirerFigures == firer.FiguresPerStand) &&
		hasAll(firer.Traits, c.FirerHas) && hasNone(firer.Traits, c.FirerLacks) &&
		hasAll(target.Traits, c.TargetHas) && hasNone(target.Traits, c.TargetLacks)
}

func hasAll(traits, want []string) bool {
	for _, w := range want {
		if !slices.Contains(traits, w) {
			return false
		}
	}
	return true
}

func hasNone(traits, unwanted []string) bool {
	for _, w := range unwanted {
		if slices.Contains(traits, w) {
			return false
		}
	}
	return true
}

// unitSpec is one unit as written.
type unitSpec struct {
	ID              string          `yaml:"id,required"`
	Name            string          `yaml:"name"`
	Side            string          `yaml:"side,required"`
	Stands          int             `yaml:"stands,required"`
	FiguresPerStand int             `yaml:"figures_per_stand"`
	Weapon          string          `yaml:"weapon"`
	Traits          []string        `yaml:"traits"`
	Ammo            Ammo            `yaml:"ammo"`
	Casualties      int             `yaml:"casualties"`
	At              *scenario.Point `yaml:"at"`
	// Move is how far the unit may move in a turn (data: the article gives no moves);
	// Base the diameter of the circle its stands take on the table (data), which no
	// other unit's may cross. Without them it does not move, and it is a point.
	Move scenario.Length `yaml:"move"`
	Base scenario.Length `yaml:"base"`
}

// loadTables reads the tables, from their file if one is named (see scenario.Doc.Open
// for which files a scenario may name). The errors of a tables file point into it.
func loadTables(doc *scenario.Doc, t *tablesSpec, errs *scenario.ErrorList) *Tables {
	inPlace := t.Ranges != nil || t.Modifiers != nil || t.LowTrigger != nil || t.Sign != ""
	return scenario.InPlaceOrBeside(doc, &t.File, &t.Tables, inPlace, "tables", errs, func(d *scenario.Doc, tables *Tables, errs *scenario.ErrorList) bool {
		checkTables(d, tables, errs)
		return true
	})
}

// checkTables bounds the tables' numbers and orders their ranges.
func checkTables(doc *scenario.Doc, t *Tables, errs *scenario.ErrorList) {
	if t.Sign == "" {
		t.Sign = Alternate
	}
	for _, w := range slices.Sorted(maps.Keys(t.Ranges)) {
		r := t.Ranges[w]
		if r == nil {
			errs.Add(doc.KeyPos(&t.Ranges, w), "ranges: %q needs close, effective and long", w)
			continue
		}
		if doc.Failed(r) {
			continue // its mistake is reported where it is written
		}
		if !(r.Close <= r.Effective && r.Effective <= r.Long) || r.Long > MaxDistance {
			errs.Add(doc.KeyPos(&t.Ranges, w), "ranges: %q must reach close ≤ effective ≤ long ≤ %d", w, MaxDistance)
		}
	}
	seen := map[string]bool{}
	for i := range t.Modifiers {
		m := &t.Modifiers[i]
		if seen[m.Name] && m.Name != "" {
			errs.Add(doc.At(&m.Name), "modifier %q is listed twice", m.Name)
		}
		seen[m.Name] = true
		if m.Value < -MaxModifier || m.Value > MaxModifier {
			errs.Add(doc.At(&m.Value), "modifier %q: value must lie within ±%d", m.Name, MaxModifier)
		}
	}
	if t.LowTrigger != nil && (*t.LowTrigger < 1 || *t.LowTrigger > MaxLowTrigger) {
		errs.Add(doc.At(t.LowTrigger), "low_trigger: want a number of natural 10s from 1 to %d", MaxLowTrigger)
	}
}

// load builds the battle from a decoded file.
func load(doc *scenario.Doc, f *file, errs *scenario.ErrorList) *Battle {
	b := &Battle{system: f.System, byID: map[string]int{}, unit: doc.Unit(), naturalTen: true}
	if f.Options.NaturalTenHits != nil {
		b.naturalTen = *f.Options.NaturalTenHits
	}
	tablesGiven := doc.Pos(&f.Tables).IsValid()
	tables := loadTables(doc, &f.Tables, errs)
	if tables != nil && tablesGiven {
		b.tables = tables
	} else {
		b.tables = &Tables{Sign: Alternate}
	}
	b.lowTrigger = DefaultLowTrigger
	if b.tables.LowTrigger != nil {
		b.lowTrigger = *b.tables.LowTrigger
	}
	for i := range f.Units {
		s := &f.Units[i]
		if s.ID == "" {
			continue
		}
		if !rules.Index(errs, doc.At(&s.ID), b.byID, s.ID, len(b.units)) {
			continue
		}
		u := Unit{ID: s.ID, Name: s.Name, Side: s.Side, Stands: s.Stands, FiguresPerStand: s.FiguresPerStand,
			Weapon: s.Weapon, Traits: s.Traits, Ammo: s.Ammo, Lost: s.Casualties, At: s.At, Move: s.Move.Inches(), Base: s.Base.Inches()}
		if u.FiguresPerStand == 0 {
			u.FiguresPerStand = 1
		}
		if u.Ammo == "" {
			u.Ammo = AmmoOK
		}
		if s.Stands < 1 || s.Stands > MaxStands {
			errs.Add(doc.At(&s.Stands), "unit %q: stands must lie between 1 and %d", s.ID, MaxStands)
		}
		if u.FiguresPerStand < 1 || u.FiguresPerStand > MaxFigures {
			errs.Add(doc.At(&s.FiguresPerStand), "unit %q: figures_per_stand must lie between 1 and %d", s.ID, MaxFigures)
		}
		if s.Casualties < 0 || s.Casualties > u.Figures() {
			errs.Add(doc.At(&s.Casualties), "unit %q: casualties must lie between 0 and its %d figures", s.ID, u.Figures())
		}
		for _, l := range []*scenario.Length{&s.Move, &s.Base} {
			if *l < 0 || *l > MaxDistance {
				errs.Add(doc.At(l), "unit %q: a distance from 0 to %d", s.ID, MaxDistance)
				u.Move, u.Base = 0, 0
			}
		}
		if s.At != nil && (math.Abs(s.At.X) > MaxDistance || math.Abs(s.At.Y) > MaxDistance) {
			errs.Add(doc.At(s.At), "unit %q: at: coordinates must lie within ±%d", s.ID, MaxDistance)
			u.At = nil
		}
		if u.Weapon != "" && tables != nil && tablesGiven {
			if _, ok := b.tables.Ranges[u.Weapon]; !ok {
				errs.Add(doc.At(&s.Weapon), "unit %q: weapon type %q has no ranges in the tables%s", s.ID, u.Weapon, scenario.Hint(u.Weapon, slices.Sorted(maps.Keys(b.tables.Ranges))))
			}
		}
		b.units = append(b.units, u)
	}
	deploys := rules.Deploys(b.units, func(u *Unit) (string, string, bool) { return u.Side, u.ID, !u.Destroyed() })
	sides := volley.Distinct(b.units, func(u *Unit) string { return u.Side })
	b.turns, b.table = rules.LoadPlay(doc, &f.Turn, &f.Header, sides, b.unitIDs(), deploys, errs)
	b.moves = volley.Moves(doc)
	seen := map[string]bool{}
	var bases []volley.StartingBase
	for i := range f.Units {
		s := &f.Units[i]
		if k, ok := b.byID[s.ID]; ok && !seen[s.ID] && b.units[k].At != nil {
			u := &b.units[k]
			b.table.CheckStart(errs, doc.At(s.At), fmt.Sprintf("unit %q", s.ID), u.circle().C, u.circle().R)
			if !u.Destroyed() {
				bases = append(bases, volley.StartingBase{Base: u.circle(), Pos: doc.At(s.At), What: fmt.Sprintf("unit %q", s.ID)})
			}
		}
		seen[s.ID] = true
	}
	if !doc.Accepted {
		volley.CheckOverlaps(errs, bases) // a move passes over no base (pathBlocked)
	}
	return b
}
