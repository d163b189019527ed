package dice

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
)

// checkInvariants fails the test if d breaks a rule of Dist's doc comment.
func checkInvariants(tb testing.TB, what string, d Dist) {
	tb.Helper()
	if err := invariantError(d); err != "" {
		tb.Fatalf("%s = %v: %s", what, d, err)
	}
}

// invariantError says which rule of Dist d breaks, or returns "".
func invariantError(d Dist) string {
	if len(d.p) == 1 {
		return "point mass stored as a slice"
	}
	if len(d.p) == 0 {
		return ""
	}
	if d.p[0] == 0 || d.p[len(d.p)-1] == 0 {
		return "zero probability at an end"
	}
	var sum float64
	for _, v := range d.p {
		if !(v >= 0) || math.IsInf(v, 0) {
			return "probability negative or not finite"
		}
		sum += v
	}
	if math.Abs(sum-1) > 1e-12 {
		return "probabilities sum to " + strconv.FormatFloat(sum, 'g', -1, 64)
	}
	return ""
}

// mustDist is FromMap for test tables.
func mustDist(tb testing.TB, m map[int]float64) Dist {
	tb.Helper()
	d, err := FromMap(m)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// sameDist reports whether a and b give every value the same probability
// within tol.
func sameDist(a, b Dist, tol float64) bool {
	lo, hi := min(a.Min(), b.Min()), max(a.Max(), b.Max())
	for x := lo; x <= hi; x++ {
		if math.Abs(a.P(x)-b.P(x)) > tol {
			return false
		}
	}
	return true
}

func closeRel(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Abs(want)
}

func TestTwoD6(t *testing.T) {
	d := Die(6).SumN(2)
	for x, ways := range map[int]int{1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1, 13: 0} {
		if got, want := d.P(x), float64(ways)/36; math.Abs(got-want) > 1e-15 {
			t.Errorf("2d6 P(%d) = %v; want %v", x, got, want)
		}
	}
	if d.Min() != 2 || d.Max() != 12 {
		t.Errorf("2d6 range = %d..%d; want 2..12", d.Min(), d.Max())
	}
	if got := d.Mean(); math.Abs(got-7) > 1e-12 {
		t.Errorf("2d6 Mean() = %v; want 7", got)
	}
	if got, want := d.Variance(), 35.0/6; math.Abs(got-want) > 1e-12 {
		t.Errorf("2d6 Variance() = %v; want %v", got, want)
	}
}

func TestSumNMatchesAdd(t *testing.T) {
	die := Die(6)
	chain := Const(0)
	for n := 0; n <= 13; n++ {
		got := die.SumN(n)
		checkInvariants(t, "Die(6).SumN", got)
		if !sameDist(got, chain, 1e-15) {
			t.Errorf("Die(6).SumN(%d) = %v; want %v", n, got, chain)
		}
		chain = chain.Add(die)
	}
}

func TestSumNLarge(t *testing.T) {
	shot := mustDist(t, map[int]float64{0: 0.5, 1: 0.3, 2: 0.2})
	for _, n := range []int{20, 400, 2000} {
		d := shot.SumN(n)
		checkInvariants(t, "SumN", d)
		if got, want := d.Mean(), float64(n)*shot.Mean(); !closeRel(got, want, 1e-12) {
			t.Errorf("SumN(%d).Mean() = %v; want %v", n, got, want)
		}
		if got, want := d.Variance(), float64(n)*shot.Variance(); !closeRel(got, want, 1e-10) {
			t.Errorf("SumN(%d).Variance() = %v; want %v", n, got, want)
		}
	}
}

func TestSumNEdges(t *testing.T) {
	tests := []struct {
		d    Dist
		n    int
		want Dist
	}{
		{Die(6), 0, Const(0)},
		{Die(6), 1, Die(6)},
		{Const(3), 5, Const(15)},
		{Const(-2), 4, Const(-8)},
		{Bernoulli(0.5), 2, mustDist(t, map[int]float64{0: .25, 1: .5, 2: .25})},
		{Die(2).Shift(-5), 2, mustDist(t, map[int]float64{-8: .25, -7: .5, -6: .25})},
	}
	for _, tt := range tests {
		if got := tt.d.SumN(tt.n); !sameDist(got, tt.want, 1e-15) {
			t.Errorf("%v.SumN(%d) = %v; want %v", tt.d, tt.n, got, tt.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Errorf("SumN(-1) did not panic")
		}
	}()
	Die(6).SumN(-1)
}

func TestBinomial(t *testing.T) {
	tests := []struct {
		n int
		p float64
	}{{1, 0.5}, {10, 0.3}, {100, 0.01}, {1000, 0.999}, {10000, 0.3}, {10000, 1e-6}, {20000, 0.5}}
	for _, tt := range tests {
		d := Binomial(tt.n, tt.p)
		checkInvariants(t, "Binomial", d)
		n := float64(tt.n)
		if got, want := d.Mean(), n*tt.p; !closeRel(got, want, 1e-9) {
			t.Errorf("Binomial(%d, %v).Mean() = %v; want %v", tt.n, tt.p, got, want)
		}
		if got, want := d.Variance(), n*tt.p*(1-tt.p); !closeRel(got, want, 1e-9) {
			t.Errorf("Binomial(%d, %v).Variance() = %v; want %v", tt.n, tt.p, got, want)
		}
	}
	// Exact small cases.
	if got, want := Binomial(4, 0.5).P(2), 6.0/16; math.Abs(got-want) > 1e-15 {
		t.Errorf("Binomial(4, 0.5).P(2) = %v; want %v", got, want)
	}
	if got, want := Binomial(3, 0.1).P(3), 0.001; math.Abs(got-want) > 1e-15 {
		t.Errorf("Binomial(3, 0.1).P(3) = %v; want %v", got, want)
	}
	for _, tt := range []struct {
		n    int
		p    float64
		want Dist
	}{{0, 0.5, Const(0)}, {7, 0, Const(0)}, {7, 1, Const(7)}, {7, -0.5, Const(0)}, {7, 2, Const(7)}} {
		if got := Binomial(tt.n, tt.p); !sameDist(got, tt.want, 0) {
			t.Errorf("Binomial(%d, %v) = %v; want %v", tt.n, tt.p, got, tt.want)
		}
	}
}

func TestBernoulli(t *testing.T) {
	tests := []struct {
		p    float64
		want Dist
	}{
		{0.25, mustDist(t, map[int]float64{0: .75, 1: .25})},
		{0, Const(0)},
		{1, Const(1)},
		{-1, Const(0)},
		{1.5, Const(1)},
	}
	for _, tt := range tests {
		if got := Bernoulli(tt.p); !sameDist(got, tt.want, 0) {
			t.Errorf("Bernoulli(%v) = %v; want %v", tt.p, got, tt.want)
		}
	}
}

func TestThin(t *testing.T) {
	tests := []struct {
		d    Dist
		q    float64
		want Dist
	}{
		{Const(2), 0.5, mustDist(t, map[int]float64{0: .25, 1: .5, 2: .25})},
		{Const(0), 0.5, Const(0)},
		{Die(6), 0, Die(6)},
		{Die(6), 1, Const(0)},
		{Bernoulli(0.5), 0.5, mustDist(t, map[int]float64{0: .75, 1: .25})},
		{Binomial(10, 0.6), 0.5, Binomial(10, 0.3)}, // thinning a binomial is a binomial
	}
	for _, tt := range tests {
		got := tt.d.Thin(tt.q)
		checkInvariants(t, "Thin", got)
		if !sameDist(got, tt.want, 1e-15) {
			t.Errorf("%v.Thin(%v) = %v; want %v", tt.d, tt.q, got, tt.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Errorf("Thin of a negative distribution did not panic")
		}
	}()
	Die(6).Shift(-3).Thin(0.5)
}

func TestCapFloorMap(t *testing.T) {
	d6 := Die(6)
	tests := []struct {
		name string
		got  Dist
		want Dist
	}{
		{"Cap(4)", d6.Cap(4), mustDist(t, map[int]float64{1: 1. / 6, 2: 1. / 6, 3: 1. / 6, 4: 3. / 6})},
		{"Cap(6)", d6.Cap(6), d6},
		{"Cap(1)", d6.Cap(1), Const(1)},
		{"Cap(-3)", d6.Cap(-3), Const(-3)},
		{"Floor(3)", d6.Floor(3), mustDist(t, map[int]float64{3: 3. / 6, 4: 1. / 6, 5: 1. / 6, 6: 1. / 6})},
		{"Floor(1)", d6.Floor(1), d6},
		{"Floor(6)", d6.Floor(6), Const(6)},
		{"Floor(9)", d6.Floor(9), Const(9)},
		{"Map(x%2)", d6.Map(func(x int) int { return x % 2 }), Bernoulli(0.5)},
		{"Map(2x)", d6.Map(func(x int) int { return 2 * x }), mustDist(t, map[int]float64{2: 1. / 6, 4: 1. / 6, 6: 1. / 6, 8: 1. / 6, 10: 1. / 6, 12: 1. / 6})},
		{"Map(const)", d6.Map(func(int) int { return 4 }), Const(4)},
		{"Neg", d6.Neg(), mustDist(t, map[int]float64{-6: 1. / 6, -5: 1. / 6, -4: 1. / 6, -3: 1. / 6, -2: 1. / 6, -1: 1. / 6})},
		{"Shift(10)", d6.Shift(10), Die(6).Map(func(x int) int { return x + 10 })},
		{"Sub", d6.Sub(d6), d6.Add(d6.Neg())},
		{"Sub const", d6.Sub(Const(1)), d6.Shift(-1)},
		{"const Sub", Const(1).Sub(d6), d6.Neg().Shift(1)},
		{"Add const", Const(2).Add(d6), d6.Shift(2)},
	}
	for _, tt := range tests {
		checkInvariants(t, tt.name, tt.got)
		if !sameDist(tt.got, tt.want, 1e-15) {
			t.Errorf("Die(6).%s = %v; want %v", tt.name, tt.got, tt.want)
		}
	}
}

func TestMixtureThen(t *testing.T) {
	m := Mixture([]float64{0.5, 0.5}, []Dist{Const(0), Die(2)})
	want := mustDist(t, map[int]float64{0: .5, 1: .25, 2: .25})
	if !sameDist(m, want, 1e-15) {
		t.Errorf("Mixture = %v; want %v", m, want)
	}
	// Roll a d3 for the number of shots, each hitting on a coin flip.
	hits := Die(3).Then(func(shots int) Dist { return Bernoulli(0.5).SumN(shots) })
	checkInvariants(t, "Then", hits)
	if got, want := hits.Mean(), 1.0; math.Abs(got-want) > 1e-15 {
		t.Errorf("d3 shots hitting on 4+: Mean() = %v; want %v", got, want)
	}
	if got, want := hits.P(3), 1.0/3/8; math.Abs(got-want) > 1e-15 {
		t.Errorf("d3 shots hitting on 4+: P(3) = %v; want %v", got, want)
	}
	// Thin is a Then with binomials.
	d := Die(8).Shift(-1)
	viaThen := d.Then(func(k int) Dist { return Binomial(k, 0.7) })
	if got := d.Thin(0.3); !sameDist(got, viaThen, 1e-15) {
		t.Errorf("Thin(0.3) = %v; want %v", got, viaThen)
	}
}

func TestMixturePanics(t *testing.T) {
	tests := []struct {
		name string
		w    []float64
		ds   []Dist
	}{
		{"length", []float64{1}, nil},
		{"sum", []float64{0.5, 0.6}, []Dist{Const(0), Const(1)}},
		{"negative", []float64{1.5, -0.5}, []Dist{Const(0), Const(1)}},
		{"NaN", []float64{math.NaN(), 1}, []Dist{Const(0), Const(1)}},
		{"empty", nil, nil},
	}
	for _, tt := range tests {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Mixture with bad %s did not panic", tt.name)
				}
			}()
			Mixture(tt.w, tt.ds)
		}()
	}
}

