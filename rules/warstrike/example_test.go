package warstrike_test

import (
	"context"
	"fmt"

	"github.com/volley-wargames/volley/rules"
	_ "github.com/volley-wargames/volley/rules/warstrike"
	"github.com/volley-wargames/volley/scenario"
)

// The text's elevated ruin: a sniper 7" up sees into the wood to 24", so it sees the
// hunter at 20" and not the one at 26"; the odds of the shot follow.
func Example() {
	doc, err := scenario.ParseFile("../../examples/warstrike/elevated-ruin.yaml")
	if err != nil {
		panic(err)
	}
	_, battle, action, err := rules.Open(doc)
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	aims, err := battle.Aim(ctx, action)
	if err != nil {
		panic(err)
	}
	for _, a := range aims {
		fmt.Printf("%s → %s: %s, %s\n", a.Shooter, a.Target, a.Status, a.Reason)
	}
	odds, _ := battle.Odds(ctx, action)
	t := odds.Targets[0]
	fmt.Printf("%s: P(a kill) = %.4f, suppression markers %v\n", t.Target, t.Distributions["kills"].AtLeast(1), t.Distributions["suppression"])
	// Output:
	// sniper → hunters-1: ok, wood: 20" ≤ 24" sight distance (the target is within it, TLOS And Area Terrain); sniper_rifle at 20", to hit 4+
	// sniper → hunters-2: blocked, wood: 26" > 24" sight distance (the target is within it, TLOS And Area Terrain)
	// hunters: P(a kill) = 0.3472, suppression markers {0: 0.5, 1: 0.5}
}
