package volley

import (
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// What an open-table battle of one unit at a time writes alike around its rules: where a
// piece starts, whose turn the offers are for, and an actor of its side's turn.

// ReadStart reads where a piece on a round base of radius r starts, at (nil when the
// scenario does not place it), as ReadPoint does, and adds its base to bases for
// CheckStarts; what names the piece in errors (`unit "r1"`). It reports whether the
// piece is placed.
func ReadStart(errs *scenario.ErrorList, doc *scenario.Doc, at *scenario.Point, what string, r float64, bases *[]StartingBase) (geom.Vec, bool) {
	if at == nil {
		return geom.Vec{}, false
	}
	p, ok := ReadPoint(errs, doc, at, what+": at")
	if ok {
		*bases = append(*bases, StartingBase{Base: geom.Circle{C: p, R: r}, Pos: doc.At(at), What: what})
	}
	return p, ok
}

// TurnOffers begins the offers of a battle that moves (OpenOffers, its deployments made by
// deploy) and answers the side whose turn they are for, "" while the sides deploy in turns
// (no side's turn is under way then), with that side acting (Offers.Act).
func (t *Tabletop) TurnOffers(turns *Turns, deploy func(o *Offers) []Offer) (Offers, string) {
	o, deploying := t.OpenOffers(true, deploy)
	side := turns.Current()
	if deploying {
		side = ""
	}
	o.Act(side)
	return o, side
}

// Actor is unit id's actor of an offer of its side's turn, with the one field f: its
// action names the unit, and it says whose activation it would end (Closes).
func (a *Activation) Actor(id string, f Field) Actor {
	return Actor{ID: id, Action: map[string]any{"unit": id}, Closes: a.Closes(id), Fields: []Field{f}}
}

// PathActor is the actor of unit id's move from at, in inches, of up to left.
func (a *Activation) PathActor(id string, at geom.Vec, left float64) Actor {
	return a.Actor(id, PathField(Pt(at.X, at.Y), left, "in"))
}
