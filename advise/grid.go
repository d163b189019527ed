package advise

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// What every system's danger and position maps share, and no rulebook says: the points a
// map lays over the table, the checks of a query's side, the shape of a map before its
// points are worked out, and a position map's danger layer. What a point's value is (what
// fires, what blocks, what a move needs) stays with each system.

// Lattice is the points of a map, Step apart in the table's unit: point (c, r) at
// (X0 + c·Step, Y0 + r·Step), Cols × Rows of them. A position map's danger layer is the
// danger map of the same lattice, point for point.
type Lattice struct {
	Step float64 `json:"step"`
	X0   float64 `json:"x0"`
	Y0   float64 `json:"y0"`
	Cols int     `json:"cols"`
	Rows int     `json:"rows"`
}

// LayGrid lays a lattice over area at step: the cells' centres, as many as cover it. It
// refuses a step that is no distance, an empty area, and more than MaxDangerPoints
// points; on an error the lattice has no points.
func LayGrid(area [4]float64, step float64) (Lattice, error) {
	none := Lattice{Step: step}
	if !(step > 0) || math.IsInf(step, 0) {
		return none, volley.Errorf(volley.EINVALID, "advise: step must be a positive distance")
	}
	w, h := area[2]-area[0], area[3]-area[1]
	if !(w > 0 && h > 0) {
		return none, volley.Errorf(volley.EINVALID, "advise: the area to map is empty")
	}
	fc, fr := math.Ceil(w/step-1e-9), math.Ceil(h/step-1e-9)
	if fc*fr > MaxDangerPoints {
		return none, volley.Errorf(volley.EINVALID, "advise: %g × %g points at step %g is more than the %d a danger map may have: use a larger step",
			fc, fr, step, MaxDangerPoints)
	}
	return Lattice{Step: step, X0: area[0] + step/2, Y0: area[1] + step/2, Cols: int(fc), Rows: int(fr)}, nil
}

// LayDanger lays the points of q's map: over q.Area, or the whole table t's bounds when
// q names no area; q.Step apart, or defaultStep (in the table's unit) when q names none.
func LayDanger(q DangerQuery, t volley.Table, defaultStep float64) (Lattice, error) {
	area, step := q.Area, q.Step
	if area == [4]float64{} {
		area = t.Table().Bounds
	}
	if step == 0 {
		step = defaultStep
	}
	return LayGrid(area, step)
}

// SquareAround lays the (2k+1) × (2k+1) points step apart centred on at (in the table's
// unit), as a formation's position map lays them round its centre (standing still is one
// of them); pkg names the rule system in the refusal (at "step") of more than
// MaxDangerPoints points. The test is written so that a count that overflows, or is not
// a number, is refused too.
func SquareAround(at [2]float64, k, step float64, pkg string) (Lattice, error) {
	if side := 2*k + 1; !(side*side <= MaxDangerPoints) {
		return Lattice{}, Invalid("step", "%s: %g × %g points at step %g is more than the %d a map may have: use a larger step", pkg, side, side, step, MaxDangerPoints)
	}
	n := int(2*k + 1)
	return Lattice{Step: step, X0: at[0] - k*step, Y0: at[1] - k*step, Cols: n, Rows: n}, nil
}

// Within counts the points of l, placed by point, no further than d from at: what a
// map prices, the others being out of reach.
func (l Lattice) Within(point func(c, r int) geom.Vec, at geom.Vec, d float64) int64 {
	n := int64(0)
	for r := range l.Rows {
		for c := range l.Cols {
			if point(c, r).Dist(at) <= d+geom.Tolerance {
				n++
			}
		}
	}
	return n
}

// Points is how many points the lattice has.
func (l Lattice) Points() int { return l.Cols * l.Rows }

// At is point (c, r) in the system's own length: its place in the table's unit divided
// by per, the table's unit per one of the system's (an inch, a centimetre).
func (l Lattice) At(c, r int, per float64) (x, y float64) {
	return (l.X0 + float64(c)*l.Step) / per, (l.Y0 + float64(r)*l.Step) / per
}

// CheckSide refuses a map for a side no unit of the battle is on; system names the
// rule system in the error, and sides are the battle's.
func CheckSide(system, side string, sides []string) error {
	if slices.Contains(sides, side) {
		return nil
	}
	return volley.Errorf(volley.EINVALID, "%s: side: no unit is on side %q%s", system, side, scenario.Hint(side, sides))
}

// Invalid refuses a map's query for its field at fault (EINVALID): the API answers it
// 400, naming the field.
func Invalid(field, format string, args ...any) error {
	e := volley.Errorf(volley.EINVALID, format, args...)
	e.Field = field
	return e
}

