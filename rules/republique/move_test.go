package republique

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/scenario"
)

// movesSrc is a table for moves: 200 × 200 cm around the origin, the sample rates, the
// French player's maneuver step. Units are added by each test.
const movesSrc = `ruleset: republique
distances: cm
charts: {file: sample-charts.yaml}
table: {corner: [-100, -100], width: 200, height: 200}
movement: {infantry: 20, light: 25, cavalry: 40, artillery: 30, prolonge: 5, limber: 4, reform: 6}
units:
%s
turn: {side: French, step: %s}
`

// enemy is an Austrian unit out of the way, so that the phase has its two sides.
const enemy = "  - {id: A, side: Austrian, kind: infantry, frontage: 4, depth: 2, facing: 180, at: [90, 90]}\n"

// battery is the Austrian battery at (0, 30) facing south whose arc the French cross:
// its front edge runs at y = 28.5 from x = −2 to 2.
const battery = `  - {id: g, side: Austrian, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, facing: 180, at: [0, 30]%s}
`

func movesBattle(tb testing.TB, units, step string) *Battle {
	tb.Helper()
	b, _, err := loadSrc(tb, sprintf(movesSrc, units, step))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func mustParse(tb testing.TB, src string) *scenario.Doc {
	tb.Helper()
	return rulestest.Parse(tb, "a.yaml", src)
}

func traceHas(outs []volley.Outcome, want string) bool {
	for _, o := range outs {
		for _, s := range o.Trace {
			if strings.Contains(sprintf("%v", s.Result), want) {
				return true
			}
		}
	}
	return false
}

// TestPassingFireDistance: "Enemy infantry and cavalry must be within firing battery's
// arc-of-fire for 8cm and 15cm of their movement respectively." The mover's base stays
// inside the arc the whole way, moving east across the battery's front: 8cm of infantry
// path opens the window and the battery fires; 7.9cm does not, and passing fire is
// refused naming the distance; cavalry needs 15cm.
func TestPassingFireDistance(t *testing.T) {
	for _, c := range []struct {
		name, unit, to string
		ok             bool
		why            string
	}{
		{"infantry 8cm", "{id: m, side: French, kind: infantry, frontage: 4, depth: 2, facing: 90, at: [-6, 10]}", "[2, 10]", true, ""},
		{"infantry 7.9cm", "{id: m, side: French, kind: infantry, frontage: 4, depth: 2, facing: 90, at: [-6, 10]}", "[1.9, 10]", false, "m has moved 7.9cm across g's front within its arc this step, and infantry must for 8cm"},
		{"light infantry 8cm", "{id: m, side: French, kind: light, frontage: 4, depth: 2, facing: 90, at: [-6, 10]}", "[2, 10]", true, ""},
		{"cavalry 15cm", "{id: m, side: French, kind: cavalry, frontage: 4, depth: 3, facing: 90, at: [-8, 10]}", "[7, 10]", true, ""},
		{"cavalry 14.9cm", "{id: m, side: French, kind: cavalry, frontage: 4, depth: 3, facing: 90, at: [-8, 10]}", "[6.9, 10]", false, "m has moved 14.9cm across g's front within its arc this step, and cavalry must for 15cm"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := movesBattle(t, sprintf(battery, "")+"  - "+c.unit+"\n", "maneuver")
			rulestest.Play(t, b, "{type: move, unit: m, path: ["+c.to+"]}")
			shot := "{type: passing_fire, batteries: [g], target: m}"
			if !c.ok {
				if b.phase.window != nil {
					t.Fatal("a window opened short of the distance")
				}
				rulestest.Refused(t, b, shot, c.why)
				return
			}
			if w := b.phase.window; w == nil || w.side != "Austrian" || len(w.offered) != 1 {
				t.Fatalf("window %+v; want Austrian's g to answer", w)
			}
			aim := rulestest.Aim(t, b, rulestest.Decode(t, b, shot))[0]
			if aim.Status != volley.StatusOK || !slices.ContainsFunc(aim.Modifiers, func(m volley.Modifier) bool { return m.Rule == "passing fire" && m.Value == PassingFireModifier }) {
				t.Errorf("the passing fire: %s %s %v; want it with −2", aim.Status, aim.Reason, aim.Modifiers)
			}
			rulestest.Play(t, b, shot)
			if b.phase.window != nil || !slices.Contains(b.phase.passed, "g") {
				t.Errorf("after the fire: window %+v, passed %v", b.phase.window, b.phase.passed)
			}
		})
	}
}

