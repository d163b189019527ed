package advise

import (
	"context"
	"fmt"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
)

// The position map of a unit on an open table, as every system whose units stand on
// round bases and move round each other lays it: the points through where the unit
// stands, over what its move reaches; the shortest way to each round the other bases
// and within the table's edge (geom.Reach); the danger layer from the system's danger
// map; the offence from the system's best action at each point reached; the top points'
// moves. What a point's offence is, and the danger, stay the system's.

// OpenMove is a unit that moves on an open table, in inches.
type OpenMove struct {
	Unit, Side string
	// At is where it stands, Radius its base's, Left how far it may still move.
	At           geom.Vec
	Radius, Left float64
	// Others are the bases its way goes round: a move crosses none.
	Others []geom.Circle
	Table  *volley.Tabletop
	// PerInch is the table's unit per inch (1 in inches), Length its name ("in").
	PerInch float64
	Length  string
	// PerPoint is the work of the unit's best action at one point (the system's offence
	// there), beyond the way to it.
	PerPoint int64
}

// OpenPosition is a position map of an OpenMove laid out: its points, and the danger query
// whose map, laid on the same points by the system's Dangerer, is its danger layer.
type OpenPosition struct {
	OpenMove
	Lattice
	Danger     DangerQuery
	dangerer   Dangerer
	dangerWork int64
	ways       Ways
}

// openWayMargin is how much further than its base's radius a way keeps off other bases,
// inches, so that a way written out is clear of every base.
const openWayMargin = 0.001

// LayOpenPosition lays out q's map of m: points q.Step apart (defaultStep when q names
// none, in the table's unit) through where the unit stands, over the square its move
// reaches within the table's edge; d's danger map of a copy of the unit on the same
// points is its danger layer, refused here when d refuses it.
func LayOpenPosition(q PositionQuery, m OpenMove, d Dangerer, defaultStep float64) (*OpenPosition, error) {
	o := &OpenPosition{OpenMove: m, dangerer: d, ways: Ways{Start: m.At, Left: m.Left}}
	for _, c := range m.Others {
		o.ways.Obstacles = append(o.ways.Obstacles, geom.InflateCircle(c, m.Radius+openWayMargin))
	}
	o.ways.Lo, o.ways.Hi = m.Table.Within(m.Radius)
	step := q.StepOr(defaultStep)
	area := OpenView(m.Table, m.At, m.Left, m.Radius, m.PerInch, step)
	o.Danger = DangerQuery{Side: m.Side, As: m.Unit, Step: step, Objective: q.Danger, Area: area, Like: m.Unit}
	var err error
	if o.Lattice, err = LayGrid(area, step); err != nil {
		return nil, err
	}
	o.dangerWork, err = d.DangerWork(o.Danger)
	return o, err
}

// CheckWays refuses a map whose ways alone cost more than volley.MaxHeavyWork (for
// PricePosition).
func (o *OpenPosition) CheckWays() error { return CheckWays(o.Unit, o.ways) }

// Work is the map's work (for PricePosition): the ways', the points' (each PerPoint beyond
// its way) and the danger layer's.
func (o *OpenPosition) Work() (int64, string) {
	ways, corners := o.ways.Work(int64(o.Points()))
	return AddWork(ways, MulWork(int64(o.Points()), o.PerPoint), o.dangerWork),
		fmt.Sprintf("%d points, %d corners to go round within its move, a search at each and the danger map", o.Points(), corners)
}

// point is point i of the map in inches, the unit's own place among them (Near).
func (o *OpenPosition) point(i int) geom.Vec {
	return o.Lattice.Near(i%o.Cols, i/o.Cols, o.PerInch, o.OpenMove.At)
}

