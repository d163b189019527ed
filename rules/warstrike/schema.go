package warstrike

import (
	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/scenario"
)

// What a WarStrike scenario is made of, for its JSON Schema (volley.Describer): the
// types it decodes into, and the values of its options. Its scalars (a terrain's kind, a
// unit's action) are enums of their constants.

// Scenario is the type a WarStrike scenario decodes into.
func (Ruleset) Scenario() any { return new(file) }

// Actions are the types WarStrike's actions decode into: a shooting action is written
// with or without its type.
func (Ruleset) Actions() map[string]any {
	return volley.TurnActions("shoot", new(shootSpec), new(moveSpec), new(deploySpec))
}

// Choices are the values of each option.
func (Options) Choices() map[string][]any {
	return map[string][]any{
		"higher":      scenario.Values(HigherEither, HigherBoth),
		"compare":     scenario.Values(CompareSize, CompareTop),
		"see_over":    scenario.Values(SeeOverElevatedFirer, SeeOverElevatedEither, SeeOverNever),
		"distance":    scenario.Values(DistanceEdge, DistanceCentre),
		"aim_at":      scenario.Values(AimAtNearest, AimAtBest),
		"dead":        scenario.Values(DeadRemove, DeadMark),
		"climb":       scenario.Values(ClimbHeight, ClimbFree),
		"cross_walls": scenario.Values(CrossWallsLower, CrossWallsNever),
	}
}

// Choices are the conditions a concealment modifier may name.
func (ConcealmentModifier) Choices() map[string][]any {
	return map[string][]any{"when": scenario.Values(conditions...)}
}

// Choices are what a suppression entry may count.
func (Suppression) Choices() map[string][]any {
	return map[string][]any{"from": scenario.Values(FromHit, FromPenetration, FromKill, FromShotAt)}
}
