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
	g, err := b.dangerGrid(q)
	if err != nil {
		return nil, err
	}
	if _, err := advise.CheckDangerWork(advise.PointsWork(g.cols*g.rows, b.dangerPointWork(g.tmpl, q.Side))); err != nil {
		return nil, err
	}
	tmpl, u, step, x0, y0, cols, rows := g.tmpl, g.u, g.step, g.x0, g.y0, g.cols, g.rows
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
			return d.at(ctx, at, obj, firers)
		}
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// dangerGrid is a danger query checked, and its points laid out.
type dangerGrid struct {
	tmpl         *Unit
	u            scenario.Unit
	step, x0, y0 float64
	cols, rows   int
}

func (b *Battle) dangerGrid(q advise.DangerQuery) (dangerGrid, error) {
	tmpl, ok := b.Unit(q.As)
	if !ok {
		return dangerGrid{}, volley.Errorf(volley.EINVALID, "warstrike: as: a WarStrike map places a copy of a unit of the battle: unknown unit %q%s", q.As, scenario.Hint(q.As, b.unitIDs()))
	}
	if tmpl.Destroyed() {
		return dangerGrid{}, volley.Errorf(volley.EINVALID, "warstrike: as: %s has no models left to place", q.As)
	}
	sides := b.sides()
	if !slices.Contains(sides, q.Side) {
		return dangerGrid{}, volley.Errorf(volley.EINVALID, "warstrike: side: no unit is on side %q%s", q.Side, scenario.Hint(q.Side, sides))
	}
	g := dangerGrid{tmpl: tmpl, u: b.unit}
	if g.u == "" {
		g.u = scenario.Inch
	}
	area, step := q.Area, q.Step
	if area == [4]float64{} {
		area = b.Table().Bounds
	}
	if step == 0 {
		step = scenario.Inches(DefaultDangerStep).In(g.u)
	}
	var err error
	g.step = step
	g.x0, g.y0, g.cols, g.rows, err = advise.Grid(area, step)
	return g, err
}

// DangerWork is the work of q's map: its points, each the dangerPointWork of the copy
// placed.
func (b *Battle) DangerWork(q advise.DangerQuery) (int64, error) {
	g, err := b.dangerGrid(q)
	if err != nil {
		return 0, err
	}
	return advise.CheckDangerWork(advise.PointsWork(g.cols*g.rows, b.dangerPointWork(g.tmpl, q.Side)))
}

// dangerPointWork is the work of one point of a danger map, priced as Cost prices an
// action: each model of the copy placed on the ground, tested against every wall and
// feature; every enemy leader's look at each of its models, and every armed enemy
// model's look at each (lookCost), then its dice added in.
func (b *Battle) dangerPointWork(tmpl *Unit, side string) int64 {
	placed := int64(max(1, tmpl.Left()))
	vertices := int64(0)
	for i := range b.terrain {
		vertices += int64(len(b.terrain[i].Poly)) + 1
	}
	looks, shots := int64(0), int64(0)
	for i := range b.units {
		e := &b.units[i]
		if e.Side == side || e.Destroyed() {
			continue
		}
		looks++ // the leader's
		for j := range e.Models {
			if m := &e.Models[j]; m.Alive() && b.armed(m) {
				looks++
				if w := b.tables.Weapons[m.Weapon]; w != nil {
					shots += int64(w.Shots)
				}
			}
		}
	}
	return placed*(2*vertices) + looks*placed*b.lookCost() + shots*placed
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

// at is the value of the placed unit centred on p. It checks ctx at every enemy unit, so
// that a map stops within a unit's work of its deadline.
func (d *dangerWorker) at(ctx context.Context, p geom.Vec, obj advise.ObjectiveKind, firers map[string]bool) (float64, error) {
	b := d.b
	for i := range d.placed.Models {
		m := &d.placed.Models[i]
		m.At = p.Add(d.offsets[i])
		for j := range b.terrain {
			if t := &b.terrain[j]; (t.Kind == Wall || t.Kind == Feature) && t.Poly.Contains(m.At) {
				return math.NaN(), nil
			}
		}
		m.Elevation = b.groundAt(m.At)
	}
	t := &d.placed
	wounds := dice.Const(0)
	for _, e := range d.enemy {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
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
		return v, nil
	}
	return dist[d.target.Left], nil
}

var _ advise.DangerPlacer = (*Battle)(nil)

// DangerPlaces lists what a map may place: a copy of any unit with models left.
func (b *Battle) DangerPlaces() []advise.DangerPlace {
	var out []advise.DangerPlace
	for i := range b.units {
		if u := &b.units[i]; !u.Destroyed() {
			label := u.Name
			if label == "" {
				label = u.ID
			}
			out = append(out, advise.DangerPlace{As: u.ID, Label: label, Side: u.Side})
		}
	}
	return out
}