// TestPassingFireAcross: "Artillery may Pass Fire at any enemy unit moving across its
// front (more than 45 degrees from perpendicular)." Straight at the battery, or at 45°,
// is not across its front, however long the move in the arc; at 60° it is.
func TestPassingFireAcross(t *testing.T) {
	for _, c := range []struct {
		to   string
		open bool
	}{
		{"[-5, 12]", false},       // 0°: towards the battery, 12cm in its arc
		{"[3.485, 8.485]", false}, // 45°, 12cm
		{"[5.392, 6]", true},      // 60°, 12cm
	} {
		b := movesBattle(t, sprintf(battery, "")+"  - {id: m, side: French, kind: infantry, frontage: 4, depth: 2, at: [-5, 0]}\n", "maneuver")
		outs := rulestest.Play(t, b, "{type: move, unit: m, path: ["+c.to+"]}")
		if open := b.phase.window != nil; open != c.open {
			t.Errorf("a move to %s: window %v; want %v (trace %v)", c.to, open, c.open, outs[0].Trace)
		}
		if got, want := b.phase.inArc[arcKey{"m", "g"}], map[bool]float64{true: 12}[c.open]; math.Abs(got-want) > 1e-3 { // the whole path, to its rounding
			t.Errorf("a move to %s: %vcm across the front in the arc; want %v", c.to, got, want)
		}
	}
}

// TestPassingFireAddsUp: the distance is "of their movement": two moves of 5cm in the
// arc make 10cm, and the window opens on the second, the mover fired on where it had
// done 8cm (3cm into the second move).
func TestPassingFireAddsUp(t *testing.T) {
	b := movesBattle(t, sprintf(battery, "")+"  - {id: m, side: French, kind: infantry, frontage: 4, depth: 2, facing: 90, at: [-6, 10]}\n", "maneuver")
	rulestest.Play(t, b, "{type: move, unit: m, path: [[-1, 10]]}")
	if b.phase.window != nil {
		t.Fatal("a window after 5cm")
	}
	rulestest.Play(t, b, "{type: move, unit: m, path: [[4, 10]]}")
	w := b.phase.window
	if w == nil || math.Abs(w.trigger["g"]-3) > 1e-9 || math.Abs(w.inArc["g"]-10) > 1e-9 {
		t.Fatalf("window %+v; want g, fired on 3cm into the second move, 10cm in all", w)
	}
	if c := centre(w.basesAt(w.trigger["g"])); math.Abs(c.X-2) > 1e-9 {
		t.Errorf("fired on at %v; want x = 2", c)
	}
}

// TestPassingFireWindow: after such a move play pauses. The state says whose answer it
// waits for and what it may do; the mover's side may not act until the battery's side
// fires or declines; declining lets it go on, and the move may not be answered later.
func TestPassingFireWindow(t *testing.T) {
	b := movesBattle(t, sprintf(battery, "")+"  - {id: m, side: French, kind: infantry, frontage: 4, depth: 2, facing: 90, at: [-6, 10]}\n"+
		"  - {id: n, side: French, kind: infantry, frontage: 4, depth: 2, facing: 90, at: [-6, -20]}\n", "maneuver")
	rulestest.Play(t, b, "{type: move, unit: m, path: [[4, 10]]}")
	turn := b.State().Turn
	if turn.Side != "Austrian" || turn.Phase != "passing fire" || turn.End["type"] != KindDecline || len(turn.Actions) != 2 ||
		turn.Actions[0]["type"] != KindPassing || turn.Actions[0]["target"] != "m" {
		t.Errorf("the state's turn in the window: %+v", turn)
	}
	if v := b.Table(); len(v.Declare.Choices) != 1 || v.Declare.Choices[0].Action["type"] != KindPassing {
		t.Errorf("the view's choices in the window: %+v", v.Declare.Choices)
	}
	if side := b.Actor(rulestest.Decode(t, b, "{type: decline}")); side != "Austrian" {
		t.Errorf("decline's actor %q", side)
	}
	err := rulestest.Refused(t, b, "{type: move, unit: n, path: [[-6, -10]]}", "play waits on Austrian, which may answer m's move with passing fire (g at m) or decline it")
	if volley.ErrorCode(err) != volley.ECONFLICT {
		t.Errorf("a move in the window: %v; want a conflict", err)
	}
	rulestest.Refused(t, b, "{type: end_step}", "play waits on Austrian")
	rulestest.Play(t, b, "{type: decline}")
	if turn := b.State().Turn; turn.Side != "French" || turn.Phase != "maneuver" || turn.Actions != nil {
		t.Errorf("after the decline: %+v", turn)
	}
	rulestest.Refused(t, b, "{type: passing_fire, batteries: [g], target: m}", "has been answered or let pass")
	rulestest.Refused(t, b, "{type: decline}", "there is no passing fire to decline")
	rulestest.Play(t, b, "{type: move, unit: n, path: [[-6, -10]]}")
}

