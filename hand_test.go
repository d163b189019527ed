package volley_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/scenario"
)

// handGame is the skirmish rolled by hand: its scenario says dice: players.
func handGame(t *testing.T) *volley.Game {
	t.Helper()
	src := "dice: players\n" + skirmish
	doc := rulestest.Parse(t, "skirmish.yaml", src)
	g := newGame(t, src)
	g.Hand = volley.HandRolled(doc)
	if !g.Hand {
		t.Fatal("dice: players is not rolled by hand")
	}
	return g
}

const handShot = "{squad: sabres, declarations: [{unit: sabre-1, weapon: Avenger Railgun, target: hunter-1}]"

// TestHandResolve: in a battle rolled by hand, an action is taken with the faces given
// beside it and no other; until it has every die it needs it changes nothing and names
// the next one; a face that is not its die's is refused at its place; and the same
// actions with the same faces give the same outcomes whatever the seed.
func TestHandResolve(t *testing.T) {
	ctx := context.Background()
	g := handGame(t)
	before := rulestest.Snapshot(g.Battle())
	for _, tc := range []struct {
		dice string
		need dice.Wanted
	}{
		{"", dice.Wanted{Index: 0, Sides: 6, Purpose: "to-hit: sabre-1 Avenger Railgun at hunter-1, shot 1, needs 2+"}},
		{", dice: [6]", dice.Wanted{Index: 1, Sides: 6, Purpose: "damage: sabre-1 Avenger Railgun at hunter-1, hit 1, damages on 3+"}},
	} {
		_, _, _, err := g.Replay(ctx, handShot+tc.dice+"}", dice.ForAction(7, 0))
		var need *volley.NeedRoll
		if !errors.As(err, &need) || need.Die != tc.need || volley.ErrorCode(err) != volley.ENEEDROLL {
			t.Fatalf("dice%q: %v; want the need of %+v", tc.dice, err, tc.need)
		}
		if got := rulestest.Snapshot(g.Battle()); got != before {
			t.Fatalf("dice%q: the battle changed while its dice were asked for", tc.dice)
		}
	}
	_, _, _, err := g.Replay(ctx, handShot+", dice: [6, 0]}", dice.ForAction(7, 0))
	if err == nil || volley.ErrorCode(err) != volley.EINVALID || !strings.Contains(err.Error(), "action:1:") ||
		!strings.Contains(err.Error(), "dice[1]: 0 is not a face of die 2, a d6 for damage") {
		t.Fatalf("a 0 on a d6: %v", err)
	}
	// The same faces under two seeds: the same outcome, byte for byte.
	var outs []string
	for _, seed := range []uint64{7, 8} {
		g := handGame(t)
		var text []byte
		for seq, body := range []string{
			"{type: move, unit: sabre-1, path: [[14, 9]]}",
			handShot + ", dice: [6, 2]}",
			"{type: end_turn}",
		} {
			_, actor, out, err := g.Replay(ctx, body, dice.ForAction(seed, seq))
			if err != nil {
				t.Fatalf("%s: %v", body, err)
			}
			for _, r := range out.Rolls {
				if r.By != actor {
					t.Errorf("%s: roll %+v is not %s's", body, r, actor)
				}
			}
			b, _ := json.Marshal(out)
			text = append(text, b...)
		}
		outs = append(outs, string(text))
	}
	if outs[0] != outs[1] {
		t.Errorf("the same faces under two seeds:\n%s\n%s", outs[0], outs[1])
	}
	if !strings.Contains(outs[0], `"value":6,"by":"UCM"`) || !strings.Contains(outs[0], `"value":2,"by":"UCM"`) {
		t.Errorf("the faces given are not the rolls: %s", outs[0])
	}
}

func TestHandRolled(t *testing.T) {
	for src, want := range map[string]bool{
		"dice: players\n":       true,
		"dice: ' players '\n":   true,
		"dice: server\n":        false,
		"ruleset: dropzone\n":   false,
		"dice: [players]\n":     false,
		"dice: !!str players\n": true,
	} {
		doc := rulestest.Parse(t, "s", src)
		if got := volley.HandRolled(doc); got != want {
			t.Errorf("%q: HandRolled = %v", src, got)
		}
	}
}