// OpenView is the area a position map of a round base on an open table covers, in the
// table's unit: the square its move reaches within t's edge (Tabletop.ReachArea: a base of
// radius inches at at, left inches still to move), laid through where it stands (Around)
// at step; per is the table's unit per inch.
func OpenView(t *volley.Tabletop, at geom.Vec, left, radius, per, step float64) [4]float64 {
	a := t.ReachArea(at, left, radius)
	return Around([2]float64{at.X * per, at.Y * per}, [4]float64{a[0] * per, a[1] * per, a[2] * per, a[3] * per}, step)
}

// Near is point (c, r) of the lattice in inches (per: the table's unit per inch), and at
// itself where the grid's arithmetic puts the point within a hair of it (OnPoint): where a
// unit stands is one of its position map's points, to the last bit.
func (l Lattice) Near(c, r int, per float64, at geom.Vec) geom.Vec {
	x, y := l.At(c, r, per)
	p := OnPoint([2]float64{x, y}, [2]float64{at.X, at.Y}, l.Step/per)
	return geom.V(p[0], p[1])
}

// Fill works the map out: the ways there; the danger layer, the Dangerer's map of
// o.Danger; at each point reached, the offence of best (the value and the action of the
// unit's best action standing at p, having come a way inches long); then the front and the
// top points, each with the move there (its path in the table's unit) and best's action.
// system names the rule system in errors, offence says what the offence scores.
func (o *OpenPosition) Fill(ctx context.Context, q PositionQuery, system, offence string,
	best func(p geom.Vec, way float64) (float64, map[string]any, error),
) (*PositionMap, error) {
	if err := o.ways.Build(ctx, o.Table.Edged); err != nil {
		return nil, err
	}
	reach := o.ways.Reach
	k := o.PerInch
	m := NewPositionMap(o.Unit, o.Side, [2]float64{o.OpenMove.At.X * k, o.OpenMove.At.Y * k}, o.Left*k, offence, o.Length, o.Lattice)
	if err := m.FillDanger(ctx, o.dangerer, o.Danger, system); err != nil {
		return nil, err
	}
	err := m.FillReach(ctx, reach, func(c, r int) geom.Vec { return o.point(r*o.Cols + c) }, k, func() OffenceAt {
		return func(p geom.Vec, way float64) (float64, error) {
			v, _, err := best(p, way)
			return v, err
		}
	})
	if err != nil {
		return nil, err
	}
	m.Finish(q, func(i int) map[string]any {
		var path [][]float64
		for _, p := range reach.Path(o.point(i))[1:] {
			path = append(path, []float64{p.X * k, p.Y * k})
		}
		if len(path) == 0 {
			return nil // standing still
		}
		return map[string]any{"type": volley.MoveAction, "unit": o.Unit, "path": path}
	}, func(i int) map[string]any {
		p := o.point(i)
		_, plan, _ := best(p, reach.Dist(p))
		return plan
	})
	return m, nil
}

// FillBest is Fill whose offence at a point is the value of the best plan (BestOf) of
// problem, the unit's Problem standing there (nil when it has nothing to fire at), under
// q's objective (OffenceObjective); measure is what the plans count ("wounds").
func (o *OpenPosition) FillBest(ctx context.Context, q PositionQuery, system, measure string, problem func(at geom.Vec) *Problem) (*PositionMap, error) {
	obj := OffenceObjective(q)
	return o.Fill(ctx, q, system, obj.Describe(measure), func(p geom.Vec, _ float64) (float64, map[string]any, error) {
		return BestOf(ctx, problem(p), obj)
	})
}

// BestOf is the value and the action of p's best plan under o (Search), for a position
// map's offence at a point: 0 and no action when p is nil (nothing to fire at from there)
// or o is to destroy a unit that is not among p's targets.
func BestOf(ctx context.Context, p *Problem, o Objective) (float64, map[string]any, error) {
	if p == nil || o.Kind == Destroy && !hasTarget(p, o.Unit) {
		return 0, nil, nil
	}
	adv, err := Search(ctx, p, o, 1, Budget{})
	if err != nil || len(adv.Plans) == 0 {
		return 0, nil, err
	}
	return adv.Plans[0].Value, adv.Plans[0].Action, nil
}
