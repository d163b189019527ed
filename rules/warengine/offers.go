package warengine

import (
	"fmt"
	"slices"

	"github.com/volley-wargames/volley"
)

// Offers are what the side whose turn it is may do now (volley.Offers), phase by phase:
// while the sides deploy, the deploying side's deployments (a square [column, row] for
// the unit's top-left square, within its zone); in Phase I a move for each unit that may
// step or turn; in the target phase a declaration for each weapon of a unit's group (or
// of any group before it has chosen: the first declared chooses it), a clearing of each
// declared target, a change of group; in the fire phase a fire for each declared target
// of a unit not stunned; and in every phase its end.
func (b *Battle) Offers() volley.Offers {
	o, deploying := b.table.OpenOffers(b.moves, b.deployOffers)
	if deploying {
		b.spent(&o)
		return o
	}
	if len(b.sides) == 0 {
		return o
	}
	side := b.side
	if !slices.Contains(o.Acting, side) {
		o.Acting = append(o.Acting, side)
	}
	var enemies []string
	for i := range b.units {
		if u := &b.units[i]; u.Side != side && !u.Destroyed() {
			enemies = append(enemies, u.ID)
		}
	}
	add := func(typ OrderType, label, help string, actors []volley.Actor, fields []volley.Field) {
		if len(actors) > 0 {
			of := volley.Offer{Side: side, Type: string(typ), Label: label, Action: map[string]any{"type": string(typ)},
				Key: "unit", Actors: actors, Fields: fields, Help: help}
			if typ == Move {
				of.AnyOf = []string{"path", "facing"} // a move steps, turns, or both
			}
			o.Offers = append(o.Offers, of)
		}
	}
	var moves, declares, clears, groups, fires []volley.Actor
	for i := range b.units {
		u := &b.units[i]
		if u.Side != side || u.Destroyed() {
			continue
		}
		actor := func(fields ...volley.Field) volley.Actor {
			return volley.Actor{ID: u.ID, Label: u.label(), Action: map[string]any{"unit": u.ID}, Fields: fields}
		}
		switch b.phase {
		case PhaseMove:
			if !b.moves {
				continue
			}
			a := actor()
			if left, why := b.movable(u); why == "" && left > 0 {
				a.Fields = []volley.Field{b.pathField(u, left)}
			}
			moves = append(moves, a)
		case PhaseTarget:
			var weapons []string
			for j := range u.Type.Weapons {
				l := &u.Type.Weapons[j]
				if u.Group != 0 && l.Group != u.Group {
					continue
				}
				// A weapon whose envelope holds no square of the map (facing off its
				// edge) could only be refused: a declaration that can do nothing.
				if _, ok := b.correct(b.newShot(u, l, u.mount(l), false), u.mount(l)); !ok {
					continue
				}
				weapons = append(weapons, l.Name())
			}
			if len(weapons) > 0 {
				target := volley.UnitField("target", "target", enemies)
				target.Squares = true
				declares = append(declares, actor(volley.SelectField("weapon", "weapon", weapons...), target))
			}
			if d := u.declaredNames(); len(d) > 0 {
				clears = append(clears, actor(volley.SelectField("weapon", "weapon", d...)))
			}
			// A change to another group of the unit's; a unit that has chosen none may
			// name its one group too (the advisor's plans begin so).
			var gs []volley.Option
			for _, l := range u.Type.Weapons {
				if l.Group != u.Group && !slices.ContainsFunc(gs, func(g volley.Option) bool { return g.Value == l.Group }) {
					gs = append(gs, volley.Option{Value: l.Group, Label: fmt.Sprintf("group %d", l.Group)})
				}
			}
			if len(gs) > 0 {
				groups = append(groups, actor(volley.Field{Key: "group", Label: "group", Kind: volley.FieldSelect, Options: gs}))
			}
		case PhaseFire:
			if d := u.declaredNames(); len(d) > 0 && !u.Stunned {
				fires = append(fires, actor(volley.SelectField("weapon", "weapon", d...)))
			}
		}
	}
	add(Move, "Move", "A unit steps square by square (its top-left square, one step at a time, diagonals too) as far as its move, and may turn; a unit that moves does not aim this turn. Give a path, a facing, or both.",
		moves, []volley.Field{volley.FacingField(FacingStep)})
	add(Declare, "Declare a target", "A weapon of the unit's group aims at a square, or at a unit (its centre square); a square outside the weapon's range or arc is corrected to the nearest inside. Friendly: the target may hold a friend.",
		declares, []volley.Field{friendlyField()})
	add(Clear, "Clear a target", "The weapon's declared target is dropped.", clears, nil)
	add(Group, "Choose a group", "The unit fires this weapon group this turn; targets of other groups are cleared.", groups, nil)
	add(Fire, "Fire", "A weapon fires at its declared target.", fires, nil)
	ends, label := volley.EndsPhase, "End the "+string(b.phase)+" phase"
	if b.phase == PhaseFire {
		ends = volley.EndsTurn
	}
	o.Offers = append(o.Offers, volley.EndOffer(side, string(EndPhase), label, ends))
	b.spent(&o)
	return o
}

