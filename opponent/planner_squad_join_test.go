package opponent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rulestest"
)

// TestStrongSquadMemberJoinsAFireThatOnlyDamages: the second round of Dropzone's
// example against random, seed 13, battle 2, as it stood on main (drawn 2 to 2). sabre-1
// and beast-1 are gone; sabre-3, at (26, 11), sees beast-2, a Gun Beast of three damage
// points its railgun alone cannot destroy (0.83 damage expected); sabre-2, at (22, 9),
// sees nothing, and its own map counts nothing anywhere. A step east gives it a shot
// that adds to sabre-3's: the strong level steps sabre-2 out first, and the Sabres fire
// with both (17% to destroy beast-2), rather than sabre-3 alone; and once they have
// fired, no Sabre steps out to join a fire they cannot take again.
func TestStrongSquadMemberJoinsAFireThatOnlyDamages(t *testing.T) {
	g := rulestest.NewGame(t, "battle.yaml", battleWith(t, "dropzone", [][2]string{
		{"  - {id: sabre-1, type: Sabre, side: UCM, squad: sabres, at: [18, 5], facing: 0}\n", ""},
		{"at: [22, 5], facing: 0}", "at: [22, 9], facing: 0}"},
		{"at: [26, 5], facing: 0}", "at: [26, 11], facing: 0}"},
		{"at: [36, 6], facing: 0}", "at: [34.5, 13.5], facing: 0}"},
		{"at: [40, 6], facing: 0}", "at: [36.5, 13], facing: 0}"},
		{"at: [20, 42], facing: 180}", "at: [22.5, 39], facing: 180}"},
		{"at: [28, 42], facing: 180}", "at: [23.5, 40], facing: 180}"},
		{"  - {id: beast-1, type: Gun Beast, side: Scourge, squad: beasts, at: [10, 43], facing: 180}\n", ""},
		{" beast-1: 2,", ""},
		{" sabre-1: 2,", ""},
		{"at: [38, 43], facing: 180}", "at: [34.5, 44], facing: 180}"},
	}))
	pastDeployment(t, g)
	const missed = "the strong Sabres did not fire in their turn"
	stepped, fired := false, false
	for _, d := range decisions(t, g, strongFor(t, "UCM"), nil, 12, missed) {
		body := d.Body()
		t.Logf("UCM: %s — %s", body, d.Why)
		if strings.Contains(body, `"unit":"sabre-2"`) && strings.Contains(body, `"type":"move"`) && !fired {
			stepped = true
			if !strings.Contains(d.Why, "joins its squad's fire first") {
				t.Errorf("sabre-2's step does not say why: %s", d.Why)
			}
		}
		if fired && strings.Contains(d.Why, "joins its squad's fire first") {
			t.Errorf("a Sabre steps to join a fire the squad has taken: %s", d.Why)
		}
		if strings.Contains(body, `"squad":"sabres"`) {
			if !stepped {
				t.Errorf("the Sabres fire before sabre-2 steps to a shot: %s", body)
			}
			if !strings.Contains(body, `"unit":"sabre-2"`) {
				t.Errorf("sabre-2 has no part in the Sabres' fire: %s", body)
			}
			fired = true
		}
		if strings.Contains(body, `"end_turn"`) {
			if !fired {
				t.Fatal(missed)
			}
			return
		}
	}
	t.Fatal(missed)
}

// TestStrongSquadFiresAsItIsWhenItCanDestroy: the UCM's first turn of Dropzone's example
// battle. sabre-1 and sabre-2 see beast-1 (29% to destroy it together); sabre-3 does
// not, and a step west would give it a shot that adds to theirs (66%). A fire that can
// destroy is taken as it is: against greedy, stepping sabre-3 out to join it lost more
// than it won (session 47), and the Sabres fire with two.
func TestStrongSquadFiresAsItIsWhenItCanDestroy(t *testing.T) {
	g := rulestest.NewGame(t, "battle.yaml", battle(t, "dropzone"))
	ctx := context.Background()
	pastDeployment(t, g)
	d, err := strongFor(t, "UCM").Next(ctx, g, dice.NewUnrecorded(1))
	if err != nil {
		t.Fatal(err)
	}
	if d == nil {
		t.Fatal("the strong UCM have nothing to do in their first turn")
	}
	t.Logf("UCM: %s — %s", d.Body(), d.Why)
	if body := d.Body(); !strings.Contains(body, `"squad":"sabres"`) || strings.Contains(body, `"unit":"sabre-3"`) {
		t.Errorf("the UCM's first action is not the Sabres' fire with sabre-1 and sabre-2: %s", body)
	}
}

// TestStrongSquadStepsOutTogether: the Sabres stand behind the ruin, and none of them
// sees beast-2, a Gun Beast of three damage points that no Sabre alone can destroy. The
// squad has no fire now, so each one's step round the ruin counts only what its own
// shot would do; the strong level steps one out for the damage it would do, the next
// for what it adds to the squad's fire, and the Sabres fire at beast-2 together.
func TestStrongSquadStepsOutTogether(t *testing.T) {
	g := rulestest.NewGame(t, "battle.yaml", battleWith(t, "dropzone", [][2]string{
		{"at: [18, 5], facing: 0}", "at: [21.5, 13], facing: 0}"},
		{"at: [22, 5], facing: 0}", "at: [23, 13], facing: 0}"},
		{"at: [26, 5], facing: 0}", "at: [24.5, 13], facing: 0}"},
		// The walkers out of everyone's reach.
		{"at: [36, 6], facing: 0}", "at: [2, 1], facing: 0}"},
		{"at: [40, 6], facing: 0}", "at: [46, 1], facing: 0}"},
		{"  - {id: hunter-1, type: Hunter, side: Scourge, squad: hunters, at: [20, 42], facing: 180}\n", ""},
		{"  - {id: hunter-2, type: Hunter, side: Scourge, squad: hunters, at: [28, 42], facing: 180}\n", ""},
		{"  - {id: beast-1, type: Gun Beast, side: Scourge, squad: beasts, at: [10, 43], facing: 180}\n", ""},
		{"hunter-1: 3, hunter-2: 3, beast-1: 2, ", ""},
		// beast-2 north of the ruin, beyond its own reach of the Sabres.
		{"at: [38, 43], facing: 180}", "at: [24, 45], facing: 180}"},
	}))
	pastDeployment(t, g)
	const missed = "the strong Sabres did not fire in their turn"
	for _, d := range decisions(t, g, strongFor(t, "UCM"), nil, 12, missed) {
		body := d.Body()
		t.Logf("UCM: %s — %s", body, d.Why)
		if strings.Contains(body, `"squad":"sabres"`) {
			if strings.Count(body, `"target":"beast-2"`) < 2 {
				t.Errorf("the Sabres fire at beast-2 with fewer than two: %s", body)
			}
			return
		}
	}
	t.Fatal(missed)
}
