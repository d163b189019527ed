package republique

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// Where to stand (not in the source: the phase's text has no such question). A unit of
// the phasing player, in its maneuver step, moves as a block: its bases keep their
// formation and its facing, its centre follows a path (Move's path, nothing else), so the
// map's points are where its centre may end. The path goes round every other unit's base
// and the enemy's skirmish markers and stays on the table, as a move must; terrain
// neither blocks nor slows it (Movement's reading).
//
// Translated, a base overlaps another exactly when its centre lies inside their
// Minkowski difference: the other's outline grown by the base's own, a convex polygon.
// Shortest paths among convex polygons bend only at their corners, so geom.Reach finds
// them exactly.

// positionSetup is a position query checked: the unit, how far it may still move and
// how, what its centre must keep out of, and the points, laid out with the unit's own
// centre on one of them.
type positionSetup struct {
	u *Unit
	// left is what the unit may still move this player turn, in cm; for a battery,
	// prolonge how far it may still move by prolonge and limber what limbering (or
	// unlimbering) takes.
	left, prolonge, limber float64
	// ways are its centre's, in cm: from where it stands, round the regions it may not
	// enter, within the rectangle it must keep in on an edged table, and as far as it may
	// go as the crow flies (ways.Left), worked out once their price is checked.
	ways  advise.Ways
	area  [4]float64 // in the battle's unit
	g     dangerGrid
	perCm float64
}

