package republique

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// file is a Republique scenario as written.
type file struct {
	scenario.Header `yaml:",inline"`
	Options         Options       `yaml:"options"`
	Movement        movementSpec  `yaml:"movement"`
	Charts          chartsSpec    `yaml:"charts,required"`
	Morale          []string      `yaml:"morale"`
	Terrain         []terrainSpec `yaml:"terrain"`
	Units           []unitSpec    `yaml:"units,required"`
	Skirmishers     []markerSpec  `yaml:"skirmishers"`
	Leaders         []leaderSpec  `yaml:"leaders"`
	Turn            turnSpec      `yaml:"turn"`
	Action          scenario.Skip `yaml:"action"`
}

// Kind is a unit's arm.
type Kind string

// The arms. Light infantry may deploy skirmish markers; artillery units are batteries.
const (
	Infantry  Kind = "infantry"
	Cavalry   Kind = "cavalry"
	Light     Kind = "light"
	Artillery Kind = "artillery"
)

// DecodeScalar reads an arm.
func (k *Kind) DecodeScalar(s scenario.Scalar) error {
	return scenario.DecodeWord(k, s, Infantry, Cavalry, Light, Artillery)
}

// Formation is how a unit's bases stand.
type Formation string

// The formations. Squares are always enfilade targets.
const (
	Line   Formation = "line"
	Column Formation = "column"
	Square Formation = "square"
)

// DecodeScalar reads a formation.
func (f *Formation) DecodeScalar(s scenario.Scalar) error {
	return scenario.DecodeWord(f, s, Line, Column, Square)
}

// Cover is a defence class. The Assault section that defines the classes is not part of
// the phase's text, so which terrain is which class is the scenario's to say.
type Cover int

// The cover classes, from none to the most.
const (
	Open Cover = iota
	Solid
	Heavy
	Full
)

var coverNames = []string{"open", "solid", "heavy", "full"}

func (c Cover) String() string { return coverNames[c] }

// DecodeScalar reads a cover class.
func (c *Cover) DecodeScalar(s scenario.Scalar) error {
	i := slices.Index(coverNames, strings.TrimSpace(s.Text))
	if i < 0 {
		return fmt.Errorf("want open, solid, heavy or full, got %q", s.Text)
	}
	*c = Cover(i)
	return nil
}

type terrainSpec struct {
	ID      string           `yaml:"id,required"`
	Cover   Cover            `yaml:"cover"`
	Level   int              `yaml:"level"`
	Polygon []scenario.Point `yaml:"polygon"`
	// Line makes the piece an obstacle (a river, a redoubt's wall): a polyline.
	Line []scenario.Point `yaml:"line"`
}

type unitSpec struct {
	ID        string           `yaml:"id,required"`
	Name      string           `yaml:"name"`
	Side      string           `yaml:"side,required"`
	Kind      Kind             `yaml:"kind,required"`
	Formation Formation        `yaml:"formation"`
	Frontage  scenario.Length  `yaml:"frontage,required"`
	Depth     scenario.Length  `yaml:"depth,required"`
	Facing    float64          `yaml:"facing"`
	At        *scenario.Point  `yaml:"at"`
	Bases     int              `yaml:"bases"`
	Positions []scenario.Point `yaml:"positions"`
	Morale    string           `yaml:"morale"`
	// Deployed is how many skirmish markers a light unit has out; as many as its bases
	// makes it fully deployed.
	Deployed int    `yaml:"deployed"`
	Command  string `yaml:"command"`
	// Move is the unit's own movement rate, in place of its arm's (movement:).
	Move scenario.Length `yaml:"move"`
	// Batteries only.
	Gun          string `yaml:"gun"`
	Limbered     bool   `yaml:"limbered"`
	Damaged      bool   `yaml:"damaged"`
	SavedFire    bool   `yaml:"saved_fire"`
	Moved        bool   `yaml:"moved"`
	OutOfCommand bool   `yaml:"out_of_command"`
	// MoraleAtSegmentStart is the morale a battery had when the artillery fire segment
	// began, for a scenario that begins within the segment; by default its morale. It
	// decides Disordered+ (from edition 5, Edition5).
	MoraleAtSegmentStart string `yaml:"morale_at_segment_start"`
}

type markerSpec struct {
	ID       string          `yaml:"id,required"`
	Side     string          `yaml:"side"`
	Parent   string          `yaml:"parent,required"`
	At       scenario.Point  `yaml:"at,required"`
	Facing   float64         `yaml:"facing"`
	Frontage scenario.Length `yaml:"frontage"`
	Depth    scenario.Length `yaml:"depth"`
}

type leaderSpec struct {
	ID        string         `yaml:"id,required"`
	Name      string         `yaml:"name"`
	Side      string         `yaml:"side,required"`
	At        scenario.Point `yaml:"at,required"`
	Rating    int            `yaml:"rating"`
	Artillery bool           `yaml:"artillery"`
	Attached  string         `yaml:"attached"`
	Command   string         `yaml:"command"`
}

