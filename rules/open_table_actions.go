package rules

import (
	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/scenario"
)

// DecodeOpenTurnAction is DecodeTurnAction for a battle whose units move and deploy at
// points of an open table measured in unit, each move a volley.PathMove and each
// deployment a volley.Placing of one of the units ids. Warfare's moves and deployments
// are written the same way.
func DecodeOpenTurnAction(doc *scenario.Doc, turns *volley.Turns, table *volley.Tabletop, unit scenario.Unit, ids []string) (volley.Action, bool, error) {
	move := func(doc *scenario.Doc) (*volley.PathMove, error) { return volley.DecodePathMove(doc, unit, ids, true) }
	deploy := func(doc *scenario.Doc) (*volley.Placing, error) { return table.DecodePlacing(doc, unit, ids, true) }
	return DecodeTurnAction(doc, turns, table, move, deploy)
}
