package opponent

import "github.com/volley-wargames/volley"

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
