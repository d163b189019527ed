package toy

import (
	"fmt"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
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

// Offers are what the sides may do now: deploy while they deploy; then, in a side's
// turn, move each token with move left, shoot with each that may, and end the turn.
func (b *Battle) Offers() volley.Offers {
	o := volley.Offers{Acting: []string{}, Spent: map[string]string{}}
	if b.table.InTurns() {
		o.Offers = b.table.PointDeployOffers(&o, b.pieces(), 1, "in")
		return o
	}
	side := b.turns.Current()
	o.Act(side)
	var moves, shots []volley.Actor
	for i := range b.units {
		u := &b.units[i]
		closes := b.act.Closes(u.ID)
		if left, why := b.movable(u); why == "" {
			moves = append(moves, volley.Actor{ID: u.ID, Action: map[string]any{"unit": u.ID}, Closes: closes,
				Fields: []volley.Field{volley.PathField(volley.Pt(u.At.X, u.At.Y), left, "in")}})
		}
		if p := b.problem(u, u.At); p != nil && b.shotCheck(u) == nil {
			var targets []string
			for _, t := range p.Targets {
				targets = append(targets, t.ID)
			}
			shots = append(shots, volley.Actor{ID: u.ID, Action: map[string]any{"unit": u.ID}, Closes: closes,
				Fields: []volley.Field{volley.UnitField("target", "target", targets)}})
		} else if _, why := b.movable(u); why != "" {
			o.Spent[u.ID] = why
		}
	}
	if len(moves) > 0 {
		o.Offers = append(o.Offers, volley.MoveOffer(side, moves, fmt.Sprintf("A token moves up to %g\" before it shoots.", Allowance)))
	}
	if len(shots) > 0 {
		o.Offers = append(o.Offers, volley.Offer{Side: side, Type: "shoot", Label: "Shoot", Action: map[string]any{"type": "shoot"}, Key: "unit",
			Actors: shots, Ends: b.turns.ActivationEnds()})
	}
	o.Offers = append(o.Offers, volley.EndOffer(side, volley.EndTurn, "End turn", volley.EndsTurn))
	return o
}

// pieces are the tokens, each its side and id, for the deployment's offers.
func (b *Battle) pieces() [][2]string {
	var out [][2]string
	for _, u := range b.units {
		out = append(out, [2]string{u.Side, u.ID})
	}
	return out
}