// turnSpec is where the order of play stands, and what has happened so far in the
// current player turn (for a scenario that begins in the middle of one).
type turnSpec struct {
	Order  []string `yaml:"order"`
	Side   string   `yaml:"side"`
	Number int      `yaml:"number"`
	Step   Step     `yaml:"step"`
	// Done are the batteries and markers that have fired or saved fire this player turn.
	Done []string `yaml:"done"`
	// Passed are the batteries that conducted passing fire this player turn.
	Passed []string `yaml:"passed"`
	// FiredUpon are the units fired upon this phase by a battery with a chance to hit or
	// by skirmishers; Skirmished those that suffered morale hits from skirmishers.
	FiredUpon  []string `yaml:"fired_upon"`
	Skirmished []string `yaml:"skirmished"`
	// BasesLost are the combat bases lost this player turn, where they stood.
	BasesLost []lostSpec `yaml:"bases_lost"`
	// Demoralized are the units that began this phase demoralized; by default those
	// demoralized when the scenario begins.
	Demoralized []string `yaml:"demoralized"`
}

type lostSpec struct {
	Unit string         `yaml:"unit,required"`
	At   scenario.Point `yaml:"at,required"`
}

// DefaultLadder is the morale ladder the text names, from the best state to the worst:
// each morale hit moves a unit one step down. A scenario may give its own ladder; it
// must keep these five names in this order (it may add steps between them).
var DefaultLadder = []string{"ordered", "disordered", "rattled", "shaken", "demoralized"}

// Default base sizes for markers, not in the source: 2 × 2 cm.
const defaultMarkerSize = 2.0

// Unit is a combat unit or a battery.
type Unit struct {
	ID, Name, Side string
	Kind           Kind
	Formation      Formation
	Facing         float64
	// W and D are each base's frontage and depth, in cm.
	W, D float64
	// Bases are the bases still on the table; Start how many the unit began with.
	Bases                                        []Rect
	Start                                        int
	Morale                                       int // index in the ladder
	Deployed                                     int
	Command                                      string
	Gun                                          string
	Limbered, Damaged, SavedFire, Moved, Outside bool
	// Move is the unit's own movement rate in cm, 0 for its arm's (edition 4).
	Move float64
}

// Battery reports whether the unit is artillery.
func (u *Unit) Battery() bool { return u.Kind == Artillery }

// CombatBases reports whether the unit's bases are combat bases: those of infantry,
// cavalry and light units. A battery is not a combat unit and its base is not a combat
// base, nor is a skirmish marker. This one definition decides the deep target count,
// the bases lost near a leader and what `turn.bases_lost` may name (from edition 3:
// earlier battles counted a battery's base in the first and accepted it in the last).
func (u *Unit) CombatBases() bool { return !u.Battery() }

// Destroyed reports whether the unit has no base left.
func (u *Unit) Destroyed() bool { return len(u.Bases) == 0 }

// Capacity is how many base hits destroy the unit: its bases, and for a battery one
// more while it is undamaged (its first base hit damages it).
func (u *Unit) Capacity() int {
	if u.Battery() && len(u.Bases) > 0 && !u.Damaged {
		return 2
	}
	return len(u.Bases)
}

// Marker is a skirmish marker, deployed from a light unit.
type Marker struct {
	ID, Side, Parent string
	R                Rect
}

// Leader is a leader on the table.
type Leader struct {
	ID, Name, Side string
	At             geom.Vec
	Rating         int
	Artillery      bool
	Attached       string
	Command        string
	// Gone is how the leader left the table (killed or injured), or "".
	Gone Injury
}

// Piece is terrain: an area of cover and level, or an obstacle line.
type Piece struct {
	ID    string
	Cover Cover
	Level int
	Poly  geom.Polygon
	Line  []geom.Vec
}

// cm converts a scenario point to centimetres.
func cm(p scenario.Point) geom.Vec {
	return geom.V(scenario.Length(p.X).In(scenario.Centimetre), scenario.Length(p.Y).In(scenario.Centimetre))
}

// layout places a unit's bases by its formation around its centre, when the scenario
// gives no positions (not in the source: a line stands side by side, a column and a
// square two bases wide, rows going back).
func layout(at geom.Vec, facing, w, d float64, n int, f Formation) []Rect {
	fwd, right := dir(facing), dir(facing+90)
	var out []Rect
	if f == Line || f == "" {
		for i := range n {
			x := (float64(i) - float64(n-1)/2) * w
			out = append(out, Rect{C: at.Add(right.Scale(x)), Facing: facing, W: w, D: d})
		}
		return out
	}
	cols := min(2, n)
	rows := (n + cols - 1) / cols
	for i := range n {
		c, r := i%cols, i/cols
		x := (float64(c) - float64(cols-1)/2) * w
		y := -(float64(r) - float64(rows-1)/2) * d
		out = append(out, Rect{C: at.Add(right.Scale(x)).Add(fwd.Scale(y)), Facing: facing, W: w, D: d})
	}
	return out
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
