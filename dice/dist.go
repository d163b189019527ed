package dice

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Dist is a probability distribution over a contiguous range of integers,
// such as the number of hits a volley scores. The zero Dist is the constant
// 0. A Dist is an immutable value: every operation returns a new one, so
// Dists may be shared freely.
//
// Every Dist keeps three rules: no probability is negative, the
// probabilities sum to 1 within 1e-12, and the lowest and highest values
// have non-zero probability (zeros at either end are trimmed). A value
// whose probability is too small for a float64 (under about 1e-308, such as
// 700 ones on 700d7) counts as impossible, so Min and Max can lie inside
// the range the dice could in principle reach.
type Dist struct {
	// min is the lowest value; P(X = min+i) = p[i]. An empty p means all
	// the weight is on min, which is what makes the zero Dist Const(0) and
	// lets Const allocate nothing.
	min int
	p   []float64
}

// Outcome is one value a Dist can take and its probability.
type Outcome struct {
	Value int
	P     float64
}

// sumTolerance is how far from 1 the probabilities handed to FromMap,
// FromSlice or Mixture may sum before they are rejected as a mistake rather
// than rounding; within it they are rescaled to sum to 1.
const sumTolerance = 1e-9

// quantileTolerance absorbs rounding in cumulative sums, so that the median
// of a die whose cumulative probability is exactly 1/2 on paper, but 1/2
// less an ulp in floating point, is still found where the arithmetic says.
const quantileTolerance = 1e-12

// maxSpan bounds how many integers (Max−Min+1) a Dist built from outside
// data by FromMap may cover, so a hostile or mistyped key such as
// "1000000000" cannot make it allocate gigabytes.
const maxSpan = 1 << 20

// unit is the weights of a point mass. It is shared and must never be
// written to.
var unit = []float64{1}

// probs returns d's weights, with the point mass made explicit. The result
// must not be written to.
func (d Dist) probs() []float64 {
	if len(d.p) == 0 {
		return unit
	}
	return d.p
}

// isPoint reports whether d is a constant.
func (d Dist) isPoint() bool {
	return len(d.p) <= 1
}

// Const returns the distribution that is always k.
func Const(k int) Dist {
	return Dist{min: k}
}

// Die returns the distribution of one fair die: uniform on 1..sides. It
// panics if sides <= 0.
func Die(sides int) Dist {
	if sides <= 0 {
		panic("dice: Die: sides must be positive")
	}
	p := make([]float64, sides)
	for i := range p {
		p[i] = 1 / float64(sides)
	}
	return settle(1, p)
}

// Bernoulli returns 1 with probability p and 0 otherwise; p is clamped to
// [0, 1]. It panics if p is NaN, which is always a bug upstream.
func Bernoulli(p float64) Dist {
	p = clampProbability("Bernoulli", p)
	switch p {
	case 0:
		return Const(0)
	case 1:
		return Const(1)
	}
	return Dist{min: 0, p: []float64{1 - p, p}}
}

// clampProbability clamps p to [0, 1], since callers compute probabilities
// and small excursions from rounding are expected, but panics on NaN.
func clampProbability(fn string, p float64) float64 {
	switch {
	case math.IsNaN(p):
		panic("dice: " + fn + ": probability is NaN")
	case p < 0:
		return 0
	case p > 1:
		return 1
	}
	return p
}

// Binomial returns the distribution of the number of successes in n
// independent trials that each succeed with probability p, which is clamped
// to [0, 1]. It panics if n < 0 or p is NaN. It is accurate for n in the
// tens of thousands: values too unlikely to be represented are left out.
func Binomial(n int, p float64) Dist {
	if n < 0 {
		panic("dice: Binomial: n must not be negative")
	}
	p = clampProbability("Binomial", p)
	switch {
	case n == 0 || p == 0:
		return Const(0)
	case p == 1:
		return Const(n)
	}
	w := make([]float64, n+1)
	binomialInto(w, n, p)
	return settle(0, w)
}

