package geom

import "math"

// Tolerance is the distance, in table units, within which geom treats two
// things as touching: a point this close to a polygon edge is on the boundary,
// and segments this close to each other meet. It only absorbs float64 rounding
// on exact ties; it is far below any distance a player measures.
const Tolerance = 1e-9

// AngleTolerance is how close, in degrees, a bearing must be to the edge of an
// arc or sector to count as lying on that edge (edges are inclusive).
const AngleTolerance = 1e-9

// radToDeg converts radians to degrees. Multiplying by 180 before dividing by
// π keeps the cardinal bearings (0, 90, 180, 270) exact.
func radToDeg(r float64) float64 { return r * 180 / math.Pi }

// A Vec is a point or displacement on the table: X to the right, Y north.
// The zero Vec is the table origin (or no displacement).
type Vec struct {
	X, Y float64
}

// V is shorthand for Vec{x, y}.
func V(x, y float64) Vec { return Vec{x, y} }

// Add returns the vector v+o.
func (v Vec) Add(o Vec) Vec { return Vec{v.X + o.X, v.Y + o.Y} }

// Sub returns the vector v-o.
func (v Vec) Sub(o Vec) Vec { return Vec{v.X - o.X, v.Y - o.Y} }

// Scale returns the vector v*k.
func (v Vec) Scale(k float64) Vec { return Vec{v.X * k, v.Y * k} }

// Dot returns the dot product v·o.
func (v Vec) Dot(o Vec) float64 { return v.X*o.X + v.Y*o.Y }

// Cross returns the z component of the 3-D cross product v×o. It is positive
// when o turns anticlockwise from v (seen from above the table), negative when
// clockwise and zero when they are parallel.
func (v Vec) Cross(o Vec) float64 { return v.X*o.Y - v.Y*o.X }

// Len returns the length |v|.
func (v Vec) Len() float64 { return math.Sqrt(v.Dot(v)) }

// Dist returns the distance |v-o| between two points.
func (v Vec) Dist(o Vec) float64 { return v.Sub(o).Len() }

// Norm returns the unit vector in v's direction. The zero vector has no
// direction, so it stays zero rather than becoming NaN.
func (v Vec) Norm() Vec {
	l := v.Len()
	if l == 0 {
		return Vec{}
	}
	return Vec{v.X / l, v.Y / l}
}

// Lerp returns the point a fraction t of the way from v to o: v at t = 0, o at
// t = 1. t outside [0, 1] extrapolates along the same line.
func (v Vec) Lerp(o Vec, t float64) Vec {
	return Vec{v.X + (o.X-v.X)*t, v.Y + (o.Y-v.Y)*t}
}

// Eq reports whether v and o are within distance eps of each other.
func (v Vec) Eq(o Vec, eps float64) bool {
	return v.Sub(o).Dot(v.Sub(o)) <= eps*eps
}

// Bearing returns the compass bearing, in degrees in [0, 360), of the
// direction from one point to another. Equal points have no direction; their
// bearing is 0 (north) so that callers never see NaN.
func Bearing(from, to Vec) float64 {
	d := to.Sub(from)
	if d == (Vec{}) {
		return 0
	}
	// Atan2(x, y) rather than Atan2(y, x): compass angles start at +Y and
	// turn clockwise, the mirror image of the mathematical convention.
	return NormDeg(radToDeg(math.Atan2(d.X, d.Y)))
}

// NormDeg returns the angle a, in degrees, brought into [0, 360).
// NaN and infinities give NaN.
func NormDeg(a float64) float64 {
	a = math.Mod(a, 360)
	if a < 0 {
		a += 360
	}
	// A tiny negative angle plus 360 rounds to 360, which is outside the
	// range; it is a whisker below north, so call it north. The same test
	// turns -0 into 0.
	if a >= 360 || a == 0 {
		return 0
	}
	return a
}

// AngleDiff returns the signed smallest turn, in degrees, from a to b: b−a
// brought into (−180, 180]. Positive means b is clockwise of a. Exactly
// opposite directions give +180.
func AngleDiff(a, b float64) float64 {
	d := NormDeg(b - a)
	if d > 180 {
		d -= 360
	}
	return d
}