// TestPassingFireAfter: "Those batteries which conduct passing fire may not fire during
// the following artillery phase, and they do not receive saved fire as a result of that
// missed phase."
func TestPassingFireAfter(t *testing.T) {
	b := movesBattle(t, sprintf(battery, "")+"  - {id: m, side: French, kind: infantry, frontage: 4, depth: 2, facing: 90, at: [-6, 10]}\n", "maneuver")
	rulestest.Play(t, b, "{type: move, unit: m, path: [[4, 10]]}", "{type: passing_fire, batteries: [g], target: m}", "{type: end_step}", "{type: end_step}")
	rulestest.Refused(t, b, "{batteries: [g]}", "conducted passing fire this turn and may not fire in the following artillery phase")
	rulestest.Refused(t, b, "{type: save, batteries: [g]}", "may not save fire")
}

// TestSavingBatteryMayNotPassFire: "Batteries saving fire may not use passing fire." A
// battery with a saved fire marker opens no window, and its passing fire is refused.
func TestSavingBatteryMayNotPassFire(t *testing.T) {
	b := movesBattle(t, sprintf(battery, ", saved_fire: true")+"  - {id: m, side: French, kind: infantry, frontage: 4, depth: 2, facing: 90, at: [-6, 10]}\n", "maneuver")
	outs := rulestest.Play(t, b, "{type: move, unit: m, path: [[4, 10]]}")
	if b.phase.window != nil || !traceHas(outs, "batteries saving fire may not use passing fire") {
		t.Errorf("a saving battery's window: %+v, trace %v", b.phase.window, outs[0].Trace)
	}
	rulestest.Refused(t, b, "{type: passing_fire, batteries: [g], target: m}", "batteries saving fire may not use passing fire")
}

// TestLimberedMayNotFire: "Limbered batteries may not fire." A battery limbers in a move
// and its fire is refused; one that unlimbers fires; a limbered battery opens no window
// for passing fire.
func TestLimberedMayNotFire(t *testing.T) {
	units := `  - {id: f1, side: French, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, at: [-20, 0]}
  - {id: f2, side: French, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, at: [20, 0], limbered: true}
  - {id: A, side: Austrian, kind: infantry, frontage: 4, depth: 2, facing: 180, at: [0, 30], bases: 3}
`
	b := movesBattle(t, units, "maneuver")
	rulestest.Play(t, b, "{type: move, unit: f1, limber: true}", "{type: move, unit: f2, path: [[20, 4]], unlimber: true}")
	if u := b.Unit("f1"); !u.Limbered || b.State().Units[0].Values["limbered"] != 1 {
		t.Error("f1 did not limber")
	}
	rulestest.Play(t, b, "{type: end_step}", "{type: end_step}")
	rulestest.Refused(t, b, "{batteries: [f1]}", "limbered batteries may not fire")
	rulestest.Play(t, b, "{batteries: [f2]}")

	b = movesBattle(t, sprintf(battery, ", limbered: true")+"  - {id: m, side: French, kind: infantry, frontage: 4, depth: 2, facing: 90, at: [-6, 10]}\n", "maneuver")
	rulestest.Play(t, b, "{type: move, unit: m, path: [[4, 10]]}")
	if b.phase.window != nil {
		t.Error("a limbered battery opened a window")
	}
	rulestest.Refused(t, b, "{type: passing_fire, batteries: [g], target: m}", "limbered batteries may not fire")
}

// TestLimberedRefusalNamesNoEmptyTarget: a limbered battery is refused before a target
// is chosen, and the words say so without an empty target ("f1 cannot fire at: …", "f1
// at  is …" before).
func TestLimberedRefusalNamesNoEmptyTarget(t *testing.T) {
	units := `  - {id: f1, side: French, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, at: [-20, 0], limbered: true}
  - {id: A, side: Austrian, kind: infantry, frontage: 4, depth: 2, facing: 180, at: [0, 30], bases: 3}
`
	b := movesBattle(t, units, "artillery")
	err := rulestest.Refused(t, b, "{batteries: [f1]}", "f1 is not_eligible: limbered batteries may not fire")
	if err != nil && strings.Contains(err.Error(), " at  ") {
		t.Errorf("Resolve: %v; an empty target named", err)
	}
	list, err := b.Refusals(context.Background(), rulestest.Decode(t, b, "{batteries: [f1]}"))
	if err != nil || len(list) != 1 || !strings.Contains(list[0].Msg, "f1 cannot fire: limbered batteries may not fire") {
		t.Errorf("Refusals: %v, %v; want f1 cannot fire, and why", list, err)
	}
}

