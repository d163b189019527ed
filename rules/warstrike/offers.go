package warstrike

import (
	"fmt"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/scenario"
)

// Offers are what the sides may do now (volley.Offers): while they deploy, the deploying
// side's units, each placed whole in its formation; then in a side's turn, for each unit
// that may act, its action chosen (Actions That Allow Shooting: each option says how far
// a model moves with it and whether it allows a shot), a move for each of its models
// that may still move (as far as the action chosen, or the farthest any allows, leaves
// it), a shooting action (its targets: two with a leader, one without), and the end of
// the turn. A unit that acts ends the activation of the unit acting before it (Closes):
// that one may not shoot after.
func (b *Battle) Offers() volley.Offers {
	o, deploying := b.table.OpenOffers(b.moves, b.deployOffers)
	if deploying {
		b.spent(&o, nil)
		return o
	}
	if !b.table.Deploys(b.moves) {
		o.Offers = []volley.Offer{} // a view lists no offers as [], not null
	}
	in := func(x float64) float64 { return scenario.Inches(x).In(b.unit.OrInch()) }
	sides := b.turns.Acting(volley.Distinct(b.units, func(u *Unit) string { return u.Side }))
	o.Act(sides...)
	closes := func(id string) string { return volley.Closes(b.act.unit, b.act.shot, id) }
	for _, side := range sides {
		var moves, shots []volley.Actor
		for i := range b.units {
			u := &b.units[i]
			if u.Side != side || u.Destroyed() {
				continue
			}
			if b.moves && b.actCheck(u) == nil {
				moves = append(moves, b.moveActors(u, in, closes(u.ID))...)
			}
			if b.shootCheck(u) != nil {
				continue
			}
			as := u.Action
			if as == "" {
				as = OpenFire
			}
			if b.whoMayShoot(u, as) != "" {
				continue
			}
			most := MaxTargetsWithoutLeader
			if u.Leader() != nil {
				most = MaxTargetsWithLeader
			}
			var enemies []string
			for j := range b.units {
				if e := &b.units[j]; e.Side != side && !e.Destroyed() {
					enemies = append(enemies, e.ID)
				}
			}
			a := volley.Actor{ID: u.ID, Label: u.label(), Action: map[string]any{"unit": u.ID}, Units: u.living(), Closes: closes(u.ID), Note: b.choiceNote(u),
				Fields: []volley.Field{{Key: "targets", Label: "targets", Kind: volley.FieldRows, MaxRows: most, Row: []volley.Field{volley.UnitField("unit", "target", enemies)}}}}
			if u.Action == "" && b.moves {
				a.Note = "It has chosen no action: it shoots as Open Fire (not in the source). " + a.Note
			}
			shots = append(shots, a)
		}
		o.UnitTurn(side, moves, "A unit chooses its action for the turn with its first move (a unit alone chooses it standing still); its models move one by one, each as far as the action allows. A unit moves before it shoots.",
			volley.Offer{Type: "shoot", Label: "Shoot", Key: "unit", Actors: shots, Ends: b.turns.ActivationEnds(),
				Help: "A unit shoots once a turn, as the action it chose allows: each armed model at the first target it sees."})
	}
	o.EndTurn(b.turns.Current())
	b.spent(&o, sides)
	return o
}

// moveActors are u's moves now: while it has chosen no action, the choice standing still
// (the unit, with its action) and each model's move with the choice; once it has, each
// model's move that has some of its allowance left.
func (b *Battle) moveActors(u *Unit, in func(float64) float64, closes string) []volley.Actor {
	var out []volley.Actor
	unit := string(b.unit.OrInch())
	if u.Action == "" {
		out = append(out, volley.Actor{ID: u.ID, Label: u.label() + ": choose its action", Action: map[string]any{"unit": u.ID}, Units: u.living(), Closes: closes,
			Fields: []volley.Field{b.actionField(u, -1, in)}})
	}
	for i := range u.Models {
		m := &u.Models[i]
		left, why := b.movable(u, m)
		if why != "" || !(left > 0) {
			continue
		}
		a := volley.Actor{ID: m.ID, Label: fmt.Sprintf("%s of %s", m.ID, u.label()), Action: map[string]any{"unit": m.ID}, Closes: closes,
			Fields: []volley.Field{volley.PathField(volley.Pt(in(m.At.X), in(m.At.Y)), in(left), unit)}}
		if u.Action == "" {
			a.Fields = append(a.Fields, b.actionField(u, b.moved[m.ID], in))
		}
		if b.climbs && b.hasFloors() {
			a.Fields = append(a.Fields, volley.Field{Key: "elevation", Label: "climb to (elevation)", Kind: volley.FieldNumber, Optional: true, Min: volley.Num(0), Unit: unit})
		}
		out = append(out, a)
	}
	return out
}

