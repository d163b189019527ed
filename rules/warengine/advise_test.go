package warengine

import (
	"context"
	"math"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/dice"
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

// fireOdds is the Odds of firing a weapon at a square, as the API would decode it.
func fireOdds(t *testing.T, b *Battle, unit, weapon string, at []int) volley.Odds {
	t.Helper()
	sq := geom.Sq(at[0], at[1])
	o, err := b.Odds(context.Background(), &Order{Type: Fire, Unit: unit, Weapon: weapon, Target: &sq})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// The advisor's best plan is the brute-force best over every group and every weapon's
// square, each plan scored from the Odds of its declarations; Monte Carlo of the best
// plan, every weapon's shot drawn with its own dice, agrees.
func TestAdviceWarEngine(t *testing.T) {
	b, _ := mustLoad(t, adviceScenario)
	ctx := context.Background()
	probs, err := b.Problems(ctx, advise.Query{Side: "blue"})
	if err != nil {
		t.Fatal(err)
	}
	if len(probs) != 2 || probs[0].Variant != "group 1" || probs[1].Variant != "group 2" {
		t.Fatalf("problems: %d, %+v", len(probs), probs)
	}
	left := map[string]int{"red-1": 2, "red-2": 2, "red-3": 2}
	if _, err := advise.Advise(ctx, b, advise.Query{Side: "blue"}, advise.Objective{Kind: advise.AtLeast, K: 3}, 3, advise.DefaultBudget); err == nil {
		t.Error("at_least accepted where a grenade's victims share its landing")
	}
	for _, o := range []advise.Objective{{Kind: advise.Expected}, {Kind: advise.Destroyed}, {Kind: advise.Destroy, Unit: "red-3"}} {
		adv, err := advise.Advise(ctx, b, advise.Query{Side: "blue"}, o, 3, advise.DefaultBudget)
		if err != nil {
			t.Fatal(err)
		}
		// Brute force: every plan of every group, its declarations' Odds convolved per unit.
		brute, plans := math.Inf(-1), int64(0)
		for _, p := range probs {
			advise.Each(p, func(picks []int) bool {
				plans++
				dists := map[string]dice.Dist{}
				for _, st := range p.Steps(picks) {
					if st["type"] != string(Declare) {
						continue
					}
					for _, tg := range fireOdds(t, b, "leader", st["weapon"].(string), st["target"].([]int)).Targets {
						if _, ok := left[tg.Target]; ok {
							dists[tg.Target] = dists[tg.Target].Add(tg.Distributions[MeasureHits]).Cap(left[tg.Target])
						}
					}
				}
				brute = max(brute, scoreDists(o, dists, left))
				return true
			})
		}
		a := adv[0]
		if plans != a.Total {
			t.Errorf("%s: %d plans, brute force walked %d", o, a.Total, plans)
		}
		if math.Abs(a.Plans[0].Value-brute) > 1e-9 {
			t.Errorf("%s: advisor's best %.12f, brute force %.12f", o, a.Plans[0].Value, brute)
		}
		// Monte Carlo of the best plan.
		best := a.Plans[0]
		var sims []*volley.Sim
		for _, st := range best.Steps {
			if st["type"] == string(Declare) {
				at := st["target"].([]int)
				sq := geom.Sq(at[0], at[1])
				sim, err := b.Sampler(&Order{Type: Fire, Unit: "leader", Weapon: st["weapon"].(string), Target: &sq})
				if err != nil {
					t.Fatal(err)
				}
				sims = append(sims, sim)
			}
		}
		const trials = 200_000
		total := 0.0
		for n := range trials {
			d := dice.ForActionUnrecorded(5, n)
			hits := map[string]int{}
			for _, sim := range sims {
				out := make([]int, len(sim.Targets)*len(sim.Measures))
				sim.Draw(d, out)
				for i, id := range sim.Targets {
					hits[id] += out[i*len(sim.Measures)]
				}
			}
			dists := map[string]dice.Dist{}
			for id, l := range left {
				dists[id] = dice.Const(min(hits[id], l))
			}
			total += scoreDists(o, dists, left)
		}
		mc := total / trials
		if tol := rulestest.AdviceTolerance * max(1, best.Value); math.Abs(mc-best.Value) > tol {
			t.Errorf("%s: exact %.4f, Monte Carlo %.4f", o, best.Value, mc)
		}
		t.Logf("%s: %d plans, best %.4f (Monte Carlo %.4f) %v", o, a.Total, best.Value, mc, best.Steps)
	}
}

// scoreDists is an objective's value from each enemy's distribution of hits lost.
func scoreDists(o advise.Objective, d map[string]dice.Dist, left map[string]int) float64 {
	v := 0.0
	switch o.Kind {
	case advise.Expected:
		for _, x := range d {
			v += x.Mean()
		}
	case advise.Destroyed:
		for id, x := range d {
			v += x.AtLeast(left[id])
		}
	case advise.Destroy:
		v = d[o.Unit].AtLeast(left[o.Unit])
	case advise.AtLeast:
		total := dice.Const(0)
		for _, x := range d {
			total = total.Add(x)
		}
		v = total.AtLeast(o.K)
	}
	return v
}
