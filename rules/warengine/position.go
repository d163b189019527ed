package warengine

import (
	"container/heap"
	"context"
	"fmt"
	"math"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// positionSetup is a position query checked: the unit, the cheapest way to every square
// it can reach this Phase I, and the rectangle of squares that holds them.
type positionSetup struct {
	u    *Unit
	left int
	// cost[i] is the cheapest path to square i (its index, the footprint's top-left),
	// -1 where the unit cannot go, and best[i] the state (2·square + parity of diagonals)
	// that reaches it so; prev is the state before each state on its path, start the
	// unit's own.
	cost  []int
	best  map[int]int
	prev  []int
	start int
	area  squareRect
	// box holds every square the unit might reach, found without the search (the
	// price's area): area lies within it once ways has run.
	box squareRect
}

// reachState is a square reached with a count of diagonal steps' parity (every second
// diagonal costs 2 with diagonal: alternate), and its cost.
type reachState struct {
	sq     geom.Square
	parity int
	cost   int
}

type reachQueue []reachState

func (q reachQueue) Len() int           { return len(q) }
func (q reachQueue) Less(i, j int) bool { return q[i].cost < q[j].cost }
func (q reachQueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *reachQueue) Push(x any)        { *q = append(*q, x.(reachState)) }
func (q *reachQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

func (b *Battle) positionSetup(q advise.PositionQuery) (*positionSetup, error) {
	u, ok := b.Unit(q.Unit)
	if !ok {
		return nil, advise.Invalid("unit", "warengine: unit: no unit %q%s", q.Unit, scenario.Hint(q.Unit, b.unitIDs()))
	}
	if !b.moves {
		return nil, volley.Errorf(volley.EINVALID, "warengine: this battle began before units moved (edition %d): it has no position map", volley.EditionMoves-1)
	}
	if q.Step != 0 && q.Step != 1 {
		return nil, advise.Invalid("step", "warengine: step: a grid map is mapped square by square")
	}
	left, why := b.movable(u)
	if why != "" {
		return nil, advise.Invalid("unit", "warengine: unit: %s may not move now: %s", u.ID, why)
	}
	if err := advise.CheckDestroyTarget(b, u.Side, q.Objective); err != nil {
		return nil, err
	}
	s := &positionSetup{u: u, left: left}
	// The squares it might reach, as far as its move could take it on the map whatever
	// stands in the way: every step costs at least 1 and moves one square at most.
	n := u.Type.Size
	s.box = squareRect{geom.Sq(max(u.At.X-left, 0), max(u.At.Y-left, 0)),
		geom.Sq(max(min(u.At.X+left, b.width-n)+1, u.At.X+1), max(min(u.At.Y+left, b.height-n)+1, u.At.Y+1))}
	return s, nil
}

// reachCheckEvery is how many squares the ways' search takes between two looks at the
// request's context.
const reachCheckEvery = 1024

// ways works out the cheapest way to every square the unit can reach (once the price is
// checked), and the rectangle that holds them; it stops when ctx ends.
func (s *positionSetup) ways(ctx context.Context, b *Battle) error {
	u, left := s.u, s.left
	s.cost, s.prev, s.best = make([]int, b.width*b.height), make([]int, 2*b.width*b.height), map[int]int{}
	for i := range s.cost {
		s.cost[i] = -1
	}
	// Dijkstra over states (square, parity of the turn's diagonal steps so far: with
	// diagonal: alternate every second one costs 2), with the move's own rules
	// (checkMove): a step to a square next to the last, the footprint clear of walls,
	// units and the map's edge, no corner cut between two blocked squares.
	dist := make([]int, 2*b.width*b.height)
	for i := range dist {
		dist[i], s.prev[i] = -1, -1
	}
	state := func(q geom.Square, parity int) int { return 2*b.index(q) + parity }
	start := state(u.At, u.diagonals%2)
	dist[start] = 0
	s.start = start
	done := make([]bool, len(dist))
	pq := &reachQueue{{u.At, u.diagonals % 2, 0}}
	s.area = squareRect{u.At, u.At.Add(1, 1)}
	for taken := 1; pq.Len() > 0; taken++ {
		if taken%reachCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		st := heap.Pop(pq).(reachState)
		k := state(st.sq, st.parity)
		if done[k] {
			continue
		}
		done[k] = true
		if i := b.index(st.sq); s.cost[i] < 0 || st.cost < s.cost[i] {
			s.cost[i], s.best[i] = st.cost, k
		}
		s.area = squareRect{geom.Sq(min(s.area.Min.X, st.sq.X), min(s.area.Min.Y, st.sq.Y)),
			geom.Sq(max(s.area.Max.X, st.sq.X+1), max(s.area.Max.Y, st.sq.Y+1))}
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				if dx == 0 && dy == 0 {
					continue
				}
				n := st.sq.Add(dx, dy)
				diagonal := dx != 0 && dy != 0
				parity, cost := st.parity, st.cost+1
				if diagonal {
					cost = st.cost + b.stepCost(true, st.parity+1) // this diagonal's count, from 1
					parity = 1 - st.parity
				}
				if cost > left || !b.onMap(n) {
					continue
				}
				nk := state(n, parity)
				if done[nk] || (dist[nk] >= 0 && dist[nk] <= cost) {
					continue
				}
				if b.blockedAt(u, n) != "" {
					continue
				}
				if diagonal && !b.opts.cutCorners && b.blockedAt(u, geom.Sq(n.X, st.sq.Y)) != "" && b.blockedAt(u, geom.Sq(st.sq.X, n.Y)) != "" {
					continue
				}
				dist[nk], s.prev[nk] = cost, k
				heap.Push(pq, reachState{n, parity, cost})
			}
		}
	}
	return nil
}

