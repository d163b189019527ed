package los

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/volley-wargames/volley/geom"
)

func TestVisible(t *testing.T) {
	// lowWall stands just in front of the trooper (base centre x = 10, radius 0.5, 2"
	// tall) and reaches half its height; the wedge of lines to the trooper is 1" wide at
	// most, so the walls cover it from side to side.
	lowWall := Prism{Footprint: rect(8, -3, 9, 3), Top: 1}
	tallWall := Prism{Footprint: rect(8, -3, 9, 3), Top: 100}
	other := Prism{Footprint: rect(0, 10, 5, 15), Top: 5}
	// A pillar hiding the trooper's left 99% (the eye's left is north, looking east):
	// the line past its near south corner, (8, -0.49·8/10), reaches y = -0.49 on the
	// trooper's plane.
	pillar := Prism{Footprint: rect(8, -0.392, 8.5, 3), Top: 10}
	tests := []struct {
		name   string
		prisms []Prism
		eye    Point3
		ignore func(int) bool
		want   float64
	}{
		{"open table", nil, Point3{0, 0, 1}, nil, 1},
		{"unrelated terrain", []Prism{other}, Point3{0, 0, 1}, nil, 1},
		// The eye is level with the wall's top: the wall hides the lower half exactly.
		{"lower half hidden", []Prism{lowWall}, Point3{0, 0, 1}, nil, 0.5},
		// From 0.5" up, the line over the wall's near top edge (x = 8, height 1) rises
		// to 0.5 + 0.5·10/8 = 1.125" on the trooper's plane.
		{"low eye", []Prism{lowWall}, Point3{0, 0, 0.5}, nil, (2 - 1.125) / 2},
		// From 1.5" up the line over the far top edge (x = 9) falls to
		// 1.5 - 0.5·10/9 on the plane.
		{"high eye", []Prism{lowWall}, Point3{0, 0, 1.5}, nil, (2 - (1.5 - 0.5*10/9)) / 2},
		{"tall wall", []Prism{other, tallWall}, Point3{0, 0, 1}, nil, 0},
		{"tall wall ignored", []Prism{other, tallWall}, Point3{0, 0, 1}, func(i int) bool { return i == 1 }, 1},
		{"from high above the tall wall", []Prism{tallWall}, Point3{0, 0, 5000}, nil, 1},
		{"a sliver of 1% of the width past a pillar", []Prism{pillar}, Point3{0, 0, 1}, nil, 0.01},
		{"eye inside a building", []Prism{{Footprint: rect(-1, -1, 1, 1), Top: 3}}, Point3{0, 0, 1}, nil, 0},
		{"eye on a roof, looking off it", []Prism{{Footprint: rect(-1, -1, 1, 1), Top: 1}}, Point3{0, 0, 1}, nil, 0.5},
	}
	for _, tt := range tests {
		s := &Scene{Prisms: tt.prisms}
		got := s.Visible(tt.eye, trooper, tt.ignore).Fraction()
		if math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: Visible(%v, %v).Fraction() = %v; want %v", tt.name, tt.eye, trooper, got, tt.want)
		}
	}
}

// TestSliverSeen: 1% of the height or of the width in sight is seen, however it is
// sliced; a grid of 3 × 4 rays misses it.
func TestSliverSeen(t *testing.T) {
	eye := Point3{0, 0, 2.5}
	// A hill whose far top edge, at x = 9, is on the line from the eye to 99% of the
	// trooper's height: 2.5 + (h - 2.5)·10/9 = 1.98.
	hill := Prism{Footprint: rect(6, -3, 9, 3), Top: 2.5 - 0.52*0.9}
	// A wall from the north hiding all but the trooper's southmost 1%: the line from the
	// eye past its near south corner, at x = 8, reaches y = -0.49 at x = 10.
	wall := Prism{Footprint: rect(8, -0.392, 8.2, 5), Top: 10}
	for _, tt := range []struct {
		name string
		p    Prism
	}{{"head over a hill", hill}, {"shoulder past a wall", wall}} {
		s := &Scene{Prisms: []Prism{tt.p}}
		v := s.Visible(eye, trooper, nil)
		if !v.Seen() || math.Abs(v.Fraction()-0.01) > 1e-12 {
			t.Errorf("%s: %v seen %v, fraction %v; want 1%% seen", tt.name, v, v.Seen(), v.Fraction())
		}
		if f := s.VisibleFraction(eye, trooper, 3, 4, nil); f != 0 {
			t.Errorf("%s: 3 × 4 rays see %v; the test is meant to show they miss it", tt.name, f)
		}
	}
}

