package scenario

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Unit is the length unit a scenario document writes distances in.
// The zero Unit means Inch, the unit most rule books use.
type Unit string

// The units a document may choose with its top-level distances: key.
const (
	Inch       Unit = "in"
	Centimetre Unit = "cm"
)

// CentimetresPerInch converts between the two units; it is exact by definition.
const CentimetresPerInch = 2.54

// OrInch is u, or Inch where u is the zero Unit: the unit a battle built without a
// document (the zero Unit) measures and shows its lengths in.
func (u Unit) OrInch() Unit {
	if u == "" {
		return Inch
	}
	return u
}

// perInch returns how many of u make an inch.
func (u Unit) perInch() float64 {
	if u == Centimetre {
		return CentimetresPerInch
	}
	return 1
}

// DecodeScalar accepts "in" or "cm". Checking here, rather than when a
// distance is read, puts the error on the distances: line where it belongs.
func (u *Unit) DecodeScalar(s Scalar) error {
	switch Unit(s.Text) {
	case Inch, Centimetre:
		*u = Unit(s.Text)
		return nil
	}
	return fmt.Errorf("want %q or %q, got %s", Inch, Centimetre, s.got())
}

var _ ScalarDecoder = (*Unit)(nil)

// Length is a distance on the table, stored in inches whatever the unit of the
// document it came from, so that rules never need to know that unit.
//
// In a document a Length is a number in the document's unit (see Header's
// Distances) or a number with an explicit unit: 4", 4in, 10cm, 2.5 cm.
// A Length is never negative. Infinity is not a Length: a rule system whose
// weapons may have unlimited range wraps Length in a type of its own.
type Length float64

// Inches returns a Length of x inches.
func Inches(x float64) Length { return Length(x) }

// Centimetres returns a Length of x centimetres.
func Centimetres(x float64) Length { return Length(x / CentimetresPerInch) }

// Inches returns l in inches.
func (l Length) Inches() float64 { return float64(l) }

// In returns l in unit u, for output in the player's own unit.
func (l Length) In(u Unit) float64 { return float64(l) * u.perInch() }

// DecodeScalar reads a Length written as a number or as a string with a unit.
func (l *Length) DecodeScalar(s Scalar) error {
	x, err := lengthOf(s)
	if err != nil {
		return err
	}
	if x < 0 {
		return errNegativeLength(s.Text)
	}
	*l = Length(x)
	return nil
}

var _ ScalarDecoder = (*Length)(nil)

// ParseLength reads a Length written as in a scenario document whose unit is
// u: "12" (in unit u), "4\"", "4in", "4 in", "10cm". It is the parsing
// DecodeScalar uses, for rule packages whose types wrap Length.
func ParseLength(text string, u Unit) (Length, error) {
	x, err := parseSignedLength(text, u)
	if err != nil {
		return 0, err
	}
	if x < 0 {
		return 0, errNegativeLength(text)
	}
	return Length(x), nil
}

func errNegativeLength(text string) error {
	return fmt.Errorf("a length cannot be negative, got %s", strings.TrimSpace(text))
}

// lengthOf reads s as a signed distance in inches. Numbers written as
// numbers take the document's unit; strings may name their own.
func lengthOf(s Scalar) (float64, error) {
	switch s.Kind {
	case KindInt, KindFloat:
		x, ok := parseNumber(s)
		if !ok || math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, errBadLength(s)
		}
		return bounded(x/s.Unit.perInch(), s.Text)
	case KindString:
		return parseSignedLength(s.Text, s.Unit)
	}
	return 0, errBadLength(s)
}

// bounded refuses a distance beyond MaxLength in either direction.
func bounded(inches float64, text string) (float64, error) {
	if math.Abs(inches) > MaxLength {
		return 0, fmt.Errorf("a length or coordinate lies within ±%d inches, got %s", MaxLength, strings.TrimSpace(text))
	}
	return inches, nil
}

func errBadLength(s Scalar) error {
	return fmt.Errorf(`want a length like 6, 6" or 15cm, got %s`, s.got())
}

// lengthUnits are the unit suffixes a length may carry.
var lengthUnits = map[string]Unit{`"`: Inch, "in": Inch, "cm": Centimetre}

// parseSignedLength reads a number with an optional unit, in inches.
// Negative values are allowed so that Point coordinates can share it.
func parseSignedLength(text string, u Unit) (float64, error) {
	t := strings.TrimSpace(text)
	end := strings.IndexFunc(t, func(r rune) bool {
		return !strings.ContainsRune("0123456789.+-eE_", r)
	})
	if end < 0 {
		end = len(t)
	}
	num, suffix := t[:end], strings.TrimSpace(t[end:])
	x, err := strconv.ParseFloat(strings.ReplaceAll(num, "_", ""), 64)
	if num == "" || err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, errBadLength(Scalar{Text: text, Kind: KindString})
	}
	if suffix != "" {
		unit, ok := lengthUnits[suffix]
		if !ok {
			return 0, fmt.Errorf(`unknown unit %q in length %q (want in, " or cm)`, suffix, t)
		}
		u = unit
	}
	return bounded(x/u.perInch(), text)
}

