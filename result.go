package volley

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/geom"
)

// AimStatus says whether a shot can be taken.
type AimStatus string

// The statuses a shot can have. Every rule system uses these five; the reason says which
// of its own rules decided.
const (
	StatusOK          AimStatus = "ok"
	StatusBlocked     AimStatus = "blocked"      // no line of sight
	StatusOutOfRange  AimStatus = "out_of_range" // beyond the weapon's range
	StatusOutOfArc    AimStatus = "out_of_arc"   // outside the weapon's arc of fire
	StatusNotEligible AimStatus = "not_eligible" // the shooter or weapon may not fire at this target at all
)

// Modifier is one named adjustment to a roll or a chance, in the units of the roll it
// adjusts (pips on a die, percentage points on a d100).
type Modifier struct {
	Rule  string  `json:"rule"`
	Value float64 `json:"value"`
}

// Aim is what a player sees when pointing a weapon at a target: whether the shot is
// possible, why not, and the true chance if it is.
type Aim struct {
	Shooter string    `json:"shooter"`
	Weapon  string    `json:"weapon"`
	Target  string    `json:"target"`
	Status  AimStatus `json:"status"`
	// Reason cites the rule that decided the status; for an ok shot it summarises it.
	Reason string `json:"reason"`
	// Range is the distance measured as the rule system measures it, in RangeUnit.
	Range     float64    `json:"range"`
	RangeUnit string     `json:"range_unit"`
	Modifiers []Modifier `json:"modifiers"`
	// Need is the roll (or percentage) needed after modifiers, as a player would say it:
	// for a die, the lowest face that succeeds. 0 when no roll is made (Auto).
	Need float64 `json:"need"`
	// Auto is true when the shot hits without a roll.
	Auto bool `json:"auto,omitempty"`
	// Die is the die Need is read against: 6 for "3+" on a D6, 100 for a percentage.
	Die int `json:"die,omitempty"`
	// PHit is the true probability that one shot hits, in [0,1]; 0 when the shot cannot
	// be taken.
	PHit float64 `json:"p_hit"`
	// Shots is how many shots the weapon puts on the target (the mean, if it is random).
	Shots float64 `json:"shots,omitempty"`
	// Notes are facts a player should know that change nothing volley computes, such as a
	// special rule volley keeps as data only.
	Notes []string `json:"notes,omitempty"`
	// NotNow, for a shot the rules would take as aimed but not at this moment (another
	// side's turn, another phase or step, the shooter's activation over), says why not
	// and, where the rules say, when it may: the rest of the aim is the shot as it would
	// be then, worked out on the table as it stands. Empty when the shot may be taken now
	// (or may not be taken at all: Status says why).
	NotNow string `json:"not_now,omitempty"`
	// Forced is the target the rules oblige the shooter to fire at instead, when they
	// choose the target for the player (Republique's main target rule).
	Forced string `json:"forced,omitempty"`
	// Line is the line of fire on a grid map, from the weapon's square to the target's,
	// for systems played on squares.
	Line []geom.Square `json:"line,omitempty"`
}

// Odds is the exact distribution of every outcome of an action.
type Odds struct {
	Aims    []Aim        `json:"aims"`
	Targets []TargetOdds `json:"targets"`
	// Values are the scalars players quote in this system, such as chance_to_hit.
	Values map[string]float64 `json:"values"`
	// Squares is where the shot may land on a grid map: a heat-map, every square with a
	// chance above zero, in row order.
	Squares []SquareOdds `json:"squares,omitempty"`
	// Joint is the joint distribution of a measure over several targets, where their
	// outcomes are not independent (a random factor shared by every target of a fire).
	Joint []JointOutcome `json:"joint,omitempty"`
}

// JointOutcome is one combination of outcomes over several targets and its probability.
type JointOutcome struct {
	Outcome map[string]int `json:"outcome"`
	P       float64        `json:"p"`
}