func (b *Battle) positionSetup(q advise.PositionQuery) (*positionSetup, error) {
	u := b.Unit(q.Unit)
	if u == nil {
		return nil, advise.Invalid("unit", "republique: no unit %q%s", q.Unit, scenario.Hint(q.Unit, b.unitIDs()))
	}
	if !b.moves {
		return nil, advise.Invalid("unit", "republique: this battle began before units moved (edition %d): it has no position map", volley.EditionMoves-1)
	}
	left, why, _ := b.movable(u)
	if why != "" {
		return nil, advise.Invalid("unit", "republique: %s may not move now: %s", u.ID, why)
	}
	if err := advise.CheckDestroyTarget(b, u.Side, q.Objective); err != nil {
		return nil, err
	}
	s := &positionSetup{u: u, left: left, limber: b.movement.limber, ways: advise.Ways{Start: centre(u.Bases), Left: left}, perCm: b.perCm()}
	if u.Battery() && !u.Limbered {
		// Unlimbered, a battery moves by prolonge within that rate, or limbers first.
		if b.movement.prolonge > 0 {
			s.prolonge = min(max(b.movement.prolonge-b.phase.prolonged[u.ID], 0), left)
		}
		s.ways.Left = max(s.prolonge, left-s.limber, 0)
	}
	// Where its centre may not go: every other unit's bases and the enemy's markers, each
	// grown by each of its own pieces.
	var mine []geom.Polygon
	for _, piece := range blockPieces(u.Bases) {
		rel := make(geom.Polygon, len(piece))
		for i, p := range piece {
			rel[i] = p.Sub(s.ways.Start)
		}
		mine = append(mine, rel)
	}
	var others []geom.Polygon
	for i := range b.units {
		if o := &b.units[i]; o != u && !o.Destroyed() {
			others = append(others, blockPieces(o.Bases)...)
		}
	}
	for i := range b.markers {
		if m := &b.markers[i]; m.Side != u.Side {
			others = append(others, m.R.Polygon())
		}
	}
	for _, o := range others {
		for _, m := range mine {
			pts := make([]geom.Vec, 0, len(o)*len(m))
			for _, a := range o {
				for _, c := range m {
					pts = append(pts, a.Sub(c))
				}
			}
			s.ways.Obstacles = append(s.ways.Obstacles, geom.ConvexHull(pts))
		}
	}
	// On the table: the rectangle its centre keeps in is the table shrunk by how far
	// its bases reach from it.
	lo, hi := geom.V(math.Inf(1), math.Inf(1)), geom.V(math.Inf(-1), math.Inf(-1))
	for _, r := range u.Bases {
		for _, p := range r.Corners() {
			d := p.Sub(s.ways.Start)
			lo, hi = geom.V(min(lo.X, d.X), min(lo.Y, d.Y)), geom.V(max(hi.X, d.X), max(hi.Y, d.Y))
		}
	}
	t := &b.table
	s.ways.Lo = t.Lo.Scale(scenario.CentimetresPerInch).Sub(lo)
	s.ways.Hi = t.Hi.Scale(scenario.CentimetresPerInch).Sub(hi)
	// The points: the unit's centre on one of them, every step round it within its
	// radius (and on the table).
	k := s.perCm
	w := &s.ways
	bound := [4]float64{w.Start.X - w.Left, w.Start.Y - w.Left, w.Start.X + w.Left, w.Start.Y + w.Left}
	if t.Edged {
		bound = [4]float64{max(bound[0], w.Lo.X), max(bound[1], w.Lo.Y), min(bound[2], w.Hi.X), min(bound[3], w.Hi.Y)}
	}
	lay := func(step float64) error {
		x, y := exact(s.ways.Start.X*k), exact(s.ways.Start.Y*k)
		c0, c1 := math.Ceil((bound[0]*k-x)/step-1e-9), math.Floor((bound[2]*k-x)/step+1e-9)
		r0, r1 := math.Ceil((bound[1]*k-y)/step-1e-9), math.Floor((bound[3]*k-y)/step+1e-9)
		c0, r0 = min(c0, 0), min(r0, 0) // the unit's own place, even a little off the table
		c1, r1 = max(c1, 0), max(r1, 0)
		s.area = [4]float64{x + (c0-0.5)*step, y + (r0-0.5)*step, x + (c1+0.5)*step, y + (r1+0.5)*step}
		g, err := b.dangerGrid(advise.DangerQuery{Side: u.Side, As: u.ID, Area: s.area, Step: step})
		s.g = g
		return err
	}
	if q.Step != 0 {
		// Rounded: a step in cm read back in cm is not always the number it was. A step
		// that rounds to nothing (1e-320) is not a step.
		st := math.Round(q.Step*1e9) / 1e9
		if !(st > 0) || math.IsInf(st, 0) {
			return nil, stepError(volley.Errorf(volley.EINVALID, "republique: step must be a positive distance of at least a billionth"))
		}
		if err := lay(st); err != nil {
			return nil, stepError(err)
		}
		return s, nil
	}
	// By default the finest of the danger map's steps whose work the budget allows.
	var err error
	for _, c := range dangerSteps {
		if err = lay(math.Round(scenario.Centimetres(c).In(b.unit.OrInch())*1e9) / 1e9); err != nil {
			continue
		}
		if w, _ := b.positionWork(s); w <= volley.MaxHeavyWork {
			break
		}
	}
	if err != nil {
		return nil, stepError(err)
	}
	return s, nil
}

// stepError names the step as the field at fault.
func stepError(err error) error {
	var e *volley.Error
	if errors.As(err, &e) && e.Field == "" {
		c := *e
		c.Field = "step"
		return &c
	}
	return err
}

// blockPieces are the convex pieces of a block of bases: the whole block when its bases
// tile a convex shape (a line, a full column), else each base.
func blockPieces(bases []Rect) []geom.Polygon {
	var pts []geom.Vec
	area := 0.0
	for i, r := range bases {
		c := r.Corners()
		pts = append(pts, c[:]...)
		area += r.W * r.D
		for _, o := range bases[:i] {
			if !apart(r.Polygon(), o.Polygon()) {
				area = math.Inf(1) // bases that overlap: take each
			}
		}
	}
	if h := geom.ConvexHull(pts); len(bases) > 1 && h.Area() <= area*(1+1e-12) {
		return []geom.Polygon{h}
	}
	out := make([]geom.Polygon, len(bases))
	for i, r := range bases {
		out[i] = geom.ConvexHull(r.Polygon())
	}
	return out
}

