package geom

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
