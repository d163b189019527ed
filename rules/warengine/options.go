package warengine

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// Options are the readings of the rules a scenario may switch. Every one has a default
// that follows docs/rules/warengine.md.
type Options struct {
	// BaseDamageRoll replaces the default base damage roll of 50 (the seed calls it the
	// default of the rules, so a game may change it).
	BaseDamageRoll *int `yaml:"base_damage_roll"`
	// Cover chooses the cover modifier: "in_front" (the square in front of the target as
	// seen along the line of fire, default), "facing" (the square in front of the target's
	// facing), "occupied" (the target's own square) or "off".
	Cover Cover `yaml:"cover"`
	// Line chooses the squares a line of fire crosses: "bresenham" (default) or
	// "supercover".
	Line string `yaml:"line"`
	// CourageWhen reads the morale rule: "low" (morale at or below -50 gives courage, as
	// printed, default) or "high" (at or above +50 does).
	CourageWhen string `yaml:"courage_when"`
	// MoraleAffectsHit adds courage and panic to ChanceToHit as well as to the damage
	// check (default true: the seed lists them in both).
	MoraleAffectsHit *bool `yaml:"morale_affects_hit"`
	// RepeatTargeted says which square counts as targeted on a repeating weapon's second
	// and third picks: "original" (the square the player declared, when it lies in the
	// pick's area, default: "if you targeted a square"), "current" (the square the pick
	// starts from) or "none".
	RepeatTargeted string `yaml:"repeat_targeted"`
	// RepeatRecompute says what a repeated pick recomputes from its new starting square:
	// "first_pick" (nothing: ChanceToHit and MaxDistanceMissedBy are the first pick's, so
	// a shot ends at most 3 × MaxDistanceMissedBy from the declared square, default) or
	// "each_pick" (both worked out again from the weapon to the new square).
	RepeatRecompute string `yaml:"repeat_recompute"`
	// AimedRangeBy says whose size sets the aimed-shot range (10 squares per point of
	// size): "shooter" (default) or "target".
	AimedRangeBy string `yaml:"aimed_range_by"`
	// FriendlyDropsDouble takes the targeted square's double chance away from a
	// declaration made with friendly: true (not in the source, where the flag only lets a
	// friend's square be declared; default false).
	FriendlyDropsDouble *bool `yaml:"friendly_drops_double"`
	// DeviationArea says which squares of the area a pick chooses among: "all" (every
	// square, the firer's own included: the manual's area "includes all" its squares and
	// picks a unit "in either army", default) or "exclude_firer" (not the firer's own).
	DeviationArea string `yaml:"deviation_area"`
	// CorrectAroundFriends makes the correction of a target outside the weapon's envelope
	// skip squares of friendly units (not in the source; default false: the nearest
	// square inside the envelope, whatever stands on it).
	CorrectAroundFriends *bool `yaml:"correct_around_friends"`
	// Stun: a unit struck by a weapon of damage strength 0 ("to only stun and not kill")
	// may not fire in its side's next fire phase (default true; the manual gives the
	// purpose, not the effect).
	Stun *bool `yaml:"stun"`
	// Diagonal says what a diagonal step of a move costs of the unit's move (from
	// edition 4, when units move): "one" (a square, as the manual counts every distance
	// by the larger of the column and row differences, default) or "alternate" (every
	// second diagonal step of the unit's turn costs two; not in the source).
	Diagonal string `yaml:"diagonal"`
	// CutCorners lets a diagonal step pass between two blocked squares that meet at its
	// corner, a wall or a unit on each (not in the source; default false: a wall drawn
	// along a diagonal holds).
	CutCorners *bool `yaml:"cut_corners"`
	// FacingChangeMoves makes a change of facing in Phase I a move, so that a unit that
	// only turns is not aiming (not in the source; default false: a unit that stays on its
	// squares did not move, and may turn and aim).
	FacingChangeMoves *bool `yaml:"facing_change_moves"`
}

// The readings of a diagonal step's cost.
const (
	DiagonalOne       = "one"
	DiagonalAlternate = "alternate"
)

