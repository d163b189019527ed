package advise

import (
	"context"
	"math"

	"github.com/volley-wargames/volley/geom"
)

// Ways are the shortest ways of a piece that moves as one, from Start round Obstacles (the
// regions its centre may not enter: what it goes round, grown by its own shape) within
// Left and, on an edged table, within the rectangle Lo–Hi its centre keeps in
// (geom.Reach), as Warfare's, WarStrike's and Republique's position maps and an
// OpenPosition lay them. On a table of many corners they are a map's dearest part, and no
// step makes them cheaper: a map prices them (CheckWays, Work) before it works them out
// (Build).
type Ways struct {
	Start     geom.Vec
	Obstacles []geom.Polygon
	Lo, Hi    geom.Vec
	Left      float64
	// Reach is the ways worked out, once Build has.
	Reach *geom.Reach
}

// Work is the work of the ways to points points (the visibility graph of the corners
// within the move, then each point's way among them), and how many corners are within it.
func (w *Ways) Work(points int64) (work int64, corners int) {
	graph, point, corners := geom.ReachWork(w.Start, w.Obstacles, w.Left)
	return AddWork(graph, MulWork(points, point)), corners
}

// Build works the ways out; edged says whether the table has an edge to keep within. It
// stops when ctx ends.
func (w *Ways) Build(ctx context.Context, edged bool) (err error) {
	w.Reach, err = geom.NewReach(ctx, w.Start, w.Obstacles, w.Lo, w.Hi, edged, w.Left)
	return err
}

// CheckWays refuses a map whose ways alone (each piece's, as one) cost more than
// volley.MaxHeavyWork (CheckWaysWork): the corners within the moves, which no step makes
// fewer. unit names the unit that moves.
func CheckWays(unit string, ways ...Ways) error {
	graph, near := int64(0), 0
	for _, w := range ways {
		g, _, n := geom.ReachWork(w.Start, w.Obstacles, w.Left)
		graph, near = AddWork(graph, g), max(near, n)
	}
	return CheckWaysWork(graph, near, unit)
}

// OffenceAt is one core's offence of a unit standing at p (inches), come a way d inches
// long: the value of its best plan from there.
type OffenceAt func(p geom.Vec, d float64) (float64, error)

// FillReach works out the offence layer (FillOffence) at every point reach reaches
// (Reached), NaN elsewhere: point is point (c, r) in inches, per the map's unit per inch,
// and newAt makes each core's OffenceAt.
func (m *PositionMap) FillReach(ctx context.Context, reach *geom.Reach, point func(c, r int) geom.Vec, per float64, newAt func() OffenceAt) error {
	return m.FillOffence(ctx, func() PointFunc {
		at := newAt()
		return func(c, r int, _ map[string]bool) (float64, error) {
			p := point(c, r)
			d := reach.Dist(p)
			if !m.Reached(c, r, d, per) {
				return math.NaN(), nil
			}
			return at(p, d)
		}
	})
}
