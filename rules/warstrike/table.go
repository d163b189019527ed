package warstrike

import (
	"fmt"
	"math"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/scenario"
)

// sightCircleSides is how many sides the drawn sight distance circle has.
const sightCircleSides = 48

// Table is the table for drawing: every model on its round base with its weapon's
// range, every piece of terrain with its height (area terrain does not block the
// standard test), and around each model that may shoot the distance within which it
// sees into area terrain. A target is a unit: pointing at a model aims at its unit, and
// the aim is a line of sight per firing model and target model.
func (b *Battle) Table() volley.TableView {
	u := b.unit.OrInch()
	in := func(x float64) float64 { return scenario.Inches(x).In(u) }
	v := volley.TableView{Unit: string(u), Measured: "edge", Terrain: []volley.TablePiece{}}
	if b.opts.distance == DistanceCentre {
		v.Measured = "centre"
	}
	for i := range b.terrain {
		t := &b.terrain[i]
		pts := make([][2]float64, len(t.Poly))
		for j, p := range t.Poly {
			pts[j] = [2]float64{in(p.X), in(p.Y)}
		}
		piece := volley.TablePiece{ID: t.ID, Polygon: pts, Height: in(t.Top()), BlocksLOS: t.Kind != Area}
		for _, f := range t.Floors {
			l := volley.TableLevel{Height: in(f.Height)}
			if !f.Whole {
				for _, p := range f.Poly {
					l.Polygon = append(l.Polygon, [2]float64{in(p.X), in(p.Y)})
				}
			}
			piece.Levels = append(piece.Levels, l)
		}
		v.Terrain = append(v.Terrain, piece)
	}
	for i := range b.units {
		un := &b.units[i]
		name := un.Name
		if name == "" {
			name = un.ID
		}
		for j := range un.Models {
			m := &un.Models[j]
			label := name
			if m.Leader {
				label += " (leader)"
			}
			tu := volley.TableUnit{ID: m.ID, Name: label, Side: un.Side, Squad: un.ID, Placed: !m.Dead,
				X: in(m.At.X), Y: in(m.At.Y), Base: in(m.Base), Weapons: []volley.WeaponView{}, Destroyed: !m.Alive(), Move: b.moveView(un, m, in)}
			if w := b.tables.Weapons[m.Weapon]; w != nil {
				wv := volley.WeaponView{Name: m.Weapon}
				if lr := b.tables.LongRange; lr != nil && lr.Beyond < 1 {
					wv.Ranges = append(wv.Ranges, volley.RangeView{Name: "short", Reach: in(lr.Beyond * w.Range.Inches())})
				}
				wv.Ranges = append(wv.Ranges, volley.RangeView{Name: "range", Reach: in(w.Range.Inches())})
				tu.Weapons = append(tu.Weapons, wv)
			}
			v.Units = append(v.Units, tu)
			if m.Alive() {
				d := AreaSightDistance + ElevationBonus*fullSteps(m.Elevation)
				v.Overlays = append(v.Overlays, volley.Overlay{Owner: m.ID, Kind: "sight",
					Label:  fmt.Sprintf("%s sees into area terrain to %s", m.ID, b.length(d)),
					Points: circle(in(m.At.X), in(m.At.Y), in(d+m.Base/2))})
			}
		}
	}
	names := make([]string, len(AllActions)+1)
	names[0] = "none"
	for i, a := range AllActions {
		names[i+1] = a.Title()
	}
	shooting := make([]string, len(ShootingActions))
	for i, a := range ShootingActions {
		shooting[i] = string(a)
	}
	v.Declare = volley.DeclareView{Title: "Shooting", FirerLabel: "Unit", Prompt: "— choose a unit —", Verb: "Shoot",
		Rows: "targets", RowsKey: "targets", TargetKey: "unit", TargetSquad: true, SightLines: true,
		Help:    "Point at an enemy model to see every line of sight to its unit; click it to add or remove its unit as a target (two with a leader, one without).",
		Choices: []volley.ChoiceView{},
		Fields:  []volley.FieldView{{Key: "as", Label: "action", Kind: "select", Options: shooting, Empty: "as chosen (open fire)"}},
		Values:  map[string][]string{"action": names}}
	if b.moves {
		// The action is chosen with the move, and a shot is taken as it: the page drags
		// models, and states nothing.
		all := make([]string, len(AllActions))
		for i, a := range AllActions {
			all[i] = string(a)
		}
		v.Moves = &volley.MoveForm{Fields: []volley.FieldView{{Key: "action", Label: "action", Kind: "select", Options: all, Empty: "as chosen"}}}
		if b.hasFloors() {
			// From edition 5 a model climbs to a floor, or down from one, where it stops.
			v.Moves.Fields = append(v.Moves.Fields, volley.FieldView{Key: "elevation", Label: "climb to (elevation)", Kind: "number"})
		}
		b.table.View(&v)
		v.Declare.Fields = nil
		v.Declare.Help = "Drag a model to move it, choosing its unit's action with its first move; point at an enemy model to see every line of sight to its unit; click it to add or remove its unit as a target (two with a leader, one without)."
	}
	for i := range b.units {
		un := &b.units[i]
		if un.Destroyed() {
			continue
		}
		var ids []string
		for j := range un.Models {
			if un.Models[j].Alive() {
				ids = append(ids, un.Models[j].ID)
			}
		}
		name := un.Name
		if name == "" {
			name = un.ID
		}
		note := b.choiceNote(un)
		v.Declare.Choices = append(v.Declare.Choices, volley.ChoiceView{Label: name + " (" + un.Side + ")", Side: un.Side, Units: ids,
			Action: map[string]any{"unit": un.ID}, Count: len(ids), Note: note})
	}
	v.Columns = []volley.ColumnView{
		{Label: "models", Key: "models_left", Of: "models"},
		{Label: "action", Key: "action", Levels: names},
		{Label: "suppression", Key: "suppression"},
		{Label: "state", Flags: []volley.FlagView{{Key: "marked_dead", Label: "marked dead", Count: true}}},
	}
	v.FitBounds()
	return v
}

// choiceNote says what a unit brings to a shooting action, or why it cannot shoot.
func (b *Battle) choiceNote(u *Unit) string {
	as := u.Action
	if as == "" {
		as = OpenFire
	}
	if why := b.whoMayShoot(u, as); why != "" {
		return "Cannot shoot: " + why
	}
	var parts []string
	leader := "no leader: one target"
	if l := u.Leader(); l != nil {
		leader = "leader " + l.ID + ": up to two targets"
	}
	parts = append(parts, fmt.Sprintf("%d models", u.Left()), leader, fmt.Sprintf("%d suppression markers", u.Suppression))
	if u.Action != "" {
		parts = append(parts, "chose "+u.Action.Title())
	}
	return strings.Join(parts, "; ") + "."
}

// circle is a polygon round (x, y) of radius r.
func circle(x, y, r float64) [][2]float64 {
	pts := make([][2]float64, sightCircleSides)
	for i := range pts {
		a := 2 * math.Pi * float64(i) / sightCircleSides
		pts[i] = [2]float64{math.Round((x+r*math.Cos(a))*1000) / 1000, math.Round((y+r*math.Sin(a))*1000) / 1000}
	}
	return pts
}
