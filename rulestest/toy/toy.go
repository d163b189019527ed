// Package toy is a made-up game, small on purpose: the rule system that
// docs/architecture.md ("Adding a rule system") walks through. It states only its rules
// and takes the rest from the engine: turns, the table's edge and zones, deployment,
// paths, offers, the maps' frame, the API and the page. It is imported only by tests, so
// it never appears in the product (cmd/volley does not import it).
//
// The toy's rules, all of them:
//   - Tokens stand on an open table measured in inches, each on a round base Base wide.
//   - The sides take turns; in its side's turn a token may move up to Allowance along a path
//     that crosses no other token's base, then shoot once, which ends its turn's action.
//   - A shot reaches Range, centre to centre, and rolls ShotDice d6: each die hits on
//     NeedClose within CloseRange, on NeedLong beyond. Each hit takes a wound; a token
//     with no wounds left is destroyed. A token has Wounds unless the scenario says.
//   - Before the first turn each side places its tokens in its deployment zone.
package toy

import (
	"cmp"
	"fmt"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// The toy's rules, in numbers.
const (
	// Allowance is how far a token may move in its side's turn, in inches: the toy's
	// rule.
	Allowance = 6.0
	// Base is the diameter of every token's base, in inches: the toy's rule.
	Base = 1.0
	// Range is how far a shot reaches, centre to centre, in inches: the toy's rule.
	Range = 12.0
	// CloseRange is how near a target is at close range, in inches: the toy's rule.
	CloseRange = 6.0
	// D6 is the die every shot rolls: the toy's rule.
	D6 = 6
	// NeedClose and NeedLong are the d6 rolls that hit, at close range and beyond: the
	// toy's rule.
	NeedClose = 4
	NeedLong  = 5
	// ShotDice is how many d6 one shot rolls, each hit a wound: the toy's rule.
	ShotDice = 2
	// Wounds is what a token has unless its scenario says: the toy's rule.
	Wounds = 2
)

// MaxWounds bounds a token's wounds: a bound that keeps a typo from overflowing, not a
// rule.
const MaxWounds = 20

// Name is the value of `ruleset:` that selects the toy.
const Name = "toy"

// Ruleset is the toy: a scenario read by load, an action by decodeAction (rules.Load:
// every mistake of the file reported at once).
var Ruleset = rules.RulesetOf[file, *Battle]{System: Name, Build: load, Decode: (*Battle).decodeAction}

func init() { rules.Register(Ruleset) }

// Battle is a toy battle: the tokens, and the engine's turns, table and activation (the
// token acting now, and how far each has moved this turn).
type Battle struct {
	units []Unit
	byID  map[string]int
	turns volley.Turns
	table volley.Tabletop
	act   volley.Activation
}

// Unit is one token.
type Unit struct {
	ID, Side string
	// At is where it stands, when Placed; a token not placed is deployed.
	At     geom.Vec
	Placed bool
	// Wounds is what it began with, Lost what it has lost.
	Wounds, Lost int
}

// Left is the wounds the token has left.
func (u *Unit) Left() int { return u.Wounds - u.Lost }

// Destroyed reports whether the token has no wounds left.
func (u *Unit) Destroyed() bool { return u.Left() <= 0 }

func (u *Unit) base() geom.Circle { return geom.Circle{C: u.At, R: Base / 2} }

// file is a toy scenario as written: the engine's header (table, deployment, end) and
// turn, and the tokens.
type file struct {
	scenario.Header `yaml:",inline"`
	Units           []unitSpec      `yaml:"units,required"`
	Turn            volley.TurnSpec `yaml:"turn"`
	Action          scenario.Skip   `yaml:"action"`
}

type unitSpec struct {
	ID     string          `yaml:"id,required"`
	Side   string          `yaml:"side,required"`
	At     *scenario.Point `yaml:"at"`
	Wounds int             `yaml:"wounds"`
}

// load builds the battle; what no rule says (turns, the table, zones, where a token may
// start) is the engine's (rules.LoadPlay, Tabletop.CheckStarts).
func load(doc *scenario.Doc, f *file, errs *scenario.ErrorList) *Battle {
	b := &Battle{byID: map[string]int{}}
	if doc.Unit() == scenario.Centimetre {
		errs.Add(doc.At(&f.Distances), "distances: the toy measures in inches")
	}
	var bases []volley.StartingBase
	for i := range f.Units {
		s := &f.Units[i]
		if !rules.Index(errs, doc.At(&s.ID), b.byID, s.ID, len(b.units)) {
			continue
		}
		u := Unit{ID: s.ID, Side: s.Side, Wounds: cmp.Or(s.Wounds, Wounds)}
		if u.Wounds < 1 || u.Wounds > MaxWounds {
			errs.Add(doc.At(&s.Wounds), "unit %q: wounds from 1 to %d", s.ID, MaxWounds)
			u.Wounds = Wounds
		}
		u.At, u.Placed = volley.ReadStart(errs, doc, s.At, fmt.Sprintf("unit %q", s.ID), Base/2, &bases)
		b.units = append(b.units, u)
	}
	deploys := rules.Deploys(b.units, func(u *Unit) (string, string, bool) { return u.Side, u.ID, true })
	b.turns, b.table = rules.LoadPlay(doc, &f.Turn, &f.Header, b.sides(), b.ids(), deploys, errs)
	b.table.CheckStarts(errs, bases, doc.Accepted)
	return b
}

// Unit returns the token with the given id.
func (b *Battle) Unit(id string) (*Unit, bool) { return rules.Unit(b.units, b.byID, id) }

func (b *Battle) ids() []string { return rules.IDs(b.units, func(u *Unit) string { return u.ID }) }
func (b *Battle) sides() []string {
	return volley.Distinct(b.units, func(u *Unit) string { return u.Side })
}
