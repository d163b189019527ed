package republique

import (
	"testing"

	"github.com/volley-wargames/volley/rulestest"
)

// battleRound is the first round of examples/republique/battle.yaml and the second's
// maneuver: a deployment, the French maneuver, skirmish fire and artillery fire, the
// Austrian player turn the same, then a battery's prolonge and the Austrian cavalry
// riding across its front, which it answers with passing fire.
const battleRound = `
actions:
  - {type: end_deployment}
  - {type: deploy, unit: cav, at: [14, 70], facing: 180}
  - {type: end_deployment}
  - {type: move, unit: ligne-1, path: [[62, 30]]}
  - {type: move, unit: hussars, path: [[8, 36]]}
  - {type: end_step}
  - {type: end_step}
  - {type: fire, batteries: [fb1]}
  - {type: fire, batteries: [ab1]}
  - {type: fire, batteries: [ab2]}
  - {type: end_step}
  - {type: move, unit: IR4, path: [[26, 54]]}
  - {type: move, unit: cav, path: [[14, 54]]}
  - {type: end_step}
  - {type: skirmish, marker: s2, target: IR4}
  - {type: end_step}
  - {type: save, batteries: [fb2]}
  - {type: fire, batteries: [ab2]}
  - {type: end_step}
  - {type: move, unit: fb2, path: [[80, 8]]}
  - {type: move, unit: ligne-2, path: [[102, 28]]}
  - {type: end_step}
  - {type: end_step}
  - {type: end_step}
  - {type: move, unit: IR4, path: [[26, 50]]}
  - {type: move, unit: cav, path: [[42, 54]]}
  - {type: passing_fire, batteries: [fb1], target: cav}
`

// TestTell holds the words of every example's actions, and of the battle's first rounds,
// to testdata/tell (go test -update rewrites them): each fire's points, d10 and hits on
// each unit it hurts, the hits as they take effect, passing fire, the leaders' tests.
func TestTell(t *testing.T) {
	rulestest.TellExamples(t, Ruleset{}, battleRound)
}
