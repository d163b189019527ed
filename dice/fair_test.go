package dice

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

func TestTestFair(t *testing.T) {
	tests := []struct {
		name  string
		faces []int
		chi2  float64
		p     float64
		exact bool
	}{
		// Every face once: the most even spread there is, so every spread is at
		// least as uneven.
		{"even d6", []int{1, 1, 1, 1, 1, 1}, 0, 1, true},
		// A coin thrown twice, both heads: of the 4 equally likely sequences, HH and TT
		// are as uneven (chi-square 2), HT and TH are not.
		{"two heads", []int{2, 0}, 2, 0.5, true},
		// A d6 thrown once: every spread is the same.
		{"one throw", []int{0, 0, 0, 1, 0, 0}, 5, 1, true},
		// Three throws of a d3, all the same face: 3 of the 27 sequences (chi-square 6).
		{"d3 three alike", []int{3, 0, 0}, 6, 3.0 / 27, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := TestFair("blue", tt.faces)
			if math.Abs(f.ChiSquare-tt.chi2) > 1e-12 || math.Abs(f.P-tt.p) > 1e-12 || f.Exact != tt.exact {
				t.Errorf("TestFair(%v) = chi2 %v, p %v, exact %v; want %v, %v, %v", tt.faces, f.ChiSquare, f.P, f.Exact, tt.chi2, tt.p, tt.exact)
			}
		})
	}
}

// The exact sum and the chi-square distribution agree closely once every face is
// expected often: a d6 thrown 30 times (about 325,000 spreads) with a lopsided spread.
func TestTestFairExactNearChiSquare(t *testing.T) {
	faces := []int{9, 6, 5, 4, 3, 3}
	f := TestFair("", faces)
	if !f.Exact {
		t.Fatalf("30 throws of a d6 were not summed exactly (%d ways allowed)", MaxExactWays)
	}
	approx := distuv.ChiSquared{K: 5}.Survival(f.ChiSquare)
	if math.Abs(f.P-approx) > 0.03 {
		t.Errorf("exact p %v, chi-square p %v: they should be within 0.03 at 30 throws", f.P, approx)
	}
	if f.P <= 0.2 || f.P >= 0.6 {
		t.Errorf("p = %v for %v; want a middling chance (about 0.4)", f.P, faces)
	}
}

func TestFairnessOf(t *testing.T) {
	var rolls []Roll
	for range 100 {
		rolls = append(rolls, Roll{Sides: 6, Value: 6, By: "red"})
	}
	for v := 1; v <= 6; v++ {
		for range 20 {
			rolls = append(rolls, Roll{Sides: 6, Value: v, By: "blue"})
		}
	}
	rolls = append(rolls, Roll{Sides: 10, Value: 3}, Roll{Sides: 1, Value: 1})
	got := FairnessOf(rolls)
	if len(got) != 3 {
		t.Fatalf("FairnessOf gave %d tests, want 3 (volley's d10, blue's d6, red's d6): %+v", len(got), got)
	}
	if got[0].By != "" || got[0].Sides != 10 || got[1].By != "blue" || got[2].By != "red" {
		t.Errorf("order: %+v", got)
	}
	if blue := got[1]; blue.Rolls != 120 || blue.ChiSquare != 0 || blue.P != 1 || blue.Exact {
		t.Errorf("blue's even 120 throws: %+v; want chi-square 0, p 1, from the distribution", blue)
	}
	if red := got[2]; red.P > 1e-12 {
		t.Errorf("red's hundred sixes: p = %v, want (nearly) 0", red.P)
	}
}

func ExampleTestFair() {
	f := TestFair("blue", []int{2, 3, 1, 2, 4, 8})
	fmt.Printf("%d throws, chi-square %.1f, p %.3f (exact %v)\n", f.Rolls, f.ChiSquare, f.P, f.Exact)
	// Output: 20 throws, chi-square 9.4, p 0.099 (exact true)
}

// The exact sum stops where its walk would pass MaxExactWays: a d6 is summed up to 31
// throws, a d10 up to 12.
func TestTestFairExactUpTo(t *testing.T) {
	for _, tt := range []struct{ sides, most int }{{6, 31}, {10, 12}} {
		for _, n := range []int{tt.most, tt.most + 1} {
			faces := make([]int, tt.sides)
			faces[0] = n
			if got, want := TestFair("", faces).Exact, n == tt.most; got != want {
				t.Errorf("d%d thrown %d times: exact %v, want %v", tt.sides, n, got, want)
			}
		}
	}
}

func BenchmarkTestFair(b *testing.B) {
	faces := []int{9, 6, 5, 4, 4, 3} // 31 throws: the largest exact d6
	for b.Loop() {
		TestFair("", faces)
	}
}
