package dice

import (
	"cmp"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Fair dice. Players who roll their own dice (a battle whose scenario says
// `dice: players`) may ask whether they fell as fair dice would. volley knows which
// die each roll was and how many sides it had, so it can test each die size's faces
// against the even spread of a fair die: Pearson's chi-square goodness-of-fit test, with
// the exact chance summed over every way the faces could have fallen while that sum is
// small enough to do, and the chi-square distribution beyond. None of this is in a rule
// text; it is statistics, and it says nothing about any one roll.

// MaxExactWays bounds the exact sum: it is summed while the partial spreads of n throws
// of a k-sided die it walks through (the counts of the first faces, with at most n
// throws among them: C(n+k, k-1) of them, every whole spread included) are at most
// this many; beyond it the chi-square distribution gives the chance, which is close once
// every face is expected about five times or more. 500,000 is a few milliseconds: a d6
// thrown up to 31 times, a d10 up to 12.
const MaxExactWays = 500_000

// Fairness is how one size of die, thrown by one roller, fell against a fair die.
type Fairness struct {
	// By is the side that rolled these dice by hand (Roll.By); empty for the dice
	// volley drew from a seed.
	By    string `json:"by,omitempty"`
	Sides int    `json:"sides"`
	Rolls int    `json:"rolls"`
	// Faces counts the throws of each face: Faces[i] those that came up i+1.
	Faces []int `json:"faces"`
	// ChiSquare is Pearson's statistic: the sum over the faces of (count − expected)² /
	// expected, where a fair die expects Rolls/Sides of each.
	ChiSquare float64 `json:"chi_square"`
	// P is the chance that fair dice, thrown as often, spread at least as unevenly
	// (a chi-square at least this large). A small P (under 1%) says these dice, or the
	// way they were read, are unlikely to be fair; a large one says nothing against them.
	P float64 `json:"p"`
	// Exact says P was summed over every way the faces could have fallen; otherwise it is
	// the chi-square distribution's, with Sides − 1 degrees of freedom.
	Exact bool `json:"exact"`
}

// FairnessOf tests the rolls of each roller and die size (Roll.By, Roll.Sides) against
// fair dice: one Fairness for each, ordered by roller (volley's own first), then sides.
// Dice of fewer than two sides, which cannot be unfair, are left out.
func FairnessOf(rolls []Roll) []Fairness {
	type key struct {
		by    string
		sides int
	}
	counts := map[key][]int{}
	for _, r := range rolls {
		if r.Sides < 2 || r.Value < 1 || r.Value > r.Sides {
			continue
		}
		k := key{r.By, r.Sides}
		if counts[k] == nil {
			counts[k] = make([]int, r.Sides)
		}
		counts[k][r.Value-1]++
	}
	out := make([]Fairness, 0, len(counts))
	for k, faces := range counts {
		out = append(out, TestFair(k.by, faces))
	}
	slices.SortFunc(out, func(a, b Fairness) int {
		return cmp.Or(cmp.Compare(a.By, b.By), cmp.Compare(a.Sides, b.Sides))
	})
	return out
}

// TestFair tests the counts of a die's faces (faces[i] the throws that came up i+1)
// against a fair die's, for the roller by.
func TestFair(by string, faces []int) Fairness {
	k := len(faces)
	f := Fairness{By: by, Sides: k, Faces: slices.Clone(faces)}
	squares := 0
	for _, c := range faces {
		f.Rolls += c
		squares += c * c
	}
	if f.Rolls == 0 || k < 2 {
		f.P, f.Exact = 1, true
		return f
	}
	n := float64(f.Rolls)
	// Σ (c − n/k)² / (n/k) = (k/n) Σ c² − n: the statistic grows with the sum of the
	// squared counts alone, which is an integer, so the exact sum below compares
	// integers rather than rounded statistics.
	f.ChiSquare = max(0, float64(k)/n*float64(squares)-n)
	if ways(f.Rolls+1, k) <= MaxExactWays {
		f.P, f.Exact = exactTail(f.Rolls, k, squares), true
	} else {
		f.P = distuv.ChiSquared{K: float64(k - 1)}.Survival(f.ChiSquare)
	}
	return f
}

// ways is C(n+k-1, k-1), the ways n throws spread over k faces, stopping once it passes
// MaxExactWays. ways(n+1, k) is C(n+k, k-1), the partial spreads of n throws.
func ways(n, k int) int {
	w := 1
	for i := 1; i < k; i++ {
		w = w * (n + i) / i
		if w > MaxExactWays {
			return w
		}
	}
	return w
}

// exactTail is the chance that n throws of a fair k-sided die give a sum of squared
// counts of at least squares: the multinomial chance n!/(Π cᵢ!)/kⁿ of every spread of
// the throws over the faces whose sum of squares reaches it.
func exactTail(n, k, squares int) float64 {
	lf := make([]float64, n+1) // lf[i] = ln i!
	for i := 2; i <= n; i++ {
		lf[i] = lf[i-1] + math.Log(float64(i))
	}
	base := lf[n] - float64(n)*math.Log(float64(k))
	var p float64
	// spread places the throws left on face i onwards, with the sum of squares and
	// the log of Π cᵢ! so far.
	var spread func(i, left, sq int, logDen float64)
	spread = func(i, left, sq int, logDen float64) {
		if i == k-1 {
			if sq+left*left >= squares {
				p += math.Exp(base - logDen - lf[left])
			}
			return
		}
		for c := 0; c <= left; c++ {
			spread(i+1, left-c, sq+c*c, logDen+lf[c])
		}
	}
	spread(0, n, 0, 0)
	return min(p, 1)
}
