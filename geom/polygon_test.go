package geom

import (
	"math"
	"slices"
	"strings"
	"testing"
)

var (
	// square is 4×4 with its lower-left corner at the origin, anticlockwise.
	square = Polygon{V(0, 0), V(4, 0), V(4, 4), V(0, 4)}

	// ell is an L: a 4-wide foot along the bottom and a 1-wide upright on the
	// left, with its reflex vertex at (1, 1). Anticlockwise.
	ell = Polygon{V(0, 0), V(4, 0), V(4, 1), V(1, 1), V(1, 4), V(0, 4)}

	// cup is a U, 6 wide and 4 high, with a 2×2 notch cut from the top
	// middle (floor of the notch at y = 2). Clockwise, to cover both windings.
	cup = Polygon{V(0, 0), V(0, 4), V(2, 4), V(2, 2), V(4, 2), V(4, 4), V(6, 4), V(6, 0)}
)

// reversed returns p with its winding flipped.
func reversed(p Polygon) Polygon {
	q := slices.Clone(p)
	slices.Reverse(q)
	return q
}

func TestPolygonContains(t *testing.T) {
	tests := []struct {
		name string
		p    Polygon
		q    Vec
		want bool
	}{
		{"square centre", square, V(2, 2), true},
		{"square near edge", square, V(3.999, 0.001), true},
		{"square outside", square, V(5, 2), false},
		{"square outside level with edge", square, V(-1, 0), false},
		{"square on left edge", square, V(0, 2), false},
		{"square on top edge", square, V(2, 4), false},
		{"square on vertex", square, V(0, 0), false},
		{"square on far vertex", square, V(4, 4), false},
		{"ell foot", ell, V(3, 0.5), true},
		{"ell upright", ell, V(0.5, 3), true},
		{"ell corner", ell, V(0.5, 0.5), true},
		{"ell notch", ell, V(3, 3), false},
		{"ell notch level with reflex vertex", ell, V(2, 1.5), false},
		{"ell reflex vertex", ell, V(1, 1), false},
		{"ell inner edge", ell, V(2, 1), false},
		{"ell inner upright edge", ell, V(1, 2), false},
		{"ell ray through reflex vertex", ell, V(0.5, 1), true},
		{"cup left arm", cup, V(1, 3), true},
		{"cup notch", cup, V(3, 3), false},
		{"cup notch floor", cup, V(3, 2), false},
		{"cup base", cup, V(3, 1), true},
		{"too few vertices", Polygon{V(0, 0), V(1, 1)}, V(0.5, 0.5), false},
	}
	for _, tt := range tests {
		if got := tt.p.Contains(tt.q); got != tt.want {
			t.Errorf("%s: Contains(%v) = %v; want %v", tt.name, tt.q, got, tt.want)
		}
		if got := reversed(tt.p).Contains(tt.q); got != tt.want {
			t.Errorf("%s reversed: Contains(%v) = %v; want %v", tt.name, tt.q, got, tt.want)
		}
	}
}

func TestPolygonMeasures(t *testing.T) {
	tests := []struct {
		name             string
		p                Polygon
		area             float64
		centroid         Vec
		boundMin, boundX Vec
	}{
		{"square", square, 16, V(2, 2), V(0, 0), V(4, 4)},
		{"ell", ell, 7, V(9.5/7, 9.5/7), V(0, 0), V(4, 4)},
		{"cup", cup, 20, V(3, 1.8), V(0, 0), V(6, 4)},
		{"far away", Polygon{V(1e6, 1e6), V(1e6+2, 1e6), V(1e6, 1e6+2)}, 2, V(1e6+2.0/3, 1e6+2.0/3), V(1e6, 1e6), V(1e6+2, 1e6+2)},
		{"flat", Polygon{V(0, 0), V(1, 0), V(2, 0)}, 0, V(1, 0), V(0, 0), V(2, 0)},
	}
	for _, tt := range tests {
		for _, p := range []Polygon{tt.p, reversed(tt.p)} {
			if got := p.Area(); math.Abs(got-tt.area) > 1e-9 {
				t.Errorf("%s: Area() = %v; want %v", tt.name, got, tt.area)
			}
			if got := p.Centroid(); !got.Eq(tt.centroid, 1e-9) {
				t.Errorf("%s: Centroid() = %v; want %v", tt.name, got, tt.centroid)
			}
			if lo, hi := p.Bounds(); lo != tt.boundMin || hi != tt.boundX {
				t.Errorf("%s: Bounds() = %v, %v; want %v, %v", tt.name, lo, hi, tt.boundMin, tt.boundX)
			}
		}
	}
}

