package republique

import (
	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// Where units stand: deployment before the battle's first action, how the page moves
// them, and the battle written back as a scenario.

// resolveDeploy places a unit before the battle begins (from edition 5 in its side's
// deployment, before it until the battle's first other action): its bases keep their
// shape, turned to the facing, its centre where the deployment says.
func (b *Battle) resolveDeploy(d *Deploy) (volley.Outcome, error) {
	u := b.Unit(d.Unit)
	var bases []Rect
	var facing float64
	blocked := func() (why string) {
		bases, facing, why = b.deployed(d)
		return why
	}
	return b.table.Deploy(Name, u.Side, u.ID, blocked, func() map[string]any {
		b.follow(u, bases, facing)
		u.Bases, u.Facing = bases, facing
		c := centre(u.Bases)
		return map[string]any{"at": []float64{round3(c.X), round3(c.Y)}, "facing": round3(u.Facing)}
	})
}

// deployed is where a deployment puts a unit's bases, and why it may not ("" when it
// may).
func (b *Battle) deployed(d *Deploy) ([]Rect, float64, string) {
	u := b.Unit(d.Unit)
	if u.Destroyed() {
		return nil, 0, u.ID + " is destroyed"
	}
	facing := u.Facing
	if d.Facing != nil {
		facing = geom.NormDeg(*d.Facing)
	}
	c, turnBy := centre(u.Bases), geom.AngleDiff(u.Facing, facing)
	bases := make([]Rect, len(u.Bases))
	for i, r := range u.Bases {
		r = r.turned(c, turnBy)
		r.Facing = facing
		bases[i] = r.moved(d.At.Sub(c))
	}
	if why := b.inZone(u.Side, bases); why != "" {
		return nil, 0, why
	}
	if why := b.offTable(bases); why != "" {
		return nil, 0, why
	}
	if why := standsOn(bases, b.obstacles(u)); why != "" {
		return nil, 0, "its bases would stand on " + why
	}
	return bases, facing, ""
}

// moveView is how unit u may move now, in the view's unit (k per cm), or nil in a battle
// whose units do not move.
func (b *Battle) moveView(u *Unit, k float64) *volley.MoveView {
	if !b.moves || u.Destroyed() {
		return nil
	}
	left, why, _ := b.movable(u)
	return b.table.MoveView(round3(b.rate(u)*k), round3(b.phase.moved[u.ID]*k), round3(left*k), why)
}

// moveForm is how the page builds a move: a path and a facing, and the fields a
// Republique move takes.
func moveForm() *volley.MoveForm {
	return &volley.MoveForm{Facing: true, Fields: []volley.FieldView{
		{Key: "pivot", Label: "Change of facing", Kind: "select", Options: []string{PivotLeft, PivotRight}, Empty: "in place, about the centre (or wheel on the left or right front corner)"},
		{Key: "formation", Label: "Formation (not batteries)", Kind: "select", Options: []string{string(Line), string(Column), string(Square)}, Empty: "keep"},
		{Key: "limber", Label: "limber first (a battery)", Kind: "flag"},
		{Key: "unlimber", Label: "unlimber at the end (a battery)", Kind: "flag"},
	}}
}

// Fork is a copy of the battle for a "what if": units, leaders, markers and the player
// turn are its own; the charts and the terrain, which no action changes, are shared.
func (b *Battle) Fork() volley.Battle { return b.copy() }

// Placements are where the units and leaders stand now, as a scenario writes them: each
// unit's base centres (positions, in the scenario's unit, in place of at and bases), its
// facing, a unit's formation and a battery's limbered state; each leader's at. A
// destroyed unit keeps its entry as written.
func (b *Battle) Placements() []volley.Placement {
	u := b.unit.OrInch()
	k := scenario.Centimetres(1).In(u)
	var out []volley.Placement
	for i := range b.units {
		m := &b.units[i]
		if m.Destroyed() {
			continue
		}
		pos := make([][2]float64, len(m.Bases))
		for j, r := range m.Bases {
			pos[j] = [2]float64{round3(r.C.X * k), round3(r.C.Y * k)}
		}
		p := volley.Placement{ID: m.ID, Set: map[string]any{"positions": pos, "facing": round3(m.Facing)}, Drop: []string{"at", "bases"}}
		if m.Battery() {
			p.Set["limbered"] = m.Limbered
		} else {
			p.Set["formation"] = string(m.Formation)
		}
		out = append(out, p)
	}
	for i := range b.leaders {
		l := &b.leaders[i]
		out = append(out, volley.Placement{ID: l.ID, Set: map[string]any{"at": [2]float64{round3(l.At.X * k), round3(l.At.Y * k)}}})
	}
	return out
}