// TestHiddenTogether: two walls, each leaving part of the trooper in sight, hide it
// together, whether their shadows overlap or only meet; neither is named alone when it
// hides nothing the other leaves in sight.
func TestHiddenTogether(t *testing.T) {
	eye := Point3{0, 0, 1}
	// The lines to the trooper cross x = 8 within |y| <= 0.4.
	north := Prism{Footprint: rect(8, -0.1, 8.5, 3), Top: 5}
	south := Prism{Footprint: rect(8, -3, 8.5, 0.1), Top: 5}
	meetN := Prism{Footprint: rect(8, 0, 8.5, 3), Top: 5}
	meetS := Prism{Footprint: rect(8, -3, 8.5, 0), Top: 5}
	low := Prism{Footprint: rect(6, -3, 7, 3), Top: 1}             // hides the lower half
	high := Prism{Footprint: rect(6, -3, 7, 3), Bottom: 1, Top: 9} // the upper half, from 1" up
	for _, tt := range []struct {
		name   string
		prisms []Prism
	}{
		{"overlapping", []Prism{north, south}},
		{"meeting", []Prism{meetN, meetS}},
		{"meeting, floating", []Prism{low, high}},
	} {
		for i := range tt.prisms {
			alone := &Scene{Prisms: tt.prisms[i : i+1]}
			if v := alone.Visible(eye, trooper, nil); !v.Seen() {
				t.Errorf("%s: %v alone hides the trooper", tt.name, tt.prisms[i])
			}
		}
		s := &Scene{Prisms: tt.prisms}
		var v View
		v.Look(eye, trooper)
		v.Hide(s.Occluders(), nil)
		if vis := v.Visibility(); vis.Seen() || vis.Fraction() != 0 {
			t.Errorf("%s: together they leave %v in sight", tt.name, vis)
		}
		if !slices.Equal(v.Hiders(), []int{0, 1}) {
			t.Errorf("%s: hiders %v; want both", tt.name, v.Hiders())
		}
	}
}

func TestHiders(t *testing.T) {
	eye := Point3{0, 0, 1}
	s := &Scene{Prisms: []Prism{
		{Footprint: rect(0, 10, 5, 15), Top: 5},    // off the line
		{Footprint: rect(6, -3, 7, 3), Top: 1},     // the lower half
		{Footprint: rect(8, -3, 8.5, 3), Top: 0.8}, // the lower 38%, behind the first
		{Footprint: rect(8, 0, 9, 3), Top: 9},      // the left half
		{Footprint: rect(8, -3, 8.5, 3), Top: 0.8}, // the second's twin
	}}
	var v View
	v.Look(eye, trooper)
	occ := s.Occluders()
	v.Hide(occ, func(i int) bool { return i >= 3 })
	if got := v.Visibility().Fraction(); math.Abs(got-0.5) > 1e-12 {
		t.Errorf("first Hide: %v in sight; want 0.5", got)
	}
	// Both hide part of the trooper as Hide began.
	if !slices.Equal(v.Hiders(), []int{1, 2}) {
		t.Errorf("first Hide names %v; want [1 2]", v.Hiders())
	}
	// The second Hide names only what hides a part the first left in sight.
	v.Hide(occ, func(i int) bool { return i < 3 })
	if got := v.Visibility().Fraction(); math.Abs(got-0.25) > 1e-12 {
		t.Errorf("second Hide: %v in sight; want 0.25", got)
	}
	if !slices.Equal(v.Hiders(), []int{1, 2, 3}) {
		t.Errorf("both Hides name %v; want [1 2 3]", v.Hiders())
	}
}

