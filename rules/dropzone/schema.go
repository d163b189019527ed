package dropzone

import (
	"strconv"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/scenario"
)

// What a Dropzone scenario is made of, for its JSON Schema (volley.Describer): the types
// it decodes into, and the forms of the profile's own scalars.

// Scenario is the type a Dropzone scenario decodes into.
func (Ruleset) Scenario() any { return new(file) }

// Actions are the types Dropzone's actions decode into: a shooting action is written
// with or without its type.
func (Ruleset) Actions() map[string]any {
	return volley.TurnActions("shoot", new(actionSpec), new(moveSpec), new(deploySpec))
}

// dash is how a profile writes "none" or "any" ("-"), as the seed prints it.
var dash = &scenario.Schema{Const: "-"}

// JSONSchema describes an M&F value: a distance, or "-" for any move.
func (*MoveAndFire) JSONSchema() *scenario.Schema {
	return &scenario.Schema{
		Description: `How far the unit may move and still fire: a distance such as 4", or "-" for any move.`,
		AnyOf:       []*scenario.Schema{scenario.LengthRef(), dash},
	}
}

// JSONSchema describes a range: a distance, ∞ (anywhere on the table), CQ (Close
// Quarters) or "-" (none of this kind).
func (*Range) JSONSchema() *scenario.Schema {
	return &scenario.Schema{
		Description: `A range: a distance such as 24", ∞ (or inf) for the whole table, CQ for Close Quarters, or "-" for none.`,
		AnyOf: []*scenario.Schema{
			scenario.LengthRef(),
			{Type: "string", Enum: scenario.Values("∞", "inf", "infinite", "CQ", "-")},
		},
	}
}

// arcPart is one part of an arc as ParseArc reads it, in any case.
const arcPart = `([Ff]|[Ss]|[Ss][Ll]|[Ss]\([Ll]\)|[Ll]|[Ll][Ee][Ff][Tt]|[Ss][Rr]|[Ss]\([Rr]\)|[Rr][Tt]|[Rr][Ii][Gg][Hh][Tt]|[Rr]|360)`

// JSONSchema describes an arc: F, S, SL, SR and R joined by "/".
func (*Arc) JSONSchema() *scenario.Schema {
	return &scenario.Schema{
		Type:        "string",
		Description: "The arc of fire as the profile writes it: F (front), S (both sides), SL or SR (one side), R (rear), joined by /; 360 all round.",
		Pattern:     `^\s*` + arcPart + `\s*(/\s*` + arcPart + `\s*)*$`,
		Examples:    scenario.Values[any]("F", "F/S", "F/S/R", "F/SL", "360"),
	}
}

// rolls are a D6 roll's needs written "N+" from 0 to hi, and "-" when auto is true.
func rolls(hi int, auto string) *scenario.Schema {
	var nums, words []any
	for v := range hi + 1 {
		nums = append(nums, v)
		words = append(words, strconv.Itoa(v)+"+")
	}
	words = append(words, auto)
	return &scenario.Schema{AnyOf: []*scenario.Schema{{Type: "integer", Enum: nums}, {Type: "string", Enum: words}}}
}

// JSONSchema describes an accuracy: the roll needed, 0 to MaxAccuracy, or "-" for an
// automatic hit.
func (*Accuracy) JSONSchema() *scenario.Schema {
	s := rolls(MaxAccuracy, "-")
	s.Description = `The D6 roll to hit before modifiers, such as 3+ (0 rolls as normal), or "-" for an automatic hit.`
	return s
}

// JSONSchema describes a test's need on a D6: 5+ or 5; 0 or "-" for none.
func (*TargetNumber) JSONSchema() *scenario.Schema {
	s := rolls(DieSides+1, "-")
	s.Description = `The D6 roll a test needs, such as 5+; 0 or "-" for no test.`
	return s
}

// JSONSchema describes a number of shots: a whole number, or dice such as D3.
func (*Shots) JSONSchema() *scenario.Schema {
	return &scenario.Schema{
		Description: "How many shots: a number, or dice rolled for it such as D3 or 2D6 (at most " + strconv.Itoa(MaxRolledShots) + ").",
		AnyOf: []*scenario.Schema{
			{Type: "integer", Minimum: scenario.Number(0), Maximum: scenario.Number(MaxShots)},
			{Type: "string", Pattern: dice.ConstExprPattern},
		},
	}
}

// JSONSchema describes a special rule: a name, with a value where the rule takes one.
func (*Special) JSONSchema() *scenario.Schema {
	var devastators []any
	for x := 1; x <= MaxDevastator; x++ {
		devastators = append(devastators, SpecialDevastator+" "+strconv.Itoa(x))
	}
	return &scenario.Schema{
		Type:        "string",
		Description: "A special rule: Articulated, Devastator X (1 to " + strconv.Itoa(MaxDevastator) + "), or a rule volley reads as a name only.",
		AnyOf: []*scenario.Schema{
			{Enum: append(scenario.Values[any](SpecialArticulated), devastators...)},
			{Pattern: `^\s*[^0-9\s]`, Not: &scenario.Schema{Pattern: `^\s*[Dd][Ee][Vv][Aa][Ss][Tt][Aa][Tt][Oo][Rr]`}},
		},
	}
}
