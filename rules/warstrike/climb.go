package warstrike

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// Floors and walls, from edition 5 (ClimbEdition). The text measures a model's elevation
// "from the table surface to the bottom of the model's base" and gives the example of "a
// model whose base is resting on the upper floor of a ruin 7" above the surface of the
// table" (TLOS And Elevated Positions): a model on a floor keeps its elevation while it
// moves along the floor. How a model gets onto a floor or off it, and over a wall, the
// text does not say; volley's readings are in docs/rules/warstrike.md ("Floors and
// walls"), each with an option.

// Floor is a level of a piece of area terrain a model may stand on: a ruin's floor.
// Height is above the table, as a model's elevation is; Poly is where the floor is, the
// piece's footprint or part of it.
type Floor struct {
	Height float64
	Poly   geom.Polygon
	// Whole says the floor covers the piece's footprint. Implied says the scenario gave
	// the piece no floors, and a model's elevation: inside it stood on this one.
	Whole, Implied bool
}

// levelTolerance is how near two heights are the same level: a model's elevation and a
// floor's, given in the scenario to a thousandth at most.
const levelTolerance = 1e-6

// checkFloors checks a piece's floors and builds them; false when they may not be used.
// A floor is area terrain's, lies above the piece's bottom and at most at its top, and
// within its footprint. A battle begun before edition 5 has none.
func (b *Battle) checkFloors(doc *scenario.Doc, s *terrainSpec, t *Terrain, errs *scenario.ErrorList) bool {
	if s.Floors == nil {
		return true
	}
	switch {
	case !b.climbs:
		errs.Add(doc.At(&s.Floors), "terrain %q: floors: a battle begun under edition %d has no floors (from edition %d)", s.ID, volley.DocEdition(doc), ClimbEdition)
		return false
	case t.Kind != Area:
		errs.Add(doc.At(&s.Floors), "terrain %q: floors: only area terrain (a ruin) has floors", s.ID)
		return false
	case len(s.Floors) > MaxFloors:
		errs.Add(doc.At(&s.Floors), "terrain %q: floors: at most %d", s.ID, MaxFloors)
		return false
	}
	ok := true
	for i := range s.Floors {
		fs := &s.Floors[i]
		f := Floor{Height: fs.Height.Inches(), Poly: t.Poly, Whole: fs.Polygon == nil}
		if f.Height <= t.Bottom+levelTolerance || f.Height > t.Top()+levelTolerance {
			errs.Add(doc.At(&fs.Height), "terrain %q: a floor's height must lie above the piece's bottom (%s) and at most at its top (%s), measured from the table", s.ID, b.length(t.Bottom), b.length(t.Top()))
			ok = false
			continue
		}
		if fs.Polygon != nil {
			if f.Poly, ok = b.floorPolygon(doc, fs, t, errs); !ok {
				continue
			}
		}
		t.Floors = append(t.Floors, f)
	}
	slices.SortStableFunc(t.Floors, func(x, y Floor) int { return cmp.Compare(x.Height, y.Height) })
	return ok
}

// floorPolygon checks a floor's own polygon: valid, and within the piece's footprint
// (every corner and the middle of every edge inside it or on its edge).
func (b *Battle) floorPolygon(doc *scenario.Doc, fs *floorSpec, t *Terrain, errs *scenario.ErrorList) (geom.Polygon, bool) {
	if len(fs.Polygon) > MaxPolygonPoints {
		errs.Add(doc.At(&fs.Polygon), "terrain %q: a floor's polygon: at most %d points", t.ID, MaxPolygonPoints)
		return nil, false
	}
	p := make(geom.Polygon, len(fs.Polygon))
	for j := range fs.Polygon {
		if !checkPoint(doc, &fs.Polygon[j], "terrain "+t.ID+": a floor's polygon", errs) {
			return nil, false
		}
		p[j] = geom.V(fs.Polygon[j].X, fs.Polygon[j].Y)
	}
	if err := p.Validate(); err != nil {
		errs.Add(doc.At(&fs.Polygon), "terrain %q: a floor's polygon: %v", t.ID, err)
		return nil, false
	}
	within := func(q geom.Vec) bool { return geom.PolygonDist(geom.Segment{A: q, B: q}, t.Poly) <= levelTolerance }
	for j := range p {
		if !within(p[j]) || !within(p[j].Lerp(p[(j+1)%len(p)], 0.5)) {
			errs.Add(doc.At(&fs.Polygon), "terrain %q: a floor's polygon must lie within the piece's footprint", t.ID)
			return nil, false
		}
	}
	return p, true
}

