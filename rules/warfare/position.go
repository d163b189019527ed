package warfare

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// Where to stand (not in the source: the article says nothing of movement). A Warfare
// unit's stands take one circle on the table (base:), and a move translates it: the unit
// keeps its formation, and has no facing to turn (volley's Warfare moves give it none),
// so a point is all a place to stand needs. Its way there is the shortest round the other
// units' bases within the table (geom.Reach), as checkMove measures a move; its fire from
// there is the advisor's best plan with every range band measured from the point, the
// article giving no penalty for moving before firing; its danger is the danger map of a
// copy of it.

// DefaultPositionStep is the spacing of a position map's points unless asked otherwise:
// half an inch, as the danger map's.
const DefaultPositionStep = DefaultDangerStep

// wayMargin is how much further than its base's radius a way keeps off other bases,
// inches: a thousandth of an inch, so that the way written to a thousandth of the table's
// unit (which moves a corner by at most 0.0007") is still clear of every base.
const wayMargin = 0.001

// planWork is what one plan the advisor writes costs apart from its odds, in
// volley.MaxWork's steps: written, parsed and decoded as a player's action would be, and
// aimed (about 0.1 ms, measured).
const planWork = 100_000

// positionSetup is a position query checked: the unit, how far it may still move, the
// ways there, the enemies its fire might reach from some point, and the points.
type positionSetup struct {
	u *Unit
	// Ways are its ways there, in inches, Left how far it may still move (worked out
	// once their price is checked).
	advise.Ways
	// view is the area the map's points cover, in the table's unit, laid through the
	// unit's own place (advise.Around): standing still is one of them.
	view [4]float64
	// enemies are the units the advisor weighs as targets; inReach those of them that may
	// be within the unit's long range from some point it can reach.
	enemies []*Unit
	inReach int
	g       dangerGrid
	perInch float64
	length  scenario.Unit
}

func (b *Battle) positionSetup(q advise.PositionQuery) (*positionSetup, error) {
	u, ok := b.Unit(q.Unit)
	if !ok {
		return nil, advise.Invalid("unit", "warfare: unit: no unit %q%s", q.Unit, scenario.Hint(q.Unit, b.unitIDs()))
	}
	if !b.moves {
		return nil, advise.Invalid("unit", "warfare: unit: this battle began before units moved (edition %d): it has no position map", volley.EditionMoves-1)
	}
	left, why := b.movable(u)
	if why != "" {
		return nil, advise.Invalid("unit", "warfare: unit: %s may not move now: %s", u.ID, why)
	}
	if o := q.Objective; o.Kind == advise.Destroy {
		if t, ok := b.Unit(o.Unit); !ok || t.Side == u.Side {
			return nil, advise.Invalid("objective", "warfare: objective: %q is not an enemy unit of %s%s", o.Unit, u.ID, scenario.Hint(o.Unit, b.unitIDs()))
		}
	}
	s := &positionSetup{u: u, length: b.unit.OrInch()}
	s.Left = left
	s.perInch = scenario.Inches(1).In(s.length)
	// The bases a way goes round, each grown by the unit's radius (checkMove's rule: no
	// base crossed), and the table's edge drawn in by it. Two units without a base are
	// points, which cross nothing.
	r := u.Base / 2
	for i := range b.units {
		o := &b.units[i]
		if o == u || o.At == nil || o.Destroyed() || o.Base/2+r <= 0 {
			continue
		}
		s.Obstacles = append(s.Obstacles, geom.InflateCircle(o.circle(), r+wayMargin))
	}
	start := geom.V(u.At.X, u.At.Y)
	s.Start = start
	s.Lo, s.Hi = b.table.Within(r)
	// The targets Problems weighs, and those its range may reach from some point.
	long := -1.0
	if t := b.tables.Ranges[u.Weapon]; u.Weapon != "" && t != nil {
		long = t.Long.Inches()
	}
	for i := range b.units {
		if t := &b.units[i]; t.Side != u.Side && !t.Destroyed() {
			s.enemies = append(s.enemies, t)
			if long >= 0 && t.At != nil && dist(*u.At, *t.At) <= long+left+1e-9 {
				s.inReach++
			}
		}
	}
	step := q.StepOr(scenario.Inches(DefaultPositionStep).In(s.length))
	s.view = advise.OpenView(&b.table, start, left, r, s.perInch, step)
	g, err := b.dangerGrid(advise.DangerQuery{Side: u.Side, As: u.ID, Area: s.view, Step: step})
	if err != nil {
		return nil, err
	}
	s.g = g
	return s, nil
}

