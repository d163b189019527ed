package warengine

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// Danger places a unit of type q.As, of side q.Side, on every square in turn (its
// footprint's top-left corner there) and works out what the other sides' units could do
// to it next turn: each chooses the weapon group that serves the objective best, and
// every weapon of the group fires at the placed unit's centre square, scored by the same
// Odds as a fire order (line of fire, visibility, deviation, interception, cover,
// toughness by the side it is struck on, saves). The placed unit faces the nearest enemy.
// A square it cannot stand on (off the map, a wall, another unit) has no value. q.As may
// also name one of the battle's units: the map then places that unit itself, lifted from
// where it stands, with the hits it has left (what a preview asks where a move ends).
// Without q.Area every square is mapped; with it, the squares [column, row] inside it.
// The rows are shared among the machine's cores; each square is computed alone.
func (b *Battle) Danger(ctx context.Context, q advise.DangerQuery) (*advise.DangerMap, error) {
	p, err := b.dangerPlaced(q)
	if err != nil {
		return nil, err
	}
	t := p.t
	if t.Hits < 1 {
		return nil, volley.Errorf(volley.EINVALID, "warengine: as: a %s has no hits to lose", q.As)
	}
	if _, err := advise.CheckDangerWork(b.dangerWork(t, q.Side, p.area)); err != nil {
		return nil, err
	}
	m := advise.NewDangerMap(q, p.area.lattice(), "square", p.words, "expected hits lost")
	m.Grid = true
	m.Notes = []string{"each firer chooses the weapon group that serves the objective best; every weapon of it fires at the placed unit's centre square",
		"the placed unit faces the nearest enemy unit (not in the source: a unit placed for the map has no facing of its own)",
		"a square of a wall (visibility or firepower 100) or of another unit holds no unit (not in the source)"}
	obj := m.Objective
	return m.Filled(ctx, func() advise.PointFunc {
		d := b.newDangerWorker(p, q.Side)
		return func(c, r int, firers map[string]bool) (float64, error) {
			return d.at(ctx, geom.Sq(p.area.Min.X+c, p.area.Min.Y+r), obj, firers)
		}
	})
}

// dangerPlacement is what a danger map places and where: a unit of a type, or one of
// the battle's units (lifted, its index; -1 for a type), over a rectangle of squares.
type dangerPlacement struct {
	t      *UnitType
	lifted int
	hits   int
	name   string
	words  string
	area   squareRect
}

// squareRect is the squares from Min up to but not including Max, column and row.
type squareRect struct{ Min, Max geom.Square }

func (r squareRect) Dx() int { return r.Max.X - r.Min.X }
func (r squareRect) Dy() int { return r.Max.Y - r.Min.Y }

// lattice is the rectangle as a map's points: a square each, row by row.
func (r squareRect) lattice() advise.Lattice {
	return advise.Lattice{Step: 1, X0: float64(r.Min.X), Y0: float64(r.Min.Y), Cols: r.Dx(), Rows: r.Dy()}
}

// dangerPlaced reads what q places (a type, else a unit of the battle) and the squares
// it is placed on: every square, or those q.Area holds.
func (b *Battle) dangerPlaced(q advise.DangerQuery) (dangerPlacement, error) {
	p := dangerPlacement{lifted: -1, area: squareRect{Max: geom.Sq(b.width, b.height)}}
	if t, ok := b.types[q.As]; ok {
		p.t, p.hits, p.name, p.words = t, t.Hits, t.Name, "a "+q.As
	} else if u, ok := b.Unit(q.As); ok && !u.Destroyed() {
		p.t, p.lifted, p.hits, p.name, p.words = u.Type, b.byID[u.ID], u.Hits, u.ID, u.ID+" itself, lifted from where it stands"
	} else {
		return p, volley.Errorf(volley.EINVALID, "warengine: as: unknown unit type %q%s (or a unit of the battle, placed itself)", q.As, scenario.Hint(q.As, b.typeNames()))
	}
	if err := advise.CheckSide("warengine", q.Side, b.sides); err != nil {
		return p, err
	}
	if a := q.Area; a != [4]float64{} {
		// The squares whose column and row lie within the area, on the map.
		lo := geom.Sq(max(int(math.Ceil(a[0])), 0), max(int(math.Ceil(a[1])), 0))
		hi := geom.Sq(min(int(math.Floor(a[2]))+1, b.width), min(int(math.Floor(a[3]))+1, b.height))
		if !(a[0] <= a[2] && a[1] <= a[3]) || hi.X <= lo.X || hi.Y <= lo.Y {
			return p, volley.Errorf(volley.EINVALID, "warengine: area: no square [column, row] of the %d×%d map lies within %v", b.width, b.height, a)
		}
		p.area = squareRect{lo, hi}
	}
	return p, nil
}

