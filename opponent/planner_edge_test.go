package opponent_test

import (
	"testing"

	"github.com/volley-wargames/volley/rulestest"
)

// TestStrongTakesNoObjectiveEdgeEarly: Republique's example, the French's first turn
// (the first of four rounds). The 18e Ligne can reach the village in any round to come
// from where it stands, so a step towards it gains nothing but a step nearer the enemy
// (only the end scores, planner_staging.go); the 1re batterie's move gains it a shot. The
// strong level used to correct a place by what its bases would hold there as the end
// counts them, and a place whose bases reach into the village with their centre outside
// (66, 30) gained what taking the village now is worth, the worth staging takes out of
// places within it: the Ligne's step was worth more than the battery's shot, and went
// first. The battery moves first now.
func TestStrongTakesNoObjectiveEdgeEarly(t *testing.T) {
	g := rulestest.NewGame(t, "battle.yaml", battle(t, "republique"))
	pastDeployment(t, g) // both sides', as the scenario places them
	if turn := g.Battle().State().Turn; turn == nil || turn.Number != 1 {
		t.Fatalf("turn %+v; want the first round's", turn)
	}
	d := strongDecides(t, g, "French")
	if d.Action["type"] != "move" || d.Action["unit"] != "fb1" {
		t.Errorf("the strong French's first action is %s (%s); want the 1re batterie's move", d.Body(), d.Why)
	}
}
