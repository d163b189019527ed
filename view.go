package volley

// The views in this file are what the browser page draws: the battlefield as it stands,
// with every unit's weapons, arcs and range bands. Nothing in them is rolled or changed;
// a battle builds them from its state on request.

// WeaponView is a weapon as a player sees it on the table: its arcs of fire and how far
// each range band reaches.
type WeaponView struct {
	Name string `json:"name"`
	// Group is the weapon group a War Engine unit fires as one (1 or more); 0 in systems
	// without groups.
	Group int `json:"group,omitempty"`
	// Arcs are the sectors the weapon may fire into, each [from, to] in degrees clockwise
	// of the unit's facing, from < to and to - from <= 360. Empty: the system has no arcs.
	Arcs [][2]float64 `json:"arcs,omitempty"`
	// Ranges are the bands from nearest to furthest, each reaching Reach in the view's
	// distance unit.
	Ranges []RangeView `json:"ranges,omitempty"`
	// From is the square a weapon on a grid map fires from, and its range and arc are
	// measured from: [column, row]. Nil off a grid.
	From *[2]int `json:"from,omitempty"`
}

// RangeView is one range band of a weapon.
type RangeView struct {
	Name string `json:"name"`
	// Reach is the band's outer edge in the view's unit. 0 with Unlimited set: the band
	// has no end.
	Reach     float64 `json:"reach"`
	Unlimited bool    `json:"unlimited,omitempty"`
}

// Table is implemented by battles fought on an open table measured in inches or
// centimetres, so that the page can draw bases, arcs and range rings.
type Table interface {
	Table() TableView
}

// TableView is an open table as it stands. Coordinates are the scenario's: x grows to the
// right and y grows towards compass north (bearing 0), which the page draws upwards.
type TableView struct {
	// Unit is the distance unit of every coordinate and length: "in" or "cm".
	Unit string `json:"unit"`
	// Measured says where ranges are measured from: "edge" (base edge to base edge, so a
	// ring lies Reach beyond the shooter's base) or "centre".
	Measured string `json:"measured"`
	// Bounds is the area worth drawing, [minX, minY, maxX, maxY]: every placed unit and
	// piece of terrain, with a margin (see FitBounds).
	Bounds  [4]float64   `json:"bounds"`
	Terrain []TablePiece `json:"terrain"`
	Units   []TableUnit  `json:"units"`
	// Modifiers are named modifiers a player may claim for a target in an action, where
	// the rules leave them to the player (Warfare's unconditioned table entries).
	Modifiers []string `json:"modifiers,omitempty"`
	// Declare says how the page builds this system's action, so that the page draws a
	// description and knows no rule system.
	Declare DeclareView `json:"declare"`
	// Moves says how the page builds a move (nil: units do not move in this battle).
	Moves *MoveForm `json:"moves,omitempty"`
	// Edge is the table's edge, [minX, minY, maxX, maxY], which no base may cross; nil
	// for a table without one. Zones are the sides' deployment zones, each a polygon;
	// Deploying says units may still be placed (before the battle's first action).
	Edge      *[4]float64             `json:"edge,omitempty"`
	Zones     map[string][][2]float64 `json:"zones,omitempty"`
	Deploying bool                    `json:"deploying,omitempty"`
	// Overlays are shapes the rules measure with, drawn for the firer they belong to:
	// an artillery battery's arc of fire, its frontage zone and centre of fire, a unit's
	// enfilade arcs. Empty in systems that need none.
	Overlays []Overlay `json:"overlays,omitempty"`
	// Columns are the columns of the page's table of units, beside each unit's name
	// and side.
	Columns []ColumnView `json:"columns,omitempty"`
}

// ColumnView is one column of the page's table of units: a value of the units' state
// (UnitState.Values) that matters in this system, and how it reads. A unit without the
// value leaves its cell empty (a leader has no bases).
type ColumnView struct {
	Label string `json:"label"`
	// Key is the value shown, and Of the value it is out of, if any: "2/3".
	Key string `json:"key,omitempty"`
	Of  string `json:"of,omitempty"`
	// Levels name the value by its index, best first: a morale ladder, ammunition.
	Levels []string `json:"levels,omitempty"`
	// Flags, instead of Key, are values shown in one cell by their labels where they
	// are not 0: "damaged, saved fire", or "deployed 2" for a flag that counts.
	Flags []FlagView `json:"flags,omitempty"`
	// Help says what the column is, in the header's tooltip.
	Help string `json:"help,omitempty"`
}