// binomialInto fills w, which must have length n+1, with the Binomial(n, p)
// probabilities for 0 < p < 1.
//
// The factorials in the textbook formula overflow long before n = 10000,
// and working through logarithms loses digits, so instead each probability
// is the ratio of its neighbour's, starting at the mode with weight 1 and
// walking outwards. Every factor is positive and the weights only shrink,
// so nothing overflows or cancels; the weights are rescaled at the end.
func binomialInto(w []float64, n int, p float64) {
	clear(w)
	q := 1 - p
	mode := int(float64(n+1) * p)
	if mode > n {
		mode = n
	}
	w[mode] = 1
	for k := mode; k < n; k++ {
		v := w[k] * (float64(n-k) * p) / (float64(k+1) * q)
		if v == 0 {
			break // underflow: every value further out is smaller still
		}
		w[k+1] = v
	}
	for k := mode; k > 0; k-- {
		v := w[k] * (float64(k) * q) / (float64(n-k+1) * p)
		if v == 0 {
			break
		}
		w[k-1] = v
	}
	var sum float64
	for _, v := range w {
		sum += v
	}
	for i := range w {
		w[i] /= sum
	}
}

// FromMap returns the distribution that takes each key of m with the
// probability given. The probabilities must be finite, not negative, and
// sum to 1 within 1e-9; they are rescaled to sum to exactly 1 (within
// rounding). Keys may be spread over at most 2^20 consecutive integers.
func FromMap(m map[int]float64) (Dist, error) {
	if len(m) == 0 {
		return Dist{}, errors.New("dice: no outcomes")
	}
	lo, hi := math.MaxInt, math.MinInt
	for k, v := range m {
		if err := checkProbability(strconv.Itoa(k), v); err != nil {
			return Dist{}, err
		}
		lo = min(lo, k)
		hi = max(hi, k)
	}
	// Compared as unsigned so that keys near both ends of int cannot
	// overflow the subtraction into a small number.
	if uint(hi)-uint(lo) >= maxSpan {
		return Dist{}, fmt.Errorf("dice: outcomes %d to %d span more than %d values", lo, hi, maxSpan)
	}
	p := make([]float64, hi-lo+1)
	for k, v := range m {
		p[k-lo] = v
	}
	return fromWeights(lo, p)
}

// FromSlice returns the distribution with P(X = min+i) = p[i]. The rules
// for p are those of FromMap. p is copied, not kept.
func FromSlice(min int, p []float64) (Dist, error) {
	if len(p) == 0 {
		return Dist{}, errors.New("dice: no outcomes")
	}
	for i, v := range p {
		if err := checkProbability(strconv.Itoa(min+i), v); err != nil {
			return Dist{}, err
		}
	}
	return fromWeights(min, append([]float64(nil), p...))
}

// checkProbability rejects a probability that no distribution can hold.
func checkProbability(value string, p float64) error {
	if math.IsNaN(p) || math.IsInf(p, 0) || p < 0 {
		return fmt.Errorf("dice: probability of %s is %v", value, p)
	}
	return nil
}

// fromWeights checks that the already validated weights sum to 1 and makes
// them a Dist. It takes ownership of p.
func fromWeights(min int, p []float64) (Dist, error) {
	var sum float64
	for _, v := range p {
		sum += v
	}
	if math.Abs(sum-1) > sumTolerance {
		return Dist{}, fmt.Errorf("dice: probabilities sum to %v, not 1", sum)
	}
	// Weights that already sum to 1 within the rounding of their own sum are
	// kept bit for bit. Dividing them by that sum again would move their last
	// bits, so a distribution written by MarshalJSON would not read back as
	// itself (dividing by the sum never makes the new sum exactly 1).
	if math.Abs(sum-1) <= float64(len(p))*0x1p-52 {
		return trim(min, p), nil
	}
	return settle(min, p), nil
}

// P returns P(X = x).
func (d Dist) P(x int) float64 {
	p := d.probs()
	i := x - d.min
	if x < d.min || i >= len(p) {
		return 0
	}
	return p[i]
}

// AtLeast returns P(X >= t).
func (d Dist) AtLeast(t int) float64 {
	p := d.probs()
	if t <= d.min {
		return 1
	}
	if t-d.min >= len(p) {
		return 0
	}
	// The tail is summed directly rather than taken as 1 − CDF so that a
	// small chance, such as needing a run of sixes, keeps its digits.
	var sum float64
	for _, v := range p[t-d.min:] {
		sum += v
	}
	return min(sum, 1)
}

// AtMost returns P(X <= t), the same as CDF(t).
func (d Dist) AtMost(t int) float64 {
	p := d.probs()
	if t < d.min {
		return 0
	}
	if t-d.min >= len(p)-1 {
		return 1
	}
	var sum float64
	for _, v := range p[:t-d.min+1] {
		sum += v
	}
	return min(sum, 1)
}

