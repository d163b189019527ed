package warfare

import (
	"context"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/scenario"
)

// movesBattle is examples/warfare/moves.yaml with none of its actions played, read under
// edition (0: the current one).
func movesBattle(tb testing.TB, edition int) *Battle {
	tb.Helper()
	return loadSrc(tb, readMoves(tb), edition)
}

func readMoves(tb testing.TB) string {
	tb.Helper()
	return sys.ReadExample(tb, "moves.yaml")
}

func loadSrc(tb testing.TB, src string, edition int) *Battle {
	tb.Helper()
	b, _ := rulestest.MustLoadEdition(tb, Ruleset{}, "moves.yaml", []byte(src), edition)
	return b.(*Battle)
}

const fire = "unit: longbowmen\ntargets: [{unit: knights, stands: 4}, {unit: spearmen, stands: 2}]"

// TestRangeMeasuredAfterMove: "Measure the distance between the firing and target units
// to determine if the shooting is taking place at Close, Effective, or Long range." The
// distance is measured where the units stand when the fire is worked out: after the
// moves, even for a fire decoded before them (a preview's shot).
func TestRangeMeasuredAfterMove(t *testing.T) {
	b := movesBattle(t, 0)
	rulestest.Play(t, b, "type: end_deployment", "{type: deploy, unit: spearmen, at: [4, 9]}", "type: end_deployment")
	early := rulestest.Decode(t, b, fire)
	if aims := rulestest.Aim(t, b, early); aims[0].Range != 8 || !strings.Contains(aims[0].Reason, "at long range") {
		t.Errorf("the knights before the move: %v %s", aims[0].Range, aims[0].Reason)
	}
	rulestest.Play(t, b, "{type: move, unit: longbowmen, path: [[0, 2]]}")
	for _, a := range []volley.Action{early, rulestest.Decode(t, b, fire)} {
		aims := rulestest.Aim(t, b, a)
		if aims[0].Range != 6 || !strings.Contains(aims[0].Reason, "at effective range") || aims[1].Range != 8.062 || !strings.Contains(aims[1].Reason, "at long range") {
			t.Errorf("after the move: %v %s; %v %s", aims[0].Range, aims[0].Reason, aims[1].Range, aims[1].Reason)
		}
	}
	out := rulestest.Play(t, b, fire)
	if st := out[0].Trace[0]; st.Rule != "measure range" || !strings.Contains(st.Result.(string), "knights is 6\" from longbowmen, centre to centre where they stand now: effective range") {
		t.Errorf("the fire's first step: %+v", st)
	}
}

// TestStatedRangeAfterMove: over the API a fire may not state a range the table can
// measure other than the one it measures, now that units move; on the command line a
// stated range is a "what if" and wins.
func TestStatedRangeAfterMove(t *testing.T) {
	b := movesBattle(t, 0)
	rulestest.EndDeployment(t, b)
	rulestest.Play(t, b, "{type: move, unit: longbowmen, path: [[0, 2]]}")
	_, err := rulestest.DecodeAs(t, b, "unit: longbowmen\ntargets: [{unit: knights, range: long}]", true, 0)
	if err == nil || !strings.Contains(err.Error(), `target "knights": knights is 6" from longbowmen, at effective range; the server measures the range`) {
		t.Errorf("the band from before the move, stated: %v", err)
	}
	if _, err := rulestest.DecodeAs(t, b, "unit: longbowmen\ntargets: [{unit: knights, range: effective}]", true, 0); err != nil {
		t.Errorf("the measured band, stated: %v", err)
	}
	a, err := rulestest.DecodeAs(t, b, "unit: longbowmen\ntargets: [{unit: knights, range: close}]", false, 0)
	if err != nil {
		t.Fatal(err)
	}
	if aims := rulestest.Aim(t, b, a); !strings.Contains(aims[0].Reason, "at close range") {
		t.Errorf("what if at close range: %s", aims[0].Reason)
	}
}