// DangerWork is the work of q's map (dangerWork).
func (b *Battle) DangerWork(q advise.DangerQuery) (int64, error) {
	p, err := b.dangerPlaced(q)
	if err != nil {
		return 0, err
	}
	return advise.CheckDangerWork(b.dangerWork(p.t, q.Side, p.area))
}

// dangerWork is the work of a danger map, priced as Cost prices a fire order, less the
// heat-maps Odds draws the size of the map (the map keeps one value a square): on every
// square mapped the placed unit's footprint is checked, its facing chosen and every enemy
// weapon's range and arc; then, on each square within a weapon's range, the exact
// landing of its picks and what each landing square strikes (shotWork). It returns what
// it counts too.
func (b *Battle) dangerWork(t *UnitType, side string, area squareRect) (int64, string) {
	mapped := int64(area.Dx()) * int64(area.Dy())
	size := int64(t.Size)
	perSquare := size*size + int64(len(b.units))
	shots, weapons := int64(0), 0
	for i := range b.units {
		e := &b.units[i]
		if e.Side == side || e.Destroyed() {
			continue
		}
		for li := range e.Type.Weapons {
			w := b.weapons[e.Type.Weapons[li].Weapon]
			if w == nil {
				continue
			}
			perSquare += rangeCheckWork
			picks := int64(1)
			if w.Repeating && !e.Aiming {
				picks = RepeatingPicks
			}
			reach := int64(w.MaxRange)
			// A weapon fires at the squares mapped within its reach.
			shots += min((2*reach+1)*(2*reach+1), mapped) * b.shotWork(w, picks, size*size)
			weapons++
		}
	}
	return mapped*perSquare + shots, fmt.Sprintf("%d squares, %d enemy weapons, each landing where it reaches", mapped, weapons)
}

// rangeCheckWork is a weapon's range and arc checked against one square.
const rangeCheckWork = 10

// shotWork is one shot's landing and damage: each pick starts from every square the
// previous ones may have reached (its ChanceToHit walk and its deviation area), then
// every square it may end on is intercepted along the line and struck (every unit's
// footprint looked at, its blast's squares, and a damage check of the placed unit, two
// walks of the line). A walk is no longer than the weapon's range, the picks' reach and
// the blast. placed is the footprint of the unit placed beside the battle's own.
func (b *Battle) shotWork(w *Weapon, picks, placed int64) int64 {
	squares := int64(b.width) * int64(b.height)
	area := int64(2*MaxDeviation+1) * int64(2*MaxDeviation+1)
	work, reach := int64(0), int64(0)
	r := int64(0)
	if w.Explosive() {
		r = int64(w.Blast)
	}
	walk := min(int64(b.width+b.height), int64(w.MaxRange)+picks*MaxDeviation+r+1)
	for range picks {
		work += min((2*reach+1)*(2*reach+1), squares) * (walk + area)
		reach += MaxDeviation
	}
	ends := min((2*reach+1)*(2*reach+1), squares)
	footprints := placed
	for i := range b.units {
		footprints += int64(b.units[i].Type.Size) * int64(b.units[i].Type.Size)
	}
	blast := min((2*r+1)*(2*r+1), squares)
	return work + ends*(walk+footprints+blast+2*walk+damageCheckWork)
}

// dangerWorker is one core's share of a danger map: its own copy of the battle with the
// placed unit in it (last in its units), the rest shared read-only.
type dangerWorker struct {
	b      *Battle
	placed int
	enemy  []*Unit
}

func (b *Battle) newDangerWorker(p dangerPlacement, side string) *dangerWorker {
	c := *b
	c.units = append(slices.Clone(b.units), Unit{ID: advise.PlacedID, Name: p.name, Type: p.t, Side: side, Hits: p.hits})
	c.byID = maps.Clone(b.byID)
	c.byID[advise.PlacedID] = len(b.units)
	c.occ = slices.Clone(b.occ)
	c.occupy(-1)
	for i := range b.units {
		if !b.units[i].Destroyed() {
			c.occupy(i)
		}
	}
	if p.lifted >= 0 {
		c.vacate(p.lifted) // the unit placed itself: its squares are free for it
	}
	d := &dangerWorker{b: &c, placed: len(b.units)}
	for i := range c.units[:len(b.units)] {
		if e := &c.units[i]; e.Side != side && !e.Destroyed() && len(e.Type.Weapons) > 0 && i != p.lifted {
			d.enemy = append(d.enemy, e)
		}
	}
	return d
}

// standable reports whether the placed unit's footprint may stand with its top-left on q.
func (d *dangerWorker) standable(q geom.Square) bool {
	b := d.b
	n := b.units[d.placed].Type.Size
	for dy := range n {
		for dx := range n {
			s := q.Add(dx, dy)
			if !b.onMap(s) {
				return false
			}
			if b.terrainAt(s).wall() {
				return false
			}
			if o := b.occ[b.index(s)]; o >= 0 && o != d.placed {
				return false
			}
		}
	}
	return true
}

