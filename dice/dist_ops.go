package dice

import (
	"math"
	"math/bits"
	"strconv"
)

// settle makes freshly computed weights into a Dist that keeps the rules in
// Dist's doc comment: rounding may leave tiny negatives, which become 0;
// the weights are rescaled if their sum drifted from 1; and zero weights at
// either end are trimmed. It takes ownership of p and may write to it.
func settle(min int, p []float64) Dist {
	var sum float64
	for i, v := range p {
		if v < 0 {
			p[i] = 0
			continue
		}
		sum += v
	}
	if !(sum > 0) {
		panic("dice: internal error: distribution has no weight")
	}
	if sum != 1 {
		for i := range p {
			p[i] /= sum
		}
	}
	return trim(min, p)
}

// trim drops the zero weights at both ends of p, which must hold some
// weight, and makes the rest a Dist. It takes ownership of p.
func trim(min int, p []float64) Dist {
	lo, hi := 0, len(p)
	for p[lo] == 0 {
		lo++
	}
	for p[hi-1] == 0 {
		hi--
	}
	if hi-lo == 1 {
		return Dist{min: min + lo}
	}
	return Dist{min: min + lo, p: p[lo:hi]}
}

// convolveInto sets dst, of length len(a)+len(b)−1, to the convolution of
// a and b: the distribution of the sum of two independent variables. dst
// must not overlap a or b.
//
// This is the plain quadratic loop rather than an FFT: every term is a
// product of non-negative numbers, so the sums never cancel and even
// probabilities of 1e-300 in the tails come out with full relative
// precision, which an FFT cannot promise.
func convolveInto(dst, a, b []float64) {
	if len(a) > len(b) {
		a, b = b, a // the longer slice in the inner loop runs faster
	}
	clear(dst)
	for i, x := range a {
		if x == 0 {
			continue // underflowed tails of long sums are common
		}
		row := dst[i : i+len(b)]
		for j, y := range b {
			row[j] += float64(x * y) // no fused multiply-add: same bits on every CPU
		}
	}
}

// Add returns the distribution of X+Y for independent X from d and Y
// from e.
func (d Dist) Add(e Dist) Dist {
	switch {
	case e.isPoint():
		return d.Shift(e.min)
	case d.isPoint():
		return e.Shift(d.min)
	}
	out := make([]float64, len(d.p)+len(e.p)-1)
	convolveInto(out, d.p, e.p)
	return settle(d.min+e.min, out)
}

// Sub returns the distribution of X−Y for independent X from d and Y
// from e.
func (d Dist) Sub(e Dist) Dist {
	switch {
	case e.isPoint():
		return d.Shift(-e.min)
	case d.isPoint():
		return e.Neg().Shift(d.min)
	}
	// The same loop as convolveInto with e read backwards, rather than
	// d.Add(e.Neg()), to avoid building the reversed copy.
	out := make([]float64, len(d.p)+len(e.p)-1)
	last := len(e.p) - 1
	for i, x := range d.p {
		if x == 0 {
			continue
		}
		for j, y := range e.p {
			out[i+last-j] += float64(x * y)
		}
	}
	return settle(d.min-e.Max(), out)
}

// Neg returns the distribution of −X.
func (d Dist) Neg() Dist {
	if d.isPoint() {
		return Const(-d.min)
	}
	out := make([]float64, len(d.p))
	for i, v := range d.p {
		out[len(out)-1-i] = v
	}
	return Dist{min: -d.Max(), p: out}
}

// Shift returns the distribution of X+k.
func (d Dist) Shift(k int) Dist {
	// Sharing p is safe because no Dist is ever written to.
	return Dist{min: d.min + k, p: d.p}
}

// SumN returns the distribution of the sum of n independent copies of X,
// such as the total hits of n shots. n = 0 gives Const(0); it panics if
// n < 0.
//
// It squares and multiplies (binary exponentiation of convolution), which
// needs about 2·log2(n) convolutions instead of n. Going from the top bit of
// n down means the multiplications are by d itself, which is short, and
// only the squarings are long; it allocates the result and one scratch
// buffer, whatever n is.
func (d Dist) SumN(n int) Dist {
	switch {
	case n < 0:
		panic("dice: SumN: n must not be negative")
	case n == 0:
		return Const(0)
	case n == 1:
		return d
	case d.isPoint():
		return Const(d.min * n)
	}
	width := len(d.p) - 1
	if width > (math.MaxInt-1)/n {
		panic("dice: SumN: result too wide")
	}
	size := n*width + 1
	out := make([]float64, size)
	scratch := make([]float64, 2*size)
	bufs := [2][]float64{scratch[:size], scratch[size:]}
	next := 0

	// acc[i] is the probability that the copies summed so far exceed
	// their least possible total by off+i. Tails that underflow to 0 are
	// trimmed as we go, so later squarings skip them; for long sums that
	// is most of the range.
	acc, off := d.p, 0
	steps := bits.Len(uint(n)) - 1 + bits.OnesCount(uint(n)) - 1
	target := func(off, length int) []float64 {
		steps--
		if steps == 0 {
			return out[off : off+length] // the last step writes the result
		}
		buf := bufs[next][:length]
		next = 1 - next
		return buf
	}
	for bit := bits.Len(uint(n)) - 2; bit >= 0; bit-- {
		off *= 2
		dst := target(off, 2*len(acc)-1)
		squareInto(dst, acc)
		acc, off = trimZeros(dst, off)
		if n>>bit&1 == 1 {
			dst := target(off, len(acc)+width)
			convolveInto(dst, acc, d.p)
			acc, off = trimZeros(dst, off)
		}
	}
	return settle(d.min*n, out)
}

