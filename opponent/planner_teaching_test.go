package opponent_test

import (
	"context"
	"math"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/opponent"
	"github.com/volley-wargames/volley/rulestest"
)

// A teaching unit whose cautious step is short still walks towards the enemy when nothing
// is in range (Player.shortStep). In the Warfare example the Genoese move 3″, half of it
// for the teaching level, and their crossbows reach 9″: fourteen inches from the English
// line, they have nothing to shoot at from anywhere they may go. Before the fix their step
// was worth less than the least gain a move needs, and they stood all battle while the
// enemy took the mill and the bridge (teaching lost to greedy in Warfare, 45, 120, 35 of
// 200).
func TestTeachingWalksOnWhenNothingIsInRange(t *testing.T) {
	g := rulestest.NewGame(t, "battle.yaml", battle(t, "warfare"))
	pastDeployment(t, g)
	replay(t, g, `{"type":"end_turn"}`) // the English stand
	from := pieceAt(t, g, "genoese-1")
	pol, err := opponent.ParsePolicy("teaching")
	if err != nil {
		t.Fatal(err)
	}
	p := &opponent.Player{Policy: pol, Side: "French"}
	// The French's whole turn: its first action, then every other until it ends the turn.
	for i := 0; ; i++ {
		if turn := g.Battle().State().Turn; turn == nil || turn.Side != "French" {
			break
		}
		if i == 20 {
			t.Fatal("the French's turn has not ended after 20 actions")
		}
		d, err := p.Next(context.Background(), g, dice.NewUnrecorded(1))
		if err != nil {
			t.Fatal(err)
		}
		if d == nil {
			t.Fatal("the teaching level has nothing to do in its turn")
		}
		t.Logf("French: %s", d.Why)
		// The scenario lists the Genoese of Doria first of the French, and the teaching
		// level takes its units in that order: the first with something worth doing acts.
		if i == 0 && (d.Action["type"] != "move" || d.Action["unit"] != "genoese-1") {
			t.Fatalf("the French's first action: %s; want genoese-1's move", d.Body())
		}
		replay(t, g, d.Body())
	}
	to := pieceAt(t, g, "genoese-1")
	if !(to.Y < from.Y) {
		t.Errorf("genoese-1 from (%g, %g) to (%g, %g): not towards the English, who stand at y ≤ 5", from.X, from.Y, to.X, to.Y)
	}
	// Once a turn: a step after the first would take it nearly its whole move.
	if moved := math.Hypot(to.X-from.X, to.Y-from.Y); moved > 1.5+1e-9 {
		t.Errorf("genoese-1 moved %g″ in the turn; the teaching level steps at most half its 3″", moved)
	}
}

// pieceAt is a unit's piece on the table of g.
func pieceAt(t *testing.T, g *volley.Game, id string) volley.TableUnit {
	t.Helper()
	for _, u := range g.Battle().(volley.Table).Table().Units {
		if u.ID == id {
			return u
		}
	}
	t.Fatalf("no unit %s on the table", id)
	return volley.TableUnit{}
}