// actionField is the choice of u's action, each option with how far a model that has
// moved moved (−1 for a unit choosing it standing still) may move with it, and whether
// it allows a shot.
func (b *Battle) actionField(u *Unit, moved float64, in func(float64) float64) volley.Field {
	f := volley.Field{Key: "action", Label: "action", Kind: volley.FieldSelect}
	for _, a := range AllActions {
		opt := volley.Option{Value: string(a), Label: a.Title()}
		allow := b.allowance(u, a)
		if moved >= 0 {
			left := max(allow-moved, 0)
			if left <= 0 {
				continue // the model could not move with it
			}
			opt.Limits = map[string]float64{"path": *volley.PathField(nil, in(left), "").Max}
		}
		opt.Note = fmt.Sprintf("moves %s", b.length(allow))
		if b.whoMayShoot(u, a) == "" {
			opt.Allows = []string{"shoot"}
			opt.Note += "; allows a shot"
		} else {
			opt.Note += "; no shot"
		}
		f.Options = append(f.Options, opt)
	}
	return f
}

// label is how an offer names the unit.
func (u *Unit) label() string { return volley.Label(u.Name, u.ID) }

// living are the unit's models still in play.
func (u *Unit) living() []string {
	var out []string
	for i := range u.Models {
		if u.Models[i].Alive() {
			out = append(out, u.Models[i].ID)
		}
	}
	return out
}

// deployOffers are the deployments the sides may make now (volley.Tabletop.DeployOffers):
// each unit placed whole in its formation, centred on the point given (a model may be
// placed alone, {unit: <model>}). It adds the sides to o.Acting.
func (b *Battle) deployOffers(o *volley.Offers) []volley.Offer {
	var ds []volley.Deployer
	for i := range b.units {
		if u := &b.units[i]; !u.Destroyed() && b.table.CheckDeploy(u.Side, u.living(), "models") == nil {
			ds = append(ds, volley.Deployer{Side: u.Side, Actor: volley.Actor{ID: u.ID, Label: u.label(), Action: map[string]any{"unit": u.ID}, Units: u.living(),
				Note: "at is where the unit's centre goes: its models keep their formation"}})
		}
	}
	return b.table.DeployOffers(o, ds, func(side string) []volley.Field {
		return []volley.Field{b.table.ZoneField(side, b.unit.OrInch())}
	})
}

// spent says, for each unit that may not act again this turn, why not.
func (b *Battle) spent(o *volley.Offers, sides []string) {
	for i := range b.units {
		u := &b.units[i]
		switch {
		case u.Destroyed():
			o.Spent[u.ID] = u.ID + " has no models left"
		case b.table.SpentNow(o, u.ID, u.Side, u.living(), "models", sides, b.turns.Current()):
		default:
			if err := b.actCheck(u); err != nil {
				o.Spent[u.ID] = volley.ErrorMessage(err)
				continue
			}
			moving := false
			if b.moves {
				for j := range u.Models {
					if left, why := b.movable(u, &u.Models[j]); why == "" && left > 0 {
						moving = true
					}
				}
			}
			as := u.Action
			if as == "" {
				as = OpenFire
			}
			if why := b.whoMayShoot(u, as); why != "" && !moving && u.Action != "" {
				o.Spent[u.ID] = why
			}
		}
	}
}
