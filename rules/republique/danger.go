package republique

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// dangerSteps are the steps, in cm, a map takes by default: the finest whose work the
// budget allows, since a point weighs every enemy battery's whole fire (its arc, main
// target and secondary targets), priced as Cost prices it.
var dangerSteps = []float64{1, 2, 3, 5, 10, 20, 50}

// Danger moves the unit q.As, as a block of bases in its formation (its frontage, depth
// and facing kept), so that its centre stands on every point in turn, and works out the
// other sides' next artillery segment: every enemy battery that may fire fires alone, at
// the unit if the rules let it (the main target rule, or a good artillery leader's
// choice in the closest bracket), else at its main target, which may hurt the unit as a
// tandem or adjacent target. The batteries' base hits add up, as hits of one segment
// do; the value is the chance they destroy the unit, or the base hits it is expected to
// lose. A point where a base would overlap another unit's base or an enemy skirmish
// marker has no value (its own side's markers give way to it, as to a move).
func (b *Battle) Danger(ctx context.Context, q advise.DangerQuery) (*advise.DangerMap, error) {
	g, _, err := advise.PriceDanger(q, b.dangerGrid, b.dangerWork)
	if err != nil {
		return nil, err
	}
	t := g.Placed
	m := advise.NewDangerMap(q, g.Lattice, string(g.Unit), fmt.Sprintf("%s in its formation (%d bases of %s × %s, facing %g°)", t.ID, len(t.Bases), fmtCm(t.W), fmtCm(t.D), math.Round(t.Facing)), "expected base hits")
	m.Notes = []string{"the unit moved, its bases kept in formation and facing, its centre on each point; no other unit moves",
		"the next artillery segment as the table stands: every enemy battery that may fire (not limbered, shaken or silenced) fires alone, none has fired or passed fire yet, and no hit is pending (not in the source: the map's reading of the enemy's next fire)",
		"a point where a base would overlap another unit's base or an enemy skirmish marker holds no unit (its own side's markers give way to it, as to a move)"}
	return m.FilledAt(ctx, scenario.Centimetres(1).In(g.Unit), func() advise.PlacedAt { return b.newDangerWorker(t, q.Side).at })
}

// dangerGrid is a danger query checked, and its points laid out: a unit of the battle
// moved.
type dangerGrid = advise.PlacedGrid[Unit]

func (b *Battle) dangerGrid(q advise.DangerQuery) (dangerGrid, error) {
	t := b.Unit(q.As)
	if err := advise.CheckCopy(q, "republique", "a Republique map moves a unit of the battle, in its formation", "bases",
		t != nil, t != nil && t.Destroyed(), b.unitIDs(), volley.Distinct(b.units, func(u *Unit) string { return u.Side })); err != nil {
		return dangerGrid{}, err
	}
	g := dangerGrid{Placed: t, Side: q.Side, Unit: b.unit.OrInch()}
	lay := func(step float64) error {
		var err error
		g.Lattice, err = advise.LayDanger(q, b, step)
		return err
	}
	if q.Step != 0 {
		return g, lay(q.Step)
	}
	for _, cm := range dangerSteps {
		// Rounded: a step in cm read back in cm is not always the number it was.
		if err := lay(math.Round(scenario.Centimetres(cm).In(g.Unit)*1e9) / 1e9); err != nil {
			continue // too many points at this step
		}
		if w, _ := b.dangerWork(g); w <= volley.MaxHeavyWork {
			break
		}
	}
	return g, nil
}

// DangerWork is the work of q's map: on every point, the unit's bases tested for overlap
// and each enemy battery's fire (dangerWork).
func (b *Battle) DangerWork(q advise.DangerQuery) (int64, error) {
	return advise.DangerWorkOf(q, b.dangerGrid, b.dangerWork)
}

// dangerWork prices a map as Cost prices a fire: on every point, the unit's bases tested
// against every other base and marker, then each enemy battery's fire at the Cost of
// such a fire, twice for a battery a good artillery leader lets choose its target (at
// the unit, and at its main target when it may not). It returns what it counts too.
func (b *Battle) dangerWork(g dangerGrid) (int64, string) {
	others := int64(len(b.markers))
	for i := range b.units {
		others += int64(len(b.units[i].Bases))
	}
	perPoint := int64(len(g.Placed.Bases)) * others * overlapWork
	fires := 0
	for _, bat := range b.dangerBatteries(b, g.Side) {
		n := 1
		if b.qualifiedLeader([]*Unit{bat}) != nil {
			n = 2
		}
		perPoint += int64(n) * b.Cost(&Fire{Batteries: []string{bat.ID}})
		fires += n
	}
	work, why := advise.PointsWork(g.Points(), perPoint)
	return work, fmt.Sprintf("%s, %d fires of enemy batteries a point", why, fires)
}

// overlapWork is one pair of bases tested for overlap.
const overlapWork = 16

// DangerPlaces lists what a map may place: every unit and battery with bases left.
func (b *Battle) DangerPlaces() []advise.DangerPlace {
	return advise.CopyPlaces(b.units, func(u *Unit) (string, string, string, bool) { return u.ID, u.Name, u.Side, !u.Destroyed() })
}

// dangerBatteries are the batteries of c, not of side, that may fire in an artillery
// segment as c stands.
func (b *Battle) dangerBatteries(c *Battle, side string) []*Unit {
	var out []*Unit
	for i := range c.units {
		if u := &c.units[i]; u.Side != side && u.Battery() && c.mayFire(u, false) == "" {
			out = append(out, u)
		}
	}
	return out
}

