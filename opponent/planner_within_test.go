package opponent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/volley-wargames/volley/dice"
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
	ctx := context.Background()
	strong := strongFor(t, "raiders")
	moved := 0
	for range 12 {
		turn := g.Battle().State().Turn
		if turn == nil || turn.Side != "raiders" || turn.Phase != "move" {
			break
		}
		d, err := strong.Next(ctx, g, dice.NewUnrecorded(1))
		if err != nil {
			t.Fatal(err)
		}
		if d == nil {
			break
		}
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
		body, _ := json.Marshal(d.Action)
		if _, _, _, err := g.Replay(ctx, string(body), dice.NewUnrecorded(1)); err != nil {
			t.Fatalf("%v: %v", d.Action, err)
		}
	}
	if moved == 0 {
		t.Fatal("no raider moved in the first move phase")
	}
	t.Log(fmt.Sprint(moved, " raiders moved"))
}

func abs(x int) int { return max(x, -x) }
