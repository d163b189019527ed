package geom

import "slices"

// A Circle is a round base: centre C and radius R. R must be >= 0; a zero
// radius is a point model (a marker, an objective). The zero Circle is a point
// at the origin.
type Circle struct {
	C Vec
	R float64
}

// EdgeDistance returns the distance between the nearest edges of two bases,
// the way players measure range: centre distance less both radii, and 0 when
// the bases touch or overlap (overlap is never a negative range).
func EdgeDistance(a, b Circle) float64 {
	return max(0, a.C.Dist(b.C)-a.R-b.R)
}

// Touches reports whether bases c and o are in contact: their centres are no
// more than c.R+o.R+tol apart. tol is the slack the rules allow for "in base
// contact" (0 for exact contact); overlapping bases also touch.
func (c Circle) Touches(o Circle, tol float64) bool {
	return c.C.Dist(o.C) <= c.R+o.R+tol
}

// Overlap reports whether bases c and o overlap, as a move tests it (SweepHitsCircle):
// their centres are nearer than the sum of their radii by more than Tolerance. Bases that
// touch do not overlap.
func (c Circle) Overlap(o Circle) bool {
	return c.C.Dist(o.C) < c.R+o.R-Tolerance
}

// Overlapping lists the pairs of bases among cs that overlap, each as {i, j} with i < j
// (indexes into cs), ordered by j and then i: the first most of them that it meets,
// sweeping the bases from left to right and testing each against those whose span of x
// it meets. Bases spread over a table cost about n log n; bases in one column, n².
func Overlapping(cs []Circle, most int) [][2]int {
	order := make([]int, len(cs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmpFloat(cs[a].C.X-cs[a].R, cs[b].C.X-cs[b].R) })
	var found [][2]int
	var active []int // the bases whose span of x reaches the sweep, by their left edges
	for _, j := range order {
		left := cs[j].C.X - cs[j].R
		active = slices.DeleteFunc(active, func(i int) bool { return cs[i].C.X+cs[i].R <= left })
		for _, i := range active {
			if cs[i].Overlap(cs[j]) && len(found) < most {
				found = append(found, [2]int{min(i, j), max(i, j)})
			}
		}
		active = append(active, j)
	}
	slices.SortFunc(found, func(a, b [2]int) int {
		if a[1] != b[1] {
			return a[1] - b[1]
		}
		return a[0] - b[0]
	})
	return found
}