// SquareOdds is the probability that a shot ends on one square of a grid map.
type SquareOdds struct {
	X int     `json:"x"`
	Y int     `json:"y"`
	P float64 `json:"p"`
}

// TargetOdds is what an action may do to one target. Each measure (damage, hits,
// casualties…) has a distribution and its mean.
type TargetOdds struct {
	Target        string               `json:"target"`
	Distributions map[string]dice.Dist `json:"distributions"`
	Mean          map[string]float64   `json:"mean"`
	PDestroyed    float64              `json:"p_destroyed"`
}

// Step is one line of a resolution's trace: the rule applied, what went in, what came out.
// Enough steps reproduce a seed's worked example line by line.
type Step struct {
	Rule   string         `json:"rule"`
	Inputs map[string]any `json:"inputs"`
	Result any            `json:"result"`
}

// Outcome is a resolved action: every die, every step, and what happened to each target.
type Outcome struct {
	Rolls   []dice.Roll    `json:"rolls"`
	Trace   []Step         `json:"trace"`
	Targets []TargetResult `json:"targets"`
	// Landed is where each shot ended on a grid map, for systems played on squares, so
	// that a page can mark it; the trace says the same in words.
	Landed []geom.Square `json:"landed,omitempty"`
	// Luck says where the result fell in the exact distribution worked out before the
	// dice were rolled. A server adds it (Game.Luck); it is a reading of the result, not
	// part of it, so a replay that compares outcomes leaves it out.
	Luck *Luck `json:"luck,omitempty"`
}

// TargetResult is what a resolved action did to one target. Measures holds one count per
// measure the rule system inflicts (damage, hits, casualties…) and any state that follows
// (damage_points left). It is written to JSON flat: {"target": id, "<measure>": n, …,
// "destroyed": bool}.
type TargetResult struct {
	Target    string
	Measures  map[string]float64
	Destroyed bool
}

