package warengine

import (
	"cmp"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// file is a War Engine scenario as written.
type file struct {
	scenario.Header `yaml:",inline"`
	Options         Options    `yaml:"options"`
	Turn            turnSpec   `yaml:"turn"`
	Map             mapSpec    `yaml:"map,required"`
	Weapons         []Weapon   `yaml:"weapons"`
	Types           []UnitType `yaml:"types"`
	Units           []unitSpec `yaml:"units"`
	// Action is decoded by decodeOrder, whose form its type decides.
	Action *scenario.Skip `yaml:"action"`
}

// turnSpec says whose turn it is and in which phase.
type turnSpec struct {
	Side  string `yaml:"side"`
	Phase Phase  `yaml:"phase"`
	// Number is the round the battle begins in; 1 when left out.
	Number int `yaml:"number"`
}

// mapSpec is the battlefield: ASCII rows and what each symbol stands for.
type mapSpec struct {
	Legend map[string]*TerrainType `yaml:"legend,required"`
	Rows   string                  `yaml:"rows,required"`
}

// TerrainType is what a map symbol stands for.
type TerrainType struct {
	Name string `yaml:"name,required"`
	// Visibility is how much the terrain diminishes visibility, 0–100: summed along a
	// line of fire and halved, it lowers ChanceToHit; at 100 it blocks sight.
	Visibility int `yaml:"visibility"`
	// Firepower is how much it diminishes firepower, 0–100: at 100 it stops a shot; as
	// the obstacle and cover modifiers it weakens one.
	Firepower int `yaml:"firepower"`
	// Save and Hits let a shot knock the terrain down (Hits 0: it cannot be). When its
	// hits are gone it turns into the terrain of the symbol Becomes.
	Save      int    `yaml:"save"`
	Hits      int    `yaml:"hits"`
	Toughness int    `yaml:"toughness"`
	Becomes   string `yaml:"becomes"`

	symbol rune
}

// Weapon is a weapon's statistics.
type Weapon struct {
	Name string `yaml:"name,required"`
	// Arc is the width of the arc of fire in degrees, a multiple of 45, centred on the
	// unit's facing; 360 fires all round.
	Arc    int       `yaml:"arc,required"`
	Short  RangeBand `yaml:"short,required"`
	Medium RangeBand `yaml:"medium,required"`
	Long   RangeBand `yaml:"long,required"`
	// MaxRange is the furthest square the weapon can target, in squares (default: the
	// long band's reach).
	MaxRange int `yaml:"max_range"`
	// Strength is the damage strength; 0 can never damage.
	Strength int `yaml:"strength"`
	// Damage is the minimum and maximum hits a damaging shot does.
	Damage       [2]int `yaml:"damage,required"`
	SaveModifier int    `yaml:"save_modifier"`
	Ammo         string `yaml:"ammo"`
	// Repeating weapons fired without aiming pick their square three times.
	Repeating      bool `yaml:"repeating"`
	IgnoresTerrain bool `yaml:"ignores_terrain"`
	// Blast is the radius in squares of an explosive weapon's blast; 0 is not explosive.
	Blast         int  `yaml:"blast"`
	StrengthBased bool `yaml:"strength_based"`
	// Heals makes a healing weapon: every unit it strikes regains hits, uniform from the
	// damage's minimum to its maximum, never past its type's hits; no damage check, no
	// save. The manual names healing weapons as the reason to target a friend, and gives
	// nothing more: the rest is volley's reading.
	Heals bool `yaml:"heals"`
}

// Explosive reports whether the weapon explodes.
func (w *Weapon) Explosive() bool { return w.Blast > 0 }

// effect is what a weapon does to a unit it strikes.
type effect int

const (
	damages effect = iota // the damage check, hits and save
	heals                 // hits back
	stuns                 // no damage; the unit misses its side's next fire phase
)

// effect is what this weapon does, under the battle's options.
func (b *Battle) effect(w *Weapon) effect {
	switch {
	case w.Heals:
		return heals
	case w.Strength == 0 && b.opts.stun:
		return stuns
	}
	return damages
}

// RangeBand is one of a weapon's short, medium and long ranges: how far it reaches
// and what it adds to ChanceToHit (Accuracy) and to damage strength (Strength, a
// percentage) within it.
type RangeBand struct {
	Range    int `yaml:"range,required"`
	Accuracy int `yaml:"accuracy"`
	Strength int `yaml:"strength"`
}

// UnitType is a stat sheet shared by units.
type UnitType struct {
	Name             string `yaml:"name,required"`
	Size             int    `yaml:"size"`
	WeaponSkill      int    `yaml:"weapon_skill,required"`
	StrengthModifier int    `yaml:"strength_modifier"`
	// Toughness by ammo type ("default" for any other), then by direction.
	Toughness map[string]Toughness `yaml:"toughness"`
	Save      int                  `yaml:"save"`
	Hits      int                  `yaml:"hits,required"`
	// Mounts names squares of the footprint, as [column, row] offsets from its top-left
	// square, so that weapons can be placed on them.
	Mounts  map[string][2]int `yaml:"mounts"`
	Weapons []Loadout         `yaml:"weapons"`
	// Move is how many squares a unit of the type may move in its side's Phase I (from
	// edition 4; data, since the targeting and firing chapter gives no movement rates).
	// Without it the unit stays on its squares, and may only turn.
	Move int `yaml:"move"`
}

// Toughness is a unit's toughness against one ammo type from each direction.
type Toughness struct {
	Front int `yaml:"front"`
	Side  int `yaml:"side"`
	Rear  int `yaml:"rear"`
}

// Loadout places a weapon on a unit: its group and the square it fires from.
type Loadout struct {
	Weapon string `yaml:"weapon,required"`
	Group  int    `yaml:"group,required"`
	// Mount names the footprint square the weapon fires from (default: the centre).
	Mount string `yaml:"mount"`
	// Count carries the weapon that many times ("2 pistols in Group 1"): each copy is
	// declared and fired on its own, the first by the weapon's name, the others by the
	// name and their number ("Pistol 2"). Default 1.
	Count int `yaml:"count"`

	name string // the copy's name, when it is not the first
}

// Name is how orders name the copy of the weapon: the weapon's name, and for copies
// after the first the name and the copy's number.
func (l *Loadout) Name() string { return cmp.Or(l.name, l.Weapon) }

// unitSpec is one unit on the map as written.
type unitSpec struct {
	ID     string       `yaml:"id,required"`
	Type   string       `yaml:"type,required"`
	Name   string       `yaml:"name"`
	Side   string       `yaml:"side,required"`
	At     [2]int       `yaml:"at,required"`
	Facing Facing       `yaml:"facing"`
	Aiming bool         `yaml:"aiming"`
	Morale int          `yaml:"morale"`
	Status MoraleStatus `yaml:"status"`
	Hits   *int         `yaml:"hits"`
	Group  int          `yaml:"group"`
	Target []targetSpec `yaml:"targets"`
}

// targetSpec is a declared target ("found target") carried in the scenario.
type targetSpec struct {
	Weapon   string `yaml:"weapon,required"`
	At       any    `yaml:"at,required"`
	Friendly bool   `yaml:"friendly"`
}

// load builds the battle from a decoded file, adding every problem to errs.
func load(doc *scenario.Doc, f *file, errs *scenario.ErrorList) *Battle {
	b := &Battle{weapons: map[string]*Weapon{}, types: map[string]*UnitType{}, byID: map[string]int{}, edition: volley.DocEdition(doc), moves: volley.Moves(doc)}
	b.opts = resolveOptions(doc, &f.Options, errs)
	b.loadMap(doc, &f.Map, errs)
	rules.Define(doc, f.Weapons, "weapon", func(w *Weapon) *string { return &w.Name }, b.weapons, checkWeapon, errs)
	rules.Define(doc, f.Types, "type", func(t *UnitType) *string { return &t.Name }, b.types, b.checkType, errs)
	for i := range f.Units {
		b.loadUnit(doc, &f.Units[i], errs)
	}
	b.loadTurn(doc, &f.Turn, errs)
	b.loadMoves(doc, f, errs)
	// Declared targets come last: they refer to units and squares.
	for i := range f.Units {
		s := &f.Units[i]
		ui, ok := b.byID[s.ID]
		if !ok {
			continue
		}
		for j := range s.Target {
			b.loadTarget(doc, &b.units[ui], &s.Target[j], errs)
		}
	}
	return b
}

// loadMap reads the legend and the rows.
func (b *Battle) loadMap(doc *scenario.Doc, m *mapSpec, errs *scenario.ErrorList) {
	symbols := make([]string, 0, len(m.Legend))
	for sym := range m.Legend {
		symbols = append(symbols, sym)
	}
	sort.Strings(symbols)
	b.bySymbol = map[rune]int{}
	for _, sym := range symbols {
		t := m.Legend[sym]
		if t == nil {
			errs.Add(doc.KeyPos(&m.Legend, sym), "legend %q: say what terrain it is, as {name: open ground}", sym)
			continue
		}
		r, size := utf8.DecodeRuneInString(sym)
		if size != len(sym) || sym == "" || r == ' ' {
			errs.Add(doc.KeyPos(&m.Legend, sym), "legend: %q must be a single character other than a space", sym)
			continue
		}
		t.symbol = r
		for _, v := range []struct {
			ptr  *int
			name string
		}{{&t.Visibility, "visibility"}, {&t.Firepower, "firepower"}, {&t.Save, "save"}} {
			if *v.ptr < 0 || *v.ptr > 100 {
				errs.Add(doc.At(v.ptr), "legend %q: %s must lie between 0 and 100, got %d", sym, v.name, *v.ptr)
			}
		}
		if t.Hits < 0 || t.Hits > MaxPercent || t.Toughness < 0 || t.Toughness > MaxPercent {
			errs.Add(doc.At(&t.Hits), "legend %q: hits and toughness must lie between 0 and %d", sym, MaxPercent)
		}
		b.bySymbol[r] = len(b.terrain)
		b.terrain = append(b.terrain, t)
	}
	for _, t := range b.terrain {
		if t.Becomes == "" {
			if t.Hits > 0 {
				errs.Add(doc.At(&t.Hits), "legend %q: terrain with hits must say what it becomes when knocked down (becomes: a legend symbol)", string(t.symbol))
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(t.Becomes)
		if _, ok := b.bySymbol[r]; !ok || size != len(t.Becomes) {
			errs.Add(doc.At(&t.Becomes), "legend %q: becomes %q, which is not a symbol of the legend", string(t.symbol), t.Becomes)
		} else if r == t.symbol {
			errs.Add(doc.At(&t.Becomes), "legend %q: becomes itself, so knocking it down would change nothing; name the terrain it turns into", string(t.symbol))
		}
		if t.Hits == 0 {
			errs.Add(doc.At(&t.Becomes), "legend %q: becomes %q but has no hits, so it can never be knocked down", string(t.symbol), t.Becomes)
		}
	}
	rows := strings.Split(strings.TrimRight(m.Rows, "\n"), "\n")
	pos := doc.Pos(&m.Rows)
	if m.Rows == "" {
		return
	}
	b.width, b.height = utf8.RuneCountInString(rows[0]), len(rows)
	if b.width == 0 {
		errs.Add(doc.At(&m.Rows), "map: the first row is empty; write one symbol per square")
		b.height = 0
		return
	}
	if b.width > MaxMapSide || b.height > MaxMapSide {
		errs.Add(doc.At(&m.Rows), "map: at most %d squares a side, got %d×%d", MaxMapSide, b.width, b.height)
		b.width, b.height = 0, 0
		return
	}
	b.cells = make([]int, b.width*b.height)
	b.cellHits = make([]int, b.width*b.height)
	for y, row := range rows {
		if n := utf8.RuneCountInString(row); n != b.width {
			errs.Add(doc.BlockPos(pos, y, 0), "map: row %d has %d squares; the first row has %d", y, n, b.width)
			continue
		}
		for x, r := range []rune(row) {
			t, ok := b.bySymbol[r]
			if !ok {
				errs.Add(doc.BlockPos(pos, y, x), "map: %q at column %d of row %d is not in the legend", string(r), x, y)
				continue
			}
			b.cells[y*b.width+x] = t
			b.cellHits[y*b.width+x] = b.terrain[t].Hits
		}
	}
}

func checkWeapon(doc *scenario.Doc, w *Weapon, errs *scenario.ErrorList) {
	if w.Arc < FacingStep || w.Arc > 360 || w.Arc%FacingStep != 0 {
		errs.Add(doc.At(&w.Arc), "weapon %q: arc must be a multiple of %d from %d to 360 degrees, got %d", w.Name, FacingStep, FacingStep, w.Arc)
	}
	bands := []*RangeBand{&w.Short, &w.Medium, &w.Long}
	for i, band := range bands {
		if band.Range < 0 || band.Range > MaxMapSide*2 {
			errs.Add(doc.At(&band.Range), "weapon %q: range must lie between 0 and %d squares", w.Name, MaxMapSide*2)
		}
		if band.Accuracy < -MaxPercent || band.Accuracy > MaxPercent {
			errs.Add(doc.At(&band.Accuracy), "weapon %q: accuracy must lie within ±%d", w.Name, MaxPercent)
		}
		if band.Strength < -100 || band.Strength > MaxPercent {
			errs.Add(doc.At(&band.Strength), "weapon %q: strength percentage must lie between -100 and %d", w.Name, MaxPercent)
		}
		if i > 0 && band.Range < bands[i-1].Range {
			errs.Add(doc.At(&band.Range), "weapon %q: each range band must reach at least as far as the one before", w.Name)
		}
	}
	if w.MaxRange == 0 {
		w.MaxRange = w.Long.Range
	} else if w.MaxRange < w.Long.Range || w.MaxRange > MaxMapSide*2 {
		errs.Add(doc.At(&w.MaxRange), "weapon %q: max_range must reach at least the long band (%d) and at most %d", w.Name, w.Long.Range, MaxMapSide*2)
	}
	if w.Strength < 0 || w.Strength > MaxPercent {
		errs.Add(doc.At(&w.Strength), "weapon %q: strength must lie between 0 and %d", w.Name, MaxPercent)
	}
	if w.Damage[0] < 0 || w.Damage[1] < w.Damage[0] || w.Damage[1] > MaxPercent {
		errs.Add(doc.At(&w.Damage), "weapon %q: damage is [min, max] hits with 0 ≤ min ≤ max ≤ %d", w.Name, MaxPercent)
	}
	if w.SaveModifier < -100 || w.SaveModifier > 100 {
		errs.Add(doc.At(&w.SaveModifier), "weapon %q: save_modifier must lie between -100 and +100", w.Name)
	}
	if w.Blast < 0 || w.Blast > MaxMapSide {
		errs.Add(doc.At(&w.Blast), "weapon %q: blast is a radius in squares, 0 for none", w.Name)
	}
}

func (b *Battle) checkType(doc *scenario.Doc, t *UnitType, errs *scenario.ErrorList) {
	if t.Size == 0 && !doc.Pos(&t.Size).IsValid() {
		t.Size = 1 // not written: one square
	}
	if t.Size < 1 || t.Size > MaxSize {
		errs.Add(doc.At(&t.Size), "type %q: size must lie between 1 and %d", t.Name, MaxSize)
		t.Size = 1
	}
	if t.Hits < 1 || t.Hits > MaxPercent {
		errs.Add(doc.At(&t.Hits), "type %q: hits must lie between 1 and %d", t.Name, MaxPercent)
	}
	if t.Move < 0 || t.Move > MaxMove {
		errs.Add(doc.At(&t.Move), "type %q: move is the squares it may move a turn, from 0 to %d", t.Name, MaxMove)
		t.Move = 0
	}
	for _, v := range []struct {
		ptr      *int
		name     string
		min, max int
	}{
		{&t.WeaponSkill, "weapon_skill", -MaxPercent, MaxPercent},
		{&t.StrengthModifier, "strength_modifier", -100, MaxPercent},
		{&t.Save, "save", 0, 100},
	} {
		if *v.ptr < v.min || *v.ptr > v.max {
			errs.Add(doc.At(v.ptr), "type %q: %s must lie between %d and %d, got %d", t.Name, v.name, v.min, v.max, *v.ptr)
		}
	}
	for ammo, tough := range t.Toughness {
		for _, v := range []int{tough.Front, tough.Side, tough.Rear} {
			if v < -MaxPercent || v > MaxPercent {
				errs.Add(doc.KeyPos(&t.Toughness, ammo), "type %q: toughness against %s must lie within ±%d", t.Name, ammo, MaxPercent)
				break
			}
		}
	}
	for name, off := range t.Mounts {
		if off[0] < 0 || off[1] < 0 || off[0] >= t.Size || off[1] >= t.Size {
			errs.Add(doc.KeyPos(&t.Mounts, name), "type %q: mount %q at %v is outside its %d×%d footprint", t.Name, name, off, t.Size, t.Size)
		}
	}
	seen := map[string]bool{}
	carried := 0
	var copies []Loadout
	for i := range t.Weapons {
		l := &t.Weapons[i]
		if _, ok := b.weapons[l.Weapon]; !ok && l.Weapon != "" {
			errs.Add(doc.At(&l.Weapon), "type %q: unknown weapon %q%s", t.Name, l.Weapon, scenario.Hint(l.Weapon, b.weaponNames()))
		}
		if seen[l.Weapon] {
			errs.Add(doc.At(&l.Weapon), "type %q: weapon %q is listed twice; to carry it more than once, give it a count", t.Name, l.Weapon)
		}
		seen[l.Weapon] = true
		if l.Group < 1 || l.Group > MaxGroups {
			errs.Add(doc.At(&l.Group), "type %q: group must lie between 1 and %d", t.Name, MaxGroups)
		}
		if _, ok := t.Mounts[l.Mount]; l.Mount != "" && !ok {
			errs.Add(doc.At(&l.Mount), "type %q: unknown mount %q", t.Name, l.Mount)
		}
		n := l.Count
		if doc.Pos(&l.Count).IsValid() && (n < 1 || n > MaxWeapons) {
			errs.Add(doc.At(&l.Count), "type %q: count must lie between 1 and %d", t.Name, MaxWeapons)
		}
		n = min(max(n, 1), MaxWeapons)
		carried += n
		for c := 2; c <= n; c++ {
			copy := *l
			copy.name = fmt.Sprintf("%s %d", l.Weapon, c)
			copies = append(copies, copy)
		}
	}
	if carried > MaxWeapons {
		errs.Add(doc.At(&t.Weapons), "type %q: at most %d weapons, got %d", t.Name, MaxWeapons, carried)
	}
	// A copy takes its weapon's name and number; a weapon written with that name would
	// share it, and an order naming it would fire one of the two (from edition 3).
	if b.edition >= Edition3 {
		written := t.Weapons
		for i := range written {
			for k := 2; k <= min(written[i].Count, MaxWeapons); k++ {
				name := fmt.Sprintf("%s %d", written[i].Weapon, k)
				for j := range written {
					if written[j].Weapon == name {
						errs.Add(doc.At(&written[j].Weapon), "type %q: weapon %q has the name of copy %d of %q (count: %d): orders could not tell them apart; rename the weapon", t.Name, name, k, written[i].Weapon, written[i].Count)
					}
				}
			}
		}
	}
	// The copies after the first follow the weapons as written, so that a position
	// recorded for a written loadout stays true.
	t.Weapons = append(t.Weapons, copies...)
}

func (b *Battle) loadUnit(doc *scenario.Doc, s *unitSpec, errs *scenario.ErrorList) {
	if s.ID == "" || s.Type == "" {
		return
	}
	if _, dup := b.byID[s.ID]; dup {
		errs.Add(doc.At(&s.ID), "unit id %q is used twice", s.ID)
		return
	}
	if _, square := b.resolveSquareName(s.ID); square || strings.Count(s.ID, ",") == 1 && strings.Trim(s.ID, "-0123456789,") == "" {
		errs.Add(doc.At(&s.ID), "unit id %q looks like a square \"x,y\", which is how terrain is named in odds and results; pick another", s.ID)
		return
	}
	t, ok := b.types[s.Type]
	if !ok {
		errs.Add(doc.At(&s.Type), "unit %q: unknown type %q%s", s.ID, s.Type, scenario.Hint(s.Type, b.typeNames()))
		return
	}
	if s.Status == "" {
		s.Status = StatusNormal
	}
	u := Unit{
		ID: s.ID, Name: s.Name, Type: t, Side: s.Side,
		At: geom.Sq(s.At[0], s.At[1]), Facing: s.Facing, Aiming: s.Aiming,
		Morale: s.Morale, Status: s.Status, Hits: t.Hits, Group: s.Group,
	}
	if s.Hits != nil {
		u.Hits = *s.Hits
		if u.Hits < 0 || u.Hits > t.Hits {
			errs.Add(doc.At(s.Hits), "unit %q: hits %d must lie between 0 and the type's %d", s.ID, u.Hits, t.Hits)
		}
	}
	if s.Group < 0 || s.Group > MaxGroups {
		errs.Add(doc.At(&s.Group), "unit %q: group must lie between 0 (none chosen) and %d", s.ID, MaxGroups)
	}
	if s.Morale < -MaxPercent || s.Morale > MaxPercent {
		errs.Add(doc.At(&s.Morale), "unit %q: morale out of bounds (±%d)", s.ID, MaxPercent)
	}
	if b.width == 0 {
		// No map (reported already): the unit is known, so that nothing else is reported
		// as missing for it, but it stands nowhere.
		b.byID[u.ID] = len(b.units)
		b.units = append(b.units, u)
		return
	}
	if !b.onMap(u.At) || !b.onMap(u.At.Add(t.Size-1, t.Size-1)) {
		errs.Add(doc.At(&s.At), "unit %q: its %d×%d footprint from %s leaves the %d×%d map", s.ID, t.Size, t.Size, geom.Sq(s.At[0], s.At[1]), b.width, b.height)
		return
	}
	if b.occ == nil {
		b.occupy(-1)
	}
	// A unit already destroyed is off the map: another may stand where it fell (a battle
	// written back as a scenario after a move there).
	for _, q := range u.footprint() {
		if other := b.unitAt(q); other != nil && !u.Destroyed() {
			errs.Add(doc.At(&s.At), "unit %q overlaps %q at %v", s.ID, other.ID, q)
			return
		}
	}
	b.byID[u.ID] = len(b.units)
	b.units = append(b.units, u)
	if !u.Destroyed() { // a unit already destroyed is off the map
		b.occupy(len(b.units) - 1)
	}
}

func (b *Battle) loadTarget(doc *scenario.Doc, u *Unit, t *targetSpec, errs *scenario.ErrorList) {
	l := u.loadout(t.Weapon)
	if l == nil {
		errs.Add(doc.At(&t.Weapon), "unit %q has no weapon %q", u.ID, t.Weapon)
		return
	}
	if b.weapons[l.Weapon] == nil || b.width == 0 {
		return // the weapon's profile or the map is missing: already reported
	}
	written, err := b.resolveTarget(t.At)
	sq := written
	if err == nil {
		sq, err = b.aimAt(u, l, written, t.Friendly)
	}
	if err != nil {
		errs.Add(doc.At(&t.At), "unit %q, %s: %v", u.ID, t.Weapon, err)
		return
	}
	corrected := ""
	if sq != written {
		corrected = fmt.Sprintf("declared at %s, outside %s's range or arc: corrected to %s, the nearest square inside", written, t.Weapon, sq)
		b.notes = append(b.notes, fmt.Sprintf("%s: unit %q, %s: %s", doc.At(&t.At), u.ID, t.Weapon, corrected))
	}
	if u.Group == 0 {
		u.Group = l.Group
	} else if l.Group != u.Group {
		errs.Add(doc.At(&t.Weapon), "unit %q: %s is in group %d, but the unit's group is %d", u.ID, t.Weapon, l.Group, u.Group)
		return
	}
	u.setDeclared(Declaration{Weapon: t.Weapon, Target: sq, Friendly: t.Friendly, Corrected: corrected})
}

// resolveTarget reads a target written as [x, y] or as a unit id (that unit's centre).
func (b *Battle) resolveTarget(v any) (geom.Square, error) {
	switch t := v.(type) {
	case string:
		i, ok := b.byID[t]
		if !ok {
			var x, y int
			if _, err := fmt.Sscanf(strings.ReplaceAll(t, " ", ""), "%d,%d", &x, &y); err == nil {
				return geom.Square{}, fmt.Errorf("%q is a square written as text: write it as [%d, %d]", t, x, y)
			}
			return geom.Square{}, fmt.Errorf("unknown unit %q%s", t, scenario.Hint(t, b.unitIDs()))
		}
		if b.units[i].Destroyed() {
			return geom.Square{}, fmt.Errorf("%s is destroyed; aim at a square instead", t)
		}
		return b.units[i].centre(), nil
	case []any:
		if len(t) != 2 {
			return geom.Square{}, fmt.Errorf("a target is [column, row] or a unit id")
		}
		var xy [2]int
		for i, c := range t {
			n, ok := c.(int64)
			if !ok {
				return geom.Square{}, fmt.Errorf("a target is [column, row] in whole squares")
			}
			xy[i] = int(n)
		}
		sq := geom.Sq(xy[0], xy[1])
		if !b.onMap(sq) {
			return geom.Square{}, fmt.Errorf("square %s is off the %d×%d map", sq, b.width, b.height)
		}
		return sq, nil
	}
	return geom.Square{}, fmt.Errorf("a target is [column, row] or a unit id")
}
