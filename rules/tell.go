package rules

import (
	"fmt"
	"strings"

	"github.com/volley-wargames/volley"
)

// TellMove tells a unit's move as a player follows it, from the move's step of the
// trace: "K1 moved 4″ (6″ of its 8″ this turn)". over is what the allowance is spent over
// ("this turn", "this activation"), the step's input moved_this_turn or
// moved_this_activation how far the unit has moved in it. Lengths are written in the
// unit the step's own words use.
func TellMove(s volley.Step, over string) string {
	u := UnitOf(s.Sentence())
	length, _ := s.Number("length")
	moved, _ := s.Number("moved_" + strings.ReplaceAll(over, " ", "_"))
	allowance, _ := s.Number("move")
	return fmt.Sprintf("%s moved %s (%s of its %s %s)", s.Text("unit"), u.Format(length), u.Format(moved), u.Format(allowance), over)
}

// TellDeploy tells a deployment as a player follows it, from its step of the trace:
// "K1 deployed at (4, 9), facing 90°". The place and the facing are told where the step
// gives them (its inputs at, [x, y], and facing), in the step's own numbers.
func TellDeploy(s volley.Step) string {
	line := s.Text("unit") + " deployed"
	var p []float64
	switch v := s.Inputs["at"].(type) {
	case []float64:
		p = v
	case []any: // as a stored log gives it back
		for _, c := range v {
			if f, ok := c.(float64); ok {
				p = append(p, f)
			}
		}
	}
	if len(p) == 2 {
		line += fmt.Sprintf(" at (%s, %s)", volley.FormatNumber(p[0]), volley.FormatNumber(p[1]))
	}
	if f, ok := s.Number("facing"); ok {
		line += fmt.Sprintf(", facing %s°", volley.FormatNumber(f))
	}
	return line
}

// ValueText writes a step's result, or another value of the trace, as a player reads it:
// a float64 as volley.FormatNumber writes it, anything else as fmt prints it.
func ValueText(v any) string {
	if x, ok := v.(float64); ok {
		return volley.FormatNumber(x)
	}
	return fmt.Sprint(v)
}

// LengthUnit is the unit a step of the trace writes lengths in: "cm" or "″".
type LengthUnit string

// UnitOf reads the unit a step's words write lengths in: centimetres if they say "cm",
// else inches.
func UnitOf(words string) LengthUnit {
	if strings.Contains(words, "cm") {
		return "cm"
	}
	return "″"
}

// Format writes a length in the unit: 4″, 10.5cm.
func (u LengthUnit) Format(x float64) string { return volley.FormatNumber(x) + string(u) }
