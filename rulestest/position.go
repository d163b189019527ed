package rulestest

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/scenario"
)

// StandingStill is the index of a position map's point at the unit's own place (From),
// which every map must offer with a reach of 0: standing still is one of a unit's
// choices. It fails the test when the map has none, naming the nearest point.
func StandingStill(tb testing.TB, m *advise.PositionMap) int {
	tb.Helper()
	best, at := math.Inf(1), -1
	for i := range m.Reach {
		p := m.Point(i)
		if d := math.Hypot(p.X-m.From[0], p.Y-m.From[1]); d < best {
			best, at = d, i
		}
	}
	if at < 0 || best > 1e-6 {
		tb.Fatalf("no point of the map is the unit's own place %v: the nearest is %v away", m.From, best)
	}
	if r := m.Reach[at]; r != 0 {
		tb.Fatalf("the unit's own place %v is %v away on the map; want 0", m.From, r)
	}
	return at
}

// PositionBattle is a battle with an advisor and a position map.
type PositionBattle interface {
	volley.Battle
	advise.Positioner
}

// OffenceStandingStill checks unit's position map at each of steps: its own place is a
// point of it at no distance (StandingStill), and the offence there is, within tol, the
// advisor's best plan for the unit (of side) where it stands; 0 where the advisor has
// no plan for it.
func OffenceStandingStill(tb testing.TB, b PositionBattle, side, unit string, steps []float64, tol float64) {
	tb.Helper()
	ctx := context.Background()
	want := 0.0
	if adv, err := advise.Advise(ctx, b, advise.Query{Side: side, Actor: unit}, advise.Objective{Kind: advise.Expected}, 1, advise.Budget{}); err == nil {
		want = adv[0].Plans[0].Value
	}
	for _, step := range steps {
		m, err := b.Position(ctx, advise.PositionQuery{Unit: unit, Step: step})
		if err != nil {
			tb.Fatal(err)
		}
		i := StandingStill(tb, m)
		if got := m.OffenceValues[i]; math.Abs(got-want) > tol {
			tb.Errorf("step %v: offence standing still %v; the advisor where %s stands: %v", step, got, unit, want)
		}
	}
}

// PlayMapAction plays on b an action a map wrote (a position map's move), as its JSON
// reads back: the action, and b's refusal of it. An action that does not decode fails the
// test: the map wrote what no player could send.
func PlayMapAction(tb testing.TB, b volley.Battle, action map[string]any) (volley.Action, error) {
	tb.Helper()
	src, err := json.Marshal(action)
	if err != nil {
		tb.Fatal(err)
	}
	doc, err := scenario.Parse("move", src)
	if err != nil {
		tb.Fatal(err)
	}
	a, err := b.DecodeAction(doc)
	if err != nil {
		tb.Fatalf("%s: %v", src, err)
	}
	_, err = b.Resolve(context.Background(), a, dice.ForAction(1, 0))
	return a, err
}

// DangerRefusal is a danger query a map must refuse, and words its error must hold.
type DangerRefusal struct {
	Query advise.DangerQuery
	Want  string
}

// DangerRefuses fails the test for each refusal whose query d's Danger answers, or
// refuses without its words.
func DangerRefuses(tb testing.TB, d advise.Dangerer, refusals []DangerRefusal) {
	tb.Helper()
	for _, r := range refusals {
		_, err := d.Danger(context.Background(), r.Query)
		if err == nil || !strings.Contains(err.Error(), r.Want) {
			tb.Errorf("%+v: %v, want %q", r.Query, err, r.Want)
		}
	}
}

// AdvisorsBest is the value of the advisor's best plan (of those it ranks first under
// obj) for q's actor of q's side in b: what a position map's offence must be where b
// stands. Where the advisor refuses the query as invalid (the actor may not act, has
// nothing to hurt or no legal plan), it is 0 and the refusal, for the caller to judge;
// any other error fails the test.
func AdvisorsBest(tb testing.TB, b volley.Battle, q advise.Query, obj advise.Objective) (float64, error) {
	tb.Helper()
	adv, err := advise.Advise(context.Background(), b, q, obj, 1, advise.Budget{})
	switch {
	case err == nil:
		return adv[0].Plans[0].Value, nil
	case volley.ErrorCode(err) != volley.EINVALID:
		tb.Fatalf("%s's best plan: %v", q.Actor, err)
	}
	return 0, err
}

