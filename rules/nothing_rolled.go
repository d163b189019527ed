package rules

import "github.com/volley-wargames/volley"

// NothingRolled is a Sampler's refusal of an action of the engine's that rolls no die (the
// end of a turn, a move, a deployment, the end of a deployment), EINVALID with system's
// prefix: "warfare: a move rolls nothing to simulate".
func NothingRolled(system string, a volley.Action) error {
	what := map[string]string{volley.EndTurn: "ending a turn", volley.MoveAction: "a move", volley.DeployAction: "a deployment", volley.EndDeployment: "ending a deployment"}[a.Kind()]
	return volley.Errorf(volley.EINVALID, "%s: %s rolls nothing to simulate", system, what)
}
