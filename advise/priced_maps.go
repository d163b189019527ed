package advise

import "context"

// A map's two methods. Every Dangerer's DangerWork and Danger, and every Positioner's
// PositionWork and Position, begin alike: the query checked and laid out, then priced
// (PriceDanger, PricePosition); DangerWork stops there, Danger goes on to fill the map.
// These write the pair once, for a system that lays its maps out in one place.

// DangerWorkOf is a Dangerer's DangerWork: q laid out (lay) and priced (work), as
// PriceDanger does.
func DangerWorkOf[G any](q DangerQuery, lay func(DangerQuery) (G, error), work func(G) (int64, string)) (int64, error) {
	_, w, err := PriceDanger(q, lay, work)
	return w, err
}

// DangerOf is a Dangerer's Danger: q laid out and priced as DangerWorkOf, then its map
// filled (fill, a method expression such as CopyDanger.Map).
func DangerOf[G any](ctx context.Context, q DangerQuery, lay func(DangerQuery) (G, error), work func(G) (int64, string),
	fill func(G, context.Context, DangerQuery) (*DangerMap, error),
) (*DangerMap, error) {
	g, _, err := PriceDanger(q, lay, work)
	if err != nil {
		return nil, err
	}
	return fill(g, ctx, q)
}

// PositionWorkOf is a Positioner's PositionWork: q set up, its ways checked (ways; nil
// for none) and priced (work), as PricePosition does.
func PositionWorkOf[S any](q PositionQuery, setup func(PositionQuery) (S, error), ways func(S) error, work func(S) (int64, string)) (int64, error) {
	_, w, err := PricePosition(q, setup, ways, work)
	return w, err
}
