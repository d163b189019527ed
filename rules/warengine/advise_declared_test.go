package warengine

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rulestest"
)

// afterDeclared by hand: a target of 2 hits that the declared fire takes 1 hit off half
// the time, shot by a weapon that takes 0, 1 or 2 hits off it (0.4, 0.3, 0.3). This
// shot destroys it where it takes 2 (0.5 × 0.3) or where it takes 1 or 2 after the
// declared fire's 1 (0.5 × 0.6): 0.45, the chance of the two together less the declared
// fire's alone (0). A target the declared fire surely destroys gains nothing.
func TestAfterDeclared(t *testing.T) {
	for _, c := range []struct {
		own, declared, want []float64
	}{
		{[]float64{0.4, 0.3, 0.3}, []float64{0.5, 0.5, 0}, []float64{0.4, 0.15, 0.45}},
		{[]float64{0.4, 0.3, 0.3}, []float64{1, 0, 0}, []float64{0.4, 0.3, 0.3}},
		{[]float64{0.4, 0.3, 0.3}, []float64{0, 0, 1}, []float64{1, 0, 0}},
		{[]float64{0.4, 0.3, 0.3}, []float64{0.2, 0.3, 0.5}, []float64{0.5 + 0.2*0.4 + 0.3*0.4, 0.2 * 0.3, 0.2*0.3 + 0.3*0.6}},
	} {
		got := afterDeclared(c.own, c.declared)
		for i := range c.want {
			if math.Abs(got[i]-c.want[i]) > 1e-12 {
				t.Errorf("afterDeclared(%v, %v) = %v, want %v", c.own, c.declared, got, c.want)
				break
			}
		}
	}
}

// declaredScenario: two riflemen of blue in their target phase, hale having declared at
// red-1; the advice for cole is asked.
const declaredScenario = `ruleset: warengine
turn: {side: blue, phase: PHASE}
map:
  legend:
    ".": {name: open}
  rows: |
    ............
    ............
    ............
    ............
    ............
weapons:
  - {name: Rifle, arc: 90, short: {range: 10, accuracy: 10}, medium: {range: 20}, long: {range: 30}, strength: 45, damage: [1, 3]}
types:
  - {name: Rifleman, weapon_skill: 50, hits: 2, toughness: {default: {front: 15, side: 10, rear: 5}}, save: 10,
     weapons: [{weapon: Rifle, group: 1}]}
units:
  - {id: hale, type: Rifleman, side: blue, at: [1, 1], facing: E, aiming: true, TARGETS}
  - {id: cole, type: Rifleman, side: blue, at: [1, 3], facing: E, aiming: true}
  - {id: red-1, type: Rifleman, side: red, at: [8, 1], facing: W}
  - {id: red-2, type: Rifleman, side: red, at: [8, 3], facing: W}
`

// In blue's target phase cole's shot at red-1 is scored by what it adds to hale's
// declared shot there, from the Odds of the two fire orders: its chance to destroy red-1
// is the chance of the two shots together less hale's alone. Its shot at red-2, which
// nothing else is declared at, is its own odds; and in the fire phase, or with nothing
// declared, a shot is its own odds too.
func TestAdviceCountsDeclaredFire(t *testing.T) {
	ctx := context.Background()
	load := func(phase, targets string) *Battle {
		b, _ := sys.Load(t, strings.NewReplacer("PHASE", phase, "TARGETS", targets).Replace(declaredScenario))
		return b
	}
	// The hits red-1 and red-2 lose to a rifle's fire at their squares, by Odds.
	hits := func(b *Battle, unit string, at geom.Square, target string) []float64 {
		odds := rulestest.Odds(t, b, &Order{Type: Fire, Unit: unit, Weapon: "Rifle", Target: &at})
		for _, tg := range odds.Targets {
			if tg.Target == target {
				return advise.Capped(tg.Distributions[MeasureHits], 2)
			}
		}
		t.Fatalf("%s's fire at %v does not reach %s", unit, at, target)
		return nil
	}
	// pDestroyed is the chance cole's choice at square sq destroys target in its problem.
	pDestroyed := func(b *Battle, sq, target string) float64 {
		probs, err := b.Problems(ctx, advise.Query{Side: "blue", Actor: "cole"})
		if err != nil {
			t.Fatal(err)
		}
		p := probs[0]
		for _, c := range p.Slots[0].Choices {
			if c.Target != sq {
				continue
			}
			for _, e := range c.Effects {
				if p.Targets[e.Target].ID == target {
					return e.Dist[len(e.Dist)-1]
				}
			}
		}
		t.Fatalf("cole has no choice at %s striking %s", sq, target)
		return 0
	}
	declared := load("target", "targets: [{weapon: Rifle, at: [8, 1]}]")
	plain := load("target", "targets: []")
	r1, r2 := geom.Sq(8, 1), geom.Sq(8, 3)
	own, hale := hits(plain, "cole", r1, "red-1"), hits(plain, "hale", r1, "red-1")
	together := make([]float64, 3)
	advise.Convolve(together, hale, own)
	want := together[2] - hale[2]
	if got := pDestroyed(declared, "8,1", "red-1"); math.Abs(got-want) > 1e-12 || want >= own[2] {
		t.Errorf("cole at red-1 with hale's shot declared there: %.6f to destroy, want %.6f (its own odds %.6f)", got, want, own[2])
	}
	if got, want := pDestroyed(declared, "8,3", "red-2"), hits(plain, "cole", r2, "red-2")[2]; math.Abs(got-want) > 1e-12 {
		t.Errorf("cole at red-2, nothing declared there: %.6f, want its own odds %.6f", got, want)
	}
	if got := pDestroyed(plain, "8,1", "red-1"); math.Abs(got-own[2]) > 1e-12 {
		t.Errorf("nothing declared: %.6f, want its own odds %.6f", got, own[2])
	}
	if got := pDestroyed(load("fire", "targets: [{weapon: Rifle, at: [8, 1]}]"), "8,1", "red-1"); math.Abs(got-own[2]) > 1e-12 {
		t.Errorf("in the fire phase: %.6f, want its own odds %.6f", got, own[2])
	}
	// The best plan for cole is at red-2, which hale's shot leaves alone (at one of the
	// squares round it, where a miss may still strike it).
	adv, err := advise.Advise(ctx, declared, advise.Query{Side: "blue", Actor: "cole"}, advise.Objective{Kind: advise.Destroyed}, 1, advise.DefaultBudget)
	if err != nil {
		t.Fatal(err)
	}
	if tg := adv[0].Plans[0].Targets; len(tg) != 1 || tg[0].Target != "red-2" {
		t.Errorf("cole's best plan with hale's shot at red-1 strikes %+v, want red-2 alone", tg)
	}
}