// CDF returns P(X <= x).
func (d Dist) CDF(x int) float64 {
	return d.AtMost(x)
}

// Mean returns the expected value of X.
func (d Dist) Mean() float64 {
	// Summing offsets from min, then adding min, keeps precision when the
	// values are large but the spread is small.
	var m float64
	for i, v := range d.probs() {
		m += float64(float64(i) * v) // the conversion forbids a fused multiply-add: same bits on every CPU
	}
	return float64(d.min) + m
}

// Variance returns the variance of X.
func (d Dist) Variance() float64 {
	p := d.probs()
	var m float64
	for i, v := range p {
		m += float64(float64(i) * v) // the conversion forbids a fused multiply-add: same bits on every CPU
	}
	// Two passes (mean, then squared deviations) rather than E[X²]−E[X]²,
	// which cancels badly when the variance is small next to the mean.
	var s float64
	for i, v := range p {
		dx := float64(i) - m
		s += float64(dx * dx * v)
	}
	return s
}

// StdDev returns the standard deviation of X.
func (d Dist) StdDev() float64 {
	return math.Sqrt(d.Variance())
}

// Quantile returns the smallest x with CDF(x) >= q, comparing with a
// tolerance of 1e-12 so that rounding in the cumulative sum does not move
// the answer. It panics unless 0 < q <= 1.
func (d Dist) Quantile(q float64) int {
	if !(q > 0 && q <= 1) {
		panic("dice: Quantile: q must be in (0, 1]")
	}
	p := d.probs()
	var sum float64
	for i, v := range p {
		sum += v
		if sum >= q-quantileTolerance {
			return d.min + i
		}
	}
	return d.min + len(p) - 1
}

// Min returns the smallest value X can take.
func (d Dist) Min() int {
	return d.min
}

// Max returns the largest value X can take.
func (d Dist) Max() int {
	return d.min + len(d.probs()) - 1
}

// Outcomes returns the values X can take, in increasing order, with their
// probabilities. Values inside the range that have probability 0 are left
// out.
func (d Dist) Outcomes() []Outcome {
	p := d.probs()
	out := make([]Outcome, 0, len(p))
	for i, v := range p {
		if v != 0 {
			out = append(out, Outcome{Value: d.min + i, P: v})
		}
	}
	return out
}

// MarshalJSON encodes d as an object from value to probability, such as
// {"0":0.25,"1":0.5,"2":0.25}. Keys are in numeric order, so "2" comes
// before "10"; outcomes of probability 0 are left out; probabilities are
// written with enough digits to be read back exactly.
func (d Dist) MarshalJSON() ([]byte, error) {
	p := d.probs()
	b := make([]byte, 0, 2+len(p)*24)
	b = append(b, '{')
	first := true
	for i, v := range p {
		if v == 0 {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = strconv.AppendInt(b, int64(d.min+i), 10)
		b = append(b, '"', ':')
		b = strconv.AppendFloat(b, v, 'g', -1, 64)
	}
	return append(b, '}'), nil
}

// UnmarshalJSON decodes the form MarshalJSON writes, with the rules of
// FromMap. Keys may be in any order.
func (d *Dist) UnmarshalJSON(data []byte) error {
	var raw map[string]float64
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("dice: distribution: %w", err)
	}
	m := make(map[int]float64, len(raw))
	for k, v := range raw {
		x, err := strconv.Atoi(k)
		if err != nil {
			return fmt.Errorf("dice: distribution: outcome %q is not an integer", k)
		}
		m[x] = v
	}
	e, err := FromMap(m)
	if err != nil {
		return err
	}
	*d = e
	return nil
}

// String formats d for debugging, such as "{0: 0.25, 1: 0.5, 2: 0.25}",
// with probabilities rounded to 6 significant digits. Use MarshalJSON for
// the exact values.
func (d Dist) String() string {
	b := []byte{'{'}
	for i, o := range d.Outcomes() {
		if i > 0 {
			b = append(b, ',', ' ')
		}
		b = strconv.AppendInt(b, int64(o.Value), 10)
		b = append(b, ':', ' ')
		b = strconv.AppendFloat(b, o.P, 'g', 6, 64)
	}
	return string(append(b, '}'))
}
