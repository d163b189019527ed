package toy

import (
	"context"
	"math"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// Advice and maps. The toy says what one shot does (wounds, on n+) and what a point of a
// map is worth; the advisor's search, the maps' lattice, pricing, cores and shape are the
// engine's (advise).

var (
	_ advise.Planner      = (*Battle)(nil)
	_ advise.Dangerer     = (*Battle)(nil)
	_ advise.DangerPlacer = (*Battle)(nil)
	_ advise.Positioner   = (*Battle)(nil)
)

// DangerStep is the spacing of a map's points unless asked: an inch.
const DangerStep = 1.0

// Problems is each token's choice of target, with the exact wounds of each shot.
func (b *Battle) Problems(ctx context.Context, q advise.Query) ([]*advise.Problem, error) {
	var out []*advise.Problem
	for i := range b.units {
		u := &b.units[i]
		if u.Side == q.Side && (q.Actor == "" && b.shotCheck(u) == nil || q.Actor == u.ID) {
			if p := b.problem(u, u.At); p != nil {
				out = append(out, p)
			}
		}
	}
	return out, ctx.Err()
}

// problem is token u's choice of target standing at at, nil with none in range.
func (b *Battle) problem(u *Unit, at geom.Vec) *advise.Problem {
	p := &advise.Problem{Actor: u.ID, Side: u.Side, Measure: "wounds", Slots: []advise.Slot{{Label: u.ID + "'s shot"}}}
	for i := range b.units {
		t := &b.units[i]
		n := need(at.Dist(t.At))
		if t.Side == u.Side || t.Destroyed() || !t.Placed || n == 0 || u.Destroyed() {
			continue
		}
		p.Slots[0].Choices = append(p.Slots[0].Choices, advise.Choice{Target: t.ID,
			Effects: []advise.Effect{{Target: len(p.Targets), Dist: advise.Capped(wounds(n, t.Left()), t.Left())}}})
		p.Targets = append(p.Targets, advise.Target{ID: t.ID, Left: t.Left()})
	}
	if len(p.Targets) == 0 {
		return nil
	}
	p.Action = func(picks []int) map[string]any {
		return map[string]any{"type": "shoot", "unit": u.ID, "target": p.Slots[0].Choices[picks[0]].Target}
	}
	return p
}

// dangerGrid is a danger query checked: the token copied, the enemies that shoot at it,
// the points.
type dangerGrid struct {
	advise.Lattice
	copy    *Unit
	shooter []*Unit
}

func (b *Battle) dangerGrid(q advise.DangerQuery) (dangerGrid, error) {
	g := dangerGrid{}
	u, ok := b.Unit(q.As)
	if !ok || u.Destroyed() {
		return g, advise.Invalid("as", "toy: as: no token %q with wounds left%s", q.As, scenario.Hint(q.As, b.ids()))
	}
	if err := advise.CheckSide(Name, q.Side, b.sides()); err != nil {
		return g, err
	}
	g.copy = u
	for i := range b.units {
		if s := &b.units[i]; s.Side != q.Side && s.Placed && !s.Destroyed() {
			g.shooter = append(g.shooter, s)
		}
	}
	var err error
	g.Lattice, err = advise.LayDanger(q, b, DangerStep)
	return g, err
}

func (b *Battle) dangerWork(g dangerGrid) (int64, string) {
	return advise.PointsWork(g.Points(), int64(len(g.shooter)+1)*10)
}

// DangerWork is the work of q's map.
func (b *Battle) DangerWork(q advise.DangerQuery) (int64, error) {
	_, w, err := advise.PriceDanger(q, b.dangerGrid, b.dangerWork)
	return w, err
}

// Danger places a copy of token q.As on every point and has every enemy token shoot at
// it, each where it stands: the chance the copy is destroyed, or the wounds it loses.
func (b *Battle) Danger(ctx context.Context, q advise.DangerQuery) (*advise.DangerMap, error) {
	g, _, err := advise.PriceDanger(q, b.dangerGrid, b.dangerWork)
	if err != nil {
		return nil, err
	}
	m := advise.NewDangerMap(q, g.Lattice, "in", "a copy of "+g.copy.ID, "expected wounds")
	left := g.copy.Left()
	return m.Filled(ctx, func() advise.PointFunc {
		d, tmp := make([]float64, left+1), make([]float64, left+1)
		return func(c, r int, seen map[string]bool) (float64, error) {
			x, y := g.At(c, r, 1)
			clear(d)
			d[0] = 1
			for _, s := range g.shooter {
				if n := need(s.At.Dist(geom.V(x, y))); n > 0 {
					seen[s.ID] = true
					advise.Convolve(tmp, d, advise.Capped(wounds(n, left), left))
					d, tmp = tmp, d
				}
			}
			return advise.DangerValue(m.Objective, d, left), nil
		}
	})
}

// DangerPlaces: a map places a copy of any token with wounds left.
func (b *Battle) DangerPlaces() []advise.DangerPlace {
	var out []advise.DangerPlace
	for _, u := range b.units {
		if !u.Destroyed() {
			out = append(out, advise.CopyPlace(u.ID, "", u.Side))
		}
	}
	return out
}

// positionSetup is a position query checked: the token, its move left, the other bases
// it goes round (each grown by its radius), and the danger map of its points.
type positionSetup struct {
	u         *Unit
	left      float64
	obstacles []geom.Polygon
	g         dangerGrid
	q         advise.DangerQuery
}

func (b *Battle) positionSetup(q advise.PositionQuery) (*positionSetup, error) {
	u, ok := b.Unit(q.Unit)
	if !ok {
		return nil, advise.Invalid("unit", "toy: unit: no token %q%s", q.Unit, scenario.Hint(q.Unit, b.ids()))
	}
	left, why := b.movable(u)
	if why != "" {
		return nil, advise.Invalid("unit", "toy: unit: %s may not move now: %s", u.ID, why)
	}
	s := &positionSetup{u: u, left: left}
	for i := range b.units {
		if o := &b.units[i]; o != u && o.Placed && !o.Destroyed() {
			s.obstacles = append(s.obstacles, geom.InflateCircle(o.base(), Base/2+1e-3))
		}
	}
	step := cmpf(q.Step, DangerStep)
	area := [4]float64{u.At.X - left, u.At.Y - left, u.At.X + left, u.At.Y + left}
	if b.table.Edged {
		lo, hi := b.table.Lo.Add(geom.V(Base/2, Base/2)), b.table.Hi.Sub(geom.V(Base/2, Base/2))
		area = [4]float64{max(area[0], lo.X), max(area[1], lo.Y), min(area[2], hi.X), min(area[3], hi.Y)}
	}
	s.q = advise.DangerQuery{Side: u.Side, As: u.ID, Step: step, Objective: q.Danger, Area: advise.Around([2]float64{u.At.X, u.At.Y}, area, step)}
	var err error
	s.g, err = b.dangerGrid(s.q)
	return s, err
}

func cmpf(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}

func (b *Battle) positionWork(s *positionSetup) (int64, string) {
	graph, point, _ := geom.ReachWork(s.u.At, s.obstacles, s.left)
	danger, _ := b.dangerWork(s.g)
	return advise.AddWork(graph, advise.MulWork(int64(s.g.Points()), point+1000), danger), "the ways, a search and the danger at each point"
}

// PositionWork is the work of q's map.
func (b *Battle) PositionWork(q advise.PositionQuery) (int64, error) {
	_, w, err := advise.PricePosition(q, b.positionSetup, nil, b.positionWork)
	return w, err
}

// Position maps every point q.Unit can reach now: the shortest way there round the other
// bases (geom.Reach), its best shot from there (the advisor's search), the danger there.
func (b *Battle) Position(ctx context.Context, q advise.PositionQuery) (*advise.PositionMap, error) {
	s, _, err := advise.PricePosition(q, b.positionSetup, nil, b.positionWork)
	if err != nil {
		return nil, err
	}
	lo, hi := b.table.Lo.Add(geom.V(Base/2, Base/2)), b.table.Hi.Sub(geom.V(Base/2, Base/2))
	reach, err := geom.NewReach(ctx, s.u.At, s.obstacles, lo, hi, b.table.Edged, s.left)
	if err != nil {
		return nil, err
	}
	obj := advise.OffenceObjective(q)
	m := advise.NewPositionMap(s.u.ID, s.u.Side, [2]float64{s.u.At.X, s.u.At.Y}, s.left, obj.Describe("wounds"), "in", s.g.Lattice)
	if err := m.FillDanger(ctx, b, s.q, Name); err != nil {
		return nil, err
	}
	at := func(i int) geom.Vec {
		x, y := s.g.At(i%s.g.Cols, i/s.g.Cols, 1)
		p := advise.OnPoint([2]float64{x, y}, [2]float64{s.u.At.X, s.u.At.Y}, s.g.Step)
		return geom.V(p[0], p[1])
	}
	best := func(p geom.Vec) (float64, map[string]any, error) {
		pr := b.problem(s.u, p)
		if pr == nil || obj.Kind == advise.Destroy && !hasTarget(pr, obj.Unit) {
			return 0, nil, nil
		}
		adv, err := advise.Search(ctx, pr, obj, 1, advise.Budget{})
		if err != nil {
			return 0, nil, err
		}
		return adv.Plans[0].Value, adv.Plans[0].Action, nil
	}
	err = m.FillOffence(ctx, func() advise.PointFunc {
		return func(c, r int, _ map[string]bool) (float64, error) {
			p := at(r*s.g.Cols + c)
			if m.Reach[r*s.g.Cols+c] = reach.Dist(p); math.IsInf(m.Reach[r*s.g.Cols+c], 1) {
				m.Reach[r*s.g.Cols+c] = math.NaN()
				return math.NaN(), nil
			}
			v, _, err := best(p)
			return v, err
		}
	})
	if err != nil {
		return nil, err
	}
	m.Finish(q, func(i int) map[string]any {
		var path [][]float64
		for _, p := range reach.Path(at(i))[1:] {
			path = append(path, []float64{p.X, p.Y})
		}
		if len(path) == 0 {
			return nil
		}
		return map[string]any{"type": volley.MoveAction, "unit": s.u.ID, "path": path}
	}, func(i int) map[string]any {
		_, plan, _ := best(at(i))
		return plan
	})
	return m, nil
}

func hasTarget(p *advise.Problem, id string) bool {
	for _, t := range p.Targets {
		if t.ID == id {
			return true
		}
	}
	return false
}
