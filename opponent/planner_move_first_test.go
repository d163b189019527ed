package opponent_test

import (
	"encoding/json"
	"testing"

	"github.com/volley-wargames/volley/rulestest"
)

// TestStrongMovesBeforeItFires: in WarStrike a unit's models move before it shoots, and
// its shot ends its action. On a bare table the Watchers (two snipers, at (20, 10) and
// (22, 10)) stand 17″ from two Raiders, within their carbines' 18″, with a shot at a lone
// Ranger far to the north-east, out of the Ranger's rifle range. Two inches back they are
// out of the carbines' range, with the same shot. Firing from where they stand (57% to
// destroy the Ranger) is worth more than the move's gain alone (the Raiders' small chance
// of destroying both snipers), and the shot would end their move. The strong level moves
// first, then fires: its first action of the turn is the Watchers' move out of the
// carbines' range, the next their shot.
func TestStrongMovesBeforeItFires(t *testing.T) {
	src := bareTable(t, "warstrike") + `
units:
  - {id: watchers, name: Watchers, side: Ironclad, base: 1, height: 1.2, weapon: sniper_rifle, armour: 3, toughness: 3,
     models: [{id: sniper, at: [20, 10], leader: true}, {id: spotter, at: [22, 10]}]}
  - {id: raiders, name: Raiders, side: Verdant, base: 1, height: 1.2, weapon: carbine, armour: 2, toughness: 3,
     models: [{id: raider-leader, at: [20, 27], leader: true}, {id: raider-2, at: [22, 27]}]}
  - {id: rangers, name: Rangers, side: Verdant, base: 1, height: 1.2, weapon: rifle, armour: 2, toughness: 3,
     models: [{id: ranger-leader, at: [44, 34], leader: true}]}
end: {turns: 4, destroyed: 2}
`
	g := rulestest.NewGame(t, "battle.yaml", []byte(src))
	pastDeployment(t, g) // both sides', as the scenario places them
	ironclads := func() bool {
		return g.Battle().State().Turn != nil && g.Battle().State().Turn.Side == "Ironclad"
	}
	var kinds []string
	for _, d := range decisions(t, g, strongFor(t, "Ironclad"), ironclads, 11, "the strong Ironclad's turn did not end in 10 actions") {
		t.Logf("Ironclad: %s", d.Body())
		kind, _ := d.Action["type"].(string)
		if _, ok := d.Action["targets"]; ok {
			kind = "shoot" // a shooting action's type may go unwritten
		}
		kinds = append(kinds, kind)
	}
	if ironclads() { // the decisions ended in the Ironclad's turn: a nil one
		t.Fatal("the strong level has nothing to do in its turn")
	}
	if len(kinds) < 2 || kinds[0] != "move" || kinds[1] != "shoot" {
		t.Errorf("the strong Watchers' turn was %v, want a move, then the shot", kinds)
	}
}

// TestStrongShootsTheHolderRatherThanHide: in the last round of a WarStrike battle the
// Scouts (carbines, 18″) stand 17″ from the Verdant's lone model on the well, an objective
// worth 5, and 29″ from a support gun (30″) that acts after them. Two inches back they are
// out of the gun's reach, and out of their own reach of the holder. The step back gains
// the danger it escapes less the fire the map counts from here; the shot is worth that
// fire and the well its target holds. The strong level shoots the holder: a move from
// which its best fire cannot be taken is not credited with it (planner_move_first.go).
// With a lookout to the east as well, a step east keeps a shot, at the lookout, and not
// the one at the holder: credited with the shot at the holder, it was taken (a review's
// finding).
func TestStrongShootsTheHolderRatherThanHide(t *testing.T) {
	head := bareTable(t, "warstrike")
	units := `
units:
  - {id: scouts, name: Scouts, side: Ironclad, base: 1, height: 1.2, weapon: carbine, armour: 3, toughness: 3,
     models: [{id: scout-leader, at: [20, 4], leader: true}, {id: scout-2, at: [22, 4]}]}
  - {id: holder, name: Holder, side: Verdant, base: 1, height: 1.2, weapon: carbine, armour: 2, toughness: 3,
     models: [{id: holder-leader, at: [21, 21], leader: true}]}
  - {id: gunners, name: Gunners, side: Verdant, base: 1, height: 1.2, weapon: support_gun, armour: 3, toughness: 3,
     models: [{id: gun-leader, at: [21, 33], leader: true}]}
`
	lookout := `  - {id: lookout, name: Lookout, side: Verdant, base: 1, height: 1.2, weapon: carbine, armour: 2, toughness: 3,
     models: [{id: lookout-leader, at: [38, 1], leader: true}]}
`
	end := `end:
  turns: 1
  points: {scouts: 4}
  objectives:
    - {name: the well, at: [21, 21], radius: 2, points: 5}
`
	for _, tc := range []struct{ name, units string }{
		{"alone", units},
		{"with a lookout to the east", units + lookout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := rulestest.NewGame(t, "battle.yaml", []byte(head+tc.units+end))
			pastDeployment(t, g) // both sides', as the scenario places them
			d := strongDecides(t, g, "Ironclad")
			raw, _ := json.Marshal(d.Action["targets"])
			var targets []struct {
				Unit string `json:"unit"`
			}
			if err := json.Unmarshal(raw, &targets); err != nil || len(targets) == 0 || targets[0].Unit != "holder" {
				t.Errorf("the strong Scouts' first action is %s (%s); want their shot at the holder", d.Body(), d.Why)
			}
		})
	}
}
