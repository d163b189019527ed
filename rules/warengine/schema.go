package warengine

import (
	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/scenario"
)

// What a War Engine scenario is made of, for its JSON Schema (volley.Describer): the
// types it decodes into, and the forms of its own scalars.

// Scenario is the type a War Engine scenario decodes into.
func (Ruleset) Scenario() any { return new(file) }

// Actions are the types the War Engine's orders decode into, by their type.
func (Ruleset) Actions() map[string]any {
	return map[string]any{
		string(Move):          new(moveSpec),
		string(Deploy):        new(deploySpec),
		string(EndDeployment): new(volley.BareAction),
		string(Declare):       new(actionSpec),
		string(Clear):         new(actionSpec),
		string(Group):         new(actionSpec),
		string(Fire):          new(actionSpec),
		string(EndPhase):      new(actionSpec),
	}
}

// JSONSchema describes a facing: a compass point, or degrees in steps of 45.
func (*Facing) JSONSchema() *scenario.Schema {
	var degrees []any
	for d := 0; d < 360; d += FacingStep {
		degrees = append(degrees, d)
	}
	return &scenario.Schema{
		Description: "A facing: N, NE, E, SE, S, SW, W or NW, or degrees clockwise of north in steps of 45.",
		AnyOf: []*scenario.Schema{
			{Type: "string", Enum: scenario.Values(facingNames[:]...)},
			{Type: "integer", Enum: degrees},
		},
	}
}

// Choices are the values of the options read from a list.
func (Options) Choices() map[string][]any {
	return map[string][]any{
		"line":             scenario.Values("bresenham", "supercover"),
		"courage_when":     scenario.Values("low", "high"),
		"repeat_targeted":  scenario.Values(RepeatTargetOriginal, RepeatTargetCurrent, RepeatTargetNone),
		"repeat_recompute": scenario.Values("first_pick", "each_pick"),
		"aimed_range_by":   scenario.Values("shooter", "target"),
		"deviation_area":   scenario.Values(AreaAll, AreaExcludeFirer),
		"diagonal":         scenario.Values(DiagonalOne, DiagonalAlternate),
	}
}

// Choices are the arcs a weapon may have: multiples of FacingStep up to 360.
func (Weapon) Choices() map[string][]any {
	var arcs []any
	for a := FacingStep; a <= 360; a += FacingStep {
		arcs = append(arcs, a)
	}
	return map[string][]any{"arc": arcs}
}
