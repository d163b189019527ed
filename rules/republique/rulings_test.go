package republique

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rulestest"
)

// The rulings of issue 23, each under the edition that brought it (Edition3) and under
// edition 2, whose battles must replay as they were played. Each test quotes the few
// words of the text it rules on.

// loadEdition loads a scenario written beside a copy of the sample charts, read under
// edition ed (0: the current one).
func loadEdition(tb testing.TB, src string, ed int) (*Battle, volley.Action, error) {
	tb.Helper()
	path := rulestest.WriteBeside(tb, "x.yaml", src, sys.Example("sample-charts.yaml"))
	b, a, err := rulestest.LoadEdition(tb, Ruleset{}, path, nil, ed)
	if err != nil {
		return nil, nil, err
	}
	return b.(*Battle), a, nil
}

func mustLoadEdition(tb testing.TB, src string, ed int) (*Battle, volley.Action) {
	tb.Helper()
	b, a, err := loadEdition(tb, src, ed)
	if err != nil {
		tb.Fatalf("edition %d: %v", ed, err)
	}
	return b, a
}

// rules lists the rules of an aim's modifiers, each with its value.
func rulesOf(a volley.Aim) map[string]float64 {
	out := map[string]float64{}
	for _, m := range a.Modifiers {
		out[strings.SplitN(m.Rule, ":", 2)[0]] = m.Value
	}
	return out
}

const rulingHead = `ruleset: republique
distances: cm
charts: {file: sample-charts.yaml}
turn: {side: French, step: artillery}
`

// TestCompoundTargetsThroughDeepTarget: "If different unit types are targeted as a
// result of either the Deep target or Secondary target rules, use the modifiers most
// favorable to the battery." The centre of fire passes through a cavalry main target
// (two bases) into infantry 6cm behind its front (no tandem target): a deep target of
// three bases, and the infantry's modifiers (none) beat the cavalry's −1.
func TestCompoundTargetsThroughDeepTarget(t *testing.T) {
	src := rulingHead + `units:
  - {id: gun, side: French, kind: artillery, gun: 12pdr foot, frontage: 8, depth: 4, at: [0, 0]}
  - {id: hussars, side: Austrian, kind: cavalry, frontage: 3, depth: 2, facing: 180, positions: [[0, 15], [0, 17.5]]}
  - {id: IR3, side: Austrian, kind: infantry, frontage: 3, depth: 2, facing: 180, positions: [[0, 21]]}
action: {type: fire, batteries: [gun]}
`
	for _, tc := range []struct {
		edition  int
		cavalry  bool
		compound bool
	}{
		{0, false, true}, // "either the Deep target or Secondary target rules"
		{2, true, false}, // edition 2 weighed secondary targets only
	} {
		b, a := mustLoadEdition(t, src, tc.edition)
		aim := rulestest.Aim(t, b, a)[0]
		got := rulesOf(aim)
		if aim.Target != "hussars" || got["firing at a deep target"] != DeepTargetModifier {
			t.Fatalf("edition %d: target %s, modifiers %v; want hussars, a deep target", tc.edition, aim.Target, aim.Modifiers)
		}
		if _, has := got["firing at cavalry"]; has != tc.cavalry {
			t.Errorf("edition %d: cavalry modifier %v; want %v (modifiers %v)", tc.edition, has, tc.cavalry, aim.Modifiers)
		}
		noted := slices.ContainsFunc(aim.Notes, func(n string) bool { return strings.HasPrefix(n, "compound target: IR3") })
		if noted != tc.compound {
			t.Errorf("edition %d: compound note %v; want %v (notes %q)", tc.edition, noted, tc.compound, aim.Notes)
		}
	}
}

