package dropzone

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// A squad's position map (docs/advise.md, "Where to stand"): a query that names a squad
// instead of a unit maps the squad moved as a formation. None of this is in the source,
// which moves a squad's units one by one and says nothing of formations:
//
//   - The squad keeps its formation, translated: the map's point is the centre of its
//     units on the table, and each unit goes to its own place round the point, as it
//     stands round the centre now (facings kept). Each takes its own shortest legal way
//     there, round every base but its fellows' and the solid terrain, within what it may
//     still move; the point's reach is the farthest any goes.
//   - A move action moves one unit, so the squad's move is several, one per unit, in an
//     order that lets each pass its fellows (geom.FormationOrder: front first, a unit
//     whose way crosses a fellow's place moving after it leaves or before it arrives). A
//     point no order allows is left out (a detour round a fellow is not searched), and
//     every point's moves are checked in turn by the move's own rules.
//   - Offence is the squad's best plan after those moves, each unit's weapons judged
//     against its own distance (M&F, unit by unit), coherency measured where they stand.
//   - Danger is the danger map's value for its most endangered unit: each unit's own
//     danger at its place (a unit like it, its damage taken), the highest of them. The
//     enemy's weapons fire at one target each, so the squad's units' dangers do not add up.

// squadSearchNodes bounds the search of the squad's best plan at each point: a squad whose
// plans are more than this is searched as far as the budget goes, and the map says at how
// many points its offence is the best plan seen rather than the best there is.
const squadSearchNodes = 20_000

// squadSetup is a squad's position query checked: its units on the table (the formation),
// how far each may still move, what each must go round, and the points.
type squadSetup struct {
	squad, side string
	units       []*Unit
	centre      geom.Vec
	left        []float64
	// least and most are the least and the most any unit may still move.
	least, most float64
	// pieces are the solid terrain's convex pieces and bases the bases of the other
	// squads' units: what each unit's way goes round, grown by its radius (radius[i]).
	pieces []geom.Polygon
	bases  []geom.Circle
	radius []float64
	reach  []*geom.Reach
	lo, hi []geom.Vec
	// The points, in the scenario's unit.
	unitLength scenario.Unit
	perInch    float64
	advise.Lattice
}

// squadWay is how the squad goes to a point: each unit's path (nil for all: it stands
// still), the order the units move in, and the farthest any goes.
type squadWay struct {
	paths []geom.Path
	order []int
	reach float64
}

func (b *Battle) squadSetup(q advise.PositionQuery) (*squadSetup, error) {
	if !b.moves {
		return nil, advise.Invalid("unit", "dropzone: this battle began before units moved (edition %d): it has no position map", volley.EditionMoves-1)
	}
	s := &squadSetup{squad: q.Unit, unitLength: b.unit.OrInch(), least: math.Inf(1)}
	s.perInch = scenario.Inches(1).In(s.unitLength)
	s.units = b.squadUnits(q.Unit)
	if len(s.units) == 0 {
		return nil, advise.Invalid("unit", "dropzone: squad %s has no unit on the table", q.Unit)
	}
	for _, u := range s.units {
		// Every unit moves with the formation: one that may not move holds it still.
		left, why := b.movable(u)
		if why != "" {
			return nil, advise.Invalid("unit", "dropzone: squad %s may not move as a formation now: %s may not move: %s", q.Unit, u.ID, why)
		}
		s.side = u.Side
		s.centre = s.centre.Add(u.At)
		s.left = append(s.left, left)
		s.least, s.most = min(s.least, left), max(s.most, left)
	}
	s.centre = s.centre.Scale(1 / float64(len(s.units)))
	if err := advise.CheckDestroyTarget(b, s.side, q.Objective); err != nil {
		return nil, err
	}
	s.pieces = b.solidPieces()
	for i := range b.units {
		if o := &b.units[i]; o.Squad != s.squad && !o.Destroyed() && o.Embarked == "" {
			s.bases = append(s.bases, o.Circle())
		}
	}
	for _, u := range s.units {
		r := u.Type.Base.Inches() / 2
		s.radius = append(s.radius, r)
		lo, hi := b.table.Within(r)
		s.lo, s.hi = append(s.lo, lo), append(s.hi, hi)
	}
	step, err := q.CheckedStep(scenario.Inches(DefaultPositionStep).In(s.unitLength), "dropzone")
	if err != nil {
		return nil, err
	}
	// The points: step apart on the square round the centre as far as a unit may go, the
	// centre one of them (standing still is a choice). A step so small that the count
	// overflows (1e-320) counts as too many points.
	k := math.Floor(s.most*s.perInch/step + 1e-9)
	if s.Lattice, err = advise.SquareAround([2]float64{s.centre.X * s.perInch, s.centre.Y * s.perInch}, k, step, "dropzone"); err != nil {
		return nil, err
	}
	return s, nil
}

