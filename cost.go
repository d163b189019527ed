package volley

import (
	"fmt"

	"github.com/volley-wargames/volley/scenario"
)

// MaxWork is the most work one action may ask of Aim, Odds or Resolve, in the units
// Battle.Cost counts: one elementary step of the computation, such as a ray of sight
// tested against one edge of a terrain footprint, a square of a heat-map visited, or a
// term of a convolution. A step costs about a nanosecond (a Dropzone action at MaxWork, a
// thousand-vertex hill in the way of every ray, takes a fifth of a second on one core of
// the machine docs/benchmarks.md was measured on). It is what keeps a server's worst
// request as cheap as its budget says, whatever the scenario holds.
const MaxWork = 200_000_000

// MaxHeavyWork is the most work one heavy request may ask, in MaxWork's steps: a piece of
// advice, a danger map, a map of where a unit could stand. Each weighs many actions at
// once, so it may do ten actions' worth (a couple of seconds of one core), priced by the
// same model as an action (Battle.Cost) before any of it is done.
const MaxHeavyWork = 10 * MaxWork

// TooMuchWork is the error of a heavy request whose price is above MaxHeavyWork: what
// it would cost, why (in the system's own terms), the limit, and what to change; field
// names the request's parameter to change.
func TooMuchWork(what string, work int64, why, change, field string) *Error {
	e := Errorf(EINVALID, "%s would take about %d steps of work (%s); volley refuses more than %d (10 × volley.MaxWork) for one request: %s",
		what, work, why, MaxHeavyWork, change)
	e.Field = field
	return e
}

// TooCostly is the error a rule system's DecodeAction gives for an action whose Cost is
// above MaxWork, at the action's position: what it would cost, why (in the system's own
// terms, such as "declarations × eye points × rays × terrain edges"), and the limit.
func TooCostly(doc *scenario.Doc, cost int64, why string) error {
	return scenario.ErrorList{{Pos: doc.Root(), Msg: fmt.Sprintf(
		"this action would take about %d steps of work (%s); volley refuses more than %d (volley.MaxWork): declare fewer shots or simplify the terrain", cost, why, MaxWork)}}
}

// CheckCost returns TooCostly when b's Cost of a is above MaxWork, and nil otherwise.
func CheckCost(doc *scenario.Doc, b Battle, a Action, why string) error {
	if c := b.Cost(a); c > MaxWork {
		return TooCostly(doc, c, why)
	}
	return nil
}
