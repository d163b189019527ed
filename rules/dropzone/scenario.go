package dropzone

import (
	"fmt"
	"math"
	"sort"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/los"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// file is a Dropzone scenario as written.
type file struct {
	scenario.Header `yaml:",inline"`
	Options         Options       `yaml:"options"`
	Types           []UnitType    `yaml:"types"`
	Units           []unitSpec    `yaml:"units,required"`
	Terrain         []terrainSpec `yaml:"terrain"`
	// Turn is where the order of play stands (volley's: the seed gives none).
	Turn volley.TurnSpec `yaml:"turn"`
	// Action is decoded on its own (decodeAction), as its type decides its form.
	Action scenario.Skip `yaml:"action"`
}

// Options are the readings of the rules a scenario may switch. Every one has a default
// that follows docs/rules/dropzone.md.
type Options struct {
	// SilhouetteSamples is the columns × rows of rays traced to a target to measure how
	// much of it the firer sees (hull down), default 9 × 8, in battles begun before
	// edition 4 (ExactSightEdition). From edition 4 sight is measured exactly: the option
	// is still read and checked, so that older scenarios load, and changes nothing.
	SilhouetteSamples [2]int `yaml:"silhouette_samples"`
	// ContactTolerance is how close two bases must be to count as in contact. Default 0.05".
	ContactTolerance scenario.Length `yaml:"contact_tolerance"`
	// ArticulatedFrom says where an Articulated weapon may draw line of sight from:
	// "centre" (1" above the middle of the model's height, the default, as the rule is
	// worded) or "top" (1" above the top of the model).
	ArticulatedFrom ArticulatedEye `yaml:"articulated_from"`
	// UnitsBlockLOS makes other models block line of sight like terrain. Default false:
	// only terrain blocks, as the seed names no other blocker.
	UnitsBlockLOS bool `yaml:"units_block_los"`
	// Coherency is the distance, base edge to base edge, within which a squad's units
	// must stand linked unit to unit to be in coherency (the +1 to hit of an unlinked
	// squad is the seed's; the distance is not in the Shooting chapter: data). Without
	// it coherency is not measured.
	Coherency scenario.Length `yaml:"coherency"`
}

// ArticulatedEye is where an Articulated weapon's extra eye point sits.
type ArticulatedEye string

// The readings of Articulated's "1\" above the model".
const (
	ArticulatedFromCentre ArticulatedEye = "centre"
	ArticulatedFromTop    ArticulatedEye = "top"
)

// ExactSightEdition is the first edition of volley's rules (volley.Edition) whose
// Dropzone battles measure how much of a target is seen exactly; battles begun before
// keep counting silhouette_samples rays, as they were played.
const ExactSightEdition = 4

// BoundsEdition is the first edition (volley.Edition) whose Dropzone battles refuse a
// move's or a deployment's facing beyond MaxFacing; a battle begun before replays its
// actions as they were taken. A new scenario is held to the bounds whatever its edition,
// and so are its bases (no two may overlap), as a battle stored before still loads.
const BoundsEdition = 5

// NeedsEdition is the first edition (volley.Edition) whose Dropzone dice say, in their
// purpose, what each needs: the roll to hit, the roll that damages, the roll that
// discards a point with passive countermeasures. A player rolling by hand is asked for
// "to-hit: …, shot 1, needs 4+" rather than the bare die. The purposes are part of the
// log a verification compares, so battles begun under an older edition keep their words.
const NeedsEdition = 6

// MaxFacing bounds a facing, in degrees either way (not in the source, which gives
// bearings no bound): a bearing is taken round the circle, and one past two turns is a
// mistake, not a direction (1e308 was taken as whatever float64 leaves of it, 296°). As
// Republique bounds its facings.
const MaxFacing = 720

// Option defaults and bounds.
const (
	defaultSampleCols       = 9
	defaultSampleRows       = 8
	defaultContactTolerance = 0.05 // inches
	// maxSamplesPerAxis and maxSilhouetteRays bound silhouette_samples: more rays
	// only cost time.
	maxSamplesPerAxis = 1000
	maxSilhouetteRays = 10000
)

// UnitType is a unit's stat sheet: what every unit of that type shares.
type UnitType struct {
	Name            string          `yaml:"name,required"`
	Armour          int             `yaml:"armour,required"`
	DamagePoints    int             `yaml:"damage_points,required"`
	Base            scenario.Length `yaml:"base,required"`   // base diameter
	Height          scenario.Length `yaml:"height,required"` // model height above its base
	Countermeasures Countermeasures `yaml:"countermeasures"`
	Weapons         []Weapon        `yaml:"weapons"`
	// Move is how far a unit of this type may move in an activation (data: the Shooting
	// chapter gives no move values). Without it the unit does not move.
	Move scenario.Length `yaml:"move"`
}

// Countermeasures a unit carries.
type Countermeasures struct {
	// Active countermeasures make every weapon use its countered range against the unit.
	Active bool `yaml:"active"`
	// Evasion is added to the accuracy of every shot at the unit.
	Evasion int `yaml:"evasion"`
	// Passive: each damage point is discarded on a D6 roll of this or more (0: none).
	Passive TargetNumber `yaml:"passive"`
}

// Weapon is one line of a weapons profile.
type Weapon struct {
	Name           string      `yaml:"name,required"`
	MoveAndFire    MoveAndFire `yaml:"mf,required"`
	Arc            Arc         `yaml:"arc,required"`
	FullRange      Range       `yaml:"full_range,required"`
	CounteredRange Range       `yaml:"countered_range,required"`
	Shots          Shots       `yaml:"shots,required"`
	Accuracy       Accuracy    `yaml:"accuracy,required"`
	Energy         int         `yaml:"energy,required"`
	Special        []Special   `yaml:"special"`
}

// Devastator returns X of the weapon's Devastator X rule, 0 without it.
func (w *Weapon) Devastator() int {
	for _, s := range w.Special {
		if s.Name == SpecialDevastator {
			return s.Value
		}
	}
	return 0
}

// Has reports whether the weapon has the named special rule.
func (w *Weapon) Has(name string) bool {
	for _, s := range w.Special {
		if s.Name == name {
			return true
		}
	}
	return false
}

// unitSpec is one model on the table as written.
type unitSpec struct {
	ID           string          `yaml:"id,required"`
	Type         string          `yaml:"type,required"`
	Side         string          `yaml:"side,required"`
	Squad        string          `yaml:"squad"`
	At           scenario.Point  `yaml:"at"` // required unless embarked
	Facing       float64         `yaml:"facing"`
	Elevation    scenario.Length `yaml:"elevation"`
	DamagePoints *int            `yaml:"damage_points"` // left; default the type's
	Garrison     string          `yaml:"garrison"`
	// Embarked names the transport (a unit) carrying this one: it is not on the table
	// until it moves off, disembarking.
	Embarked string `yaml:"embarked"`
}

// terrainSpec is a piece of terrain as written.
type terrainSpec struct {
	ID        string           `yaml:"id,required"`
	Footprint []scenario.Point `yaml:"polygon,required"`
	Height    scenario.Length  `yaml:"height,required"`
	// BlocksLOS is true for solid terrain (the default); false makes it scenery only.
	BlocksLOS *bool `yaml:"blocks_los"`
}

// load checks a decoded scenario and builds the battle. Every problem is added to errs.
func load(doc *scenario.Doc, f *file, errs *scenario.ErrorList) *Battle {
	b := &Battle{
		unit:    doc.Unit(),
		options: f.Options,
		types:   map[string]*UnitType{},
		byID:    map[string]int{},
		broken:  map[string]bool{},
		exact:   volley.DocEdition(doc) >= ExactSightEdition,
		bounded: volley.DocEdition(doc) >= BoundsEdition,
		needs:   volley.DocEdition(doc) >= NeedsEdition,
	}
	o := &b.options
	if !given(doc, &f.Options.SilhouetteSamples) {
		o.SilhouetteSamples = [2]int{defaultSampleCols, defaultSampleRows}
	} else if c, r := o.SilhouetteSamples[0], o.SilhouetteSamples[1]; c < 1 || r < 1 || c > maxSamplesPerAxis || r > maxSamplesPerAxis || c*r > maxSilhouetteRays {
		errs.Add(doc.At(&f.Options.SilhouetteSamples), "silhouette_samples: want two counts of at least 1 (columns, rows), at most %d rays in all", maxSilhouetteRays)
	}
	if !given(doc, &f.Options.ContactTolerance) {
		o.ContactTolerance = scenario.Inches(defaultContactTolerance)
	} else if o.ContactTolerance > MaxDistance {
		errs.Add(doc.At(&f.Options.ContactTolerance), "contact_tolerance: at most %g inches", float64(MaxDistance))
	}
	switch o.ArticulatedFrom {
	case "":
		o.ArticulatedFrom = ArticulatedFromCentre
	case ArticulatedFromTop, ArticulatedFromCentre:
	default:
		errs.Add(doc.At(&f.Options.ArticulatedFrom), "articulated_from: want %q or %q, got %q", ArticulatedFromCentre, ArticulatedFromTop, o.ArticulatedFrom)
	}

	// A type whose name is missing could be the one a unit names.
	nameless := rules.Define(doc, f.Types, "type", func(t *UnitType) *string { return &t.Name }, b.types, checkType, errs)

	for i := range f.Terrain {
		t := &f.Terrain[i]
		poly := make(geom.Polygon, len(t.Footprint))
		for j, p := range t.Footprint {
			poly[j] = geom.V(p.X, p.Y)
			checkPoint(doc, &t.Footprint[j], fmt.Sprintf("terrain %q: polygon point", t.ID), errs)
		}
		if err := poly.Validate(); err != nil && given(doc, &t.Footprint) {
			errs.Add(doc.At(&t.Footprint), "terrain %q: polygon: %v", t.ID, err)
		}
		if (t.Height <= 0 || t.Height > MaxDistance) && given(doc, &t.Height) {
			errs.Add(doc.At(&t.Height), "terrain %q: height must be above 0 and at most %g", t.ID, float64(MaxDistance))
		}
		for _, other := range b.terrain {
			if other.ID == t.ID && t.ID != "" {
				errs.Add(doc.At(&t.ID), "terrain id %q is used twice", t.ID)
			}
		}
		blocks := t.BlocksLOS == nil || *t.BlocksLOS
		b.terrain = append(b.terrain, Terrain{ID: t.ID, Footprint: poly, Height: t.Height.Inches(), BlocksLOS: blocks})
		if blocks && b.exact {
			b.terrainOcc = append(b.terrainOcc, los.NewOccluder(los.Prism{Footprint: poly, Top: t.Height.Inches()}))
		}
	}

	for i := range f.Units {
		s := &f.Units[i]
		if s.ID == "" || s.Type == "" {
			b.broken[s.ID] = s.ID != ""
			continue // missing: reported by Decode
		}
		if _, dup := b.byID[s.ID]; dup {
			errs.Add(doc.At(&s.ID), "unit id %q is used twice", s.ID)
			continue
		}
		t, ok := b.types[s.Type]
		if !ok {
			if !nameless {
				errs.Add(doc.At(&s.Type), "unit %q: unknown type %q%s", s.ID, s.Type, scenario.Hint(s.Type, typeNames(b.types)))
			}
			b.broken[s.ID] = true
			continue
		}
		u := Unit{
			ID:           s.ID,
			Type:         t,
			Side:         s.Side,
			Squad:        s.Squad,
			At:           geom.V(s.At.X, s.At.Y),
			Facing:       geom.NormDeg(s.Facing),
			Elevation:    s.Elevation.Inches(),
			DamagePoints: t.DamagePoints,
			Garrison:     s.Garrison,
		}
		if u.Squad == "" {
			u.Squad = u.ID // a unit on its own is a squad of one
		}
		if math.IsNaN(s.Facing) || math.IsInf(s.Facing, 0) || !doc.Accepted && math.Abs(s.Facing) > MaxFacing {
			errs.Add(doc.At(&s.Facing), "unit %q: facing must be a number of degrees, at most %d either way", s.ID, MaxFacing)
		}
		checkPoint(doc, &s.At, fmt.Sprintf("unit %q: at", s.ID), errs)
		if !given(doc, &s.At) && s.Embarked == "" {
			errs.Add(doc.At(s), "unit %q: missing field \"at\" (only a unit embarked in a transport may leave it out)", s.ID)
		}
		if s.Elevation > MaxDistance {
			errs.Add(doc.At(&s.Elevation), "unit %q: elevation at most %g", s.ID, float64(MaxDistance))
		}
		if s.DamagePoints != nil {
			u.DamagePoints = *s.DamagePoints
			if u.DamagePoints < 0 || u.DamagePoints > t.DamagePoints {
				errs.Add(doc.At(s.DamagePoints), "unit %q: damage_points %d must lie between 0 and the type's %d", s.ID, u.DamagePoints, t.DamagePoints)
			}
		}
		if s.Garrison != "" && b.terrainIndex(s.Garrison) < 0 {
			errs.Add(doc.At(&s.Garrison), "unit %q: garrison %q is not a terrain id", s.ID, s.Garrison)
		}
		b.byID[u.ID] = len(b.units)
		b.units = append(b.units, u)
	}
	for i := range f.Units {
		s := &f.Units[i]
		u, ok := b.Unit(s.ID)
		if !ok || s.Embarked == "" {
			continue
		}
		t, ok := b.Unit(s.Embarked)
		switch {
		case !ok:
			errs.Add(doc.At(&s.Embarked), "unit %q: embarked: no unit %q%s", s.ID, s.Embarked, scenario.Hint(s.Embarked, b.unitIDs()))
		case t == u || t.Side != u.Side:
			errs.Add(doc.At(&s.Embarked), "unit %q: embarked: %q is not a transport of its side", s.ID, s.Embarked)
		case f.Units[b.byID[t.ID]].Embarked != "":
			errs.Add(doc.At(&s.Embarked), "unit %q: embarked: %q is carried itself", s.ID, s.Embarked)
		default:
			u.Embarked, u.At = t.ID, t.At
		}
	}
	// A unit carried in a transport deploys with it.
	deploys := rules.Deploys(b.units, func(u *Unit) (string, string, bool) { return u.Side, u.ID, u.Embarked == "" && !u.Destroyed() })
	sides := b.distinct(func(u *Unit) string { return u.Side })
	b.turns, b.table = rules.LoadPlay(doc, &f.Turn, &f.Header, sides, b.squadNames(), deploys, errs)
	b.moves = volley.Moves(doc)
	seen := map[string]bool{}
	var bases []volley.StartingBase
	for i := range f.Units {
		s := &f.Units[i]
		if k, ok := b.byID[s.ID]; ok && !seen[s.ID] && b.units[k].Embarked == "" {
			b.table.CheckStart(errs, doc.At(&s.At), fmt.Sprintf("unit %q", s.ID), b.units[k].At, b.units[k].Type.Base.Inches()/2)
			if u := &b.units[k]; !u.Destroyed() {
				bases = append(bases, volley.StartingBase{Base: u.Circle(), Pos: doc.At(&s.At), What: fmt.Sprintf("unit %q", s.ID)})
			}
		}
		seen[s.ID] = true
	}
	if !doc.Accepted {
		volley.CheckOverlaps(errs, bases)
	}
	if b.options.Coherency < 0 || b.options.Coherency > MaxDistance {
		errs.Add(doc.At(&f.Options.Coherency), "coherency: a distance from 0 to %g", float64(MaxDistance))
	}
	return b
}

// checkType bounds a stat sheet's numbers and checks its weapons.
func checkType(doc *scenario.Doc, t *UnitType, errs *scenario.ErrorList) {
	bound := func(ptr *int, what string, lo, hi int) {
		if v := *ptr; given(doc, ptr) && (v < lo || v > hi) {
			errs.Add(doc.At(ptr), "type %q: %s must lie between %d and %d, got %d", t.Name, what, lo, hi, v)
		}
	}
	bound(&t.DamagePoints, "damage_points", 1, MaxDamagePoints)
	bound(&t.Armour, "armour", 0, MaxStat)
	bound(&t.Countermeasures.Evasion, "evasion", 0, MaxAccuracy)
	for _, l := range []struct {
		ptr  *scenario.Length
		what string
	}{{&t.Base, "base"}, {&t.Height, "height"}, {&t.Move, "move"}} {
		if v := *l.ptr; given(doc, l.ptr) && (v <= 0 || v > MaxDistance) {
			errs.Add(doc.At(l.ptr), "type %q: %s must be above 0 and at most %g", t.Name, l.what, float64(MaxDistance))
		}
	}
	seen := map[string]bool{}
	for j := range t.Weapons {
		w := &t.Weapons[j]
		if seen[w.Name] && w.Name != "" {
			errs.Add(doc.At(&w.Name), "type %q: weapon %q is listed twice", t.Name, w.Name)
		}
		seen[w.Name] = true
		if given(doc, &w.Energy) && (w.Energy < 0 || w.Energy > MaxStat) {
			errs.Add(doc.At(&w.Energy), "weapon %q: energy must lie between 0 and %d, got %d", w.Name, MaxStat, w.Energy)
		}
		// Close Quarters is a kind of weapon, not a distance: both ranges say so or
		// neither does.
		if (w.FullRange.Kind == RangeCloseQuarters) != (w.CounteredRange.Kind == RangeCloseQuarters) && given(doc, &w.CounteredRange) {
			errs.Add(doc.At(&w.CounteredRange), "weapon %q: a Close Quarters weapon has CQ as both full_range and countered_range", w.Name)
		}
		for _, r := range []*Range{&w.FullRange, &w.CounteredRange} {
			if r.Kind == RangeFinite && r.Length > MaxDistance {
				errs.Add(doc.At(r), "weapon %q: range at most %g (use ∞ for the whole table)", w.Name, float64(MaxDistance))
			}
		}
		if !w.MoveAndFire.Any && w.MoveAndFire.Max > MaxDistance {
			errs.Add(doc.At(&w.MoveAndFire), "weapon %q: mf at most %g", w.Name, float64(MaxDistance))
		}
	}
}

// checkPoint bounds a position on the table.
func checkPoint(doc *scenario.Doc, p *scenario.Point, what string, errs *scenario.ErrorList) {
	if math.Abs(p.X) > MaxDistance || math.Abs(p.Y) > MaxDistance || math.IsNaN(p.X) || math.IsNaN(p.Y) {
		errs.Add(doc.At(p), "%s: coordinates must lie within ±%g", what, float64(MaxDistance))
	}
}

func typeNames(m map[string]*UnitType) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// given reports whether the scenario wrote the value at ptr: defaults and missing
// fields have no position. Checks of a value that was not given would only repeat the
// "missing field" error.
func given(doc *scenario.Doc, ptr any) bool { return doc.Pos(ptr).IsValid() }
