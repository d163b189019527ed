package dropzone_test

import (
	"context"
	"fmt"

	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rules"
	_ "github.com/volley-wargames/volley/rules/dropzone"
	"github.com/volley-wargames/volley/scenario"
)

// A game embedding volley loads a scenario, asks what a shot needs, and gets the exact
// odds before rolling anything.
func Example() {
	doc, err := scenario.ParseFile("../../examples/dropzone/coherency-evasion.yaml")
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
	aim := aims[0]
	fmt.Printf("%s at %s needs %g+: p_hit %.4f\n", aim.Weapon, aim.Target, aim.Need, aim.PHit)
	for _, m := range aim.Modifiers {
		fmt.Printf("  %+g %s\n", m.Value, m.Rule)
	}
	odds, _ := battle.Odds(ctx, action)
	fmt.Printf("P(no damage) = %.4f\n", odds.Targets[0].Distributions["damage"].P(0))
	// Output:
	// Equalizer Machinegun at skimmer needs 6+: p_hit 0.1667
	//   +1 squad out of coherency
	//   +2 skimmer's evasion countermeasures
	// P(no damage) = 0.7901
}

// Resolving with the same seed rolls the same dice on every machine.
func Example_resolve() {
	doc, _ := scenario.ParseFile("../../examples/dropzone/equalizer-vs-hunter.yaml")
	_, battle, action, _ := rules.Open(doc)
	out, err := battle.Resolve(context.Background(), action, dice.ForAction(7, 0))
	if err != nil {
		panic(err)
	}
	for _, r := range out.Rolls {
		fmt.Printf("d%d=%d %s\n", r.Sides, r.Value, r.Purpose)
	}
	fmt.Println(out.Targets[0].Measures["damage"], out.Targets[0].Destroyed)
	// Output:
	// d6=5 to-hit: sabre-1 Equalizer Machinegun at hunter-1, shot 1, needs 3+
	// d6=5 to-hit: sabre-1 Equalizer Machinegun at hunter-1, shot 2, needs 3+
	// d6=3 damage: sabre-1 Equalizer Machinegun at hunter-1, hit 1, no roll damages
	// d6=2 damage: sabre-1 Equalizer Machinegun at hunter-1, hit 2, no roll damages
	// 0 false
}
