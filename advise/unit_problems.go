package advise

import (
	"context"

	"github.com/volley-wargames/volley"
)

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

// NotNow notes on p why its actor may not act now (wait), where it may not: the problem of
// an actor the query names, planned all the same.
func (p *Problem) NotNow(wait error) {
	if wait != nil {
		p.Notes = append(p.Notes, "not now: "+wait.Error())
	}
}

// Named is out, the problems a system lists for q, or its error (EINVALID) when q names an
// actor and out holds none: format says so in the system's words, given q's side and
// actor ("dropzone: %s has no squad %q").
func Named(q Query, out []*Problem, format string) ([]*Problem, error) {
	if q.Actor != "" && len(out) == 0 {
		return nil, volley.Errorf(volley.EINVALID, format, q.Side, q.Actor)
	}
	return out, nil
}

// From is q's scenario action (Query.From) as a system's action P, nil when it is none,
// and q advising the actor the action names (actor says which) where q names none: the
// advice on a scenario's action is its actor's.
func From[A any, P interface {
	*A
	volley.Action
}](q Query, actor func(P) string) (Query, P) {
	a, _ := q.From.(P)
	if q.Actor == "" && a != nil {
		q.Actor = actor(a)
	}
	return q, a
}
