package warfare

import (
	"context"
	"fmt"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/scenario"
)

// DefaultDangerStep is the spacing of a Warfare danger map's points unless asked
// otherwise: half an inch, a sixth of the sample tables' close range.
const DefaultDangerStep = 0.5

// Danger places a copy of the unit q.As (Warfare has no unit types: a unit of the battle,
// with its stands, figures, casualties and traits) on every point in turn and works out
// the other sides' next missile fire at it: every enemy unit on the table that has
// missiles and has not run out fires all its stands at the copy, at the range band its
// distance gives, with every modifier whose condition holds (none a player must claim,
// such as cover). Each unit's fire rolls its own dice, so their casualties add up; the
// value is the chance the copy loses every figure, or the figures it is expected to lose.
func (b *Battle) Danger(ctx context.Context, q advise.DangerQuery) (*advise.DangerMap, error) {
	g, _, err := advise.PriceDanger(q, b.dangerGrid, b.dangerWork)
	if err != nil {
		return nil, err
	}
	m, err := b.copyDanger(g).Map(ctx, q)
	if err != nil {
		return nil, err
	}
	m.Notes = []string{"a copy of " + g.Placed.ID + " as it stands (stands, figures, casualties, traits) on each point",
		"every enemy unit with missiles fires all its stands at it, at the band its distance gives, with the modifiers whose conditions hold and none claimed (not in the source: the map's reading of the best fire at a lone unit)"}
	if len(g.unplaced) > 0 {
		m.Notes = append(m.Notes, "not on the table, so out of the map: "+strings.Join(g.unplaced, ", "))
	}
	return m, nil
}

// copyDanger is g's map of a copy of the unit, each firer's casualties on it worked out
// once in each band (dangerFirers) and read at a point by the band its distance gives.
func (b *Battle) copyDanger(g dangerGrid) advise.CopyDanger {
	firers := b.dangerFirers(g)
	c := advise.CopyDanger{Lattice: g.Lattice, Copy: g.Placed.ID, Left: g.Placed.Left(), Expected: "expected casualties",
		PerInch: scenario.Inches(1).In(g.Unit), Unit: string(g.Unit)}
	for _, f := range firers {
		c.Firers = append(c.Firers, f.u.ID)
	}
	c.Effect = func(i int, x, y float64) []float64 {
		f := firers[i]
		return f.bands[f.band(dist(*f.u.At, scenario.Point{X: x, Y: y}))] // nil out of range
	}
	return c
}

// dangerGrid is a danger query checked, and its points laid out: a copy of a unit of the
// battle placed.
type dangerGrid struct {
	advise.PlacedGrid[Unit]
	// firers are the enemy units that may fire at the copy; unplaced those that could
	// but stand nowhere on the table.
	firers   []*Unit
	unplaced []string
}

func (b *Battle) dangerGrid(q advise.DangerQuery) (dangerGrid, error) {
	tmpl, ok := b.Unit(q.As)
	if err := advise.CheckCopy(q, "warfare", "a Warfare map places a copy of a unit of the battle", "figures",
		ok, ok && tmpl.Destroyed(), b.unitIDs(), volley.Distinct(b.units, func(u *Unit) string { return u.Side })); err != nil {
		return dangerGrid{}, err
	}
	var g dangerGrid
	for i := range b.units {
		f := &b.units[i]
		if f.Side == q.Side || f.Destroyed() || f.Weapon == "" || f.Ammo == AmmoOut || b.tables.Ranges[f.Weapon] == nil {
			continue
		}
		if f.At == nil {
			g.unplaced = append(g.unplaced, f.ID)
			continue
		}
		g.firers = append(g.firers, f)
	}
	var err error
	g.PlacedGrid, err = advise.LayPlaced(q, b, tmpl, b.unit.OrInch(), scenario.Inches(DefaultDangerStep).In(b.unit.OrInch()))
	return g, err
}

// DangerWork is the work of q's map: each firer's fire in each band, then every point's
// ranges and casualties (dangerWork).
func (b *Battle) DangerWork(q advise.DangerQuery) (int64, error) {
	return advise.DangerWorkOf(q, b.dangerGrid, b.dangerWork)
}

// dangerWork prices a map as Cost prices a fire: each firer's fire at one target in
// each of the three bands, worked out once; then on every point each firer's range
// measured and its casualties convolved into the copy's. It returns what it counts too.
func (b *Battle) dangerWork(g dangerGrid) (int64, string) {
	left := int64(g.Placed.Left())
	setup, perPoint := int64(0), int64(0)
	for _, f := range g.firers {
		fire := &Fire{Unit: f.ID, Targets: []FireTarget{{Unit: g.Placed.ID, Stands: f.StandsLeft(), Band: Close}}}
		setup += 3 * b.Cost(fire)
		perPoint += rangeWork + (left+1)*(int64(min(f.StandsLeft(), g.Placed.Left()))+1)
	}
	work, why := advise.PointsWork(g.Points(), perPoint)
	return work + setup, fmt.Sprintf("%s, %d firers, each firer's fire in each band", why, len(g.firers))
}

// rangeWork is a firer's range to a point measured and its band found.
const rangeWork = 4

// DangerPlaces lists what a map may place: a copy of any unit with figures left.
func (b *Battle) DangerPlaces() []advise.DangerPlace {
	return advise.CopyPlaces(b.units, func(u *Unit) (string, string, string, bool) { return u.ID, u.Name, u.Side, !u.Destroyed() })
}

// dangerFirer is an enemy unit's fire at the copy in each band, worked out once: the
// copy's casualties, capped at its figures, by band; nil beyond long range.
type dangerFirer struct {
	u     *Unit
	table *RangeTable
	bands map[Band][]float64
}

// band is the range band at d inches, as measure finds it.
func (f *dangerFirer) band(d float64) Band {
	switch {
	case d <= f.table.Close.Inches()+1e-9:
		return Close
	case d <= f.table.Effective.Inches()+1e-9:
		return Effective
	case d <= f.table.Long.Inches()+1e-9:
		return Long
	}
	return OutOfRange
}

// dangerFirers works out each firer's fire at the copy in each band, as Odds would: the
// copy's casualties, its random factor's branches mixed.
func (b *Battle) dangerFirers(g dangerGrid) []*dangerFirer {
	placed := *g.Placed
	placed.ID, placed.Side, placed.At = advise.PlacedID, g.Side, nil
	var out []*dangerFirer
	for _, u := range g.firers {
		f := &dangerFirer{u: u, table: b.tables.Ranges[u.Weapon], bands: map[Band][]float64{}}
		for _, band := range []Band{Close, Effective, Long} {
			t := &aimed{FireTarget: FireTarget{Unit: advise.PlacedID, Stands: u.StandsLeft(), Band: band}, target: &placed}
			b.modifiers(u, t)
			rf := dice.Const(0)
			if b.system == Alternate {
				rf = randomFactor(nil)
			}
			var weights []float64
			var per []dice.Dist
			for _, o := range rf.Outcomes() {
				weights = append(weights, o.P)
				per = append(per, b.casualties(t, o.Value))
			}
			f.bands[band] = advise.Capped(dice.Mixture(weights, per), placed.Left())
		}
		out = append(out, f)
	}
	return out
}
