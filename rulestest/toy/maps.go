package toy

import (
	"context"

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

// Problems is each token's choice of target, with the exact wounds of each shot
// (advise.UnitProblems: the tokens of q.Side that may shoot, or q.Actor).
func (b *Battle) Problems(ctx context.Context, q advise.Query) ([]*advise.Problem, error) {
	return advise.UnitProblems(ctx, q, b.units, func(u *Unit) (string, string, bool) { return u.ID, u.Side, b.shotCheck(u) == nil },
		func(u *Unit) *advise.Problem { return b.problem(u, u.At) })
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
		p.Choose(0, advise.Target{ID: t.ID, Left: t.Left()}, wounds(n, t.Left()))
	}
	if len(p.Targets) == 0 {
		return nil
	}
	p.Action = func(picks []int) map[string]any {
		return map[string]any{"type": "shoot", "unit": u.ID, "target": p.Slots[0].Choices[picks[0]].Target}
	}
	return p
}

// danger is a danger query checked: a copy of token q.As, at which every enemy token on
// the table shoots from where it stands (advise.CopyDanger).
func (b *Battle) danger(q advise.DangerQuery) (advise.CopyDanger, error) {
	u, ok := b.Unit(q.As)
	if !ok || u.Destroyed() {
		return advise.CopyDanger{}, advise.Invalid("as", "toy: as: no token %q with wounds left%s", q.As, scenario.Hint(q.As, b.ids()))
	}
	if err := advise.CheckSide(Name, q.Side, b.sides()); err != nil {
		return advise.CopyDanger{}, err
	}
	var shooters []*Unit
	c := advise.CopyDanger{Copy: u.ID, Left: u.Left(), Expected: "expected wounds", PerInch: 1, Unit: "in", PerFirer: 10}
	for _, s := range b.others(u) {
		if s.Side != q.Side {
			shooters, c.Firers = append(shooters, s), append(c.Firers, s.ID)
		}
	}
	c.Effect = func(i int, x, y float64) []float64 {
		if n := need(shooters[i].At.Dist(geom.V(x, y))); n > 0 {
			return advise.Capped(wounds(n, c.Left), c.Left)
		}
		return nil
	}
	var err error
	c.Lattice, err = advise.LayDanger(q, b, DangerStep)
	return c, err
}

// DangerWork is the work of q's map.
func (b *Battle) DangerWork(q advise.DangerQuery) (int64, error) {
	return advise.DangerWorkOf(q, b.danger, advise.CopyDanger.Work)
}

// Danger is the chance a copy of token q.As is destroyed on each point, or the wounds it
// loses, to every enemy token's shot.
func (b *Battle) Danger(ctx context.Context, q advise.DangerQuery) (*advise.DangerMap, error) {
	return advise.DangerOf(ctx, q, b.danger, advise.CopyDanger.Work, advise.CopyDanger.Map)
}

// DangerPlaces: a map places a copy of any token with wounds left.
func (b *Battle) DangerPlaces() []advise.DangerPlace {
	return advise.CopyPlaces(b.units, func(u *Unit) (string, string, string, bool) { return u.ID, "", u.Side, !u.Destroyed() })
}

// openPosition is a position query checked and laid out (advise.LayOpenPosition: the
// token's round base going round the others, each point's search over the targets, the
// danger map of a copy of the token).
func (b *Battle) openPosition(q advise.PositionQuery) (*advise.OpenPosition, error) {
	u, ok := b.Unit(q.Unit)
	if !ok {
		return nil, advise.Invalid("unit", "toy: unit: no token %q%s", q.Unit, scenario.Hint(q.Unit, b.ids()))
	}
	left, why := b.movable(u)
	if why != "" {
		return nil, advise.Invalid("unit", "toy: unit: %s may not move now: %s", u.ID, why)
	}
	m := advise.OpenMove{Unit: u.ID, Side: u.Side, At: u.At, Radius: Base / 2, Left: left, Table: &b.table, PerInch: 1, Length: "in",
		PerPoint: int64(len(b.units)) * 1000}
	for _, o := range b.others(u) {
		m.Others = append(m.Others, o.base())
	}
	return advise.LayOpenPosition(q, m, b, DangerStep)
}

// PositionWork is the work of q's map.
func (b *Battle) PositionWork(q advise.PositionQuery) (int64, error) {
	return advise.OpenPositionWork(q, b.openPosition)
}

// Position maps every point q.Unit can reach now (advise.OpenPositionMap): the offence
// there is the advisor's best shot from it, the danger the danger map of a copy of the
// token.
func (b *Battle) Position(ctx context.Context, q advise.PositionQuery) (*advise.PositionMap, error) {
	u, _ := b.Unit(q.Unit)
	return advise.OpenPositionMap(ctx, q, b.openPosition, Name, "wounds", func(at geom.Vec) *advise.Problem { return b.problem(u, at) })
}