// NewDangerMap is q's map over the lattice l before its points are worked out (Fill):
// placed says what is placed, unit is the table's unit, and expected what a value is
// under the Expected objective (the measure the system counts as lost). The objective
// is q's, Destroyed when q names none.
func NewDangerMap(q DangerQuery, l Lattice, unit, placed, expected string) *DangerMap {
	obj := DangerObjective(q.Objective)
	return &DangerMap{Side: q.Side, As: q.As, Placed: placed, Objective: obj, Scores: DangerScores(obj, expected), Unit: unit,
		Lattice: l, Values: make([]float64, l.Points()), Firers: []string{}}
}

// DangerObjective is o, or Destroyed when o names none: a danger map's default.
func DangerObjective(o ObjectiveKind) ObjectiveKind {
	if o == "" {
		return Destroyed
	}
	return o
}

// DangerScores says in words what a danger value is under o: the chance the unit is
// destroyed, or expected, what the system counts as lost.
func DangerScores(o ObjectiveKind, expected string) string {
	if o == Expected {
		return expected
	}
	return "P(destroyed)"
}

// CopyPlace is what a map that places a copy of one of the battle's units offers for
// it: its id, labelled by its name where it has one.
func CopyPlace(id, name, side string) DangerPlace {
	if name == "" {
		name = id
	}
	return DangerPlace{As: id, Label: name, Side: side}
}

// OffenceObjective is the objective a position map scores offence under: q's, the
// Expected measure when q names none.
func OffenceObjective(q PositionQuery) Objective {
	if q.Objective.Kind == "" {
		return Objective{Kind: Expected}
	}
	return q.Objective
}

// NewPositionMap is the position map of unit, of side, over the lattice l before its
// points are worked out: from is where the unit stands and left how far it may still
// move, in length (the table's unit); offence says what the offence scores.
func NewPositionMap(unit, side string, from [2]float64, left float64, offence, length string, l Lattice) *PositionMap {
	n := l.Points()
	return &PositionMap{Unit: unit, Side: side, From: from, Left: left, Offence: offence, Length: length,
		Lattice: l,
		Reach:   make([]float64, n), OffenceValues: make([]float64, n), DangerValues: make([]float64, n)}
}

// FillDanger makes the danger map q asks of d the map's danger layer, as the first of its
// two stages of progress (Stage): its scores, and its values point for point. q must lay
// the map's own points; system names the rule system in the error (a fault) when it does
// not.
func (m *PositionMap) FillDanger(ctx context.Context, d Dangerer, q DangerQuery, system string) error {
	dm, err := d.Danger(Stage(ctx, 0, 2), q)
	if err != nil {
		return err
	}
	if dm.Cols != m.Cols || dm.Rows != m.Rows {
		return fmt.Errorf("%s: the danger map's grid (%d × %d) is not the position map's (%d × %d)", system, dm.Cols, dm.Rows, m.Cols, m.Rows)
	}
	m.Danger = dm.Scores
	copy(m.DangerValues, dm.Values)
	return nil
}

// FillOffence works out the offence layer, the second stage of progress after the
// danger layer (FillDanger), with FillGrid's cores and deadline: each point's offence,
// its reach noted by the PointFunc itself.
func (m *PositionMap) FillOffence(ctx context.Context, newPoint func() PointFunc) error {
	_, err := FillGrid(Stage(ctx, 1, 2), m.Cols, m.Rows, m.OffenceValues, newPoint)
	return err
}

// PriceDanger is what every Dangerer's DangerWork and Danger do first: q checked and its
// points laid (lay), then its work (work, and what it counts) refused over
// volley.MaxHeavyWork (CheckDangerWork).
func PriceDanger[G any](q DangerQuery, lay func(DangerQuery) (G, error), work func(G) (int64, string)) (G, int64, error) {
	g, err := lay(q)
	if err != nil {
		var none G
		return none, 0, err
	}
	w, err := CheckDangerWork(work(g))
	return g, w, err
}

// PricePosition is what every Positioner's PositionWork and Position do first: q checked
// and laid out (setup); the map refused when its ways alone cost too much (ways, which no
// step makes cheaper; nil where a system's ways are priced with the rest), then when its
// whole work (work, and what it counts) is over volley.MaxHeavyWork (CheckPositionWork).
func PricePosition[S any](q PositionQuery, setup func(PositionQuery) (S, error), ways func(S) error, work func(S) (int64, string)) (S, int64, error) {
	var none S
	s, err := setup(q)
	if err != nil {
		return none, 0, err
	}
	if ways != nil {
		if err := ways(s); err != nil {
			return none, 0, err
		}
	}
	w, err := CheckPositionWork(work(s))
	return s, w, err
}
