package dropzone

import (
	"math"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rulestest"
)

// behindTheWall is the edition 2 log's table (http/testdata/v2-logs): a wall whose far top
// edge is on the line from the gun's eye to 55% of the target's height, so that 45% of
// it is seen.
const behindTheWall = `ruleset: dropzone
types:
  - name: Gun Tank
    armour: 9
    damage_points: 3
    base: 1
    height: 1
    weapons:
      - {name: Cannon, mf: 2", arc: F/S/R, full_range: 30", countered_range: 10", shots: 2, accuracy: 3+, energy: 10}
units:
  - {id: gun, type: Gun Tank, side: Red, squad: guns, at: [0, 0], facing: 0}
  - {id: target, type: Gun Tank, side: Blue, squad: targets, at: [0, 20], facing: 180}
terrain:
  - {id: wall, polygon: [[-3, 10], [3, 10], [3, 10.5], [-3, 10.5]], height: 0.764}
action:
  squad: guns
  declarations: [{unit: gun, weapon: Cannon, target: target}]
`

func loadEdition(tb testing.TB, src string, edition int) (*Battle, *Shooting) {
	tb.Helper()
	b, a, err := rulestest.LoadEdition(tb, Ruleset{}, "test.yaml", []byte(src), edition)
	if err != nil {
		tb.Fatal(err)
	}
	s, _ := a.(*Shooting)
	return b.(*Battle), s
}

// TestHullDownExact: hull down is seeing "less than half of the target" (Dropzone's
// shooting rules), and from edition 4 the half is measured exactly: behind a wall
// hiding 55% of it the target is hull down (+2), where 9 × 8 rays (editions 2 and 3, kept for
// battles begun then) counted half and said not.
func TestHullDownExact(t *testing.T) {
	// The line over the wall's far top edge (0.764" at y = 10.5) from the eye (1" up)
	// reaches 1 - 0.236·20/10.5 up the 1" body.
	want := 1 - (1 - 0.236*20/10.5)
	for _, tt := range []struct {
		edition      int
		visible      float64
		need         float64
		reason, note string
	}{
		{volley.Edition, want, 5, "hull down: gun sees 45% of target", ""},
		{2, 0.5, 3, "", "gun sees 50% of target: not hull down"},
	} {
		b, a := loadEdition(t, behindTheWall, tt.edition)
		s := mustPlan(t, b, a)[0]
		if math.Abs(s.visible-tt.visible) > 1e-12 || s.aim.Need != tt.need {
			t.Errorf("edition %d: sees %v, needs %v; want %v and %v", tt.edition, s.visible, s.aim.Need, tt.visible, tt.need)
		}
		if tt.reason != "" && (len(s.aim.Modifiers) != 1 || s.aim.Modifiers[0].Rule != tt.reason) {
			t.Errorf("edition %d: modifiers %v; want %q", tt.edition, s.aim.Modifiers, tt.reason)
		}
		if tt.note != "" && (len(s.aim.Notes) == 0 || !strings.Contains(s.aim.Notes[0], tt.note)) {
			t.Errorf("edition %d: notes %v; want %q", tt.edition, s.aim.Notes, tt.note)
		}
	}
}

// TestHullDownExactlyHalf: a target seen exactly half (the gun's eye level with the
// wall's top, which hides the lower half) is not seeing "less than half": not hull down,
// though float64 may leave the measure a hair under half.
func TestHullDownExactlyHalf(t *testing.T) {
	src := strings.Replace(behindTheWall, "height: 0.764", "height: 1", 1)
	src = strings.Replace(src, "{id: target, type: Gun Tank, side: Blue, squad: targets, at: [0, 20]", "{id: target, type: Gun Tank, side: Blue, squad: targets, at: [0, 20], elevation: 0.5", 1)
	b, a := loadEdition(t, src, volley.Edition)
	s := mustPlan(t, b, a)[0]
	if math.Abs(s.visible-0.5) > 1e-9 || s.aim.Need != 3 {
		t.Errorf("sees %v, needs %v; want half and 3+", s.visible, s.aim.Need)
	}
}

// TestBlockersNamed: a target no part of which is seen names every piece that hides a
// part of it, from edition 4.
func TestBlockersNamed(t *testing.T) {
	src := strings.Replace(behindTheWall, "  - {id: wall, polygon: [[-3, 10], [3, 10], [3, 10.5], [-3, 10.5]], height: 0.764}\n",
		"  - {id: east, polygon: [[0, 10], [3, 10], [3, 10.5], [0, 10.5]], height: 5}\n  - {id: west, polygon: [[-3, 12], [0, 12], [0, 12.5], [-3, 12.5]], height: 5}\n  - {id: far, polygon: [[-3, 30], [3, 30], [3, 31], [-3, 31]], height: 5}\n", 1)
	b, a := loadEdition(t, src, volley.Edition)
	s := mustPlan(t, b, a)[0]
	if s.aim.Status != volley.StatusBlocked || !strings.Contains(s.aim.Reason, "east, west in the way") {
		t.Errorf("%s: %s; want blocked by east and west", s.aim.Status, s.aim.Reason)
	}
}