func TestQueries(t *testing.T) {
	d6 := Die(6)
	tests := []struct {
		name string
		got  float64
		want float64
	}{
		{"P(0)", d6.P(0), 0},
		{"P(3)", d6.P(3), 1. / 6},
		{"P(7)", d6.P(7), 0},
		{"AtLeast(5)", d6.AtLeast(5), 2. / 6},
		{"AtLeast(1)", d6.AtLeast(1), 1},
		{"AtLeast(-9)", d6.AtLeast(-9), 1},
		{"AtLeast(7)", d6.AtLeast(7), 0},
		{"AtMost(2)", d6.AtMost(2), 2. / 6},
		{"AtMost(0)", d6.AtMost(0), 0},
		{"AtMost(6)", d6.AtMost(6), 1},
		{"CDF(3)", d6.CDF(3), 0.5},
		{"Mean", d6.Mean(), 3.5},
		{"Variance", d6.Variance(), 35. / 12},
		{"StdDev", d6.StdDev(), math.Sqrt(35. / 12)},
		{"zero Mean", Dist{}.Mean(), 0},
		{"zero P(0)", Dist{}.P(0), 1},
		{"zero Variance", Dist{}.Variance(), 0},
		{"tail", Die(6).SumN(10).AtLeast(60), math.Pow(6, -10)},
	}
	for _, tt := range tests {
		if math.Abs(tt.got-tt.want) > 1e-15*math.Max(1, tt.want) {
			t.Errorf("%s = %v; want %v", tt.name, tt.got, tt.want)
		}
	}
	// The tail of a long sum keeps its relative precision.
	if got, want := Die(6).SumN(10).AtLeast(60), math.Pow(6, -10); !closeRel(got, want, 1e-12) {
		t.Errorf("10d6 AtLeast(60) = %v; want %v", got, want)
	}
}