// TestHandDiceRefused: a battle rolled by the server takes no dice with an action, and
// the game's own actions roll none in any battle.
func TestHandDiceRefused(t *testing.T) {
	ctx := context.Background()
	if _, _, _, err := newGame(t, skirmish).Replay(ctx, handShot+", dice: [6, 2]}", dice.ForAction(7, 0)); err == nil ||
		!strings.Contains(err.Error(), "this battle's dice are the server's") {
		t.Errorf("dice given to the server: %v", err)
	}
	if _, _, _, err := handGame(t).Replay(ctx, "{type: offer_end, side: UCM, dice: [3]}", dice.ForAction(7, 0)); err == nil ||
		!strings.Contains(err.Error(), "a roll out of turn") {
		t.Errorf("dice given with an offer to end: %v", err)
	}
}

// FuzzHandAction: whatever an action's body, a battle rolled by hand decodes and takes it
// without panicking; a refused action leaves the battle as it was; a taken one used
// exactly the faces given, each its actor's.
func FuzzHandAction(f *testing.F) {
	f.Add(handShot + ", dice: [6, 2]}")
	f.Add(handShot + ", dice: [6]}")
	f.Add(handShot + ", dice: [7, 2]}")
	f.Add(handShot + ", dice: [1, 2, 3]}")
	f.Add(handShot + ", dice: {a: 1}}")
	f.Add(handShot + ", dice: [-1e99]}")
	f.Add("{type: end_turn, dice: []}")
	f.Add("{type: move, unit: sabre-1, path: [[14, 9]], dice: [1]}")
	f.Add("dice: [1]\n<<: {type: end_turn}")
	f.Fuzz(func(t *testing.T, body string) {
		g := handGame(t)
		before := rulestest.Snapshot(g.Battle())
		doc, err := scenario.Parse("action", []byte(body))
		if err != nil {
			return
		}
		a, err := g.DecodeAction(doc)
		if err != nil {
			return
		}
		actor := g.Actor(a)
		out, err := g.Resolve(context.Background(), a, dice.ForAction(1, 0))
		if err != nil {
			if got := rulestest.Snapshot(g.Battle()); got != before {
				t.Fatalf("%q: refused (%v), and the battle changed", body, err)
			}
			return
		}
		var given struct {
			Dice []int `yaml:"dice"`
		}
		_ = doc.Decode(&given)
		var rolled []int
		for _, r := range out.Rolls {
			if r.By != actor || r.Value < 1 || r.Value > r.Sides {
				t.Fatalf("%q: roll %+v", body, r)
			}
			rolled = append(rolled, r.Value)
		}
		if len(rolled) > 0 && !slices.Equal(rolled, given.Dice) {
			t.Fatalf("%q: rolled %v, given %v", body, rolled, given.Dice)
		}
	})
}

// A battle whose players roll their own dice asks for each die an action needs, in
// order, saying what it is for; the action is sent again with each face added, and is
// taken with exactly those faces once it has them all.
func ExampleNeedRoll() {
	doc, _ := scenario.ParseFile("examples/dropzone/sabres.yaml")
	rs, battle, _, _ := rules.Open(doc)
	g := volley.NewGame(battle, nil)
	g.Hand = true // the scenario would say dice: players
	shot := "{squad: sabres, declarations: [{unit: sabre-1, weapon: Avenger Railgun, target: hunter-1}], dice: [%s]}"
	table := []string{"5", "2"} // what the player's dice show, one throw at a time
	var faces []string
	for {
		_, _, out, err := g.Replay(context.Background(), fmt.Sprintf(shot, strings.Join(faces, ", ")), nil)
		var need *volley.NeedRoll
		if errors.As(err, &need) {
			fmt.Printf("roll a %s: %s\n", need.Die, table[need.Die.Index])
			faces = append(faces, table[need.Die.Index])
			continue
		}
		if err != nil {
			panic(err)
		}
		for _, line := range volley.Tell(rs, out) {
			fmt.Println(line)
		}
		return
	}
	// Output:
	// roll a d6 for to-hit: sabre-1 Avenger Railgun at hunter-1, shot 1, needs 2+: 5
	// roll a d6 for damage: sabre-1 Avenger Railgun at hunter-1, hit 1, damages on 3+: 2
	// rolled by hand by UCM, not by the server: 5 (d6), 2 (d6)
	// sabre-1's Avenger Railgun → hunter-1: needs 2+, rolled 5, hit; 2 + 10 vs armour 13: no damage
	// hunter-1 takes no damage: 3 damage points left
}