// TestVisibleFromAbove: an eye straight above the trooper's centre lies in the plane
// of its silhouette; a floor between them hides it, a floor beside the line does not.
func TestVisibleFromAbove(t *testing.T) {
	eye := Point3{10, 0, 8}
	floor := Prism{Footprint: rect(8, -2, 12, 2), Bottom: 4, Top: 4.5}
	beside := Prism{Footprint: rect(8, 1, 12, 3), Bottom: 4, Top: 4.5}
	// A ledge reaching halfway over: x from 8 to 10 (the left of the north-facing
	// plane) hides the left half at every height below it.
	ledge := Prism{Footprint: rect(8, -2, 10, 2), Bottom: 4, Top: 4.5}
	for _, tt := range []struct {
		name string
		p    Prism
		want float64
	}{{"floor", floor, 0}, {"beside", beside, 1}, {"ledge", ledge, 0.5}} {
		s := &Scene{Prisms: []Prism{tt.p}}
		if got := s.Visible(eye, trooper, nil).Fraction(); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: %v in sight; want %v", tt.name, got, tt.want)
		}
	}
}

func TestVisibilityFlat(t *testing.T) {
	s := &Scene{Prisms: []Prism{{Footprint: rect(8, -3, 9, 3), Top: 1}}}
	for _, tt := range []struct {
		sil  Silhouette
		want float64
	}{
		{Silhouette{Base: geom.Circle{C: geom.V(10, 0)}, Height: 2}, 1},       // its middle, 1" up, is level with the eye
		{Silhouette{Base: geom.Circle{C: geom.V(10, 0), R: 1}, Height: 0}, 0}, // a flat base on the table
	} {
		v := s.Visible(Point3{0, 0, 1.2}, tt.sil, nil)
		if v.Fraction() != tt.want {
			t.Errorf("%v: %v; want %v", tt.sil, v, tt.want)
		}
	}
}

func TestVisibility(t *testing.T) {
	tests := []struct {
		v                 Visibility
		seen, whole, half bool
		fraction          float64
	}{
		{Visibility{0, 2}, false, false, true, 0},
		{Visibility{1e-12, 2}, false, false, true, 0},
		{Visibility{0.02, 2}, true, false, true, 0.01},
		{Visibility{1, 2}, true, false, false, 0.5},
		{Visibility{1 - 1e-12, 2}, true, false, false, (1 - 1e-12) / 2},
		{Visibility{2 - 1e-12, 2}, true, true, false, 1},
	}
	for _, tt := range tests {
		if tt.v.Seen() != tt.seen || tt.v.Whole() != tt.whole || tt.v.Under(0.5) != tt.half || tt.v.Fraction() != tt.fraction {
			t.Errorf("%v: Seen %v, Whole %v, Under(0.5) %v, Fraction %v; want %v, %v, %v, %v", tt.v,
				tt.v.Seen(), tt.v.Whole(), tt.v.Under(0.5), tt.v.Fraction(), tt.seen, tt.whole, tt.half, tt.fraction)
		}
	}
}

func TestViewAllocs(t *testing.T) {
	s := benchScene()
	occ := s.Occluders()
	ignore := func(i int) bool { return i == 3 }
	// Across the other diagonal, where terrain hides part.
	eye, target := Point3{2, 46, 1.5}, Silhouette{Base: geom.Circle{C: geom.V(70, 2), R: 0.5}, Height: 1.5}
	var v View
	allocs := testing.AllocsPerRun(20, func() {
		v.Look(benchEye, benchTarget)
		v.Hide(occ, ignore)
		v.Look(eye, target)
		v.Hide(occ, ignore)
	})
	if allocs != 0 {
		t.Errorf("a View allocates %v times per two measures; want 0", allocs)
	}
}

