package dropzone

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/scenario"
)

// volleyOfShots is one weapon firing n shots that hit on 3+, then D6+3 against armour 6
// with criticals and the natural-1 rule: the case docs/benchmarks.md compares with a
// Python exact-dice library.
func volleyOfShots(n int) string {
	return fmt.Sprintf(`
ruleset: dropzone
types:
  - name: Battery
    armour: 6
    damage_points: 3
    base: 1
    height: 1
    weapons:
      - {name: Guns, mf: "-", arc: F/S/R, full_range: ∞, countered_range: ∞, shots: %d, accuracy: 3+, energy: 3}
  - name: Fortress
    armour: 6
    damage_points: 10000
    base: 2
    height: 2
units:
  - {id: battery, type: Battery, side: A, at: [0, 0]}
  - {id: fortress, type: Fortress, side: B, at: [0, 20]}
action:
  declarations:
    - {unit: battery, weapon: Guns, target: fortress}
`, n)
}

// sightEditions are the two ways a benchmark measures sight side by side: exactly
// (edition 4) and by 3 × 4 rays (edition 2).
var sightEditions = []struct {
	name    string
	edition int
}{{"exact", 4}, {"sampled", 2}}

// BenchmarkOddsShots measures the exact damage distribution of n shots, end to end
// (checks, line of sight, distributions), as Odds computes it.
func BenchmarkOddsShots(b *testing.B) {
	for _, n := range []int{20, 400, 2000} {
		b.Run(fmt.Sprintf("shots=%d", n), func(b *testing.B) {
			battle, a := sys.Load(b, volleyOfShots(n))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := battle.Odds(context.Background(), a); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSimDraw measures Monte Carlo per die: one draw of 2,000 shots rolls about
// 2,000 to-hit dice, 1,333 damage dice; the metric divides by the dice actually rolled.
func BenchmarkSimDraw(b *testing.B) {
	battle, a := sys.Load(b, volleyOfShots(2000))
	sim, err := battle.Sampler(a)
	if err != nil {
		b.Fatal(err)
	}
	out := make([]int, len(sim.Targets)*len(sim.Measures))
	d := dice.NewUnrecorded(1)
	var hits int
	for b.Loop() {
		sim.Draw(d, out)
		hits += out[1]
	}
	dicePerDraw := 2000 + float64(hits)/float64(b.N)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/dicePerDraw, "ns/die")
}

// BenchmarkSimulate measures the whole Monte Carlo run over both cores.
func BenchmarkSimulate(b *testing.B) {
	battle, a := sys.LoadFile(b, "sabres.yaml")
	sim, _ := battle.Sampler(a)
	for b.Loop() {
		volley.Simulate(sim, 1, 100_000, nil)
	}
}

func BenchmarkAimSabres(b *testing.B) {
	battle, a := sys.LoadFile(b, "sabres.yaml")
	b.ReportAllocs()
	for b.Loop() {
		rulestest.Aim(b, battle, a)
	}
}

func BenchmarkOddsSabres(b *testing.B) {
	battle, a := sys.LoadFile(b, "sabres.yaml")
	b.ReportAllocs()
	for b.Loop() {
		battle.Odds(context.Background(), a)
	}
}

func BenchmarkResolveSabres(b *testing.B) {
	battle, a := sys.LoadFile(b, "sabres.yaml")
	b.ReportAllocs()
	for b.Loop() {
		// Refresh damage points so the targets stay on the table, and the turn and the
		// activation so that the squad may shoot again (it shoots once an activation).
		for i := range battle.units {
			battle.units[i].DamagePoints = battle.units[i].Type.DamagePoints
		}
		battle.turns.Done = nil
		battle.act = activation{}
		if _, err := battle.Resolve(context.Background(), a, dice.ForAction(1, 0)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAimHullDown is the aim of checks.yaml, whose shots see past walls and a tower
// (hull down and blocked), measured exactly (edition 4) and by 9 × 8 rays (editions 2 and 3).
func BenchmarkAimHullDown(b *testing.B) {
	src := sys.ReadExample(b, "checks.yaml")
	for _, ed := range sightEditions {
		b.Run(ed.name, func(b *testing.B) {
			battle, a := loadEdition(b, src, ed.edition)
			b.ReportAllocs()
			for b.Loop() {
				rulestest.Aim(b, battle, a)
			}
		})
	}
}

// fiveTargets is the advisor's benchmark: a squad of three units with two weapons each,
// every weapon able to reach each of five enemy units of differing armour and damage
// points, so 5^6 = 15,625 legal plans.
const fiveTargets = `
ruleset: dropzone
types:
  - name: Striker
    armour: 10
    damage_points: 3
    base: 1.25
    height: 1
    weapons:
      - {name: Railgun, mf: "-", arc: F/S/R, full_range: ∞, countered_range: ∞, shots: 1, accuracy: 2+, energy: 10}
      - {name: Autocannon, mf: "-", arc: F/S/R, full_range: ∞, countered_range: ∞, shots: 3, accuracy: 3+, energy: 6}
  - {name: Heavy, armour: 10, damage_points: 4, base: 1.5, height: 1}
  - {name: Medium, armour: 8, damage_points: 3, base: 1.25, height: 1}
  - {name: Light, armour: 5, damage_points: 1, base: 1, height: 0.5}
units:
  - {id: s1, type: Striker, side: A, squad: strikers, at: [10, 0]}
  - {id: s2, type: Striker, side: A, squad: strikers, at: [14, 0]}
  - {id: s3, type: Striker, side: A, squad: strikers, at: [18, 0]}
  - {id: heavy-1, type: Heavy, side: B, at: [6, 20]}
  - {id: heavy-2, type: Heavy, side: B, at: [12, 20]}
  - {id: medium-1, type: Medium, side: B, at: [18, 20]}
  - {id: medium-2, type: Medium, side: B, at: [24, 20]}
  - {id: light, type: Light, side: B, at: [30, 20]}
`

// BenchmarkAdvise is the best plan of 15,625, from the battle to the advice: the 30
// weapon–target checks and distributions, then the search, under expected damage.
func BenchmarkAdvise(b *testing.B) {
	bt, _ := sys.Load(b, fiveTargets)
	for _, o := range []advise.Objective{{Kind: advise.Expected}, {Kind: advise.Destroyed}} {
		b.Run(string(o.Kind), func(b *testing.B) {
			for b.Loop() {
				if _, err := advise.Advise(context.Background(), bt, advise.Query{Side: "A", Actor: "strikers"}, o, 5, advise.DefaultBudget); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAdviseScaling is how the search grows with the squad: 3 units × 2 weapons
// against 5 targets (15,625 plans), then 4 units (390,625) and 5 units (9,765,625), under
// each objective.
func BenchmarkAdviseScaling(b *testing.B) {
	for _, n := range []int{3, 4, 5} {
		src := fiveTargets
		for i := 4; i <= n; i++ {
			src += fmt.Sprintf("  - {id: s%d, type: Striker, side: A, squad: strikers, at: [%d, 0]}\n", i, 14+4*i)
		}
		bt, _ := sys.Load(b, src)
		for _, o := range []advise.Objective{{Kind: advise.Expected}, {Kind: advise.Destroyed}, {Kind: advise.AtLeast, K: 4}} {
			b.Run(fmt.Sprintf("units=%d/%s", n, o.Kind), func(b *testing.B) {
				var adv []*advise.Advice
				for b.Loop() {
					var err error
					adv, err = advise.Advise(context.Background(), bt, advise.Query{Side: "A", Actor: "strikers"}, o, 5, advise.DefaultBudget)
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(adv[0].Total), "plans")
				b.ReportMetric(float64(adv[0].Scored), "scored")
			})
		}
	}
}

// BenchmarkDangerScaling is how the danger map grows with its points (the step), the
// enemy units and the terrain pieces, from crossfire.yaml's 9,216 points, 3 units and 10
// pieces.
func BenchmarkDangerScaling(b *testing.B) {
	base := sys.ReadExample(b, "crossfire.yaml")
	moreUnits := strings.Replace(base, "  - {id: sabre-1,", `  - {id: beast-4, type: Gun Beast, side: Scourge, squad: beasts-2, at: [6, 30], facing: 90}
  - {id: beast-5, type: Gun Beast, side: Scourge, squad: beasts-2, at: [42, 30], facing: 270}
  - {id: beast-6, type: Gun Beast, side: Scourge, squad: beasts-2, at: [24, 36], facing: 180}
  - {id: sabre-1,`, 1)
	var pieces strings.Builder
	for i := range 10 {
		x, y := 2+float64(i%5)*9, 30+float64(i/5)*6
		fmt.Fprintf(&pieces, "  - {id: crate-%d, polygon: [[%g, %g], [%g, %g], [%g, %g], [%g, %g]], height: 1.5}\n", i, x, y, x+2, y, x+2, y+1, x, y+1)
	}
	moreTerrain := strings.Replace(base, "\nunits:\n", "\n"+pieces.String()+"\nunits:\n", 1)
	for _, tc := range []struct {
		name, src string
		step      float64
	}{
		{"points=2304", base, 1}, {"points=9216", base, 0.5}, {"points=36864", base, 0.25},
		{"units=6", moreUnits, 0.5}, {"terrain=20", moreTerrain, 0.5},
	} {
		b.Run(tc.name, func(b *testing.B) {
			bt, _ := sys.Load(b, tc.src)
			q := advise.DangerQuery{Side: "UCM", As: "Sabre", Area: [4]float64{0, 0, 48, 48}, Step: tc.step}
			rulestest.BenchDanger(b, bt, q)
		})
	}
}

// BenchmarkDanger is the danger map of crossfire.yaml: a 48" × 48" table at 0.5" (9,216
// points), three enemy units with two weapons each, ten pieces of terrain, hull down
// measured exactly (edition 4) and by 9 × 8 rays (editions 2 and 3), on every core.
func BenchmarkDanger(b *testing.B) {
	src := sys.ReadExample(b, "crossfire.yaml")
	q := advise.DangerQuery{Side: "UCM", As: "Sabre", Area: [4]float64{0, 0, 48, 48}}
	for _, ed := range sightEditions {
		b.Run(ed.name, func(b *testing.B) {
			bt, _ := loadEdition(b, src, ed.edition)
			rulestest.BenchDanger(b, bt, q)
		})
	}
}

// squadOnATable is a squad of five Sabres among thirty pieces of terrain on a 48" table,
// and a move of two legs for each.
func squadOnATable() (string, []string) {
	var b strings.Builder
	b.WriteString("ruleset: dropzone\ntable: {width: 48, height: 48}\ntypes:\n  - {name: Sabre, armour: 10, damage_points: 3, base: 1.25, height: 1, move: 6}\nterrain:\n")
	for i := range 30 {
		x, y := 2+float64(i%6)*8, 14+float64(i/6)*7
		fmt.Fprintf(&b, "  - {id: block-%d, polygon: [[%g, %g], [%g, %g], [%g, %g], [%g, %g]], height: 2}\n", i, x, y, x+3, y, x+3, y+2, x, y+2)
	}
	b.WriteString("units:\n")
	var moves []string
	for i := range 5 {
		fmt.Fprintf(&b, "  - {id: s%d, type: Sabre, side: UCM, squad: sabres, at: [%d, 4]}\n", i, 4+i*8)
		moves = append(moves, fmt.Sprintf("{type: move, unit: s%d, path: [[%d, 7], [%d, 9]], facing: 10}", i, 4+i*8, 5+i*8))
	}
	b.WriteString("  - {id: h, type: Sabre, side: Scourge, at: [24, 46]}\n")
	return b.String(), moves
}

// BenchmarkMoveSquad validates and makes a squad's moves, five units of two legs each
// among thirty pieces of terrain, on a copy of the battle: decoding each move, checking
// its length and every leg against every base and every piece, and applying it.
func BenchmarkMoveSquad(b *testing.B) {
	src, moves := squadOnATable()
	bt, _ := sys.Load(b, src)
	docs := make([]*scenario.Doc, len(moves))
	for i, m := range moves {
		doc := rulestest.Parse(b, "move", m)
		docs[i] = doc
	}
	ctx := context.Background()
	for b.Loop() {
		f := bt.Fork()
		for i, doc := range docs {
			a, err := f.DecodeAction(doc)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := f.Resolve(ctx, a, dice.ForAction(1, i)); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkPosition is a Sabre's position map on crossfire.yaml: a 12" move on the 48"
// table at 0.5" (about 1,800 points it can reach), its two weapons against five enemy
// units, three of which fire back, ten pieces of terrain: the ways there, the offence
// and the danger, on every core.
func BenchmarkPosition(b *testing.B) { benchPosition(b, "sabre-2") }

// BenchmarkSquadPosition is the same table's map of the Sabres' squad moved as a
// formation: both Sabres' ways round the terrain, the squad's four weapons planned at the
// five enemy units from each point, and each Sabre's danger there.
func BenchmarkSquadPosition(b *testing.B) { benchPosition(b, "sabres") }

// benchPosition maps where unit (or squad) could stand on crossfireToMove's table.
func benchPosition(b *testing.B, unit string) {
	bt := crossfireToMove(b)
	m := rulestest.BenchPosition(b, bt, advise.PositionQuery{Unit: unit, Objective: advise.Objective{Kind: advise.Expected}})
	b.ReportMetric(float64(m.Reachable), "points")
}

// crossfireToMove is crossfire.yaml on a 48" table, the Sabres given a 12" move and
// sabre-2 brought south, two Scourge drones added.
func crossfireToMove(b *testing.B) *Battle {
	src := sys.ReadExample(b, "crossfire.yaml")
	s := strings.Replace(src, "    height: 1\n    weapons:", "    height: 1\n    move: 12\n    weapons:", 1)
	s = strings.Replace(s, "\ntypes:\n", "\ntypes:\n  - {name: Drone, armour: 6, damage_points: 2, base: 1, height: 0.5}\n", 1)
	s = strings.Replace(s, "  - {id: sabre-1,", "  - {id: drone-1, type: Drone, side: Scourge, at: [30, 34], facing: 180}\n  - {id: drone-2, type: Drone, side: Scourge, at: [16, 36], facing: 180}\n  - {id: sabre-1,", 1)
	s = strings.Replace(s, "{id: sabre-2, type: Sabre, side: UCM, squad: sabres, at: [24, 24], facing: 0}", "{id: sabre-2, type: Sabre, side: UCM, squad: sabres, at: [24, 14], facing: 0}", 1)
	bt, _ := sys.Load(b, "table: {width: 48, height: 48}\nturn: {side: UCM}\n"+s)
	return bt
}
