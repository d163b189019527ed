package warstrike

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/rulestest"
)

var _ advise.Pinner = (*Battle)(nil)

// pinTable is a bare table of the warstrike example with two Scouts (rifles) of the
// Ironclad 20″ from the Verdant's Gunners (two support guns), who have as many
// suppression markers as markers says now, and as atStart says when their last action
// phase began.
func pinTable(t *testing.T, markers, atStart string) *Battle {
	t.Helper()
	head, _, ok := strings.Cut(string(sys.ReadExample(t, "battle.yaml")), "\nterrain:\n")
	if !ok {
		t.Fatal("the warstrike example has no terrain: section")
	}
	src := head + `
units:
  - {id: scouts, name: Scouts, side: Ironclad, base: 1, height: 1.2, weapon: rifle, armour: 3, toughness: 3,
     models: [{id: scout-leader, at: [20, 4], leader: true}, {id: scout-2, at: [22, 4]}]}
  - {id: gunners, name: Gunners, side: Verdant, base: 1.5, height: 1.4, weapon: support_gun, armour: 3, toughness: 4, wounds: 2,
     suppression: ` + markers + `, suppression_at_start: ` + atStart + `,
     models: [{id: gun-leader, at: [20, 24], leader: true}, {id: gun-2, at: [22, 24]}]}
end: {turns: 4}
`
	b, _ := rulestest.Load(t, Ruleset{}, "pin.yaml", []byte(src))
	return b.(*Battle)
}

// The chance that the Scouts' fire pins the Gunners down is the chance it gives them the
// markers that bring them to two (Who Can Shoot?): with one marker, any penetration;
// with none, never (one marker a shooting at most, in the example's tables); pinned down
// already, nothing more.
func TestPinned(t *testing.T) {
	for _, tc := range []struct {
		markers string
		want    func(p1 float64) float64
	}{
		{"1", func(p1 float64) float64 { return p1 }},
		{"0", func(float64) float64 { return 0 }},
		{"2", func(float64) float64 { return 0 }},
	} {
		b := pinTable(t, tc.markers, tc.markers)
		a, err := advise.DecodePlan(b, map[string]any{"unit": "scouts", "targets": []any{map[string]any{"unit": "gunners"}}})
		if err != nil {
			t.Fatal(err)
		}
		odds := rulestest.Odds(t, b, a)
		if len(odds.Targets) != 1 {
			t.Fatalf("odds at %d targets", len(odds.Targets))
		}
		tg := odds.Targets[0]
		p1 := tg.Distributions[MeasureSuppression].AtLeast(1)
		if p1 <= 0.05 || p1 >= 0.95 {
			t.Fatalf("a marker %.3f likely: the test checks too little", p1)
		}
		if got, want := b.Pinned(tg), tc.want(p1); math.Abs(got-want) > 1e-12 {
			t.Errorf("%s markers: pinned %.6f; want %.6f", tc.markers, got, want)
		}
	}
}

// A danger map is the enemy's next fire: a unit with two markers now, though it began
// its last action phase with one, may not shoot in its next one, and puts no one in
// danger; with one marker it does.
func TestDangerOfAUnitPinnedDown(t *testing.T) {
	ctx := context.Background()
	at := func(b *Battle) float64 {
		m, err := b.Danger(ctx, advise.DangerQuery{Side: "Ironclad", As: "scouts", Objective: advise.Expected, Area: [4]float64{20, 3, 23, 5}})
		if err != nil {
			t.Fatal(err)
		}
		return m.At(1, 1)
	}
	if d := at(pinTable(t, "1", "1")); d <= 0 {
		t.Fatalf("danger to the Scouts with one marker on the Gunners: %g; the test checks nothing", d)
	}
	if d := at(pinTable(t, "2", "1")); d != 0 {
		t.Errorf("danger to the Scouts from Gunners pinned down since their last turn: %g; want 0", d)
	}
}