// implyFloor gives a floor to the area terrain a model stands in at the elevation the
// scenario gives it, when no floor holds it there and the piece states none: the first
// piece, in the scenario's order, of area terrain under its centre that reaches that high
// (volley's reading: the scenario says the base rests there). An elevation at the ground,
// or that no piece reaches, is not a floor: a ledge, a slope, held until the model moves.
func (b *Battle) implyFloor(m *Model) {
	if !b.climbs || m.Elevation <= b.groundAt(m.At)+levelTolerance || b.floorAt(m.At, m.Elevation) != nil {
		return
	}
	for i := range b.terrain {
		t := &b.terrain[i]
		if t.Kind != Area || !t.Poly.Contains(m.At) || m.Elevation <= t.Bottom+levelTolerance || m.Elevation > t.Top()+levelTolerance {
			continue
		}
		if slices.ContainsFunc(t.Floors, func(f Floor) bool { return !f.Implied }) {
			return // the scenario states this piece's floors: the elevation is on none
		}
		t.Floors = append(t.Floors, Floor{Height: m.Elevation, Poly: t.Poly, Whole: true, Implied: true})
		slices.SortStableFunc(t.Floors, func(x, y Floor) int { return cmp.Compare(x.Height, y.Height) })
		return
	}
}

// floorAt is the floor at height z whose polygon holds p, and its piece; nil for none.
func (b *Battle) floorAt(p geom.Vec, z float64) *Floor {
	f, _ := b.floorPiece(p, z)
	return f
}

func (b *Battle) floorPiece(p geom.Vec, z float64) (*Floor, *Terrain) {
	for i := range b.terrain {
		t := &b.terrain[i]
		for j := range t.Floors {
			if f := &t.Floors[j]; math.Abs(f.Height-z) <= levelTolerance && f.Poly.Contains(p) {
				return f, t
			}
		}
	}
	return nil, nil
}

// floorOf is the floor model m stands on, nil when it stands on none.
func (b *Battle) floorOf(m *Model) *Floor { return b.floorAt(m.At, m.Elevation) }

// levelName names what a model standing at p, z up, stands on: a floor, or the ground.
func (b *Battle) levelName(p geom.Vec, z float64) string {
	if _, t := b.floorPiece(p, z); t != nil {
		return "the floor of " + t.label()
	}
	return b.groundName(p)
}

// levelsAt lists the levels a model may climb to at p, in words: the ground and each
// floor there.
func (b *Battle) levelsAt(p geom.Vec) string {
	levels := []string{fmt.Sprintf("%s at %s", b.groundName(p), b.length(b.groundAt(p)))}
	for i := range b.terrain {
		t := &b.terrain[i]
		for _, f := range t.Floors {
			if f.Poly.Contains(p) {
				levels = append(levels, fmt.Sprintf("the floor of %s at %s", t.label(), b.length(f.Height)))
			}
		}
	}
	return strings.Join(levels, ", ")
}

// climbCost is what climbing a height costs a move: the height, or nothing with climb:
// free.
func (b *Battle) climbCost(h float64) float64 {
	if b.opts.climb == ClimbFree {
		return 0
	}
	return h
}

// climbsOver reports whether model m, standing at its elevation, may climb over wall t
// rather than be stopped by it: from edition 5, unless cross_walls: never, a wall whose
// top is less than the model's height above where it stands (volley's reading: a wall it
// could see over, as TLOS And Linear Obstacles compares them).
func (b *Battle) climbsOver(t *Terrain, m *Model) bool {
	return b.climbs && b.opts.crossWalls == CrossWallsLower && t.Kind == Wall && t.Top()-m.Elevation < m.Height-1e-9
}

