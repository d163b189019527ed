package opponent_test

import (
	"strings"
	"testing"

	"github.com/volley-wargames/volley/rulestest"
)

// TestStrongFiresAtTheHolder: in Dropzone's last round the Scourge acts last. Sabre-1
// alone holds the crossroads (here worth 5), whole (3 damage points); sabre-2, outside
// it, has 2 left and is the likelier kill (80% against about 30%). Each is worth 2 points,
// but destroying sabre-1 takes the crossroads from the UCM as well: a unit destroyed holds
// nothing. The strong Hunters fire at sabre-1, and say why.
func TestStrongFiresAtTheHolder(t *testing.T) {
	g := rulestest.NewGame(t, "battle.yaml", battleWith(t, "dropzone", [][2]string{
		{"{id: sabre-1, type: Sabre, side: UCM, squad: sabres, at: [18, 5], facing: 0}", "{id: sabre-1, type: Sabre, side: UCM, squad: sabres, at: [24, 24], facing: 0}"},
		{"{id: sabre-2, type: Sabre, side: UCM, squad: sabres, at: [22, 5], facing: 0}", "{id: sabre-2, type: Sabre, side: UCM, squad: sabres, at: [16, 28], facing: 0, damage_points: 2}"},
		// The rest of the UCM out of the Hunters' reach; no Gun Beasts.
		{"at: [26, 5], facing: 0}", "at: [46, 1], facing: 0}"},
		{"at: [36, 6], facing: 0}", "at: [2, 1], facing: 0}"},
		{"at: [40, 6], facing: 0}", "at: [44, 1], facing: 0}"},
		{"  - {id: beast-1, type: Gun Beast, side: Scourge, squad: beasts, at: [10, 43], facing: 180}\n", ""},
		{"  - {id: beast-2, type: Gun Beast, side: Scourge, squad: beasts, at: [38, 43], facing: 180}\n", ""},
		{" beast-1: 2, beast-2: 2,", ""},
		{"{name: the crossroads, at: [24, 24], radius: 5, points: 3}", "{name: the crossroads, at: [24, 24], radius: 5, points: 5}"},
		{"at: [20, 42], facing: 180}", "at: [16, 36], facing: 180}"},
		{"at: [28, 42], facing: 180}", "at: [19, 36], facing: 180}"},
	}))
	// Three rounds in which nobody acts, and the UCM's turn of the last.
	pastDeployment(t, g)
	replay(t, g, strings.Split(strings.Repeat(`{"type":"end_turn"} `, 7), " ")[:7]...)
	if tn := g.Battle().State().Turn; tn == nil || tn.Number != 4 || tn.Side != "Scourge" {
		t.Fatalf("the turn is %+v, want the Scourge's of round 4", tn)
	}
	const missed = "the strong Hunters did not fire in the last round"
	for _, d := range decisions(t, g, strongFor(t, "Scourge"), nil, 12, missed) {
		body := d.Body()
		t.Logf("Scourge: %s", d.Why)
		if strings.Contains(body, `"squad":"hunters"`) {
			if !strings.Contains(body, `"target":"sabre-1"`) || strings.Contains(body, `"target":"sabre-2"`) {
				t.Errorf("the Hunters fire %s, want at sabre-1, which holds the crossroads", body)
			}
			if !strings.Contains(d.Why, "sabre-1, within the crossroads") {
				t.Errorf("the reasons %q do not say sabre-1 is within the crossroads", d.Why)
			}
			return
		}
	}
	t.Fatal(missed)
}
