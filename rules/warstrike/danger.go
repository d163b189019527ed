package warstrike

import (
	"context"
	"math"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

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
	g, _, err := advise.PriceDanger(q, b.dangerGrid, advise.PlacedWork(b.dangerPointWork))
	if err != nil {
		return nil, err
	}
	m := advise.NewDangerMap(q, g.Lattice, string(g.Unit), "a copy of "+g.Placed.ID, "expected kills")
	m.Notes = []string{"a copy of " + g.Placed.ID + ", its models in the same formation, centred on each point",
		"every enemy unit that may shoot and whose leader sees it fires every armed model that sees it (not in the source: the map's reading of the best plan against a lone unit)",
		"a point where a model would stand on a wall or a feature holds no unit"}
	return m.FilledAt(ctx, scenario.Inches(1).In(g.Unit), func() advise.PlacedAt { return b.newDangerWorker(g.Placed, q.Side).at })
}

// dangerGrid is a danger query checked, and its points laid out: a copy of a unit of the
// battle placed.
type dangerGrid = advise.PlacedGrid[Unit]

func (b *Battle) dangerGrid(q advise.DangerQuery) (dangerGrid, error) {
	tmpl, ok := b.Unit(q.As)
	if err := advise.CheckCopy(q, "warstrike", "a WarStrike map places a copy of a unit of the battle", "models",
		ok, ok && tmpl.Destroyed(), b.unitIDs(), volley.Distinct(b.units, func(u *Unit) string { return u.Side })); err != nil {
		return dangerGrid{}, err
	}
	return advise.LayPlaced(q, b, tmpl, b.unit.OrInch(), scenario.Inches(DefaultDangerStep).In(b.unit.OrInch()))
}

// DangerWork is the work of q's map: its points, each the dangerPointWork of the copy
// placed.
func (b *Battle) DangerWork(q advise.DangerQuery) (int64, error) {
	return advise.DangerWorkOf(q, b.dangerGrid, advise.PlacedWork(b.dangerPointWork))
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
		if e := &b.units[i]; e.Side != side && !e.Destroyed() && b.mayShootNext(e) == "" {
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

// mayShootNext is why enemy unit e may not shoot in its side's next action phase, the
// fire a danger map weighs, or "" (Who Can Shoot?). Outside its side's turn, the markers
// it will begin that phase with are the ones it has now: volley takes none off. Read by
// those it began its last phase with, a unit pinned down since then (its second marker
// given in this turn) was still counted as firing.
func (b *Battle) mayShootNext(e *Unit) string {
	if e.Side == b.turns.Current() {
		return b.whoMayShoot(e, OpenFire)
	}
	next := *e
	next.SuppressionAtStart = e.Suppression
	return b.whoMayShoot(&next, OpenFire)
}

// DangerPlaces lists what a map may place: a copy of any unit with models left.
func (b *Battle) DangerPlaces() []advise.DangerPlace {
	return advise.CopyPlaces(b.units, func(u *Unit) (string, string, string, bool) { return u.ID, u.Name, u.Side, !u.Destroyed() })
}
