package los_test

import (
	"fmt"

	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/los"
)

// rect returns an axis-aligned rectangular footprint.
func rect(x0, y0, x1, y1 float64) geom.Polygon {
	return geom.Polygon{geom.V(x0, y0), geom.V(x1, y0), geom.V(x1, y1), geom.V(x0, y1)}
}

func ExampleScene_Clear() {
	// A 1"-high wall across the line between two models.
	table := los.Scene{Prisms: []los.Prism{{Footprint: rect(4, -3, 5, 3), Top: 1}}}
	eye := los.Point3{X: 0, Y: 0, Z: 1.2}
	fmt.Println(table.Clear(eye, los.Point3{X: 10, Y: 0, Z: 0.2}, nil)) // feet
	fmt.Println(table.Clear(eye, los.Point3{X: 10, Y: 0, Z: 1.2}, nil)) // head
	// Output:
	// false
	// true
}

func ExampleScene_VisibleFraction() {
	// A wall as high as the eye hides the lower half of a 2"-tall model.
	table := los.Scene{Prisms: []los.Prism{{Footprint: rect(8, -3, 9, 3), Top: 1}}}
	eye := los.Point3{X: 0, Y: 0, Z: 1}
	target := los.Silhouette{Base: geom.Circle{C: geom.V(10, 0), R: 0.5}, Height: 2}
	fmt.Println(table.VisibleFraction(eye, target, 3, 4, nil))

	// The wall is the terrain the target is hiding behind; a rule that
	// ignores it (say, for a weapon that fires over cover) sees everything.
	overCover := func(i int) bool { return i == 0 }
	fmt.Println(table.VisibleFraction(eye, target, 3, 4, overCover))
	// Output:
	// 0.5
	// 1
}

func ExampleView() {
	// A 2"-tall model behind a hill, seen from 2.5" up: the hill's far top edge hides
	// all but the top 1% of it, which a handful of rays would miss.
	hill := los.Prism{Footprint: rect(6, -3, 9, 3), Top: 2.5 - 0.52*0.9}
	wall := los.Prism{Footprint: rect(20, -3, 21, 3), Top: 5} // behind the model
	occluders := (&los.Scene{Prisms: []los.Prism{wall, hill}}).Occluders()
	target := los.Silhouette{Base: geom.Circle{C: geom.V(10, 0), R: 0.5}, Height: 2}

	var v los.View
	v.Look(los.Point3{X: 0, Y: 0, Z: 2.5}, target)
	v.Hide(occluders, nil)
	sight := v.Visibility()
	fmt.Printf("seen: %v, %.2f%% of it, hidden by prism %v\n", sight.Seen(), 100*sight.Fraction(), v.Hiders())
	// Output:
	// seen: true, 1.00% of it, hidden by prism [1]
}

func ExampleScene_Prepare() {
	// A wall 1" high between a sniper and two targets: the scene is prepared once and
	// each look costs only the looking.
	scene := &los.Scene{Prisms: []los.Prism{{Footprint: rect(5, -3, 5.5, 3), Top: 1}}}
	sight := scene.Prepare()
	eye := los.Point3{X: 0, Y: 0, Z: 1}
	for _, at := range []geom.Vec{geom.V(10, 0), geom.V(10, 8)} {
		target := los.Silhouette{Base: geom.Circle{C: at, R: 0.5}, Height: 2}
		fmt.Printf("%v: %.0f%%\n", at, 100*sight.Visible(eye, target, nil).Fraction())
	}
	// Output:
	// {10 0}: 50%
	// {10 8}: 100%
}
