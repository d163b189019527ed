package opponent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/opponent"
)

// TestStagingKeepsAnObjectiveInReach: Dropzone's UCM, at the strong level, against a
// Scourge that keeps to its own zone (random), used to stop short of the crossroads and
// the relay once it had something to shoot at, and began the last round more than a move
// from either: the battle ended level. Now, when the last round begins, at least one of its
// units stands within a move of an objective, or within it, as staging counts reach (in a
// straight line to its edge, clear of the walls by two widths of the unit's base).
func TestStagingKeepsAnObjectiveInReach(t *testing.T) {
	if testing.Short() {
		t.Skip("plays three rounds of a battle")
	}
	src := battle(t, "dropzone")
	for _, seed := range []string{"stall 1", "stall 2", "stall 3", "stall 4", "stall 5", "stall 6"} {
		m := newMatch(t, src, seed, map[string]string{"UCM": "strong"})
		ctx := context.Background()
		for {
			if tn := m.Game.Battle().State().Turn; tn == nil || tn.Number == 4 && tn.Side == "UCM" {
				break
			}
			more, err := m.Step(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !more {
				t.Fatalf("%s: the battle stopped before the last round", seed)
			}
		}
		tv := m.Game.Battle().(volley.Table).Table()
		inReach := ""
		for _, u := range tv.Units {
			if u.Side != "UCM" || u.Destroyed || u.Move == nil {
				continue
			}
			for i, o := range m.Game.Result().Objectives {
				if opponent.InReach(m.Game, u.ID, i, 1) {
					inReach = u.ID + " of " + o.Name
				}
			}
		}
		// A unit that staged in the third round and was destroyed in the enemy's turn
		// after did stage: the side sends one unit where one is needed, and the dice
		// may take it (stall 2 since session 47, walker-2 at (32, 18)).
		if inReach == "" {
			for _, e := range m.Log {
				if e.Side != "UCM" || !strings.Contains(e.Body, "within reach by the end (1 move left)") {
					continue
				}
				for _, u := range tv.Units {
					if u.Destroyed && strings.Contains(e.Body, `"unit":"`+u.ID+`"`) {
						inReach = u.ID + " staged, then destroyed"
					}
				}
			}
		}
		t.Logf("%s: %q", seed, inReach)
		if inReach == "" {
			t.Errorf("%s: no UCM unit is within a move of an objective when the last round begins", seed)
		}
	}
}