func TestQuantile(t *testing.T) {
	tests := []struct {
		d    Dist
		q    float64
		want int
	}{
		{Die(6), 0.5, 3},
		{Die(6), 1, 6},
		{Die(6), 1e-9, 1},
		{Die(6), 0.51, 4},
		{Die(6).SumN(2), 0.5, 7},
		{Const(4), 0.3, 4},
		{Dist{}, 1, 0},
	}
	for _, tt := range tests {
		if got := tt.d.Quantile(tt.q); got != tt.want {
			t.Errorf("%v.Quantile(%v) = %d; want %d", tt.d, tt.q, got, tt.want)
		}
	}
	for _, q := range []float64{0, -1, 1.5, math.NaN()} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Quantile(%v) did not panic", q)
				}
			}()
			Die(6).Quantile(q)
		}()
	}
}

func TestOutcomes(t *testing.T) {
	d := mustDist(t, map[int]float64{-1: 0.5, 0: 0, 2: 0.5})
	got := d.Outcomes()
	want := []Outcome{{-1, 0.5}, {2, 0.5}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Outcomes() = %v; want %v", got, want)
	}
	if got := (Dist{}).Outcomes(); len(got) != 1 || got[0] != (Outcome{0, 1}) {
		t.Errorf("zero Dist Outcomes() = %v; want [{0 1}]", got)
	}
}

