package warfare

import (
	"fmt"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/scenario"
)

// Offers are what the sides may do now (volley.Offers): while they deploy, the deploying
// side's deployments; then in a side's turn, a move for each unit placed with move left,
// a fire for each unit that may still fire (its targets, the stands at each, the
// modifiers a player claims), and the end of the turn. A unit acts once a turn: its fire
// ends its activation, and a move or fire by another unit ends the activation of the
// unit that moved and has not fired (Closes).
func (b *Battle) Offers() volley.Offers {
	o, deploying := b.table.OpenOffers(b.moves, b.deployOffers)
	if deploying {
		b.spent(&o, nil)
		return o
	}
	u := b.unit.OrInch()
	in := func(x float64) float64 { return scenario.Inches(x).In(u) }
	sides := b.turns.Acting(volley.Distinct(b.units, func(u *Unit) string { return u.Side }))
	o.Act(sides...)
	for _, side := range sides {
		var moves, fires []volley.Actor
		for i := range b.units {
			m := &b.units[i]
			if m.Side != side || m.Destroyed() {
				continue
			}
			if b.moves {
				if left, why := b.movable(m); why == "" && left > 0 {
					moves = append(moves, volley.Actor{ID: m.ID, Label: m.label(), Action: map[string]any{"unit": m.ID}, Closes: b.act.Closes(m.ID),
						Fields: []volley.Field{volley.PathField(volley.Pt(in(m.At.X), in(m.At.Y)), in(left), string(u))}})
				}
			}
			if why := b.mayFire(m); why != "" {
				continue
			}
			fires = append(fires, volley.Actor{ID: m.ID, Label: m.label(), Action: map[string]any{"unit": m.ID}, Closes: b.act.Closes(m.ID),
				Fields: []volley.Field{b.targetsField(m)}, Note: fmt.Sprintf("%d stands can fire; ammunition %s.", m.StandsLeft(), m.Ammo)})
		}
		o.UnitTurn(side, moves, "A unit placed on the table moves before it fires, up to its move (data: the article gives none); its fire is measured from where it stands.",
			volley.Offer{Type: "fire", Label: "Fire", Key: "unit", Actors: fires, Ends: b.turns.ActivationEnds(),
				Help: "A unit fires its stands at one or more targets, once a turn; the ranges are measured where the units stand."})
	}
	o.EndTurn(b.turns.Current())
	b.spent(&o, sides)
	return o
}

// label is how an offer names the unit.
func (u *Unit) label() string { return volley.Label(u.Name, u.ID) }

// mayFire says why unit m may not fire now, "" when it may.
func (b *Battle) mayFire(m *Unit) string {
	switch {
	case m.Destroyed():
		return m.ID + " has no figures left"
	case m.Weapon == "" || b.tables.Ranges[m.Weapon] == nil:
		return m.ID + " has no missile weapon"
	case m.Ammo == AmmoOut:
		return m.ID + " is Out of Missiles and cannot fire"
	}
	if err := b.fireCheck(&Fire{Unit: m.ID}); err != nil {
		return volley.ErrorMessage(err)
	}
	return ""
}

// targetsField is a fire's targets for unit m: a row for each target, the unit fired at
// (an enemy with figures left), the stands firing at it (all of them, with one target)
// and the modifiers a player claims; the range band too where a unit is not on the table
// to measure it.
func (b *Battle) targetsField(m *Unit) volley.Field {
	var enemies []string
	measurable := m.At != nil
	for i := range b.units {
		if e := &b.units[i]; e.Side != m.Side && !e.Destroyed() {
			enemies = append(enemies, e.ID)
			measurable = measurable && e.At != nil
		}
	}
	stands := volley.Field{Key: "stands", Label: "stands", Kind: volley.FieldNumber, Optional: true, Min: volley.Num(1), Max: volley.Num(float64(m.StandsLeft())), Step: 1}
	row := []volley.Field{volley.UnitField("unit", "target", enemies), stands}
	if !measurable {
		r := volley.SelectField("range", "range", string(Close), string(Effective), string(Long))
		r.Optional = true
		row = append(row, r)
	}
	var claims []string
	for _, md := range b.tables.Modifiers {
		if md.When == nil {
			claims = append(claims, md.Name)
		}
	}
	if len(claims) > 0 {
		c := volley.Field{Key: "modifiers", Label: "modifiers", Kind: volley.FieldChecks, Optional: true}
		for _, name := range claims {
			c.Options = append(c.Options, volley.Option{Value: name})
		}
		row = append(row, c)
	}
	return volley.Field{Key: "targets", Label: "targets", Kind: volley.FieldRows, Row: row, MaxRows: min(MaxTargets, m.StandsLeft())}
}

// deployOffers are the deployments the sides may make now (volley.Tabletop.DeployOffers):
// each unit placed at a point. It adds the sides to o.Acting.
func (b *Battle) deployOffers(o *volley.Offers) []volley.Offer {
	var ds []volley.Deployer
	for i := range b.units {
		if m := &b.units[i]; !m.Destroyed() && b.table.CheckDeploy(m.Side, []string{m.ID}, "units") == nil {
			ds = append(ds, volley.Deployer{Side: m.Side, Actor: volley.Actor{ID: m.ID, Label: m.label(), Action: map[string]any{"unit": m.ID}}})
		}
	}
	return b.table.DeployOffers(o, ds, func(side string) []volley.Field {
		return []volley.Field{b.table.ZoneField(side, b.unit.OrInch())}
	})
}

// spent says, for each unit that may not act again this turn, why not.
func (b *Battle) spent(o *volley.Offers, sides []string) {
	for i := range b.units {
		m := &b.units[i]
		switch {
		case m.Destroyed():
			o.Spent[m.ID] = m.ID + " has no figures left"
		case b.table.SpentNow(o, m.ID, m.Side, []string{m.ID}, "units", sides, b.turns.Current()):
		default:
			left, moveWhy := 0.0, ""
			if b.moves {
				left, moveWhy = b.movable(m)
			}
			fireWhy := b.mayFire(m)
			if (left > 0 && moveWhy == "") || fireWhy == "" {
				continue
			}
			if err := b.actCheck(m); err != nil {
				o.Spent[m.ID] = volley.ErrorMessage(err)
			} else {
				o.Spent[m.ID] = fireWhy
			}
		}
	}
}
