package dropzone

import (
	"testing"

	"github.com/volley-wargames/volley/rulestest"
)

// battleRound is the first round of examples/dropzone/battle.yaml: the deployments (UCM's
// ended as it stands, a Gun Beast placed), the Sabres' moves and shot, the end of UCM's
// turn, the Hunters'.
const battleRound = `
actions:
  - {type: end_deployment}
  - {type: deploy, unit: beast-2, at: [40, 42], facing: 180}
  - {type: end_deployment}
  - {type: move, unit: sabre-1, path: [[19, 8]]}
  - {type: move, unit: sabre-2, path: [[21, 8]]}
  - {type: move, unit: sabre-3, path: [[28, 8]]}
  - {squad: sabres, declarations: [{unit: sabre-1, weapon: Avenger Railgun, target: beast-1}, {unit: sabre-2, weapon: Avenger Railgun, target: beast-1}]}
  - {type: move, unit: walker-1, path: [[40, 12]]}
  - {squad: scouts, declarations: [{unit: walker-1, weapon: Scout Cannon, target: beast-2}]}
  - {type: end_turn}
  - {type: move, unit: hunter-1, path: [[20, 37]]}
  - {type: move, unit: hunter-2, path: [[28, 37]]}
  - {squad: hunters, declarations: [{unit: hunter-1, weapon: Plasma Cannon, target: sabre-1}, {unit: hunter-2, weapon: Plasma Cannon, target: sabre-3}]}
  - {type: end_turn}
`

// TestTell holds the words of every example's actions, and of the battle's first round,
// to testdata/tell (go test -update rewrites them): each shot from its need to its damage,
// each move with its length, a unit destroyed, a turn's end.
func TestTell(t *testing.T) {
	rulestest.TellExamples(t, Ruleset{}, battleRound)
}
