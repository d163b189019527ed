package republique

import (
	"fmt"
	"math"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// State lists every unit and battery with its bases, morale and pending hits, every
// skirmish marker and every leader, and where the player turn stands.
func (b *Battle) State() volley.State {
	p := &b.phase
	s := volley.State{Units: []volley.UnitState{}}
	if len(p.order) > 0 {
		s.Turn = &volley.Turn{Side: b.phasing(), Phase: string(p.step), Number: p.number, Done: append([]string{}, p.done...), End: map[string]any{"type": KindEndStep}}
	}
	if p.window != nil {
		s.Turn = b.windowTurn()
	}
	s.Turn = rules.TurnState(s.Turn, &b.table)
	flag := func(v bool) float64 {
		if v {
			return 1
		}
		return 0
	}
	for i := range b.units {
		u := &b.units[i]
		pend := b.pendingFor(u.ID)
		v := map[string]float64{"bases": float64(u.Start), "bases_left": float64(len(u.Bases)), "morale": float64(u.Morale),
			"pending_morale_hits": float64(pend.Morale), "pending_base_hits": float64(pend.Bases)}
		if n := p.panic[u.ID]; n > 0 {
			v["panic_hits"] = float64(n)
		}
		if u.Battery() {
			v["damaged"], v["saved_fire"], v["limbered"] = flag(u.Damaged), flag(u.SavedFire), flag(u.Limbered)
		}
		if b.moves {
			// What the unit has moved of its rate this player turn, in the scenario's
			// unit; a battery's stationary (saving fire) and prolonged (simultaneous fire).
			if rate := b.rate(u); rate > 0 {
				k := b.perCm()
				v["move"], v["moved"] = round3(rate*k), round3(p.moved[u.ID]*k)
			}
			if u.Battery() {
				v["stationary"] = flag(!u.Moved)
				if b.movement.prolonge > 0 {
					v["prolonged"] = flag(p.prolonged[u.ID] > 0)
				}
			}
		}
		if u.Deployed > 0 {
			v["deployed"] = float64(u.Deployed)
		}
		s.Units = append(s.Units, volley.UnitState{ID: u.ID, Name: u.Name, Side: u.Side, Values: v, Destroyed: u.Destroyed()})
	}
	for i := range b.markers {
		m := &b.markers[i]
		v := map[string]float64{"opposed": flag(b.opposedBy(m.ID) != "")}
		s.Units = append(s.Units, volley.UnitState{ID: m.ID, Name: "skirmishers of " + m.Parent, Side: m.Side, Values: v})
	}
	for i := range b.leaders {
		l := &b.leaders[i]
		v := map[string]float64{"rating": float64(l.Rating), "injured": flag(l.Gone == Injured), "killed": flag(l.Gone == Killed)}
		s.Units = append(s.Units, volley.UnitState{ID: l.ID, Name: l.Name, Side: l.Side, Values: v, Destroyed: l.Gone != ""})
	}
	return s
}

// MoraleLadder is the ladder of morale states, best first: the page names a unit's
// "morale" value with it.
func (b *Battle) MoraleLadder() []string { return b.ladder }

// Table is the table for drawing, in the scenario's unit: every base as a rectangle,
// markers and leaders, and for each battery able to fire its arc of fire, its frontage
// zone and centre of fire towards its main target, and the enfilade arc it is measured
// against.
func (b *Battle) Table() volley.TableView {
	u := b.unit.OrInch()
	k := scenario.Centimetres(1).In(u) // view units per cm
	pt := func(p geom.Vec) [2]float64 { return [2]float64{round3(p.X * k), round3(p.Y * k)} }
	poly := func(ps []geom.Vec) [][2]float64 {
		out := make([][2]float64, len(ps))
		for i, p := range ps {
			out[i] = pt(p)
		}
		return out
	}
	rect := func(r Rect) [4][2]float64 {
		c := r.Corners()
		return [4][2]float64{pt(c[0]), pt(c[1]), pt(c[2]), pt(c[3])}
	}
	v := volley.TableView{Unit: string(u), Measured: "edge", Terrain: []volley.TablePiece{}}
	for _, t := range b.terrain {
		if t.Poly == nil {
			// An obstacle: drawn as a thin band along its line.
			for i := 0; i+1 < len(t.Line); i++ {
				v.Overlays = append(v.Overlays, volley.Overlay{Kind: "obstacle", Label: t.ID, Points: poly([]geom.Vec{t.Line[i], t.Line[i+1]})})
			}
			continue
		}
		label := t.Cover.String()
		if t.Level > 0 {
			label = fmt.Sprintf("level %d", t.Level)
		}
		v.Terrain = append(v.Terrain, volley.TablePiece{ID: t.ID + " (" + label + ")", Polygon: poly(t.Poly), Height: float64(t.Level), BlocksLOS: false})
	}
	for i := range b.units {
		m := &b.units[i]
		nm := m.Name
		if nm == "" {
			nm = m.ID
		}
		tu := volley.TableUnit{ID: m.ID, Name: nm, Side: m.Side, Weapons: []volley.WeaponView{}, Destroyed: m.Destroyed(), Move: b.moveView(m, k)}
		facing := m.Facing
		tu.Facing = &facing
		var c geom.Vec
		for _, r := range m.Bases {
			tu.Bases = append(tu.Bases, rect(r))
			c = c.Add(r.C)
		}
		if len(m.Bases) > 0 {
			c = c.Scale(1 / float64(len(m.Bases)))
			tu.Placed = true
			tu.X, tu.Y = pt(c)[0], pt(c)[1]
		}
		if m.Battery() && b.charts != nil {
			w := volley.WeaponView{Name: m.Gun}
			for _, br := range b.charts.Ranges[m.Gun] {
				w.Ranges = append(w.Ranges, volley.RangeView{Name: br.Name, Reach: round3(br.To.In(u))})
			}
			tu.Weapons = append(tu.Weapons, w)
		}
		v.Units = append(v.Units, tu)
	}
	for i := range b.markers {
		m := &b.markers[i]
		facing := m.R.Facing
		v.Units = append(v.Units, volley.TableUnit{ID: m.ID, Name: "skirmishers of " + m.Parent, Side: m.Side, Placed: true,
			X: pt(m.R.C)[0], Y: pt(m.R.C)[1], Facing: &facing, Bases: [][4][2]float64{rect(m.R)}, Weapons: []volley.WeaponView{}})
	}
	for i := range b.leaders {
		l := &b.leaders[i]
		nm := l.Name
		if nm == "" {
			nm = l.ID
		}
		v.Units = append(v.Units, volley.TableUnit{ID: l.ID, Name: nm + " (leader)", Side: l.Side, Placed: true, X: pt(l.At)[0], Y: pt(l.At)[1],
			Base: round3(1.5 * k), Weapons: []volley.WeaponView{}, Destroyed: l.Gone != ""})
	}
	if b.charts != nil {
		v.Overlays = append(v.Overlays, b.batteryOverlays(poly)...)
	}
	v.Declare = volley.DeclareView{Title: "Artillery and skirmish fire", FirerLabel: "Battery or skirmish marker", Verb: "Fire", Rows: "single", TargetKey: "target",
		Help:    "A battery fires at its main target unless you click another unit (aim says why the rules forbid it); a skirmish marker needs a target. Fire in a step takes effect when the step ends.",
		Choices: []volley.ChoiceView{}, Values: map[string][]string{"morale": b.ladder}}
	for i := range b.units {
		m := &b.units[i]
		if m.Battery() && !m.Destroyed() {
			v.Declare.Choices = append(v.Declare.Choices, volley.ChoiceView{Label: fmt.Sprintf("%s (%s)", name(m), m.Side), Side: m.Side, Units: []string{m.ID},
				Action: map[string]any{"type": KindFire, "batteries": []string{m.ID}}})
		}
	}
	for i := range b.markers {
		m := &b.markers[i]
		v.Declare.Choices = append(v.Declare.Choices, volley.ChoiceView{Label: fmt.Sprintf("skirmishers %s (%s)", m.ID, m.Side), Side: m.Side, Units: []string{m.ID},
			Action: map[string]any{"type": KindSkirmish, "marker": m.ID}, NeedsTarget: true})
	}
	v.Columns = []volley.ColumnView{
		{Label: "bases", Key: "bases_left", Of: "bases"},
		{Label: "morale", Key: "morale", Levels: b.ladder},
		{Label: "pending", Help: "hits that take effect when the step ends", Flags: []volley.FlagView{
			{Key: "pending_base_hits", Label: "base hits", Count: true}, {Key: "pending_morale_hits", Label: "morale hits", Count: true},
			{Key: "panic_hits", Label: "panic hits", Count: true}}},
		{Label: "state", Flags: []volley.FlagView{{Key: "damaged", Label: "damaged"}, {Key: "limbered", Label: "limbered"},
			{Key: "saved_fire", Label: "saved fire"}, {Key: "deployed", Label: "deployed", Count: true}, {Key: "opposed", Label: "opposed"},
			{Key: "injured", Label: "injured"}, {Key: "killed", Label: "killed"}}},
		{Label: "rating", Key: "rating", Help: "a leader's rating"},
	}
	if b.moves {
		// Units move by dragging: a path, a facing and the fields of a Republique move.
		v.Moves = moveForm()
		b.table.View(&v)
		v.Declare.Help = "Drag a unit to move it in your maneuver step. " + v.Declare.Help
		v.Columns = append(v.Columns, volley.ColumnView{Label: "moved", Key: "moved", Of: "move", Help: "of its rate this player turn"},
			volley.ColumnView{Label: "movement", Flags: []volley.FlagView{{Key: "prolonged", Label: "prolonged"}}})
		if w := b.phase.window; w != nil {
			// Play waits on a passing fire: the batteries that may fire, at the mover.
			v.Declare.Help = fmt.Sprintf("Passing fire: %s moved across the front of %s. Fire at it, or decline to let %s go on.", w.mover, strings.Join(w.offered, ", "), b.phasing())
			v.Declare.Choices = v.Declare.Choices[:0]
			for _, id := range w.offered {
				bat := b.Unit(id)
				v.Declare.Choices = append(v.Declare.Choices, volley.ChoiceView{Label: fmt.Sprintf("%s (%s): passing fire at %s", name(bat), bat.Side, w.mover), Side: bat.Side,
					Units: []string{id}, Action: map[string]any{"type": KindPassing, "batteries": []string{id}, "target": w.mover}})
			}
		}
	}
	v.FitBounds()
	return v
}

// batteryOverlays are each battery's arc of fire and, towards its main target, its
// frontage zone, centre of fire and the enfilade arc.
func (b *Battle) batteryOverlays(poly func([]geom.Vec) [][2]float64) []volley.Overlay {
	var out []volley.Overlay
	for i := range b.units {
		bat := &b.units[i]
		if !bat.Battery() || bat.Destroyed() {
			continue
		}
		depth := b.charts.maxRange(bat.Gun)
		out = append(out, volley.Overlay{Owner: bat.ID, Kind: "arc", Label: "60° arc of fire", Points: poly(bat.arc().Outline(depth))})
		cs := b.candidates(bat)
		if len(cs) == 0 {
			continue
		}
		t := cs[0].u
		z := b.zoneAt(bat, t)
		line := z.Line()
		out = append(out,
			volley.Overlay{Owner: bat.ID, Kind: "zone", Label: "frontage zone", Points: poly(z.Outline())},
			volley.Overlay{Owner: bat.ID, Kind: "line", Label: fmt.Sprintf("centre of fire → main target %s", t.ID), Points: poly([]geom.Vec{line.A, line.B})})
		if _, arc := b.enfilade(bat, t); arc != nil {
			reachOut := math.Max(20, cs[0].dist*1.5)
			out = append(out, volley.Overlay{Owner: bat.ID, Kind: "enfilade", Label: "enfilade arc of " + t.ID, Points: poly(arc.Outline(reachOut))})
		}
	}
	return out
}
