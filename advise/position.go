package advise

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/scenario"
)

// Where to stand: for a unit of the side to act, every point it can reach this turn,
// each scored two ways — what it could do from there (the best fire plan after that
// move, under the penalties the move brings) and what it would face there (the danger
// map's value for it). The Pareto front is every point no other beats on both: the most
// offence for the least danger.

// Positioner is implemented by battles that can map where a unit could stand.
type Positioner interface {
	// PositionWork is the work of q's map in volley.MaxWork's steps, found without doing
	// it, or the error of a query that cannot be mapped (a unit that may not move now).
	PositionWork(q PositionQuery) (int64, error)
	// Position maps every point q.Unit can reach now. It stops when ctx is done.
	Position(ctx context.Context, q PositionQuery) (*PositionMap, error)
}

// PositionQuery asks for a position map.
type PositionQuery struct {
	// Unit is the unit that moves.
	Unit string
	// Objective scores the offence: the best plan's value under it (expected, the
	// default, destroyed, destroy:UNIT, at_least:K).
	Objective Objective
	// Danger scores the danger: Destroyed (the chance the unit is destroyed, the
	// default) or Expected (what it is expected to lose).
	Danger ObjectiveKind
	// Step is the distance between points, in the table's unit; 0 for the system's
	// default (a square on a grid map).
	Step float64
	// Rank, when set, orders the points for Top by a score of the caller's own (higher
	// first) instead of the most offence first: the opponent's trade of offence, danger,
	// objectives and the way there (package opponent). Top, when above 0, is how many of
	// the best points get their move and plan written, instead of the system's number.
	Rank func(p PositionPoint) float64 `json:"-"`
	Top  int                           `json:"-"`
}

// StepOr is q's distance between points, or def (in the table's unit, the system's
// default) when q gives none.
func (q PositionQuery) StepOr(def float64) float64 {
	if q.Step == 0 {
		return def
	}
	return q.Step
}

// CheckedStep is StepOr, refused with pkg's error at "step" when it is no positive
// distance.
func (q PositionQuery) CheckedStep(def float64, pkg string) (float64, error) {
	step := q.StepOr(def)
	if !(step > 0) || math.IsInf(step, 0) {
		return 0, Invalid("step", "%s: step must be a positive distance", pkg)
	}
	return step, nil
}

// PositionMap is a unit's position map. Points are laid out as a danger map's: point
// (c, r) at (X0 + c·Step, Y0 + r·Step); Reach[r·Cols+c] is the length of the shortest legal
// path there (NaN where the unit cannot go this turn), Offence and Danger its two
// scores (NaN there too).
type PositionMap struct {
	Unit string `json:"unit"`
	Side string `json:"side"`
	// From is where the unit stands now, and Left how far it may still move.
	From [2]float64 `json:"from"`
	Left float64    `json:"left"`
	// Offence and Danger say in words what each score is.
	Offence string `json:"offence"`
	Danger  string `json:"danger"`
	Length  string `json:"length_unit"`
	// Lattice is where the points stand.
	Lattice
	Grid bool `json:"grid,omitempty"`

	Reach, OffenceValues, DangerValues []float64 `json:"-"`
	// Plans holds, for the points of Top, the plan each would fire.
	Top    []PositionPoint `json:"top"`
	Pareto []PositionPoint `json:"pareto"`
	Notes  []string        `json:"notes,omitempty"`
	// Reachable counts the points the unit can reach.
	Reachable int `json:"reachable"`
}

// PositionPoint is one point of a map: where it is, how far the unit goes to get there,
// and its two scores; for the top points, the path there and the plan fired from it.
type PositionPoint struct {
	X       float64 `json:"x"`
	Y       float64 `json:"y"`
	Reach   float64 `json:"reach"`
	Offence float64 `json:"offence"`
	Danger  float64 `json:"danger"`
	// Move is the move action that takes the unit there, and Plan the action it would
	// fire from there (nil when it fires nothing).
	Move map[string]any `json:"move,omitempty"`
	// Moves, for a formation whose move is one action per member (a Dropzone squad), are
	// those actions, to send in this order; Move is then nil.
	Moves []map[string]any `json:"moves,omitempty"`
	Plan  map[string]any   `json:"plan,omitempty"`
}

// At is point (c, r)'s index.
func (m *PositionMap) At(c, r int) int { return r*m.Cols + c }

