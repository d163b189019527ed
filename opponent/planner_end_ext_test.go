package opponent_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/opponent"
	"github.com/volley-wargames/volley/rulestest"
)

// TestEnemyActsAfter: in Dropzone the UCM takes its turn of a round first and the
// Scourge second, so in the last round the Scourge acts after the UCM, and nothing acts
// after the Scourge; in an earlier round each acts after the other.
func TestEnemyActsAfter(t *testing.T) {
	src := battle(t, "dropzone")
	for _, tc := range []struct {
		turns        int
		ucm, scourge bool
	}{
		{1, true, false},
		{4, true, true},
	} {
		yaml := strings.Replace(string(src), "turns: 4", "turns: "+strconv.Itoa(tc.turns), 1)
		g := rulestest.NewGame(t, "battle.yaml", []byte(yaml))
		ctx := context.Background()
		endTurn := func() {
			t.Helper()
			raw, _ := json.Marshal(g.Battle().State().Turn.End)
			if _, _, _, err := g.Replay(ctx, string(raw), dice.NewUnrecorded(1)); err != nil {
				t.Fatal(err)
			}
		}
		endTurn() // the UCM's deployment
		endTurn() // the Scourge's
		for _, side := range []struct {
			name string
			want bool
		}{{"UCM", tc.ucm}, {"Scourge", tc.scourge}} {
			turn := g.Battle().State().Turn
			if turn.Side != side.name || turn.Number != 1 {
				t.Fatalf("%d rounds: the turn is %s's of round %d, want %s's of round 1", tc.turns, turn.Side, turn.Number, side.name)
			}
			if got := opponent.EnemyActsAfter(ctx, g.Battle(), g.End(), side.name); got != side.want {
				t.Errorf("%d rounds, %s's turn of round 1: enemyActsAfter = %v, want %v", tc.turns, side.name, got, side.want)
			}
			endTurn()
		}
	}
}

// TestEnemyActsAfterRepublique: in Republique both sides' batteries fire in the artillery
// segment of each player turn, so even in the last player turn of a battle of one round
// the side whose turn it is has an enemy acting after its maneuver.
func TestEnemyActsAfterRepublique(t *testing.T) {
	yaml := strings.Replace(string(battle(t, "republique")), "turns: 4", "turns: 1", 1)
	g := rulestest.NewGame(t, "battle.yaml", []byte(yaml))
	ctx := context.Background()
	first := ""
	for range 40 {
		turn := g.Battle().State().Turn
		if turn == nil {
			t.Fatal("the battle ended before the second side's turn")
		}
		if turn.Phase != "deployment" {
			if first == "" {
				first = turn.Side
			}
			if turn.Side != first {
				if !opponent.EnemyActsAfter(ctx, g.Battle(), g.End(), turn.Side) {
					t.Errorf("%s's turn, %s: enemyActsAfter = false, want true (the other side's batteries fire in its artillery segment)", turn.Side, turn.Phase)
				}
				return
			}
		}
		raw, _ := json.Marshal(turn.End)
		if _, _, _, err := g.Replay(ctx, string(raw), dice.NewUnrecorded(1)); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("the second side's turn never came")
}
