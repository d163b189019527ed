package warstrike

import (
	"testing"

	"github.com/volley-wargames/volley/rulestest"
)

// battleRound is the first round of examples/warstrike/battle.yaml: a deployment, then
// each unit's action chosen with its move, its models moving one by one, and its shot.
const battleRound = `
actions:
  - {type: end_deployment}
  - {type: deploy, unit: raiders, at: [13, 29.5]}
  - {type: end_deployment}
  - type: move
    unit: alpha
    action: shooting_advance
    models:
      - {id: alpha-leader, path: [[18, 8]]}
      - {id: alpha-2, path: [[20, 8]]}
      - {id: alpha-3, path: [[22, 8]]}
      - {id: alpha-gun, path: [[20, 6]]}
  - {unit: alpha, targets: [{unit: rangers}]}
  - {type: move, unit: watchers, action: open_fire}
  - {unit: watchers, targets: [{unit: raiders}]}
  - {type: end_turn}
  - {type: move, unit: gunners, action: shooting_advance, models: [{id: gunner-leader, path: [[24, 28]]}, {id: gunner-2, path: [[26, 28]]}]}
  - {unit: gunners, targets: [{unit: watchers}]}
  - {type: move, unit: raiders, action: at_the_double, models: [{id: raider-3, path: [[25, 26]]}]}
  - {type: end_turn}
`

// TestTell holds the words of every example's actions, and of the battle's first round,
// to testdata/tell (go test -update rewrites them): the action chosen with a move, each
// model's move, each firing model's dice to hit, penetrate and kill, the dead, the
// suppression markers.
func TestTell(t *testing.T) {
	rulestest.TellExamples(t, Ruleset{}, battleRound)
}