func TestPolygonValidate(t *testing.T) {
	tests := []struct {
		name string
		p    Polygon
		want string // substring of the error; "" for valid
	}{
		{"square", square, ""},
		{"ell", ell, ""},
		{"cup", cup, ""},
		{"triangle", Polygon{V(0, 0), V(1, 0), V(0, 1)}, ""},
		{"empty", nil, "0 vertices"},
		{"two", Polygon{V(0, 0), V(1, 0)}, "2 vertices"},
		{"not finite", Polygon{V(0, 0), V(math.Inf(1), 0), V(0, 1)}, "not finite"},
		{"repeat", Polygon{V(0, 0), V(1, 0), V(1, 0), V(0, 1)}, "vertex 2 repeats vertex 1"},
		{"closed explicitly", Polygon{V(0, 0), V(1, 0), V(0, 1), V(0, 0)}, "vertex 0 repeats vertex 3"},
		{"bow tie", Polygon{V(0, 0), V(1, 1), V(1, 0), V(0, 1)}, "cross"},
		{"spike", Polygon{V(0, 0), V(2, 0), V(1, 0), V(1, 1)}, "fold back"},
		{"flat", Polygon{V(0, 0), V(1, 0), V(2, 0)}, "fold back"},
		{"hairline", Polygon{V(0, 0), V(2, 0), V(1, 1e-12)}, "no area"},
	}
	for _, tt := range tests {
		err := tt.p.Validate()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: Validate() = %v; want nil", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: Validate() = %v; want error containing %q", tt.name, err, tt.want)
		case err != nil && !strings.HasPrefix(err.Error(), "geom: "):
			t.Errorf("%s: Validate() = %q; want a \"geom: \" prefix", tt.name, err)
		}
	}
}

