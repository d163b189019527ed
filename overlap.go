package volley

import (
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// StartingBase is a base a new scenario places on the table, for CheckOverlaps: where it
// stands, where the scenario writes it, and what it is ("unit \"sabre-1\"").
type StartingBase struct {
	Base geom.Circle
	Pos  scenario.Pos
	What string
}

// CheckOverlaps adds to errs an error for every base that overlaps one written before it
// (geom.Overlapping: touching is not overlapping), at the later one, naming both. Not in
// any source, which never has two models stand in one place: a move may not pass over
// another base, so neither of two bases that overlap could ever move. It is checked for a
// new scenario only (not scenario.Doc.Accepted), so that a battle stored before still
// loads.
func CheckOverlaps(errs *scenario.ErrorList, bases []StartingBase) {
	circles := make([]geom.Circle, len(bases))
	for i, b := range bases {
		circles[i] = b.Base
	}
	done := map[int]bool{}
	for _, p := range geom.Overlapping(circles, scenario.MaxErrors) {
		if later, first := bases[p[1]], bases[p[0]]; !done[p[1]] {
			done[p[1]] = true
			errs.Add(later.Pos, "%s: at: its base overlaps the base of %s (at %d:%d): two bases may not stand in one place, where neither could move", later.What, first.What, first.Pos.Line, first.Pos.Col)
		}
	}
}