// point is point (c, r) of the map, in inches, the unit's own place among them.
func (s *positionSetup) point(c, r int) geom.Vec { return s.g.Near(c, r, s.perInch, s.Start) }

// PositionWork is the work of q's map: the ways there (every pair of the grown bases'
// corners tested against every base, then each point against them), each point's range
// to every enemy, the advice at each different set of range bands the points give (at
// most four bands, beyond long among them, for each enemy in reach), and the danger map
// of the area.
func (b *Battle) PositionWork(q advise.PositionQuery) (int64, error) {
	return advise.PositionWorkOf(q, b.positionSetup, (*positionSetup).checkWays, b.positionWork)
}

// checkWays refuses a map whose ways alone cost more than volley.MaxHeavyWork: the
// corners of the bases within the unit's move, which no step makes fewer.
func (s *positionSetup) checkWays() error { return advise.CheckWays(s.u.ID, s.Ways) }

func (b *Battle) positionWork(s *positionSetup) (int64, string) {
	points := int64(s.g.Points())
	ways, corners := s.Ways.Work(points)
	enemies := int64(len(s.enemies))
	// The advice at one set of bands: each enemy's one-target plan written and aimed,
	// then every split of the stands among those in range scored by Odds.
	stands := s.u.StandsLeft()
	splits := int64(splitCount(stands, s.inReach))
	fire := &Fire{Unit: s.u.ID, Targets: make([]FireTarget, max(s.inReach, 1))}
	fire.Targets[0].Stands = stands
	advice := enemies*planWork + splits*(planWork+b.Cost(fire))
	keys := points
	if s.inReach < 16 { // 4^16 is more points than a map may have
		keys = min(points, int64(1)<<(2*s.inReach))
	}
	offence := points*enemies*rangeWork + keys*advice
	danger, _ := b.dangerWork(s.g)
	return advise.AddWork(ways, offence, danger), fmt.Sprintf("%d points, %d corners to go round within its move, the advice at up to %d sets of range bands to %d enemies, and the danger map",
		points, corners, keys, enemies)
}

// splitCount is how many ways compositions lists for n stands among k targets: n+k−1
// choose k−1, at most maxSplits.
func splitCount(n, k int) int {
	if k == 0 {
		return 0
	}
	c := 1
	for i := 1; i < k; i++ {
		c = c * (n + i) / i // C(n+i, i) from C(n+i−1, i−1): exact at every step
		if c >= maxSplits {
			return maxSplits
		}
	}
	return c
}

// Position maps every point u can reach now: the shortest legal way there (round the
// other units' bases, on the table), its best fire from there after that move (the
// advisor's plan, every range band measured from the point), and the danger there (the
// danger map of a copy of u).
func (b *Battle) Position(ctx context.Context, q advise.PositionQuery) (*advise.PositionMap, error) {
	s, _, err := advise.PricePosition(q, b.positionSetup, (*positionSetup).checkWays, b.positionWork)
	if err != nil {
		return nil, err
	}
	if err := s.Build(ctx, b.table.Edged); err != nil {
		return nil, err
	}
	u, g := s.u, s.g
	obj := advise.OffenceObjective(q)
	m := advise.NewPositionMap(u.ID, u.Side, [2]float64{u.At.X * s.perInch, u.At.Y * s.perInch}, s.Left*s.perInch,
		obj.Describe(MeasureCasualties), string(s.length), g.Lattice)
	// The danger of a copy of the unit on every point of the area.
	if err := m.FillDanger(ctx, b, advise.DangerQuery{Side: u.Side, As: u.ID, Step: g.Step, Objective: q.Danger, Area: s.view}, "warfare"); err != nil {
		return nil, err
	}
	// The ways there, and the offence from there, on every core. The advice from a point
	// depends on it only through the range band of each enemy (the modifiers are the
	// units' traits, the stands are all the unit's): each set of bands is worked out
	// once, by the first core to meet it.
	seen := &offenceMemo{at: map[string]*offenceEntry{}}
	err = m.FillReach(ctx, s.Reach, s.point, s.perInch, func() advise.OffenceAt {
		return func(p geom.Vec, d float64) (float64, error) {
			return seen.get(b.bandsFrom(s, p), func() (float64, error) {
				v, _, err := b.offenceAt(ctx, u.ID, p, d, obj)
				return v, err
			})
		}
	})
	if err != nil {
		return nil, err
	}
	m.Finish(q, func(i int) map[string]any {
		return b.moveTo(s, s.point(i%g.Cols, i/g.Cols))
	}, func(i int) map[string]any {
		p := s.point(i%g.Cols, i/g.Cols)
		return advise.TopPlan(b.offenceAt(ctx, u.ID, p, s.Reach.Dist(p), obj))
	})
	m.Notes = []string{
		"reach: the shortest way there round the other units' bases (each grown by " + u.ID + "'s radius as a 16-sided polygon drawn round the circle, and a thousandth of an inch more), within the table's edge; Warfare scenarios have no terrain",
		"formation: " + u.ID + "'s stands move as one body, keeping their formation (the circle of its base:), and the unit has no facing to turn (not in the source: the article gives no movement)",
		"offence: " + u.ID + "'s best fire from there after the move (" + string(b.system) + " system), every stand firing, each target's range band measured from there; the article gives no penalty for moving before firing, and no modifier is claimed",
		"danger: the other sides' next missile fire at a copy of " + u.ID + " standing there, none of them having moved (the danger map)",
	}
	switch {
	case u.Weapon == "" || b.tables.Ranges[u.Weapon] == nil:
		m.Notes = append(m.Notes, u.ID+" has no missile weapon with a range table: no point has offence")
	case u.Ammo == AmmoOut:
		m.Notes = append(m.Notes, u.ID+" is Out of Missiles: no point has offence")
	}
	return m, nil
}

