package advise

import "context"

// UnitProblems is Problems for a battle whose units each choose alone, one Problem a
// unit: the problem of each unit of q.Side that may act now, or of q.Actor alone whether
// or not it may. of gives a unit's id and side and whether it may act now; problem its
// choice, nil when it has none (nothing in reach).
func UnitProblems[U any](ctx context.Context, q Query, units []U, of func(*U) (id, side string, ready bool), problem func(*U) *Problem) ([]*Problem, error) {
	var out []*Problem
	for i := range units {
		u := &units[i]
		if id, side, ready := of(u); side == q.Side && (q.Actor == "" && ready || q.Actor == id) {
			if p := problem(u); p != nil {
				out = append(out, p)
			}
		}
	}
	return out, ctx.Err()
}
