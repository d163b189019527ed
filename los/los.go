package los

import (
	"fmt"

	"github.com/volley-wargames/volley/geom"
)

// A Point3 is a point above the table: X and Y as in [geom.Vec], Z the height
// above the table surface.
type Point3 struct {
	X, Y, Z float64
}

// P3 returns the point at height z above the table point v.
func P3(v geom.Vec, z float64) Point3 { return Point3{v.X, v.Y, z} }

// XY returns p's position on the table, dropping its height.
func (p Point3) XY() geom.Vec { return geom.V(p.X, p.Y) }

// A Prism is a piece of solid terrain: the polygon Footprint extruded
// straight up from height Bottom to height Top. Top must exceed Bottom; a
// prism with Top <= Bottom is empty and blocks nothing. Bottom above 0 makes
// a floating block (an overhang or the upper storey of a ruin) that lines can
// pass beneath.
type Prism struct {
	Footprint   geom.Polygon
	Bottom, Top float64
}

// Validate reports why p is not a usable prism, or nil if it is: its
// footprint must be valid (see [geom.Polygon.Validate]) and Top must be
// above Bottom.
func (p Prism) Validate() error {
	if err := p.Footprint.Validate(); err != nil {
		return fmt.Errorf("los: prism footprint: %w", err)
	}
	if !(p.Top > p.Bottom) {
		return fmt.Errorf("los: prism top %v is not above its bottom %v", p.Top, p.Bottom)
	}
	return nil
}

// maxStackIntervals is how many inside-footprint stretches Blocks keeps on
// the stack; a line through more than this many arms of one footprint costs
// an allocation.
const maxStackIntervals = 8

// Blocks reports whether the segment from a to b passes through p's
// interior: over some stretch its shadow on the table is strictly inside the
// footprint (see [geom.Polygon.SegmentInside]) while its height is strictly
// between Bottom and Top. Height changes linearly along the segment.
//
// Grazing does not block: a segment that only touches a face, an edge or a
// corner, or runs level with the top or bottom, passes (heights within
// [geom.Tolerance] of Top or Bottom count as touching). A segment with an
// end inside the prism is blocked. A vertical segment (a and b above the same
// table point) is blocked if that point is inside the footprint and its
// height range overlaps (Bottom, Top).
func (p Prism) Blocks(a, b Point3) bool {
	if !(p.Top > p.Bottom) {
		return false
	}
	// Cheap rejections first: a segment wholly above, below or beside the
	// prism's bounding box cannot touch it.
	if min(a.Z, b.Z) >= p.Top || max(a.Z, b.Z) <= p.Bottom {
		return false
	}
	if !crossesBox(a.XY(), b.XY(), p.Footprint) {
		return false
	}

	var buf [maxStackIntervals]geom.Interval
	inside := p.Footprint.AppendSegmentInside(buf[:0], geom.Segment{A: a.XY(), B: b.XY()})
	top, bottom := p.Top-geom.Tolerance, p.Bottom+geom.Tolerance
	for _, in := range inside {
		// Over the open stretch (T0, T1) the height sweeps the open range
		// between its values at the ends (or stays put on a level line);
		// either way it meets (Bottom, Top) exactly when this holds.
		z0, z1 := lerp(a.Z, b.Z, in.T0), lerp(a.Z, b.Z, in.T1)
		if min(z0, z1) < top && max(z0, z1) > bottom {
			return true
		}
	}
	return false
}

// crossesBox reports whether the segment from a to b might enter the inside
// of fp's bounding box. It rules out segments whose own box misses it, and
// then long diagonal ones, whose boxes overlap nearly everything, that pass
// wholly to one side of it. A segment that only touches the box cannot enter
// the polygon's open interior, so touching counts as missing.
func crossesBox(a, b geom.Vec, fp geom.Polygon) bool {
	lo, hi := fp.Bounds()
	if max(a.X, b.X) <= lo.X || min(a.X, b.X) >= hi.X ||
		max(a.Y, b.Y) <= lo.Y || min(a.Y, b.Y) >= hi.Y {
		return false
	}
	d := b.Sub(a)
	if d == (geom.Vec{}) {
		return true
	}
	// The box misses the segment's line if all four corners lie on one side.
	c1 := d.Cross(lo.Sub(a))
	c2 := d.Cross(geom.V(hi.X, lo.Y).Sub(a))
	c3 := d.Cross(hi.Sub(a))
	c4 := d.Cross(geom.V(lo.X, hi.Y).Sub(a))
	allLeft := c1 >= 0 && c2 >= 0 && c3 >= 0 && c4 >= 0
	allRight := c1 <= 0 && c2 <= 0 && c3 <= 0 && c4 <= 0
	return !allLeft && !allRight
}

// lerp returns the value a fraction t of the way from a to b.
func lerp(a, b, t float64) float64 { return a + (b-a)*t }

// A Scene is the terrain on a table, as solid prisms. The zero Scene is an
// open table. Prisms are referred to by their index in Prisms.
type Scene struct {
	Prisms []Prism
}

// Clear reports whether the segment from a to b passes through none of the
// scene's prisms (see [Prism.Blocks]). ignore, if not nil, is asked about
// each prism by index and may exempt it, for example the piece of terrain a
// model stands inside, or a prism rules treat as see-through. Clear does not
// allocate.
func (s *Scene) Clear(a, b Point3, ignore func(i int) bool) bool {
	for i := range s.Prisms {
		if ignore != nil && ignore(i) {
			continue
		}
		if s.Prisms[i].Blocks(a, b) {
			return false
		}
	}
	return true
}