// TestMoveLimitsWarfare: a unit moves up to its move: (data) in its side's turn, before it
// fires; a move longer, out of turn, of a unit off the table, over another unit's base or
// off the table is refused naming why, and changes nothing.
func TestMoveLimitsWarfare(t *testing.T) {
	b := movesBattle(t, 0)
	rulestest.Play(t, b, "type: end_deployment", "{type: deploy, unit: spearmen, at: [10.5, 9]}", "type: end_deployment")
	const fire = "unit: longbowmen\ntargets: [{unit: knights}]"
	rulestest.Refused(t, b, "{type: move, unit: longbowmen, path: [[0, 2], [2, 2.5]]}", "longbowmen's move is 4.062\" long, and it may move 3\" more this turn (its move: 3\", data: the article gives no moves)")
	rulestest.Refused(t, b, "{type: move, unit: knights, path: [[0, 6]]}", "it is English's turn")
	rulestest.Play(t, b, "{type: move, unit: longbowmen, path: [[0, 2]]}")
	rulestest.Refused(t, b, "{type: move, unit: longbowmen, path: [[0, 3.5]]}", "it may move 1\" more this turn")
	rulestest.Play(t, b, "{type: move, unit: longbowmen, path: [[0, 3]]}")
	if v := b.State().Units[0].Values; v["move"] != 3 || v["moved"] != 3 {
		t.Errorf("the longbowmen's state: %v", v)
	}
	rulestest.Refused(t, b, "{type: move, unit: longbowmen, path: [[0, 3.5]]}", "has moved its whole move of 3\" this turn")
	rulestest.Play(t, b, fire)
	rulestest.Play(t, b, "type: end_turn", "type: end_turn")
	// A new turn, a new move; after the fire, no more.
	rulestest.Play(t, b, "{type: move, unit: longbowmen, path: [[0, 4]]}", fire)
	rulestest.Refused(t, b, "{type: move, unit: longbowmen, path: [[0, 4.5]]}", "longbowmen has fired this turn: a unit moves before it fires")
	rulestest.Play(t, b, "type: end_turn")
	rulestest.Refused(t, b, "{type: move, unit: knights, path: [[0, 5.5]]}", "leg 1 would pass over longbowmen")
	rulestest.Refused(t, b, "{type: move, unit: spearmen, path: [[10.5, 10], [11.5, 10]]}", "leg 2: its base would leave the table")
	// Bases that touch do not overlap.
	rulestest.Play(t, b, "{type: move, unit: knights, path: [[0, 6]]}")

	// A unit without at: is not on the table, and one without move: does not move.
	src := strings.Replace(readMoves(t), "at: [6, 14], move: 4, base: 2", "move: 4, base: 2", 1)
	src = strings.Replace(src, "at: [0, 8], move: 8, base: 2", "at: [0, 8], base: 2", 1)
	o := loadSrc(t, src, 0)
	rulestest.EndDeployment(t, o)
	rulestest.Play(t, o, "type: end_turn")
	rulestest.Refused(t, o, "{type: move, unit: spearmen, path: [[4, 9]]}", "spearmen is not on the table")
	rulestest.Refused(t, o, "{type: move, unit: knights, path: [[0, 7]]}", "knights has no move in the scenario")
}

// TestDeploymentWarfare: before the battle begins a unit is placed in its side's zone
// (anywhere on the table without one), in its side's deployment: the English's first,
// then the French's. A unit the scenario leaves off the table is placed too, and its range
// is then measured.
func TestDeploymentWarfare(t *testing.T) {
	b := loadSrc(t, strings.Replace(readMoves(t), "at: [6, 14], move: 4, base: 2", "move: 4, base: 2", 1), 0)
	rulestest.Refused(t, b, "{type: deploy, unit: spearmen, at: [4, 9]}", "it is English's deployment: French deploys when English has deployed all its units")
	rulestest.Refused(t, b, "{type: move, unit: longbowmen, path: [[0, 1]]}", "the battle has not begun: it is English's deployment")
	// The English have one unit: placed, their deployment ends by itself.
	rulestest.Play(t, b, "{type: deploy, unit: longbowmen, at: [0, -1]}")
	rulestest.Refused(t, b, "{type: deploy, unit: spearmen, at: [4, 2]}", "spearmen cannot be deployed there: its base would lie outside French's deployment zone")
	rulestest.Refused(t, b, "{type: deploy, unit: spearmen, at: [1, 8]}", "its base would overlap knights")
	rulestest.Play(t, b, "{type: deploy, unit: spearmen, at: [4, 9]}")
	if aims := rulestest.Aim(t, b, rulestest.Decode(t, b, "unit: longbowmen\ntargets: [{unit: spearmen}]")); aims[0].Range != 10.770 {
		t.Errorf("the deployed spearmen's range: %v", aims[0].Range)
	}
	rulestest.Refused(t, b, "{type: move, unit: longbowmen, path: [[0, 0]]}", "the battle has not begun: it is French's deployment")
	rulestest.Play(t, b, "type: end_deployment")
	rulestest.Play(t, b, "{type: move, unit: longbowmen, path: [[0, 0]]}")
	rulestest.Refused(t, b, "{type: deploy, unit: knights, at: [0, 10]}", "the battle has begun")
}

// TestDeploymentTurnsWarfare: the deployment of examples/warfare/moves.yaml in turns,
// held to what every system's must do.
func TestDeploymentTurnsWarfare(t *testing.T) {
	src := strings.Replace(readMoves(t), "{id: longbowmen,", "{id: archers, side: English, stands: 2, figures_per_stand: 4, weapon: longbow, at: [-8, 0], move: 3, base: 2}\n  - {id: longbowmen,", 1)
	rulestest.CheckDeploymentTurns(t, loadSrc(t, src, 0), []string{"English", "French"},
		map[string]string{"English": "{type: deploy, unit: archers, at: [-6, -2]}", "French": "{type: deploy, unit: spearmen, at: [4, 9]}"},
		map[string]string{"English": "{type: move, unit: longbowmen, path: [[0, 2]]}", "French": "{type: move, unit: knights, path: [[0, 7]]}"})
}

