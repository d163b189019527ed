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
	first := frenchTeachingTurn(t, g)
	// The scenario lists the Genoese of Doria first of the French, and the teaching
	// level takes its units in that order: the first with something worth doing acts.
	if first.Action["type"] != "move" || first.Action["unit"] != "genoese-1" {
		t.Fatalf("the French's first action: %s; want genoese-1's move", first.Body())
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

// A teaching unit whose move is exactly 4 walks on too when nothing is in range. Warfare's
// bidowers move 4″, half of it for the teaching level, and their javelins reach 4″: a step
// of 2″ straight at the enemy closes by 0.02, less the 0.0002 the way walked counts
// against it, just under the least gain a move needs, and before session 48 the short
// step was only for units that move under 4: the bidowers stood all battle.
func TestTeachingWalksOnWithAMoveOfFour(t *testing.T) {
	g := rulestest.NewGame(t, "battle.yaml", battle(t, "warfare"))
	pastDeployment(t, g)
	replay(t, g, `{"type":"end_turn"}`) // the English stand
	from := pieceAt(t, g, "bidowers")
	frenchTeachingTurn(t, g)
	to := pieceAt(t, g, "bidowers")
	if !(to.Y < from.Y) {
		t.Errorf("bidowers from (%g, %g) to (%g, %g): not towards the English, who stand at y ≤ 5", from.X, from.Y, to.X, to.Y)
	}
	if moved := math.Hypot(to.X-from.X, to.Y-from.Y); moved > 2+1e-9 {
		t.Errorf("bidowers moved %g″ in the turn; the teaching level steps at most half its 4″", moved)
	}
}

// A teaching unit heads for an objective in time: from the round in which staying where
// it is would leave the objective out of its reach by the end, at half its move a round
// (planner_staging.go). The Warfare example shortened to three rounds, with the Genoese of
// Doria at (23, 15), 4.07″ from the mill's edge: at 1.5″ a move, its first round is the
// last it can set off in. Before session 48 the teaching level thought of the objectives
// only in the last round, and genoese-1 stepped towards the nearest enemy (the Gascon
// crossbowmen, off to the right of the mill), to (23, 13.5), 3.1″ from its edge: out of
// reach in the two moves it had left.
func TestTeachingHeadsForAnObjectiveInTime(t *testing.T) {
	src := battleWith(t, "warfare", [][2]string{
		{"at: [14, 17], move: 3", "at: [23, 15], move: 3"},
		{"turns: 5", "turns: 3"},
	})
	g := rulestest.NewGame(t, "battle.yaml", src)
	pastDeployment(t, g)
	replay(t, g, `{"type":"end_turn"}`) // the English stand
	frenchTeachingTurn(t, g)
	to := pieceAt(t, g, "genoese-1")
	const millX, millY, millRadius, pace, movesLeft = 18, 10, 3, 1.5, 2
	if d := math.Hypot(to.X-millX, to.Y-millY) - millRadius; d > movesLeft*pace+1e-9 {
		t.Errorf("genoese-1 at (%g, %g), %.2f″ from the mill's edge: out of reach in its %d moves left at %g″", to.X, to.Y, d, movesLeft, pace)
	}
}

// frenchTeachingTurn plays the French's turn in g at the teaching level, its first action
// and every other until it ends the turn, and returns its first decision.
func frenchTeachingTurn(t *testing.T, g *volley.Game) *opponent.Decision {
	t.Helper()
	pol, err := opponent.ParsePolicy("teaching")
	if err != nil {
		t.Fatal(err)
	}
	p := &opponent.Player{Policy: pol, Side: "French"}
	var first *opponent.Decision
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
		if first == nil {
			first = d
		}
		replay(t, g, d.Body())
	}
	return first
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
