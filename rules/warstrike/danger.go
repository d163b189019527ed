package warstrike

import (
	"context"
	"math"
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

var _ advise.Dangerer = (*Battle)(nil)

// DefaultDangerStep is the spacing of a WarStrike danger map's points unless asked
// otherwise: an inch, since each point looks from every enemy model to every model of the
// unit placed.
const DefaultDangerStep = 1.0

// Danger places a copy of the unit q.As (a unit of the battle: WarStrike has no unit
// types, so the map is for a unit like that one) with its models in the same formation,
// their centre on every point in turn, each model standing on the ground there (on a
// hill's or a building's top). Every enemy unit that may shoot (Who Can Shoot?) and
// whose leader sees it (Select Your Targets) fires every armed model that sees one of its
// models at it: the best plan against a lone target. The value is the chance the whole
// unit is killed, or the models it is expected to lose.
func (b *Battle) Danger(ctx context.Context, q advise.DangerQuery) (*advise.DangerMap, error) {
	tmpl, ok := b.Unit(q.As)
	if !ok {
		return nil, volley.Errorf(volley.EINVALID, "warstrike: as: a WarStrike map places a copy of a unit of the battle: unknown unit %q%s", q.As, scenario.Hint(q.As, b.unitIDs()))
	}
	if tmpl.Destroyed() {
		return nil, volley.Errorf(volley.EINVALID, "warstrike: as: %s has no models left to place", q.As)
	}
	sides := b.sides()
	if !slices.Contains(sides, q.Side) {
		return nil, volley.Errorf(volley.EINVALID, "warstrike: side: no unit is on side %q%s", q.Side, scenario.Hint(q.Side, sides))
	}
	u := b.unit
	if u == "" {
		u = scenario.Inch
	}
	area, step := q.Area, q.Step
	if area == [4]float64{} {
		area = b.Table().Bounds
	}
	if step == 0 {
		step = scenario.Inches(DefaultDangerStep).In(u)
	}
	x0, y0, cols, rows, err := advise.Grid(area, step)
	if err != nil {
		return nil, err
	}
	firing := 0
	for i := range b.units {
		if e := &b.units[i]; e.Side != q.Side {
			for j := range e.Models {
				if e.Models[j].Alive() && b.armed(&e.Models[j]) {
					firing++
				}
			}
		}
	}
	if err := advise.CheckDangerShots(cols*rows, firing*max(1, tmpl.Left())); err != nil {
		return nil, err
	}
	obj := q.Objective
	if obj == "" {
		obj = advise.Destroyed
	}
	m := &advise.DangerMap{Side: q.Side, As: q.As, Placed: "a copy of " + tmpl.ID, Objective: obj, Unit: string(u), Step: step, X0: x0, Y0: y0,
		Cols: cols, Rows: rows, Values: make([]float64, cols*rows), Firers: []string{}}
	m.Scores = "P(destroyed)"
	if obj == advise.Expected {
		m.Scores = "expected kills"
	}
	m.Notes = []string{"a copy of " + tmpl.ID + ", its models in the same formation, centred on each point",
		"every enemy unit that may shoot and whose leader sees it fires every armed model that sees it (not in the source: the map's reading of the best plan against a lone unit)",
		"a point where a model would stand on a wall or a feature holds no unit"}
	perInch := scenario.Inches(1).In(u)
	err = advise.Fill(ctx, m, func() advise.PointFunc {
		d := b.newDangerWorker(tmpl, q.Side)
		return func(c, r int, firers map[string]bool) (float64, error) {
			at := geom.V((x0+float64(c)*step)/perInch, (y0+float64(r)*step)/perInch)
			return d.at(at, obj, firers), nil
		}
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// sides are the battle's sides, in the order its units first name them.
func (b *Battle) sides() []string {
	var out []string
	for i := range b.units {
		if !slices.Contains(out, b.units[i].Side) {
			out = append(out, b.units[i].Side)
		}
	}
	return out
}

// dangerWorker is one core's share of a WarStrike danger map: its own copy of the unit
// placed.
type dangerWorker struct {
	b      *Battle
	placed Unit
	// offsets are each living model's place relative to the formation's centre.
	offsets []geom.Vec
	enemy   []*Unit
	target  advise.Target
	sc      sightScratch
}

func (b *Battle) newDangerWorker(tmpl *Unit, side string) *dangerWorker {
	d := &dangerWorker{b: b, placed: *tmpl}
	d.placed.ID, d.placed.Side = tmpl.ID+" (placed)", side
	d.placed.Models = nil
	var centre geom.Vec
	for i := range tmpl.Models {
		if m := tmpl.Models[i]; m.Alive() {
			d.placed.Models = append(d.placed.Models, m)
			centre = centre.Add(m.At)
		}
	}
	centre = centre.Scale(1 / float64(len(d.placed.Models)))
	for _, m := range d.placed.Models {
		d.offsets = append(d.offsets, m.At.Sub(centre))
	}
	for i := range b.units {
		if e := &b.units[i]; e.Side != side && !e.Destroyed() && b.whoMayShoot(e, OpenFire) == "" {
			d.enemy = append(d.enemy, e)
		}
	}
	d.target = b.adviseTarget(&d.placed)
	return d
}

// at is the value of the placed unit centred on p.
func (d *dangerWorker) at(p geom.Vec, obj advise.ObjectiveKind, firers map[string]bool) float64 {
	b := d.b
	for i := range d.placed.Models {
		m := &d.placed.Models[i]
		m.At = p.Add(d.offsets[i])
		for j := range b.terrain {
			if t := &b.terrain[j]; (t.Kind == Wall || t.Kind == Feature) && t.Poly.Contains(m.At) {
				return math.NaN()
			}
		}
		m.Elevation = b.groundAt(m.At)
	}
	t := &d.placed
	wounds := dice.Const(0)
	for _, e := range d.enemy {
		if l := e.Leader(); l != nil && !b.seesUnit(&d.sc, l, t) {
			continue // Select Your Targets: the leader must see its target
		}
		for i := range e.Models {
			m := &e.Models[i]
			if !m.Alive() || !b.armed(m) {
				continue
			}
			f := b.newFirer(&d.sc, m, true, t)
			n, ph := f.shots(b)
			if n == 0 || !f.sees() {
				continue
			}
			pp, pk := b.throughChances(m, t)
			if ph*pp*pk == 0 {
				continue
			}
			firers[e.ID] = true
			wounds = wounds.Add(dice.Binomial(n, ph*pp*pk)).Cap(d.target.Left)
		}
	}
	dist := advise.Capped(wounds, d.target.Left)
	if obj == advise.Expected {
		v := 0.0
		for w, q := range dist {
			v += float64(d.target.Count[w]) * q
		}
		return v
	}
	return dist[d.target.Left]
}
