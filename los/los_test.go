package los

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/geom"
)

// rect returns the axis-aligned rectangle footprint from (x0, y0) to (x1, y1).
func rect(x0, y0, x1, y1 float64) geom.Polygon {
	return geom.Polygon{geom.V(x0, y0), geom.V(x1, y0), geom.V(x1, y1), geom.V(x0, y1)}
}

// wall is 1" thick, 6" long and 1" high, standing across the X axis at x 4–5.
var wall = Prism{Footprint: rect(4, -3, 5, 3), Bottom: 0, Top: 1}

// bridge is a slab floating from height 1 to 2 over x 4–5.
var bridge = Prism{Footprint: rect(4, -3, 5, 3), Bottom: 1, Top: 2}

func TestPrismBlocks(t *testing.T) {
	tests := []struct {
		name string
		p    Prism
		a, b Point3
		want bool
	}{
		{"over the wall", wall, Point3{0, 0, 2}, Point3{10, 0, 2}, false},
		{"through the wall", wall, Point3{0, 0, 0.5}, Point3{10, 0, 0.5}, true},
		{"skims the top exactly", wall, Point3{0, 0, 1}, Point3{10, 0, 1}, false},
		{"along the table under it", wall, Point3{0, 0, 0}, Point3{10, 0, 0}, false},
		{"rising through it", wall, Point3{0, 0, 0}, Point3{10, 0, 2}, true},
		{"rising, clears the near top edge", wall, Point3{0, 0, 0.2}, Point3{4, 0, 1}, false},
		{"rising over it from its top edge", wall, Point3{4, 0, 1}, Point3{10, 0, 3}, false},
		{"falling, clips the far top edge", wall, Point3{0, 0, 1.8}, Point3{10, 0, -1}, true},
		{"ends inside", wall, Point3{0, 0, 0.5}, Point3{4.5, 0, 0.5}, true},
		{"starts inside", wall, Point3{4.5, 0, 0.5}, Point3{0, 0, 3}, true},
		{"wholly inside", wall, Point3{4.2, 0, 0.5}, Point3{4.7, 1, 0.6}, true},
		{"stops short", wall, Point3{0, 0, 0.5}, Point3{4, 0, 0.5}, false},
		{"beside it", wall, Point3{0, 4, 0.5}, Point3{10, 4, 0.5}, false},
		{"along its face", wall, Point3{4, -5, 0.5}, Point3{4, 5, 0.5}, false},
		{"clips its corner", wall, Point3{3, 2, 0.5}, Point3{5, 4, 0.5}, false},
		{"cuts its corner", wall, Point3{3, 3.5, 0.5}, Point3{5, 1.5, 0.5}, true},
		{"under the bridge", bridge, Point3{0, 0, 0.5}, Point3{10, 0, 0.5}, false},
		{"along the bridge's underside", bridge, Point3{0, 0, 1}, Point3{10, 0, 1}, false},
		{"through the bridge", bridge, Point3{0, 0, 1.5}, Point3{10, 0, 1.5}, true},
		{"up through the bridge", bridge, Point3{0, 0, 0}, Point3{10, 0, 3}, true},
		{"vertical inside, spanning", bridge, Point3{4.5, 0, 0}, Point3{4.5, 0, 3}, true},
		{"vertical inside, below", bridge, Point3{4.5, 0, 0}, Point3{4.5, 0, 1}, false},
		{"vertical outside", bridge, Point3{6, 0, 0}, Point3{6, 0, 3}, false},
		{"vertical on its face", bridge, Point3{4, 0, 0}, Point3{4, 0, 3}, false},
		{"point inside", wall, Point3{4.5, 0, 0.5}, Point3{4.5, 0, 0.5}, true},
		{"empty prism", Prism{Footprint: rect(4, -3, 5, 3), Bottom: 1, Top: 1}, Point3{0, 0, 1}, Point3{10, 0, 1}, false},
	}
	for _, tt := range tests {
		if got := tt.p.Blocks(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: Blocks(%v, %v) = %v; want %v", tt.name, tt.a, tt.b, got, tt.want)
		}
		if got := tt.p.Blocks(tt.b, tt.a); got != tt.want {
			t.Errorf("%s reversed: Blocks(%v, %v) = %v; want %v", tt.name, tt.b, tt.a, got, tt.want)
		}
	}
}