// point is point (c, r) in inches: the centre itself where the grid's arithmetic puts it
// within a hair.
func (s *squadSetup) point(c, r int) geom.Vec { return s.Near(c, r, s.perInch, s.centre) }

// squadPositionWork is the work of a squad's map: each unit's ways (the visibility graph
// of its grown obstacles' corners, then each point's way among them), each point's
// order and moves checked, the squad's plan from each point (every weapon of every unit
// at every enemy, as Cost prices them, and the search, at most squadSearchNodes
// convolutions), and each unit's danger at each point.
func (b *Battle) squadPositionWork(s *squadSetup) (int64, string) {
	points := s.Within(s.point, s.centre, s.most)
	n := int64(len(s.units))
	ways := int64(0)
	for i, u := range s.units {
		graph, point, _ := geom.GrownReachWork(u.At, s.pieces, s.bases, s.radius[i], s.left[i])
		ways = advise.AddWork(ways, graph, advise.MulWork(points, point))
	}
	checks := points * n * (n + int64(len(b.units)) + b.solidWork())
	offence, nodes, most := int64(0), int64(1), 0
	for _, u := range s.units {
		offence += b.unitOffenceWork(u)
		enemies := int64(1)
		for i := range b.units {
			if t := &b.units[i]; t.Side != u.Side && !t.Destroyed() {
				enemies++
				most = max(most, t.DamagePoints)
			}
		}
		for range u.Type.Weapons {
			nodes = min(nodes*enemies, squadSearchNodes)
		}
	}
	offence += nodes * convolutionWork * int64(most+1) * int64(most+1)
	danger := int64(0)
	for _, u := range s.units {
		danger += b.dangerPointWork(u.Type, u.Side)
	}
	return advise.AddWork(ways, checks, advise.MulWork(points, offence+danger)), fmt.Sprintf("%d points, %d units' ways round what stops them, the squad's plan and each unit's danger at each", points, n)
}

// checkWays refuses a squad's map whose units' ways alone cost more than
// volley.MaxHeavyWork (see positionSetup.checkWays).
func (s *squadSetup) checkWays() error {
	graph, near := int64(0), 0
	for i, u := range s.units {
		g, _, n := geom.GrownReachWork(u.At, s.pieces, s.bases, s.radius[i], s.left[i])
		graph, near = advise.AddWork(graph, g), max(near, n)
	}
	return advise.CheckWaysWork(graph, near, s.squad)
}

// ways works out each unit's shortest ways, once the price is checked; it stops when
// ctx ends.
func (s *squadSetup) ways(ctx context.Context, edged bool) error {
	s.reach = s.reach[:0]
	// Units of one base size go round the same obstacles: they are grown once.
	obstacles := map[float64][]geom.Polygon{}
	for i, u := range s.units {
		obs, ok := obstacles[s.radius[i]]
		if !ok {
			obs = grown(s.pieces, s.bases, s.radius[i])
			obstacles[s.radius[i]] = obs
		}
		r, err := geom.NewReach(ctx, u.At, obs, s.lo[i], s.hi[i], edged, s.left[i])
		if err != nil {
			return err
		}
		s.reach = append(s.reach, r)
	}
	return nil
}

// solidWork is the work of testing a leg against every piece of solid terrain.
func (b *Battle) solidWork() int64 {
	w := int64(0)
	for _, t := range b.terrain {
		if t.BlocksLOS {
			w += int64(len(t.Footprint))
		}
	}
	return w
}

// pricedSquad is a squad's query checked and priced, refused over volley.MaxHeavyWork:
// its units' ways first, which no step makes fewer (checkWays), then the whole map
// (squadPositionWork).
func (b *Battle) pricedSquad(q advise.PositionQuery) (*squadSetup, int64, error) {
	return advise.PricePosition(q, b.squadSetup, (*squadSetup).checkWays, b.squadPositionWork)
}

