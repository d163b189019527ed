package dropzone

import (
	"strings"
	"testing"

	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/scenario"
)

// TestFacingBounded (issue 34, 8): a move's facing of 1e308 was taken as 296°, whatever
// float64 left of it. From BoundsEdition a facing beyond MaxFacing is refused at the
// facing, as Republique refuses it; a battle begun before takes it as it did, so that its
// log replays.
func TestFacingBounded(t *testing.T) {
	src := sys.ReadExample(t, "moves.yaml")
	for _, tc := range []struct {
		edition  int
		accepted bool
	}{{BoundsEdition, false}, {BoundsEdition - 1, true}} {
		doc := rulestest.Parse(t, "moves.yaml", src)
		doc.Edition, doc.Accepted = tc.edition, true
		bb, _, err := Ruleset{}.Load(doc)
		if err != nil {
			t.Fatal(err)
		}
		b := bb.(*Battle)
		unit := b.units[0].ID
		for _, f := range []string{"1e308", "-721", "1e20"} {
			for _, kind := range []string{"move", "deploy"} {
				body := "{type: " + kind + ", unit: " + unit + ", path: [[1, 1]], facing: " + f + "}"
				if kind == "deploy" {
					body = "{type: deploy, unit: " + unit + ", at: [1, 1], facing: " + f + "}"
				}
				a, err := scenario.Parse("action.yaml", []byte(body))
				if err != nil {
					t.Fatal(err)
				}
				_, err = b.DecodeAction(a)
				refused := err != nil && strings.Contains(err.Error(), "facing must be a number of degrees, at most 720")
				if refused == tc.accepted {
					t.Errorf("edition %d, %s facing %s: %v", tc.edition, kind, f, err)
				}
			}
		}
	}
	for _, f := range []string{"720", "-720", "359.5"} { // bearings the bound keeps
		b, _ := sys.Load(t, "ruleset: dropzone\ntypes: [{name: T, armour: 5, damage_points: 3, base: 1, height: 1, move: 6}]\nunits: [{id: a, type: T, side: A, at: [5, 5], facing: "+f+"}]\n")
		if _, err := b.DecodeAction(mustParse(t, "{type: move, unit: a, path: [[6, 6]], facing: "+f+"}")); err != nil {
			t.Errorf("facing %s: %v", f, err)
		}
	}
}

// TestStoredOverlapsLoad: bases that overlap are refused in a new scenario only; a battle
// stored before the check loads as it was.
func TestStoredOverlapsLoad(t *testing.T) {
	src := "ruleset: dropzone\ntypes: [{name: T, armour: 5, damage_points: 3, base: 1, height: 1}]\nunits: [{id: a, type: T, side: A, at: [5, 5], facing: 1e308}, {id: b, type: T, side: B, at: [5.5, 5]}]\n"
	for _, accepted := range []bool{false, true} {
		doc, err := scenario.Parse("test.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		doc.Accepted = accepted
		_, _, err = Ruleset{}.Load(doc)
		if accepted && err != nil {
			t.Errorf("a stored battle: %v", err)
		}
		if list, _ := err.(scenario.ErrorList); !accepted && (len(list) != 2 || !strings.Contains(list.Error(), `overlaps the base of unit "a"`) || !strings.Contains(list.Error(), "facing")) {
			t.Errorf("a new scenario: %v", err)
		}
	}
}

func mustParse(tb testing.TB, src string) *scenario.Doc {
	tb.Helper()
	return rulestest.Parse(tb, "action.yaml", src)
}