// dangerWorker is one core's share of a map: its own copy of the battle, standing at the
// start of an artillery segment, in which the unit moves.
type dangerWorker struct {
	c       *Battle
	unit    *Unit
	offsets []geom.Vec // each base's centre from the unit's centre
	bats    []*Unit
	leaders map[string]bool // the batteries a good artillery leader lets choose
	// mine are the unit's bases' outlines around its centre, others those of every other
	// base and marker, worked out once: a point only moves the first.
	mine, others []outline
	d, tmp       []float64
	e            []float64
}

func (b *Battle) newDangerWorker(t *Unit, side string) *dangerWorker {
	c := *b
	c.units = slices.Clone(b.units)
	c.phase = b.phase.clone()
	c.phase.step = ArtillerySegment
	c.phase.done, c.phase.passed, c.phase.pending, c.phase.firedUpon = nil, nil, nil, nil
	c.phase.began = nil // every battery's morale as the table stands
	i := slices.IndexFunc(c.units, func(u Unit) bool { return u.ID == t.ID })
	u := &c.units[i]
	u.Bases = slices.Clone(t.Bases)
	u.Side = side
	var centre geom.Vec
	for _, r := range u.Bases {
		centre = centre.Add(r.C)
	}
	centre = centre.Scale(1 / float64(len(u.Bases)))
	d := &dangerWorker{c: &c, unit: u}
	for _, r := range u.Bases {
		d.offsets = append(d.offsets, r.C.Sub(centre))
	}
	for _, r := range u.Bases {
		o := outlineOf(r)
		for k := range o.corners {
			o.corners[k] = o.corners[k].Sub(centre)
		}
		d.mine = append(d.mine, o)
	}
	for i := range c.units {
		if o := &c.units[i]; o != u {
			for _, r := range o.Bases {
				d.others = append(d.others, outlineOf(r))
			}
		}
	}
	for i := range c.markers {
		// Its own side's skirmishers give way to it, as they do to its moves.
		if c.markers[i].Side != side {
			d.others = append(d.others, outlineOf(c.markers[i].R))
		}
	}
	d.bats = b.dangerBatteries(&c, side)
	d.leaders = map[string]bool{}
	for _, bat := range d.bats {
		d.leaders[bat.ID] = c.qualifiedLeader([]*Unit{bat}) != nil
	}
	left := u.Capacity()
	d.d, d.tmp, d.e = make([]float64, left+1), make([]float64, left+1), make([]float64, left+1)
	return d
}

// at is the value of the unit centred on p (cm). It checks ctx at every battery.
func (d *dangerWorker) at(ctx context.Context, p geom.Vec, obj advise.ObjectiveKind, firers map[string]bool) (float64, error) {
	c, u := d.c, d.unit
	for i := range u.Bases {
		u.Bases[i].C = p.Add(d.offsets[i])
	}
	if d.blocked(p) {
		return math.NaN(), nil
	}
	left := u.Capacity()
	clear(d.d)
	d.d[0] = 1
	for _, bat := range d.bats {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		// At the battery's main target, which may be the unit or hurt it behind or beside
		// it; or, where a good artillery leader lets the battery choose in the closest
		// bracket, at the unit if it may.
		var pl *firePlan
		if d.leaders[bat.ID] {
			if pl = c.plan(&Fire{Batteries: []string{bat.ID}, Target: u.ID}); !pl.ok {
				pl = nil
			}
		}
		if pl == nil {
			pl = c.plan(&Fire{Batteries: []string{bat.ID}})
		}
		k := slices.Index(pl.hit, u)
		if !pl.ok || k < 0 {
			continue
		}
		firers[bat.ID] = true
		clear(d.e)
		for face := 1; face <= D10; face++ {
			_, _, eff := pl.roll(c, face)
			d.e[min(eff[k].Bases, left)] += 1.0 / D10
		}
		advise.Convolve(d.tmp, d.d, d.e)
		d.d, d.tmp = d.tmp, d.d
	}
	return advise.DangerValue(obj, d.d, left), nil
}

// blocked reports whether a base of the unit, centred on p, overlaps another unit's base
// or an enemy marker.
func (d *dangerWorker) blocked(p geom.Vec) bool {
	for _, m := range d.mine {
		at := m
		for k := range at.corners {
			at.corners[k] = m.corners[k].Add(p)
		}
		for _, o := range d.others {
			if overlaps(at, o) {
				return true
			}
		}
	}
	return false
}

// outline is a base's corners and its two axes.
type outline struct {
	corners [4]geom.Vec
	axes    [2]geom.Vec
}

func outlineOf(r Rect) outline {
	return outline{corners: r.Corners(), axes: [2]geom.Vec{r.fwd(), r.right()}}
}

// overlaps reports whether two bases share some area (touching does not count): no axis
// of either separates them.
func overlaps(a, b outline) bool {
	for _, axis := range [4]geom.Vec{a.axes[0], a.axes[1], b.axes[0], b.axes[1]} {
		lo1, hi1 := extent(a.corners[:], axis)
		lo2, hi2 := extent(b.corners[:], axis)
		if hi1 <= lo2+geom.Tolerance || hi2 <= lo1+geom.Tolerance {
			return false
		}
	}
	return true
}