// TestSavedFireLostOnAnyMove: "If a battery with saved fire moves in any way, the saved
// fire status is lost (this includes changing facing or prolonging)." A move refused
// keeps it.
func TestSavedFireLostOnAnyMove(t *testing.T) {
	units := `  - {id: f1, side: French, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, at: [-20, 0], saved_fire: true}
  - {id: f2, side: French, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, at: [20, 0], saved_fire: true}
  - {id: f3, side: French, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, at: [40, 0], saved_fire: true}
  - {id: A, side: Austrian, kind: infantry, frontage: 4, depth: 2, facing: 180, at: [0, 80]}
`
	b := movesBattle(t, units, "maneuver")
	rulestest.Refused(t, b, "{type: move, unit: f2, path: [[20, 6]]}", "f2's prolonge is 6cm long, and it may prolong 5cm more this player turn (movement: prolonge 5cm)")
	if !b.Unit("f2").SavedFire {
		t.Fatal("a refused move lost saved fire")
	}
	outs := rulestest.Play(t, b, "{type: move, unit: f1, facing: 10}", "{type: move, unit: f2, path: [[20, 4]]}", "{type: move, unit: f3, limber: true}")
	for i, id := range []string{"f1", "f2", "f3"} {
		if b.Unit(id).SavedFire || b.State().Units[i].Values["saved_fire"] != 0 || !traceHas(outs[i:i+1], "lost: a battery with saved fire that moves in any way loses it") {
			t.Errorf("%s kept its saved fire: %v", id, outs[i].Trace)
		}
	}
}

// TestSavingFireNeedsStationary: "any ordered, stationary artillery battery may be
// announced as saving fire". A battery that changed its facing this player turn may not;
// one that stood still may; in the next player turn, having not moved in it, it may.
func TestSavingFireNeedsStationary(t *testing.T) {
	units := `  - {id: f1, side: French, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, at: [-20, 0]}
  - {id: f2, side: French, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, at: [20, 0]}
  - {id: A, side: Austrian, kind: infantry, frontage: 4, depth: 2, facing: 180, at: [0, 60], bases: 3}
`
	b := movesBattle(t, units, "maneuver")
	rulestest.Play(t, b, "{type: move, unit: f1, facing: 5}", "{type: end_step}", "{type: end_step}")
	if v := b.State().Units[0].Values; v["stationary"] != 0 || v["moved"] == 0 {
		t.Errorf("f1's state after its turn: %v", v)
	}
	rulestest.Refused(t, b, "{type: save, batteries: [f1]}", "f1 is not stationary: only stationary batteries may save fire")
	rulestest.Play(t, b, "{type: save, batteries: [f2]}", "{type: end_step}", "{type: end_step}", "{type: end_step}")
	// The Austrian player turn's artillery segment: f1 has not moved in it.
	if turn := b.State().Turn; turn.Side != "Austrian" || turn.Phase != string(ArtillerySegment) {
		t.Fatalf("turn %+v", turn)
	}
	rulestest.Play(t, b, "{type: save, batteries: [f1]}")
}

// TestProlongedLosesSimultaneousFire: "Batteries which prolonged during the preceding
// movement will lose simultaneous fire privilege against enemy artillery". Enemy
// artillery's hits on a battery that prolonged take effect at once; on one that did not,
// at the end of the segment.
func TestProlongedLosesSimultaneousFire(t *testing.T) {
	units := `  - {id: f1, side: French, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, at: [-30, 0]}
  - {id: f2, side: French, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, at: [30, 0]}
  - {id: a1, side: Austrian, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, facing: 180, at: [-30, 20]}
  - {id: a2, side: Austrian, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, facing: 180, at: [30, 20]}
`
	for _, prolong := range []bool{true, false} {
		b := movesBattle(t, units, "maneuver")
		if prolong {
			rulestest.Play(t, b, "{type: move, unit: f1, path: [[-30, 3]]}")
		} else {
			rulestest.Play(t, b, "{type: move, unit: f1, facing: 1}")
		}
		rulestest.Play(t, b, "{type: end_step}", "{type: end_step}")
		// A roll that scores: the same dice on a copy first.
		var seed uint64
		for seed = 1; ; seed++ {
			c := b.copy()
			out := rulestest.MustResolve(t, c, rulestest.Decode(t, c, "{batteries: [a1]}"), dice.ForAction(seed, 0))
			if out.Targets[0].Measures[MeasureMorale] > 0 {
				break
			}
		}
		out := rulestest.MustResolve(t, b, rulestest.Decode(t, b, "{batteries: [a1]}"), dice.ForAction(seed, 0))
		u, pend := b.Unit("f1"), b.pendingFor("f1")
		hit := int(out.Targets[0].Measures[MeasureMorale])
		if prolong && (pend.Morale != 0 || u.Morale == 0 && !u.Damaged || !traceHas([]volley.Outcome{out}, "take effect at once")) {
			t.Errorf("prolonged: pending %+v, morale %d, damaged %v; want %d hits at once", pend, u.Morale, u.Damaged, hit)
		}
		if !prolong && (pend.Morale != hit || u.Morale != 0 || u.Damaged) {
			t.Errorf("not prolonged: pending %+v, morale %d, damaged %v; want %d hits pending", pend, u.Morale, u.Damaged, hit)
		}
	}
}

