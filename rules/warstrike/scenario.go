package warstrike

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// file is a WarStrike scenario as written.
type file struct {
	scenario.Header `yaml:",inline"`
	Options         Options       `yaml:"options"`
	Tables          tablesSpec    `yaml:"tables,required"`
	Terrain         []terrainSpec `yaml:"terrain"`
	Units           []unitSpec    `yaml:"units,required"`
	// Turn is where the order of play stands (volley's: the text gives none).
	Turn volley.TurnSpec `yaml:"turn"`
	// Action is decoded on its own (decodeAction), as its type decides its form.
	Action scenario.Skip `yaml:"action"`
}

// Options are the readings of the text a scenario may switch; docs/rules/warstrike.md
// gives each, its default and why.
type Options struct {
	// EyeAbove is how far above the firing model's head the eye of the line of sight
	// test is (the text: "just over the head"); 0.1" by default.
	EyeAbove *scenario.Length `yaml:"eye_above"`
	// Samples is the silhouette's sample grid, [columns, rows], [3, 4] by default, for
	// battles begun before edition 4 (ExactSightEdition). From edition 4 sight is
	// measured exactly: samples is still read and checked, so that older scenarios load,
	// and changes nothing.
	Samples *[2]int `yaml:"samples"`
	// Higher says what a linear obstacle or a building must be higher than to block by
	// rule: "either" (the models of one unit or the other: higher than the shorter
	// model of the pair, the default) or "both".
	Higher string `yaml:"higher"`
	// Compare says how terrain and models are compared for "taller" and "higher":
	// "size" (the terrain's height against the model's body height, the default) or
	// "top" (the heights of their tops above the table).
	Compare string `yaml:"compare"`
	// SeeOver says who may see over a linear obstacle by the standard test:
	// "elevated_firer" (a firer whose base is above the table, the default),
	// "elevated_either" (either model above the table) or "never".
	SeeOver string `yaml:"see_over"`
	// Distance is where distances are measured between two models: "edge" (base edge to
	// base edge, the default) or "centre".
	Distance string `yaml:"distance"`
	// AimAt says which target model a firing model's to-hit roll is read against:
	// "nearest" (the nearest it sees and has in range, the default) or "best" (the one
	// it has the best chance to hit).
	AimAt string `yaml:"aim_at"`
	// Dead says what becomes of killed models: "remove" (at once, the default) or
	// "mark" (they stay, may still shoot this turn, and leave at the end of the turn).
	Dead string `yaml:"dead"`
	// Climb says what a climb costs a model's move, from edition 5 (ClimbEdition): "height"
	// (the height it climbs, up or down, counts as distance moved, the default) or "free".
	Climb string `yaml:"climb"`
	// CrossWalls says which walls a model may climb over, from edition 5: "lower" (a wall
	// lower than the model, the default) or "never" (every wall stops it).
	CrossWalls string `yaml:"cross_walls"`
}

// The options' values.
const (
	HigherEither = "either"
	HigherBoth   = "both"

	CompareSize = "size"
	CompareTop  = "top"

	SeeOverElevatedFirer  = "elevated_firer"
	SeeOverElevatedEither = "elevated_either"
	SeeOverNever          = "never"

	DistanceEdge   = "edge"
	DistanceCentre = "centre"

	AimAtNearest = "nearest"
	AimAtBest    = "best"

	DeadRemove = "remove"
	DeadMark   = "mark"

	ClimbHeight = "height"
	ClimbFree   = "free"

	CrossWallsLower = "lower"
	CrossWallsNever = "never"
)

// Defaults of the options that are numbers.
const (
	// DefaultEyeAbove is the eye's height above the firer's head, in inches.
	DefaultEyeAbove = 0.1
	// DefaultSampleCols and DefaultSampleRows are the silhouette's sample grid of
	// battles begun before edition 4: three across (the two sides and the middle) and
	// four up (legs, torso, arms, head).
	DefaultSampleCols = 3
	DefaultSampleRows = 4
	// DefaultWallThickness is a linear obstacle's thickness when not given, in inches.
	DefaultWallThickness = 0.25
)

