package rules

import (
	"fmt"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
)

// Record gathers a resolution's trace, step by step. A nil *Record keeps nothing: a
// simulation (the odds, the advice) runs the same rolls as a resolution without the cost
// of saying them.
type Record struct{ Steps []volley.Step }

// Step adds a step to the trace: the rule, what it read, and what it gave.
func (r *Record) Step(rule string, in map[string]any, result any) {
	if r != nil {
		r.Steps = append(r.Steps, volley.Step{Rule: rule, Inputs: in, Result: result})
	}
}

// Purpose is what a die is rolled for, built only when d records it: formatting it costs
// more than the die itself.
func Purpose(d *dice.Stream, format string, args ...any) string {
	if !d.Recording() {
		return ""
	}
	return fmt.Sprintf(format, args...)
}