// TestMoveLimits: a move longer than the unit's rate is refused naming the limit and
// where it comes from; an unlimbered battery moves only by prolonge.
func TestMoveLimits(t *testing.T) {
	units := `  - {id: m, side: French, kind: infantry, frontage: 4, depth: 2, at: [0, 0]}
  - {id: f, side: French, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, at: [30, 0]}
  - {id: A, side: Austrian, kind: infantry, frontage: 4, depth: 2, facing: 180, at: [0, 60]}
`
	b := movesBattle(t, units, "maneuver")
	rulestest.Refused(t, b, "{type: move, unit: m, path: [[0, 21]]}", "m's move takes 21cm of its rate (path 21cm), and it may move 20cm more this player turn (its rate 20cm: the scenario's movement:)")
	rulestest.Play(t, b, "{type: move, unit: m, path: [[0, 15]]}")
	rulestest.Refused(t, b, "{type: move, unit: m, path: [[0, 21]]}", "it may move 5cm more this player turn")
	if v := b.State().Units[0].Values; v["move"] != 20 || v["moved"] != 15 {
		t.Errorf("m's state: %v", v)
	}
	if mv := b.Table().Units[0].Move; mv == nil || mv.Allowance != 20 || mv.Moved != 15 || mv.Left != 5 {
		t.Errorf("m's move view: %+v", mv)
	}
	rulestest.Refused(t, b, "{type: move, unit: f, path: [[30, 6]]}", "f's prolonge is 6cm long")
	// Limbered first, it moves at its rate: 4cm to limber, 20cm of path.
	rulestest.Play(t, b, "{type: move, unit: f, limber: true, path: [[30, 20]]}")
	rulestest.Refused(t, b, "{type: move, unit: f, path: [[30, 27]], unlimber: true}", "f's move takes 11cm of its rate (path 7cm, unlimbering 4cm), and it may move 6cm more")
	rulestest.Refused(t, b, "{type: move, unit: A, path: [[0, 50]]}", "it is French's player turn: only its units move in its maneuver step")
	rulestest.Play(t, b, "{type: end_step}")
	rulestest.Refused(t, b, "{type: move, unit: m, path: [[0, 16]]}", "units move in their player turn's maneuver step, and this is the skirmish step")
}

// TestMoveBlocked: a base may not pass over another unit's base or an enemy skirmish
// marker, nor leave the table; bases that touch do not overlap, and a unit's own
// skirmishers give way.
func TestMoveBlocked(t *testing.T) {
	units := `  - {id: m, side: French, kind: light, frontage: 4, depth: 2, at: [0, 0]}
  - {id: n, side: French, kind: infantry, frontage: 4, depth: 2, at: [0, 10]}
  - {id: e, side: French, kind: infantry, frontage: 4, depth: 2, at: [0, -95]}
  - {id: A, side: Austrian, kind: light, frontage: 4, depth: 2, facing: 180, at: [0, 60]}
skirmishers:
  - {id: own, parent: m, at: [-10, 5]}
  - {id: theirs, parent: A, at: [10, 5]}
`
	b := movesBattle(t, units, "maneuver")
	rulestest.Refused(t, b, "{type: move, unit: m, path: [[0, 12]]}", "leg 1 would pass over n's base")
	rulestest.Refused(t, b, "{type: move, unit: m, path: [[10, 0], [10, 10]]}", "leg 2 would pass over skirmish marker theirs")
	rulestest.Refused(t, b, "{type: move, unit: e, path: [[0, -99.5]]}", "leg 1: a base would leave the table (200cm × 200cm from -100, -100)")
	rulestest.Play(t, b, "{type: move, unit: e, path: [[0, -99]]}")                                                       // to the edge
	rulestest.Play(t, b, "{type: move, unit: m, path: [[-10, 2], [-10, 10]]}", "{type: move, unit: m, path: [[-4, 10]]}") // through its own skirmishers, into contact
	if c := centre(b.Unit("m").Bases); c.Dist(geom.V(-4, 10)) > 1e-9 {
		t.Errorf("m stands at %v", c)
	}
}

