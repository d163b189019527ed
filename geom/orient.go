package geom

import (
	"cmp"
	"math"
	"slices"
)

// This file holds the exact predicate geometry builds robust shapes on: which way three
// points turn, decided without rounding, in the manner of Shewchuk's adaptive-precision
// predicates ("Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric
// Predicates", 1997): a float64 estimate answers when its error bound allows, and exact
// arithmetic on the rest.

// orientBound is the relative error bound of the float64 estimate of Orient's
// determinant: when the estimate exceeds this share of the sum of the magnitudes of its
// two products, its sign is right (Shewchuk's ccwerrboundA, (3 + 16ε)ε for ε = 2⁻⁵³).
const orientBound = (3 + 16*0x1p-53) * 0x1p-53

// Orient reports which way the path from a through b to c turns, exactly: +1
// anticlockwise (c lies left of the line from a through b), -1 clockwise, 0 when the
// three lie on one line (two of them equal included). Unlike the sign of
// b.Sub(a).Cross(c.Sub(a)), it cannot be flipped by rounding, however close to the line
// c lies: three corners a hair off a line are told apart exactly as placed.
//
// The answer is exact for every input whose coordinates' products neither overflow nor
// fall below float64's normal range (coordinates between about 1e-150 and 1e150 in
// size, or 0), which any table in any unit meets. Orient does not allocate.
func Orient(a, b, c Vec) int {
	// Points on one upright or level line, common in shapes clipped to a rectangle, and
	// repeated points are told at once: the estimate below cannot settle an exact 0.
	if a.X == b.X && b.X == c.X || a.Y == b.Y && b.Y == c.Y || a == b || b == c || a == c {
		return 0
	}
	l := (a.X - c.X) * (b.Y - c.Y)
	r := (a.Y - c.Y) * (b.X - c.X)
	det := l - r
	bound := orientBound * (math.Abs(l) + math.Abs(r))
	switch {
	case det > bound:
		return 1
	case -det > bound:
		return -1
	}
	return orientExact(a, b, c)
}

// orientExact is the sign of (a.X-c.X)(b.Y-c.Y) - (a.Y-c.Y)(b.X-c.X) in exact
// arithmetic. Multiplied out, the c.X·c.Y terms cancel and six products are left; each
// is split exactly into its rounded value and its rounding error (by a fused
// multiply-add), and the twelve parts are summed without error into an expansion whose
// largest part carries the sign.
func orientExact(a, b, c Vec) int {
	var e expansion
	for _, t := range [6]struct{ x, y float64 }{
		{a.X, b.Y}, {-a.X, c.Y}, {-c.X, b.Y}, {-a.Y, b.X}, {a.Y, c.X}, {c.Y, b.X},
	} {
		p := t.x * t.y
		e.add(math.FMA(t.x, t.y, -p))
		e.add(p)
	}
	return e.sign()
}

// expansion is a sum of float64 parts kept exactly: no two parts overlap in the bits they
// use, and they grow in size, so the largest nonzero part has the sum's sign (Shewchuk's
// Grow-Expansion). It holds up to twelve parts, what orientExact needs.
type expansion struct {
	parts [12]float64
	n     int
}

// add adds x to the sum, exactly.
func (e *expansion) add(x float64) {
	q := x
	for i := range e.n {
		// Knuth's TwoSum: s is the rounded sum of q and the part, err what rounding lost.
		s := q + e.parts[i]
		bv := s - q
		err := (q - (s - bv)) + (e.parts[i] - bv)
		e.parts[i], q = err, s
	}
	e.parts[e.n] = q
	e.n++
}

// sign is the sign of the sum: -1, 0 or +1.
func (e *expansion) sign() int {
	for i := e.n - 1; i >= 0; i-- {
		switch {
		case e.parts[i] > 0:
			return 1
		case e.parts[i] < 0:
			return -1
		}
	}
	return 0
}

// AppendHull appends to dst the corners of the convex hull of pts and returns it: the
// corners anticlockwise from the one with the least X (then least Y), each one of pts,
// every three consecutive corners turning strictly anticlockwise by [Orient], so that the
// polygon they make is convex exactly as its float64 corners lie, with no corner repeated
// and none on the line of its neighbours. Points without area (fewer than three, or all
// on one line) give fewer than three corners. It sorts pts in place and allocates
// nothing beyond dst's growth.
func AppendHull(dst, pts []Vec) []Vec {
	sortXY(pts)
	// Andrew's monotone chain: the lower hull left to right, then the upper right to
	// left, each dropping the corners that do not turn anticlockwise.
	start := len(dst)
	for _, p := range pts {
		for len(dst)-start >= 2 && Orient(dst[len(dst)-2], dst[len(dst)-1], p) <= 0 {
			dst = dst[:len(dst)-1]
		}
		dst = append(dst, p)
	}
	lower := len(dst) + 1
	for i := len(pts) - 2; i >= 0; i-- {
		p := pts[i]
		for len(dst) >= lower && Orient(dst[len(dst)-2], dst[len(dst)-1], p) <= 0 {
			dst = dst[:len(dst)-1]
		}
		dst = append(dst, p)
	}
	// The upper chain ends where the lower began.
	if len(dst)-start > 1 {
		dst = dst[:len(dst)-1]
	}
	return dst
}

// sortXY sorts pts by X, then Y: by insertion for the few corners of a shape, which is
// what AppendHull is mostly given, else by slices.SortFunc.
func sortXY(pts []Vec) {
	if len(pts) > 16 {
		slices.SortFunc(pts, func(p, q Vec) int {
			if c := cmp.Compare(p.X, q.X); c != 0 {
				return c
			}
			return cmp.Compare(p.Y, q.Y)
		})
		return
	}
	for i := 1; i < len(pts); i++ {
		p := pts[i]
		j := i
		for ; j > 0 && (p.X < pts[j-1].X || p.X == pts[j-1].X && p.Y < pts[j-1].Y); j-- {
			pts[j] = pts[j-1]
		}
		pts[j] = p
	}
}
