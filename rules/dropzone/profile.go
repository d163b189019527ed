package dropzone

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// Numbers the rules print. Each is the default of the rule it names; none is an option
// because the seed states them as fixed.
const (
	// DieSides: every roll in this system is a D6.
	DieSides = 6
	// AlwaysHitRoll: a to-hit roll of 6 hits whatever the modifiers.
	AlwaysHitRoll = 6
	// HullDownPenalty is added to the accuracy of a weapon whose firer sees less than half
	// of the target.
	HullDownPenalty = 2
	// HullDownVisibleFraction: a target of which less than this fraction is visible is
	// hull down.
	HullDownVisibleFraction = 0.5
	// OutOfCoherencyPenalty is added to the accuracy of every weapon of a squad out of
	// coherency.
	OutOfCoherencyPenalty = 1
	// DisembarkedPenalty is added to the accuracy of every weapon of a squad that left its
	// transport during this activation.
	DisembarkedPenalty = 2
	// NoDamageRoll: a damage die showing this never damages.
	NoDamageRoll = 1
	// NormalDamage is inflicted when the damage roll plus energy equals or beats armour.
	NormalDamage = 1
	// CriticalMargin: beating armour by this much or more is a critical.
	CriticalMargin = 2
	// CriticalDamage is inflicted by a critical.
	CriticalDamage = 2
	// PassiveCountermeasureEnergyLimit: passive countermeasures cannot be used against a
	// weapon of this energy or more.
	PassiveCountermeasureEnergyLimit = 13
	// ArticulatedRise is how far above the model an Articulated weapon may draw line of
	// sight from, in inches.
	ArticulatedRise = 1.0
)

// MoveAndFire is a weapon's M&F value: the furthest its unit may move in the activation
// and still fire it. Any stands for a dash in the profile: no move is too long.
type MoveAndFire struct {
	Any bool
	Max scenario.Length
}

// Allows reports whether a unit that moved d may fire the weapon. Moving exactly the M&F
// value is allowed.
func (m MoveAndFire) Allows(d scenario.Length) bool { return m.Any || d <= m.Max+lengthEpsilon }

// DecodeScalar reads "-" or a length such as 4".
func (m *MoveAndFire) DecodeScalar(s scenario.Scalar) error {
	if isDash(s.Text) {
		*m = MoveAndFire{Any: true}
		return nil
	}
	l, err := scenario.ParseLength(s.Text, s.Unit)
	if err != nil {
		return fmt.Errorf(`want a distance such as 4" or "-" for any move: %w`, err)
	}
	*m = MoveAndFire{Max: l}
	return nil
}

func (m MoveAndFire) String() string {
	if m.Any {
		return "-"
	}
	return formatInches(m.Max)
}

// RangeKind tells how a weapon's range is written.
type RangeKind uint8

// The kinds of range.
const (
	RangeFinite        RangeKind = iota // a distance
	RangeInfinite                       // ∞: anywhere on the table
	RangeCloseQuarters                  // CQ: only at a target in the same garrison
	RangeNone                           // "-": the weapon has no range of this kind
)

// Range is a weapon's full range R(F) or countered range R(C).
type Range struct {
	Kind   RangeKind
	Length scenario.Length
}

// Reaches reports whether a target at edge distance d is within range. The range's own
// value is inside it.
func (r Range) Reaches(d float64) bool {
	switch r.Kind {
	case RangeInfinite:
		return true
	case RangeFinite:
		return d <= r.Length.Inches()+lengthEpsilon
	}
	return false
}

// DecodeScalar reads ∞ (or inf), CQ, "-" or a length.
func (r *Range) DecodeScalar(s scenario.Scalar) error {
	t := strings.TrimSpace(s.Text)
	switch {
	case strings.HasPrefix(t, "-") && s.Kind == scenario.KindInf:
		return fmt.Errorf("a range cannot be negative, got %q", s.Text)
	case s.Kind == scenario.KindInf || t == "∞" || strings.EqualFold(t, "inf") || strings.EqualFold(t, "infinite"):
		*r = Range{Kind: RangeInfinite}
	case strings.EqualFold(t, "CQ"):
		*r = Range{Kind: RangeCloseQuarters}
	case isDash(t):
		*r = Range{Kind: RangeNone}
	default:
		l, err := scenario.ParseLength(t, s.Unit)
		if err != nil {
			return fmt.Errorf(`want a distance such as 24", ∞, CQ or "-": %w`, err)
		}
		*r = Range{Kind: RangeFinite, Length: l}
	}
	return nil
}

func (r Range) String() string {
	switch r.Kind {
	case RangeInfinite:
		return "∞"
	case RangeCloseQuarters:
		return "CQ"
	case RangeNone:
		return "-"
	}
	return formatInches(r.Length)
}