// Kind is what a piece of terrain is, for line of sight.
type Kind string

// The kinds of terrain the text names.
const (
	// Area terrain (woods, ruins) is not solid: it hides models within or behind it
	// beyond a sight distance (TLOS And Area Terrain).
	Area Kind = "area"
	// Hill is a bare hill: solid, a flat top at its height (TLOS And Area Terrain's
	// last paragraph).
	Hill Kind = "hill"
	// Wall is a linear obstacle: wall, hedge, fence (TLOS And Linear Obstacles).
	Wall Kind = "wall"
	// Building is a solid block; its roof is area terrain for models on it (TLOS And
	// Buildings).
	Building Kind = "building"
	// Feature is an exterior feature: a pillar, an arch, an air conditioner; solid, by
	// the standard test only.
	Feature Kind = "feature"
)

// DecodeScalar reads a kind.
func (k *Kind) DecodeScalar(s scenario.Scalar) error {
	return scenario.DecodeWord(k, s, Area, Hill, Wall, Building, Feature)
}

// DecodeScalar reads an action by its key (open_fire) or the text's name (Open Fire).
func (a *Action) DecodeScalar(s scenario.Scalar) error {
	t := strings.TrimSpace(s.Text)
	for _, v := range AllActions {
		if t == string(v) || strings.EqualFold(t, v.Title()) {
			*a = v
			return nil
		}
	}
	keys := make([]string, len(AllActions))
	for i, v := range AllActions {
		keys[i] = string(v)
	}
	return fmt.Errorf("want one of %s, got %q", strings.Join(keys, ", "), s.Text)
}

// Terrain is one piece of terrain. Its solid volume, for the standard test, is the
// footprint from Bottom up to Bottom+Height.
type Terrain struct {
	ID     string
	Kind   Kind
	Name   string
	Poly   geom.Polygon
	Bottom float64
	Height float64
	// Line is a wall's centre line, from which Poly is built; nil for other kinds.
	Line *geom.Segment
	// Floors are the levels of area terrain a model may stand on (a ruin's floors), from
	// edition 5 (ClimbEdition), lowest first.
	Floors []Floor
	// lo and hi are Poly's bounding box, set when the battle's scene is built.
	lo, hi geom.Vec
}

// Top is the height of the piece's top above the table.
func (t *Terrain) Top() float64 { return t.Bottom + t.Height }

// label is how a reason names the piece: its name, else its id.
func (t *Terrain) label() string { return cmp.Or(t.Name, t.ID) }

// terrainSpec is a piece of terrain as written.
type terrainSpec struct {
	ID      string           `yaml:"id,required"`
	Name    string           `yaml:"name"`
	Kind    Kind             `yaml:"kind,required"`
	Polygon []scenario.Point `yaml:"polygon"`
	// Line is a wall's two ends; Thickness its thickness.
	Line      []scenario.Point `yaml:"line"`
	Thickness *scenario.Length `yaml:"thickness"`
	Height    scenario.Length  `yaml:"height,required"`
	// Bottom lifts area terrain or a feature off the table (a wood on a hill, an
	// arch's lintel); 0 by default.
	Bottom scenario.Length `yaml:"bottom"`
	// Floors are area terrain's floors (a ruin's), from edition 5.
	Floors []floorSpec `yaml:"floors"`
}

// floorSpec is a floor as written: its height above the table, and where it is (the
// piece's footprint when left out).
type floorSpec struct {
	Height  scenario.Length  `yaml:"height,required"`
	Polygon []scenario.Point `yaml:"polygon"`
}

