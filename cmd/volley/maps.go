package main

import (
	"fmt"
	"image/color"
	"io"
	"math"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/scenario"
)

// What the danger and position commands share: the step flag, the map answered as text
// or JSON with its plot, and the colour ramps of the plots.

// stepFlag reads a map's --step on battle b: a distance in the table's unit, or with its
// own; 0 (the system's default) when it is not given. A grid map has no step.
func stepFlag(b volley.Battle, step string) (float64, error) {
	if step == "" {
		return 0, nil
	}
	unit := scenario.Inch
	if t, ok := b.(volley.Table); ok && t.Table().Unit != "" {
		unit = scenario.Unit(t.Table().Unit)
	}
	if _, grid := b.(volley.Board); grid {
		return 0, volley.Errorf(volley.EINVALID, "--step: a grid map is mapped square by square")
	}
	s, err := scenario.ParseLength(step, unit)
	if err != nil || s <= 0 {
		return 0, volley.Errorf(volley.EINVALID, "--step: want a positive distance such as 0.5 or 0.5in, not %q", step)
	}
	return s.In(unit), nil
}

// answerMap writes a map as its command was asked: drawn into plotName first, when given
// (plot), then as JSON (asJSON, the answer's one shape) or as text for people (text),
// saying where the plot went.
func answerMap(e *env, l *loaded, o output, plotName string, plot func() error, asJSON any, text func(w io.Writer)) error {
	if plotName != "" {
		if err := plot(); err != nil {
			return err
		}
	}
	if o.JSON {
		return writeJSON(e.stdout, asJSON)
	}
	writeHeading(e.stdout, l)
	text(e.stdout)
	if plotName != "" {
		fmt.Fprintf(e.stdout, "\nplot written to %s\n", plotName)
	}
	return nil
}

// rampColour is a value's colour on a ramp from its first stop (nothing) to its last
// (peak, the map's most), mixed between the two stops it falls between; none where the
// value is NaN (no value there).
func rampColour(stops []color.RGBA, none color.Color, v, peak float64) color.Color {
	if math.IsNaN(v) {
		return none
	}
	t := 0.0
	if peak > 0 {
		t = v / peak
	}
	x := t * float64(len(stops)-1)
	i := min(int(x), len(stops)-2)
	f := x - float64(i)
	mix := func(a, b uint8) uint8 { return uint8(float64(a) + (float64(b)-float64(a))*f + 0.5) }
	a, b := stops[i], stops[i+1]
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xff}
}