// DangerAt is the danger d maps for q at the point (x, y) alone: q's area narrowed to a
// square 0.01 on a side round it, at a step of 0.01, so that the map has that one point
// (a grid system's one square). A map of another size fails the test.
func DangerAt(tb testing.TB, d advise.Dangerer, q advise.DangerQuery, x, y float64) float64 {
	tb.Helper()
	q.Step, q.Area = 0.01, [4]float64{x - 0.005, y - 0.005, x + 0.005, y + 0.005}
	m, err := d.Danger(context.Background(), q)
	if err != nil {
		tb.Fatalf("the danger map at (%v, %v): %v", x, y, err)
	}
	if m.Cols != 1 || m.Rows != 1 {
		tb.Fatalf("the danger map at (%v, %v) has %d × %d points, want the one", x, y, m.Cols, m.Rows)
	}
	return m.Values[0]
}

// DangerTolerance is how far a position map's danger may stray from the danger map's at
// the same point: both sum the same exact chances, in another order.
const DangerTolerance = 1e-12

// PointAgrees checks a position map's point p against what the battle says after the
// map's move there: its offence is offence (the advisor's best plan there) within tol,
// its danger is danger (the danger map there, DangerAt) within DangerTolerance.
func PointAgrees(tb testing.TB, p advise.PositionPoint, offence, tol, danger float64) {
	tb.Helper()
	if math.Abs(p.Offence-offence) > tol {
		tb.Errorf("at (%v, %v): offence %v; the advisor after the move: %v", p.X, p.Y, p.Offence, offence)
	}
	if math.Abs(p.Danger-danger) > DangerTolerance {
		tb.Errorf("at (%v, %v): danger %v; the danger map after the move: %v", p.X, p.Y, p.Danger, danger)
	}
}

// ParetoFront checks that m's front is what its name says: no point the map reaches
// beats one of the front on both scores (as much offence or more and as little danger
// or less, and strictly, beyond 1e-12, on one of them).
func ParetoFront(tb testing.TB, m *advise.PositionMap) {
	tb.Helper()
	for _, fp := range m.Pareto {
		for i, reach := range m.Reach {
			if math.IsNaN(reach) {
				continue
			}
			q := m.Point(i)
			if q.Offence >= fp.Offence && q.Danger <= fp.Danger && (q.Offence > fp.Offence+1e-12 || q.Danger < fp.Danger-1e-12) {
				tb.Fatalf("%v on the front is beaten by %v", fp, q)
			}
		}
	}
}

// ErrorField is the field a refusal names (its volley.Error's Field, where a position or
// danger query puts the parameter at fault), or "" for an error that names none.
func ErrorField(err error) string {
	var e *volley.Error
	if errors.As(err, &e) {
		return e.Field
	}
	return ""
}

// Sizable fails the test unless m reaches at least least points and has a front and top
// points: a brute-force check of a map smaller than its test meant proves little.
func Sizable(tb testing.TB, m *advise.PositionMap, least int) {
	tb.Helper()
	if m.Reachable < least || len(m.Pareto) == 0 || len(m.Top) == 0 {
		tb.Fatalf("%d points reachable (want %d or more), front %d, top %d", m.Reachable, least, len(m.Pareto), len(m.Top))
	}
}

// Sample is the points of m a brute-force test checks one by one (each costs a real move,
// an advice and a danger map): those m reaches whose index is a multiple of every. Fewer
// than least fails the test: a sample so small proves little.
func Sample(tb testing.TB, m *advise.PositionMap, every, least int) []int {
	tb.Helper()
	var sample []int
	for i, reach := range m.Reach {
		if !math.IsNaN(reach) && i%every == 0 {
			sample = append(sample, i)
		}
	}
	if len(sample) < least {
		tb.Errorf("only %d points checked, want %d or more", len(sample), least)
	}
	return sample
}

// Danger is d's danger map for q with no deadline, failing the test on an error.
func Danger(tb testing.TB, d advise.Dangerer, q advise.DangerQuery) *advise.DangerMap {
	tb.Helper()
	m, err := d.Danger(context.Background(), q)
	if err != nil {
		tb.Fatalf("the danger map: %v", err)
	}
	return m
}

// Position is p's position map for q with no deadline, failing the test on an error.
func Position(tb testing.TB, p advise.Positioner, q advise.PositionQuery) *advise.PositionMap {
	tb.Helper()
	m, err := p.Position(context.Background(), q)
	if err != nil {
		tb.Fatalf("the position map of %s: %v", q.Unit, err)
	}
	return m
}