// squadPosition maps every point a squad's formation can reach now (see above).
func (b *Battle) squadPosition(ctx context.Context, q advise.PositionQuery) (*advise.PositionMap, error) {
	s, _, err := b.pricedSquad(q)
	if err != nil {
		return nil, err
	}
	if err := s.ways(ctx, b.table.Edged); err != nil {
		return nil, err
	}
	obj := advise.OffenceObjective(q)
	dobj := advise.DangerObjective(q.Danger)
	cols, rows := s.Cols, s.Rows
	m := advise.NewPositionMap(s.squad, s.side, [2]float64{round6(s.centre.X * s.perInch), round6(s.centre.Y * s.perInch)}, s.least*s.perInch,
		obj.Describe(MeasureDamage), string(s.unitLength), s.Lattice)
	m.Danger = advise.DangerScores(dobj, "expected damage") + " of its most endangered unit"
	var cut atomic.Int64
	_, err = advise.FillGrid(ctx, cols, rows, m.OffenceValues, func() advise.PointFunc {
		f := b.Fork().(*Battle)
		dangers := make([]*dangerWorker, len(s.units))
		for i, u := range s.units {
			dangers[i] = b.newDangerWorkerLike(u)
		}
		return func(c, r int, firers map[string]bool) (float64, error) {
			i := r*cols + c
			m.Reach[i], m.DangerValues[i] = math.NaN(), math.NaN()
			p := s.point(c, r)
			w := s.wayTo(f, p)
			if w == nil {
				return math.NaN(), nil
			}
			v := s.shift(w, p)
			danger := 0.0
			for k, u := range s.units {
				dv, err := dangers[k].at(ctx, u.At.Add(v), dobj, firers)
				if err != nil || math.IsNaN(dv) {
					return math.NaN(), err
				}
				danger = max(danger, dv)
			}
			m.Reach[i], m.DangerValues[i] = w.reach*s.perInch, danger
			val, _, stopped, err := s.offenceAt(ctx, f, w, p, obj)
			if stopped {
				cut.Add(1)
			}
			return val, err
		}
	})
	if err != nil {
		return nil, err
	}
	m.Finish(q, nil, func(i int) map[string]any {
		f := b.Fork().(*Battle)
		p := s.point(i%cols, i/cols)
		_, plan, _, err := s.offenceAt(ctx, f, s.wayTo(f, p), p, obj)
		if err != nil {
			return nil
		}
		return plan
	})
	for t := range m.Top {
		tp := &m.Top[t]
		c, r := int(math.Round((tp.X-s.X0)/s.Step)), int(math.Round((tp.Y-s.Y0)/s.Step))
		p := s.point(c, r)
		f := b.Fork().(*Battle)
		tp.Moves = s.movesJSON(f, s.wayTo(f, p))
	}
	m.Notes = []string{
		"formation: the units of squad " + s.squad + " on the table keep their places round the point, translated, facings kept (not in the source); each takes its own shortest legal way there, round every base but its fellows' and solid terrain (corners rounded as 16-sided polygons: at most about 2% of a base's radius longer a corner), and the point's reach is the farthest any goes",
		"order: a move action moves one unit, so the squad's move is one per unit, front first, each after any fellow whose place its way crosses; a point no order allows is left out (a detour round a fellow is not searched), and every move is checked in turn by the move's own rules",
		"offence: the best plan of squad " + s.squad + " from there after the moves, each unit's weapons' M&F judged against what it has moved this activation, coherency measured where they stand",
		"danger: the other sides' next fire at the squad's most endangered unit there (each unit's own danger map value at its place, the highest), none of them having moved",
	}
	if b.act.squad == s.squad && b.act.fired {
		m.Notes = append(m.Notes, s.squad+" has shot this activation: no point has offence")
	}
	if n := cut.Load(); n > 0 {
		m.Notes = append(m.Notes, fmt.Sprintf("at %d points the search of the squad's plans stopped at its budget of %d steps: the offence there is the best plan seen, not always the best there is", n, squadSearchNodes))
	}
	return m, nil
}

// wayTo is the squad's way to stand centred on p, its formation translated, or nil where
// it cannot go this turn: a unit's place is out of its reach, no order lets the units
// pass one another, or the move's rules refuse a move. f is a fork the check may move
// units on; it is left as it was.
func (s *squadSetup) wayTo(f *Battle, p geom.Vec) *squadWay {
	v := p.Sub(s.centre)
	n := len(s.units)
	w := &squadWay{paths: make([]geom.Path, n)}
	if v.Len() <= stillWithin {
		return &squadWay{}
	}
	bases := make([]geom.Circle, n)
	for i, u := range s.units {
		path := s.reach[i].Path(u.At.Add(v))
		if path == nil {
			return nil
		}
		w.paths[i], w.reach, bases[i] = path, max(w.reach, path.Length()), u.Circle()
	}
	var ok bool
	if w.order, ok = geom.FormationOrder(bases, w.paths, v); !ok {
		return nil
	}
	if !s.passes(f, w.order, w.paths) {
		return nil
	}
	return w
}