func TestPreparedAllocs(t *testing.T) {
	p := benchScene().Prepare()
	ignore := func(i int) bool { return i == 3 }
	eye, target := Point3{2, 46, 1.5}, Silhouette{Base: geom.Circle{C: geom.V(70, 2), R: 0.5}, Height: 1.5}
	allocs := testing.AllocsPerRun(20, func() {
		p.Visible(benchEye, benchTarget, ignore)
		p.Visible(eye, target, ignore)
	})
	if allocs != 0 {
		t.Errorf("a Prepared scene allocates %v times per two measures; want 0", allocs)
	}
}

// BenchmarkView measures the same silhouettes as BenchmarkVisibleFraction exactly:
// across the table's diagonal with 50 prisms on it, every one of them in the box of the
// lines of sight; clear is the bench target in full sight, blocked the other diagonal.
func BenchmarkView(b *testing.B) {
	s := benchScene()
	occ := s.Occluders()
	ignore := func(i int) bool { return false }
	var v View
	b.Run("clear", func(b *testing.B) {
		v.Look(benchEye, benchTarget)
		v.Hide(occ, ignore)
		if f := v.Visibility().Fraction(); f != 1 {
			b.Fatalf("bench target is %v visible; want 1", f)
		}
		for b.Loop() {
			v.Look(benchEye, benchTarget)
			v.Hide(occ, ignore)
		}
	})
	eye, target := Point3{2, 46, 1.5}, Silhouette{Base: geom.Circle{C: geom.V(70, 2), R: 0.5}, Height: 1.5}
	b.Run("blocked", func(b *testing.B) {
		for b.Loop() {
			v.Look(eye, target)
			v.Hide(occ, ignore)
		}
	})
}

// BenchmarkViewBetween is how the exact measure grows with the prisms between the eye
// and the silhouette: n walls from the north, lower than the eye, at depths from 2" to
// 9", the i-th reaching across the trooper's plane to (i+1)/n of its width, so that
// every one casts a shadow of its own to cut out.
func BenchmarkViewBetween(b *testing.B) {
	for _, n := range []int{0, 1, 2, 4, 8, 16, 32} {
		s := &Scene{}
		for i := range n {
			x := 2 + 7*float64(i)/float64(max(n, 1))
			y := (0.5 - float64(i+1)/float64(n)) * x / 10
			s.Prisms = append(s.Prisms, Prism{Footprint: rect(x, y, x+0.2, 3), Top: 0.9 + 0.01*float64(i%8)})
		}
		occ := s.Occluders()
		var v View
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				v.Look(Point3{0, 0, 1}, trooper)
				v.Hide(occ, nil)
			}
			b.ReportMetric(v.Visibility().Fraction(), "seen")
		})
	}
}

// TestPiecesCount counts an L's two convex pieces and a square's one, everywhere and in
// a box that meets only the square.
func TestPiecesCount(t *testing.T) {
	l := NewOccluder(Prism{Footprint: geom.Polygon{geom.V(0, 0), geom.V(4, 0), geom.V(4, 1), geom.V(1, 1), geom.V(1, 4), geom.V(0, 4)}, Top: 1})
	sq := NewOccluder(Prism{Footprint: geom.Polygon{geom.V(10, 10), geom.V(12, 10), geom.V(12, 12), geom.V(10, 12)}, Top: 1})
	occ := []Occluder{l, sq}
	lc, lp := PiecesIn(occ[:1], geom.V(-1, -1), geom.V(5, 5))
	if lp != 2 || lc < 6 {
		t.Fatalf("the L: %d corners in %d pieces; want 2 pieces, at least its 6 corners", lc, lp)
	}
	if c, p := AllPieces(occ); c != lc+4 || p != lp+1 {
		t.Errorf("AllPieces = %d corners, %d pieces; want %d, %d", c, p, lc+4, lp+1)
	}
	if c, p := PiecesIn(occ, geom.V(9, 9), geom.V(11, 11)); c != 4 || p != 1 {
		t.Errorf("PiecesIn the square's corner = %d corners, %d pieces; want 4, 1", c, p)
	}
}
