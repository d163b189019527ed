package dice

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"testing"
)

// Property tests, fuzz targets and benchmarks for Dist; dist_test.go has
// the table tests.

// randomDist builds a small random distribution from r.
func randomDist(r *rand.Rand) Dist {
	switch r.IntN(5) {
	case 0:
		return Const(r.IntN(11) - 5)
	case 1:
		return Die(1 + r.IntN(12))
	case 2:
		return Bernoulli(r.Float64())
	case 3:
		return Binomial(r.IntN(30), r.Float64())
	}
	m := map[int]float64{}
	var sum float64
	for range 1 + r.IntN(6) {
		w := r.Float64()
		m[r.IntN(21)-10] += w
		sum += w
	}
	for k := range m {
		m[k] /= sum
	}
	d, err := FromMap(m)
	if err != nil {
		panic(err)
	}
	return d
}

// applyOp applies operation op, with arguments drawn from r, to d.
func applyOp(d Dist, op int, r *rand.Rand) Dist {
	switch op % 12 {
	case 0:
		return d.Add(randomDist(r))
	case 1:
		return d.Sub(randomDist(r))
	case 2:
		return d.Neg()
	case 3:
		return d.Shift(r.IntN(21) - 10)
	case 4:
		return d.SumN(r.IntN(6))
	case 5:
		k := 1 + r.IntN(4)
		return d.Map(func(x int) int { return x / k })
	case 6:
		return d.Cap(d.Min() + r.IntN(d.Max()-d.Min()+2) - 1)
	case 7:
		return d.Floor(d.Min() + r.IntN(d.Max()-d.Min()+2) - 1)
	case 8:
		return d.Floor(0).Thin(r.Float64())
	case 9:
		return d.Then(func(x int) Dist { return Die(1 + abs(x)%6) })
	case 10:
		w := r.Float64()
		return Mixture([]float64{w, 1 - w}, []Dist{d, randomDist(r)})
	}
	// Keep the spread bounded so long chains stay cheap.
	return d.Map(func(x int) int { return x % 50 })
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestRandomOps chains random operations and checks every result keeps
// Dist's rules.
func TestRandomOps(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for chain := range 300 {
		d := randomDist(r)
		for step := range 8 {
			op := r.IntN(12)
			d = applyOp(d, op, r)
			if err := invariantError(d); err != "" {
				t.Fatalf("chain %d step %d op %d: %v: %s", chain, step, op, d, err)
			}
			if d.Max()-d.Min() > 400 {
				d = d.Map(func(x int) int { return x % 50 })
			}
		}
	}
}

func FuzzDistOps(f *testing.F) {
	f.Add(uint64(1), []byte{0, 1, 2, 3})
	f.Add(uint64(7), []byte{4, 4, 4, 8, 9})
	f.Add(uint64(9), []byte{10, 11, 5, 6, 7})
	f.Fuzz(func(t *testing.T, seed uint64, ops []byte) {
		if len(ops) > 32 {
			ops = ops[:32]
		}
		r := rand.New(rand.NewPCG(seed, 0))
		d := randomDist(r)
		for i, op := range ops {
			d = applyOp(d, int(op), r)
			if err := invariantError(d); err != "" {
				t.Fatalf("step %d op %d: %v: %s", i, op, d, err)
			}
			if d.Max()-d.Min() > 400 {
				d = d.Map(func(x int) int { return x % 50 })
			}
		}
	})
}

func FuzzUnmarshalDist(f *testing.F) {
	f.Add([]byte(`{"2":0.5,"10":0.5}`))
	f.Add([]byte(`{"-1":1}`))
	f.Add([]byte(`{"0":0.1,"1":0.9000000001}`))
	// Renormalising on every read once moved the last bits of this one.
	f.Add([]byte(`{"0":0.1,"1":0.9000000000001}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var d Dist
		if err := json.Unmarshal(data, &d); err != nil {
			return
		}
		checkInvariants(t, "Unmarshal", d)
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		var back Dist
		if err := json.Unmarshal(b, &back); err != nil || !sameDist(back, d, 0) {
			t.Fatalf("round trip of %s: %s gives %v, %v", data, b, back, err)
		}
	})
}

func TestAllocs(t *testing.T) {
	a, b := Die(6), Die(10)
	shot := Bernoulli(0.4).Add(Bernoulli(0.2))
	tests := []struct {
		name string
		f    func()
		want float64
	}{
		{"Add", func() { a.Add(b) }, 1},
		{"Sub", func() { a.Sub(b) }, 1},
		{"SumN", func() { shot.SumN(400) }, 2},
		{"AtLeast", func() { a.AtLeast(3) }, 0},
		{"Quantile", func() { a.Quantile(0.5) }, 0},
	}
	for _, tt := range tests {
		if got := testing.AllocsPerRun(100, tt.f); got > tt.want {
			t.Errorf("%s allocates %v times; want at most %v", tt.name, got, tt.want)
		}
	}
}

func BenchmarkSumN(b *testing.B) {
	shot := mustDist(b, map[int]float64{0: 0.5, 1: 0.3, 2: 0.2})
	for _, n := range []int{20, 400, 2000} {
		b.Run("n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				shot.SumN(n)
			}
		})
	}
}

func BenchmarkAdd(b *testing.B) {
	x, y := Die(6).SumN(10), Die(10).SumN(10)
	for b.Loop() {
		x.Add(y)
	}
}

func BenchmarkBinomial10000(b *testing.B) {
	for b.Loop() {
		Binomial(10000, 0.3)
	}
}