// shift is how far way w, to the point p, moves each unit: none when it stands still.
func (s *squadSetup) shift(w *squadWay, p geom.Vec) geom.Vec {
	if w.paths == nil {
		return geom.Vec{}
	}
	return p.Sub(s.centre)
}

// passes reports whether the units' moves along paths, made in order on the fork f, are
// each one the rules take (within what the unit may still move, over no base, solid
// terrain or the table's edge), each checked where the ones before it left the units. f
// is left as it was.
func (s *squadSetup) passes(f *Battle, order []int, paths []geom.Path) bool {
	defer func() {
		for _, orig := range s.units {
			u, _ := f.Unit(orig.ID)
			u.At = orig.At
		}
	}()
	for _, i := range order {
		u, _ := f.Unit(s.units[i].ID)
		if paths[i].Length() > s.left[i]+geom.Tolerance || f.pathBlocked(u, paths[i]) != "" {
			return false
		}
		u.At = paths[i].End()
	}
	return true
}

// stillWithin is how near the formation's centre a point may be and the squad stand
// still there: the points are laid out from the centre, which they meet to within
// rounding.
const stillWithin = 1e-9

// offenceAt moves the squad's units of the fork f by w (centred on p) and works out the
// squad's best plan from there under obj: its value and action, and whether the search
// stopped at its budget. f is left as it was.
func (s *squadSetup) offenceAt(ctx context.Context, f *Battle, w *squadWay, p geom.Vec, obj advise.Objective) (float64, map[string]any, bool, error) {
	if w == nil {
		return 0, nil, false, nil
	}
	v := s.shift(w, p)
	saved := f.act
	defer func() { f.act = saved }()
	if saved.squad == s.squad && saved.fired {
		return 0, nil, false, nil // the squad has shot this activation
	}
	f.begin(s.squad)
	f.act.moved = cloneMap(f.act.moved)
	if f.act.moved == nil {
		f.act.moved = map[string]float64{}
	}
	for i, orig := range s.units {
		u, _ := f.Unit(orig.ID)
		if w.paths != nil && w.paths[i] != nil {
			f.act.moved[u.ID] += w.paths[i].Length()
		}
		u.At = orig.At.Add(v)
	}
	defer func() {
		for _, orig := range s.units {
			u, _ := f.Unit(orig.ID)
			u.At = orig.At
		}
	}()
	prob, err := f.problem(ctx, &Shooting{Squad: s.squad, Moved: map[string]float64{}}, "")
	if err != nil {
		return 0, nil, false, err
	}
	if len(prob.Slots) == 0 {
		return 0, nil, false, nil
	}
	adv, err := advise.Search(ctx, prob, obj, 1, advise.Budget{Nodes: squadSearchNodes})
	if err != nil || len(adv.Plans) == 0 {
		return 0, nil, false, err
	}
	return adv.Plans[0].Value, adv.Plans[0].Action, adv.Stopped != "", nil
}

// movesJSON is w as a player sends it: one move action per unit, in the order they move,
// each point in the scenario's unit to a thousandth (as the battle writes points) unless
// that rounding makes a move the rules refuse (a base brought to touch another), then as
// computed. Nil for standing still. f is a fork the check may move units on.
func (s *squadSetup) movesJSON(f *Battle, w *squadWay) []map[string]any {
	if w == nil || w.paths == nil {
		return nil
	}
	rounded := make([]geom.Path, len(w.paths))
	for i, path := range w.paths {
		rounded[i] = geom.Path{path[0]}
		for _, q := range path[1:] {
			rounded[i] = append(rounded[i], geom.V(roundMilli(q.X*s.perInch)/s.perInch, roundMilli(q.Y*s.perInch)/s.perInch))
		}
	}
	paths, round := w.paths, s.passes(f, w.order, rounded)
	if round {
		paths = rounded
	}
	var out []map[string]any
	for _, i := range w.order {
		pts := make([]any, 0, len(paths[i])-1)
		for _, q := range paths[i][1:] {
			x, y := q.X*s.perInch, q.Y*s.perInch
			if round {
				x, y = roundMilli(x), roundMilli(y)
			}
			pts = append(pts, []float64{x, y})
		}
		out = append(out, map[string]any{"type": volley.MoveAction, "unit": s.units[i].ID, "path": pts})
	}
	return out
}

func roundMilli(v float64) float64 { return math.Round(v*1000) / 1000 }

// round6 rounds the formation's centre as the map's points are written (to a millionth).
func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }
