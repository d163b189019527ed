package warengine

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// Name is the value of `ruleset:` that selects this system.
const Name = "warengine"

func init() { rules.Register(Ruleset{}) }

// Ruleset is The War Engine's targeting and firing.
type Ruleset struct{}

// What the engine may ask of the system: what it asks of every battle (rules.Battle), and
// the interfaces its Ruleset, Battle or actions answer beyond it, where a reader looks first.
var (
	_ volley.Describer = Ruleset{}
	_ rules.Battle     = (*Battle)(nil)
	_ volley.Board     = (*Battle)(nil)
	_ volley.Noter     = (*Battle)(nil)
	_ volley.Action    = (*Order)(nil)
	_ volley.Moving    = (*Order)(nil)
	_ advise.Coster    = (*Battle)(nil)
)

// Name returns "warengine".
func (Ruleset) Name() string { return Name }

// Load decodes a War Engine scenario and the action of its `action:` section, if any.
func (Ruleset) Load(doc *scenario.Doc) (volley.Battle, volley.Action, error) {
	var f file
	decode := func(b *Battle, sec *scenario.Doc) (volley.Action, error) {
		if f.Action == nil {
			return nil, nil // `action: ~` is no action
		}
		o, err := b.decodeOrder(sec)
		if o == nil || err != nil {
			return nil, err
		}
		return o, nil
	}
	b, a, err := rules.Load(doc, &f, load, decode)
	if err != nil || a == nil {
		return b, a, err
	}
	if err := volley.CheckCost(doc.Section("action"), b, a, costWhy); err != nil {
		return nil, nil, err
	}
	return b, a, nil
}

// costWhy says what an order's cost counts, for the error that refuses it.
const costWhy = "landing squares × (the interception's walk + every unit looked at by a blast + the blast's squares + each victim's damage check)"

// Battle is a War Engine battle: the map, the units, their declared targets, and whose
// turn and phase it is.
type Battle struct {
	opts options

	width, height int
	terrain       []*TerrainType
	bySymbol      map[rune]int
	cells         []int // terrain type of each square, row-major
	cellHits      []int // hits left on each square's terrain
	occ           []int // unit index on each square, or -1

	weapons map[string]*Weapon
	types   map[string]*UnitType
	units   []Unit
	byID    map[string]int

	sides []string
	side  string // whose turn it is
	phase Phase
	// round counts the rounds from 1: it goes up when the first side's turn comes again.
	// The manual counts no rounds; volley does, so that a scenario may name its last
	// (scenario.EndSpec).
	round int

	edition int      // of the rules the battle is played under (volley.Edition)
	notes   []string // how the scenario was read, beyond errors (Notes)

	// moves is true from volley.EditionMoves: a side's turn begins with Phase I, its
	// units move, and whether each is aiming is measured from its moves. table holds the
	// sides' deployment zones and whether units may still be deployed.
	moves bool
	table volley.Tabletop
}

// Notes says how the scenario was read beyond its errors: every declared target that was
// moved into its weapon's envelope.
func (b *Battle) Notes() []string { return b.notes }

// Unit is one force on the map.
type Unit struct {
	ID     string
	Name   string
	Type   *UnitType
	Side   string
	At     geom.Square // top-left square of the footprint
	Facing Facing
	// Aiming is true for a unit that did not move in its movement phase. From
	// volley.EditionMoves the battle measures it: true when the unit's side's Phase I
	// begins, false once the unit moves in it (see move.go).
	Aiming bool
	// Moved is how much of its move the unit has spent in its side's Phase I this turn,
	// in squares (a diagonal step counts as the option diagonal says); diagonals counts
	// its diagonal steps, for diagonal: alternate. measured is true once Aiming comes from
	// a Phase I played in the battle, rather than from the scenario.
	Moved     int
	diagonals int
	measured  bool
	Morale    int
	Status    MoraleStatus
	Hits      int
	// Group is the weapon group chosen this turn, 0 if none yet.
	Group    int
	Declared []Declaration
	// StunnedFor counts the coming fire phases of its side the unit must sit out;
	// Stunned is true during one, when it may not fire.
	StunnedFor int
	Stunned    bool
}

// Declaration is a found target: a weapon aimed at a square, waiting to fire.
type Declaration struct {
	Weapon   string      `json:"weapon"`
	Target   geom.Square `json:"target"`
	Friendly bool        `json:"friendly,omitempty"`
	// Corrected, when not "", says where the target was written and why it was moved
	// into the weapon's envelope, for the aim and the trace to say so.
	Corrected string `json:"corrected,omitempty"`
}

// Destroyed reports whether the unit has no hits left.
func (u *Unit) Destroyed() bool { return u.Hits <= 0 }

// reach is the Chebyshev distance from q to the nearest square the unit covers: 0 on
// the unit.
func (u *Unit) reach(q geom.Square) int {
	n := u.Type.Size - 1
	dx := max(u.At.X-q.X, 0, q.X-(u.At.X+n))
	dy := max(u.At.Y-q.Y, 0, q.Y-(u.At.Y+n))
	return max(dx, dy)
}

