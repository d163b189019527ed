package opponent_test

import (
	"fmt"
	"testing"
)

// TestStrongTakesNoObjectiveEarly: the War Engine's example in the raiders' first move
// phase, three rounds before the last, the trenchers where greedy's first move leaves them.
// Every raider can reach the crossroads by the end from where it stands, so standing within
// it now changes nothing that keeping it within reach does not, and only the end scores.
// The strong level used to count a place within it as taking it (its points by the rounds
// left): raider-2 went to 10,8, by the crossroads and in reach of every trencher, and was
// destroyed there. No raider ends a move within the crossroads now.
func TestStrongTakesNoObjectiveEarly(t *testing.T) {
	g := warEngineAt(t, "{side: raiders, phase: move}", `
  - {id: murphy, type: Trencher Sergeant, side: trenchers, at: [12, 13], facing: N}
  - {id: hale, type: Trencher Private, side: trenchers, at: [16, 13], facing: N}
  - {id: cole, type: Trencher Private, side: trenchers, at: [16, 17], facing: N}
  - {id: grenadier, type: Trencher Grenadier, side: trenchers, at: [16, 14], facing: N}
  - {id: chief, type: Raider Chief, side: raiders, at: [12, 1], facing: S}
  - {id: raider-1, type: Raider, side: raiders, at: [6, 1], facing: S}
  - {id: raider-2, type: Raider, side: raiders, at: [15, 2], facing: S}
  - {id: raider-3, type: Raider, side: raiders, at: [20, 1], facing: S}

`)
	moving := func() bool {
		turn := g.Battle().State().Turn
		return turn != nil && turn.Side == "raiders" && turn.Phase == "move"
	}
	moved := 0
	// At most 12 decisions, and no failure where the phase goes on after them.
	for _, d := range decisions(t, g, strongFor(t, "raiders"), moving, 12, "") {
		if d.Action["type"] == "move" {
			moved++
			if path, ok := d.Action["path"].([][2]int); ok && len(path) > 0 {
				end := path[len(path)-1]
				if max(abs(end[0]-11), abs(end[1]-10)) <= 2 {
					t.Errorf("%v ends within the crossroads in the first round (%s)", d.Action["unit"], d.Why)
				}
			} else {
				t.Fatalf("a move without a path of squares: %v (%s)", d.Action, d.Why)
			}
		}
	}
	if moved == 0 {
		t.Fatal("no raider moved in the first move phase")
	}
	t.Log(fmt.Sprint(moved, " raiders moved"))
}

func abs(x int) int { return max(x, -x) }
