package advise_test

import (
	"context"
	"fmt"

	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/dice"
)

// Two guns, each able to fire at a tank (2 damage points) or a scout (1). A gun fires two
// shots that each hit half the time for 1 damage. Damage past a target's points is
// wasted, so spreading the fire gets more damage in expectation; concentrating it gives
// the best chance of destroying the tank.
func ExampleSearch() {
	left := []int{2, 1}
	shot := func(t int) advise.Choice {
		hit := advise.Capped(dice.Binomial(2, 0.5), left[t])
		return advise.Choice{Target: []string{"tank", "scout"}[t], Effects: []advise.Effect{{Target: t, Dist: hit}}}
	}
	p := &advise.Problem{Actor: "guns", Measure: "damage",
		Targets: []advise.Target{{ID: "tank", Left: 2}, {ID: "scout", Left: 1}},
		Slots: []advise.Slot{
			{Label: "gun-1", Choices: []advise.Choice{shot(0), shot(1)}},
			{Label: "gun-2", Choices: []advise.Choice{shot(0), shot(1)}},
		}}
	for _, o := range []advise.Objective{{Kind: advise.Expected}, {Kind: advise.Destroy, Unit: "tank"}} {
		adv, err := advise.Search(context.Background(), p, o, 1, advise.DefaultBudget)
		if err != nil {
			fmt.Println(err)
			return
		}
		best := adv.Plans[0]
		fmt.Printf("%s: %.2f with gun-1 → %s, gun-2 → %s\n", adv.Scores, best.Value, best.Picks[0].Target, best.Picks[1].Target)
	}
	// Output:
	// expected damage: 1.75 with gun-1 → tank, gun-2 → scout
	// P(destroy tank): 0.69 with gun-1 → tank, gun-2 → tank
}
