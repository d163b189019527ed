package los

import (
	"math"
	"testing"

	"github.com/volley-wargames/volley/geom"
)

func square(x0, y0, x1, y1 float64) []geom.Vec {
	return []geom.Vec{geom.V(x0, y0), geom.V(x1, y0), geom.V(x1, y1), geom.V(x0, y1)}
}

func TestClip(t *testing.T) {
	sq := square(0, 0, 2, 2)
	tests := []struct {
		name string
		h    halfPlane
		want float64 // area left
	}{
		{"left of x = 1, upwards", leftOf(geom.V(1, 0), geom.V(1, 1)), 2},
		{"right of it", leftOf(geom.V(1, 1), geom.V(1, 0)), 2},
		{"below the diagonal", leftOf(geom.V(0, 0), geom.V(2, 2)).flip(), 2},
		{"all of it", leftOf(geom.V(-1, 0), geom.V(-1, -1)), 4},
		{"none of it", leftOf(geom.V(-1, -1), geom.V(-1, 0)), 0},
		{"along its edge, inside", leftOf(geom.V(0, 0), geom.V(2, 0)), 4},
		{"an edge of no length", leftOf(geom.V(1, 1), geom.V(1, 1)), 4},
	}
	for _, tt := range tests {
		if got := area(clip(nil, sq, tt.h)); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: %v left; want %v", tt.name, got, tt.want)
		}
	}
}

func TestOutsideShadow(t *testing.T) {
	shadow := square(0, 0, 2, 2)
	tri := []geom.Vec{geom.V(3, 0), geom.V(5, 0), geom.V(4, 3)}
	tests := []struct {
		name string
		p    []geom.Vec
		want bool
	}{
		{"overlapping", square(1, 1, 3, 3), false},
		{"inside", square(0.5, 0.5, 1, 1), false},
		{"around it", square(-1, -1, 3, 3), false},
		{"touching along an edge", square(2, 0, 3, 2), true},
		{"touching at a corner", square(2, 2, 3, 3), true},
		{"far", tri, true},
		// A triangle across the square's corner, its long edge on x + y = 3.8, overlaps;
		// moved out to x + y = 4.2 it is parted only by its own edge, which is not asked:
		// no edge of the shadow has all of it outside.
		{"across a corner", []geom.Vec{geom.V(2.4, 1.4), geom.V(3, 3), geom.V(1.4, 2.4)}, false},
		{"beside a corner", []geom.Vec{geom.V(2.6, 1.6), geom.V(3, 3), geom.V(1.6, 2.6)}, false},
		// A polygon in sight with a corner a hair the wrong way: the line of its 1e-16
		// edge would part it from the shadow, the shadow's own edges do not.
		{"a hair's edge", []geom.Vec{geom.V(1, -1), geom.V(3, -1), geom.V(3, 1), geom.V(3-1e-16, 1+1e-15), geom.V(1, 1)}, false},
	}
	for _, tt := range tests {
		if got := outsideShadow(tt.p, shadow); got != tt.want {
			t.Errorf("%s: outsideShadow = %v; want %v", tt.name, got, tt.want)
		}
	}
	if !outsideShadow(shadow, []geom.Vec{geom.V(2.6, 1.6), geom.V(3, 3), geom.V(1.6, 2.6)}) {
		t.Errorf("the square is not outside the triangle beside its corner")
	}
}
