package advise

import (
	"context"

	"github.com/volley-wargames/volley/geom"
)

// OpenPositionWork is PositionWork of a system whose position map is an OpenPosition that
// lay lays out (PositionWorkOf, with its ways checked and its work).
func OpenPositionWork(q PositionQuery, lay func(PositionQuery) (*OpenPosition, error)) (int64, error) {
	return PositionWorkOf(q, lay, (*OpenPosition).CheckWays, (*OpenPosition).Work)
}

// OpenPositionMap is Position of such a system: lay's map priced (PricePosition), then
// filled (FillBest) with the advisor's best plan of best, the unit's Problem standing at
// a point, in system's words of its measure.
func OpenPositionMap(ctx context.Context, q PositionQuery, lay func(PositionQuery) (*OpenPosition, error), system, measure string, best func(at geom.Vec) *Problem) (*PositionMap, error) {
	o, _, err := PricePosition(q, lay, (*OpenPosition).CheckWays, (*OpenPosition).Work)
	if err != nil {
		return nil, err
	}
	return o.FillBest(ctx, q, system, measure, best)
}
