package dropzone

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// DefaultPositionStep is the spacing of a position map's points unless asked otherwise:
// half an inch, as the danger map's.
const DefaultPositionStep = DefaultDangerStep

// positionSetup is a position query checked: the unit, how far it may still move, what
// its way there goes round, and the points, in inches. The ways themselves (geom.Reach)
// are worked out only once their price is checked (ways).
type positionSetup struct {
	u     *Unit
	left  float64
	start geom.Vec
	// pieces are the solid terrain's convex pieces and bases the other bases: what its
	// way goes round, each grown by its radius (ways), priced before (GrownReachWork).
	pieces []geom.Polygon
	bases  []geom.Circle
	radius float64
	lo, hi geom.Vec
	reach  *geom.Reach
	// view is the area the map's points cover, in the scenario's unit, laid through the
	// unit's own place (advise.Around): standing still is one of them.
	view       [4]float64
	perInch    float64
	g          dangerGrid
	unitLength scenario.Unit
}

func (b *Battle) positionSetup(q advise.PositionQuery) (*positionSetup, error) {
	u, ok := b.Unit(q.Unit)
	if !ok {
		return nil, advise.Invalid("unit", "dropzone: unit: no unit or squad %q%s", q.Unit, scenario.Hint(q.Unit, append(b.unitIDs(), b.squadNames()...)))
	}
	if !b.moves {
		return nil, volley.Errorf(volley.EINVALID, "dropzone: this battle began before units moved (edition %d): it has no position map", volley.EditionMoves-1)
	}
	left, why := b.movable(u)
	if why != "" {
		return nil, advise.Invalid("unit", "dropzone: unit: %s may not move now: %s", u.ID, why)
	}
	if err := advise.CheckDestroyTarget(b, u.Side, q.Objective); err != nil {
		return nil, err
	}
	s := &positionSetup{u: u, left: left, start: u.At, unitLength: b.unit.OrInch()}
	s.perInch = scenario.Inches(1).In(s.unitLength)
	r := u.Type.Base.Inches() / 2
	s.pieces, s.radius = b.solidPieces(), r
	for i := range b.units {
		if o := &b.units[i]; o != u && !o.Destroyed() && o.Embarked == "" {
			s.bases = append(s.bases, o.Circle())
		}
	}
	s.lo, s.hi = b.table.Within(r)
	start := u.At
	step := q.StepOr(scenario.Inches(DefaultPositionStep).In(s.unitLength))
	s.view = advise.OpenView(&b.table, start, left, r, s.perInch, step)
	g, err := b.dangerGrid(advise.DangerQuery{Side: u.Side, As: u.Type.Name, Area: s.view, Step: step})
	if err != nil {
		return nil, err
	}
	s.g = g
	return s, nil
}

// PositionWork is the work of q's map: the ways there (every pair of the grown
// obstacles' corners tested against every obstacle, then each point against them), each
// point's offence priced as the unit's weapons at every enemy (Cost's terms), and the
// danger map of the area.
func (b *Battle) PositionWork(q advise.PositionQuery) (int64, error) {
	if b.isSquadQuery(q) {
		_, w, err := b.pricedSquad(q)
		return w, err
	}
	return advise.PositionWorkOf(q, b.positionSetup, (*positionSetup).checkWays, b.positionWork)
}

func (b *Battle) positionWork(s *positionSetup) (int64, string) {
	points := int64(s.g.Points())
	graph, point, near := geom.GrownReachWork(s.start, s.pieces, s.bases, s.radius, s.left)
	offence := b.unitOffenceWork(s.u)
	danger := points * b.dangerPointWork(s.u.Type, s.u.Side)
	return advise.AddWork(graph, advise.MulWork(points, point+offence), danger), fmt.Sprintf("%d points, %d corners to go round within its move, %d weapons at every enemy, and the danger map", points, near, len(s.u.Type.Weapons))
}

// checkWays refuses a map whose ways alone cost more than volley.MaxHeavyWork: the
// corners within the unit's move, which no step makes fewer.
func (s *positionSetup) checkWays() error {
	graph, _, near := geom.GrownReachWork(s.start, s.pieces, s.bases, s.radius, s.left)
	return advise.CheckWaysWork(graph, near, s.u.ID)
}

// ways works out the shortest ways there, once the price is checked: the map's dearest
// part on a table of many corners, it stops when ctx ends.
func (s *positionSetup) ways(ctx context.Context, edged bool) (err error) {
	s.reach, err = geom.NewReach(ctx, s.start, grown(s.pieces, s.bases, s.radius), s.lo, s.hi, edged, s.left)
	return err
}

