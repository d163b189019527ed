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

var (
	_ advise.Dangerer     = (*Battle)(nil)
	_ advise.DangerPlacer = (*Battle)(nil)
)

// DefaultDangerStep is the spacing of a Warfare danger map's points unless asked
// otherwise: half an inch, a sixth of the sample tables' close range.
const DefaultDangerStep = 0.5

// dangerID is the id of the copy a danger map places.
const dangerID = "(placed)"

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
	m := advise.NewDangerMap(q, g.Lattice, string(g.u), "a copy of "+g.tmpl.ID, "expected casualties")
	m.Notes = []string{"a copy of " + g.tmpl.ID + " as it stands (stands, figures, casualties, traits) on each point",
		"every enemy unit with missiles fires all its stands at it, at the band its distance gives, with the modifiers whose conditions hold and none claimed (not in the source: the map's reading of the best fire at a lone unit)"}
	if len(g.unplaced) > 0 {
		m.Notes = append(m.Notes, "not on the table, so out of the map: "+strings.Join(g.unplaced, ", "))
	}
	obj := m.Objective
	firers := b.dangerFirers(g)
	perInch := scenario.Inches(1).In(g.u)
	left := g.tmpl.Left()
	return m.Filled(ctx, func() advise.PointFunc {
		d, tmp := make([]float64, left+1), make([]float64, left+1)
		return func(c, r int, seen map[string]bool) (float64, error) {
			x, y := g.At(c, r, perInch)
			at := scenario.Point{X: x, Y: y}
			clear(d)
			d[0] = 1
			for _, f := range firers {
				e := f.bands[f.band(dist(*f.u.At, at))]
				if e == nil {
					continue // out of range
				}
				seen[f.u.ID] = true
				advise.Convolve(tmp, d, e)
				d, tmp = tmp, d
			}
			return advise.DangerValue(obj, d, left), nil
		}
	})
}

// dangerGrid is a danger query checked, and its points laid out.
type dangerGrid struct {
	tmpl *Unit
	side string
	u    scenario.Unit
	advise.Lattice
	// firers are the enemy units that may fire at the copy; unplaced those that could
	// but stand nowhere on the table.
	firers   []*Unit
	unplaced []string
}

func (b *Battle) dangerGrid(q advise.DangerQuery) (dangerGrid, error) {
	tmpl, ok := b.Unit(q.As)
	if !ok {
		return dangerGrid{}, volley.Errorf(volley.EINVALID, "warfare: as: a Warfare map places a copy of a unit of the battle: unknown unit %q%s", q.As, scenario.Hint(q.As, b.unitIDs()))
	}
	if tmpl.Destroyed() {
		return dangerGrid{}, volley.Errorf(volley.EINVALID, "warfare: as: %s has no figures left to place", q.As)
	}
	if err := advise.CheckSide("warfare", q.Side, volley.Distinct(b.units, func(u *Unit) string { return u.Side })); err != nil {
		return dangerGrid{}, err
	}
	g := dangerGrid{tmpl: tmpl, side: q.Side, u: b.unit.OrInch()}
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
	g.Lattice, err = advise.LayDanger(q, b, scenario.Inches(DefaultDangerStep).In(g.u))
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
	left := int64(g.tmpl.Left())
	setup, perPoint := int64(0), int64(0)
	for _, f := range g.firers {
		fire := &Fire{Unit: f.ID, Targets: []FireTarget{{Unit: g.tmpl.ID, Stands: f.StandsLeft(), Band: Close}}}
		setup += 3 * b.Cost(fire)
		perPoint += rangeWork + (left+1)*(int64(min(f.StandsLeft(), g.tmpl.Left()))+1)
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
	placed := *g.tmpl
	placed.ID, placed.Side, placed.At = dangerID, g.side, nil
	var out []*dangerFirer
	for _, u := range g.firers {
		f := &dangerFirer{u: u, table: b.tables.Ranges[u.Weapon], bands: map[Band][]float64{}}
		for _, band := range []Band{Close, Effective, Long} {
			t := &aimed{FireTarget: FireTarget{Unit: dangerID, Stands: u.StandsLeft(), Band: band}, target: &placed}
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
