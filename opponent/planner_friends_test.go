package opponent_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rulestest"
)

// TestStrongSparesItsFriends: the War Engine's example in the trenchers' target phase, their
// grenadier (a launcher of blast 1) 4 squares from two raiders. Raider-1, one hit left,
// stands between Pte Hale and Pte Cole; raider-2, with both its hits, stands alone. Any
// square the blast could reach raider-1 from puts Hale or Cole in it too; the advisor scores
// the enemies a shot hurts, so raider-1, the likelier kill, is its best. The strong level
// counts the friends a plan may strike against it, and the grenadier declares at raider-2,
// whose blast reaches no friend. Hale and Cole face away (nothing in their arcs); Murphy faces
// south; the chief and raider-3 stand out of the grenadier's arc.
func TestStrongSparesItsFriends(t *testing.T) {
	g := warEngineAt(t, "{side: trenchers, phase: target}", `
  - {id: murphy, type: Trencher Sergeant, side: trenchers, at: [20, 19], facing: S}
  - {id: hale, type: Trencher Private, side: trenchers, at: [8, 8], facing: S}
  - {id: cole, type: Trencher Private, side: trenchers, at: [10, 8], facing: S}
  - {id: grenadier, type: Trencher Grenadier, side: trenchers, at: [11, 12], facing: N}
  - {id: chief, type: Raider Chief, side: raiders, at: [23, 1], facing: S}
  - {id: raider-1, type: Raider, side: raiders, at: [9, 8], facing: S, hits: 1}
  - {id: raider-2, type: Raider, side: raiders, at: [13, 8], facing: S}
  - {id: raider-3, type: Raider, side: raiders, at: [0, 2], facing: S}

`)
	const missed = "the grenadier declared no target in the trenchers' target phase"
	targeting := func() bool {
		turn := g.Battle().State().Turn
		return turn != nil && turn.Side == "trenchers" && turn.Phase == "target"
	}
	for _, d := range decisions(t, g, strongFor(t, "trenchers"), targeting, 12, missed) {
		if d.Action["type"] == "declare" && d.Action["unit"] == "grenadier" {
			at := fmt.Sprint(d.Action["target"])
			if !strings.HasPrefix(at, "[1") || at == "[10 7]" || at == "[10 9]" {
				t.Errorf("the grenadier declares at %s (%s), want raider-2's square or one beside it, away from Hale and Cole", at, d.Why)
			}
			return
		}
	}
	t.Fatal(missed)
}

// warEngineAt is a game of the War Engine's example without its deployment, at turn (the
// scenario's turn: field) and with units (its units: list, each line an item) in place
// of the example's.
func warEngineAt(t *testing.T, turn, units string) *volley.Game {
	t.Helper()
	src := string(battle(t, "warengine"))
	cut := regexp.MustCompile(`(?s)\ndeployment:.*?\nmap:`)
	if !cut.MatchString(src) {
		t.Fatal("the example has no deployment to leave out")
	}
	src = cut.ReplaceAllString(src, "\nturn: "+turn+"\nmap:")
	list := regexp.MustCompile(`(?s)\nunits:\n.*?\n\n`)
	if !list.MatchString(src) {
		t.Fatal("the example has no units to replace")
	}
	src = list.ReplaceAllLiteralString(src, "\nunits:"+units)
	return rulestest.NewGame(t, "battle.yaml", []byte(src))
}