// unitSpec is one unit as written.
type unitSpec struct {
	ID     string `yaml:"id,required"`
	Name   string `yaml:"name"`
	Side   string `yaml:"side,required"`
	Action Action `yaml:"action"`
	// Suppression is the unit's markers now; SuppressionAtStart those it had when its
	// player's action phase began (the same by default), which decide Who Can Shoot.
	Suppression        int      `yaml:"suppression"`
	SuppressionAtStart *int     `yaml:"suppression_at_start"`
	Rules              []string `yaml:"rules"`
	// Specialist names a specialist unit (Medical Team, Observation Drone), which may
	// not shoot unless SpecialistMayShoot says its restrictions allow it.
	Specialist         string          `yaml:"specialist"`
	SpecialistMayShoot bool            `yaml:"specialist_may_shoot"`
	Base               scenario.Length `yaml:"base,required"`
	Height             scenario.Length `yaml:"height,required"`
	Weapon             string          `yaml:"weapon"`
	Armour             int             `yaml:"armour"`
	Toughness          int             `yaml:"toughness"`
	Wounds             int             `yaml:"wounds"`
	CasualtyOrder      []string        `yaml:"casualty_order"`
	Models             []modelSpec     `yaml:"models,required"`
	// Moves overrides the tables' moves for this unit's models, by action (a slow
	// support team: {advance: 4}).
	Moves map[string]scenario.Length `yaml:"moves"`
}

// modelSpec is one model as written.
type modelSpec struct {
	ID string         `yaml:"id"`
	At scenario.Point `yaml:"at,required"`
	// Elevation is the height of the base above the table; by default the top of the
	// hill or building under the base's centre, or 0.
	Elevation *scenario.Length `yaml:"elevation"`
	// Weapon overrides the unit's; "none" for a model that carries none.
	Weapon     *string          `yaml:"weapon"`
	Leader     bool             `yaml:"leader"`
	WoundsLost int              `yaml:"wounds_lost"`
	Dead       bool             `yaml:"dead"`
	Base       *scenario.Length `yaml:"base"`
	Height     *scenario.Length `yaml:"height"`
}

// NoWeapon is what a model's weapon says to carry none.
const NoWeapon = "none"

// load builds the battle from a decoded file.
func load(doc *scenario.Doc, f *file, errs *scenario.ErrorList) *Battle {
	b := &Battle{unit: doc.Unit(), byID: map[string]int{}, modelAt: map[string][2]int{}, exact: volley.DocEdition(doc) >= ExactSightEdition,
		climbs: volley.DocEdition(doc) >= ClimbEdition, hopeless: volley.DocEdition(doc) >= volley.EditionHopeless}
	b.opts = checkOptions(doc, &f.Options, b.climbs, errs)
	if b.tables = loadTables(doc, &f.Tables, errs); b.tables == nil {
		// The tables' own errors are reported; a weapon is not unknown for want of them.
		b.tables, b.noTables = &Tables{Die: DefaultDie}, true
	}
	if len(f.Terrain) > MaxTerrain {
		errs.Add(doc.At(&f.Terrain), "terrain: at most %d pieces", MaxTerrain)
		f.Terrain = f.Terrain[:MaxTerrain]
	}
	ids := map[string]bool{}
	for i := range f.Terrain {
		if t, ok := checkTerrain(doc, &f.Terrain[i], errs); ok && b.checkFloors(doc, &f.Terrain[i], &t, errs) {
			if ids[t.ID] {
				errs.Add(doc.At(&f.Terrain[i].ID), "terrain id %q is used twice", t.ID)
				continue
			}
			ids[t.ID] = true
			b.terrain = append(b.terrain, t)
		}
	}
	if len(f.Units) > MaxUnits {
		errs.Add(doc.At(&f.Units), "units: at most %d", MaxUnits)
		f.Units = f.Units[:MaxUnits]
	}
	models := 0
	for i := range f.Units {
		s := &f.Units[i]
		if s.ID == "" {
			continue
		}
		_, dup := b.byID[s.ID]
		_, isModel := b.modelAt[s.ID]
		if dup || isModel || ids[s.ID] {
			errs.Add(doc.At(&s.ID), "id %q is used twice", s.ID)
			continue
		}
		u := b.checkUnit(doc, s, errs)
		models += len(u.Models)
		if models > MaxModels {
			errs.Add(doc.At(&s.Models), "at most %d models in a battle", MaxModels)
			break
		}
		b.byID[u.ID] = len(b.units)
		for j := range u.Models {
			id := u.Models[j].ID
			_, dup := b.modelAt[id]
			_, isUnit := b.byID[id]
			if dup || isUnit || ids[id] {
				errs.Add(doc.At(&s.Models[j]), "model id %q is used twice in the battle", id)
			}
			b.modelAt[id] = [2]int{len(b.units), j}
		}
		b.units = append(b.units, u)
	}
	deploys := rules.Deploys(b.units, func(u *Unit) (string, string, bool) { return u.Side, u.ID, !u.Destroyed() })
	sides := volley.Distinct(b.units, func(u *Unit) string { return u.Side })
	b.turns, b.table = rules.LoadPlay(doc, &f.Turn, &f.Header, sides, b.unitIDs(), deploys, errs)
	b.moves = volley.Moves(doc)
	var bases []volley.StartingBase
	for i := range f.Units {
		s := &f.Units[i]
		k, ok := b.byID[s.ID]
		if !ok || b.units[k].ID != s.ID || len(b.units[k].Models) != len(s.Models) {
			continue
		}
		for j := range s.Models {
			m := &b.units[k].Models[j]
			b.table.CheckStart(errs, doc.At(&s.Models[j].At), fmt.Sprintf("model %q", m.ID), m.At, m.Base/2)
			if !m.Dead {
				bases = append(bases, volley.StartingBase{Base: m.circle(), Pos: doc.At(&s.Models[j].At), What: fmt.Sprintf("model %q", m.ID)})
			}
		}
	}
	if !doc.Accepted {
		volley.CheckOverlaps(errs, bases) // a move passes over no base, whatever it stands on (pathBlocked)
	}
	b.moved = map[string]float64{}
	b.buildScene()
	return b
}