// The readings of "targeted" on a repeating weapon's second and third picks.
const (
	RepeatTargetCurrent  = "current"
	RepeatTargetOriginal = "original"
	RepeatTargetNone     = "none"
)

// The readings of the deviation area.
const (
	AreaAll          = "all"
	AreaExcludeFirer = "exclude_firer"
)

// Cover is the cover-modifier rule in use.
type Cover string

// The cover rules.
const (
	CoverInFront  Cover = "in_front"
	CoverFacing   Cover = "facing"
	CoverOccupied Cover = "occupied"
	CoverOff      Cover = "off"
)

// options are Options resolved to their values.
type options struct {
	baseDamageRoll       int
	cover                Cover
	line                 geom.LineAlgorithm
	courageHigh          bool
	moraleAffectsHit     bool
	repeatTargeted       string
	repeatFirstPick      bool
	aimedByTarget        bool
	friendlyDropsDouble  bool
	excludeFirer         bool
	correctAroundFriends bool
	stun                 bool
	diagonalAlternate    bool
	cutCorners           bool
	facingChangeMoves    bool
}

// choose checks a string option against its allowed values; "" picks the first.
func choose(doc *scenario.Doc, ptr *string, name string, allowed []string, errs *scenario.ErrorList) string {
	if *ptr == "" {
		return allowed[0]
	}
	for _, a := range allowed {
		if *ptr == a {
			return a
		}
	}
	errs.Add(doc.At(ptr), "%s: want one of %s, got %q", name, strings.Join(quoteAll(allowed), ", "), *ptr)
	return allowed[0]
}

func quoteAll(s []string) []string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(v)
	}
	return q
}

// resolveOptions gives each option its value: the scenario's, else the default of the
// edition the scenario is read under. Edition 1 battles, begun before volley's defaults
// came to follow the manual on repeating weapons, friendly declarations, the firer's
// squares, corrections and stuns, replay with the defaults they were played with.
func resolveOptions(doc *scenario.Doc, o *Options, errs *scenario.ErrorList) options {
	r := options{baseDamageRoll: BaseDamageRoll, moraleAffectsHit: true}
	old := volley.DocEdition(doc) < 2
	editionDefault := func(ptr *string, current, edition1 string) {
		if *ptr != "" {
			return
		}
		*ptr = current
		if old {
			*ptr = edition1
		}
	}
	flag := func(ptr *bool, current bool) bool {
		if ptr != nil {
			return *ptr
		}
		return current != old
	}
	if o.BaseDamageRoll != nil {
		r.baseDamageRoll = *o.BaseDamageRoll
		if r.baseDamageRoll < -MaxPercent || r.baseDamageRoll > MaxPercent {
			errs.Add(doc.At(o.BaseDamageRoll), "base_damage_roll out of bounds (±%d)", MaxPercent)
		}
	}
	cover := string(o.Cover)
	r.cover = Cover(choose(doc, &cover, "cover", []string{string(CoverInFront), string(CoverFacing), string(CoverOccupied), string(CoverOff)}, errs))
	if choose(doc, &o.Line, "line", []string{"bresenham", "supercover"}, errs) == "supercover" {
		r.line = geom.Supercover
	}
	r.courageHigh = choose(doc, &o.CourageWhen, "courage_when", []string{"low", "high"}, errs) == "high"
	if o.MoraleAffectsHit != nil {
		r.moraleAffectsHit = *o.MoraleAffectsHit
	}
	editionDefault(&o.RepeatTargeted, RepeatTargetOriginal, RepeatTargetCurrent)
	r.repeatTargeted = choose(doc, &o.RepeatTargeted, "repeat_targeted", []string{RepeatTargetOriginal, RepeatTargetCurrent, RepeatTargetNone}, errs)
	editionDefault(&o.RepeatRecompute, "first_pick", "each_pick")
	r.repeatFirstPick = choose(doc, &o.RepeatRecompute, "repeat_recompute", []string{"first_pick", "each_pick"}, errs) == "first_pick"
	r.aimedByTarget = choose(doc, &o.AimedRangeBy, "aimed_range_by", []string{"shooter", "target"}, errs) == "target"
	editionDefault(&o.DeviationArea, AreaAll, AreaExcludeFirer)
	r.excludeFirer = choose(doc, &o.DeviationArea, "deviation_area", []string{AreaAll, AreaExcludeFirer}, errs) == AreaExcludeFirer
	// Each is false by default in the current edition and true in edition 1, but stun,
	// which edition 1 did not have.
	r.friendlyDropsDouble = flag(o.FriendlyDropsDouble, false)
	r.correctAroundFriends = flag(o.CorrectAroundFriends, false)
	r.stun = o.Stun == nil && !old || o.Stun != nil && *o.Stun
	// Movement's readings, all new with edition 4: the same default in every edition.
	r.diagonalAlternate = choose(doc, &o.Diagonal, "diagonal", []string{DiagonalOne, DiagonalAlternate}, errs) == DiagonalAlternate
	r.cutCorners = o.CutCorners != nil && *o.CutCorners
	r.facingChangeMoves = o.FacingChangeMoves != nil && *o.FacingChangeMoves
	return r
}