// solidPieces are the convex pieces of the solid terrain (cut once, at load, for exact
// sight; cut here for a battle of an edition before it).
func (b *Battle) solidPieces() []geom.Polygon {
	var pieces []geom.Polygon
	k := 0
	for _, t := range b.terrain {
		if !t.BlocksLOS {
			continue
		}
		if k < len(b.terrainOcc) {
			pieces = append(pieces, b.terrainOcc[k].Pieces()...)
		} else {
			pieces = append(pieces, t.Footprint.ConvexPieces()...)
		}
		k++
	}
	return pieces
}

// grown are the regions a centre of a base of radius r may not enter: the solid pieces
// and the other bases, each grown by r.
func grown(pieces []geom.Polygon, bases []geom.Circle, r float64) []geom.Polygon {
	obs := geom.InflatePieces(pieces, r)
	for _, c := range bases {
		obs = append(obs, geom.InflateCircle(c, r))
	}
	return obs
}

// isSquadQuery reports whether q names a squad (and no unit): its map is the squad's,
// moved as a formation (position_squad.go).
func (b *Battle) isSquadQuery(q advise.PositionQuery) bool {
	_, unit := b.Unit(q.Unit)
	return !unit && b.hasSquad(q.Unit)
}

// unitOffenceWork is the work of u's weapons declared at every enemy from one point, as
// Cost prices it: the sight from each eye point, the declaration's checks and the
// convolutions of its damage.
func (b *Battle) unitOffenceWork(u *Unit) int64 {
	trace := b.traceWork()
	offence := int64(0)
	for wi := range u.Type.Weapons {
		w := &u.Type.Weapons[wi]
		for i := range b.units {
			if t := &b.units[i]; t.Side != u.Side && !t.Destroyed() {
				shots := int64(w.Shots.Max())
				most := min(shots*int64(CriticalDamage+min(w.Devastator(), MaxDevastator)), int64(t.DamagePoints))
				offence += int64(len(b.eyes(u, w)))*trace + declarationWork + convolutionWork*(shots+1)*(most+1)
			}
		}
	}
	return offence
}

// Position maps every point u can reach now: the shortest legal way there (round bases
// and solid terrain, on the table), its best fire plan from there after that move (its
// weapons, those the move leaves within M&F, at every enemy it can see and reach, under
// coherency as the squad would stand), and the danger there (the danger map of a unit
// like it: its damage taken).
func (b *Battle) Position(ctx context.Context, q advise.PositionQuery) (*advise.PositionMap, error) {
	if b.isSquadQuery(q) {
		return b.squadPosition(ctx, q)
	}
	s, _, err := advise.PricePosition(q, b.positionSetup, (*positionSetup).checkWays, b.positionWork)
	if err != nil {
		return nil, err
	}
	if err := s.ways(ctx, b.table.Edged); err != nil {
		return nil, err
	}
	u, g := s.u, s.g
	obj := advise.OffenceObjective(q)
	m := advise.NewPositionMap(u.ID, u.Side, [2]float64{u.At.X * s.perInch, u.At.Y * s.perInch}, s.left*s.perInch,
		obj.Describe(MeasureDamage), string(s.unitLength), g.Lattice)
	// The danger of a unit like it on every point of the area.
	dq := advise.DangerQuery{Side: u.Side, As: u.Type.Name, Like: u.ID, Step: g.Step, Objective: q.Danger, Area: s.view}
	if err := m.FillDanger(ctx, b, dq, "dropzone"); err != nil {
		return nil, err
	}
	// The points, the unit's own place exactly among them.
	point := func(c, r int) geom.Vec { return g.Near(c, r, s.perInch, u.At) }
	// The ways there, and the offence from there, on every core.
	err = m.FillReach(ctx, s.reach, point, s.perInch, func() advise.OffenceAt {
		f := b.Fork().(*Battle)
		return func(p geom.Vec, d float64) (float64, error) {
			v, _, err := f.offenceAt(ctx, u.ID, p, d, obj)
			return v, err
		}
	})
	if err != nil {
		return nil, err
	}
	m.Finish(q, func(i int) map[string]any {
		path := s.reach.Path(point(i%g.Cols, i/g.Cols))
		if len(path) < 2 || point(i%g.Cols, i/g.Cols) == u.At {
			return nil // standing still
		}
		pts := b.writtenWay(u, path, s.unitLength, s.perInch, s.left)
		return map[string]any{"type": volley.MoveAction, "unit": u.ID, "path": pts}
	}, func(i int) map[string]any {
		p := point(i%g.Cols, i/g.Cols)
		f := b.Fork().(*Battle)
		return advise.TopPlan(f.offenceAt(ctx, u.ID, p, s.reach.Dist(p), obj))
	})
	m.Notes = []string{
		"reach: the shortest legal way there, round bases and solid terrain (their corners rounded as 16-sided polygons: at most about 2% of a base's radius longer a corner)",
		"offence: " + u.ID + "'s best plan from there after the move, its weapons' M&F judged against everything it has moved this activation",
		"danger: the other sides' next fire at a unit like " + u.ID + " standing there, none of them having moved (the danger map)",
	}
	if b.act.squad == u.Squad && b.act.fired {
		m.Notes = append(m.Notes, u.Squad+" has shot this activation: no point has offence")
	}
	return m, nil
}

