package republique

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// The geometry of moving blocks of rectangular bases, in cm: a base may not pass over
// another unit's base or an enemy skirmish marker, nor leave the table. Bases that touch
// do not overlap.

// contact is how far two bases may cross and still only touch, in cm: rounding when a
// base is moved into contact.
const contact = 1e-6

// centre is the middle of a unit's bases: the mean of their centres.
func centre(rs []Rect) geom.Vec {
	var c geom.Vec
	for _, r := range rs {
		c = c.Add(r.C)
	}
	if len(rs) == 0 {
		return c
	}
	return c.Scale(1 / float64(len(rs)))
}

// turn turns a vector clockwise by deg degrees, as compass bearings turn.
func turn(v geom.Vec, deg float64) geom.Vec {
	s, c := math.Sincos(deg * math.Pi / 180)
	return geom.V(v.X*c+v.Y*s, -v.X*s+v.Y*c)
}

// moved is the base moved by d.
func (r Rect) moved(d geom.Vec) Rect { r.C = r.C.Add(d); return r }

// turned is the base turned clockwise by deg degrees about p.
func (r Rect) turned(p geom.Vec, deg float64) Rect {
	r.C = p.Add(turn(r.C.Sub(p), deg))
	r.Facing = geom.NormDeg(r.Facing + deg)
	return r
}

// hull is the convex hull of points, anticlockwise, without collinear points (Andrew's
// monotone chain).
func hull(pts []geom.Vec) []geom.Vec {
	ps := slices.Clone(pts)
	slices.SortFunc(ps, func(a, b geom.Vec) int {
		if a.X != b.X {
			return cmp.Compare(a.X, b.X)
		}
		return cmp.Compare(a.Y, b.Y)
	})
	if len(ps) < 3 {
		return ps
	}
	cross := func(o, a, b geom.Vec) float64 { return a.Sub(o).Cross(b.Sub(o)) }
	var h []geom.Vec
	for pass := 0; pass < 2; pass++ {
		start := len(h)
		for _, p := range ps {
			for len(h) >= start+2 && cross(h[len(h)-2], h[len(h)-1], p) <= 1e-12 {
				h = h[:len(h)-1]
			}
			h = append(h, p)
		}
		h = h[:len(h)-1]
		slices.Reverse(ps)
	}
	return h
}

// apart reports whether two convex polygons share no area: the edge normal of one of
// them separates them, or they only touch.
func apart(a, b []geom.Vec) bool {
	for _, poly := range [][]geom.Vec{a, b} {
		for i := range poly {
			e := poly[(i+1)%len(poly)].Sub(poly[i])
			n := geom.V(-e.Y, e.X)
			if l := n.Len(); l > 0 {
				n = n.Scale(1 / l)
			} else {
				continue
			}
			loA, hiA := extent(a, n)
			loB, hiB := extent(b, n)
			if hiA <= loB+contact || hiB <= loA+contact {
				return true
			}
		}
	}
	return false
}

// extent is the span of points along an axis.
func extent(ps []geom.Vec, axis geom.Vec) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range ps {
		x := p.Dot(axis)
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi
}

// obstacle is what a moving unit may not pass over: another unit's base or a skirmish
// marker, with a circle round it to set it aside quickly.
type obstacle struct {
	id   string
	poly []geom.Vec
	c    geom.Vec
	r    float64
}

func obstacleOf(id string, r Rect) obstacle {
	return obstacle{id: id, poly: r.Polygon(), c: r.C, r: math.Hypot(r.W, r.D) / 2}
}

// obstacles are the bases a unit's move may not pass over: every other unit's still on
// the table, and the enemy's skirmish markers. Reading (not in the source): a unit's own
// side's skirmishers give way to it.
func (b *Battle) obstacles(u *Unit) []obstacle {
	var out []obstacle
	for i := range b.units {
		o := &b.units[i]
		if o == u {
			continue
		}
		for _, r := range o.Bases {
			out = append(out, obstacleOf(o.ID+"'s base", r))
		}
	}
	for i := range b.markers {
		if m := &b.markers[i]; m.Side != u.Side {
			out = append(out, obstacleOf("skirmish marker "+m.ID, m.R))
		}
	}
	return out
}