// TestWheel: a wheel turns the unit on a front corner, which stays where it is, and takes
// the arc the other end of its front travels (not in the source).
func TestWheel(t *testing.T) {
	b := movesBattle(t, "  - {id: m, side: French, kind: infantry, frontage: 4, depth: 2, at: [0, 0], bases: 3}\n"+enemy, "maneuver")
	rulestest.Refused(t, b, "{type: move, unit: m, facing: 120, pivot: right}", "m's move takes 25.1cm of its rate (wheel 25.1cm)")
	outs := rulestest.Play(t, b, "{type: move, unit: m, facing: 90, pivot: right}")
	u := b.Unit("m")
	if math.Abs(b.phase.moved["m"]-6*math.Pi) > 1e-9 || u.Facing != 90 {
		t.Errorf("wheel: moved %v, facing %v; want 6π (12cm × 90°), 90 (%v)", b.phase.moved["m"], u.Facing, outs[0].Trace)
	}
	fc := frontCorners(u.Bases, u.Facing)
	if !slices.ContainsFunc(fc, func(p geom.Vec) bool { return p.Dist(geom.V(6, 1)) < 1e-9 }) || !slices.ContainsFunc(fc, func(p geom.Vec) bool { return p.Dist(geom.V(6, 13)) < 1e-9 }) {
		t.Errorf("front after the wheel: %v; want from (6, 1) to (6, 13)", fc)
	}
}

// TestFormationChange: a unit re-forms about its centre, for the scenario's reform cost
// (not in the source).
func TestFormationChange(t *testing.T) {
	b := movesBattle(t, "  - {id: m, side: French, kind: infantry, frontage: 4, depth: 2, at: [0, 0], bases: 4}\n"+enemy, "maneuver")
	rulestest.Play(t, b, "{type: move, unit: m, formation: square}")
	u := b.Unit("m")
	if u.Formation != Square || b.phase.moved["m"] != 6 || centre(u.Bases).Dist(geom.V(0, 0)) > 1e-9 {
		t.Errorf("re-formed: %s, moved %v, centre %v", u.Formation, b.phase.moved["m"], centre(u.Bases))
	}
}

// TestAttachedLeaderFollows: a leader attached to a unit moves with it.
func TestAttachedLeaderFollows(t *testing.T) {
	b := movesBattle(t, "  - {id: m, side: French, kind: infantry, frontage: 4, depth: 2, at: [0, 0]}\n"+enemy+"leaders:\n  - {id: l, side: French, at: [0, -3], attached: m}\n", "maneuver")
	rulestest.Play(t, b, "{type: move, unit: m, path: [[10, 0]], facing: 90}")
	if l := b.leaders[0].At; l.Dist(geom.V(7, 0)) > 1e-9 {
		t.Errorf("the leader stands at %v; want (7, 0), behind its unit", l)
	}
}

// deployingSrc is a battle whose French deploy in their zone, then the Austrians
// anywhere on the table.
func deployingSrc() string {
	src := strings.Replace(movesSrc, "movement:", "deployment:\n  French: [[-100, -100], [100, -100], [100, -50], [-100, -50]]\nmovement:", 1)
	return sprintf(src, "  - {id: m, side: French, kind: infantry, frontage: 4, depth: 2, at: [0, 0], bases: 2}\n  - {id: n, side: French, kind: infantry, frontage: 4, depth: 2, at: [0, 20]}\n  - {id: A, side: Austrian, kind: infantry, frontage: 4, depth: 2, at: [0, 60]}\n  - {id: B, side: Austrian, kind: infantry, frontage: 4, depth: 2, at: [30, 60]}\n", "maneuver")
}

// TestDeployment: before the battle begins each side places its units in its zone, in
// turn: the French first (their player turn comes first), then the Austrians.
func TestDeployment(t *testing.T) {
	b, _, err := loadSrc(t, deployingSrc())
	if err != nil {
		t.Fatal(err)
	}
	rulestest.Refused(t, b, "{type: deploy, unit: A, at: [50, 50]}", "it is French's deployment: Austrian deploys when French has deployed all its units")
	rulestest.Play(t, b, "{type: deploy, unit: m, at: [0, -60], facing: 90}")
	if u := b.Unit("m"); u.Facing != 90 || centre(u.Bases).Dist(geom.V(0, -60)) > 1e-9 {
		t.Errorf("m deployed at %v facing %v", centre(u.Bases), u.Facing)
	}
	rulestest.Refused(t, b, "{type: deploy, unit: n, at: [0, -50.5]}", "a base would lie outside French's deployment zone")
	rulestest.Refused(t, b, "{type: deploy, unit: n, at: [1, -60]}", "its bases would stand on m's base")
	rulestest.Refused(t, b, "{type: move, unit: n, path: [[10, -40]]}", "the battle has not begun: it is French's deployment")
	rulestest.Play(t, b, "{type: deploy, unit: n, at: [10, -51]}") // its front on the zone's edge: the French are done
	rulestest.Play(t, b, "{type: deploy, unit: A, at: [50, 50]}", "type: end_deployment")
	if turn := b.State().Turn; turn.Side != "French" || turn.Phase != string(Maneuver) {
		t.Errorf("the battle begins with %+v", turn)
	}
	rulestest.Play(t, b, "{type: move, unit: n, path: [[10, -40]]}")
	rulestest.Refused(t, b, "{type: deploy, unit: B, at: [0, -70]}", "the battle has begun")
}

