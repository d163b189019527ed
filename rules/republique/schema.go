package republique

import (
	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/scenario"
)

// What a Republique scenario is made of, for its JSON Schema (volley.Describer): the
// types it decodes into, and the forms of its own scalars.

// Scenario is the type a Republique scenario decodes into.
func (Ruleset) Scenario() any { return new(file) }

// Actions are the types Republique's actions decode into: artillery fire is written
// with or without its type.
func (Ruleset) Actions() map[string]any {
	acts := map[string]any{
		"":                   new(actionSpec),
		volley.MoveAction:    new(moveSpec),
		volley.DeployAction:  new(deploySpec),
		volley.EndDeployment: new(volley.BareAction),
		KindDecline:          new(volley.BareAction),
	}
	for _, k := range []string{KindFire, KindPassing, KindSave, KindSkirmish, KindOppose, KindEndStep} {
		acts[k] = new(actionSpec)
	}
	return acts
}

// JSONSchema describes a cover class by its name.
func (*Cover) JSONSchema() *scenario.Schema {
	return &scenario.Schema{Type: "string", Enum: scenario.Values(coverNames...)}
}

// JSONSchema describes a cell of the artillery chart: "morale/bases", or "-".
func (*Hits) JSONSchema() *scenario.Schema {
	return &scenario.Schema{
		Description: `The hits a cell scores: "morale/bases" such as "1/0", or "-" (or 0) for none.`,
		AnyOf: []*scenario.Schema{
			{Type: "string", Pattern: `^\s*([0-9]+\s*/\s*[0-9]+|-|0)\s*$`},
			{Const: 0},
		},
	}
}

// Choices are the values of the options read from a list.
func (Options) Choices() map[string][]any {
	return map[string][]any{
		"main_target":    scenario.Values("centre", "distance"),
		"frontage_zone":  scenario.Values("range", "target"),
		"fire_points":    scenario.Values("total", "each"),
		"full_cover_die": scenario.Values("heavy", "none"),
		"leader_risk":    scenario.Values("any", "own"),
		"adjacent":       scenario.Values("beside", "any_side"),
	}
}

// Choices are the ways a unit may wheel.
func (moveSpec) Choices() map[string][]any {
	return map[string][]any{"pivot": scenario.Values(PivotCentre, PivotLeft, PivotRight)}
}