// offenceAt moves unit id of the fork f to p, by a way of length d, and works out its
// best plan from there under obj: the plan's value and its action.
func (f *Battle) offenceAt(ctx context.Context, id string, p geom.Vec, d float64, obj advise.Objective) (float64, map[string]any, error) {
	u, _ := f.Unit(id)
	from := u.At
	moved := 0.0
	if f.act.squad == u.Squad {
		moved = f.act.moved[u.ID]
	}
	saved := f.act
	f.begin(u.Squad)
	f.act.moved = cloneMap(f.act.moved)
	if f.act.moved == nil {
		f.act.moved = map[string]float64{}
	}
	f.act.moved[u.ID] = moved + d
	u.At = p
	defer func() { u.At, f.act = from, saved }()
	if saved.squad == u.Squad && saved.fired {
		return 0, nil, nil // the squad has shot this activation
	}
	prob, err := f.unitProblem(ctx, u)
	if err != nil {
		return 0, nil, err
	}
	if len(prob.Slots) == 0 {
		return 0, nil, nil
	}
	adv, err := advise.Search(ctx, prob, obj, 1, advise.Budget{})
	if err != nil || len(adv.Plans) == 0 {
		return 0, nil, err
	}
	return adv.Plans[0].Value, adv.Plans[0].Action, nil
}

// unitProblem is one unit's choice: its weapons, as the squad's problem has them.
func (b *Battle) unitProblem(ctx context.Context, u *Unit) (*advise.Problem, error) {
	return b.problem(ctx, &Shooting{Squad: u.Squad, Moved: map[string]float64{}}, u.ID)
}

// wayNudges are the moves of a written corner of a way, in thousandths of the scenario's
// unit, that writtenWay tries, nearest first: none (the nearest thousandth), then the
// thousandths round it, two deep.
var wayNudges = func() [][2]float64 {
	var d [][2]float64
	for x := -2.0; x <= 2; x++ {
		for y := -2.0; y <= 2; y++ {
			d = append(d, [2]float64{x, y})
		}
	}
	slices.SortStableFunc(d, func(a, b [2]float64) int {
		return cmp.Compare(a[0]*a[0]+a[1]*a[1], b[0]*b[0]+b[1]*b[1])
	})
	return d
}()

// writtenWay is u's way path (from where it stands) as a move action writes it: each
// point after the first in the scenario's unit, to a thousandth. A way round a corner of
// solid terrain or a base touches the corner's grown polygon, which keeps the base its
// radius off; the nearest thousandth can move a corner of the way inwards by up to half
// a thousandth on each axis, and the leg so written then passes nearer than the radius,
// which the move's check refuses (battle.yaml's walker-1 by east-hab's corner: seed 14,
// battle 48). So each corner of the way is written at the nearest thousandth whose legs,
// from the corner written before it and to the next corner, the move's own check
// (pathBlocked) accepts, a few thousandths off at most; the way's end, the map's point,
// is written where it is. Should no thousandths near enough pass, or the written way be
// longer than the left move, the way is written as computed, at full precision (left is
// the move u has left, in inches).
func (b *Battle) writtenWay(u *Unit, path geom.Path, unit scenario.Unit, perInch, left float64) []any {
	end := len(path) - 1
	at := func(p geom.Vec, d [2]float64) (geom.Vec, [2]float64) {
		x := (math.Round(scenario.Inches(p.X).In(unit)*1000) + d[0]) / 1000
		y := (math.Round(scenario.Inches(p.Y).In(unit)*1000) + d[1]) / 1000
		return geom.V(x/perInch, y/perInch), [2]float64{x, y}
	}
	last, lastXY := at(path[end], [2]float64{})
	written := geom.Path{path[0]}
	pts := make([]any, 0, end)
	for i := 1; i < end; i++ {
		next := path[i+1]
		if i+1 == end {
			next = last
		}
		c, xy := at(path[i], wayNudges[0])
		for _, d := range wayNudges {
			if cand, cxy := at(path[i], d); b.pathBlocked(u, append(slices.Clip(written), cand, next)) == "" {
				c, xy = cand, cxy
				break
			}
		}
		written = append(written, c)
		pts = append(pts, []float64{xy[0], xy[1]})
	}
	if written = append(written, last); b.pathBlocked(u, written) != "" || written.Length() > left+geom.Tolerance {
		// No thousandths near enough pass (or the way ends within a hair of the move):
		// the way as computed, at full precision, as the other systems' maps write it.
		pts = pts[:0]
		for _, p := range path[1:] {
			pts = append(pts, []float64{scenario.Inches(p.X).In(unit), scenario.Inches(p.Y).In(unit)})
		}
		return pts
	}
	return append(pts, []float64{lastXY[0], lastXY[1]})
}