func checkOptions(doc *scenario.Doc, o *Options, climbs bool, errs *scenario.ErrorList) options {
	r := options{eyeAbove: DefaultEyeAbove, cols: DefaultSampleCols, rows: DefaultSampleRows,
		higher: HigherEither, compare: CompareSize, seeOver: SeeOverElevatedFirer,
		distance: DistanceEdge, aimAt: AimAtNearest, dead: DeadRemove, climb: ClimbHeight, crossWalls: CrossWallsLower}
	if o.EyeAbove != nil {
		if *o.EyeAbove > MaxDistance {
			errs.Add(doc.At(o.EyeAbove), "eye_above: at most %d", MaxDistance)
		} else {
			r.eyeAbove = o.EyeAbove.Inches()
		}
	}
	if o.Samples != nil {
		c, w := o.Samples[0], o.Samples[1]
		if c < 1 || w < 1 || c > MaxSamples || w > MaxSamples {
			errs.Add(doc.At(o.Samples), "samples: want [columns, rows], each from 1 to %d", MaxSamples)
		} else {
			r.cols, r.rows = c, w
		}
	}
	choose := func(ptr *string, name string, into *string, values ...string) {
		if *ptr == "" {
			return
		}
		if !slices.Contains(values, *ptr) {
			errs.Add(doc.At(ptr), "%s: want %s, got %q", name, strings.Join(values, " or "), *ptr)
			return
		}
		*into = *ptr
	}
	choose(&o.Higher, "higher", &r.higher, HigherEither, HigherBoth)
	choose(&o.Compare, "compare", &r.compare, CompareSize, CompareTop)
	choose(&o.SeeOver, "see_over", &r.seeOver, SeeOverElevatedFirer, SeeOverElevatedEither, SeeOverNever)
	choose(&o.Distance, "distance", &r.distance, DistanceEdge, DistanceCentre)
	choose(&o.AimAt, "aim_at", &r.aimAt, AimAtNearest, AimAtBest)
	choose(&o.Dead, "dead", &r.dead, DeadRemove, DeadMark)
	for _, c := range []struct {
		ptr  *string
		name string
	}{{&o.Climb, "climb"}, {&o.CrossWalls, "cross_walls"}} {
		if *c.ptr != "" && !climbs {
			errs.Add(doc.At(c.ptr), "%s: a battle begun under edition %d does not climb (from edition %d)", c.name, volley.DocEdition(doc), ClimbEdition)
			*c.ptr = ""
		}
	}
	choose(&o.Climb, "climb", &r.climb, ClimbHeight, ClimbFree)
	choose(&o.CrossWalls, "cross_walls", &r.crossWalls, CrossWallsLower, CrossWallsNever)
	return r
}

// options are the readings in force, defaults filled in.
type options struct {
	eyeAbove                                        float64
	cols, rows                                      int
	higher, compare, seeOver, distance, aimAt, dead string
	// climb and crossWalls are read from edition 5 (ClimbEdition).
	climb, crossWalls string
}

func checkPoint(doc *scenario.Doc, p *scenario.Point, what string, errs *scenario.ErrorList) bool {
	if math.Abs(p.X) > MaxDistance || math.Abs(p.Y) > MaxDistance || math.IsNaN(p.X) || math.IsNaN(p.Y) {
		errs.Add(doc.At(p), "%s: coordinates must lie within ±%d", what, MaxDistance)
		return false
	}
	return true
}

func checkLength(doc *scenario.Doc, l *scenario.Length, what string, errs *scenario.ErrorList) bool {
	if *l > MaxDistance {
		errs.Add(doc.At(l), "%s: at most %d", what, MaxDistance)
		return false
	}
	return true
}

// checkTerrain checks a piece and builds it: a wall's footprint from its line.
func checkTerrain(doc *scenario.Doc, s *terrainSpec, errs *scenario.ErrorList) (Terrain, bool) {
	t := Terrain{ID: s.ID, Kind: s.Kind, Name: s.Name, Bottom: s.Bottom.Inches(), Height: s.Height.Inches()}
	ok := s.ID != "" && s.Kind != ""
	if !checkLength(doc, &s.Height, "terrain "+s.ID+": height", errs) || !checkLength(doc, &s.Bottom, "terrain "+s.ID+": bottom", errs) {
		ok = false
	}
	if s.Height <= 0 && doc.Pos(&s.Height).IsValid() {
		errs.Add(doc.At(&s.Height), "terrain %q: height must be above 0", s.ID)
		ok = false
	}
	if s.Bottom > 0 && (s.Kind == Hill || s.Kind == Building || s.Kind == Wall) {
		errs.Add(doc.At(&s.Bottom), "terrain %q: a %s stands on the table; bottom is for area terrain and features", s.ID, s.Kind)
		ok = false
	}
	if s.Kind == Wall {
		if s.Polygon != nil {
			errs.Add(doc.At(&s.Polygon), "terrain %q: a wall is a line: give line: [[x, y], [x, y]] and a thickness, not a polygon", s.ID)
			return t, false
		}
		if len(s.Line) != 2 {
			errs.Add(doc.At(&s.Line), "terrain %q: a wall's line has two ends", s.ID)
			return t, false
		}
		thick := DefaultWallThickness
		if s.Thickness != nil {
			if *s.Thickness <= 0 || *s.Thickness > 12 {
				errs.Add(doc.At(s.Thickness), "terrain %q: thickness must lie above 0 and at most 12\"", s.ID)
				return t, false
			}
			thick = s.Thickness.Inches()
		}
		for j := range s.Line {
			ok = checkPoint(doc, &s.Line[j], "terrain "+s.ID+": line", errs) && ok
		}
		a, c := geom.V(s.Line[0].X, s.Line[0].Y), geom.V(s.Line[1].X, s.Line[1].Y)
		if a.Dist(c) < 1e-6 {
			errs.Add(doc.At(&s.Line), "terrain %q: a wall's two ends must differ", s.ID)
			return t, false
		}
		n := c.Sub(a).Norm()
		side := geom.V(-n.Y, n.X).Scale(thick / 2)
		t.Poly = geom.Polygon{a.Add(side), c.Add(side), c.Sub(side), a.Sub(side)}
		t.Line = &geom.Segment{A: a, B: c}
		return t, ok
	}
	if s.Line != nil || s.Thickness != nil {
		errs.Add(doc.At(&s.Line), "terrain %q: only a wall has a line and a thickness", s.ID)
	}
	if len(s.Polygon) > MaxPolygonPoints {
		errs.Add(doc.At(&s.Polygon), "terrain %q: polygon: at most %d points", s.ID, MaxPolygonPoints)
		return t, false
	}
	t.Poly = make(geom.Polygon, len(s.Polygon))
	for j := range s.Polygon {
		ok = checkPoint(doc, &s.Polygon[j], "terrain "+s.ID+": polygon point", errs) && ok
		t.Poly[j] = geom.V(s.Polygon[j].X, s.Polygon[j].Y)
	}
	if err := t.Poly.Validate(); err != nil {
		errs.Add(doc.At(&s.Polygon), "terrain %q: polygon: %v", s.ID, err)
		ok = false
	}
	return t, ok
}

