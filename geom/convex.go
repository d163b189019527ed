package geom

import "math"

// straightTurn is how small a corner's turn may be, as the sine of its angle, for
// ConvexPieces to take the corner as straight and drop its vertex: far below anything a
// table measures, it only removes vertices that float64 puts a hair off the line of their
// neighbours.
const straightTurn = 1e-12

// Convex reports whether p is convex: walking round it, every corner turns the same way
// or goes straight on. A polygon with fewer than three vertices is not.
func (p Polygon) Convex() bool {
	if len(p) < 3 {
		return false
	}
	left, right := false, false
	for i := range p {
		a, b, c := p[i], p[(i+1)%len(p)], p[(i+2)%len(p)]
		switch t := b.Sub(a).Cross(c.Sub(b)); {
		case t > 0:
			left = true
		case t < 0:
			right = true
		}
		if left && right {
			return false
		}
	}
	return true
}

// ConvexPieces cuts the valid polygon p (see [Polygon.Validate]) into convex polygons
// that tile it: their interiors do not overlap and together they cover p. Every piece
// runs anticlockwise and its corners are corners of p, so the cut adds no new points and
// loses no area; a corner whose turn is negligible (see straightTurn) is dropped as a
// point on a straight edge. A convex p comes back as one piece.
//
// The cut is Hertel and Mehlhorn's: p is cut into triangles by ear clipping, then every
// diagonal whose removal leaves both sides convex is removed again, which leaves at most
// 2r+1 pieces for r reflex corners, and at most four times as many as the fewest possible. It costs O(n²) for n vertices (more
// only for polygons with many reflex corners close together), so cut a footprint once
// and keep the pieces.
func (p Polygon) ConvexPieces() []Polygon {
	q := anticlockwise(p)
	if len(q) < 3 {
		return nil
	}
	if q.Convex() {
		return []Polygon{q}
	}
	tris := earClip(q)
	return mergeTriangles(q, tris)
}

// anticlockwise returns a copy of p running anticlockwise, without the corners that go
// straight on.
func anticlockwise(p Polygon) Polygon {
	q := make(Polygon, 0, len(p))
	n := len(p)
	for i := range p {
		a, b, c := p[(i+n-1)%n], p[i], p[(i+1)%n]
		u, v := b.Sub(a), c.Sub(b)
		if math.Abs(u.Cross(v)) <= straightTurn*u.Len()*v.Len() && u.Dot(v) > 0 {
			continue
		}
		q = append(q, b)
	}
	if q.signedArea2() < 0 {
		for i, j := 0, len(q)-1; i < j; i, j = i+1, j-1 {
			q[i], q[j] = q[j], q[i]
		}
	}
	return q
}

// earClip cuts the anticlockwise simple polygon q into len(q)-2 triangles, as triples of
// indexes into q, each anticlockwise. An ear is a corner turning left whose triangle
// with its two neighbours holds no other corner, not even on its edges: cutting it off
// along the diagonal leaves a simple polygon. Every simple polygon of four or more
// corners has two ears (Meisters' theorem), so the search always finds one; if float64
// ever hides them all, the rest is cut as a fan from one corner.
func earClip(q Polygon) [][3]int {
	n := len(q)
	next, prev := make([]int, n), make([]int, n)
	for i := range n {
		next[i], prev[i] = (i+1)%n, (i+n-1)%n
	}
	tris := make([][3]int, 0, n-2)
	left, i, tried := n, 0, 0
	for left > 3 {
		a, c := prev[i], next[i]
		if isEar(q, a, i, c, next) {
			tris = append(tris, [3]int{a, i, c})
			next[a], prev[c] = c, a
			left--
			i, tried = c, 0
			continue
		}
		i = next[i]
		if tried++; tried > left {
			// No ear found in a whole turn: float64 has folded a corner. Fan out the
			// rest from i, which is still a simple polygon's corner.
			for j := next[i]; next[j] != i; j = next[j] {
				tris = append(tris, [3]int{i, j, next[j]})
			}
			return tris
		}
	}
	return append(tris, [3]int{prev[i], i, next[i]})
}

// isEar reports whether corner b, between a and c, is an ear of the polygon whose
// remaining corners next links.
func isEar(q Polygon, a, b, c int, next []int) bool {
	pa, pb, pc := q[a], q[b], q[c]
	if pb.Sub(pa).Cross(pc.Sub(pb)) <= 0 {
		return false
	}
	for j := next[c]; j != a; j = next[j] {
		x := q[j]
		if x == pa || x == pb || x == pc {
			continue
		}
		if pb.Sub(pa).Cross(x.Sub(pa)) >= 0 && pc.Sub(pb).Cross(x.Sub(pb)) >= 0 && pa.Sub(pc).Cross(x.Sub(pc)) >= 0 {
			return false
		}
	}
	return true
}

// mergeTriangles removes, one by one, every diagonal between the triangles whose two
// sides stay convex without it (Hertel and Mehlhorn), and returns the pieces left.
func mergeTriangles(q Polygon, tris [][3]int) []Polygon {
	pieces := make([][]int, len(tris))
	owner := map[[2]int]int{} // a directed edge (from, to) to the piece that has it
	for k, t := range tris {
		pieces[k] = t[:]
		for e := range 3 {
			owner[[2]int{t[e], t[(e+1)%3]}] = k
		}
	}
	turnsLeft := func(a, b, c int) bool { return q[b].Sub(q[a]).Cross(q[c].Sub(q[b])) >= 0 }
	for k := range pieces {
		for e := 0; e < len(pieces[k]); e++ {
			pk := pieces[k]
			a, b := pk[e], pk[(e+1)%len(pk)]
			o, ok := owner[[2]int{b, a}]
			if !ok || o == k || pieces[o] == nil {
				continue
			}
			po := pieces[o]
			at := 0
			for po[at] != a {
				at++
			}
			nk, no := len(pk), len(po)
			// Without the diagonal, a lies between its neighbour before it in k and
			// its neighbour after it in o, and b between o's and k's.
			if !turnsLeft(pk[(e+nk-1)%nk], a, po[(at+1)%no]) || !turnsLeft(po[(at+no-2)%no], b, pk[(e+2)%nk]) {
				continue
			}
			// Walk k from b round to a, then o from after a round to before b.
			merged := make([]int, 0, nk+no-2)
			for j := range nk {
				merged = append(merged, pk[(e+1+j)%nk])
			}
			for j := 1; j < no-1; j++ {
				merged = append(merged, po[(at+j)%no])
			}
			m := len(merged)
			pieces[k], pieces[o] = merged, nil
			for j := range m {
				owner[[2]int{merged[j], merged[(j+1)%m]}] = k
			}
			e = -1 // the piece changed: look at all its edges again
		}
	}
	var out []Polygon
	for _, pc := range pieces {
		if pc == nil {
			continue
		}
		poly := make(Polygon, len(pc))
		for j, v := range pc {
			poly[j] = q[v]
		}
		out = append(out, poly)
	}
	return out
}
