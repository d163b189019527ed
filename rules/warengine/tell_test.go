package warengine

import (
	"testing"

	"github.com/volley-wargames/volley/rulestest"
)

// battleRound is the first round of examples/warengine/battle.yaml: a deployment, then
// each side's turn: its moves (Phase I), its targets (Phase II) and its fire (Phase III).
const battleRound = `
actions:
  - {type: end_deployment}
  - {type: deploy, unit: raider-3, at: [21, 2], facing: S}
  - {type: end_deployment}
  - {type: move, unit: hale, path: [[12, 17], [12, 16], [12, 15]], facing: N}
  - {type: move, unit: cole, path: [[17, 16], [17, 15], [17, 14]]}
  - {type: move, unit: murphy, facing: NE}
  - {type: end_phase}
  - {type: declare, unit: murphy, weapon: HMG Model 50, target: chief}
  - {type: declare, unit: hale, weapon: Rifle, target: raider-2}
  - {type: declare, unit: grenadier, weapon: Grenade Launcher, target: raider-3}
  - {type: end_phase}
  - {type: fire, unit: murphy, weapon: HMG Model 50}
  - {type: fire, unit: hale, weapon: Rifle}
  - {type: fire, unit: grenadier, weapon: Grenade Launcher}
  - {type: end_phase}
  - {type: move, unit: raider-1, path: [[6, 2], [6, 3], [7, 4], [7, 5]], facing: SE}
  - {type: end_phase}
  - {type: declare, unit: raider-1, weapon: Carbine, target: murphy}
  - {type: declare, unit: chief, weapon: Rifle, target: hale}
  - {type: end_phase}
  - {type: fire, unit: raider-1, weapon: Carbine}
  - {type: fire, unit: chief, weapon: Rifle}
  - {type: end_phase}
`

// TestTell holds the words of every example's orders, and of the battle's first round,
// to testdata/tell (go test -update rewrites them): each pick's d100 against ChanceToHit,
// how far it may miss, where the shot lands, each victim's damage check, hits and save.
func TestTell(t *testing.T) {
	rulestest.TellExamples(t, Ruleset{}, battleRound)
}