// FlagView is one value of a ColumnView's Flags.
type FlagView struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	// Count shows the value after the label.
	Count bool `json:"count,omitempty"`
}

// Overlay is one shape drawn over the table for a firer, while it is chosen, or always
// when Owner is empty (an obstacle). Kind says what it is, for its style: "arc",
// "zone", "line", "enfilade" or "obstacle".
type Overlay struct {
	Owner string `json:"owner,omitempty"`
	Kind  string `json:"kind"`
	Label string `json:"label,omitempty"`
	// Points is a closed polygon for arcs and zones, an open polyline for lines, in the
	// view's unit.
	Points [][2]float64 `json:"points"`
}

// TablePiece is a piece of terrain: a footprint and a height.
type TablePiece struct {
	ID        string       `json:"id"`
	Polygon   [][2]float64 `json:"polygon"`
	Height    float64      `json:"height"`
	BlocksLOS bool         `json:"blocks_los"`
	// Levels are the floors a model may stand on within the piece (WarStrike's ruins),
	// lowest first; none for a piece without.
	Levels []TableLevel `json:"levels,omitempty"`
}

// TableLevel is a floor within a piece of terrain: its height above the table and, when
// it covers only part of the piece, where it is (nil: the piece's whole footprint).
type TableLevel struct {
	Height  float64      `json:"height"`
	Polygon [][2]float64 `json:"polygon,omitempty"`
}

