package warfare

import (
	"context"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/scenario"
)

// placed is a battle whose units stand on the table: the range is the table's to measure.
const placed = "ruleset: warfare\nsystem: alternate\n" + inlineTables + `units:
  - {id: longbowmen, side: English, stands: 6, figures_per_stand: 4, weapon: longbow, at: [0, 0]}
  - {id: knights, side: French, stands: 4, figures_per_stand: 3, traits: [cavalry, armoured], at: [0, 5]}
  - {id: levy, side: French, stands: 4, figures_per_stand: 3, traits: [infantry]}
`

// TestRefereed: an action a player sends a server states no die, no range other than
// the measured one, no modifier whose condition does not hold. The same action is a fair
// what-if on the command line.
func TestRefereed(t *testing.T) {
	b, _ := sys.Load(t, placed)
	for _, tc := range []struct {
		name, action, want string // want "": accepted when refereed
	}{
		{"measured range", "unit: longbowmen\ntargets: [{unit: knights}]", ""},
		{"the measured band stated", "unit: longbowmen\ntargets: [{unit: knights, range: effective}]", ""},
		{"rolls", "unit: longbowmen\ntargets: [{unit: knights}]\nrolls: {firer: 6, target: 1}",
			"3:8: rolls: the server rolls every die"},
		{"a closer band claimed", "unit: longbowmen\ntargets: [{unit: knights, range: close}]",
			`2:11: target "knights": knights is 5" from longbowmen, at effective range; the server measures the range`},
		{"a distance claimed", "unit: longbowmen\ntargets: [{unit: knights, distance: 2}]",
			`2:11: target "knights": knights is 5" from longbowmen, at effective range`},
		{"a condition that does not hold", "unit: longbowmen\ntargets: [{unit: knights, modifiers: [charging]}]",
			`2:39: modifier "charging" does not apply: its condition does not hold for longbowmen firing at knights`},
		{"a condition that holds", "unit: longbowmen\ntargets: [{unit: knights, modifiers: [armoured]}]", ""},
		{"a situational modifier", "unit: longbowmen\ntargets: [{unit: knights, modifiers: [target in cover]}]", ""},
		{"an unplaced target's range is the player's", "unit: longbowmen\ntargets: [{unit: levy, range: close}]", ""},
	} {
		for _, refereed := range []bool{false, true} {
			doc, err := scenario.Parse("action", []byte(tc.action))
			if err != nil {
				t.Fatal(err)
			}
			doc.Refereed = refereed
			_, err = b.DecodeAction(doc)
			want := tc.want
			if !refereed {
				want = ""
			}
			switch {
			case want == "" && err != nil:
				t.Errorf("%s (refereed %v): %v", tc.name, refereed, err)
			case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
				t.Errorf("%s (refereed %v): %v; want %q", tc.name, refereed, err, want)
			}
		}
	}
}

// TestWarfareTurns: a unit fires once in its side's turn; end_turn passes the turn.
func TestWarfareTurns(t *testing.T) {
	b, _ := sys.Load(t, placed)
	ctx := context.Background()
	decode := func(src string) volley.Action {
		doc, _ := scenario.Parse("action", []byte(src))
		a, err := b.DecodeAction(doc)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	fire, end := decode("unit: longbowmen\ntargets: [{unit: knights}]"), decode("type: end_turn")
	if _, err := b.Resolve(ctx, fire, dice.ForAction(1, 0)); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Resolve(ctx, fire, dice.ForAction(1, 1)); volley.ErrorCode(err) != volley.ECONFLICT {
		t.Errorf("a second fire in one turn: %v; want a conflict", err)
	}
	if b.Actor(end) != "English" {
		t.Errorf("Actor(end_turn) = %q", b.Actor(end))
	}
	b.Resolve(ctx, end, dice.ForAction(1, 2))
	if _, err := b.Resolve(ctx, fire, dice.ForAction(1, 3)); volley.ErrorCode(err) != volley.ECONFLICT || !strings.Contains(err.Error(), "French's turn") {
		t.Errorf("the English in the French turn: %v", err)
	}
	b.Resolve(ctx, end, dice.ForAction(1, 4))
	if turn := b.State().Turn; turn.Side != "English" || turn.Number != 2 {
		t.Errorf("after both ends: %+v", turn)
	}
}