// Arc is a weapon's arc of fire, written as the seed writes it: F, S, R joined by "/",
// with SL or SR for one side only (also accepted: S(L), S(R), L, Rt for right).
type Arc struct{ geom.Arc }

// DecodeScalar reads an arc such as F/S/R or F/SL.
func (a *Arc) DecodeScalar(s scenario.Scalar) error {
	arc, err := ParseArc(s.Text)
	if err != nil {
		return err
	}
	*a = Arc{arc}
	return nil
}

// ParseArc reads an arc of fire written as in a weapon profile.
func ParseArc(text string) (geom.Arc, error) {
	var arc geom.Arc
	parts := strings.Split(text, "/")
	for _, p := range parts {
		switch strings.ToUpper(strings.TrimSpace(p)) {
		case "F":
			arc |= geom.ArcFront
		case "S":
			arc |= geom.ArcSide
		case "SL", "S(L)", "L", "LEFT":
			arc |= geom.ArcLeft
		case "SR", "S(R)", "RT", "RIGHT":
			arc |= geom.ArcRight
		case "R":
			arc |= geom.ArcRear
		case "360":
			arc |= geom.ArcAll
		default:
			return 0, fmt.Errorf("unknown arc %q in %q: use F, S, SL, SR and R joined by /", strings.TrimSpace(p), text)
		}
	}
	return arc, nil
}

// Accuracy is the roll a weapon needs to hit before modifiers. Auto means a dash: the
// weapon hits without rolling. An accuracy of 0 rolls as normal.
type Accuracy struct {
	Auto  bool
	Value int
}

// MaxAccuracy bounds accuracy and evasion values: past 6 only the always-hit 6 hits
// anyway, so larger numbers can only be typos.
const MaxAccuracy = 12

// Bounds on the other numbers of a stat sheet and a table. None is a rule; each keeps a
// typo from turning into an overflow or a computation that never ends.
const (
	// MaxStat bounds armour and energy.
	MaxStat = 100
	// MaxDamagePoints bounds a unit's damage points: enough for a fortress to take the
	// most damage one action can do (MaxShotsPerAction shots of 2 each) without a cap.
	MaxDamagePoints = 10000
	// MaxDevastator bounds X in Devastator X.
	MaxDevastator = 10
	// MaxDistance bounds every length and coordinate, in inches (over 250 m).
	MaxDistance = 10000
)

// DecodeScalar reads "3+", 3, 0 or "-".
func (a *Accuracy) DecodeScalar(s scenario.Scalar) error {
	t := strings.TrimSpace(s.Text)
	if isDash(t) {
		*a = Accuracy{Auto: true}
		return nil
	}
	v, err := strconv.Atoi(strings.TrimSuffix(t, "+"))
	if err != nil || v < 0 || v > MaxAccuracy {
		return fmt.Errorf(`want a roll such as 3+ (0 to %d), or "-" for an automatic hit; got %q`, MaxAccuracy, s.Text)
	}
	*a = Accuracy{Value: v}
	return nil
}

func (a Accuracy) String() string {
	if a.Auto {
		return "-"
	}
	return strconv.Itoa(a.Value) + "+"
}

// TargetNumber is the D6 roll a test needs, written "5+" or 5, as for passive
// countermeasures. 0 means there is no test.
type TargetNumber int

// DecodeScalar reads "5+" or 5; 0 means none.
func (r *TargetNumber) DecodeScalar(s scenario.Scalar) error {
	t := strings.TrimSpace(s.Text)
	if s.Kind == scenario.KindNull || t == "" || isDash(t) {
		*r = 0
		return nil
	}
	v, err := strconv.Atoi(strings.TrimSuffix(t, "+"))
	if err != nil || v < 0 || v > DieSides+1 {
		return fmt.Errorf("want a D6 roll such as 5+ (0 for none), got %q", s.Text)
	}
	*r = TargetNumber(v)
	return nil
}

// Shots is how many shots a weapon has: a number, or a dice expression such as D3 for
// weapons whose number of shots is rolled (an extension; the seed only shows numbers).
type Shots struct{ expr dice.Expr }

// MaxShots bounds the shots of one weapon, and MaxShotsPerAction those of a whole
// squad's action, so a typo cannot ask for a billion dice. Exact odds of the largest
// action take a few milliseconds (docs/benchmarks.md).
const (
	MaxShots          = 2000
	MaxShotsPerAction = 2000
)

// MaxRolledShots bounds a rolled number of shots (D3, 2D6…): exact odds over a rolled
// count cost the square of its largest value.
const MaxRolledShots = 100

