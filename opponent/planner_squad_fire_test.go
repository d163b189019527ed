package opponent_test

import (
	"strings"
	"testing"

	"github.com/volley-wargames/volley/rulestest"
)

// TestStrongSquadStepsBeforeItFires: a Dropzone squad shoots once a turn, all its units
// at once. In the UCM's first turn sabre-1, west of the ruin, has a shot at hunter-1 on
// the crossroads (one damage point left); sabre-2, behind the ruin, sees nothing, but a
// step round the ruin's corner gives it a shot too. Firing now (sabre-1 alone, 44%) is
// worth more than sabre-2's step alone, and would leave sabre-2 no shot this turn. The
// strong level steps sabre-2 out first, and the squad fires with both (69%).
func TestStrongSquadStepsBeforeItFires(t *testing.T) {
	g := rulestest.NewGame(t, "battle.yaml", battleWith(t, "dropzone", [][2]string{
		{"{id: sabre-1, type: Sabre, side: UCM, squad: sabres, at: [18, 5], facing: 0}", "{id: sabre-1, type: Sabre, side: UCM, squad: sabres, at: [20, 12], facing: 0}"},
		{"{id: sabre-2, type: Sabre, side: UCM, squad: sabres, at: [22, 5], facing: 0}", "{id: sabre-2, type: Sabre, side: UCM, squad: sabres, at: [23.5, 12.5], facing: 0}"},
		// sabre-3 and the walkers out of everyone's reach.
		{"at: [26, 5], facing: 0}", "at: [46, 1], facing: 0}"},
		{"at: [36, 6], facing: 0}", "at: [2, 1], facing: 0}"},
		{"at: [40, 6], facing: 0}", "at: [44, 1], facing: 0}"},
		{"{id: hunter-1, type: Hunter, side: Scourge, squad: hunters, at: [20, 42], facing: 180}", "{id: hunter-1, type: Hunter, side: Scourge, squad: hunters, at: [20, 26], facing: 180, damage_points: 1}"},
		{"  - {id: hunter-2, type: Hunter, side: Scourge, squad: hunters, at: [28, 42], facing: 180}\n", ""},
		{" hunter-2: 3,", ""},
		{"  - {id: beast-1, type: Gun Beast, side: Scourge, squad: beasts, at: [10, 43], facing: 180}\n", ""},
		{" beast-1: 2,", ""},
		{"{id: beast-2, type: Gun Beast, side: Scourge, squad: beasts, at: [38, 43], facing: 180}", "{id: beast-2, type: Gun Beast, side: Scourge, squad: beasts, at: [32, 30], facing: 180, damage_points: 1}"},
	}))
	pastDeployment(t, g)
	const missed = "the strong Sabres did not fire in their turn"
	stepped := false
	for _, d := range decisions(t, g, strongFor(t, "UCM"), nil, 12, missed) {
		body := d.Body()
		t.Logf("UCM: %s", body)
		if strings.Contains(body, `"unit":"sabre-2"`) && strings.Contains(body, `"type":"move"`) {
			stepped = true
		}
		if strings.Contains(body, `"squad":"sabres"`) {
			if !stepped {
				t.Errorf("the Sabres fire before sabre-2 steps out to a shot: %s", body)
			}
			if !strings.Contains(body, `"unit":"sabre-2"`) {
				t.Errorf("sabre-2 has no part in the Sabres' fire: %s", body)
			}
			return
		}
	}
	t.Fatal(missed)
}
