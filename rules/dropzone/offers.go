package dropzone

import (
	"fmt"
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/scenario"
)

// Offers are what the sides may do now (volley.Offers): while they deploy, the deploying
// side's deployments; then in a side's turn, a move for each unit with move left (Check
// Movement), a shooting action for each squad that may still shoot this activation, a
// row per weapon of its units, and the end of the turn. A move or a shot by another squad
// than the one acting ends that squad's activation (Closes).
func (b *Battle) Offers() volley.Offers {
	o, deploying := b.table.OpenOffers(b.moves, b.deployOffers)
	if deploying {
		b.spent(&o, nil)
		return o
	}
	u := b.unit.OrInch()
	in := func(x float64) float64 { return scenario.Inches(x).In(u) }
	sides := b.turns.Acting(b.distinct(func(x *Unit) string { return x.Side }))
	o.Act(sides...)
	closes := func(squad string) string {
		if b.act.squad != "" && b.act.squad != squad && slices.Contains(sides, b.sideOf(b.act.squad)) {
			return b.act.squad
		}
		return ""
	}
	var moves []volley.Actor
	var shots []volley.Actor
	shotsBySide := map[string][]volley.Actor{}
	movesBySide := map[string][]volley.Actor{}
	for _, squad := range b.squadNames() {
		members := b.squadUnits(squad)
		if len(members) == 0 {
			continue
		}
		sideOf := b.sideOf(squad)
		if !slices.Contains(sides, sideOf) {
			continue
		}
		if b.moves {
			for i := range b.units {
				m := &b.units[i]
				if m.Squad != squad {
					continue
				}
				left, why := b.movable(m)
				if why != "" || !(left > 0) {
					continue
				}
				from := m.At
				if m.Embarked != "" {
					if t, ok := b.Unit(m.Embarked); ok {
						from = t.At
					}
				}
				a := volley.Actor{ID: m.ID, Label: fmt.Sprintf("%s (%s)", m.ID, squad), Action: map[string]any{"unit": m.ID}, Closes: closes(squad),
					Fields: []volley.Field{volley.PathField(volley.Pt(in(from.X), in(from.Y)), in(left), string(u))}}
				movesBySide[sideOf] = append(movesBySide[sideOf], a)
			}
		}
		if b.shootCheck(&Shooting{Squad: squad}) != nil {
			continue
		}
		var rows []map[string]any
		var ids []string
		for _, m := range members {
			ids = append(ids, m.ID)
			if m.Embarked != "" {
				continue // it moves off its transport before it shoots
			}
			for _, w := range m.Type.Weapons {
				// Check Movement: a weapon whose M&F the unit has moved beyond this
				// activation may not fire.
				if b.moves && b.act.squad == squad && !w.MoveAndFire.Allows(lengthOf(b.act.moved[m.ID])) {
					continue
				}
				rows = append(rows, map[string]any{"unit": m.ID, "weapon": w.Name})
			}
		}
		if len(rows) == 0 {
			continue
		}
		var enemies []string
		for i := range b.units {
			if e := &b.units[i]; e.Side != sideOf && !e.Destroyed() && e.Embarked == "" {
				enemies = append(enemies, e.ID)
			}
		}
		a := volley.Actor{ID: squad, Label: fmt.Sprintf("%s (%s)", squad, sideOf), Action: map[string]any{"squad": squad}, Units: ids, Closes: closes(squad),
			Fields: []volley.Field{{Key: "declarations", Label: "targets", Kind: volley.FieldRows, Rows: rows,
				Row: []volley.Field{volley.UnitField("target", "target", enemies)}}}}
		if b.turns.Alternate {
			a.Ends = volley.EndsTurn
		}
		shotsBySide[sideOf] = append(shotsBySide[sideOf], a)
	}
	for _, s := range sides {
		moves, shots = movesBySide[s], shotsBySide[s]
		if len(moves) > 0 {
			move := volley.MoveOffer(s, moves, "A unit moves along a path of straight legs; a unit that moved further than a weapon's M&F may not fire it, and one that fired moves no further in all than the smallest M&F of the weapons it used.")
			move.Fields = []volley.Field{volley.FacingField(0)}
			o.Offers = append(o.Offers, move)
		}
		if len(shots) > 0 {
			o.Offers = append(o.Offers, volley.Offer{Side: s, Type: "shoot", Label: "Shoot", Action: map[string]any{"type": "shoot"}, Key: "squad", Actors: shots,
				Help: "A squad shoots once an activation: each weapon of its units at one target, all declared before any die is rolled."})
		}
	}
	o.EndTurn(b.turns.Current())
	b.spent(&o, sides)
	return o
}

// sideOf is the side of a squad.
func (b *Battle) sideOf(squad string) string {
	for i := range b.units {
		if b.units[i].Squad == squad {
			return b.units[i].Side
		}
	}
	return ""
}

// deployOffers are the deployments the sides may make now (volley.Tabletop.DeployOffers):
// each unit placed at a point, facing as the player chooses. It adds the sides to
// o.Acting.
func (b *Battle) deployOffers(o *volley.Offers) []volley.Offer {
	var ds []volley.Deployer
	for i := range b.units {
		if m := &b.units[i]; !m.Destroyed() && b.table.CheckDeploy(m.Side, []string{m.ID}, "units") == nil {
			ds = append(ds, volley.Deployer{Side: m.Side, Actor: volley.Actor{ID: m.ID, Label: fmt.Sprintf("%s (%s)", m.ID, m.Squad), Action: map[string]any{"unit": m.ID}}})
		}
	}
	return b.table.DeployOffers(o, ds, func(side string) []volley.Field {
		return []volley.Field{b.table.ZoneField(side, b.unit.OrInch()), volley.FacingField(0)}
	})
}

// spent says, for each unit that may not act again this turn, why not.
func (b *Battle) spent(o *volley.Offers, sides []string) {
	for i := range b.units {
		m := &b.units[i]
		switch {
		case m.Destroyed():
			o.Spent[m.ID] = m.ID + " is destroyed"
			continue
		case b.table.SpentNow(o, m.ID, m.Side, []string{m.ID}, "units", sides, b.turns.Current()):
			continue
		}
		if err := b.activationCheck(m.Side, m.Squad); err != nil {
			o.Spent[m.ID] = volley.ErrorMessage(err)
			continue
		}
		if b.act.squad != m.Squad {
			continue // its squad has not acted this turn
		}
		left, why := 0.0, "it does not move"
		if b.moves {
			left, why = b.movable(m)
		}
		if left > 0 && why == "" {
			continue
		}
		if !b.act.fired && len(m.Type.Weapons) > 0 && m.Embarked == "" {
			continue // its squad may still shoot
		}
		if b.act.fired {
			why = fmt.Sprintf("its squad %s has shot this activation, and %s", m.Squad, why)
		}
		o.Spent[m.ID] = why
	}
}
