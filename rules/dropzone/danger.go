package dropzone

import (
	"context"
	"math"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// DefaultDangerStep is the spacing of a danger map's points unless asked otherwise: half
// an inch, a third of the smallest common base.
const DefaultDangerStep = 0.5

// Danger places a unit of type q.As on every point in turn and works out, with the
// checks Aim makes (arc, line of sight with hull down, countered or full range), which
// weapons of the other sides could fire at it, and so what their best plan does to it:
// every such weapon firing at it, none having moved. The points are shared among the
// machine's cores; each is computed alone, so the map does not depend on how many.
func (b *Battle) Danger(ctx context.Context, q advise.DangerQuery) (*advise.DangerMap, error) {
	g, _, err := advise.PriceDanger(q, b.dangerGrid, advise.PlacedWork(b.dangerPointWork))
	if err != nil {
		return nil, err
	}
	m := advise.NewDangerMap(q, g.Lattice, string(g.Unit), "a "+q.As, "expected damage")
	m.Notes = []string{"the firers have not moved (M&F limits none of their weapons)", "a point inside solid terrain holds no unit"}
	return m.FilledAt(ctx, scenario.Inches(1).In(g.Unit), func() advise.PlacedAt {
		d := b.newDangerWorker(g.Placed, q.Side)
		if like, ok := b.Unit(q.Like); ok && like.Type == g.Placed {
			d.like(like)
		}
		return d.at
	})
}

// dangerGrid is a danger query checked, and its points laid out: a unit of a type placed.
type dangerGrid = advise.PlacedGrid[UnitType]

func (b *Battle) dangerGrid(q advise.DangerQuery) (dangerGrid, error) {
	t, ok := b.types[q.As]
	if !ok {
		return dangerGrid{}, volley.Errorf(volley.EINVALID, "dropzone: as: unknown unit type %q%s", q.As, scenario.Hint(q.As, typeNames(b.types)))
	}
	if err := advise.CheckSide("dropzone", q.Side, b.sides()); err != nil {
		return dangerGrid{}, err
	}
	if t.DamagePoints < 1 {
		return dangerGrid{}, volley.Errorf(volley.EINVALID, "dropzone: as: a %s has no damage points to lose", q.As)
	}
	return advise.LayPlaced(q, b, t, b.unit.OrInch(), scenario.Inches(DefaultDangerStep).In(b.unit.OrInch()))
}

// DangerWork is the work of q's map: its points, each the dangerPointWork of the placed
// unit.
func (b *Battle) DangerWork(q advise.DangerQuery) (int64, error) {
	return advise.DangerWorkOf(q, b.dangerGrid, advise.PlacedWork(b.dangerPointWork))
}

// dangerPointWork is the work of one point of a danger map, priced as Cost prices an
// action: the point tested against every piece of solid terrain, then for every enemy
// weapon a trace of line of sight from each of its eye points, the declaration's
// checks, and the convolutions of its damage into the placed unit's.
func (b *Battle) dangerPointWork(t *UnitType, side string) int64 {
	work := int64(0)
	for _, tr := range b.terrain {
		if tr.BlocksLOS {
			work += int64(len(tr.Footprint)) + 1
		}
	}
	trace := b.traceWork()
	dp := int64(t.DamagePoints)
	for i := range b.units {
		f := &b.units[i]
		if f.Side == side || f.Destroyed() {
			continue
		}
		for wi := range f.Type.Weapons {
			w := &f.Type.Weapons[wi]
			shots := int64(w.Shots.Max())
			most := min(shots*int64(CriticalDamage+min(w.Devastator(), MaxDevastator)), dp)
			work += int64(len(b.eyes(f, w)))*trace + declarationWork + convolutionWork*((shots+1)+(dp+1)*(most+1))
		}
	}
	return work
}

// sides are the sides of the battle, in the order units first name them.
func (b *Battle) sides() []string { return b.distinct(func(u *Unit) string { return u.Side }) }

// dangerWorker is one core's share of a danger map: its own placed unit, its own traces,
// the scene shared read-only.
type dangerWorker struct {
	b       *Battle
	placed  Unit
	sight   sight
	act     Shooting
	firers  []*Unit
	solid   []geom.Polygon
	d, tmp  []float64
	effects map[effectKey][]float64
}

// effectKey is a weapon's damage on the placed unit: it depends on the weapon and the
// to-hit chance (hull down changes it), not on where the unit stands.
type effectKey struct {
	w    *Weapon
	phit float64
}

func (b *Battle) newDangerWorker(t *UnitType, side string) *dangerWorker {
	d := &dangerWorker{b: b, placed: Unit{ID: advise.PlacedID, Type: t, Side: side, DamagePoints: t.DamagePoints},
		sight: *b.newSight(fewTraces),
		act:   Shooting{Moved: map[string]float64{}}, d: make([]float64, t.DamagePoints+1), tmp: make([]float64, t.DamagePoints+1),
		effects: map[effectKey][]float64{}}
	for i := range b.units {
		if f := &b.units[i]; f.Side != side && !f.Destroyed() && len(f.Type.Weapons) > 0 {
			d.firers = append(d.firers, f)
		}
	}
	for _, tr := range b.terrain {
		if tr.BlocksLOS {
			d.solid = append(d.solid, tr.Footprint)
		}
	}
	return d
}

// like makes the unit the worker places one like u: its damage taken.
func (d *dangerWorker) like(u *Unit) {
	d.placed.DamagePoints = u.DamagePoints
	d.d, d.tmp = d.d[:u.DamagePoints+1], d.tmp[:u.DamagePoints+1]
}

// newDangerWorkerLike is a worker that places a unit like u (its type, side and damage
// taken).
func (b *Battle) newDangerWorkerLike(u *Unit) *dangerWorker {
	d := b.newDangerWorker(u.Type, u.Side)
	d.like(u)
	return d
}

// at is the value of one point. It checks ctx at every firer, so that a map stops
// within a firer's work of its deadline.
func (d *dangerWorker) at(ctx context.Context, p geom.Vec, obj advise.ObjectiveKind, firers map[string]bool) (float64, error) {
	for _, s := range d.solid {
		if s.Contains(p) {
			return math.NaN(), nil
		}
	}
	d.placed.At = p
	d.sight.few, d.sight.seen = d.sight.few[:0], nil // the placed unit moved: forget its traces
	clear(d.d)
	d.d[0] = 1
	for _, f := range d.firers {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		for wi := range f.Type.Weapons {
			w := &f.Type.Weapons[wi]
			s := shot{shooter: f, target: &d.placed, weapon: w}
			d.b.check(&d.act, &s, &d.sight)
			if !s.ok() {
				continue
			}
			firers[f.ID] = true
			e := d.effect(&s)
			advise.Convolve(d.tmp, d.d, e)
			d.d, d.tmp = d.tmp, d.d
		}
	}
	return advise.DangerValue(obj, d.d, d.placed.DamagePoints), nil
}

// effect is a weapon's damage on the placed unit, worked out once per chance to hit.
func (d *dangerWorker) effect(s *shot) []float64 {
	k := effectKey{s.weapon, s.aim.PHit}
	if e, ok := d.effects[k]; ok {
		return e
	}
	_, damage := declarationOdds(s)
	e := advise.Capped(damage, d.placed.DamagePoints)
	d.effects[k] = e
	return e
}

// DangerPlaces lists what a map may place: every unit type with damage points, those of
// the battle's units first, each with the side of the first unit of it (none for a type
// no unit has).
func (b *Battle) DangerPlaces() []advise.DangerPlace {
	return advise.TypePlaces(b.units, b.types, func(u *Unit) (string, string) { return u.Type.Name, u.Side },
		func(t *UnitType) bool { return t.DamagePoints >= 1 })
}