// TableUnit is one model or unit on the table.
type TableUnit struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Side  string `json:"side"`
	Squad string `json:"squad,omitempty"`
	// Placed is false for a unit the scenario gives no position (Warfare allows it);
	// X and Y are then meaningless.
	Placed bool    `json:"placed"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	// Base is the base's diameter; 0 when the system gives bases no size.
	Base float64 `json:"base"`
	// Facing is the compass bearing the unit faces, nil in systems without facing.
	Facing *float64 `json:"facing,omitempty"`
	// Bases are the unit's rectangular bases, each its four corners in order, for
	// systems whose units are blocks of bases (Republique); X, Y is then the centre of
	// the unit and Base is 0. Empty: the unit is one round base of diameter Base.
	Bases     [][4][2]float64 `json:"bases,omitempty"`
	Weapons   []WeaponView    `json:"weapons"`
	Destroyed bool            `json:"destroyed"`
	// Move is how the unit may move now; nil when the system's units do not move.
	Move *MoveView `json:"move,omitempty"`
}

// FitBounds sets Bounds to take in every placed unit's base and every piece of terrain,
// with a margin of a tenth of the larger side (at least one unit of distance) so that
// nothing sits on the drawing's edge. Range rings may run off it.
func (v *TableView) FitBounds() {
	first := true
	grow := func(x, y, r float64) {
		if first {
			v.Bounds, first = [4]float64{x - r, y - r, x + r, y + r}, false
			return
		}
		v.Bounds = [4]float64{min(v.Bounds[0], x-r), min(v.Bounds[1], y-r), max(v.Bounds[2], x+r), max(v.Bounds[3], y+r)}
	}
	for _, u := range v.Units {
		if u.Placed {
			grow(u.X, u.Y, u.Base/2)
		}
		for _, b := range u.Bases {
			for _, p := range b {
				grow(p[0], p[1], 0)
			}
		}
	}
	for _, t := range v.Terrain {
		for _, p := range t.Polygon {
			grow(p[0], p[1], 0)
		}
	}
	if first {
		v.Bounds = [4]float64{0, 0, 1, 1}
	}
	m := max(1, max(v.Bounds[2]-v.Bounds[0], v.Bounds[3]-v.Bounds[1])/10)
	v.Bounds = [4]float64{v.Bounds[0] - m, v.Bounds[1] - m, v.Bounds[2] + m, v.Bounds[3] + m}
}

// DeclareView describes the action a player builds on the page: who may act (Choices),
// how targets are declared (Rows), and the fields an action and each target take.
type DeclareView struct {
	// Title heads the panel; FirerLabel names a choice ("Squad", "Firing unit",
	// "Battery"); Prompt is the empty choice of the list ("— choose a squad —"); Verb is
	// the button that resolves the action ("Shoot", "Fire"), unless Verbs says more.
	Title      string `json:"title"`
	FirerLabel string `json:"firer_label"`
	Prompt     string `json:"prompt,omitempty"`
	Verb       string `json:"verb"`
	// Verbs, when there are several kinds of action for the same choice, are a button
	// each instead of Verb: Republique's "Fire" and "Save fire".
	Verbs   []VerbView   `json:"verbs,omitempty"`
	Help    string       `json:"help,omitempty"`
	Choices []ChoiceView `json:"choices"`
	// Rows is how targets are declared: "weapons" (a row per weapon of the chosen units,
	// each with its own target, sent under RowsKey as {unit, weapon, TargetKey}),
	// "targets" (a row per target the player adds, sent under RowsKey as {TargetKey,
	// RowFields…}) or "single" (one target, sent at the top level under TargetKey, and
	// which may be left out when the rules choose it).
	Rows      string `json:"rows"`
	RowsKey   string `json:"rows_key,omitempty"`
	TargetKey string `json:"target_key"`
	// RowFields are the fields of each target row; Fields those of the whole action.
	RowFields []FieldView `json:"row_fields,omitempty"`
	Fields    []FieldView `json:"fields,omitempty"`
	// Values names the levels of a state value shown as a number (ammo: ok, low, out).
	Values map[string][]string `json:"values,omitempty"`
	// TargetSquad says a target is a squad of models (TableUnit.Squad): pointing at a
	// model aims at, and clicking it declares, the squad it belongs to (WarStrike).
	TargetSquad bool `json:"target_squad,omitempty"`
	// SightLines says the aim of one target holds many shooter–target pairs (every
	// firing model at every model of the target), each drawn as its own line of sight.
	SightLines bool `json:"sight_lines,omitempty"`
}

// ChoiceView is one thing a player may choose to act with: a squad, a unit, a battery,
// a group of batteries or a skirmish marker. Action holds the action's fields that the
// choice fixes ({"squad": "sabres"}, {"type": "fire", "batteries": ["b1", "b2"]}); Units
// are the units that act, drawn as the firers (clicking one chooses the first choice it
// is in, unless the chosen one holds it); Count is what RowFields with Share divide (a
// unit's stands); Note is a line about the choice shown while it is chosen ("6 stands
// can fire; ammunition low").
type ChoiceView struct {
	Label  string         `json:"label"`
	Side   string         `json:"side"`
	Units  []string       `json:"units"`
	Action map[string]any `json:"action"`
	Count  int            `json:"count,omitempty"`
	Note   string         `json:"note,omitempty"`
	// NeedsTarget says that, where rows are "single", this choice must name its target:
	// the rules choose none for it (a Republique skirmish marker, where a battery fires
	// at its main target). A page asks nothing of it before a target is chosen.
	NeedsTarget bool `json:"needs_target,omitempty"`
}

// VerbView is one button of several that resolve the chosen action. Action holds the
// fields the verb sets over the choice's ({"type": "save"}); NoTarget says the verb sends
// no target nor rows and needs none (saving fire).
type VerbView struct {
	Label    string         `json:"label"`
	Action   map[string]any `json:"action,omitempty"`
	NoTarget bool           `json:"no_target,omitempty"`
}

// FieldView is one field of an action or of a target row. Kind is "number" (Share: by
// default the choice's Count shared out evenly among the rows, the first taking any
// remainder), "select" (Options; Empty labels the empty choice, which sends nothing),
// "checks" (Options, sent as a list of those ticked), "flag" (sent as true when ticked)
// or "unit_numbers" (a number per acting unit, sent as {unit: n} for those above 0). A
// field of the whole action may be a "select", a "flag" or "unit_numbers".
type FieldView struct {
	Key     string   `json:"key"`
	Label   string   `json:"label"`
	Kind    string   `json:"kind"`
	Options []string `json:"options,omitempty"`
	Empty   string   `json:"empty,omitempty"`
	Share   bool     `json:"share,omitempty"`
}