// footprint lists the squares the unit covers: size × size from its top-left square.
func (u *Unit) footprint() []geom.Square {
	n := u.Type.Size
	sq := make([]geom.Square, 0, n*n)
	for dy := range n {
		for dx := range n {
			sq = append(sq, u.At.Add(dx, dy))
		}
	}
	return sq
}

// covers reports whether q is one of the unit's squares.
func (u *Unit) covers(q geom.Square) bool {
	return q.X >= u.At.X && q.Y >= u.At.Y && q.X < u.At.X+u.Type.Size && q.Y < u.At.Y+u.Type.Size
}

// middle is the true centre of the footprint in grid units (a half-square point for an
// even size), for the direction a shot comes from.
func (u *Unit) middle() geom.Vec {
	h := float64(u.Type.Size-1) / 2
	return geom.V(float64(u.At.X)+h, -(float64(u.At.Y) + h))
}

// centre is the middle square of the footprint (for an even size, the one up and left
// of the middle).
func (u *Unit) centre() geom.Square {
	h := (u.Type.Size - 1) / 2
	return u.At.Add(h, h)
}

// loadout finds a weapon the unit carries, by the name orders give it (see
// Loadout.Name).
func (u *Unit) loadout(weapon string) *Loadout {
	for i := range u.Type.Weapons {
		if u.Type.Weapons[i].Name() == weapon {
			return &u.Type.Weapons[i]
		}
	}
	return nil
}

// mount is the square a weapon fires from: its named mount, or the centre.
func (u *Unit) mount(l *Loadout) geom.Square {
	if off, ok := u.Type.Mounts[l.Mount]; ok && l.Mount != "" {
		return u.At.Add(off[0], off[1])
	}
	return u.centre()
}

// declared returns the unit's declaration for a weapon, or nil.
func (u *Unit) declared(weapon string) *Declaration {
	for i := range u.Declared {
		if u.Declared[i].Weapon == weapon {
			return &u.Declared[i]
		}
	}
	return nil
}

// setDeclared records or replaces a declaration.
func (u *Unit) setDeclared(d Declaration) {
	if old := u.declared(d.Weapon); old != nil {
		*old = d
		return
	}
	u.Declared = append(u.Declared, d)
}

// clearDeclared removes a declaration.
func (u *Unit) clearDeclared(weapon string) {
	for i := range u.Declared {
		if u.Declared[i].Weapon == weapon {
			u.Declared = append(u.Declared[:i:i], u.Declared[i+1:]...)
			return
		}
	}
}

func (b *Battle) onMap(q geom.Square) bool {
	return q.X >= 0 && q.Y >= 0 && q.X < b.width && q.Y < b.height
}

func (b *Battle) index(q geom.Square) int { return q.Y*b.width + q.X }

func (b *Battle) square(i int) geom.Square { return geom.Sq(i%b.width, i/b.width) }

// terrainAt is the terrain on a square as it stands (after any knock-downs).
func (b *Battle) terrainAt(q geom.Square) *TerrainType { return b.terrain[b.cells[b.index(q)]] }

// unitAt is the unit on a square, or nil.
func (b *Battle) unitAt(q geom.Square) *Unit {
	if b.occ == nil || !b.onMap(q) {
		return nil
	}
	if i := b.occ[b.index(q)]; i >= 0 {
		return &b.units[i]
	}
	return nil
}

// occupy marks unit i's squares on the occupancy grid, creating the grid first if
// need be (i = -1 only creates it).
func (b *Battle) occupy(i int) {
	if b.occ == nil {
		b.occ = make([]int, b.width*b.height)
		for j := range b.occ {
			b.occ[j] = -1
		}
	}
	if i < 0 {
		return
	}
	for _, q := range b.units[i].footprint() {
		b.occ[b.index(q)] = i
	}
}

// vacate removes a destroyed unit from the occupancy grid.
func (b *Battle) vacate(i int) {
	for _, q := range b.units[i].footprint() {
		if b.occ[b.index(q)] == i {
			b.occ[b.index(q)] = -1
		}
	}
}

// Unit returns the unit with the given id.
func (b *Battle) Unit(id string) (*Unit, bool) { return rules.Unit(b.units, b.byID, id) }