// friendlyField is a declaration's flag that its square may hold a friend: the source's
// shift-click, which lets a unit target a square with a friendly unit on it.
func friendlyField() volley.Field {
	return volley.Field{Key: "friendly", Label: "a friend may be the target", Kind: volley.FieldFlag, Optional: true}
}

// aimForm is how a page asks the aim and the odds of a unit's weapon at a square in any
// phase (volley.BoardView.Aim): a fire order with a target of its own, the "what if it
// fired there" that Aim and Odds answer and Resolve never takes. Its weapon is one of
// the unit's (the board's weapons by name), its target a square or a unit.
func aimForm() *volley.Offer {
	target := volley.UnitField("target", "target", nil)
	target.Squares = true
	return &volley.Offer{Type: string(Fire), Label: "Aim", Action: map[string]any{"type": string(Fire)}, Key: "unit",
		Fields: []volley.Field{{Key: "weapon", Label: "weapon", Kind: volley.FieldSelect}, target, friendlyField()},
		Help:   "What a weapon of the unit would do fired at a square: asked of the aim and the odds in any phase, never sent as an action (a shot is declared in the target phase and fired in the fire phase)."}
}

// label is how an offer names the unit.
func (u *Unit) label() string { return volley.Label(u.Name, u.ID) }

// declaredNames are the weapons the unit has declared a target for.
func (u *Unit) declaredNames() []string {
	var out []string
	for _, d := range u.Declared {
		out = append(out, d.Weapon)
	}
	return out
}

// pathField is a move's path of squares from where u's top-left square stands, costing
// at most left of its move.
func (b *Battle) pathField(u *Unit, left int) volley.Field {
	f := volley.PathField(volley.Pt(float64(u.At.X), float64(u.At.Y)), float64(left), "squares")
	f.Grid, f.Optional = true, true
	return f
}

// deployOffers are the deployments the sides may make now (volley.Tabletop.DeployOffers):
// each unit placed at a square [column, row] for its top-left square. It adds the sides
// to o.Acting.
func (b *Battle) deployOffers(o *volley.Offers) []volley.Offer {
	var ds []volley.Deployer
	for i := range b.units {
		u := &b.units[i]
		if u.Destroyed() || b.table.CheckDeploy(u.Side, []string{u.ID}, "units") != nil {
			continue
		}
		a := volley.Actor{ID: u.ID, Label: u.label(), Action: map[string]any{"unit": u.ID}}
		if u.Type.Size > 1 {
			a.Note = fmt.Sprintf("%d×%d squares: at is its top-left square", u.Type.Size, u.Type.Size)
		}
		ds = append(ds, volley.Deployer{Side: u.Side, Actor: a})
	}
	return b.table.DeployOffers(o, ds, func(side string) []volley.Field {
		at := volley.PointField("at", b.table.ZonePoints(side, 1), "squares")
		at.Grid = true
		return []volley.Field{at, volley.FacingField(FacingStep)}
	})
}

// spent says, for each unit that may not act again this turn, why not.
func (b *Battle) spent(o *volley.Offers) {
	for i := range b.units {
		u := &b.units[i]
		switch {
		case u.Destroyed():
			o.Spent[u.ID] = u.ID + " is destroyed"
		case b.table.SpentNow(o, u.ID, u.Side, []string{u.ID}, "units", []string{b.side}, b.side):
		case b.phase == PhaseFire && u.Stunned:
			o.Spent[u.ID] = u.ID + " is stunned: it may not fire this phase"
		case b.phase == PhaseFire && len(u.Declared) == 0:
			o.Spent[u.ID] = u.ID + " has no target left to fire at this turn (targets are declared in the target phase)"
		case b.phase == PhaseTarget && len(u.Type.Weapons) == 0:
			o.Spent[u.ID] = u.ID + " carries no weapon"
		}
	}
}