// at is the value of the placed unit with its top-left on q.
func (d *dangerWorker) at(ctx context.Context, q geom.Square, obj advise.ObjectiveKind, firers map[string]bool) (float64, error) {
	if !d.standable(q) {
		return math.NaN(), nil
	}
	b := d.b
	u := &b.units[d.placed]
	b.vacate(d.placed)
	u.At = q
	b.occupy(d.placed)
	u.Facing = d.facing(u)
	centre := u.centre()
	left := u.Hits
	// Each enemy's choices: per weapon group, the distribution of hits the placed unit
	// loses to the group's weapons, convolved.
	var options [][][]float64
	for _, e := range d.enemy {
		var groups [][]float64
		for _, g := range b.groupsOf(e) {
			dist := make([]float64, left+1)
			dist[0] = 1
			fired := false
			for li := range e.Type.Weapons {
				l := &e.Type.Weapons[li]
				if l.Group != g {
					continue
				}
				hits, err := d.hits(ctx, e, l, centre)
				if err != nil {
					return 0, err
				}
				if hits == nil {
					continue
				}
				fired = true
				next := make([]float64, left+1)
				advise.Convolve(next, dist, advise.Capped(*hits, left))
				dist = next
			}
			if fired {
				firers[e.ID] = true
				groups = append(groups, dist)
			}
		}
		if len(groups) > 0 {
			options = append(options, groups)
		}
	}
	return bestCombination(options, obj, left), nil
}

// hits is what one weapon fired at square at does to the placed unit, nil when it
// cannot fire there or cannot hurt it. It is Odds's work for a fire order whose square
// lies in the weapon's envelope (no correction to explain), without the aim's words:
// the exact landing, then the victims' damage checks.
func (d *dangerWorker) hits(ctx context.Context, e *Unit, l *Loadout, at geom.Square) (*dice.Dist, error) {
	b := d.b
	s := b.newShot(e, l, at, false)
	if s.from.Chebyshev(at) > s.w.MaxRange || !b.inArc(s, at) {
		return nil, nil
	}
	land := b.exactLanding(s)
	victims, err := b.victimOdds(ctx, s, land, &b.units[d.placed])
	land.release()
	if err != nil {
		return nil, err
	}
	for _, t := range victims {
		if t.Target == advise.PlacedID {
			h := t.Distributions[MeasureHits]
			if h.Max() == 0 {
				return nil, nil
			}
			return &h, nil
		}
	}
	return nil, nil
}

// facing turns the placed unit towards the nearest enemy, to the nearest of the eight
// directions.
func (d *dangerWorker) facing(u *Unit) Facing {
	f, _ := nearestFacing(u, d.enemy)
	return f
}

// nearestFacing is the one of the eight directions nearest the bearing from u to the
// nearest of among (middle to middle), false when among is empty.
func nearestFacing(u *Unit, among []*Unit) (Facing, bool) {
	best, bestDist := Facing(0), math.Inf(1)
	for _, e := range among {
		if dist := u.middle().Sub(e.middle()).Len(); dist < bestDist {
			bearing := geom.Bearing(u.middle(), e.middle())
			best, bestDist = Facing(int(math.Round(bearing/FacingStep))%8), dist
		}
	}
	return best, len(among) > 0
}

// bestCombination is the objective's value of the best choice of one option per enemy:
// every combination is tried (a few enemies with a few groups each).
func bestCombination(options [][][]float64, obj advise.ObjectiveKind, left int) float64 {
	best := 0.0
	cur := make([]float64, left+1)
	cur[0] = 1
	var rec func(i int, d []float64)
	rec = func(i int, d []float64) {
		if i == len(options) {
			best = max(best, advise.DangerValue(obj, d, left))
			return
		}
		for _, g := range options[i] {
			next := make([]float64, left+1)
			advise.Convolve(next, d, g)
			rec(i+1, next)
		}
	}
	rec(0, cur)
	return best
}

// DangerPlaces lists what a map may place: every unit type with hits, those of the
// battle's units first, each with the side of the first unit of it (none for a type no
// unit has); then every unit standing, as itself.
func (b *Battle) DangerPlaces() []advise.DangerPlace {
	out := advise.TypePlaces(b.units, b.types, func(u *Unit) (string, string) { return u.Type.Name, u.Side },
		func(t *UnitType) bool { return t.Hits >= 1 })
	// Then each unit still standing, placed itself (lifted from its squares, with the hits
	// it has left): what a preview's danger at the end of a move asks for.
	for i := range b.units {
		if u := &b.units[i]; !u.Destroyed() {
			out = append(out, advise.DangerPlace{As: u.ID, Label: u.ID + " itself", Side: u.Side})
		}
	}
	return out
}