// wallClimb is a wall a model's path climbs over, and how many times.
type wallClimb struct {
	wall  *Terrain
	times int
}

// wallClimbs are the walls model md (standing at its elevation) climbs over along path,
// in the order met, or why it may not: its base would end astride one. A climb is a
// stretch of the path along which the base overlaps the wall: each leg meets a wall (a
// convex block) along one stretch at most, and two legs' stretches are one where the
// point between them is one of them.
func (b *Battle) wallClimbs(md *Model, path geom.Path) ([]wallClimb, string) {
	r := md.Base / 2
	var out []wallClimb
	for j := range b.terrain {
		t := &b.terrain[j]
		if !b.climbsOver(t, md) || !blocksMove(t, md) {
			continue
		}
		n := 0
		for i := range len(path) - 1 {
			if geom.SweepHitsPolygon(path.Leg(i), r, t.Poly) {
				n++
			}
		}
		if n == 0 {
			continue
		}
		for i := 1; i < len(path)-1; i++ {
			if geom.SweepHitsPolygon(geom.Segment{A: path[i], B: path[i]}, r, t.Poly) {
				n-- // the legs on both sides of it climb the wall once
			}
		}
		end := path.End()
		if geom.SweepHitsPolygon(geom.Segment{A: end, B: end}, r, t.Poly) {
			return nil, fmt.Sprintf("it would stop astride %s (%s): a model climbs over a wall and does not stand on it (volley's reading)", t.label(), t.Kind)
		}
		out = append(out, wallClimb{t, n})
	}
	return out, ""
}

// levelPiece names the piece of terrain a floor is a level of.
func (b *Battle) levelPiece(f *Floor) string {
	for i := range b.terrain {
		t := &b.terrain[i]
		for j := range t.Floors {
			if &t.Floors[j] == f {
				return t.label()
			}
		}
	}
	return ""
}

// climbWords says what a walk climbed, for the move's trace: the walls it climbed over,
// the climb where it ended, and what they cost; "" when it climbed nothing.
func (b *Battle) climbWords(w *walk, from Model, m *Model) string {
	var parts []string
	for _, c := range w.walls {
		s := fmt.Sprintf("climbing over %s (%s up and down)", c.wall.label(), b.length(c.wall.Top()-from.Elevation))
		if c.times > 1 {
			s += fmt.Sprintf(", %d times", c.times)
		}
		parts = append(parts, s)
	}
	switch {
	case w.up > 0:
		parts = append(parts, fmt.Sprintf("climbed %s to %s", b.length(w.up), b.levelName(m.At, m.Elevation)))
	case w.up < 0:
		parts = append(parts, fmt.Sprintf("climbed down %s to %s", b.length(-w.up), b.levelName(m.At, m.Elevation)))
	}
	if len(parts) == 0 {
		return ""
	}
	cost := fmt.Sprintf("%s along the table and %s climbing", b.length(w.along), b.length(w.climb))
	if b.opts.climb == ClimbFree {
		cost = "climbing is free (climb: free)"
	}
	return strings.Join(parts, "; ") + " (" + cost + ")"
}

// hasFloors reports whether any piece of terrain has a floor.
func (b *Battle) hasFloors() bool {
	return slices.ContainsFunc(b.terrain, func(t Terrain) bool { return len(t.Floors) > 0 })
}

// floorPlacements write, as a scenario, the floors a piece was given for a model's
// elevation: they stay when the model has left them.
func (b *Battle) floorPlacements() []volley.Placement {
	var out []volley.Placement
	for i := range b.terrain {
		t := &b.terrain[i]
		if !slices.ContainsFunc(t.Floors, func(f Floor) bool { return f.Implied }) {
			continue
		}
		floors := make([]any, len(t.Floors))
		for j, f := range t.Floors {
			floors[j] = map[string]any{"height": b.inUnit(f.Height)}
		}
		out = append(out, volley.Placement{ID: t.ID, Set: map[string]any{"floors": floors}})
	}
	return out
}
