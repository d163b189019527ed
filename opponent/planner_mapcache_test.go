package opponent_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/opponent"
	"github.com/volley-wargames/volley/rulestest"
)

// TestMapsReadAgainAfterAFire: a unit's position map counts what it can destroy from
// each place, and the player keeps the maps it read this turn for its later decisions.
// In the UCM's first turn, the walkers brought up to within sight of beast-2, the strong
// level reads every unit's map, and the scouts fire first (75% at beast-2); the dice
// damage beast-2 without destroying it. What the Sabres' maps said of beast-2 before
// the fire no longer holds: from where sabre-1 stands, its own shots may now finish it.
// The player that read the maps before the fire must weigh its moves after it as a
// player reading them afresh does.
func TestMapsReadAgainAfterAFire(t *testing.T) {
	g := rulestest.NewGame(t, "battle.yaml", battleWith(t, "dropzone", [][2]string{
		{"{id: walker-1, type: Scout Walker, side: UCM, squad: scouts, at: [36, 6], facing: 0}", "{id: walker-1, type: Scout Walker, side: UCM, squad: scouts, at: [36, 18], facing: 0}"},
		{"{id: walker-2, type: Scout Walker, side: UCM, squad: scouts, at: [40, 6], facing: 0}", "{id: walker-2, type: Scout Walker, side: UCM, squad: scouts, at: [40, 18], facing: 0}"},
	}))
	ctx := context.Background()
	pastDeployment(t, g)
	strong := strongFor(t, "UCM")
	d, err := strong.Next(ctx, g, dice.NewUnrecorded(1))
	if err != nil {
		t.Fatal(err)
	}
	if d == nil || !strings.Contains(d.Body(), `"squad":"scouts"`) {
		t.Fatalf("the strong UCM's first action is not the scouts' fire: %+v", d)
	}
	t.Logf("UCM: %s", d.Why)
	// These dice damage beast-2 and destroy nothing: no unit destroyed, and no unit
	// moved, so the maps' keys as they were before (the unit's place, its move left, the
	// count destroyed) are all as they were.
	if _, _, _, err := g.Replay(ctx, d.Body(), dice.NewUnrecorded(2)); err != nil {
		t.Fatalf("%s: %v", d.Body(), err)
	}
	for _, u := range g.Battle().State().Units {
		if u.Destroyed {
			t.Fatalf("%s was destroyed by the scouts' fire: the test wants a fire that destroys nothing", u.ID)
		}
		if u.ID == "beast-2" && u.Values["damage_points"] >= u.Values["max_damage_points"] {
			t.Fatalf("beast-2 took no damage from the scouts' fire: %v", u.Values)
		}
	}
	after, err := opponent.MoveReasons(ctx, strong, g)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := opponent.MoveReasons(ctx, strongFor(t, "UCM"), g)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(after, fresh) {
		t.Errorf("after the scouts' fire, the player that read its maps before it weighs its moves as\n%s\na player reading them afresh weighs them as\n%s",
			strings.Join(after, "\n"), strings.Join(fresh, "\n"))
	}
}
