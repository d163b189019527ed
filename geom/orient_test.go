package geom

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// orientRat is Orient's determinant computed in rational arithmetic: the oracle.
func orientRat(a, b, c Vec) int {
	r := func(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
	sub := func(x, y float64) *big.Rat { return new(big.Rat).Sub(r(x), r(y)) }
	l := new(big.Rat).Mul(sub(a.X, c.X), sub(b.Y, c.Y))
	rr := new(big.Rat).Mul(sub(a.Y, c.Y), sub(b.X, c.X))
	return l.Sub(l, rr).Sign()
}

// TestOrientExact: Orient agrees with rational arithmetic on points a few units in the
// last place off a line, where the float64 cross product gets the sign wrong, and on
// random and exactly collinear points.
func TestOrientExact(t *testing.T) {
	naiveWrong := 0
	check := func(a, b, c Vec) {
		t.Helper()
		want := orientRat(a, b, c)
		if got := Orient(a, b, c); got != want {
			t.Fatalf("Orient(%v, %v, %v) = %d; want %d", a, b, c, got, want)
		}
		naive := b.Sub(a).Cross(c.Sub(a))
		if naive > 0 && want <= 0 || naive < 0 && want >= 0 || naive == 0 && want != 0 {
			naiveWrong++
		}
	}
	// Kettner et al.'s grid: a point stepped by the last place near the line through
	// two others.
	for _, base := range []Vec{V(0.5, 0.5), V(12.25, 7.1), V(1e-3, 3e-3)} {
		b, c := V(12, 12), V(24, 24)
		if base.X != 0.5 {
			b, c = base.Scale(2).Add(V(1e-7, 0)), base.Scale(3)
		}
		for i := range 32 {
			for j := range 32 {
				a := V(base.X+float64(i)*ulp(base.X), base.Y+float64(j)*ulp(base.Y))
				check(a, b, c)
				check(b, c, a)
				check(c, a, b)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 4000 {
		a, b := V(r.Float64()*100, r.Float64()*100), V(r.Float64()*100, r.Float64()*100)
		check(a, b, V(r.Float64()*100, r.Float64()*100))
		// On the line through a and b as nearly as float64 allows, and exactly on it.
		c := a.Lerp(b, r.Float64()*3-1)
		check(a, b, c)
		check(a, b, a)
		check(V(a.X, 1), V(a.X, 5), V(a.X, r.Float64()))
	}
	if naiveWrong < 100 {
		t.Errorf("the cross product got only %d signs wrong: the test does not reach the hard cases", naiveWrong)
	}
}

func ulp(x float64) float64 { return math.Nextafter(x, math.Inf(1)) - x }

// TestAppendHull: on random point sets, some with many points on one line or repeated,
// the hull turns strictly anticlockwise at every corner, holds every point (none lies
// right of an edge, by Orient) and has only points of the set as corners.
func TestAppendHull(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for k := range 5000 {
		n := r.IntN(12)
		pts := make([]Vec, n)
		for i := range pts {
			switch r.IntN(4) {
			case 0: // on a line
				pts[i] = V(1, 2).Lerp(V(3, 7), r.Float64())
			case 1: // a repeat
				if i > 0 {
					pts[i] = pts[r.IntN(i)]
					continue
				}
				fallthrough
			default:
				pts[i] = V(r.Float64()*4, r.Float64()*4)
			}
		}
		orig := map[Vec]bool{}
		for _, p := range pts {
			orig[p] = true
		}
		all := append([]Vec(nil), pts...)
		h := AppendHull([]Vec{V(-1, -1)}, pts)[1:]
		if len(h) < 3 {
			// No area: every point on one line.
			for _, p := range all {
				if Orient(all[0], all[len(all)-1], p) != 0 && len(all) >= 3 {
					for _, q := range all {
						if Orient(all[0], p, q) != 0 {
							t.Fatalf("set %d: hull %v of %v has no area, but the points do not lie on one line", k, h, all)
						}
					}
				}
			}
			continue
		}
		for i := range h {
			a, b, c := h[i], h[(i+1)%len(h)], h[(i+2)%len(h)]
			if Orient(a, b, c) <= 0 {
				t.Fatalf("set %d: hull %v does not turn anticlockwise at %v", k, h, b)
			}
			if !orig[a] {
				t.Fatalf("set %d: hull corner %v is not one of the points", k, a)
			}
			for _, p := range all {
				if Orient(a, b, p) < 0 {
					t.Fatalf("set %d: %v lies outside the hull's edge %v–%v", k, p, a, b)
				}
			}
		}
	}
}

func TestAppendHullAllocs(t *testing.T) {
	pts := []Vec{V(0, 0), V(2, 0), V(1, -1e-17), V(2, 2), V(0, 2), V(1, 1)}
	dst := make([]Vec, 0, 8)
	if n := testing.AllocsPerRun(50, func() { dst = AppendHull(dst[:0], pts) }); n != 0 {
		t.Errorf("AppendHull allocates %v times; want 0", n)
	}
	if len(dst) != 5 {
		t.Errorf("hull %v; want the square and the hair-high corner on its base", dst)
	}
}

func BenchmarkOrient(b *testing.B) {
	a, c := V(0.5, 0.5), V(24, 24)
	b.Run("clear", func(b *testing.B) {
		for b.Loop() {
			Orient(a, V(12, 13), c)
		}
	})
	b.Run("on the line", func(b *testing.B) {
		for b.Loop() {
			Orient(a, V(12, 12), c)
		}
	})
}