// State lists every unit with its hits, group and declared targets, and whose turn it is.
func (b *Battle) State() volley.State {
	s := volley.State{
		Turn:  &volley.Turn{Side: b.side, Phase: string(b.phase), Number: b.round, End: map[string]any{"type": string(EndPhase)}},
		Units: make([]volley.UnitState, len(b.units)),
	}
	s.Turn = rules.TurnState(s.Turn, &b.table)
	for i := range b.units {
		u := &b.units[i]
		values := map[string]float64{
			"hits":     float64(u.Hits),
			"max_hits": float64(u.Type.Hits),
			"group":    float64(u.Group),
			"morale":   float64(u.Morale),
		}
		if u.Stunned {
			values["stunned"] = 1
		}
		if u.StunnedFor > 0 {
			values["stunned_next"] = float64(u.StunnedFor)
		}
		if b.moves {
			// The fact of movement the shots read, and the unit's move this turn (Phase I).
			values["aiming"] = 0
			if u.Aiming {
				values["aiming"] = 1
			}
			if u.Type.Move > 0 {
				values["move"] = float64(u.Type.Move)
				values["moved"] = 0
				if u.Side == b.side {
					values["moved"] = float64(u.Moved)
				}
			}
		}
		name := u.Name
		if name == "" {
			name = u.Type.Name
		}
		us := volley.UnitState{ID: u.ID, Name: name, Side: u.Side, Values: values, Destroyed: u.Destroyed()}
		for _, d := range u.Declared {
			us.Targets = append(us.Targets, volley.DeclaredTarget{Weapon: d.Weapon, Target: squareName(d.Target), Friendly: d.Friendly})
		}
		s.Units[i] = us
	}
	return s
}

// Board is the map as it stands, for drawing.
func (b *Battle) Board() volley.BoardView {
	v := volley.BoardView{Width: b.width, Height: b.height, Legend: map[string]string{}}
	for _, t := range b.terrain {
		v.Legend[string(t.symbol)] = t.Name
	}
	for y := range b.height {
		var row strings.Builder
		for x := range b.width {
			row.WriteRune(b.terrainAt(geom.Sq(x, y)).symbol)
		}
		v.Rows = append(v.Rows, row.String())
	}
	for i := range b.units {
		u := &b.units[i]
		if u.Destroyed() {
			continue
		}
		name := u.Name
		if name == "" {
			name = u.Type.Name
		}
		bu := volley.BoardUnit{ID: u.ID, Name: name, Side: u.Side, X: u.At.X, Y: u.At.Y, Size: u.Type.Size, Facing: u.Facing.Degrees(), Group: u.Group, Move: b.moveView(u)}
		for i := range u.Type.Weapons {
			bu.Weapons = append(bu.Weapons, b.weaponView(u, &u.Type.Weapons[i]))
		}
		v.Units = append(v.Units, bu)
	}
	v.Columns = []volley.ColumnView{
		{Label: "hits", Key: "hits", Of: "max_hits", Help: "hits left of the unit's type's"},
		{Label: "morale", Key: "morale"},
		{Label: "group", Key: "group", Help: "the weapon group it fires this turn (0: not chosen yet)"},
		{Label: "state", Flags: []volley.FlagView{{Key: "stunned", Label: "stunned"}, {Key: "stunned_next", Label: "stunned for", Count: true}}},
	}
	if b.moves {
		// A move is a path of squares, one step at a time, and a facing in 45° steps.
		v.Moves = &volley.MoveForm{Facing: true, FacingStep: FacingStep, Grid: true}
		v.Columns = append(v.Columns,
			volley.ColumnView{Label: "moved", Key: "moved", Of: "move", Help: "squares moved this Phase I, of its move"},
			volley.ColumnView{Label: "aiming", Flags: []volley.FlagView{{Key: "aiming", Label: "aiming"}}})
		var t volley.TableView
		b.table.View(&t)
		v.Zones, v.Deploying = t.Zones, t.Deploying
	}
	v.Aim = aimForm()
	return v
}

// weaponView is a carried weapon as the page draws it: the square it fires from, its arc
// centred on the facing and its three bands, the long one ending at the furthest square
// it can target.
func (b *Battle) weaponView(u *Unit, l *Loadout) volley.WeaponView {
	w := b.weapons[l.Weapon]
	half := float64(w.Arc) / 2
	from := u.mount(l)
	return volley.WeaponView{
		Name: l.Name(), Group: l.Group, From: &[2]int{from.X, from.Y},
		Arcs: [][2]float64{{-half, half}},
		Ranges: []volley.RangeView{
			{Name: "short", Reach: float64(w.Short.Range)},
			{Name: "medium", Reach: float64(w.Medium.Range)},
			{Name: "long", Reach: float64(w.MaxRange)},
		},
	}
}

func (b *Battle) unitIDs() []string { return rules.IDs(b.units, func(u *Unit) string { return u.ID }) }

func (b *Battle) weaponNames() []string { return slices.Sorted(maps.Keys(b.weapons)) }

func (b *Battle) typeNames() []string { return slices.Sorted(maps.Keys(b.types)) }

// squareName writes a square as the JSON shape writes a square target: "x,y".
func squareName(q geom.Square) string { return strconv.Itoa(q.X) + "," + strconv.Itoa(q.Y) }

// resolveSquareName reads a square written "x,y".
func (b *Battle) resolveSquareName(name string) (geom.Square, bool) {
	var x, y int
	if _, err := fmt.Sscanf(name, "%d,%d", &x, &y); err != nil {
		return geom.Square{}, false
	}
	return geom.Sq(x, y), b.onMap(geom.Sq(x, y))
}
