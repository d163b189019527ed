package geom

import (
	"fmt"
	"math"
	"testing"
)

func TestChebyshev(t *testing.T) {
	tests := []struct {
		a, b Square
		want int
	}{
		{Sq(0, 0), Sq(0, 0), 0},
		{Sq(0, 0), Sq(14, -9), 14}, // the seed's marine: 14 up and 9 across counts 14
		{Sq(3, 30), Sq(3, 8), 22},
		{Sq(5, 5), Sq(1, 9), 4},
	}
	for _, tt := range tests {
		if got := tt.a.Chebyshev(tt.b); got != tt.want {
			t.Errorf("%v.Chebyshev(%v) = %d; want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestGridBearing(t *testing.T) {
	tests := []struct {
		to   Square
		want float64
	}{
		{Sq(5, 4), 0}, {Sq(6, 4), 45}, {Sq(6, 5), 90}, {Sq(6, 6), 135},
		{Sq(5, 6), 180}, {Sq(4, 6), 225}, {Sq(4, 5), 270}, {Sq(4, 4), 315},
	}
	for _, tt := range tests {
		if got := GridBearing(Sq(5, 5), tt.to); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("GridBearing((5,5), %v) = %v; want %v", tt.to, got, tt.want)
		}
	}
}

func TestLine(t *testing.T) {
	tests := []struct {
		a, b Square
		alg  LineAlgorithm
		want string
	}{
		{Sq(0, 0), Sq(0, 0), Bresenham, "[0,0]"},
		{Sq(0, 0), Sq(3, 0), Bresenham, "[0,0 1,0 2,0 3,0]"},
		{Sq(0, 0), Sq(3, 3), Bresenham, "[0,0 1,1 2,2 3,3]"},
		// y = x/2 passes exactly between two rows at x = 1 and x = 3: Bresenham steps
		// to the next row there, so the line from the other end differs.
		{Sq(0, 0), Sq(4, 2), Bresenham, "[0,0 1,1 2,1 3,2 4,2]"},
		{Sq(4, 2), Sq(0, 0), Bresenham, "[4,2 3,1 2,1 1,0 0,0]"},
		{Sq(0, 0), Sq(3, 0), Supercover, "[0,0 1,0 2,0 3,0]"},
		// Through the corners of a diagonal: both neighbours at each corner.
		{Sq(0, 0), Sq(2, 2), Supercover, "[0,0 1,0 0,1 1,1 2,1 1,2 2,2]"},
		// y = x/3 crosses the corner at (1.5, 0.5): both (2,0) and (1,1) are touched.
		{Sq(0, 0), Sq(3, 1), Supercover, "[0,0 1,0 2,0 1,1 2,1 3,1]"},
		{Sq(0, 0), Sq(4, 2), Supercover, "[0,0 1,0 1,1 2,1 3,1 3,2 4,2]"},
	}
	for _, tt := range tests {
		if got := fmt.Sprint(Line(tt.a, tt.b, tt.alg)); got != tt.want {
			t.Errorf("Line(%v, %v, %v) = %s; want %s", tt.a, tt.b, tt.alg, got, tt.want)
		}
	}
}

// TestLineProperties: every line starts and ends at its ends, moves one square at a
// time, and has the length its algorithm promises.
func TestLineProperties(t *testing.T) {
	for ax := -3; ax <= 3; ax++ {
		for ay := -3; ay <= 3; ay++ {
			a, b := Sq(0, 0), Sq(ax*3+ay, ay*2-ax)
			for _, alg := range []LineAlgorithm{Bresenham, Supercover} {
				l := Line(a, b, alg)
				if l[0] != a || l[len(l)-1] != b {
					t.Fatalf("%v line %v→%v = %v", alg, a, b, l)
				}
				for i := 1; i < len(l); i++ {
					if l[i-1].Chebyshev(l[i]) != 1 {
						t.Fatalf("%v line %v→%v jumps: %v", alg, a, b, l)
					}
				}
				if alg == Bresenham && len(l) != a.Chebyshev(b)+1 {
					t.Errorf("Bresenham %v→%v has %d squares; want %d", a, b, len(l), a.Chebyshev(b)+1)
				}
			}
		}
	}
}

func BenchmarkLine128(b *testing.B) {
	buf := make([]Square, 0, 512)
	for b.Loop() {
		buf = AppendLine(buf[:0], Sq(0, 0), Sq(127, 45), Supercover)
	}
}