// TestNoDeepTargetInCover: the bases "must all be in open terrain", and the modifier "is
// not applicable against targets in woods". A main target in a wood with three open
// bases behind it in its bracket is no deep target from edition 3.
func TestNoDeepTargetInCover(t *testing.T) {
	src := rulingHead + `terrain:
  - {id: wood, cover: solid, polygon: [[-3, 13], [3, 13], [3, 17], [-3, 17]]}
units:
  - {id: gun, side: French, kind: artillery, gun: 12pdr foot, frontage: 8, depth: 4, at: [0, 0]}
  - {id: IR1, side: Austrian, kind: infantry, frontage: 3, depth: 2, facing: 180, positions: [[0, 15]]}
  - {id: IR2, side: Austrian, kind: infantry, frontage: 3, depth: 2, facing: 180, positions: [[0, 19], [0, 21.5], [0, 24]]}
action: {type: fire, batteries: [gun], target: IR1}
`
	for _, tc := range []struct {
		edition int
		deep    bool
	}{{0, false}, {2, true}} {
		b, a := mustLoadEdition(t, src, tc.edition)
		aim := rulestest.Aim(t, b, a)[0]
		if aim.Status != volley.StatusOK {
			t.Fatalf("edition %d: %s %s", tc.edition, aim.Status, aim.Reason)
		}
		if _, deep := rulesOf(aim)["firing at a deep target"]; deep != tc.deep {
			t.Errorf("edition %d: deep target %v; want %v (modifiers %v)", tc.edition, deep, tc.deep, aim.Modifiers)
		}
		if !tc.deep && !slices.ContainsFunc(aim.Notes, func(n string) bool { return strings.Contains(n, "IR1 is in cover") }) {
			t.Errorf("edition %d: notes %q; want why there is no deep target", tc.edition, aim.Notes)
		}
	}
	// A crossed base in cover behind an open main target spoils it too: "all".
	src = strings.Replace(src, "[[-3, 13], [3, 13], [3, 17], [-3, 17]]", "[[-3, 23], [3, 23], [3, 26], [-3, 26]]", 1)
	b, a := mustLoadEdition(t, src, 0)
	if _, deep := rulesOf(rulestest.Aim(t, b, a)[0])["firing at a deep target"]; deep {
		t.Errorf("a crossed base in the wood behind: still a deep target")
	}
}

// TestCombatBases: one meaning of "combat base" everywhere. A battery is not one: it does
// not make a deep target with two infantry bases, and `turn.bases_lost` may not name it
// ("friendly combat base ... lost"). Edition 2 counted it in both.
func TestCombatBases(t *testing.T) {
	deep := rulingHead + `units:
  - {id: gun, side: French, kind: artillery, gun: 12pdr foot, frontage: 8, depth: 4, at: [0, 0]}
  - {id: IR1, side: Austrian, kind: infantry, frontage: 3, depth: 2, facing: 180, positions: [[0, 15], [0, 17.5]]}
  - {id: bat, side: Austrian, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, facing: 180, at: [0, 21]}
action: {type: fire, batteries: [gun]}
`
	for _, tc := range []struct {
		edition int
		deep    bool
	}{{0, false}, {2, true}} {
		b, a := mustLoadEdition(t, deep, tc.edition)
		if _, got := rulesOf(rulestest.Aim(t, b, a)[0])["firing at a deep target"]; got != tc.deep {
			t.Errorf("edition %d: two infantry bases and a battery make a deep target: %v; want %v", tc.edition, got, tc.deep)
		}
	}

	lost := strings.Replace(rulingHead, "turn: {side: French, step: artillery}\n", "", 1) + `units:
  - {id: FB, side: French, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, at: [0, 0]}
  - {id: IR14, side: Austrian, kind: infantry, frontage: 4, depth: 2, facing: 180, at: [0, 30], bases: 2}
  - {id: AB, side: Austrian, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, facing: 180, at: [8, 30], damaged: true}
leaders:
  - {id: vuk, side: Austrian, at: [0, 33], rating: 1}
turn:
  side: French
  step: artillery
  done: [FB]
  fired_upon: [IR14]
  bases_lost:
    - {unit: IR14, at: [-6, 30]}
    - {unit: AB, at: [6, 30]}
action: {type: end_step}
`
	_, _, err := loadEdition(t, lost, 0)
	want := "x.yaml:17:14: turn: bases_lost: AB is a battery, and a battery's base is not a combat base"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a battery in bases_lost: %v; want %q", err, want)
	}
	b, a := mustLoadEdition(t, lost, 2)
	if got := rulesOf(rulestest.Aim(t, b, a)[0]); got["2 friendly combat base(s) lost within 8cm this player turn"] != 2*BaseLostModifier {
		t.Errorf("edition 2: leader modifiers %v; want both bases counted, as they were", got)
	}
}

