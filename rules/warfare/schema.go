package warfare

import (
	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/scenario"
)

// What a Warfare scenario is made of, for its JSON Schema (volley.Describer): the types
// it decodes into. Its scalars (the system, a range band, ammunition) are enums of their
// constants.

// Scenario is the type a Warfare scenario decodes into.
func (Ruleset) Scenario() any { return new(file) }

// Actions are the types Warfare's actions decode into: a fire is written with or without
// its type.
func (Ruleset) Actions() map[string]any {
	return volley.TurnActions("fire", new(fireSpec), new(moveSpec), new(deploySpec))
}

// The forms of a move and a deployment, for the schema only (volley.DecodePathMove and
// volley.Tabletop.DecodePlacing read them): Warfare's names, which the schema keeps.

// moveSpec is a move as written.
type moveSpec struct {
	Type string           `yaml:"type"`
	Unit string           `yaml:"unit,required"`
	Path []scenario.Point `yaml:"path,required"`
}

// deploySpec is a deployment as written.
type deploySpec struct {
	Type string         `yaml:"type"`
	Unit string         `yaml:"unit,required"`
	At   scenario.Point `yaml:"at,required"`
}
