package volley_test

import (
	"testing"

	"github.com/volley-wargames/volley"
)

// TestUnitTurnOffers: the move and the action are offered to side only with actors, the
// action's offer with its side and type filled in; the end of the turn is not UnitTurn's.
func TestUnitTurnOffers(t *testing.T) {
	act := volley.Offer{Type: "shoot", Label: "Shoot", Key: "unit"}
	var none volley.Offers
	none.UnitTurn("red", nil, "moves", act)
	if len(none.Offers) != 0 {
		t.Fatalf("no actors: %+v", none.Offers)
	}
	var o volley.Offers
	act.Actors = []volley.Actor{{ID: "r2"}}
	o.UnitTurn("red", []volley.Actor{{ID: "r1"}}, "moves up to 6\"", act)
	if len(o.Offers) != 2 {
		t.Fatalf("offers: %+v", o.Offers)
	}
	mv, sh := o.Offers[0], o.Offers[1]
	if mv.Type != volley.MoveAction || mv.Side != "red" || len(mv.Actors) != 1 || mv.Actors[0].ID != "r1" || mv.Help != "moves up to 6\"" {
		t.Errorf("move offer: %+v", mv)
	}
	if sh.Type != "shoot" || sh.Side != "red" || sh.Action["type"] != "shoot" || sh.Key != "unit" || len(sh.Actors) != 1 || sh.Actors[0].ID != "r2" {
		t.Errorf("shot offer: %+v", sh)
	}
}