// TestAdjacentIsBeside: an adjacent target "is next to, and within the same range
// bracket as, the main target"; units behind it are the tandem rule's, which demands
// open terrain. A unit in a wood just behind the main target is no adjacent target from
// edition 3 (adjacent: beside), and is one with adjacent: any_side, edition 2's reading.
// A unit flank to flank with the main target is adjacent under both.
func TestAdjacentIsBeside(t *testing.T) {
	src := rulingHead + `options: {OPTIONS}
terrain:
  - {id: wood, cover: solid, polygon: [[-3, 21.2], [3, 21.2], [3, 24], [-3, 24]]}
units:
  - {id: gun, side: French, kind: artillery, gun: 12pdr foot, frontage: 8, depth: 4, at: [0, 0]}
  - {id: A, side: Austrian, kind: infantry, frontage: 3, depth: 2, facing: 180, at: [0, 20], bases: 2}
  - {id: D, side: Austrian, kind: infantry, frontage: 3, depth: 2, facing: 180, at: [0, 22.5], bases: 1}
action: {type: fire, batteries: [gun], die: 10}
`
	adjacent := func(edition int, options string) bool {
		t.Helper()
		b, a := mustLoadEdition(t, strings.Replace(src, "OPTIONS", options, 1), edition)
		return slices.ContainsFunc(rulestest.Aim(t, b, a)[0].Notes, func(n string) bool { return strings.HasPrefix(n, "adjacent target: D") })
	}
	for _, tc := range []struct {
		edition int
		options string
		want    bool
	}{
		{0, "", false},
		{0, "adjacent: beside", false},
		{0, "adjacent: any_side", true},
		{2, "", true},
		{2, "adjacent: beside", false},
	} {
		if got := adjacent(tc.edition, tc.options); got != tc.want {
			t.Errorf("edition %d, options {%s}: D behind A in a wood is adjacent: %v; want %v", tc.edition, tc.options, got, tc.want)
		}
	}
	// The text's picture: B "positioned next to unit A", flank to flank.
	b, a := sys.LoadFile(t, "secondary-targets.yaml")
	if !slices.ContainsFunc(rulestest.Aim(t, b, a)[0].Notes, func(n string) bool { return strings.HasPrefix(n, "adjacent target: 2nd Battalion (B)") }) {
		t.Errorf("B beside A is not adjacent")
	}
}

// TestBeside holds the geometry of "beside" to a table.
func TestBeside(t *testing.T) {
	q := Rect{Facing: 0, W: 4, D: 2}
	for _, tc := range []struct {
		name string
		r    Rect
		want bool
	}{
		{"flank to flank, right", Rect{C: geom.V(4, 0), W: 4, D: 2}, true},
		{"flank to flank, left, half a base back", Rect{C: geom.V(-4.2, -1), W: 4, D: 2}, true},
		{"behind", Rect{C: geom.V(0, -2.5), W: 4, D: 2}, false},
		{"in front", Rect{C: geom.V(0, 2.5), W: 4, D: 2}, false},
		{"behind and to the side, corners only", Rect{C: geom.V(4, -2), W: 4, D: 2}, false},
		{"overlapping it", Rect{C: geom.V(1, 0), W: 4, D: 2}, false},
	} {
		if got := beside(tc.r, q); got != tc.want {
			t.Errorf("beside(%s) = %v; want %v", tc.name, got, tc.want)
		}
	}
}

// TestBelowFirstColumn: a fire whose points fall below the chart's first column cannot
// score, and says so, rather than naming a column for 0 fire points that the chart does
// not have.
func TestBelowFirstColumn(t *testing.T) {
	src := rulingHead + `units:
  - {id: gun, side: French, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, at: [0, 0], morale: disordered}
  - {id: IR1, side: Austrian, kind: infantry, frontage: 3, depth: 2, facing: 180, at: [0, 60], bases: 2}
action: {type: fire, batteries: [gun]}
`
	b, a := mustLoadEdition(t, src, 0)
	aim := rulestest.Aim(t, b, a)[0]
	if aim.PHit != 0 || aim.Need != 0 || !strings.Contains(aim.Reason, "no modified roll scores anything") {
		t.Errorf("aim %+v; want no chance, and why", aim)
	}
	if !slices.ContainsFunc(aim.Notes, func(n string) bool { return strings.HasPrefix(n, "0 fire points: below the chart's first column (1)") }) {
		t.Errorf("notes %q; want the fire points below the chart's first column", aim.Notes)
	}
	if slices.ContainsFunc(aim.Notes, func(n string) bool { return strings.Contains(n, "column for 0") }) {
		t.Errorf("notes %q name a column for 0 fire points", aim.Notes)
	}
}