// TestDeploymentTurnsRepublique: a deployment in turns, held to what every system's must
// do.
func TestDeploymentTurnsRepublique(t *testing.T) {
	b, _, err := loadSrc(t, deployingSrc())
	if err != nil {
		t.Fatal(err)
	}
	rulestest.CheckDeploymentTurns(t, b, []string{"French", "Austrian"},
		map[string]string{"French": "{type: deploy, unit: m, at: [0, -60], facing: 90}", "Austrian": "{type: deploy, unit: A, at: [50, 50]}"},
		map[string]string{"French": "{type: move, unit: n, path: [[10, 30]]}", "Austrian": "{type: move, unit: B, path: [[30, 50]]}"})
}

// TestDeploymentEdition4Republique: a battle begun under edition 4 deploys as it did:
// either side at any time, until the first other action, which ends the deployment for
// both.
func TestDeploymentEdition4Republique(t *testing.T) {
	b, _ := mustLoadEdition(t, deployingSrc(), volley.EditionMoves)
	rulestest.Play(t, b, "{type: deploy, unit: A, at: [50, 50]}", "{type: deploy, unit: m, at: [0, -60], facing: 90}", "{type: move, unit: n, path: [[10, 30]]}")
	rulestest.Refused(t, b, "{type: deploy, unit: B, at: [0, -70]}", "the battle has begun: units are deployed only before its first action")
}

// TestStatedFactsRefusedOverTheAPI: a refereed action may not state what the server
// measures from the moves (a battery's moved, limbered and saved fire); the command line
// may, as "what if", and what it states wins; a battle begun under edition 3 still takes
// them.
func TestStatedFactsRefusedOverTheAPI(t *testing.T) {
	units := `  - {id: f, side: French, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, at: [0, 0], limbered: true}
  - {id: A, side: Austrian, kind: infantry, frontage: 4, depth: 2, facing: 180, at: [0, 30], bases: 3}
`
	b := movesBattle(t, units, "artillery")
	for _, c := range []struct{ src, field string }{
		{"{type: save, batteries: [f], moved: {f: false}}", "moved"},
		{"{type: fire, batteries: [f], limbered: {f: false}}", "limbered"},
		{"{type: fire, batteries: [f], saved_fire: {f: true}}", "saved_fire"},
	} {
		rulestest.StatedFact(t, b, b, c.src, c.field+": the server measures")
	}
	// What if the limbered battery were unlimbered, with saved fire? The statement wins.
	aim := rulestest.Aim(t, b, rulestest.Decode(t, b, "{batteries: [f], limbered: {f: false}, saved_fire: {f: true}}"))[0]
	if aim.Status != volley.StatusOK || !slices.ContainsFunc(aim.Notes, func(n string) bool { return strings.Contains(n, "saved fire") }) {
		t.Errorf("stated unlimbered with saved fire: %s %s %v", aim.Status, aim.Reason, aim.Notes)
	}
	rulestest.Refused(t, b, "{batteries: [f]}", "limbered batteries may not fire")
	outs := rulestest.Play(t, b, "{batteries: [f], limbered: {f: false}}")
	if !traceHas(outs, "unlimbered (as the action states)") || !b.Unit("f").Limbered {
		t.Errorf("a stated fact is the action's only: %v, limbered %v", outs[0].Trace, b.Unit("f").Limbered)
	}
	if _, err := b.DecodeAction(mustParse(t, "{type: save, batteries: [f], limbered: {g: false}}")); err == nil || !strings.Contains(err.Error(), `limbered: "g" is not one of the action's batteries`) {
		t.Errorf("a stated fact of another battery: %v", err)
	}
}

