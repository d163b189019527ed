package dropzone

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/scenario"
)

// randomShots is a scenario with a rolled number of shots, passive countermeasures and
// Devastator, so that every branch of the odds is simulated.
const randomShots = `
ruleset: dropzone
types:
  - name: Gunship
    armour: 8
    damage_points: 4
    base: 1
    height: 1
    weapons:
      - {name: Rotary, mf: "-", arc: F/S/R, full_range: 30, countered_range: 30, shots: D3+1, accuracy: 4+, energy: 5, special: [Devastator 1]}
      - {name: Rockets, mf: "-", arc: F, full_range: 30, countered_range: 30, shots: 2, accuracy: "-", energy: 6}
  - name: Walker
    armour: 7
    damage_points: 3
    base: 1
    height: 1
    countermeasures: {passive: 4+, evasion: 1}
units:
  - {id: g1, type: Gunship, side: A, squad: g, at: [0, 0]}
  - {id: g2, type: Gunship, side: A, squad: g, at: [3, 0]}
  - {id: w1, type: Walker, side: B, at: [0, 10]}
  - {id: w2, type: Walker, side: B, at: [4, 10]}
action:
  declarations:
    - {unit: g1, weapon: Rotary, target: w1}
    - {unit: g1, weapon: Rockets, target: w1}
    - {unit: g2, weapon: Rotary, target: w2}
`

func TestSimAgreesWithOdds(t *testing.T) {
	const trials = 200_000
	sys.SimAgreesWithOdds(t, 20261121, trials,
		[]string{"sabres.yaml", "checks.yaml"},
		map[string]string{"random-shots": randomShots})
}

// TestResolveAgreesWithOdds rolls the real Resolve, trace and all, on fresh battles and
// checks its damage against the odds: the fast sampler and Resolve must implement the
// same rules.
func TestResolveAgreesWithOdds(t *testing.T) {
	const trials = 4000
	src := sys.ReadExample(t, "sabres.yaml")
	for name, text := range map[string][]byte{"sabres": []byte(src), "random-shots": []byte(randomShots)} {
		t.Run(name, func(t *testing.T) {
			doc, err := scenario.Parse(name, text)
			if err != nil {
				t.Fatal(err)
			}
			b0, a0, err := Ruleset{}.Load(doc)
			if err != nil {
				t.Fatal(err)
			}
			odds, _ := b0.Odds(context.Background(), a0)
			counts := map[string]map[int]int{}
			destroyed := map[string]int{}
			for n := range trials {
				b, a, _ := Ruleset{}.Load(doc)
				out := rulestest.MustResolve(t, b, a, dice.ForAction(99, n))
				for _, r := range out.Targets {
					if counts[r.Target] == nil {
						counts[r.Target] = map[int]int{}
					}
					counts[r.Target][int(r.Measures[MeasureDamage])]++
					if r.Destroyed {
						destroyed[r.Target]++
					}
				}
			}
			for _, x := range odds.Targets {
				d := x.Distributions[MeasureDamage]
				for v := d.Min(); v <= d.Max(); v++ {
					got := float64(counts[x.Target][v]) / trials
					if !rulestest.Agrees(d.P(v), got, trials) {
						t.Errorf("%s P(damage=%d): resolved %.4f, exact %.4f", x.Target, v, got, d.P(v))
					}
				}
				if got := float64(destroyed[x.Target]) / trials; !rulestest.Agrees(x.PDestroyed, got, trials) {
					t.Errorf("%s destroyed: resolved %.4f, exact %.4f", x.Target, got, x.PDestroyed)
				}
			}
		})
	}
}

// TestOddsSumToOne guards the invariant on every example.
func TestOddsSumToOne(t *testing.T) {
	for _, name := range []string{"sabres.yaml", "checks.yaml", "coherency-evasion.yaml", "equalizer-vs-hunter.yaml"} {
		b, a := sys.LoadFile(t, name)
		odds := rulestest.Odds(t, b, a)
		for _, tg := range odds.Targets {
			for m, d := range tg.Distributions {
				sum := 0.0
				for _, o := range d.Outcomes() {
					if o.P < 0 {
						t.Errorf("%s %s %s: negative probability at %d", name, tg.Target, m, o.Value)
					}
					sum += o.P
				}
				if math.Abs(sum-1) > 1e-12 {
					t.Errorf("%s %s %s sums to %v", name, tg.Target, m, sum)
				}
			}
		}
	}
}

// FuzzLoad feeds arbitrary documents to the Dropzone loader (see rulestest.CheckLoad).
func FuzzLoad(f *testing.F) {
	sys.Seed(f, "sabres.yaml", "checks.yaml", "coherency-evasion.yaml", "equalizer-vs-hunter.yaml")
	f.Add([]byte(randomShots))
	f.Add([]byte(template))
	for _, bad := range []string{"Devastator 10", "shots: 2000,", "evasion: 12", "full_range: CQ, countered_range: CQ", "at: [9999, -9999]"} {
		f.Add([]byte(strings.NewReplacer("Devastator 1", bad, "shots: 2,", bad, "evasion: 1", bad, "full_range: 20\", countered_range: 10\"", bad, "at: [0, 10]", bad).Replace(template)))
	}
	f.Add([]byte("ruleset: dropzone\nunits: []\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		rulestest.CheckLoad(t, Ruleset{}, src, func(b volley.Battle, a volley.Action) bool {
			// A valid but expensive question is not what this fuzzer is for.
			total := 0
			for _, d := range a.(*Shooting).Declarations {
				u, _ := b.(*Battle).Unit(d.Shooter)
				total += u.Type.weapon(d.Weapon).Shots.Max()
			}
			return total > 2000
		})
	})
}