// PositionWork is the work of q's map: the ways there (each square reached looked at
// with its eight neighbours' footprints), each square's offence (the unit's advice from
// there, priced as AdviceCost prices it) and the danger map of the squares reached.
func (b *Battle) PositionWork(q advise.PositionQuery) (int64, error) {
	_, w, err := b.pricedPosition(q)
	return w, err
}

// pricedPosition is q checked and priced, refused over volley.MaxHeavyWork: the whole map
// (positionWork).
func (b *Battle) pricedPosition(q advise.PositionQuery) (*positionSetup, int64, error) {
	return advise.PricePosition(q, b.positionSetup, nil, b.positionWork)
}

func (b *Battle) positionWork(s *positionSetup) (int64, string) {
	squares := int64(s.box.Dx() * s.box.Dy())
	size := int64(s.u.Type.Size)
	ways := squares * 2 * 8 * size * size
	offence := b.AdviceCost(advise.Query{Side: s.u.Side, Actor: s.u.ID})
	dw, _ := b.dangerWork(s.u.Type, s.u.Side, s.box)
	return advise.AddWork(ways, advise.MulWork(squares, offence), dw), fmt.Sprintf("%d squares within its move, the unit's advice from each, and the danger map", squares)
}

// Position maps every square u can reach this Phase I (its footprint's top-left): the
// cheapest legal path there, its best plan from there after the move (the advisor's, a
// unit that moved not aiming), and the danger there (the danger map of u itself, lifted
// from where it stands).
func (b *Battle) Position(ctx context.Context, q advise.PositionQuery) (*advise.PositionMap, error) {
	s, _, err := b.pricedPosition(q)
	if err != nil {
		return nil, err
	}
	if err := s.ways(ctx, b); err != nil {
		return nil, err
	}
	u, a := s.u, s.area
	obj := advise.OffenceObjective(q)
	m := advise.NewPositionMap(u.ID, u.Side, [2]float64{float64(u.At.X), float64(u.At.Y)}, float64(s.left),
		obj.Describe(MeasureHits), "square", a.lattice())
	m.Grid = true
	dq := advise.DangerQuery{Side: u.Side, As: u.ID, Objective: q.Danger,
		Area: [4]float64{float64(a.Min.X), float64(a.Min.Y), float64(a.Max.X - 1), float64(a.Max.Y - 1)}}
	if err := m.FillDanger(ctx, b, dq, "warengine"); err != nil {
		return nil, err
	}
	square := func(c, r int) geom.Square { return geom.Sq(a.Min.X+c, a.Min.Y+r) }
	err = m.FillOffence(ctx, func() advise.PointFunc {
		f := b.Fork().(*Battle)
		return func(c, r int, _ map[string]bool) (float64, error) {
			cost := s.cost[b.index(square(c, r))]
			m.Reach[r*a.Dx()+c] = float64(cost)
			if cost < 0 {
				m.Reach[r*a.Dx()+c] = math.NaN()
				return math.NaN(), nil
			}
			v, _, err := f.offenceAt(ctx, u.ID, square(c, r), cost, obj)
			return v, err
		}
	})
	if err != nil {
		return nil, err
	}
	m.Finish(q, func(i int) map[string]any {
		return s.move(b, square(i%a.Dx(), i/a.Dx()))
	}, func(i int) map[string]any {
		sq := square(i%a.Dx(), i/a.Dx())
		f := b.Fork().(*Battle)
		return advise.TopPlan(f.offenceAt(ctx, u.ID, sq, s.cost[b.index(sq)], obj))
	})
	m.Notes = []string{
		"reach: the cheapest path of squares there this Phase I, as a move may take it (walls, units and the map's edge stop it; no corner cut between two blocked squares)",
		"offence: " + u.ID + "'s best plan from there, as the advisor finds it after the move, each weapon aimed at an enemy's squares and those beside them: a unit that moved is not aiming (no +20, a repeating weapon picks three times)",
		"facing: on each square " + u.ID + " turns to face the nearest armed enemy, as the danger map turns the units it places (not in the source); turning is free unless facing_change_moves",
		"danger: the other sides' next fire at " + u.ID + " standing there (the danger map of the unit itself)",
	}
	return m, nil
}

