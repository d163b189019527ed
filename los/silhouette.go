package los

import "github.com/volley-wargames/volley/geom"

// A Silhouette is a model as seen from the side: an upright cylinder on Base,
// from height Bottom (where the model stands: 0 on the table, higher on a
// hill or a roof) up to Bottom+Height. Base.R and Height must be >= 0.
type Silhouette struct {
	Base           geom.Circle
	Bottom, Height float64
}

// crossSection is the sampling grid of a silhouette as seen from an eye: a
// vertical rectangle through the base centre, square on to the eye, divided
// into cols×rows cells.
type crossSection struct {
	origin     Point3   // lower-left corner, as the eye sees it
	across     geom.Vec // one cell's width, to the eye's right
	cellHeight float64
}

// newCrossSection returns the grid for target seen from eye. It panics if
// cols or rows is below 1, since no sample could be taken.
func newCrossSection(eye Point3, target Silhouette, cols, rows int) crossSection {
	if cols < 1 || rows < 1 {
		panic("los: silhouette needs at least 1 column and 1 row of samples")
	}
	c := target.Base.C
	look := c.Sub(eye.XY()).Norm()
	if look == (geom.Vec{}) {
		// Eye straight overhead: every upright rectangle is square on to it,
		// so take the one facing north.
		look = geom.V(0, 1)
	}
	// A quarter turn clockwise of the view direction is the eye's right.
	right := geom.V(look.Y, -look.X)
	left := c.Sub(right.Scale(target.Base.R))
	return crossSection{
		origin:     P3(left, target.Bottom),
		across:     right.Scale(2 * target.Base.R / float64(cols)),
		cellHeight: target.Height / float64(rows),
	}
}

// point returns the centre of cell (col, row), counting from the eye's
// lower left. Centres keep samples off the outline, where a ray would only
// graze the model.
func (x crossSection) point(col, row int) Point3 {
	v := x.origin.XY().Add(x.across.Scale(float64(col) + 0.5))
	return P3(v, x.origin.Z+x.cellHeight*(float64(row)+0.5))
}

// SilhouettePoints returns the points VisibleFraction aims at for target seen
// from eye, so callers can draw them. The rectangle they sample is the one a [View]
// measures exactly. The cross-section is the vertical
// rectangle through the base centre, square on to the eye's horizontal line
// of sight, 2×Base.R wide and spanning Bottom to Bottom+Height. It is cut
// into cols×rows equal cells and each point is a cell centre. Points run left
// to right (as the eye sees them) along the bottom row, then up row by row.
// An eye directly above the centre sees a rectangle running west to east.
// It panics if cols or rows is below 1.
func SilhouettePoints(eye Point3, target Silhouette, cols, rows int) []Point3 {
	x := newCrossSection(eye, target, cols, rows)
	pts := make([]Point3, 0, cols*rows)
	for row := range rows {
		for col := range cols {
			pts = append(pts, x.point(col, row))
		}
	}
	return pts
}

// VisibleFraction returns the share, in [0, 1], of the cols×rows sample rays
// from eye to target's cross-section (see [SilhouettePoints]) that are clear
// of the scene (see [Scene.Clear]; ignore is passed on). More samples give a
// finer answer at proportional cost. It does not allocate. It panics if cols
// or rows is below 1.
//
// This is the sampled method: a part of the silhouette narrower or shorter than a
// cell can be missed. Rule systems measure sight exactly ([View], [Scene.Visible]);
// they call VisibleFraction only to replay battles begun before sight was exact, and
// the tests use it, with many rays, as an oracle for the exact answer.
func (s *Scene) VisibleFraction(eye Point3, target Silhouette, cols, rows int, ignore func(i int) bool) float64 {
	x := newCrossSection(eye, target, cols, rows)
	// Every ray lies inside the box around the eye and the target's cylinder: a prism
	// whose own box misses it blocks none of them. Setting those aside once, instead of
	// for every ray, gives the same answer (the per-ray test rejects them anyway) and
	// leaves nothing to trace on most open lines. Up to maxCandidates are kept on the
	// stack; beyond that every prism is tested per ray.
	lo := geom.V(min(eye.X, target.Base.C.X-target.Base.R), min(eye.Y, target.Base.C.Y-target.Base.R))
	hi := geom.V(max(eye.X, target.Base.C.X+target.Base.R), max(eye.Y, target.Base.C.Y+target.Base.R))
	zlo, zhi := min(eye.Z, target.Bottom), max(eye.Z, target.Bottom+target.Height)
	var buf [maxCandidates]int
	cands := buf[:0]
	all := false
	for i := range s.Prisms {
		p := &s.Prisms[i]
		if ignore != nil && ignore(i) {
			continue
		}
		if !(p.Top > p.Bottom) || zlo >= p.Top || zhi <= p.Bottom {
			continue
		}
		plo, phi := p.Footprint.Bounds()
		if hi.X <= plo.X || lo.X >= phi.X || hi.Y <= plo.Y || lo.Y >= phi.Y {
			continue
		}
		if len(cands) == maxCandidates {
			all = true
			break
		}
		cands = append(cands, i)
	}
	if !all && len(cands) == 0 {
		return 1
	}
	seen := 0
	for row := range rows {
		for col := range cols {
			to := x.point(col, row)
			if all {
				if s.Clear(eye, to, ignore) {
					seen++
				}
				continue
			}
			clear := true
			for _, i := range cands {
				if s.Prisms[i].Blocks(eye, to) {
					clear = false
					break
				}
			}
			if clear {
				seen++
			}
		}
	}
	return float64(seen) / float64(cols*rows)
}

// maxCandidates is how many prisms VisibleFraction keeps as possible blockers of one
// silhouette on the stack.
const maxCandidates = 32