// DecodeScalar reads a whole number or a dice expression without variables.
func (n *Shots) DecodeScalar(s scenario.Scalar) error {
	e, err := dice.ParseExpr(s.Text)
	if err != nil || len(e.Vars()) > 0 {
		return fmt.Errorf("want a number of shots such as 2 or D3, got %q", s.Text)
	}
	lo, err := e.Min(nil)
	if err != nil {
		return err
	}
	hi, err := e.Max(nil)
	if err != nil {
		return err
	}
	if lo < 0 || hi > MaxShots {
		return fmt.Errorf("shots must lie between 0 and %d, %q ranges from %d to %d", MaxShots, s.Text, lo, hi)
	}
	if _, fixed := e.Const(); !fixed && hi > MaxRolledShots {
		return fmt.Errorf("a rolled number of shots may reach at most %d, %q reaches %d", MaxRolledShots, s.Text, hi)
	}
	if _, err := e.Dist(nil); err != nil {
		return err
	}
	*n = Shots{e}
	return nil
}

// Dist is the distribution of the number of shots.
func (n Shots) Dist() dice.Dist {
	d, err := n.expr.Dist(nil)
	if err != nil { // DecodeScalar rejected variables and oversized spans
		panic("dropzone: shots: " + err.Error())
	}
	return d
}

// Max is the largest number of shots the weapon can have.
func (n Shots) Max() int {
	m, err := n.expr.Max(nil)
	if err != nil { // DecodeScalar rejected variables
		panic("dropzone: shots: " + err.Error())
	}
	return m
}

// Const returns the number of shots when it is not rolled.
func (n Shots) Const() (int, bool) { return n.expr.Const() }

// Roll rolls the number of shots.
func (n Shots) Roll(d *dice.Stream, purpose string) int {
	v, err := n.expr.Roll(d, purpose, nil)
	if err != nil { // DecodeScalar rejected variables
		panic("dropzone: shots: " + err.Error())
	}
	return v
}

func (n Shots) String() string { return n.expr.String() }

// Special is one special rule on a weapon: a name and, for rules such as Devastator X,
// a value.
type Special struct {
	Name  string
	Value int
	Has   bool // Value was given
}

// Specials volley knows. The seed names them without defining them; the readings are in
// docs/rules/dropzone.md.
const (
	SpecialArticulated = "Articulated"
	SpecialDevastator  = "Devastator"
)

// DecodeScalar reads "Articulated", "Devastator 2", "Devastator-2" or "Devastator(2)".
func (sp *Special) DecodeScalar(s scenario.Scalar) error {
	t := strings.TrimSpace(s.Text)
	if t == "" {
		return fmt.Errorf("empty special rule")
	}
	name, val := t, ""
	if i := strings.LastIndexFunc(t, func(r rune) bool { return !unicode.IsDigit(r) && r != ')' }); i >= 0 && i < len(t)-1 {
		name, val = t[:i+1], strings.TrimSuffix(t[i+1:], ")")
	}
	name = strings.TrimRight(strings.TrimSpace(name), "-( ")
	*sp = Special{Name: canonicalSpecial(name)}
	if val != "" {
		v, err := strconv.Atoi(val)
		if err != nil {
			return fmt.Errorf("special rule %q: bad value %q", t, val)
		}
		sp.Value, sp.Has = v, true
	}
	if sp.Name == SpecialDevastator && (!sp.Has || sp.Value < 1 || sp.Value > MaxDevastator) {
		return fmt.Errorf("special rule %q needs a value from 1 to %d, as in Devastator 2", t, MaxDevastator)
	}
	return nil
}

func (sp Special) String() string {
	if sp.Has {
		return fmt.Sprintf("%s %d", sp.Name, sp.Value)
	}
	return sp.Name
}

// canonicalSpecial spells the rules volley knows the way the book does, whatever the case.
func canonicalSpecial(name string) string {
	for _, k := range []string{SpecialArticulated, SpecialDevastator} {
		if strings.EqualFold(name, k) {
			return k
		}
	}
	return name
}

// lengthEpsilon absorbs float noise when a measured distance equals a printed range.
const lengthEpsilon = 1e-9

func isDash(t string) bool {
	t = strings.TrimSpace(t)
	return t == "-" || t == "–" || t == "—"
}

func formatInches(l scenario.Length) string {
	return strconv.FormatFloat(math.Round(l.Inches()*1000)/1000, 'f', -1, 64) + `"`
}

// formatLength writes a length in inches in the scenario's unit.
func (b *Battle) formatLength(inches float64) string { return scenario.Inches(inches).Format(b.unit) }

// roundLength converts inches to the scenario's unit, rounded to a thousandth so that
// output does not show float noise.
func roundLength(inches float64, u scenario.Unit) float64 {
	return math.Round(scenario.Inches(inches).In(u)*1000) / 1000
}

// display writes a range for a reason text in the scenario's unit.
func (r Range) display(b *Battle) string {
	if r.Kind == RangeFinite {
		return b.formatLength(r.Length.Inches())
	}
	return r.String()
}
