package opponent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/opponent"
	"github.com/volley-wargames/volley/rulestest"
)

// TestStrongHoldsWithItsModels: in WarStrike's example Fireteam Bravo, two models left,
// has run to the relay (41, 15; within 4″) in the first round. In the second, the wood
// beside it is safer, and a place there has the team's centre on the relay's circle
// (41, 19), with its two models side by side each 4.12″ away: holding nothing at the end,
// which counts models. The strong level keeps the relay (it weighs where its models would
// stand, not its centre), and says it holds the relay only where a model does. Verdant,
// here, ends its turns without acting.
func TestStrongHoldsWithItsModels(t *testing.T) {
	// Fireteam Bravo of two models, as after a loss in the first round.
	src := strings.Replace(string(battle(t, "warstrike")), "      - {id: bravo-3, at: [38, 4]}\n", "", 1)
	if src == string(battle(t, "warstrike")) {
		t.Fatal("the example's Fireteam Bravo has no bravo-3 to leave out")
	}
	g := rulestest.NewGame(t, "battle.yaml", []byte(src))
	ctx := context.Background()
	strong := strongFor(t, "Ironclad")
	relay := func() string {
		for _, o := range g.Result().Objectives {
			if o.Name == "the relay" {
				return o.Held
			}
		}
		t.Fatal("the example has no relay")
		return ""
	}
	// The first round: Bravo runs to the relay, the rest stay; Verdant does nothing.
	for _, body := range []string{
		`{"type":"end_deployment"}`,
		`{"type":"end_deployment"}`,
		`{"type":"move","unit":"bravo","action":"at_the_double","models":[{"id":"bravo-leader","path":[[42,14]]},{"id":"bravo-2","path":[[40,14]]}]}`,
		`{"type":"end_turn"}`,
		`{"type":"end_turn"}`,
	} {
		if _, _, _, err := g.Replay(ctx, body, dice.NewUnrecorded(1)); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
	}
	if got := relay(); got != "Ironclad" {
		t.Fatalf("the relay is held by %q at the start of the second round, want Ironclad", got)
	}
	// The second round: the strong Ironclad's turn.
	for n := 0; ; n++ {
		turn := g.Battle().State().Turn
		if turn.Side != "Ironclad" {
			break
		}
		if n > 20 {
			t.Fatal("the strong Ironclad's second turn did not end in 20 actions")
		}
		d, err := strong.Next(ctx, g, dice.NewUnrecorded(1))
		if err != nil {
			t.Fatal(err)
		}
		if d == nil {
			t.Fatal("the strong level has nothing to do in its turn")
		}
		t.Logf("Ironclad: %s", d.Why)
		if _, _, _, err := g.Replay(ctx, d.Body(), dice.NewUnrecorded(1)); err != nil {
			t.Fatalf("%s: %v", d.Body(), err)
		}
		if strings.Contains(d.Why, "holds the relay") && relay() != "Ironclad" {
			t.Errorf("%q: the relay is held by %q after it", d.Why, relay())
		}
	}
	if got := relay(); got != "Ironclad" {
		t.Errorf("after the strong Ironclad's second turn the relay is held by %q, want Ironclad", got)
	}
}

// strongFor is the strong level playing side.
func strongFor(t *testing.T, side string) *opponent.Player {
	t.Helper()
	pol, err := opponent.ParsePolicy("strong")
	if err != nil {
		t.Fatal(err)
	}
	return &opponent.Player{Policy: pol, Side: side}
}

// strongDecides is the strong level's next decision for side in g, logged with its
// reasons. The test fails where it is not side's turn, or where the level has nothing to do.
func strongDecides(t *testing.T, g *volley.Game, side string) *opponent.Decision {
	t.Helper()
	if turn := g.Battle().State().Turn; turn == nil || turn.Side != side {
		t.Fatalf("turn %+v; want the %s's", turn, side)
	}
	d, err := strongFor(t, side).Next(context.Background(), g, dice.NewUnrecorded(1))
	if err != nil {
		t.Fatal(err)
	}
	if d == nil {
		t.Fatal("the strong level has nothing to do in its turn")
	}
	t.Logf("%s: %s", side, d.Why)
	return d
}