// checkWays refuses a map whose ways alone cost more than volley.MaxHeavyWork: the
// corners within the unit's reach, which no step makes fewer.
func (s *positionSetup) checkWays() error { return advise.CheckWays(s.u.ID, s.ways) }

// PositionWork is the work of q's map: the ways there (every pair of corners tested
// against every region, then each point against them), a battery's own fire from each
// point (the Cost of such a fire) and the danger map of the area.
func (b *Battle) PositionWork(q advise.PositionQuery) (int64, error) {
	return advise.PositionWorkOf(q, b.positionSetup, (*positionSetup).checkWays, b.positionWork)
}

func (b *Battle) positionWork(s *positionSetup) (int64, string) {
	points := int64(s.g.Points())
	ways, corners := s.ways.Work(points)
	offence, fires := int64(0), "no fire of its own"
	if s.u.Battery() {
		offence, fires = b.Cost(&Fire{Batteries: []string{s.u.ID}}), "its own fire"
	}
	dw, _ := b.dangerWork(s.g)
	total := advise.AddWork(ways, advise.MulWork(points, offence), dw)
	if total == math.MaxInt64 {
		return total, "too many points"
	}
	return total, fmt.Sprintf("%d points, %d corners to go round within its reach, %s from each, and the danger map", points, corners, fires)
}

// way is how the unit comes to a point d cm away along its shortest path: whether a
// battery limbers first, moves by prolonge or unlimbers at the end; limbered is how it
// ends, ready whether it may fire then, moves whether it moved at all; cost is what the
// move takes of its rate.
type way struct {
	d, cost                    float64
	limber, unlimber, prolonge bool
	limbered, moves, ready     bool
}

// wayTo is how the unit comes to a point d cm away by the shortest path, and whether it
// may. Reading (not in the source): a battery ends unlimbered, ready to fire, when its
// rate allows it — by prolonge where that reaches (the cheapest way), else limbering,
// moving and unlimbering — and limbered where only that is left; a unit stays where it
// is at no cost.
func (s *positionSetup) wayTo(d float64) (way, bool) {
	u := s.u
	if d <= geom.Tolerance {
		d = 0 // its own place, but for the last bits of the arithmetic
	}
	w := way{d: d, cost: d, moves: d > 0, limbered: u.Limbered}
	switch {
	case !u.Battery():
		return w, d <= s.left
	case !u.Limbered && d == 0:
		w.ready = true
		return w, true
	case !u.Limbered && d <= s.prolonge:
		w.prolonge, w.ready = true, true
		return w, true
	case !u.Limbered && d+2*s.limber <= s.left:
		w.limber, w.unlimber, w.ready, w.moves, w.cost = true, true, true, true, d+2*s.limber
		return w, true
	case !u.Limbered:
		w.limber, w.limbered, w.moves, w.cost = true, true, true, d+s.limber
		return w, d+s.limber <= s.left
	case d+s.limber <= s.left:
		w.unlimber, w.limbered, w.ready, w.moves, w.cost = true, false, true, true, d+s.limber
		return w, true
	}
	return w, d <= s.left
}

