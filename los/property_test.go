package los

import (
	"math/rand/v2"
	"testing"

	"github.com/volley-wargames/volley/geom"
)

// TestBlocksAgreesWithSampling checks Blocks against a slow oracle that walks
// the segment in small steps looking for a point inside the prism. Random
// segments seldom pass within a step of a corner, so with a fixed seed both
// answers agree on every case.
func TestBlocksAgreesWithSampling(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ruin := Prism{Footprint: geom.Polygon{
		geom.V(0, 0), geom.V(6, 0), geom.V(6, 4), geom.V(4, 4),
		geom.V(4, 2), geom.V(2, 2), geom.V(2, 4), geom.V(0, 4),
	}, Bottom: 0.5, Top: 2}
	inside := func(p Point3) bool {
		return p.Z > ruin.Bottom && p.Z < ruin.Top && ruin.Footprint.Contains(p.XY())
	}
	random := func() Point3 {
		return Point3{-2 + r.Float64()*10, -2 + r.Float64()*8, r.Float64() * 3}
	}
	const steps = 4000
	blocked := 0
	for range 2000 {
		a, b := random(), random()
		want := false
		for i := 0; i <= steps && !want; i++ {
			u := float64(i) / steps
			want = inside(Point3{lerp(a.X, b.X, u), lerp(a.Y, b.Y, u), lerp(a.Z, b.Z, u)})
		}
		if got := ruin.Blocks(a, b); got != want {
			t.Errorf("Blocks(%v, %v) = %v; sampling says %v", a, b, got, want)
		}
		if want {
			blocked++
		}
	}
	// Make sure the test exercised both answers.
	if blocked < 200 || blocked > 1800 {
		t.Errorf("%d of 2000 random segments blocked; want a mix", blocked)
	}
}