// TestRulingHalvingAtSegmentStart: "Artillery batteries which begin the artillery fire
// step in disordered or rattled status will have their fire points halved" (Disordered+).
// f1 prolonged in the movement before, so "Prolonged artillery is excepted" from
// simultaneous fire: a1's morale hit disorders it at once, within the segment. It began
// the segment ordered, so it fires at its full 3 points, and the trace says which morale
// was read and when. Edition 4 read its morale as it fired and halved them, as played.
func TestRulingHalvingAtSegmentStart(t *testing.T) {
	units := `  - {id: f1, side: French, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, at: [-30, 0]}
  - {id: a1, side: Austrian, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, facing: 180, at: [-30, 20]}
`
	src := sprintf(movesSrc, units, "maneuver")
	for _, ed := range []int{0, 4} {
		b, _ := mustLoadEdition(t, src, ed)
		rulestest.Play(t, b, "{type: move, unit: f1, path: [[-30, 3]]}", "{type: end_step}", "{type: end_step}")
		// A roll of a1's that scores one morale hit and no base hit: the same dice on a
		// copy first.
		var seed uint64
		for seed = 1; ; seed++ {
			c := b.copy()
			out := rulestest.MustResolve(t, c, rulestest.Decode(t, c, "{batteries: [a1], target: f1}"), dice.ForAction(seed, 0))
			if m := out.Targets[0].Measures; m[MeasureMorale] == 1 && m[MeasureBases] == 0 {
				break
			}
		}
		if _, err := b.Resolve(context.Background(), rulestest.Decode(t, b, "{batteries: [a1], target: f1}"), dice.ForAction(seed, 0)); err != nil {
			t.Fatal(err)
		}
		if u := b.Unit("f1"); b.moraleName(u.Morale) != "disordered" || u.Damaged {
			t.Fatalf("edition %d: f1 is %s, damaged %v; want disordered at once", ed, b.moraleName(u.Morale), u.Damaged)
		}
		fire := rulestest.Decode(t, b, "{batteries: [f1], target: a1}")
		o := rulestest.Odds(t, b, fire)
		out := rulestest.MustResolve(t, b, fire, dice.ForAction(1, 9))
		switch ed {
		case 0:
			if o.Values["fire_points"] != 3 {
				t.Errorf("f1 fires at %g points; want its full 3: it began the segment ordered", o.Values["fire_points"])
			}
			if !slices.ContainsFunc(o.Aims[0].Notes, func(n string) bool {
				return strings.Contains(n, "f1 began the artillery fire segment ordered (disordered now, by hits that took effect within it)")
			}) {
				t.Errorf("the aim's notes %q do not say which morale was read", o.Aims[0].Notes)
			}
			if !traceHas([]volley.Outcome{out}, "f1 began the artillery fire segment ordered") {
				t.Errorf("the fire's trace %+v does not say which morale was read", out.Trace)
			}
		default:
			if o.Values["fire_points"] != 1 {
				t.Errorf("edition 4: f1 fires at %g points; want 1 (3 halved, rounded down), as it was played", o.Values["fire_points"])
			}
		}
	}
}

// TestRulingHalvingScenarioInSegment: a scenario that begins in the artillery fire segment
// gives each battery's morale when the segment began (morale_at_segment_start), by default
// its morale: a battery written disordered fires at half points, one that became
// disordered within the segment fires at its full points.
func TestRulingHalvingScenarioInSegment(t *testing.T) {
	for _, tc := range []struct {
		extra string
		want  float64
	}{{"", 1}, {", morale_at_segment_start: ordered", 3}} {
		src := rulingHead + `units:
  - {id: gun, side: French, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, at: [0, 0], morale: disordered` + tc.extra + `}
  - {id: IR1, side: Austrian, kind: infantry, frontage: 3, depth: 2, facing: 180, at: [0, 20], bases: 2}
action: {type: fire, batteries: [gun]}
`
		b, a := mustLoadEdition(t, src, 0)
		o := rulestest.Odds(t, b, a)
		if o.Values["fire_points"] != tc.want {
			t.Errorf("%q: %g fire points; want %g", tc.extra, o.Values["fire_points"], tc.want)
		}
	}
}