// Position maps every point u can reach now (its centre, its formation and facing kept):
// the shortest legal path there, the best plan of its own fire from there after that
// move (a battery's; nothing else of this phase fires as a unit moves it), and the
// danger there (the danger map of the unit itself).
func (b *Battle) Position(ctx context.Context, q advise.PositionQuery) (*advise.PositionMap, error) {
	s, _, err := advise.PricePosition(q, b.positionSetup, (*positionSetup).checkWays, b.positionWork)
	if err != nil {
		return nil, err
	}
	if err := s.ways.Build(ctx, b.table.Edged); err != nil {
		return nil, err
	}
	u, g := s.u, s.g
	obj := advise.OffenceObjective(q)
	k := s.perCm
	m := advise.NewPositionMap(u.ID, u.Side, [2]float64{exact(s.ways.Start.X * k), exact(s.ways.Start.Y * k)}, exact(s.left*k),
		obj.Describe(MeasureBases), string(g.Unit), g.Lattice)
	if !u.Battery() {
		m.Offence = fmt.Sprintf("none: %s does not fire in this phase", u.Kind)
	}
	if err := m.FillDanger(ctx, b, advise.DangerQuery{Side: u.Side, As: u.ID, Step: g.Step, Objective: q.Danger, Area: s.area}, "republique"); err != nil {
		return nil, err
	}
	err = m.FillOffence(ctx, func() advise.PointFunc {
		f := b.copy()
		return func(c, r int, _ map[string]bool) (float64, error) {
			i := r*g.Cols + c
			p := s.point(c, r)
			w, ok := s.wayTo(s.ways.Reach.Dist(p))
			if !ok || math.IsNaN(m.DangerValues[i]) {
				m.Reach[i] = math.NaN()
				return math.NaN(), nil
			}
			m.Reach[i] = w.d * k
			v, _, err := f.offenceAt(ctx, u.ID, p, w, obj)
			return v, err
		}
	})
	if err != nil {
		return nil, err
	}
	m.Finish(q, func(i int) map[string]any {
		return s.move(b, i%g.Cols, i/g.Cols)
	}, func(i int) map[string]any {
		p := s.point(i%g.Cols, i/g.Cols)
		w, _ := s.wayTo(s.ways.Reach.Dist(p))
		return advise.TopPlan(b.copy().offenceAt(ctx, u.ID, p, w, obj))
	})
	m.Notes = b.positionNotes(s)
	for _, p := range m.Top {
		if why := b.passingOn(s, p); why != "" {
			m.Notes = append(m.Notes, why)
		}
	}
	return m, nil
}

// point is point (c, r) of the map, in cm.
func (s *positionSetup) point(c, r int) geom.Vec {
	return geom.V(s.g.At(c, r, s.perCm))
}

// positionNotes say what the map's readings are.
func (b *Battle) positionNotes(s *positionSetup) []string {
	u := s.u
	notes := []string{
		"reach: the shortest path of " + u.ID + "'s centre there, its bases kept in formation and facing (not in the source: a turn or a change of formation is a move of its own), round every other unit's base and the enemy's skirmish markers, on the table; terrain neither blocks nor slows it",
	}
	switch {
	case u.Battery():
		notes = append(notes,
			"moving: "+u.ID+" ends unlimbered, ready to fire, where its rate allows — by prolonge where that reaches, else limbering, moving and unlimbering — and limbered only where nothing else is left, where it may not fire (not in the source: the map's reading)",
			"offence: "+u.ID+"'s own fire, alone, in the coming artillery segment, at the main target the rules give it from there, after the move: a battery that moves is not stationary and loses its saved fire (the text); one standing where it is keeps it")
	default:
		notes = append(notes, "offence: none: only batteries and skirmish markers fire in this phase, and a light unit's markers do not move with it (volley has no move for them): every point scores 0, and the map ranks them by danger alone")
	}
	notes = append(notes, "danger: the enemy's next artillery segment at "+u.ID+" standing there (the danger map of the unit itself)")
	if _, ok := passingDistance(u.Kind); ok {
		notes = append(notes, "not counted: the passing fire the way there may draw from enemy batteries it crosses in front of (a known gap: that fire's hits take effect at once, and the battery that passes fire does not fire in the segment, so the two do not simply add up)")
	}
	return notes
}

// move is the move action that takes the unit to point (c, r) as the map scores it, in
// the battle's unit; nil when it stays as it is.
func (s *positionSetup) move(b *Battle, c, r int) map[string]any {
	p := s.point(c, r)
	w, ok := s.wayTo(s.ways.Reach.Dist(p))
	if !ok {
		return nil
	}
	mv := map[string]any{"type": volley.MoveAction, "unit": s.u.ID}
	if w.limber {
		mv["limber"] = true
	}
	if w.d > 0 {
		path := s.ways.Reach.Path(p)
		pts := make([]any, 0, len(path)-1)
		for _, q := range path[1 : len(path)-1] {
			pts = append(pts, []float64{exact(q.X * s.perCm), exact(q.Y * s.perCm)})
		}
		// The last point as the map writes it, in the battle's unit.
		pts = append(pts, []float64{exact(s.g.X0 + float64(c)*s.g.Step), exact(s.g.Y0 + float64(r)*s.g.Step)})
		mv["path"] = pts
	}
	if w.unlimber {
		mv["unlimber"] = true
	}
	if len(mv) == 2 {
		return nil
	}
	return mv
}