// Point is a position on the table in inches, written [x, y] or {x: …, y: …}.
// Each coordinate is a number in the document's unit or carries its own, as a
// Length does, but unlike a Length it may be negative: the table's origin need
// not be a corner. Decode handles Point itself, because it is written as a
// list or a mapping and so cannot be a ScalarDecoder, yet needs the unit.
type Point struct{ X, Y float64 }

// Skip is a field that takes any value and decodes none of it: for a section a rule
// system decodes on its own (an action, whose type decides its form), so that the key is
// known to the scenario's type without being decoded twice.
type Skip struct{}

// Header is the part of a scenario that every rule system shares. Embed it
// in a rule system's scenario type; as an anonymous field its fields belong to
// the top-level mapping.
type Header struct {
	// Ruleset names the rule system that reads the rest of the file.
	Ruleset     string `yaml:"ruleset,required"`
	Title       string `yaml:"title"`
	Description string `yaml:"description"`
	// Sample, when set, says that the stats are sample data rather than
	// figures from an official book, and why; tools show it to the player.
	Sample string `yaml:"sample"`
	// Distances is "in" or "cm"; empty means inches.
	Distances Unit `yaml:"distances"`
	// Table is the playing area: no base may leave it. Without it the table has no
	// edge a move could cross.
	Table *TableSpec `yaml:"table"`
	// Deployment is each side's deployment zone, a polygon, where its units may be
	// placed before the first action; a side without one deploys anywhere on the table.
	Deployment map[string][]Point `yaml:"deployment"`
	// End says when the battle ends by itself and how it is scored (see EndSpec): not
	// in any rule system's text, volley's own.
	End *EndSpec `yaml:"end"`
	// DeploymentOrder is how the sides take turns to deploy (from edition 5): "sides"
	// (each deploys its units, then passes) or "alternate" (a unit each in turn). Given
	// without zones, the sides deploy anywhere on the table.
	DeploymentOrder string `yaml:"deployment_order"`
	// Opponent names a side that volley plays (see OpponentSpec): a battle served with
	// it gives that side no token, and the server takes its actions. Not in any rule
	// system's text; the command line ignores it.
	Opponent *OpponentSpec `yaml:"opponent"`
	// Dice says who rolls the battle's dice: "server" (the default: a server rolls every
	// die from the battle's secret seed) or "players" (the players roll them by hand at
	// the table and give each one as volley asks for it; the server rolls none).
	Dice DiceSource `yaml:"dice"`
	// Actions lists actions played in order after the scenario is set up, each in the
	// form of an `action:` section: a move, then a shot. The command line plays them.
	Actions Skip `yaml:"actions"`
}

// OpponentSpec is the side volley plays in a served battle, and how: a level (random,
// greedy, teaching or strong; teaching when left out) and a style from cautious to bold
// (a name or a number from 0 to 1; balanced when left out). The opponent package reads
// and checks it.
type OpponentSpec struct {
	Side  string `yaml:"side,required"`
	Level string `yaml:"level"`
	Style string `yaml:"style"`
}

// The deployment orders a scenario's deployment_order may name.
const (
	// DeploySides: each side deploys all the units it will, then passes (the default,
	// unless the battle's activations alternate).
	DeploySides = "sides"
	// DeployAlternate: the sides place one unit each in turn (the default where the
	// battle's activations alternate).
	DeployAlternate = "alternate"
)

// Choices are the values of Header's string fields that allow only some.
func (Header) Choices() map[string][]any {
	return map[string][]any{"deployment_order": Values(DeploySides, DeployAlternate)}
}

// DiceSource says who rolls a battle's dice (Header.Dice).
type DiceSource string

// Who rolls the dice.
const (
	// DiceServer: the server rolls every die, from the battle's secret seed (the
	// default).
	DiceServer DiceSource = "server"
	// DicePlayers: the players roll by hand and give each die as volley asks for it.
	DicePlayers DiceSource = "players"
)

// DecodeScalar reads server or players.
func (d *DiceSource) DecodeScalar(s Scalar) error {
	switch v := DiceSource(strings.TrimSpace(s.Text)); v {
	case DiceServer, DicePlayers:
		*d = v
		return nil
	}
	return fmt.Errorf("want %q or %q, got %s", DiceServer, DicePlayers, s.got())
}

// TableSpec is a rectangular table: its corner of least x and y, and its size.
type TableSpec struct {
	Corner Point  `yaml:"corner"`
	Width  Length `yaml:"width,required"`
	Height Length `yaml:"height,required"`
}

// Format writes l in unit u for people: 4" in inches, 10.2cm in centimetres, rounded
// to a thousandth.
func (l Length) Format(u Unit) string {
	v := strconv.FormatFloat(math.Round(l.In(u)*1000)/1000, 'f', -1, 64)
	if u == Centimetre {
		return v + "cm"
	}
	return v + `"`
}
