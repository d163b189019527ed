package geom

import "strconv"

// Square is one square of a grid map: column X counted from the left and row Y counted
// from the top, as a map is written in text. The zero Square is the top-left corner.
type Square struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// Sq returns the Square at column x, row y.
func Sq(x, y int) Square { return Square{x, y} }

// String writes s as "x,y", as a player names a square.
func (s Square) String() string { return strconv.Itoa(s.X) + "," + strconv.Itoa(s.Y) }

// Add returns s moved by dx columns and dy rows.
func (s Square) Add(dx, dy int) Square { return Square{s.X + dx, s.Y + dy} }

// Chebyshev returns how many squares away o is when a diagonal step counts as one: the
// larger of the column and row differences. Grid wargames measure range this way.
func (s Square) Chebyshev(o Square) int { return max(abs(o.X-s.X), abs(o.Y-s.Y)) }

// Centre returns the centre of s in table coordinates (X right, Y up the table), one
// unit per square: row Y lies at table y = -Y, so that north is the top of the map.
func (s Square) Centre() Vec { return Vec{float64(s.X), -float64(s.Y)} }

// GridBearing is the compass bearing from the centre of a to the centre of b: 0 is up
// the map (towards row 0), 90 is to the right.
func GridBearing(a, b Square) float64 { return Bearing(a.Centre(), b.Centre()) }

// LineAlgorithm chooses which squares a line between two square centres passes through.
type LineAlgorithm uint8

// The line algorithms.
const (
	// Bresenham takes one square per step along the longer axis (8-connected): the
	// classic integer algorithm of grid games. Where the true line crosses exactly
	// through the corner shared by four squares, it steps diagonally and touches
	// neither of the two squares beside the corner. Where it passes exactly halfway
	// between two squares it takes the one further along the shorter axis, so a line
	// and its reverse can differ on such ties: always trace from the firer.
	Bresenham LineAlgorithm = iota
	// Supercover takes every square the segment between the two centres touches.
	// Where it crosses exactly through a corner, both squares beside the corner are
	// included as well (before the diagonal square), so nothing slips through a gap.
	Supercover
)

// String returns "bresenham" or "supercover".
func (a LineAlgorithm) String() string {
	if a == Supercover {
		return "supercover"
	}
	return "bresenham"
}

// Line returns the squares from a to b, both included, in order from a.
func Line(a, b Square, alg LineAlgorithm) []Square { return AppendLine(nil, a, b, alg) }

// AppendLine appends the squares of Line(a, b, alg) to dst and returns the extended
// slice; with a dst of enough capacity it does not allocate.
func AppendLine(dst []Square, a, b Square, alg LineAlgorithm) []Square {
	if alg == Supercover {
		return appendSupercover(dst, a, b)
	}
	return appendBresenham(dst, a, b)
}

func appendBresenham(dst []Square, a, b Square) []Square {
	walkBresenham(a, b, func(q Square) bool { dst = append(dst, q); return true })
	return dst
}

func appendSupercover(dst []Square, a, b Square) []Square {
	walkSupercover(a, b, func(q Square) bool { dst = append(dst, q); return true })
	return dst
}

// WalkLine calls f for each square of Line(a, b, alg) in order, without building the
// slice, and stops early when f returns false.
func WalkLine(a, b Square, alg LineAlgorithm, f func(Square) bool) {
	if alg == Supercover {
		walkSupercover(a, b, f)
		return
	}
	walkBresenham(a, b, f)
}

// walkBresenham is the all-octant integer form of Bresenham's algorithm.
func walkBresenham(a, b Square, f func(Square) bool) {
	dx, dy := abs(b.X-a.X), -abs(b.Y-a.Y)
	sx, sy := sign(b.X-a.X), sign(b.Y-a.Y)
	e := dx + dy
	p := a
	for {
		if !f(p) || p == b {
			return
		}
		e2 := 2 * e
		if e2 >= dy {
			e += dy
			p.X += sx
		}
		if e2 <= dx {
			e += dx
			p.Y += sy
		}
	}
}

// walkSupercover walks the squares the segment crosses, deciding at each step by
// comparing where it leaves the current square (exact integer arithmetic).
func walkSupercover(a, b Square, f func(Square) bool) {
	nx, ny := abs(b.X-a.X), abs(b.Y-a.Y)
	sx, sy := sign(b.X-a.X), sign(b.Y-a.Y)
	p := a
	if !f(p) {
		return
	}
	for ix, iy := 0, 0; ix < nx || iy < ny; {
		// Compare the parameter at which the segment reaches the next vertical edge,
		// (1+2ix)/2nx, with that of the next horizontal edge, (1+2iy)/2ny.
		switch d := (1+2*ix)*ny - (1+2*iy)*nx; {
		case d == 0:
			if !f(Square{p.X + sx, p.Y}) || !f(Square{p.X, p.Y + sy}) {
				return
			}
			p.X += sx
			p.Y += sy
			ix++
			iy++
		case d < 0:
			p.X += sx
			ix++
		default:
			p.Y += sy
			iy++
		}
		if !f(p) {
			return
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}
