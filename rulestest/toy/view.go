package toy

import (
	"fmt"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// What players see: the state, the table the page draws and the offers it acts from. The
// toy says what a token shows (its wounds, its shot's bands); the engine draws the edge
// and zones (Tabletop.View), a token's move (Tabletop.MoveView), the deployment's offers
// (Tabletop.DeployOffers) and the ends of turns.

// State lists every token with its wounds.
func (b *Battle) State() volley.State {
	s := volley.State{Turn: rules.TurnState(b.turns.View(), &b.table), Units: []volley.UnitState{}}
	for _, u := range b.units {
		s.Units = append(s.Units, volley.UnitState{ID: u.ID, Side: u.Side, Destroyed: u.Destroyed(),
			Values: map[string]float64{"wounds": float64(u.Wounds), "wounds_left": float64(u.Left()), "moved": b.act.Moved[u.ID]}})
	}
	return s
}

var (
	_ volley.Table   = (*Battle)(nil)
	_ volley.Offerer = (*Battle)(nil)
)

// Table is the table for the page: each token's base, its shot's two bands, its move.
func (b *Battle) Table() volley.TableView {
	v := volley.TableView{Unit: "in", Measured: "centre", Terrain: []volley.TablePiece{}, Moves: &volley.MoveForm{},
		Columns: []volley.ColumnView{{Label: "wounds", Key: "wounds_left", Of: "wounds"}},
		Declare: volley.DeclareView{Title: "Shot", FirerLabel: "Token", Prompt: "— choose a token —", Verb: "Shoot", Rows: "single", TargetKey: "target",
			Help: "Drag a token to move it, then click an enemy to shoot at it.", Choices: []volley.ChoiceView{}}}
	for i := range b.units {
		u := &b.units[i]
		left, why := b.movable(u)
		v.Units = append(v.Units, volley.TableUnit{ID: u.ID, Name: u.ID, Side: u.Side, Placed: u.Placed, X: u.At.X, Y: u.At.Y, Base: Base,
			Destroyed: u.Destroyed(), Move: b.table.MoveView(Allowance, b.act.Moved[u.ID], left, why),
			Weapons: []volley.WeaponView{{Name: "shot", Ranges: []volley.RangeView{{Name: "close", Reach: CloseRange}, {Name: "long", Reach: Range}}}}})
		if !u.Destroyed() {
			v.Declare.Choices = append(v.Declare.Choices, volley.ChoiceView{Label: u.ID + " (" + u.Side + ")", Side: u.Side, Units: []string{u.ID},
				Action: map[string]any{"type": "shoot", "unit": u.ID}, NeedsTarget: true})
		}
	}
	b.table.View(&v)
	v.FitBounds()
	return v
}

// Offers are what the sides may do now: place tokens while they deploy
// (Tabletop.OpenOffers, PointDeployOffers); then, in a side's turn, move each token with
// move left, shoot with each that may (Offers.UnitTurn), and end the turn. A token that
// may do neither is spent, and says why.
func (b *Battle) Offers() volley.Offers {
	o, side := b.table.TurnOffers(&b.turns, func(o *volley.Offers) []volley.Offer {
		return b.table.PointDeployOffers(o, rules.Pieces(b.units, func(u *Unit) (string, string) { return u.Side, u.ID }), scenario.Inch)
	})
	var moves, shots []volley.Actor
	for i := range b.units {
		u := &b.units[i]
		if b.table.SpentNow(&o, u.ID, u.Side, []string{u.ID}, "units", o.Acting, side) {
			continue
		}
		left, why := b.movable(u)
		if why == "" {
			moves = append(moves, b.act.PathActor(u.ID, u.At, left))
		}
		if p := b.problem(u, u.At); p != nil && b.shotCheck(u) == nil {
			shots = append(shots, b.act.Actor(u.ID, volley.UnitField("target", "target", p.TargetIDs())))
		} else if why != "" {
			o.Spent[u.ID] = why
		}
	}
	o.UnitTurn(side, moves, fmt.Sprintf("A token moves up to %g\" before it shoots.", Allowance),
		volley.Offer{Type: "shoot", Label: "Shoot", Key: "unit", Actors: shots, Ends: b.turns.ActivationEnds()})
	o.EndTurn(side)
	return o
}