// Facing is one of the eight directions a unit can face, in 45° steps: 0 is up the map
// (north), 1 north-east, and so on clockwise.
type Facing int

var facingNames = [...]string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}

// Degrees is the facing as a compass bearing.
func (f Facing) Degrees() float64 { return float64(int(f) * FacingStep) }

func (f Facing) String() string { return facingNames[f&7] }

// Step is the square one step away in this direction: (dx, dy) with rows growing down.
func (f Facing) Step() (dx, dy int) {
	steps := [...][2]int{{0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}}
	s := steps[f&7]
	return s[0], s[1]
}

// DecodeScalar reads N, NE, E, SE, S, SW, W, NW or a multiple of 45 degrees.
func (f *Facing) DecodeScalar(s scenario.Scalar) error {
	t := strings.ToUpper(strings.TrimSpace(s.Text))
	for i, n := range facingNames {
		if t == n {
			*f = Facing(i)
			return nil
		}
	}
	// Degrees, as a whole number or as a page's number may come (90.0).
	deg, err := strconv.ParseFloat(t, 64)
	if err != nil || deg != math.Trunc(deg) || math.Abs(deg) > 1e6 || int(deg)%FacingStep != 0 {
		return fmt.Errorf("want N, NE, E, SE, S, SW, W, NW or a multiple of 45 degrees, got %q", s.Text)
	}
	*f = Facing(((int(deg)/FacingStep)%8 + 8) % 8)
	return nil
}

// MoraleStatus is a unit's morale state beyond its morale number.
type MoraleStatus string

// The statuses that change shooting.
const (
	StatusNormal      MoraleStatus = "normal"
	StatusBadlyShaken MoraleStatus = "badly_shaken"
	StatusPanicked    MoraleStatus = "panicked"
)

// DecodeScalar reads normal, badly_shaken or panicked.
func (m *MoraleStatus) DecodeScalar(s scenario.Scalar) error {
	return scenario.DecodeWord(m, s, StatusNormal, StatusBadlyShaken, StatusPanicked)
}

// shaken reports whether the status costs the panic modifier.
func (m MoraleStatus) shaken() bool { return m == StatusBadlyShaken || m == StatusPanicked }

// Phase is the part of a side's turn: targeting or firing.
type Phase string

// The phases of a side's turn, in the manual's order: Phase I moves the units (from
// volley.EditionMoves; before it, movement was the players' own and a turn began with the
// target phase), Phase II declares targets and Phase III fires them.
const (
	PhaseMove   Phase = "move"
	PhaseTarget Phase = "target"
	PhaseFire   Phase = "fire"
)

// DecodeScalar reads move, target or fire.
func (p *Phase) DecodeScalar(s scenario.Scalar) error {
	return scenario.DecodeWord(p, s, PhaseMove, PhaseTarget, PhaseFire)
}
