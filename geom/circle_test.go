package geom

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestCircle(t *testing.T) {
	tests := []struct {
		a, b  Circle
		edge  float64
		exact bool // Touches with tol 0
		loose bool // Touches with tol 0.5
	}{
		{Circle{V(0, 0), 1}, Circle{V(5, 0), 1}, 3, false, false},
		{Circle{V(0, 0), 1}, Circle{V(3, 4), 1.5}, 2.5, false, false},
		{Circle{V(0, 0), 1}, Circle{V(2.25, 0), 1}, 0.25, false, true},
		{Circle{V(0, 0), 1}, Circle{V(2, 0), 1}, 0, true, true},   // exactly in contact
		{Circle{V(0, 0), 1}, Circle{V(1, 0), 1}, 0, true, true},   // overlapping
		{Circle{V(0, 0), 0}, Circle{V(0, 3), 0}, 3, false, false}, // points
	}
	for _, tt := range tests {
		if got := EdgeDistance(tt.a, tt.b); got != tt.edge {
			t.Errorf("EdgeDistance(%v, %v) = %v; want %v", tt.a, tt.b, got, tt.edge)
		}
		if got := tt.a.Touches(tt.b, 0); got != tt.exact {
			t.Errorf("%v.Touches(%v, 0) = %v; want %v", tt.a, tt.b, got, tt.exact)
		}
		if got := tt.a.Touches(tt.b, 0.5); got != tt.loose {
			t.Errorf("%v.Touches(%v, 0.5) = %v; want %v", tt.a, tt.b, got, tt.loose)
		}
	}
}

// TestOverlapping: the sweep finds exactly the pairs a test of every pair finds (bases
// that touch do not overlap), on random tables, and no more than it is asked for.
func TestOverlapping(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for scene := range 50 {
		cs := make([]Circle, 40)
		for i := range cs {
			cs[i] = Circle{C: V(rng.Float64()*30, rng.Float64()*30), R: rng.Float64() * 2}
		}
		cs[5] = Circle{C: V(cs[4].C.X+cs[4].R+1, cs[4].C.Y), R: 1} // touching 4: no overlap
		var want [][2]int
		for j := range cs {
			for i := range j {
				if cs[i].C.Dist(cs[j].C) < cs[i].R+cs[j].R-Tolerance {
					want = append(want, [2]int{i, j})
				}
			}
		}
		if got := Overlapping(cs, len(cs)*len(cs)); !slices.Equal(got, want) {
			t.Fatalf("scene %d: %v; want %v", scene, got, want)
		}
		if len(want) > 2 {
			if got := Overlapping(cs, 2); len(got) != 2 {
				t.Errorf("scene %d: asked for 2, got %d", scene, len(got))
			}
		}
	}
}