// TestMovesNotInOldEditions: a battle begun before edition 4 does not move, keeps its
// stated facts (a battery moved: true stays unable to save fire), and has no movement
// rates.
func TestMovesNotInOldEditions(t *testing.T) {
	units := `  - {id: f, side: French, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, at: [0, 0], moved: true}
  - {id: A, side: Austrian, kind: infantry, frontage: 4, depth: 2, facing: 180, at: [0, 30], bases: 3}
`
	src := strings.Replace(sprintf(movesSrc, units, "artillery"), "movement: {infantry: 20, light: 25, cavalry: 40, artillery: 30, prolonge: 5, limber: 4, reform: 6}\n", "", 1)
	b, _ := mustLoadEdition(t, src, 3)
	for _, a := range []string{"{type: move, unit: f, facing: 10}", "{type: deploy, unit: f, at: [0, 5]}", "{type: decline}"} {
		doc := mustParse(t, a)
		doc.Edition = 3
		if _, err := b.DecodeAction(doc); err == nil || !strings.Contains(err.Error(), "a battle begun under edition 3 does not move its units") {
			t.Errorf("%s in an edition 3 battle: %v", a, err)
		}
		// Replayed from a log, an action names no edition: the battle's decides.
		if _, err := b.DecodeAction(mustParse(t, a)); err == nil || !strings.Contains(err.Error(), "a battle begun before edition 4 does not move its units") {
			t.Errorf("%s replayed in an edition 3 battle: %v", a, err)
		}
	}
	rulestest.Refused(t, b, "{type: save, batteries: [f]}", "not stationary")
	rulestest.Play(t, b, "{type: end_step}", "{type: end_step}", "{type: end_step}") // the Austrian player turn's segment
	rulestest.Refused(t, b, "{type: save, batteries: [f]}", "not stationary")        // stated, it never changes
	if b.Table().Moves != nil || b.Table().Units[0].Move != nil {
		t.Error("an edition 3 battle's view offers moves")
	}
	doc := rulestest.Parse(t, "x.yaml", sprintf(movesSrc, units, "artillery"))
	doc.Edition = 3
	if _, _, err := (Ruleset{}).Load(doc); err == nil || !strings.Contains(err.Error(), "movement: a battle begun under edition 3 does not move its units") {
		t.Errorf("movement: in an edition 3 battle: %v", err)
	}
}

// TestForkAndPlacements: a fork moves on its own; the battle written back as a scenario
// loads with every unit where it stands.
func TestForkAndPlacements(t *testing.T) {
	src := sprintf(movesSrc, "  - {id: m, side: French, kind: infantry, frontage: 4, depth: 2, at: [0, 0], bases: 2}\n  - {id: f, side: French, kind: artillery, gun: 6pdr foot, frontage: 4, depth: 3, at: [30, 0]}\n  - {id: A, side: Austrian, kind: infantry, frontage: 4, depth: 2, facing: 180, at: [0, 60]}\n", "maneuver")
	b, _, err := loadSrc(t, src)
	if err != nil {
		t.Fatal(err)
	}
	before := rulestest.FullSnapshot(b)
	fork := b.Fork().(*Battle)
	rulestest.Play(t, fork, "{type: move, unit: m, path: [[5, 5]], facing: 30}")
	if rulestest.FullSnapshot(b) != before {
		t.Fatal("a move on the fork changed the battle")
	}
	rulestest.Play(t, b, "{type: move, unit: m, path: [[5, 5]], facing: 30, formation: column}", "{type: move, unit: f, limber: true}")
	doc := rulestest.Parse(t, "x.yaml", src)
	out, err := doc.Place(b.Placements(), "turn")
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := loadSrc(t, string(out))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, id := range []string{"m", "f"} {
		x, y := b.Unit(id), c.Unit(id)
		if !slices.EqualFunc(x.Bases, y.Bases, func(p, q Rect) bool { return p.C.Dist(q.C) < 1e-3 && p.Facing == q.Facing }) || x.Formation != y.Formation || x.Limbered != y.Limbered {
			t.Errorf("%s written back: %+v; want %+v\n%s", id, y, x, out)
		}
	}
}

// TestMoveRefusedInCheck: check reports a move the rules refuse at its place.
func TestMoveRefusedInCheck(t *testing.T) {
	b := movesBattle(t, "  - {id: m, side: French, kind: infantry, frontage: 4, depth: 2, at: [0, 0]}\n"+enemy, "maneuver")
	list, err := b.Refusals(context.Background(), rulestest.Decode(t, b, "{type: move, unit: m, path: [[0, 30]]}"))
	if err != nil || len(list) != 1 || !strings.Contains(list[0].Msg, "it may move 20cm more") || list[0].Pos.Line != 1 {
		t.Errorf("refusals %v, %v", list, err)
	}
}