func TestPrismBlocksConcave(t *testing.T) {
	// A U-shaped ruin with 3"-high walls; a line through its open middle at
	// height 0.5 passes both arms.
	ruin := Prism{Footprint: geom.Polygon{
		geom.V(0, 0), geom.V(6, 0), geom.V(6, 4), geom.V(4, 4),
		geom.V(4, 2), geom.V(2, 2), geom.V(2, 4), geom.V(0, 4),
	}, Top: 3}
	tests := []struct {
		a, b Point3
		want bool
	}{
		{Point3{3, 3, 0.5}, Point3{3, 10, 0.5}, false}, // out of the notch
		{Point3{3, 3, 0.5}, Point3{3, -1, 0.5}, true},  // through its floor
		{Point3{3, 3, 0.5}, Point3{10, 3, 0.5}, true},  // through an arm
		{Point3{-1, 3, 3.5}, Point3{7, 3, 3.5}, false}, // over both arms
	}
	for _, tt := range tests {
		if got := ruin.Blocks(tt.a, tt.b); got != tt.want {
			t.Errorf("Blocks(%v, %v) = %v; want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestPrismValidate(t *testing.T) {
	tests := []struct {
		p    Prism
		want string
	}{
		{wall, ""},
		{bridge, ""},
		{Prism{Footprint: rect(0, 0, 1, 1), Bottom: 2, Top: 2}, "los: prism top 2 is not above its bottom 2"},
		{Prism{Footprint: geom.Polygon{geom.V(0, 0), geom.V(1, 1)}, Top: 1}, "los: prism footprint: geom: polygon has 2 vertices"},
	}
	for _, tt := range tests {
		err := tt.p.Validate()
		if (tt.want == "") != (err == nil) || (err != nil && !strings.HasPrefix(err.Error(), tt.want)) {
			t.Errorf("%v.Validate() = %v; want %q", tt.p, err, tt.want)
		}
	}
}

func TestSceneClear(t *testing.T) {
	s := &Scene{Prisms: []Prism{wall, bridge, {Footprint: rect(20, 20, 22, 22), Top: 10}}}
	low, high := Point3{0, 0, 0.5}, Point3{10, 0, 0.5}
	tests := []struct {
		name   string
		a, b   Point3
		ignore func(int) bool
		want   bool
	}{
		{"through the wall", low, high, nil, false},
		{"wall ignored", low, high, func(i int) bool { return i == 0 }, true},
		{"other ignored", low, high, func(i int) bool { return i != 0 }, false},
		{"over everything", Point3{0, 0, 2.5}, Point3{10, 0, 2.5}, nil, true},
		{"through the bridge", Point3{0, 0, 1.5}, Point3{10, 0, 1.5}, nil, false},
		{"away from it all", Point3{0, 10, 1}, Point3{10, 10, 1}, nil, true},
	}
	for _, tt := range tests {
		if got := s.Clear(tt.a, tt.b, tt.ignore); got != tt.want {
			t.Errorf("%s: Clear(%v, %v) = %v; want %v", tt.name, tt.a, tt.b, got, tt.want)
		}
	}
	var empty Scene
	if !empty.Clear(low, high, nil) {
		t.Errorf("empty Scene: Clear(%v, %v) = false; want true", low, high)
	}
}

// Bench geometry: an eye in one corner of a 72"×48" table and a target in
// the other, so every line of sight crosses the whole table.
var (
	benchEye    = Point3{2, 2, 1.5}
	benchTarget = Silhouette{Base: geom.Circle{C: geom.V(70, 46), R: 0.5}, Height: 1.5}
)

// benchScene returns 50 random small buildings and walls, the same each time,
// none of them blocking the view from benchEye to benchTarget: a clear line
// is the costly case, as every prism must be checked.
func benchScene() *Scene {
	r := rand.New(rand.NewPCG(1, 2))
	s := &Scene{}
	rays := SilhouettePoints(benchEye, benchTarget, 9, 7)
	for len(s.Prisms) < 50 {
		x, y := 4+r.Float64()*64, 4+r.Float64()*40
		w, d := 1+r.Float64()*5, 1+r.Float64()*5
		p := Prism{Footprint: rect(x, y, x+w, y+d), Top: 0.5 + r.Float64()*4}
		clear := true
		for _, q := range rays {
			clear = clear && !p.Blocks(benchEye, q)
		}
		if clear {
			s.Prisms = append(s.Prisms, p)
		}
	}
	return s
}

func BenchmarkSceneClear(b *testing.B) {
	s := benchScene()
	target := P3(benchTarget.Base.C, 1)
	ignore := func(i int) bool { return false }
	b.Run("clear", func(b *testing.B) {
		for b.Loop() {
			s.Clear(benchEye, target, ignore)
		}
	})
	// Across the other diagonal, which runs into terrain.
	a, c := Point3{2, 46, 1}, Point3{70, 2, 1}
	if s.Clear(a, c, nil) {
		b.Fatal("blocked bench line is clear")
	}
	b.Run("blocked", func(b *testing.B) {
		for b.Loop() {
			s.Clear(a, c, ignore)
		}
	})
}
