package advise

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/volley-wargames/volley"
)

// Dangerer is implemented by battles that can map where a unit is in danger.
type Dangerer interface {
	// DangerWork is the work q's map would do, in volley.MaxWork's steps, found without
	// doing it by the model Battle.Cost prices actions with (points, firers, models,
	// sight rays, terrain edges, landing squares); or the error of a query that cannot be
	// mapped. Danger refuses a map above volley.MaxHeavyWork with CheckDangerWork.
	DangerWork(q DangerQuery) (int64, error)
	// Danger places a unit of q.As, of q.Side, on every point of the table in turn and
	// works out the best the other sides could do to it next, under q.Objective. It
	// stops when ctx is done, within a point's work.
	Danger(ctx context.Context, q DangerQuery) (*DangerMap, error)
}

// DangerPlacer is implemented by Dangerers that say what a map may place, so that a
// client offers only what DangerQuery.As takes: unit types in some systems, copies of the
// battle's units in others.
type DangerPlacer interface {
	DangerPlaces() []DangerPlace
}

// DangerPlace is one value DangerQuery.As takes: what it is called, and the side it
// belongs to (a map may still place it on another side).
type DangerPlace struct {
	As    string `json:"as"`
	Label string `json:"label"`
	Side  string `json:"side"`
}

// PlacedID is the id of the unit a danger map places, where the system gives it one
// (a name no unit of a scenario is likely to take, and which reads as what it is).
const PlacedID = "(placed)"