// MarshalJSON writes the flat form, measures in name order.
func (r TargetResult) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"target":`)
	id, err := json.Marshal(r.Target)
	if err != nil {
		return nil, err
	}
	b.Write(id)
	names := make([]string, 0, len(r.Measures))
	for k := range r.Measures {
		if k == "target" || k == "destroyed" {
			return nil, fmt.Errorf("volley: measure name %q is reserved", k)
		}
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		key, _ := json.Marshal(k)
		val, err := json.Marshal(r.Measures[k])
		if err != nil {
			return nil, err
		}
		b.WriteByte(',')
		b.Write(key)
		b.WriteByte(':')
		b.Write(val)
	}
	fmt.Fprintf(&b, `,"destroyed":%t}`, r.Destroyed)
	return b.Bytes(), nil
}

// UnmarshalJSON reads the flat form MarshalJSON writes.
func (r *TargetResult) UnmarshalJSON(data []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	*r = TargetResult{Measures: map[string]float64{}}
	for k, v := range m {
		var err error
		switch k {
		case "target":
			err = json.Unmarshal(v, &r.Target)
		case "destroyed":
			err = json.Unmarshal(v, &r.Destroyed)
		default:
			var f float64
			err = json.Unmarshal(v, &f)
			r.Measures[k] = f
		}
		if err != nil {
			return fmt.Errorf("volley: target result %q: %w", k, err)
		}
	}
	return nil
}

// State is a battle as players see it.
type State struct {
	// Turn says whose turn and which phase it is, for systems that keep turns.
	Turn  *Turn       `json:"turn,omitempty"`
	Units []UnitState `json:"units"`
}

// Turn is the side to act and the phase of its turn.
type Turn struct {
	Side  string `json:"side"`
	Phase string `json:"phase"`
	// Number counts the rounds, where the system keeps count.
	Number int `json:"number,omitempty"`
	// Done lists the squads or units that have acted this turn and may not again.
	Done []string `json:"done,omitempty"`
	// End is the action that ends this phase or turn, in the system's own form, so that a
	// page can offer it without knowing the rules.
	End map[string]any `json:"end,omitempty"`
	// Actions, while play waits on Side to answer something the other side did (a
	// Republique battery's passing fire at an enemy that moved across its front), are the
	// actions it may answer with, in the system's own form; End lets it pass.
	Actions []map[string]any `json:"actions,omitempty"`
	// Acting are the sides that may take an action of the rules now, in the order they
	// play: Side alone in most phases, both sides where the rules let both act (a
	// Republique skirmish or artillery step), the side answering a pause. Filled from the
	// battle's Offers (see Offers.Fill); nil where the battle says none.
	Acting []string `json:"acting,omitempty"`
}

// DeclaredTarget is a weapon's target declared and not yet fired.
type DeclaredTarget struct {
	Weapon string `json:"weapon"`
	// Target is a unit id or a square "x,y".
	Target   string `json:"target"`
	Friendly bool   `json:"friendly,omitempty"`
}

// UnitState is one unit's condition. Values holds the system's counters, such as
// damage_points.
type UnitState struct {
	ID        string             `json:"id"`
	Name      string             `json:"name,omitempty"`
	Side      string             `json:"side"`
	Values    map[string]float64 `json:"values"`
	Destroyed bool               `json:"destroyed"`
	// Targets are the unit's declared targets, for systems that declare before firing.
	Targets []DeclaredTarget `json:"targets,omitempty"`
	// MayAct says whether the unit may still act this turn (move, fire, or answer), now
	// or in a later phase or step of it; WhyNot says why not when it may not. Filled from
	// the battle's Offers (see Offers.Fill); nil where the battle says nothing.
	MayAct *bool  `json:"may_act,omitempty"`
	WhyNot string `json:"why_not,omitempty"`
}

// Board is implemented by battles fought on a square grid, so that the CLI and the
// page can draw the map.
type Board interface {
	Board() BoardView
}

// BoardView is a grid map as it stands: terrain by symbol, and the units on it.
type BoardView struct {
	Width  int `json:"width"`
	Height int `json:"height"`
	// Rows hold one symbol per square, row 0 first, as the map is written.
	Rows []string `json:"rows"`
	// Legend names the terrain each symbol stands for.
	Legend map[string]string `json:"legend"`
	Units  []BoardUnit       `json:"units"`
	// Moves says how the page builds a move (nil: units do not move in this battle).
	Moves *MoveForm `json:"moves,omitempty"`
	// Columns are the columns of the page's table of units (see TableView.Columns).
	Columns []ColumnView `json:"columns,omitempty"`
	// Zones are the sides' deployment zones, each a polygon in squares (a square lies in
	// one when its centre does); Deploying says units may still be placed (before the
	// battle's first action), as in TableView.
	Zones     map[string][][2]float64 `json:"zones,omitempty"`
	Deploying bool                    `json:"deploying,omitempty"`
	// Aim is how a page asks …/aim and …/odds about a unit's weapon at a square, in any
	// phase (nil: the battle's shots are not asked so). It is built as an Offer is (its
	// Action, the unit's id under Key, its Fields: the weapon, one of the unit's Weapons
	// by name; the square [column, row]; any flag), but it is a question, not an action
	// the battle takes now: the view's offers say what may be sent.
	Aim *Offer `json:"aim,omitempty"`
}

// BoardUnit is a unit on a grid map: its top-left square, size and facing, and the
// weapons it carries (ranges in squares).
type BoardUnit struct {
	ID     string  `json:"id"`
	Name   string  `json:"name,omitempty"`
	Side   string  `json:"side"`
	X      int     `json:"x"`
	Y      int     `json:"y"`
	Size   int     `json:"size"`
	Facing float64 `json:"facing"`
	// Group is the weapon group the unit fires this turn, 0 before it has chosen.
	Group   int          `json:"group,omitempty"`
	Weapons []WeaponView `json:"weapons,omitempty"`
	// Move is how the unit may move now, in squares; nil when units do not move.
	Move *MoveView `json:"move,omitempty"`
}