// squareInto sets dst, of length 2·len(a)−1, to the convolution of a with
// itself. Each cross term a[i]·a[j] occurs twice, so it is computed once
// and doubled, which halves the work of the squarings that dominate SumN.
func squareInto(dst, a []float64) {
	clear(dst)
	for i, x := range a {
		if x == 0 {
			continue
		}
		dst[2*i] += float64(x * x)
		twice := x + x
		rest := a[i+1:]
		row := dst[2*i+1 : 2*i+1+len(rest)]
		for j, y := range rest {
			row[j] += float64(twice * y)
		}
	}
}

// trimZeros drops the zeros at both ends of p, which starts at offset off,
// and returns what is left with its new offset.
func trimZeros(p []float64, off int) ([]float64, int) {
	lo, hi := 0, len(p)
	for lo < hi && p[lo] == 0 {
		lo++
	}
	for hi > lo && p[hi-1] == 0 {
		hi--
	}
	return p[lo:hi], off + lo
}

// Map returns the distribution of f(X). f is called once for each value X
// can take. The result needs one probability for every integer between the
// smallest and largest value f returns, so f should not spread its results
// far apart.
func (d Dist) Map(f func(int) int) Dist {
	p := d.probs()
	ys := make([]int, len(p))
	lo, hi := math.MaxInt, math.MinInt
	for i, v := range p {
		if v == 0 {
			continue
		}
		y := f(d.min + i)
		ys[i] = y
		lo = min(lo, y)
		hi = max(hi, y)
	}
	out := make([]float64, hi-lo+1)
	for i, v := range p {
		if v != 0 {
			out[ys[i]-lo] += v
		}
	}
	return settle(lo, out)
}

// Cap returns the distribution of min(X, max), as when damage beyond a
// target's remaining points is wasted.
func (d Dist) Cap(max int) Dist {
	if max >= d.Max() {
		return d
	}
	if max <= d.min {
		return Const(max)
	}
	p := d.p
	k := max - d.min
	out := make([]float64, k+1)
	copy(out, p[:k])
	for _, v := range p[k:] {
		out[k] += v
	}
	return settle(d.min, out)
}

// Floor returns the distribution of max(X, min).
func (d Dist) Floor(min int) Dist {
	if min <= d.min {
		return d
	}
	if min >= d.Max() {
		return Const(min)
	}
	p := d.p
	k := min - d.min
	out := make([]float64, len(p)-k)
	for _, v := range p[:k+1] {
		out[0] += v
	}
	copy(out[1:], p[k+1:])
	return settle(min, out)
}

// Thin returns the distribution left when each of X's points is discarded
// independently with probability q, which is clamped to [0, 1]: the sum
// over k of P(X = k) times Binomial(k, 1−q). It is how, say, the hits of a
// volley become the hits that get past a save that stops each with
// probability q. X must not be negative: it panics if Min() < 0 or q is
// NaN. The work grows with the square of Max().
func (d Dist) Thin(q float64) Dist {
	if d.min < 0 {
		panic("dice: Thin: distribution has negative values")
	}
	keep := 1 - clampProbability("Thin", q)
	switch keep {
	case 1:
		return d
	case 0:
		return Const(0)
	}
	p := d.probs()
	top := d.Max()
	out := make([]float64, top+1)
	w := make([]float64, top+1) // reused for each Binomial(k, keep)
	for i, v := range p {
		k := d.min + i
		if v == 0 {
			continue
		}
		if k == 0 {
			out[0] += v
			continue
		}
		binomialInto(w[:k+1], k, keep)
		for j, b := range w[:k+1] {
			out[j] += float64(v * b)
		}
	}
	return settle(0, out)
}

// Then returns the distribution of a two-stage draw: x from d, then a value
// from f(x). It is how to roll for the number of shots and then for what
// those shots do. f is called once for each value d can take.
func (d Dist) Then(f func(x int) Dist) Dist {
	p := d.probs()
	ds := make([]Dist, len(p))
	for i, v := range p {
		if v != 0 {
			ds[i] = f(d.min + i)
		}
	}
	return mix(p, ds)
}

// Mixture returns the distribution that is ds[i] with probability
// weights[i]. The weights must be finite, not negative, and sum to 1 within
// 1e-9. It panics if they are not, or if the two slices differ in length,
// since either is a bug in the caller.
func Mixture(weights []float64, ds []Dist) Dist {
	if len(weights) != len(ds) {
		panic("dice: Mixture: weights and distributions differ in length")
	}
	var sum float64
	for i, w := range weights {
		if err := checkProbability("mixture component "+strconv.Itoa(i), w); err != nil {
			panic(err.Error())
		}
		sum += w
	}
	if math.Abs(sum-1) > sumTolerance {
		panic("dice: Mixture: weights do not sum to 1")
	}
	return mix(weights, ds)
}

// mix returns the weighted sum of ds. Components of weight 0 are skipped,
// so their Dists may be left as zero values.
func mix(weights []float64, ds []Dist) Dist {
	lo, hi := math.MaxInt, math.MinInt
	for i, w := range weights {
		if w != 0 {
			lo = min(lo, ds[i].min)
			hi = max(hi, ds[i].Max())
		}
	}
	out := make([]float64, hi-lo+1)
	for i, w := range weights {
		if w == 0 {
			continue
		}
		e := ds[i]
		row := out[e.min-lo:]
		for j, v := range e.probs() {
			row[j] += float64(w * v)
		}
	}
	return settle(lo, out)
}