// TestDeploymentEdition4Warfare: a battle begun under edition 4 deploys as it did: either
// side at any time, until the first other action, which ends the deployment for both.
func TestDeploymentEdition4Warfare(t *testing.T) {
	b := movesBattle(t, volley.EditionMoves)
	rulestest.Play(t, b, "{type: deploy, unit: spearmen, at: [4, 9]}", "{type: move, unit: longbowmen, path: [[0, 2]]}")
	rulestest.Refused(t, b, "{type: deploy, unit: knights, at: [0, 10]}", "the battle has begun: units are deployed only before its first action")
}

// TestMovesNotInOldEditionsWarfare: a battle begun before edition 4 does not move.
func TestMovesNotInOldEditionsWarfare(t *testing.T) {
	b := movesBattle(t, 3)
	for _, src := range []string{"{type: move, unit: longbowmen, path: [[0, 2]]}", "{type: deploy, unit: spearmen, at: [4, 9]}"} {
		if _, err := rulestest.DecodeAs(t, b, src, true, 3); err == nil || !strings.Contains(err.Error(), "a battle begun under edition 3 does not move its units") {
			t.Errorf("%s in an edition 3 battle: %v", src, err)
		}
		if _, err := rulestest.DecodeAs(t, b, src, false, 0); err == nil || !strings.Contains(err.Error(), "a battle begun before edition 4 does not move its units") {
			t.Errorf("%s replayed in an edition 3 battle: %v", src, err)
		}
	}
	if _, ok := b.State().Units[0].Values["move"]; ok || b.Table().Moves != nil {
		t.Error("an edition 3 battle shows moves")
	}
}

// TestForkAndPlacementsWarfare: a fork moves without touching the battle; the battle
// written back as a scenario places each unit where it stands.
func TestForkAndPlacementsWarfare(t *testing.T) {
	b := movesBattle(t, 0)
	before := rulestest.FullSnapshot(b)
	f := b.Fork().(*Battle)
	rulestest.Play(t, f, "type: end_deployment", "{type: deploy, unit: spearmen, at: [4, 9]}", "type: end_deployment", "{type: move, unit: longbowmen, path: [[0, 2]]}", fire)
	if rulestest.FullSnapshot(b) != before {
		t.Error("moves on the fork changed the battle")
	}
	doc := rulestest.Parse(t, "moves.yaml", readMoves(t))
	out, err := doc.Place(f.Placements(), "actions")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "weapon: longbow, at: [0, 2], move: 3") || !strings.Contains(string(out), "at: [4, 9], move: 4") {
		t.Errorf("the placed scenario:\n%s", out)
	}
	if p := loadSrc(t, string(out), 0); p.units[0].At.Y != 2 {
		t.Errorf("the longbowmen in the placed scenario: %v", p.units[0].At)
	}
}

// TestMoveViewWarfare: the table says how each unit may move now.
func TestMoveViewWarfare(t *testing.T) {
	b := movesBattle(t, 0)
	if tv := b.Table(); !tv.Deploying || !strings.Contains(tv.Units[0].Move.Why, "it is English's deployment") {
		t.Errorf("while the English deploy: %v %+v", tv.Deploying, tv.Units[0].Move)
	}
	rulestest.EndDeployment(t, b)
	rulestest.Play(t, b, "{type: move, unit: longbowmen, path: [[0, 1]]}")
	tv := b.Table()
	if tv.Moves == nil || tv.Moves.Facing || tv.Edge == nil || len(tv.Zones) != 2 || tv.Deploying {
		t.Errorf("the table: %+v %v %v %v", tv.Moves, tv.Edge, tv.Zones, tv.Deploying)
	}
	if m := tv.Units[0].Move; m.Allowance != 3 || m.Moved != 1 || m.Left != 2 || tv.Units[0].Base != 2 {
		t.Errorf("the longbowmen: %+v base %v", m, tv.Units[0].Base)
	}
	if m := tv.Units[1].Move; m.Left != 0 || !strings.Contains(m.Why, "it is English's turn") {
		t.Errorf("the knights: %+v", m)
	}
	doc, _ := scenario.Parse("action.yaml", []byte("{type: move, unit: longbowmen, path: [[0, 9]]}"))
	a, err := b.DecodeAction(doc)
	if err != nil {
		t.Fatal(err)
	}
	if list, _ := b.Refusals(context.Background(), a); len(list) != 1 || !strings.Contains(list[0].Msg, "it may move 2\" more") {
		t.Errorf("check's refusal: %v", list)
	}
}