func TestPolygonSegmentInside(t *testing.T) {
	tests := []struct {
		name string
		p    Polygon
		s    Segment
		want []Interval
	}{
		{"through both arms of the cup", cup, Segment{V(-1, 3), V(7, 3)},
			[]Interval{{1.0 / 8, 3.0 / 8}, {5.0 / 8, 7.0 / 8}}},
		{"along the cup's notch floor", cup, Segment{V(-1, 2), V(7, 2)},
			[]Interval{{1.0 / 8, 3.0 / 8}, {5.0 / 8, 7.0 / 8}}},
		{"through the cup's base", cup, Segment{V(-1, 1), V(7, 1)},
			[]Interval{{1.0 / 8, 7.0 / 8}}},
		{"up through the notch", cup, Segment{V(3, -1), V(3, 5)},
			[]Interval{{1.0 / 6, 3.0 / 6}}},
		{"starts inside", square, Segment{V(2, 2), V(6, 2)}, []Interval{{0, 0.5}}},
		{"ends inside", square, Segment{V(-2, 2), V(2, 2)}, []Interval{{0.5, 1}}},
		{"wholly inside", square, Segment{V(1, 1), V(3, 2)}, []Interval{{0, 1}}},
		{"corner to corner", square, Segment{V(-1, -1), V(5, 5)}, []Interval{{1.0 / 6, 5.0 / 6}}},
		{"along an edge", square, Segment{V(-1, 0), V(5, 0)}, nil},
		{"along an edge, ends on it", square, Segment{V(1, 4), V(3, 4)}, nil},
		{"grazes a vertex", square, Segment{V(-1, 1), V(1, -1)}, nil},
		{"grazes the far vertex", square, Segment{V(3, 5), V(5, 3)}, nil},
		{"grazes the ell's reflex vertex from outside", ell, Segment{V(1, 2), V(2, 1)}, nil},
		{"touches the ell's reflex vertex from inside", ell, Segment{V(0.5, 1.5), V(1.5, 0.5)}, []Interval{{0, 1}}},
		// From the upright at (0.5, 2), falling 3 in 8: leaves the upright at
		// x = 1, crosses the notch, meets the foot's top (y = 1) at
		// x = 0.5 + 8/3 and leaves the foot's end at x = 4.
		{"across the ell's notch", ell, Segment{V(0.5, 2), V(4.5, 0.5)},
			[]Interval{{0, 1.0 / 8}, {2.0 / 3, 7.0 / 8}}},
		{"misses", square, Segment{V(5, 5), V(6, 7)}, nil},
		{"point inside", square, Segment{V(1, 1), V(1, 1)}, []Interval{{0, 1}}},
		{"point on edge", square, Segment{V(0, 1), V(0, 1)}, nil},
	}

	for _, tt := range tests {
		for _, p := range []Polygon{tt.p, reversed(tt.p)} {
			got := p.SegmentInside(tt.s)
			if !intervalsEq(got, tt.want, 1e-12) {
				t.Errorf("%s: SegmentInside(%v) = %v; want %v", tt.name, tt.s, got, tt.want)
			}
		}
	}
}

func intervalsEq(a, b []Interval, eps float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i].T0-b[i].T0) > eps || math.Abs(a[i].T1-b[i].T1) > eps {
			return false
		}
	}
	return true
}

func TestAppendSegmentInsideKeepsDst(t *testing.T) {
	dst := []Interval{{0.1, 0.2}}
	// The first new interval starts where dst's last one ends, but it belongs
	// to another call, so it must not be merged into it.
	got := square.AppendSegmentInside(dst, Segment{V(-4.5, 2), V(5.5, 2)})
	want := []Interval{{0.1, 0.2}, {0.45, 0.85}}
	if !intervalsEq(got, want, 1e-12) {
		t.Errorf("AppendSegmentInside = %v; want %v", got, want)
	}
}

func TestAppendSegmentInsideManyCrossings(t *testing.T) {
	// A comb with 40 teeth gives more crossings than fit on the stack.
	var comb Polygon
	const teeth = 40
	for i := range teeth {
		x := float64(2 * i)
		comb = append(comb, V(x, 0), V(x, 2), V(x+1, 2), V(x+1, 0))
	}
	// Close it along a spine underneath.
	comb = append(comb, V(2*teeth-1, -1), V(0, -1))
	if err := comb.Validate(); err != nil {
		t.Fatal(err)
	}
	got := comb.SegmentInside(Segment{V(-1, 1), V(2*teeth+1, 1)})
	if len(got) != teeth {
		t.Fatalf("SegmentInside across comb gave %d intervals; want %d", len(got), teeth)
	}
}

func TestAppendSegmentInsideAllocs(t *testing.T) {
	dst := make([]Interval, 0, 8)
	s := Segment{V(-1, 3), V(7, 3)}
	allocs := testing.AllocsPerRun(100, func() {
		dst = cup.AppendSegmentInside(dst[:0], s)
	})
	if allocs != 0 {
		t.Errorf("AppendSegmentInside allocates %v times per call; want 0", allocs)
	}
}

func BenchmarkPolygonContains(b *testing.B) {
	q := V(3, 1)
	for b.Loop() {
		cup.Contains(q)
	}
}

func BenchmarkAppendSegmentInside(b *testing.B) {
	dst := make([]Interval, 0, 8)
	s := Segment{V(-1, 3), V(7, 3)}
	for b.Loop() {
		dst = cup.AppendSegmentInside(dst[:0], s)
	}
}