// move is the move action that takes the unit to sq as the map scores it: along the
// cheapest path, turned as faceAt says; nil when it would stay as it is.
func (s *positionSetup) move(b *Battle, sq geom.Square) map[string]any {
	mv := map[string]any{"type": string(Move), "unit": s.u.ID}
	if path := s.path(b, sq); len(path) > 0 {
		mv["path"] = path
	}
	if turn := b.faceAt(s.u, sq); turn != s.u.Facing {
		mv["facing"] = turn.String()
	}
	if len(mv) == 2 {
		return nil
	}
	return mv
}

// path is the squares of the cheapest path from the unit's square to sq, for a move.
func (s *positionSetup) path(b *Battle, sq geom.Square) [][2]int {
	var rev [][2]int
	for k := s.best[b.index(sq)]; k >= 0 && k != s.start; k = s.prev[k] {
		q := b.square(k / 2)
		rev = append(rev, [2]int{q.X, q.Y})
	}
	out := make([][2]int, len(rev))
	for i := range rev {
		out[i] = rev[len(rev)-1-i]
	}
	return out
}

// faceAt is the facing u takes on square sq for the map: towards the nearest enemy with
// a weapon, as the danger map turns a unit it places (not in the source), or the nearest
// enemy of any kind when none is armed; its own facing when no enemy is left.
func (b *Battle) faceAt(u *Unit, sq geom.Square) Facing {
	from := u.At
	u.At = sq
	defer func() { u.At = from }()
	var armed, all []*Unit
	for i := range b.units {
		if e := &b.units[i]; e.Side != u.Side && !e.Destroyed() {
			all = append(all, e)
			if len(e.Type.Weapons) > 0 {
				armed = append(armed, e)
			}
		}
	}
	if f, ok := nearestFacing(u, armed); ok {
		return f
	}
	if f, ok := nearestFacing(u, all); ok {
		return f
	}
	return u.Facing
}

// offenceAt moves unit id of the fork f to sq, at a cost of its move, turned as faceAt
// says, and asks the advisor for its best plan from there: the value and the plan's
// first step.
func (f *Battle) offenceAt(ctx context.Context, id string, sq geom.Square, cost int, obj advise.Objective) (float64, map[string]any, error) {
	u, _ := f.Unit(id)
	i := f.byID[u.ID]
	from, facing, aiming, moved := u.At, u.Facing, u.Aiming, u.Moved
	turn := f.faceAt(u, sq)
	f.vacate(i)
	u.At, u.Facing = sq, turn
	f.occupy(i)
	if sq != from || (turn != facing && f.opts.facingChangeMoves) {
		u.Aiming = false // it moved in Phase I (or turned, with facing_change_moves)
		u.Moved += cost
	}
	defer func() {
		f.vacate(i)
		u.At, u.Facing, u.Aiming, u.Moved = from, facing, aiming, moved
		f.occupy(i)
	}()
	// The advisor's own query: every weapon aimed at each enemy's squares and those beside
	// them (adviceSquares), as a player asking the advisor there would be answered.
	adv, err := advise.Advise(ctx, f, advise.Query{Side: u.Side, Actor: u.ID}, obj, 1, advise.Budget{})
	if err != nil {
		if volley.ErrorCode(err) == volley.EINVALID {
			return 0, nil, nil // nothing it could fire at from there
		}
		return 0, nil, err
	}
	best, plan := 0.0, map[string]any(nil)
	for _, a := range adv {
		if len(a.Plans) > 0 && (plan == nil || a.Plans[0].Value > best) {
			best = a.Plans[0].Value
			plan = map[string]any{"steps": a.Plans[0].Steps}
			if a.Plans[0].Action != nil {
				plan = a.Plans[0].Action
			}
		}
	}
	return best, plan, nil
}
