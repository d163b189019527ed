package geom_test

import (
	"fmt"

	"github.com/volley-wargames/volley/geom"
)

func ExampleBearing() {
	o := geom.V(0, 0)
	fmt.Println(geom.Bearing(o, geom.V(0, 10)))  // north
	fmt.Println(geom.Bearing(o, geom.V(10, 0)))  // east
	fmt.Println(geom.Bearing(o, geom.V(-3, -3))) // south-west
	// Output:
	// 0
	// 90
	// 225
}

func ExampleEdgeDistance() {
	// Two 25 mm bases (about 0.5" radius) with centres 6" apart.
	a := geom.Circle{C: geom.V(0, 0), R: 0.5}
	b := geom.Circle{C: geom.V(6, 0), R: 0.5}
	fmt.Println(geom.EdgeDistance(a, b))
	// Output: 5
}

func ExampleQuadrants() {
	// A tank at the origin facing east. A target to the north-east sits
	// exactly on the line between its front and left quadrants.
	tank := geom.V(0, 0)
	fmt.Println(geom.Quadrants(90, tank, geom.V(10, 0)))
	fmt.Println(geom.Quadrants(90, tank, geom.V(5, 5)))
	fmt.Println(geom.Quadrants(90, tank, geom.V(-8, -1)))
	// Output:
	// F
	// F/SL
	// R
}

func ExampleArc_Contains() {
	// A sponson gun that covers the front and right quadrants.
	mount := geom.ArcFront | geom.ArcRight
	tank := geom.V(0, 0)
	fmt.Println(mount, mount.Contains(0, tank, geom.V(8, -2)))
	fmt.Println(mount, mount.Contains(0, tank, geom.V(-8, 2)))
	// Output:
	// F/SR true
	// F/SR false
}

func ExamplePolygon_SegmentInside() {
	// A U-shaped ruin; a line of fire across both of its arms.
	ruin := geom.Polygon{
		geom.V(0, 0), geom.V(6, 0), geom.V(6, 4), geom.V(4, 4),
		geom.V(4, 2), geom.V(2, 2), geom.V(2, 4), geom.V(0, 4),
	}
	fire := geom.Segment{A: geom.V(-1, 3), B: geom.V(7, 3)}
	for _, in := range ruin.SegmentInside(fire) {
		fmt.Printf("%v to %v: %.0f\" inside\n", fire.At(in.T0), fire.At(in.T1), (in.T1-in.T0)*fire.Len())
	}
	// Output:
	// {0 3} to {2 3}: 2" inside
	// {4 3} to {6 3}: 2" inside
}

func ExampleOrient() {
	// A point a few units in the last place above the line through the other two: the
	// float64 cross product of the differences puts it below, Orient above.
	a, b, c := geom.V(0.5000000000000046, 0.5000000000000053), geom.V(12, 12), geom.V(24, 24)
	fmt.Println(b.Sub(a).Cross(c.Sub(a)) < 0, geom.Orient(a, b, c))
	// Exactly on the line.
	fmt.Println(geom.Orient(geom.V(0.5, 0.5), b, c))
	// Output:
	// true 1
	// 0
}