// TypePlaces are the DangerPlaces of a system whose maps place a unit of a type
// (DangerQuery.As names the type): every type of types that has something to lose, those
// of the battle's units first, each with the side of the first unit of it, then the
// others in name order, of no side. of says a unit's type name and side; mayLose whether
// a unit of the type has something to lose (Dropzone's damage points, the War Engine's
// hits).
func TypePlaces[U, T any](units []U, types map[string]T, of func(*U) (typeName, side string), mayLose func(T) bool) []DangerPlace {
	var out []DangerPlace
	seen := map[string]bool{}
	for i := range units {
		name, side := of(&units[i])
		if t, ok := types[name]; ok && !seen[name] && mayLose(t) {
			seen[name] = true
			out = append(out, DangerPlace{As: name, Label: name, Side: side})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(types)) {
		if !seen[name] && mayLose(types[name]) {
			out = append(out, DangerPlace{As: name, Label: name})
		}
	}
	return out
}

// DangerQuery asks for a danger map.
type DangerQuery struct {
	// Side is the side of the unit placed; every other side fires at it.
	Side string
	// As is the unit type placed.
	As string
	// Step is the distance between points, in the table's unit; 0 for the system's
	// default (a square on a grid map).
	Step float64
	// Area is [minX, minY, maxX, maxY] to map, in the table's unit; all zero for the
	// area worth drawing (every unit and piece of terrain, with a margin). Grid maps
	// map every square, or the squares [column, row] an area holds.
	Area [4]float64
	// Objective is Destroyed (the chance the unit is destroyed, the default) or Expected
	// (the measure it is expected to lose).
	Objective ObjectiveKind
	// Like, when set, is a unit of the battle whose state the unit placed takes (the
	// damage it has taken), rather than a fresh unit of type As: a position map asks it
	// of the unit that moves.
	Like string
}

// DangerMap is, for every point, what the best plan of the other sides does to a unit
// placed there: the chance it is destroyed, or the measure it is expected to lose. The
// best plan against a lone unit is every weapon that can reach it firing at it: more fire
// never lowers either value, so no search is needed.
//
// Points are cell centres: point (c, r) is at (X0 + c·Step, Y0 + r·Step). Values[r·Cols+c]
// is NaN where the unit cannot stand (inside solid terrain, off the map), written null in
// JSON.
type DangerMap struct {
	Side string `json:"side"`
	As   string `json:"as"`
	// Placed says in words what is placed: "a Sabre", "a copy of raiders".
	Placed    string        `json:"placed"`
	Objective ObjectiveKind `json:"objective"`
	// Scores says in words what a value is.
	Scores string `json:"scores"`
	Unit   string `json:"unit"`
	// Lattice is where the points stand.
	Lattice
	// Grid is true on a square grid map, where a point is a square and y grows down the
	// map as its rows are written.
	Grid   bool      `json:"grid,omitempty"`
	Values []float64 `json:"-"`
	// Max is the largest value, for a legend.
	Max float64 `json:"max"`
	// Firers are the units that may fire at the placed unit somewhere on the map.
	Firers []string `json:"firers"`
	Notes  []string `json:"notes,omitempty"`
}

// At is the value of point (c, r).
func (m *DangerMap) At(c, r int) float64 { return m.Values[r*m.Cols+c] }

// MarshalJSON writes the map with its values, null where a unit cannot stand.
func (m *DangerMap) MarshalJSON() ([]byte, error) {
	type plain DangerMap
	return marshalWith((*plain)(m), "values", len(m.Values), func(i int) string {
		if math.IsNaN(m.Values[i]) {
			return "null"
		}
		return strconv.FormatFloat(m.Values[i], 'g', 6, 64)
	})
}

// marshalWith writes v, a struct, as its JSON object with one more member at its end:
// key, the array of what item writes for each i below n, an item written "" left out. A
// map's points are written so, by hand, because encoding/json refuses NaN, which a map
// writes as null where a unit cannot stand or go.
func marshalWith(v any, key string, n int, item func(i int) string) ([]byte, error) {
	head, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Write(head[:len(head)-1])
	b.WriteString(`,"` + key + `":[`)
	first := true
	for i := range n {
		s := item(i)
		if s == "" {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(s)
	}
	b.WriteString("]}")
	return b.Bytes(), nil
}

// MaxDangerPoints bounds a danger map's points, so that a query cannot ask for more work
// than a stated budget: 250,000 points (a 500×500 grid, or a 48"×48" table at 0.1").
const MaxDangerPoints = 250_000

// CheckDangerWork refuses a danger map whose work is above volley.MaxHeavyWork; why
// says what the work counts, in the system's own terms.
func CheckDangerWork(work int64, why string) (int64, error) {
	if work > volley.MaxHeavyWork {
		return work, volley.TooMuchWork("this danger map", work, why, "use a larger step or a smaller area", "step")
	}
	return work, nil
}

// PointsWork is the work of a map of points points, each costing perPoint steps, and
// what it counts.
func PointsWork(points int, perPoint int64) (int64, string) {
	return satMul(int64(points), perPoint), fmt.Sprintf("%d points × %d steps a point", points, perPoint)
}

// satMul is a·b for non-negative a and b, or the largest int64 when that overflows.
func satMul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

// MulWork and AddWork multiply and add prices (non-negative, in volley.MaxWork's steps)
// as a price is refused: a result too large for an int64 is the largest, which is
// refused all the same.
func MulWork(a, b int64) int64 { return satMul(a, b) }

// AddWork is the sum of prices, or the largest int64 when it overflows (see MulWork).
func AddWork(xs ...int64) int64 {
	t := int64(0)
	for _, x := range xs {
		if t > math.MaxInt64-x {
			return math.MaxInt64
		}
		t += x
	}
	return t
}

// Finish sets the map's maximum.
func (m *DangerMap) Finish() {
	m.Max = 0
	for _, v := range m.Values {
		if !math.IsNaN(v) {
			m.Max = max(m.Max, v)
		}
	}
}

// DangerValue is a lone target's value under a danger objective, given its capped
// distribution of the measure: the chance of reaching left, or the mean.
func DangerValue(o ObjectiveKind, d []float64, left int) float64 {
	if o == Expected {
		m := 0.0
		for n, p := range d {
			m += float64(n) * p
		}
		return m
	}
	return d[left]
}

// Convolve adds e into d (both capped at len(d)-1), writing into out, which must have
// len(d) and not alias d.
func Convolve(out, d, e []float64) {
	left := len(d) - 1
	clear(out)
	for a, pa := range d {
		if pa == 0 {
			continue
		}
		for n, q := range e {
			out[min(a+n, left)] += pa * q
		}
	}
}

// ParseDangerObjective reads a danger map's objective: "destroyed" (the default) or
// "expected" (and the names of the measures).
func ParseDangerObjective(s string) (ObjectiveKind, error) {
	if s == "" {
		return Destroyed, nil
	}
	o, err := ParseObjective(s)
	if err != nil || (o.Kind != Destroyed && o.Kind != Expected) {
		return "", volley.Errorf(volley.EINVALID, "advise: a danger map shows destroyed (the chance) or expected (the measure lost), not %q", s)
	}
	return o.Kind, nil
}

type coresKey struct{}

// WithCores bounds the cores a danger map made under ctx may use (every core, unless
// told): a server gives each heavy request the cores it holds a place for, so that
// light requests keep the others.
func WithCores(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, coresKey{}, n)
}

// PointFunc works out one point of a danger map, column c and row r, noting in firers
// every unit that could fire there. It is one core's own: it may keep scratch.
type PointFunc func(c, r int, firers map[string]bool) (float64, error)

// progressKey is the context key of a map's progress report (WithProgress).
type progressKey struct{}

// WithProgress returns a context under which Fill reports its progress to f: the rows
// done and the rows in all, after each row. f is called from the cores that fill the
// map, so it must be safe to call at once from several and return at once.
func WithProgress(ctx context.Context, f func(done, rows int)) context.Context {
	return context.WithValue(ctx, progressKey{}, f)
}

// Stage returns a context under which a map's progress counts as stage i (from 0) of n
// equal stages: a position map fills its danger layer, then its offence layer, over the
// same rows, and its progress runs once from 0 to n × rows, not twice from 0 to rows.
// Without a progress report it returns ctx.
func Stage(ctx context.Context, i, n int) context.Context {
	f, ok := ctx.Value(progressKey{}).(func(done, rows int))
	if !ok {
		return ctx
	}
	return WithProgress(ctx, func(done, rows int) { f(i*rows+done, n*rows) })
}

// Fill computes every point of m, its rows shared among the machine's cores, each core
// with the PointFunc newPoint makes for it. Each point is computed alone, so the map does
// not depend on how many cores there are. It then lists the firers and the maximum, and
// stops with ctx's error when ctx ends. Under WithProgress it reports each row done.
func Fill(ctx context.Context, m *DangerMap, newPoint func() PointFunc) error {
	firers, err := FillGrid(ctx, m.Cols, m.Rows, m.Values, newPoint)
	if err != nil {
		return err
	}
	if m.Firers == nil {
		m.Firers = []string{}
	}
	for _, f := range firers {
		for id := range f {
			if !slices.Contains(m.Firers, id) {
				m.Firers = append(m.Firers, id)
			}
		}
	}
	slices.Sort(m.Firers)
	m.Finish()
	return nil
}

// Filled is m with every point computed (Fill), or ctx's error or a point's, and no map.
func (m *DangerMap) Filled(ctx context.Context, newPoint func() PointFunc) (*DangerMap, error) {
	if err := Fill(ctx, m, newPoint); err != nil {
		return nil, err
	}
	return m, nil
}

// FillGrid computes values[r·cols+c] for every point of a grid, its rows shared among the
// cores (at most those WithCores allows), each core with its own PointFunc; it returns
// each core's firers. The deadline is checked at every point.
func FillGrid(ctx context.Context, cols, rows int, values []float64, newPoint func() PointFunc) ([]map[string]bool, error) {
	var next atomic.Int64
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	if n, ok := ctx.Value(coresKey{}).(int); ok {
		workers = max(1, min(n, workers))
	}
	progress, _ := ctx.Value(progressKey{}).(func(done, rows int))
	var rowsDone atomic.Int64
	firers := make([]map[string]bool, workers)
	errs := make([]error, workers)
	for w := range workers {
		firers[w] = map[string]bool{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			at := newPoint()
			for {
				r := int(next.Add(1) - 1)
				if r >= rows {
					return
				}
				for c := range cols {
					// Every point checks the deadline, so that a map stops within a point's
					// work of it (a client gone, a request out of time).
					if errs[w] = ctx.Err(); errs[w] != nil {
						return
					}
					v, err := at(c, r, firers[w])
					if err != nil {
						errs[w] = err
						return
					}
					values[r*cols+c] = v
				}
				if progress != nil {
					progress(int(rowsDone.Add(1)), rows)
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return firers, nil
}