// offenceMemo holds the offence of each set of range bands a map has met, shared by the
// cores: each is worked out once, and a core that meets one being worked out waits for it.
type offenceMemo struct {
	mu sync.Mutex
	at map[string]*offenceEntry
}

type offenceEntry struct {
	once sync.Once
	v    float64
	err  error
}

func (m *offenceMemo) get(key string, work func() (float64, error)) (float64, error) {
	m.mu.Lock()
	e := m.at[key]
	if e == nil {
		e = &offenceEntry{}
		m.at[key] = e
	}
	m.mu.Unlock()
	e.once.Do(func() { e.v, e.err = work() })
	return e.v, e.err
}

// bandsFrom is what the advice from p depends on: the range band to each enemy from p,
// as measure finds it, one letter each.
func (b *Battle) bandsFrom(s *positionSetup, p geom.Vec) string {
	moved := *s.u
	moved.At = &scenario.Point{X: p.X, Y: p.Y}
	key := make([]byte, len(s.enemies))
	for i, t := range s.enemies {
		band, _, err := b.measure(&moved, t, nil)
		key[i] = 'x'
		if err == nil {
			key[i] = band[0] // close, effective, long, out_of_range
		}
	}
	return string(key)
}

// offenceAt moves unit id of a fork of the battle to p, by a way d inches long, as
// resolveMove would, and asks the advisor for its best fire from there under obj: the
// plan's value and its action (0 and nil when it can fire at nothing).
func (b *Battle) offenceAt(ctx context.Context, id string, p geom.Vec, d float64, obj advise.Objective) (float64, map[string]any, error) {
	f := b.Fork().(*Battle)
	u, _ := f.Unit(id)
	f.table.Deploying = false
	f.act.Move(&f.turns, u.ID, d)
	u.At = &scenario.Point{X: p.X, Y: p.Y}
	adv, err := advise.Advise(ctx, f, advise.Query{Side: u.Side, Actor: u.ID}, obj, 1, advise.Budget{})
	if err != nil {
		if volley.ErrorCode(err) == volley.EINVALID && ctx.Err() == nil {
			return 0, nil, nil // nothing it could fire at from there
		}
		return 0, nil, err
	}
	if len(adv) == 0 || len(adv[0].Plans) == 0 {
		return 0, nil, nil
	}
	best := adv[0].Plans[0]
	return best.Value, best.Action, nil
}

// moveTo is the move action that takes the unit to p along the map's way, each point in
// the table's unit to a thousandth; at full precision when the rounded way would be
// refused (a way ending within a hair of the unit's move).
func (b *Battle) moveTo(s *positionSetup, p geom.Vec) map[string]any {
	way := s.Reach.Path(p)
	if len(way) < 2 || p == geom.V(s.u.At.X, s.u.At.Y) {
		return nil // standing still
	}
	write := func(round bool) ([]any, []geom.Vec) {
		var pts []any
		var back []geom.Vec
		for _, q := range way[1:] {
			x, y := q.X*s.perInch, q.Y*s.perInch
			if round {
				x, y = math.Round(x*1000)/1000, math.Round(y*1000)/1000
			}
			pts = append(pts, []float64{x, y})
			back = append(back, geom.V(x/s.perInch, y/s.perInch)) // as decodeMove reads it
		}
		return pts, back
	}
	pts, back := write(true)
	if b.Fork().(*Battle).checkMove(&Move{Unit: s.u.ID, Points: back}) != nil {
		pts, _ = write(false)
	}
	return map[string]any{"type": volley.MoveAction, "unit": s.u.ID, "path": pts}
}
