package dice_test

import (
	"encoding/json"
	"fmt"

	"github.com/volley-wargames/volley/dice"
)

func ExampleDie() {
	twoD6 := dice.Die(6).Add(dice.Die(6))
	fmt.Printf("P(7) = %.4f\n", twoD6.P(7))
	fmt.Printf("P(10 or more) = %.4f\n", twoD6.AtLeast(10))
	fmt.Printf("mean %.1f, median %d\n", twoD6.Mean(), twoD6.Quantile(0.5))
	// Output:
	// P(7) = 0.1667
	// P(10 or more) = 0.1667
	// mean 7.0, median 7
}

func ExampleDist_SumN() {
	// Each of 12 shots hits on a 5+ on a d6.
	hits := dice.Bernoulli(2.0 / 6).SumN(12)
	fmt.Printf("expected hits %.2f\n", hits.Mean())
	fmt.Printf("P(at least 6 hits) = %.4f\n", hits.AtLeast(6))
	// Output:
	// expected hits 4.00
	// P(at least 6 hits) = 0.1777
}

func ExampleDist_Thin() {
	// Two hits, each stopped by a save half of the time.
	got := dice.Const(2).Thin(0.5)
	fmt.Println(got)
	// Output:
	// {0: 0.25, 1: 0.5, 2: 0.25}
}

func ExampleDist_Then() {
	// Roll a d3 for the number of shots, then each hits on a 4+.
	hits := dice.Die(3).Then(func(shots int) dice.Dist {
		return dice.Bernoulli(0.5).SumN(shots)
	})
	fmt.Println(hits)
	// Output:
	// {0: 0.291667, 1: 0.458333, 2: 0.208333, 3: 0.0416667}
}

func ExampleDist_MarshalJSON() {
	d, _ := dice.FromMap(map[int]float64{10: 0.25, 2: 0.75})
	b, _ := json.Marshal(d)
	fmt.Println(string(b))
	// Output:
	// {"2":0.75,"10":0.25}
}

func ExampleForAction() {
	// Action 3 of battle 42 can be replayed on its own: its dice do not
	// depend on what the earlier actions threw.
	s := dice.ForAction(42, 3)
	s.Roll(6, "to-hit, shot 1")
	s.Roll(6, "to-hit, shot 2")
	for _, r := range s.Rolls() {
		fmt.Printf("%s: d%d = %d\n", r.Purpose, r.Sides, r.Value)
	}
	// Output:
	// to-hit, shot 1: d6 = 6
	// to-hit, shot 2: d6 = 2
}

func ExampleParseExpr() {
	e, err := dice.ParseExpr("D3 + E")
	if err != nil {
		fmt.Println(err)
		return
	}
	d, _ := e.Dist(map[string]int{"E": 2})
	fmt.Println(e, e.Vars(), d)

	_, err = dice.ParseExpr("2d+1")
	fmt.Println(err)
	// Output:
	// d3+E [E] {3: 0.333333, 4: 0.333333, 5: 0.333333}
	// dice: col 3: expected number of sides after "d"
}

func ExampleExpr_Roll() {
	s := dice.New(2024)
	shots, _ := dice.MustParseExpr("2d6+1").Roll(s, "shots", nil)
	fmt.Println(shots, s.Len())
	// Output:
	// 9 2
}

// A d6 to hit, and a d3 of damage only on a 5 or 6: every way the dice can fall, each
// once, with its chance.
func ExampleWays() {
	w := dice.NewWays()
	damage := map[int]float64{}
	for {
		s := w.Stream()
		d := 0
		if s.Roll(6, "to hit") >= 5 {
			d = s.Roll(3, "damage")
		}
		damage[d] += w.P()
		if !w.Next() {
			break
		}
	}
	fmt.Printf("%d ways: %.4f %.4f %.4f %.4f\n", w.Count(), damage[0], damage[1], damage[2], damage[3])
	// Output:
	// 10 ways: 0.6667 0.1111 0.1111 0.1111
}
