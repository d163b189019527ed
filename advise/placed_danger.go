package advise

import (
	"context"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// The frame of a danger map that places one thing on every point and has a worker of each
// core work out its value there, as Dropzone's, Warfare's, WarStrike's and Republique's
// maps do: the query checked and laid out (PlacedGrid, CheckCopy), then every point filled
// (FilledAt). What is placed, what fires at it and what it loses stay the system's.

// PlacedGrid is a danger query checked and its points laid out: what the map places (a
// unit type in Dropzone, a copy of one of the battle's units in Warfare, WarStrike and
// Republique), the side it is placed on, and the table's unit.
type PlacedGrid[T any] struct {
	Placed *T
	Side   string
	Unit   scenario.Unit
	Lattice
}

// CheckCopy refuses the query of a map that places a copy of a unit of the battle (q.As):
// one the battle does not have (found false: ids are the battle's units, for a hint), one
// with nothing left to place (spent), and a side no unit is on (CheckSide, sides being the
// battle's). system names the rule system in the error, places says what its maps place
// ("a Warfare map places a copy of a unit of the battle"), parts what a unit loses
// ("figures").
func CheckCopy(q DangerQuery, system, places, parts string, found, spent bool, ids, sides []string) error {
	if !found {
		return volley.Errorf(volley.EINVALID, "%s: as: %s: unknown unit %q%s", system, places, q.As, scenario.Hint(q.As, ids))
	}
	if spent {
		return volley.Errorf(volley.EINVALID, "%s: as: %s has no %s left to place", system, q.As, parts)
	}
	return CheckSide(system, q.Side, sides)
}

// PlacedAt is one core's worker of a danger map: the value under obj of what the map
// places standing at p, in the system's own length, noting in firers every unit that
// could fire there. It is the core's own (it may move its own copy), and checks ctx
// within its work.
type PlacedAt func(ctx context.Context, p geom.Vec, obj ObjectiveKind, firers map[string]bool) (float64, error)

// FilledAt is m with every point worked out (Filled) by the PlacedAt newAt makes for each
// core, under m's objective; per is the table's unit per one of the system's lengths (1
// in inches), in which a worker is given its point.
func (m *DangerMap) FilledAt(ctx context.Context, per float64, newAt func() PlacedAt) (*DangerMap, error) {
	l, obj := m.Lattice, m.Objective
	return m.Filled(ctx, func() PointFunc {
		at := newAt()
		return func(c, r int, firers map[string]bool) (float64, error) {
			return at(ctx, geom.V(l.At(c, r, per)), obj, firers)
		}
	})
}

// LayPlaced is q's grid of placed, once the system has checked it: its points laid by
// LayDanger over t (defaultStep apart, in the table's unit unit, when q names no step).
func LayPlaced[T any](q DangerQuery, t volley.Table, placed *T, unit scenario.Unit, defaultStep float64) (PlacedGrid[T], error) {
	l, err := LayDanger(q, t, defaultStep)
	return PlacedGrid[T]{Placed: placed, Side: q.Side, Unit: unit, Lattice: l}, err
}

// PlacedWork is the work of a PlacedGrid's map whose every point costs the same
// (PointsWork): perPoint's work of what the grid places, on its side; for PriceDanger.
func PlacedWork[T any](perPoint func(placed *T, side string) int64) func(PlacedGrid[T]) (int64, string) {
	return func(g PlacedGrid[T]) (int64, string) { return PointsWork(g.Points(), perPoint(g.Placed, g.Side)) }
}
