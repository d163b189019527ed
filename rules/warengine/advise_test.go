package warengine

import (
	"context"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rulestest"
)

// adviceScenario: a squad leader with a grenade and a pistol in group 1 and a rifle in
// group 2, facing three soldiers, two of them close enough to share a blast.
const adviceScenario = `ruleset: warengine
turn: {side: blue, phase: target}
map:
  legend:
    ".": {name: open}
    "w": {name: brush, visibility: 30, firepower: 10}
  rows: |
    ............
    ............
    ......w.....
    ............
    ............
weapons:
  - {name: Grenade, arc: 360, short: {range: 4, strength: 10}, medium: {range: 8}, long: {range: 12}, strength: 40, damage: [1, 3], blast: 1, ignores_terrain: true}
  - {name: Pistol, arc: 90, short: {range: 4, accuracy: 10}, medium: {range: 8}, long: {range: 12, accuracy: -10}, strength: 30, damage: [1, 2]}
  - {name: Rifle, arc: 90, short: {range: 10, accuracy: 10}, medium: {range: 20}, long: {range: 30}, strength: 45, damage: [1, 3]}
types:
  - {name: Leader, weapon_skill: 50, hits: 3, toughness: {default: {front: 20, side: 10, rear: 5}}, save: 10,
     weapons: [{weapon: Grenade, group: 1}, {weapon: Pistol, group: 1}, {weapon: Rifle, group: 2}]}
  - {name: Soldier, weapon_skill: 40, hits: 2, toughness: {default: {front: 20, side: 10, rear: 5}}, save: 10}
units:
  - {id: leader, type: Leader, side: blue, at: [1, 2], facing: E, aiming: true}
  - {id: red-1, type: Soldier, side: red, at: [7, 1], facing: W}
  - {id: red-2, type: Soldier, side: red, at: [7, 3], facing: W}
  - {id: red-3, type: Soldier, side: red, at: [10, 2], facing: W}
`

// The advisor's best plan is the brute-force best over every group and every weapon's
// square, each plan scored from the Odds of its declarations as fire orders; Monte Carlo
// of the best plan, every weapon's shot drawn with its own dice, agrees. at_least is
// refused: a grenade's victims share its landing.
func TestAdviceWarEngine(t *testing.T) {
	b, _ := sys.Load(t, adviceScenario)
	ctx := context.Background()
	probs, err := b.Problems(ctx, advise.Query{Side: "blue"})
	if err != nil {
		t.Fatal(err)
	}
	if len(probs) != 2 || probs[0].Variant != "group 1" || probs[1].Variant != "group 2" {
		t.Fatalf("problems: %d, %+v", len(probs), probs)
	}
	if _, err := advise.Advise(ctx, b, advise.Query{Side: "blue"}, advise.Objective{Kind: advise.AtLeast, K: 3}, 3, advise.DefaultBudget); err == nil {
		t.Error("at_least accepted where a grenade's victims share its landing")
	}
	shot := func(st map[string]any) volley.Action {
		if st["type"] != string(Declare) {
			return nil
		}
		at := st["target"].([]int)
		sq := geom.Sq(at[0], at[1])
		return &Order{Type: Fire, Unit: st["unit"].(string), Weapon: st["weapon"].(string), Target: &sq}
	}
	got := rulestest.CheckAdviceSteps(t, b, advise.Query{Side: "blue"}, shot,
		advise.Objective{Kind: advise.Expected}, advise.Objective{Kind: advise.Destroyed}, advise.Objective{Kind: advise.Destroy, Unit: "red-3"})
	for o, adv := range got {
		t.Logf("%s: %d plans, best %.4f %v", o, adv[0].Total, adv[0].Plans[0].Value, adv[0].Plans[0].Steps)
	}
}