// exact writes a coordinate of a path as it is, rounded only where it is a round number
// but for the last bits of its arithmetic: a path round a base's corner touches it, and
// rounding it further could carry a base across.
func exact(v float64) float64 {
	if r := math.Round(v*1e9) / 1e9; math.Abs(r-v) <= 1e-12*max(1, math.Abs(v)) {
		return r
	}
	return v
}

// offenceAt moves unit id of the fork f to p (cm) as w says, and works out the best plan
// of its own fire from there under obj: its value and its action. Only a battery that
// ends ready to fire has one.
func (f *Battle) offenceAt(ctx context.Context, id string, p geom.Vec, w way, obj advise.Objective) (float64, map[string]any, error) {
	u := f.Unit(id)
	if !u.Battery() || !w.ready {
		return 0, nil, nil
	}
	was, moved, prolonged := *u, f.phase.moved[id], f.phase.prolonged[id]
	defer func() {
		*u = was
		f.phase.moved[id], f.phase.prolonged[id] = moved, prolonged
	}()
	d := p.Sub(centre(u.Bases))
	u.Bases = make([]Rect, len(was.Bases))
	for i, r := range was.Bases {
		u.Bases[i] = r.moved(d)
	}
	// What the move does to the battery (resolveMove): it is no longer stationary, loses
	// its saved fire and ends unlimbered.
	u.Limbered = false
	if w.moves {
		u.Moved, u.SavedFire = true, false
		if f.phase.moved == nil {
			f.phase.moved = map[string]float64{}
		}
		if f.phase.prolonged == nil {
			f.phase.prolonged = map[string]float64{}
		}
		f.phase.moved[id] += w.cost
		if w.prolonge {
			f.phase.prolonged[id] += w.d
		}
	}
	probs, err := f.Problems(ctx, advise.Query{Side: u.Side, Actor: id})
	if err != nil {
		return 0, nil, err
	}
	best, plan := 0.0, map[string]any(nil)
	for _, pr := range probs {
		adv, err := advise.Search(ctx, pr, obj, 1, advise.Budget{})
		if err != nil {
			var e *volley.Error
			if errors.As(err, &e) && e.Field == "" && obj.Kind == advise.AtLeast {
				c := *e
				c.Field = "objective"
				return 0, nil, &c
			}
			return 0, nil, err
		}
		if len(adv.Plans) == 0 {
			continue
		}
		pl := adv.Plans[0]
		if plan == nil || pl.Value > best {
			best, plan = pl.Value, nil
			if len(pl.Steps) > 0 && pl.Steps[0]["type"] == KindFire {
				plan = pl.Steps[0]
			}
		}
	}
	return best, plan, nil
}

// passingOn says which enemy batteries the way to point p would give passing fire at the
// unit, as the move itself measures it, or "".
func (b *Battle) passingOn(s *positionSetup, p advise.PositionPoint) string {
	if _, ok := passingDistance(s.u.Kind); !ok || p.Move == nil {
		return ""
	}
	raw, _ := p.Move["path"].([]any)
	mv := &Move{Unit: s.u.ID, Pivot: PivotCentre}
	for _, q := range raw {
		xy := q.([]float64)
		mv.Path = append(mv.Path, geom.V(xy[0]/s.perCm, xy[1]/s.perCm))
	}
	f := b.copy()
	if _, err := f.resolveMove(mv); err != nil || f.phase.window == nil {
		return ""
	}
	return fmt.Sprintf("passing fire: the way to (%g, %g) crosses the front of %s: it may answer with passing fire (−2), which the danger there does not count",
		p.X, p.Y, strings.Join(slices.Clone(f.phase.window.offered), ", "))
}
