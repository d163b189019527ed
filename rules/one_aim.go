package rules

import (
	"context"

	"github.com/volley-wargames/volley"
)

// OneAim is Aim for a system whose own action, an A, aims once: aim's aim of it, and no
// aim for the engine's actions (a move, a deployment, the end of a turn).
func OneAim[A volley.Action](ctx context.Context, a volley.Action, aim func(A) volley.Aim) ([]volley.Aim, error) {
	if s, ok := a.(A); ok {
		return []volley.Aim{aim(s)}, ctx.Err()
	}
	return []volley.Aim{}, ctx.Err()
}
