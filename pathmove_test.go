package volley_test

import (
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/scenario"
)

// TestDecodePathMove: a move and a deployment read in the battle's unit; an unknown unit
// with a hint, a point off every table and a path without a point refused at their places.
func TestDecodePathMove(t *testing.T) {
	doc := func(src string) *scenario.Doc {
		d := rulestest.Parse(t, "action.yaml", src)
		return d
	}
	ids := []string{"r1", "b1"}
	m, err := volley.DecodePathMove(doc(`{type: move, unit: r1, path: [[2.54, 0], [2.54, 5.08]]}`), scenario.Centimetre, ids, true)
	if err != nil || m.Unit != "r1" || len(m.Points) != 2 || m.Points[1].Y != 2 || m.Path(m.Points[0]).Length() != 2 {
		t.Fatalf("%+v, %v", m, err)
	}
	for src, want := range map[string]string{
		`{type: move, unit: r2, path: [[1, 1]]}`:   `action.yaml:1:20: move: unknown unit "r2" (did you mean "r1"?)`,
		`{type: move, unit: r1, path: [[1, 5e4]]}`: `action.yaml:1:31: move: path: coordinates must lie within ±10000`,
		`{type: move, unit: r1, path: []}`:         `action.yaml:1:30: move: path: give the points the unit moves through`,
		`{type: deploy, unit: b2, at: [1, 1]}`:     `action.yaml:1:22: deploy: unknown unit "b2" (did you mean "b1"?)`,
		`{type: deploy, unit: b1, at: [-5e4, 1]}`:  `action.yaml:1:30: deploy: at: coordinates must lie within ±10000`,
	} {
		var err error
		if strings.Contains(src, "deploy") {
			table := volley.Tabletop{Deploying: true}
			_, err = table.DecodePlacing(doc(src), scenario.Inch, ids, true)
		} else {
			_, err = volley.DecodePathMove(doc(src), scenario.Inch, ids, true)
		}
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v; want %s…", src, err, want)
		}
	}
}
