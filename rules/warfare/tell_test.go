package warfare

import (
	"testing"

	"github.com/volley-wargames/volley/rulestest"
)

// battleRound is the first round of examples/warfare/battle.yaml: a deployment, each
// unit's move and fire, and the ends of both turns.
const battleRound = `
actions:
  - {type: end_deployment}
  - {type: deploy, unit: bidowers, at: [5, 16]}
  - {type: end_deployment}
  - {type: move, unit: longbowmen, path: [[12, 6]]}
  - {unit: longbowmen, targets: [{unit: genoese-1}]}
  - {type: move, unit: archers, path: [[19, 6]]}
  - {unit: archers, targets: [{unit: genoese-2}]}
  - {type: move, unit: hobilars, path: [[5, 8]]}
  - {unit: hobilars, targets: [{unit: bidowers}]}
  - {type: end_turn}
  - {type: move, unit: genoese-1, path: [[14, 14]]}
  - {unit: genoese-1, targets: [{unit: longbowmen}]}
  - {type: move, unit: sergeants, path: [[27, 10]]}
  - {unit: sergeants, targets: [{unit: crossbowmen}]}
  - {type: end_turn}
`

// TestTell holds the words of every example's actions, and of the battle's first round,
// to testdata/tell (go test -update rewrites them): the missile factor line by line, the
// casualties and the figures left, the ammunition, each move with its length.
func TestTell(t *testing.T) {
	rulestest.TellExamples(t, Ruleset{}, battleRound)
}
