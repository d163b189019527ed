package los

import (
	"math"
	"testing"

	"github.com/volley-wargames/volley/geom"
)

// trooper is a model on a 1"-wide base at (10, 0), 2" tall, on the table.
var trooper = Silhouette{Base: geom.Circle{C: geom.V(10, 0), R: 0.5}, Height: 2}

func TestSilhouettePoints(t *testing.T) {
	target := Silhouette{Base: geom.Circle{C: geom.V(10, 0), R: 1}, Bottom: 3, Height: 2}
	tests := []struct {
		name string
		eye  Point3
		want []Point3
	}{
		{"eye to the south", Point3{10, -10, 1}, []Point3{
			{9.5, 0, 3.5}, {10.5, 0, 3.5}, {9.5, 0, 4.5}, {10.5, 0, 4.5},
		}},
		{"eye to the east", Point3{30, 0, 1}, []Point3{
			{10, -0.5, 3.5}, {10, 0.5, 3.5}, {10, -0.5, 4.5}, {10, 0.5, 4.5},
		}},
		{"eye overhead", Point3{10, 0, 20}, []Point3{
			{9.5, 0, 3.5}, {10.5, 0, 3.5}, {9.5, 0, 4.5}, {10.5, 0, 4.5},
		}},
	}
	for _, tt := range tests {
		got := SilhouettePoints(tt.eye, target, 2, 2)
		if !points3Eq(got, tt.want, 1e-12) {
			t.Errorf("%s: SilhouettePoints(%v, %v, 2, 2) = %v; want %v", tt.name, tt.eye, target, got, tt.want)
		}
	}

	// Every point of a finer grid sits strictly inside the cross-section.
	eye := Point3{3, 7, 1}
	pts := SilhouettePoints(eye, target, 5, 3)
	if len(pts) != 15 {
		t.Fatalf("SilhouettePoints(%v, %v, 5, 3) gave %d points; want 15", eye, target, len(pts))
	}
	for _, p := range pts {
		if d := p.XY().Dist(target.Base.C); d >= target.Base.R {
			t.Errorf("point %v is %v from the centre; want < %v", p, d, target.Base.R)
		}
		if p.Z <= target.Bottom || p.Z >= target.Bottom+target.Height {
			t.Errorf("point %v outside heights (%v, %v)", p, target.Bottom, target.Bottom+target.Height)
		}
	}
}

func points3Eq(a, b []Point3, eps float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i].X-b[i].X) > eps || math.Abs(a[i].Y-b[i].Y) > eps || math.Abs(a[i].Z-b[i].Z) > eps {
			return false
		}
	}
	return true
}

func TestVisibleFraction(t *testing.T) {
	// lowWall stands just in front of the trooper and reaches half its height.
	lowWall := Prism{Footprint: rect(8, -3, 9, 3), Top: 1}
	tallWall := Prism{Footprint: rect(8, -3, 9, 3), Top: 100}
	other := Prism{Footprint: rect(0, 10, 5, 15), Top: 5}
	tests := []struct {
		name       string
		prisms     []Prism
		eye        Point3
		cols, rows int
		ignore     func(int) bool
		want, tol  float64
	}{
		{"open table", nil, Point3{0, 0, 1}, 3, 4, nil, 1, 0},
		{"open table, one sample", nil, Point3{0, 0, 1}, 1, 1, nil, 1, 0},
		{"unrelated terrain", []Prism{other}, Point3{0, 0, 1}, 3, 4, nil, 1, 0},
		// The eye is level with the wall's top, so the rays to the lower two
		// rows dip into the wall and the upper two rise over it: exactly half.
		{"lower half hidden", []Prism{lowWall}, Point3{0, 0, 1}, 3, 4, nil, 0.5, 0},
		// From lower down the wall's shadow climbs to about 1.06", so the
		// answer is half to within one row's share.
		{"lower half hidden, low eye", []Prism{lowWall}, Point3{0, 0, 0.5}, 3, 10, nil, 0.5, 0.1},
		{"tall wall", []Prism{other, tallWall}, Point3{0, 0, 1}, 3, 4, nil, 0, 0},
		{"tall wall ignored", []Prism{other, tallWall}, Point3{0, 0, 1}, 3, 4, func(i int) bool { return i == 1 }, 1, 0},
		{"from high above the tall wall", []Prism{tallWall}, Point3{0, 0, 5000}, 3, 4, nil, 1, 0},
	}
	for _, tt := range tests {
		s := &Scene{Prisms: tt.prisms}
		got := s.VisibleFraction(tt.eye, trooper, tt.cols, tt.rows, tt.ignore)
		if math.Abs(got-tt.want) > tt.tol {
			t.Errorf("%s: VisibleFraction(%v, %v, %d, %d) = %v; want %v ± %v", tt.name, tt.eye, trooper, tt.cols, tt.rows, got, tt.want, tt.tol)
		}
	}
}

func TestVisibleFractionPanics(t *testing.T) {
	for _, n := range [][2]int{{0, 1}, {1, 0}, {-1, 5}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("VisibleFraction with %d×%d samples did not panic", n[0], n[1])
				}
			}()
			var s Scene
			s.VisibleFraction(Point3{}, trooper, n[0], n[1], nil)
		}()
	}
}

func TestVisibleFractionAllocs(t *testing.T) {
	s := benchScene()
	ignore := func(i int) bool { return i == 3 }
	allocs := testing.AllocsPerRun(20, func() {
		s.VisibleFraction(benchEye, benchTarget, 9, 7, ignore)
	})
	if allocs != 0 {
		t.Errorf("VisibleFraction allocates %v times per call; want 0", allocs)
	}
}

func BenchmarkVisibleFraction(b *testing.B) {
	s := benchScene()
	ignore := func(i int) bool { return false }
	if f := s.VisibleFraction(benchEye, benchTarget, 9, 7, ignore); f != 1 {
		b.Fatalf("bench target is %v visible; want 1", f)
	}
	for b.Loop() {
		s.VisibleFraction(benchEye, benchTarget, 9, 7, ignore)
	}
}
