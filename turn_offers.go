package volley

// UnitTurn adds to o what side may do in its turn in a battle whose units each move and
// then take one action that ends their activation (Warfare's fire, WarStrike's shot, the
// test-only toy's shot): the move of the actors moves (MoveOffer, help saying how far),
// then act, the offer of that action, to its Actors, with side and {type: act.Type}
// filled in. An offer without actors is left out; the end of the turn is o.EndTurn's.
func (o *Offers) UnitTurn(side string, moves []Actor, help string, act Offer) {
	if len(moves) > 0 {
		o.Offers = append(o.Offers, MoveOffer(side, moves, help))
	}
	if len(act.Actors) > 0 {
		act.Side, act.Action = side, map[string]any{"type": act.Type}
		o.Offers = append(o.Offers, act)
	}
}
