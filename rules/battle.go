package rules

import (
	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
)

// Battle is what the engine and the advisor ask of a rule system's battle beyond
// volley.Battle itself. Each system under rules/ asserts it once, beside what only some
// answer (a table or a grid map, the advisor's cost): the interfaces stand in one place,
// where the author of a new system looks for what to write.
type Battle interface {
	volley.Battle
	// Sampler draws outcomes for Monte Carlo; Offerer says what each side may do now;
	// Refuser why the rules refuse an action before a die is rolled.
	volley.Sampler
	volley.Offerer
	volley.Refuser
	// Forker copies the battle for a "what if"; Placer says where each unit stands, so
	// that the battle can be written back as a scenario.
	volley.Forker
	volley.Placer
	// Planner lists the fire plans open to a side; Dangerer maps where a unit is in
	// danger, and DangerPlacer says what such a map may place; Positioner maps where a
	// unit could stand.
	advise.Planner
	advise.Dangerer
	advise.DangerPlacer
	advise.Positioner
}
