package geom

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestConvex(t *testing.T) {
	tests := []struct {
		name string
		p    Polygon
		want bool
	}{
		{"square", square, true},
		{"square, clockwise", reversed(square), true},
		{"square with a straight corner", Polygon{V(0, 0), V(2, 0), V(4, 0), V(4, 4), V(0, 4)}, true},
		{"ell", ell, false},
		{"cup", cup, false},
		{"two points", Polygon{V(0, 0), V(1, 1)}, false},
	}
	for _, tt := range tests {
		if got := tt.p.Convex(); got != tt.want {
			t.Errorf("%s: Convex() = %v; want %v", tt.name, got, tt.want)
		}
	}
}

// checkTiling checks that pieces tile p: each convex and anticlockwise, with corners
// that are corners of p, areas summing to p's, and every point of a grid over p's box
// inside p exactly when it is inside one piece.
func checkTiling(t *testing.T, name string, p Polygon, pieces []Polygon) {
	t.Helper()
	corners := map[Vec]bool{}
	for _, v := range p {
		corners[v] = true
	}
	sum := 0.0
	for _, pc := range pieces {
		if !pc.Convex() || pc.signedArea2() <= 0 {
			t.Errorf("%s: piece %v is not convex and anticlockwise", name, pc)
		}
		for _, v := range pc {
			if !corners[v] {
				t.Errorf("%s: piece corner %v is not a corner of the polygon", name, v)
			}
		}
		sum += pc.Area()
	}
	if math.Abs(sum-p.Area()) > 1e-9*p.Area() {
		t.Errorf("%s: pieces' areas sum to %v; want %v", name, sum, p.Area())
	}
	lo, hi := p.Bounds()
	const n = 60
	for i := range n {
		for j := range n {
			q := V(lo.X+(hi.X-lo.X)*(float64(i)+0.37)/n, lo.Y+(hi.Y-lo.Y)*(float64(j)+0.61)/n)
			in := 0
			for _, pc := range pieces {
				if pc.Contains(q) {
					in++
				}
			}
			if p.Contains(q) && in != 1 || !p.Contains(q) && in != 0 && !onBoundary(p, q) {
				t.Errorf("%s: %v is inside the polygon: %v, in %d pieces", name, q, p.Contains(q), in)
			}
		}
	}
}

func onBoundary(p Polygon, q Vec) bool {
	for i := range p {
		if p.edge(i).DistTo(q) <= 1e-6 {
			return true
		}
	}
	return false
}

func TestConvexPieces(t *testing.T) {
	comb := Polygon{V(0, 0), V(10, 0), V(10, 3)}
	for x := 9.0; x > 0; x -= 2 {
		comb = append(comb, V(x, 1), V(x-1, 3))
	}
	tests := []struct {
		name string
		p    Polygon
		most int // pieces at most
	}{
		{"square", square, 1},
		{"square, clockwise", reversed(square), 1},
		// Hertel and Mehlhorn leave at most 2r+1 pieces for r reflex corners.
		{"ell", ell, 3},
		{"cup", cup, 5},
		{"cup, anticlockwise", reversed(cup), 5},
		{"comb", comb, 11},
		{"square with a straight corner", Polygon{V(0, 0), V(2, 0), V(4, 0), V(4, 4), V(0, 4)}, 1},
	}
	for _, tt := range tests {
		pieces := tt.p.ConvexPieces()
		if len(pieces) == 0 || len(pieces) > tt.most {
			t.Errorf("%s: %d pieces; want 1 to %d", tt.name, len(pieces), tt.most)
		}
		checkTiling(t, tt.name, tt.p, pieces)
	}
}

// TestConvexPiecesRandom cuts random star-shaped polygons (corners at random radii,
// in order round a centre), which have reflex corners anywhere.
func TestConvexPiecesRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for k := range 300 {
		n := 3 + r.IntN(30)
		p := make(Polygon, n)
		for i := range p {
			a := 2 * math.Pi * (float64(i) + 0.8*r.Float64()) / float64(n)
			rad := 1 + 9*r.Float64()
			p[i] = V(50+rad*math.Cos(a), -20+rad*math.Sin(a))
		}
		if p.Validate() != nil {
			continue
		}
		pieces := p.ConvexPieces()
		if len(pieces) > n-2 {
			t.Errorf("polygon %d: %d pieces from %d corners", k, len(pieces), n)
		}
		checkTiling(t, "random", p, pieces)
	}
}

func BenchmarkConvexPieces(b *testing.B) {
	comb := Polygon{V(0, 0), V(100, 0), V(100, 3)}
	for x := 99.0; x > 0; x -= 2 {
		comb = append(comb, V(x, 1), V(x-1, 3))
	}
	for b.Loop() {
		comb.ConvexPieces()
	}
}