// sweep says what the bases would pass over, each carried from where it stands to step(r)
// (a move along a leg, or a turn of a few degrees), or "": the area each sweeps is the
// hull of its two poses.
func sweep(bases []Rect, step func(Rect) Rect, obs []obstacle) string {
	for _, r := range bases {
		a, z := r.Corners(), step(r).Corners()
		h := hull(append(a[:], z[:]...))
		c, rad := centre([]Rect{r, step(r)}), 0.0
		for _, p := range h {
			rad = max(rad, p.Dist(c))
		}
		for _, o := range obs {
			if c.Dist(o.c) < rad+o.r && !apart(h, o.poly) {
				return o.id
			}
		}
	}
	return ""
}

// standsOn says what the bases would stand on, or "".
func standsOn(bases []Rect, obs []obstacle) string {
	return sweep(bases, func(r Rect) Rect { return r }, obs)
}

// offTable says why bases are off the table, or "" (also for a table without edges).
func (b *Battle) offTable(bases []Rect) string {
	t := &b.table
	if !t.Edged {
		return ""
	}
	lo, hi := t.Lo.Scale(scenario.CentimetresPerInch), t.Hi.Scale(scenario.CentimetresPerInch)
	for _, r := range bases {
		for _, p := range r.Corners() {
			if p.X < lo.X-contact || p.Y < lo.Y-contact || p.X > hi.X+contact || p.Y > hi.Y+contact {
				return fmt.Sprintf("a base would leave the table (%s × %s from %g, %g)", b.length(hi.X-lo.X), b.length(hi.Y-lo.Y), round3(lo.X*b.perCm()), round3(lo.Y*b.perCm()))
			}
		}
	}
	return ""
}

// inZone says why bases lie outside their side's deployment zone, or "" (also for a side
// without one): every corner in it, and no edge of the zone across a base.
func (b *Battle) inZone(side string, bases []Rect) string {
	z, ok := b.table.Zones[side]
	if !ok {
		return ""
	}
	zone := make(geom.Polygon, len(z))
	for i, p := range z {
		zone[i] = p.Scale(scenario.CentimetresPerInch)
	}
	why := fmt.Sprintf("a base would lie outside %s's deployment zone", side)
	for _, r := range bases {
		for _, p := range r.Corners() {
			if !zone.Contains(p) && pointPolyDist(p, zone) > contact {
				return why
			}
		}
		for _, e := range edges(zone) {
			for _, f := range edges(r.Polygon()) {
				if crosses(e, f) {
					return why
				}
			}
		}
	}
	return ""
}

// crosses reports whether two segments cross properly: each one's ends on either side
// of the other.
func crosses(a, b geom.Segment) bool {
	side := func(s geom.Segment, p geom.Vec) float64 { return s.B.Sub(s.A).Cross(p.Sub(s.A)) }
	return side(a, b.A)*side(a, b.B) < -contact && side(b, a.A)*side(b, a.B) < -contact
}

func pointPolyDist(p geom.Vec, poly geom.Polygon) float64 {
	d := math.Inf(1)
	for _, e := range edges(poly) {
		d = min(d, e.DistTo(p))
	}
	return d
}

// perCm is how many of the scenario's unit make a cm.
func (b *Battle) perCm() float64 {
	return scenario.Centimetres(1).In(b.unit.OrInch())
}

// length writes a distance in cm in the scenario's unit, for messages about the table.
func (b *Battle) length(x float64) string {
	if b.unit == scenario.Centimetre {
		return fmtCm(x)
	}
	return fmt.Sprintf("%g\"", math.Round(x*b.perCm()*100)/100)
}
