package opponent

import (
	"math"
	"testing"
)

// TestWilson: the 95% Wilson interval at values worked out by hand from its formula
// (z = 1.96): 10 of 10 gives 72.2% to 100%, the figure docs/opponent.md's small runs
// quote; 5 of 10 is symmetric about a half; no battles say nothing.
func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		k, n      float64
		low, high float64
	}{
		{10, 10, 0.7225, 1},
		{5, 10, 0.2366, 0.7634},
		{0, 10, 0, 0.2775},
		{0, 0, 0, 1},
	} {
		low, high := wilson(tc.k, tc.n)
		if math.Abs(low-tc.low) > 5e-5 || math.Abs(high-tc.high) > 5e-5 {
			t.Errorf("wilson(%g, %g) = %.4f, %.4f; want %.4f, %.4f", tc.k, tc.n, low, high, tc.low, tc.high)
		}
	}
}

// TestPercentiles: nearest rank, in any order given: of 1…20 the median is the 10th and
// the 95th percentile the 19th; of five values the 95th is the largest.
func TestPercentiles(t *testing.T) {
	twenty := make([]float64, 20)
	for i := range twenty {
		twenty[i] = float64(20 - i)
	}
	for _, tc := range []struct {
		xs   []float64
		want Percentiles
	}{
		{twenty, Percentiles{P50: 10, P95: 19, Max: 20}},
		{[]float64{5, 1, 3, 2, 4}, Percentiles{P50: 3, P95: 5, Max: 5}},
		{[]float64{7}, Percentiles{P50: 7, P95: 7, Max: 7}},
		{nil, Percentiles{}},
	} {
		if got := percentiles(tc.xs); got != tc.want {
			t.Errorf("percentiles(%v) = %+v; want %+v", tc.xs, got, tc.want)
		}
	}
}