// Reached records in Reach the way to point (c, r), d inches long (perInch of the map's
// unit to the inch), NaN where the unit cannot go (d infinite), and reports whether it
// can go there.
func (m *PositionMap) Reached(c, r int, d, perInch float64) bool {
	if math.IsInf(d, 1) {
		m.Reach[m.At(c, r)] = math.NaN()
		return false
	}
	m.Reach[m.At(c, r)] = d * perInch
	return true
}

// Point is point i as the JSON writes it.
func (m *PositionMap) Point(i int) PositionPoint {
	x, y := m.Lattice.At(i%m.Cols, i/m.Cols, 1)
	return PositionPoint{X: round6(x), Y: round6(y),
		Reach: round6(m.Reach[i]), Offence: m.OffenceValues[i], Danger: m.DangerValues[i]}
}

func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }

// Front is the Pareto front of the reachable points: those no other point beats on both
// scores (at least as much offence and at most as much danger, better on one), ordered by
// danger, least first. Points that tie on both are all kept.
func (m *PositionMap) Front() []int {
	var idx []int
	for i, v := range m.Reach {
		if !math.IsNaN(v) {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if c := cmpScore(m.DangerValues[a], m.DangerValues[b]); c != 0 {
			return c
		}
		return -cmpScore(m.OffenceValues[a], m.OffenceValues[b])
	})
	var front []int
	best := math.Inf(-1)
	lastDanger := math.NaN()
	for _, i := range idx {
		o, d := m.OffenceValues[i], m.DangerValues[i]
		switch {
		case o > best+scoreTol:
			front = append(front, i)
			best, lastDanger = o, d
		case math.Abs(o-best) <= scoreTol && math.Abs(d-lastDanger) <= scoreTol:
			front = append(front, i) // a tie on both
		}
	}
	return front
}

// scoreTol is how close two scores must be to tie: sums of the same products in another
// order differ in their last bits.
const scoreTol = 1e-12

func cmpScore(a, b float64) int {
	switch {
	case a < b-scoreTol:
		return -1
	case a > b+scoreTol:
		return 1
	}
	return 0
}

// Best are the k reachable points of most offence, the least danger first among equals.
func (m *PositionMap) Best(k int) []int {
	var idx []int
	for i, v := range m.Reach {
		if !math.IsNaN(v) {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if c := -cmpScore(m.OffenceValues[a], m.OffenceValues[b]); c != 0 {
			return c
		}
		if c := cmpScore(m.DangerValues[a], m.DangerValues[b]); c != 0 {
			return c
		}
		return cmpScore(m.Reach[a], m.Reach[b])
	})
	return idx[:min(k, len(idx))]
}

// BestBy is the k points of highest rank, the shorter way first on a tie.
func (m *PositionMap) BestBy(rank func(PositionPoint) float64, k int) []int {
	var idx []int
	score := map[int]float64{}
	for i, v := range m.Reach {
		if !math.IsNaN(v) {
			idx = append(idx, i)
			score[i] = rank(m.Point(i))
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if c := -cmpScore(score[a], score[b]); c != 0 {
			return c
		}
		return cmpScore(m.Reach[a], m.Reach[b])
	})
	return idx[:min(k, len(idx))]
}

// MarshalJSON writes the map with every reachable point, as {x, y, reach, offence,
// danger}.
func (m *PositionMap) MarshalJSON() ([]byte, error) {
	type plain PositionMap
	return marshalWith((*plain)(m), "points", len(m.Reach), func(i int) string {
		if math.IsNaN(m.Reach[i]) {
			return "" // a point the unit cannot reach
		}
		p := m.Point(i)
		return `{"x":` + fmtFloat(p.X) + `,"y":` + fmtFloat(p.Y) + `,"reach":` + fmtFloat(p.Reach) +
			`,"offence":` + fmtFloat(p.Offence) + `,"danger":` + fmtFloat(p.Danger) + `}`
	})
}

func fmtFloat(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "null"
	}
	return strconv.FormatFloat(v, 'g', 8, 64)
}

// CheckWaysWork refuses a position map whose ways alone cost more than
// volley.MaxHeavyWork: the visibility graph of the near corners of what unit must go round
// (geom.ReachWork's graph), which no step makes cheaper. The error names the unit.
func CheckWaysWork(graph int64, near int, unit string) error {
	if graph > volley.MaxHeavyWork {
		return volley.TooMuchWork("this position map", graph, fmt.Sprintf("the ways round %d corners of terrain and bases within %s's move, before any point", near, unit),
			"no step makes the ways cheaper: ask for a unit with fewer corners of terrain and other bases within its move", "unit")
	}
	return nil
}

