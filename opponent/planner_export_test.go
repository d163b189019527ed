package opponent

import (
	"context"

	"github.com/volley-wargames/volley"
)

// EnemyActsAfter is enemyActsAfter, for the package's outside tests (which may load the
// rule systems; its own may not, rules importing it).
var EnemyActsAfter = enemyActsAfter

// InReach reports whether unit, as g's battle stands, can be within objective i (of the
// game's result) after moves of its whole move, as staging counts it: inReach, clear of
// the table's walls by the unit's own clearance.
func InReach(g *volley.Game, unit string, i, moves int) bool {
	v := read(g)
	for _, pc := range v.pieces {
		if pc.id == unit && !pc.destroyed && pc.move != nil {
			return v.inReach(i, pc.x, pc.y, moves, pc.move.Allowance, v.walls(unit))
		}
	}
	return false
}

// MoveReasons are the reasons of p's move options in g as it stands (moveOptions), in
// their order: what each place is worth by the unit's position map, read from p's maps
// where it has read one since.
func MoveReasons(ctx context.Context, p *Player, g *volley.Game) ([]string, error) {
	opts, _, err := p.moveOptions(ctx, read(g))
	var why []string
	for _, o := range opts {
		why = append(why, o.why)
	}
	return why, err
}
