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