// CheckDestroyTarget refuses a destroy:UNIT objective for a unit of side whose UNIT is not
// an enemy unit of the battle: its plans would all score nothing. The error names the
// objective.
func CheckDestroyTarget(b volley.Battle, side string, o Objective) error {
	if o.Kind != Destroy {
		return nil
	}
	var enemies []string
	for _, u := range b.State().Units {
		if u.Side == side {
			continue
		}
		if u.ID == o.Unit {
			return nil
		}
		enemies = append(enemies, u.ID)
	}
	of := ""
	if side != "" {
		of = " of " + side
	}
	return Invalid("objective", "advise: destroy:%s names no enemy unit%s in the battle%s", o.Unit, of, scenario.Hint(o.Unit, enemies))
}

// CheckPositionWork refuses a position map whose work is above volley.MaxHeavyWork.
func CheckPositionWork(work int64, why string) (int64, error) {
	if work > volley.MaxHeavyWork {
		return work, volley.TooMuchWork("this position map", work, why, "use a larger step", "step")
	}
	return work, nil
}

// PositionTop is how many of the best points a position map lists with their moves and
// plans, unless its query asks for another number (PositionQuery.Top).
const PositionTop = 5

// Finish clears both scores of every point the unit cannot reach (its Reach NaN), then
// fills the front and the top points (PositionTop of them, or q.Top, ranked by q.Rank
// when given), each with its place and scores; plan and move, when given, write each top
// point's plan and the move there.
func (m *PositionMap) Finish(q PositionQuery, move func(i int) map[string]any, plan func(i int) map[string]any) {
	m.Reachable = 0
	for i, v := range m.Reach {
		if math.IsNaN(v) {
			m.DangerValues[i], m.OffenceValues[i] = math.NaN(), math.NaN()
		} else {
			m.Reachable++
		}
	}
	m.Pareto, m.Top = []PositionPoint{}, []PositionPoint{}
	for _, i := range m.Front() {
		m.Pareto = append(m.Pareto, m.Point(i))
	}
	k := PositionTop
	if q.Top > 0 {
		k = q.Top
	}
	best := m.Best(k)
	if q.Rank != nil {
		best = m.BestBy(q.Rank, k)
	}
	for _, i := range best {
		p := m.Point(i)
		if move != nil {
			p.Move = move(i)
		}
		if plan != nil {
			p.Plan = plan(i)
		}
		m.Top = append(m.Top, p)
	}
}

// TopPlan is a top point's plan for Finish, from what the system's offence there gives
// (the value, the plan and an error): none where it failed, an error the map's offence
// layer has met at the point before.
func TopPlan(_ float64, plan map[string]any, err error) map[string]any {
	if err != nil {
		return nil
	}
	return plan
}

// Around is the area to give LayGrid (or a danger query) for a map whose points, step
// apart, pass through at and cover bound: at is one of them (up to rounding; OnPoint snaps
// it), even where it lies a little outside bound, as a unit at the table's edge may. A
// position map lays its points so, because standing still is one of the unit's choices.
func Around(at [2]float64, bound [4]float64, step float64) [4]float64 {
	if !(step > 0) || math.IsInf(step, 0) {
		return bound // LayGrid refuses the step
	}
	c0, c1 := math.Ceil((bound[0]-at[0])/step-1e-9), math.Floor((bound[2]-at[0])/step+1e-9)
	r0, r1 := math.Ceil((bound[1]-at[1])/step-1e-9), math.Floor((bound[3]-at[1])/step+1e-9)
	c0, r0 = min(c0, 0), min(r0, 0)
	c1, r1 = max(c1, 0), max(r1, 0)
	return [4]float64{at[0] + (c0-0.5)*step, at[1] + (r0-0.5)*step, at[0] + (c1+0.5)*step, at[1] + (r1+0.5)*step}
}

// OnPoint is p, or at where p is at but for the rounding of a grid's arithmetic (within
// a millionth of the step): a map laid by Around scores the unit's own place, not a
// point a few units in the last place from it.
func OnPoint(p, at [2]float64, step float64) [2]float64 {
	if math.Abs(p[0]-at[0]) <= step*1e-6 && math.Abs(p[1]-at[1]) <= step*1e-6 {
		return at
	}
	return p
}