// checkUnit checks a unit and its models and builds it.
func (b *Battle) checkUnit(doc *scenario.Doc, s *unitSpec, errs *scenario.ErrorList) Unit {
	u := Unit{ID: s.ID, Name: s.Name, Side: s.Side, Action: s.Action, Suppression: s.Suppression,
		Rules: s.Rules, Specialist: s.Specialist, SpecialistMayShoot: s.SpecialistMayShoot,
		Armour: s.Armour, Toughness: s.Toughness, Wounds: max(s.Wounds, 1), CasualtyOrder: s.CasualtyOrder}
	if s.Moves != nil {
		u.Moves = checkMoves(doc, s.Moves, &s.Moves, "unit "+s.ID+": moves", errs)
	}
	u.SuppressionAtStart = u.Suppression
	if s.SuppressionAtStart != nil {
		u.SuppressionAtStart = *s.SuppressionAtStart
	}
	for _, m := range []*int{&s.Suppression, s.SuppressionAtStart} {
		if m != nil && (*m < 0 || *m > MaxMarkers) {
			errs.Add(doc.At(m), "unit %q: suppression markers must lie between 0 and %d", s.ID, MaxMarkers)
		}
	}
	for j, r := range s.Rules {
		if r != AdaptiveCamo && r != EasilySeen {
			errs.Add(doc.At(&s.Rules[j]), "unit %q: unknown special rule %q%s", s.ID, r, scenario.Hint(r, []string{AdaptiveCamo, EasilySeen}))
		}
	}
	if s.Wounds < 0 || s.Wounds > MaxWounds {
		errs.Add(doc.At(&s.Wounds), "unit %q: wounds must lie between 1 and %d", s.ID, MaxWounds)
		u.Wounds = 1
	}
	for _, v := range []*int{&s.Armour, &s.Toughness} {
		if *v < -MaxDie || *v > MaxDie {
			errs.Add(doc.At(v), "unit %q: armour and toughness must lie within ±%d", s.ID, MaxDie)
		}
	}
	base, height := s.Base.Inches(), s.Height.Inches()
	if !checkLength(doc, &s.Base, "unit "+s.ID+": base", errs) || !checkLength(doc, &s.Height, "unit "+s.ID+": height", errs) {
		base, height = 1, 1
	}
	if s.Height <= 0 && doc.Pos(&s.Height).IsValid() {
		errs.Add(doc.At(&s.Height), "unit %q: height must be above 0: the body is what may be seen", s.ID)
		height = 1
	}
	b.checkWeapon(doc, &s.Weapon, s.ID, errs)
	if len(s.Models) > MaxModelsPerUnit {
		errs.Add(doc.At(&s.Models), "unit %q: at most %d models", s.ID, MaxModelsPerUnit)
		s.Models = s.Models[:MaxModelsPerUnit]
	}
	if len(s.Models) == 0 && s.Models != nil {
		errs.Add(doc.At(&s.Models), "unit %q: a unit has at least one model", s.ID)
	}
	leaders := 0
	for j := range s.Models {
		ms := &s.Models[j]
		m := Model{ID: ms.ID, Base: base, Height: height, Weapon: s.Weapon, Leader: ms.Leader, WoundsLost: ms.WoundsLost, Dead: ms.Dead,
			item: j, named: ms.ID != ""}
		if m.ID == "" {
			m.ID = fmt.Sprintf("%s-%d", s.ID, j+1)
		}
		if checkPoint(doc, &ms.At, "model "+m.ID+": at", errs) {
			m.At = geom.V(ms.At.X, ms.At.Y)
		}
		if ms.Base != nil && checkLength(doc, ms.Base, "model "+m.ID+": base", errs) {
			m.Base = ms.Base.Inches()
		}
		if ms.Height != nil && checkLength(doc, ms.Height, "model "+m.ID+": height", errs) {
			if *ms.Height <= 0 {
				errs.Add(doc.At(ms.Height), "model %q: height must be above 0", m.ID)
			} else {
				m.Height = ms.Height.Inches()
			}
		}
		if ms.Weapon != nil {
			m.Weapon = *ms.Weapon
			if m.Weapon == NoWeapon {
				m.Weapon = ""
			} else {
				b.checkWeapon(doc, ms.Weapon, m.ID, errs)
			}
		}
		if ms.Leader {
			leaders++
			if leaders == 2 {
				errs.Add(doc.At(&ms.Leader), "unit %q: a unit has one leader", s.ID)
			}
		}
		if ms.WoundsLost < 0 || ms.WoundsLost >= u.Wounds {
			if ms.WoundsLost != 0 || u.Wounds < 1 {
				errs.Add(doc.At(&ms.WoundsLost), "model %q: wounds_lost must lie between 0 and %d (its wounds less one; a dead model says dead: true)", m.ID, u.Wounds-1)
			}
			m.WoundsLost = 0
		}
		if ms.Elevation != nil {
			if checkLength(doc, ms.Elevation, "model "+m.ID+": elevation", errs) {
				m.Elevation = ms.Elevation.Inches()
				b.implyFloor(&m)
			}
		} else {
			m.Elevation = b.groundAt(m.At)
		}
		u.Models = append(u.Models, m)
	}
	for j, id := range s.CasualtyOrder {
		if !slices.ContainsFunc(u.Models, func(m Model) bool { return m.ID == id }) {
			errs.Add(doc.At(&s.CasualtyOrder[j]), "unit %q: casualty_order: no model %q in the unit", s.ID, id)
		}
	}
	return u
}

// checkWeapon reports a weapon the tables do not list.
func (b *Battle) checkWeapon(doc *scenario.Doc, w *string, who string, errs *scenario.ErrorList) {
	if *w == "" || *w == NoWeapon || b.noTables {
		return
	}
	if _, ok := b.tables.Weapons[*w]; !ok {
		errs.Add(doc.At(w), "%s: weapon %q is not in the tables%s", who, *w, scenario.Hint(*w, slices.Sorted(maps.Keys(b.tables.Weapons))))
	}
}

// groundAt is the height a base stands at, centred on p: the top of the highest hill
// or building under p, or the table.
func (b *Battle) groundAt(p geom.Vec) float64 {
	z := 0.0
	for i := range b.terrain {
		t := &b.terrain[i]
		if (t.Kind == Hill || t.Kind == Building) && t.Poly.Contains(p) {
			z = max(z, t.Top())
		}
	}
	return z
}

func (b *Battle) unitIDs() []string { return rules.IDs(b.units, func(u *Unit) string { return u.ID }) }
