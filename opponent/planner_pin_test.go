package opponent_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rulestest"
)

// TestStrongPinsTheGunsDown: in WarStrike a unit with two suppression markers when its
// player's action phase begins may not shoot, and volley takes no marker off. On a bare
// table, in the first of four rounds, the strong Ironclad's Scouts (two rifles) have a
// shot at the Lookout (two carbines), which they may destroy (2%), and at the Gunners
// (two support guns, toughness 4, two wounds a model, within their reach), which they
// almost never destroy. With one marker already, the Gunners are pinned down for the rest
// of the battle by one penetration (40%): the Scouts fire at them. With none, one shooting
// cannot pin them, and the Scouts fire at the Lookout, as they do with one marker when the
// pin is not weighed (planner_pin.go).
func TestStrongPinsTheGunsDown(t *testing.T) {
	for _, tc := range []struct {
		markers int
		want    string
	}{{1, "gunners"}, {0, "lookout"}} {
		src := bareTable(t, "warstrike") + `
units:
  - {id: scouts, name: Scouts, side: Ironclad, base: 1, height: 1.2, weapon: rifle, armour: 3, toughness: 3,
     models: [{id: scout-leader, at: [20, 4], leader: true}, {id: scout-2, at: [22, 4]}]}
  - {id: gunners, name: Gunners, side: Verdant, base: 1.5, height: 1.4, weapon: support_gun, armour: 3, toughness: 4, wounds: 2,
     suppression: ` + strings.Repeat("1", tc.markers) + strings.Repeat("0", 1-tc.markers) + `,
     models: [{id: gun-leader, at: [20, 24], leader: true}, {id: gun-2, at: [22, 24]}]}
  - {id: lookout, name: Lookout, side: Verdant, base: 1, height: 1.2, weapon: carbine, armour: 3, toughness: 3,
     models: [{id: lookout-leader, at: [30, 20], leader: true}, {id: lookout-2, at: [32, 20]}]}
end: {turns: 4, destroyed: 2}
`
		g := rulestest.NewGame(t, "battle.yaml", []byte(src))
		pastDeployment(t, g)
		shot := ""
		unshot := func() bool {
			return shot == "" && g.Battle().State().Turn != nil && g.Battle().State().Turn.Side == "Ironclad"
		}
		for _, d := range decisions(t, g, strongFor(t, "Ironclad"), unshot, 11, "the strong Ironclad's turn did not end in 10 actions") {
			t.Logf("markers %d: %s", tc.markers, d.Why)
			if raw, ok := d.Action["targets"]; ok {
				b, _ := json.Marshal(raw)
				var targets []struct {
					Unit string `json:"unit"`
				}
				if err := json.Unmarshal(b, &targets); err != nil || len(targets) == 0 {
					t.Fatalf("%s: %v", b, err)
				}
				shot = targets[0].Unit
			}
		}
		if shot != tc.want {
			t.Errorf("with %d marker(s) on the Gunners the strong Scouts shot at %q; want %q", tc.markers, shot, tc.want)
		}
	}
}

// TestThreatReadAgainAfterAnAction: what an enemy's next fire is worth (planner_pin.go)
// hangs on where the side's units stand. The Gunners, with one marker, have the runner
// in their sights; the strong Ironclad's first action takes the runner out of their
// reach, so their next fire is worth less, and a pin on them less, after it. A player that
// has made the turn's earlier decisions decides each next one as a fresh player does;
// read once a phase, the Gunners' threat was still the runner's, and the Scouts fired
// at them for a pin worth less than the Lookout's 21%.
func TestThreatReadAgainAfterAnAction(t *testing.T) {
	src := bareTable(t, "warstrike") + `
units:
  - {id: scouts, name: Scouts, side: Ironclad, base: 1, height: 1.2, weapon: rifle, armour: 3, toughness: 3,
     models: [{id: scout-leader, at: [20, 4], leader: true}, {id: scout-2, at: [22, 4]}]}
  - {id: gunners, name: Gunners, side: Verdant, base: 1.5, height: 1.4, weapon: support_gun, armour: 3, toughness: 4, wounds: 2,
     suppression: 1,
     models: [{id: gun-leader, at: [20, 24], leader: true}, {id: gun-2, at: [22, 24]}]}
  - {id: lookout, name: Lookout, side: Verdant, base: 1, height: 1.2, weapon: carbine, armour: 3, toughness: 4,
     models: [{id: lookout-leader, at: [30, 20], leader: true}]}
  - {id: runner, name: Runner, side: Ironclad, base: 1, height: 1.2, weapon: rifle, armour: 3, toughness: 3,
     models: [{id: runner-1, at: [40, 8], leader: true}]}
end: {turns: 4, destroyed: 2}
`
	g := rulestest.NewGame(t, "battle.yaml", []byte(src))
	ctx := context.Background()
	pastDeployment(t, g)
	for n, d := range decisions(t, g, strongFor(t, "Ironclad"), nil, 11, "the strong Ironclad's turn did not end in 10 actions") {
		fresh, err := strongFor(t, "Ironclad").Next(ctx, g, dice.NewUnrecorded(1))
		if err != nil {
			t.Fatal(err)
		}
		if fresh.Body() != d.Body() {
			t.Fatalf("action %d: the player that made the turn's earlier decisions chose\n  %s\n  (%s)\nand a fresh player\n  %s\n  (%s)", n, d.Body(), d.Why, fresh.Body(), fresh.Why)
		}
		t.Logf("action %d: %s", n, d.Why)
		if d.Action["type"] == "end_turn" {
			break
		}
	}
}