func TestMarshalJSON(t *testing.T) {
	tests := []struct {
		d    Dist
		want string
	}{
		{mustDist(t, map[int]float64{2: 0.5, 10: 0.5}), `{"2":0.5,"10":0.5}`},
		{mustDist(t, map[int]float64{-3: 0.25, 0: 0.75}), `{"-3":0.25,"0":0.75}`},
		{Dist{}, `{"0":1}`},
		{Die(3), `{"1":0.3333333333333333,"2":0.3333333333333333,"3":0.3333333333333333}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.d)
		if err != nil || string(b) != tt.want {
			t.Errorf("json.Marshal(%v) = %s, %v; want %s", tt.d, b, err, tt.want)
		}
		var back Dist
		if err := json.Unmarshal(b, &back); err != nil || !sameDist(back, tt.d, 0) {
			t.Errorf("json.Unmarshal(%s) = %v, %v; want %v", b, back, err, tt.d)
		}
	}
	for _, bad := range []string{`{"x":1}`, `{"1":-1,"2":2}`, `{}`, `[1]`, `{"1":0.5}`} {
		var d Dist
		if err := json.Unmarshal([]byte(bad), &d); err == nil {
			t.Errorf("json.Unmarshal(%s) = %v; want an error", bad, d)
		}
	}
}

func TestString(t *testing.T) {
	tests := []struct {
		d    Dist
		want string
	}{
		{Bernoulli(0.5).SumN(2), "{0: 0.25, 1: 0.5, 2: 0.25}"},
		{Dist{}, "{0: 1}"},
		{Die(3), "{1: 0.333333, 2: 0.333333, 3: 0.333333}"},
	}
	for _, tt := range tests {
		if got := tt.d.String(); got != tt.want {
			t.Errorf("String() = %q; want %q", got, tt.want)
		}
	}
}

func TestFromMapErrors(t *testing.T) {
	tests := []struct {
		m    map[int]float64
		want string // part of the message
	}{
		{map[int]float64{0: -0.5, 1: 1.5}, "probability of 0 is -0.5"},
		{map[int]float64{0: math.NaN(), 1: 1}, "NaN"},
		{map[int]float64{0: math.Inf(1)}, "+Inf"},
		{map[int]float64{0: 0.5, 1: 0.4}, "sum to 0.9"},
		{map[int]float64{0: 0.5, 1: 0.6}, "sum to 1.1"},
		{map[int]float64{}, "no outcomes"},
		{map[int]float64{0: 0.5, 1 << 40: 0.5}, "span"},
		{map[int]float64{math.MinInt: 0.5, math.MaxInt: 0.5}, "span"},
	}
	for _, tt := range tests {
		d, err := FromMap(tt.m)
		if err == nil || !strings.HasPrefix(err.Error(), "dice: ") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("FromMap(%v) = %v, %v; want an error containing %q", tt.m, d, err, tt.want)
		}
	}
	// Within tolerance the probabilities are rescaled.
	d, err := FromMap(map[int]float64{0: 0.5, 1: 0.5 + 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, "FromMap", d)
}

func TestFromSlice(t *testing.T) {
	p := []float64{0, 0.5, 0, 0.5, 0}
	d, err := FromSlice(-2, p)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, "FromSlice", d)
	if d.Min() != -1 || d.Max() != 1 || d.P(0) != 0 {
		t.Errorf("FromSlice(-2, %v) = %v; want {-1: 0.5, 1: 0.5}", p, d)
	}
	p[1] = 7 // FromSlice must have copied
	if d.P(-1) != 0.5 {
		t.Errorf("FromSlice kept the caller's slice")
	}
	for _, bad := range [][]float64{nil, {0.5}, {-1, 2}, {math.NaN()}} {
		if d, err := FromSlice(0, bad); err == nil {
			t.Errorf("FromSlice(0, %v) = %v; want an error", bad, d)
		}
	}
}

func TestDieAndZero(t *testing.T) {
	checkInvariants(t, "Die(1)", Die(1))
	if d := Die(1); d.Min() != 1 || d.Max() != 1 {
		t.Errorf("Die(1) = %v; want {1: 1}", d)
	}
	var zero Dist
	if !sameDist(zero, Const(0), 0) || zero.Min() != 0 || zero.Max() != 0 {
		t.Errorf("zero Dist = %v; want Const(0)", zero)
	}
	if got := zero.Add(Die(6)); !sameDist(got, Die(6), 0) {
		t.Errorf("zero.Add(Die(6)) = %v; want Die(6)", got)
	}
}

func TestNaNPanics(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name string
		f    func()
	}{
		{"Bernoulli(NaN)", func() { Bernoulli(nan) }},
		{"Binomial(3, NaN)", func() { Binomial(3, nan) }},
		{"Binomial(-1, 0.5)", func() { Binomial(-1, 0.5) }},
		{"Thin(NaN)", func() { Die(6).Thin(nan) }},
		{"Die(0)", func() { Die(0) }},
	}
	for _, tt := range tests {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", tt.name)
				}
			}()
			tt.f()
		}()
	}
}
