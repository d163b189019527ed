package warengine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/scenario"
)

// moveScenario is a small map for Phase I: a wall with a corner to cut between 4,2 and
// 3,3, a tall cubicle wall (visibility 100, firepower 20) at 3,6, two blue soldiers that
// move 4 squares, a size-2 walker that moves 3, and two red sentries that do not move.
// Blue's turn begins in its move phase.
const moveScenario = `ruleset: warengine
deployment:
  blue: [[0, 0], [10, 0], [10, 5], [0, 5]]
map:
  legend:
    ".": {name: open ground}
    "#": {name: ruined wall, visibility: 100, firepower: 100, save: 20, hits: 3, becomes: "r"}
    "r": {name: rubble, firepower: 30}
    "c": {name: cubicle wall, visibility: 100, firepower: 20}
  rows: |
    ..........
    ..........
    ....#.....
    ...#......
    ..........
    ..........
    ...c......
    ..........
weapons:
  - {name: Gun, arc: 360, short: {range: 5}, medium: {range: 10}, long: {range: 20}, strength: 40, damage: [1, 2], repeating: true}
types:
  - {name: Soldier, weapon_skill: 50, hits: 2, move: 4, weapons: [{weapon: Gun, group: 1}]}
  - {name: Walker, size: 2, weapon_skill: 40, hits: 4, move: 3}
  - {name: Sentry, weapon_skill: 50, hits: 2, weapons: [{weapon: Gun, group: 1}]}
units:
  - {id: a, type: Soldier, side: blue, at: [3, 2], facing: N}
  - {id: b, type: Soldier, side: blue, at: [6, 2], facing: N}
  - {id: w, type: Walker, side: blue, at: [0, 5], facing: N}
  - {id: s, type: Sentry, side: red, at: [8, 6], facing: S}
  - {id: t, type: Sentry, side: red, at: [8, 0], facing: S, aiming: true}
`

// moveBattle is moveScenario with options, its deployment over: the battle has begun.
func moveBattle(t *testing.T, options string) *Battle {
	t.Helper()
	b := deployingBattle(t, options)
	rulestest.EndDeployment(t, b)
	return b
}

// deployingBattle is moveScenario with options, its sides to deploy: blue first.
func deployingBattle(t *testing.T, options string) *Battle {
	t.Helper()
	b, _ := sys.Load(t, strings.Replace(moveScenario, "ruleset: warengine\n", "ruleset: warengine\n"+options, 1))
	return b
}

func mustParse(t *testing.T, src string) *scenario.Doc {
	t.Helper()
	return rulestest.Parse(t, "order.yaml", src)
}

// refusedOrder resolves an order that must be refused, and checks that its error says
// want and that it changed nothing a player can see.
func refusedOrder(t *testing.T, b *Battle, src, want string) {
	t.Helper()
	before := rulestest.Snapshot(b)
	_, err := b.Resolve(context.Background(), decodeOrder(t, b, src), dice.ForAction(1, 99))
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%s: %v; want a refusal saying %q", src, err, want)
	}
	if rulestest.Snapshot(b) != before {
		t.Errorf("%s: a refused order changed the battle", src)
	}
}

// aimOf is the aim of a fire order with a target of its own ("what if it fired there").
func aimOf(t *testing.T, b *Battle, src string) volley.Aim {
	t.Helper()
	aims, err := b.Aim(context.Background(), decodeOrder(t, b, src))
	if err != nil || len(aims) != 1 {
		t.Fatalf("%s: %v %v", src, aims, err)
	}
	return aims[0]
}

func hasModifier(a volley.Aim, rule string) bool {
	for _, m := range a.Modifiers {
		if m.Rule == rule {
			return true
		}
	}
	return false
}

// TestNotAimingAfterAMove: Sgt Murphy "doesn't move during Phase 1 and so is considered
// to be Aiming, increasing his Weapon Skill" by 20; "if a unit is not aiming and is
// firing a repeating weapon, then the process is repeated 3 times"; and the damage
// check's +10% needs "the firing unit is aiming and the target is within the required
// range". a moves one square in Phase I and loses all three; b stands still and keeps
// them.
func TestNotAimingAfterAMove(t *testing.T) {
	b := moveBattle(t, "")
	play(t, b, "{type: move, unit: a, path: [[3, 1]]}", "type: end_phase")
	moved := rulestest.Odds(t, b, decodeOrder(t, b, "{type: fire, unit: a, weapon: Gun, target: s}"))
	still := rulestest.Odds(t, b, decodeOrder(t, b, "{type: fire, unit: b, weapon: Gun, target: s}"))
	if hasModifier(moved.Aims[0], "aiming") || moved.Values["picks"] != RepeatingPicks {
		t.Errorf("a moved in Phase I: modifiers %v, picks %v; want no aiming bonus and %d picks", moved.Aims[0].Modifiers, moved.Values["picks"], RepeatingPicks)
	}
	if !hasModifier(still.Aims[0], "aiming") || still.Values["picks"] != 1 {
		t.Errorf("b stood still: modifiers %v, picks %v; want +%d aiming and one pick", still.Aims[0].Modifiers, still.Values["picks"], AimingBonus)
	}
	// 5 and 4 squares from s, in the short band of strength 0: 40, and 40 + 10% aimed.
	if moved.Values["adjusted_strength"] != 40 || still.Values["adjusted_strength"] != 44 {
		t.Errorf("adjusted strength %v (moved) and %v (still); want 40 and 44", moved.Values["adjusted_strength"], still.Values["adjusted_strength"])
	}
	if note := strings.Join(moved.Aims[0].Notes, "; "); !strings.Contains(note, "a moved 1 square in Phase I, so it does not aim") {
		t.Errorf("a's aim notes: %s", note)
	}
	st := b.State()
	for i, want := range []float64{0, 1, 1} { // a, b, w
		if got := st.Units[i].Values["aiming"]; got != want {
			t.Errorf("%s: aiming %v; want %v", st.Units[i].ID, got, want)
		}
	}
	if v := st.Units[0].Values; v["moved"] != 1 || v["move"] != 4 {
		t.Errorf("a's state: %v; want moved 1 of its move 4", v)
	}
	// The fire's trace says what it read, and from where.
	play(t, b, "{type: declare, unit: a, weapon: Gun, target: s}", "type: end_phase")
	out, err := b.Resolve(context.Background(), decodeOrder(t, b, "{type: fire, unit: a, weapon: Gun}"), dice.ForAction(1, 0))
	if err != nil || out.Trace[0].Rule != "aiming (Phase I)" || out.Trace[0].Result != "a moved 1 square in Phase I, so it does not aim" {
		t.Errorf("the fire's first step: %+v, %v", out.Trace[0], err)
	}
}

// TestAimingWhenStoodStill: a unit that keeps its squares aims, even if it turns (a
// change of facing is not a move; facing_change_moves: true makes it one); and each of
// its side's Phase I measures it afresh: a, which moved last turn, aims this one.
func TestAimingWhenStoodStill(t *testing.T) {
	b := moveBattle(t, "")
	play(t, b, "{type: move, unit: b, facing: 45}", "{type: move, unit: a, path: [[2, 1]], facing: W}")
	if u, _ := b.Unit("b"); !u.Aiming || u.Facing != 1 {
		t.Errorf("b turned to NE: aiming %v facing %s; want aiming, NE", u.Aiming, u.Facing)
	}
	if u, _ := b.Unit("a"); u.Aiming || u.Facing != 6 || u.At != geom.Sq(2, 1) {
		t.Errorf("a moved to 2,1 facing W: %+v", u)
	}
	// Blue's turn ends; red's units do not move, so red passes its Phase I and aims.
	var outs []volley.Outcome
	for i := range 3 {
		out := rulestest.MustResolve(t, b, decodeOrder(t, b, "type: end_phase"), dice.ForAction(1, i))
		outs = append(outs, out)
	}
	if got := outs[0].Trace[0].Result; got != "target phase; aiming (stood still in Phase I): b, w; not aiming (moved): a" {
		t.Errorf("the end of blue's Phase I: %v", got)
	}
	if b.side != "red" || b.phase != PhaseTarget || !strings.Contains(fmt.Sprint(outs[2].Trace[0].Result), "no unit of it may move") {
		t.Errorf("after blue's fire phase: %s's %s phase (%v); want red's target phase, its Phase I passed", b.side, b.phase, outs[2].Trace[0].Result)
	}
	if u, _ := b.Unit("s"); !u.Aiming {
		t.Error("s stood still through red's Phase I and does not aim")
	}
	play(t, b, "type: end_phase", "type: end_phase")
	if b.side != "blue" || b.phase != PhaseMove {
		t.Fatalf("after red's turn: %s's %s phase; want blue's move phase", b.side, b.phase)
	}
	if u, _ := b.Unit("a"); !u.Aiming || u.Moved != 0 {
		t.Errorf("a in blue's next Phase I: aiming %v, moved %d; want aiming and 0", u.Aiming, u.Moved)
	}
	// With the option, a unit that turns has moved.
	b = moveBattle(t, "options: {facing_change_moves: true}\n")
	play(t, b, "{type: move, unit: b, facing: NE}")
	if u, _ := b.Unit("b"); u.Aiming {
		t.Error("facing_change_moves: b turned and still aims")
	}
}

// TestMoveBlocked: blocking terrain (a wall: a square no unit may stand on, visibility or
// firepower 100) and other units, friend or foe, stop a move; so does the map's edge. A
// diagonal step may not cut the corner between two blocked squares unless cut_corners
// says so. Each refused move changes nothing.
func TestMoveBlocked(t *testing.T) {
	b := moveBattle(t, "")
	for _, tc := range []struct{ move, want string }{
		{"{type: move, unit: a, path: [[4, 2]]}", "step 1, to 4,2: the ruined wall at 4,2 blocks it (visibility 100, firepower 100: no unit stands on a wall)"},
		{"{type: move, unit: b, path: [[5, 1], [4, 1], [3, 2]]}", "step 3, to 3,2: a stands on 3,2"},
		{"{type: move, unit: b, path: [[7, 3], [7, 4], [8, 5], [8, 6]]}", "step 4, to 8,6: s stands on 8,6"},
		{"{type: move, unit: w, path: [[1, 5], [2, 5]]}", "step 2, to 2,5: the cubicle wall at 3,6 blocks it (visibility 100, firepower 20: no unit stands on a wall)"},
		{"{type: move, unit: w, path: [[0, 6], [0, 7]]}", "step 2, to 0,7: its 2×2 footprint from 0,7 would leave the 10×8 map"},
		{"{type: move, unit: a, path: [[3, 1], [3, 0], [3, -1]]}", "step 3, to 3,-1: 3,-1 is off the 10×8 map"},
		{"{type: move, unit: a, path: [[3, 0]]}", "step 1, 3,0, is not next to 3,2"},
		{"{type: move, unit: a, path: [[4, 3]]}", "step 1, from 3,2 to 4,3, cuts the corner between two blocked squares"},
	} {
		refusedOrder(t, b, tc.move, tc.want)
	}
	// Round the wall is fine, and so is the corner with cut_corners.
	play(t, b, "{type: move, unit: a, path: [[2, 3], [3, 4], [4, 3]]}")
	b = moveBattle(t, "options: {cut_corners: true}\n")
	play(t, b, "{type: move, unit: a, path: [[4, 3]]}")
	// A wall knocked down is rubble, which a unit may cross.
	b = moveBattle(t, "")
	b.cells[b.index(geom.Sq(4, 2))] = b.bySymbol['r']
	play(t, b, "{type: move, unit: a, path: [[4, 2]]}")
}

// TestMoveLimit: the move is data (the type's move:), and a path that costs more than is
// left of it this turn is refused naming the limit and where it comes from; moves add
// up over the phase. A diagonal step costs one square, as every distance the manual
// counts does; diagonal: alternate makes every second one cost two.
func TestMoveLimit(t *testing.T) {
	b := moveBattle(t, "")
	refusedOrder(t, b, "{type: move, unit: a, path: [[2, 2], [1, 2], [0, 2], [0, 1], [0, 0]]}",
		"a's path costs 5 squares of its move, and it has 4 left this turn (its move is 4 squares a Phase I, its type's move:)")
	play(t, b, "{type: move, unit: a, path: [[2, 1], [1, 0]]}")
	refusedOrder(t, b, "{type: move, unit: a, path: [[0, 0], [0, 1], [0, 2]]}", "it has 2 left this turn")
	play(t, b, "{type: move, unit: a, path: [[0, 0], [0, 1]]}")
	refusedOrder(t, b, "{type: move, unit: a, path: [[0, 2]]}", "it has 0 left this turn")
	play(t, b, "{type: move, unit: a, facing: S}") // turning costs nothing
	if mv := b.Board().Units[0].Move; mv.Moved != 4 || mv.Left != 0 || !strings.Contains(mv.Why, "has moved its whole move of 4 squares") {
		t.Errorf("a's move view: %+v", mv)
	}
	// Four diagonals cost 1 + 2 + 1 + 2 = 6 with alternate; three cost 4.
	b = moveBattle(t, "options: {diagonal: alternate}\n")
	refusedOrder(t, b, "{type: move, unit: b, path: [[7, 3], [8, 4], [9, 5], [8, 6]]}", "costs 6 squares of its move, and it has 4 left this turn")
	refusedOrder(t, b, "{type: move, unit: b, path: [[7, 3], [8, 4], [9, 5], [8, 6]]}", "every second diagonal step costs 2, diagonal: alternate")
	play(t, b, "{type: move, unit: b, path: [[7, 3], [8, 4], [9, 5]]}")
	if u, _ := b.Unit("b"); u.Moved != 4 {
		t.Errorf("three diagonals cost %d; want 4", u.Moved)
	}
}

// TestMoveInItsPhase: a unit moves in its own side's Phase I, before the target phase;
// one whose type gives no move may only turn.
func TestMoveInItsPhase(t *testing.T) {
	b := moveBattle(t, "")
	if b.phase != PhaseMove || b.side != "blue" {
		t.Fatalf("the battle begins in %s's %s phase; want blue's move phase", b.side, b.phase)
	}
	refusedOrder(t, b, "{type: move, unit: s, facing: N}", "it is blue's turn, and s is red's")
	refusedOrder(t, b, "{type: declare, unit: a, weapon: Gun, target: s}", "a declare action belongs to the target phase; this is the move phase")
	play(t, b, "type: end_phase")
	refusedOrder(t, b, "{type: move, unit: a, path: [[3, 1]]}", "a move action belongs to the move phase; this is the target phase")
	// A sentry in its side's Phase I.
	b = moveBattle(t, "turn: {side: red, phase: move}\n")
	refusedOrder(t, b, "{type: move, unit: s, path: [[8, 5]]}", "s may only turn: a Sentry has no move in the scenario")
	play(t, b, "{type: move, unit: s, facing: W}")
	if mv := b.Board().Units[3].Move; mv.Why != "a Sentry has no move in the scenario (its type's move:): it may only turn" {
		t.Errorf("s's move view: %+v", mv)
	}
}

// TestStatedAimingRefusedOverTheAPI: whether a unit aims is measured from its Phase I; a
// refereed order (one a server is sent) that states it is refused naming the field.
// The command line may state it, as "what if", and the stated fact wins.
func TestStatedAimingRefusedOverTheAPI(t *testing.T) {
	b := moveBattle(t, "")
	play(t, b, "{type: move, unit: a, path: [[3, 1]]}", "type: end_phase")
	src := "{type: fire, unit: a, weapon: Gun, target: s, aiming: true}"
	doc := mustParse(t, src)
	doc.Refereed = true
	if _, err := b.DecodeAction(doc); err == nil || !strings.HasPrefix(err.Error(), "order.yaml:1:55: aiming: the server measures whether a unit aims") {
		t.Errorf("aiming over the API: %v; want it refused at aiming", err)
	}
	if aim := aimOf(t, b, src); !hasModifier(aim, "aiming") || !strings.Contains(strings.Join(aim.Notes, " "), "as the order states") {
		t.Errorf("what if a had aimed: %v %v", aim.Modifiers, aim.Notes)
	}
	if aim := aimOf(t, b, "{type: fire, unit: b, weapon: Gun, target: s, aiming: false}"); hasModifier(aim, "aiming") {
		t.Errorf("what if b had not aimed: %v", aim.Modifiers)
	}
	if _, err := b.DecodeAction(mustParse(t, "{type: end_phase, aiming: true}")); err == nil || !strings.Contains(err.Error(), "only a declare or fire order's shot reads whether the unit aims") {
		t.Errorf("aiming on end_phase: %v", err)
	}
	// In a battle begun before moves, aiming is the scenario's: never the player's, but
	// the command line's "what if" still.
	doc.Edition = 3
	if _, err := b.DecodeAction(doc); err == nil || !strings.Contains(err.Error(), "aiming: in a battle begun under edition 3 a unit aims as the scenario says") {
		t.Errorf("aiming over the API in an edition 3 battle: %v", err)
	}
	doc.Refereed = false
	if _, err := b.DecodeAction(doc); err != nil {
		t.Errorf("aiming on the command line in an edition 3 battle: %v", err)
	}
}

// TestMoveRollsNothing: a move is not a shot: it aims nothing, has no odds and nothing to
// simulate, and rolls no die.
func TestMoveRollsNothing(t *testing.T) {
	b := moveBattle(t, "")
	o := decodeOrder(t, b, "{type: move, unit: a, path: [[3, 1]]}")
	if aims, err := b.Aim(context.Background(), o); aims != nil || err != nil {
		t.Errorf("a move's aim: %v %v", aims, err)
	}
	if odds := rulestest.Odds(t, b, o); len(odds.Aims)+len(odds.Targets)+len(odds.Squares) != 0 {
		t.Errorf("a move's odds: %+v", odds)
	}
	if _, err := b.Sampler(o); err == nil || !strings.Contains(err.Error(), "a move order has nothing to simulate") {
		t.Errorf("a move's simulation: %v", err)
	}
	if out, err := b.Resolve(context.Background(), o, dice.ForAction(1, 0)); err != nil || len(out.Rolls) != 0 || len(out.Trace) != 1 {
		t.Errorf("a move's outcome: %+v %v", out, err)
	}
}

// TestMovesNotInOldEditions: a battle begun before edition 4 has no Phase I: its moves
// and deployments are refused, its turns begin with the target phase, and its units aim
// as the scenario says, turn after turn.
func TestMovesNotInOldEditions(t *testing.T) {
	b, err := loadEdition(t, moveScenario, 3)
	if err != nil {
		t.Fatal(err)
	}
	if b.phase != PhaseTarget {
		t.Errorf("an edition 3 battle begins in the %s phase", b.phase)
	}
	for _, src := range []string{"{type: move, unit: a, path: [[3, 1]]}", "{type: deploy, unit: a, at: [2, 0]}"} {
		doc := mustParse(t, src)
		doc.Edition = 3
		if _, err := b.DecodeAction(doc); err == nil || !strings.Contains(err.Error(), "a battle begun under edition 3 does not move its units") {
			t.Errorf("%s in an edition 3 battle: %v", src, err)
		}
	}
	play(t, b, "type: end_phase", "type: end_phase")
	if b.side != "red" || b.phase != PhaseTarget {
		t.Errorf("after blue's fire phase: %s's %s phase; want red's target phase", b.side, b.phase)
	}
	if u, _ := b.Unit("s"); u.Aiming {
		t.Error("edition 3: s, written without aiming, aims once its turn began")
	}
	if u, _ := b.Unit("t"); !u.Aiming {
		t.Error("edition 3: t, written aiming, does not aim")
	}
	if _, ok := b.State().Units[0].Values["aiming"]; ok {
		t.Error("edition 3: the state shows aiming, which it did not")
	}
	if b.Board().Moves != nil || b.Board().Units[0].Move != nil {
		t.Error("edition 3: the board offers moves")
	}
	if _, err := loadEdition(t, "turn: {phase: move}\n"+moveScenario, 3); err == nil || !strings.Contains(err.Error(), "turn: phase move: a battle begun under edition 3 does not move its units") {
		t.Errorf("an edition 3 battle in its move phase: %v", err)
	}
}

// TestDeployment: before the battle begins each unit may be placed in its side's
// deployment zone (a square is in it when its centre is), or anywhere on the map for a
// side without one; not on a wall or another unit. Blue deploys first (its turn comes
// first), then red; the battle begins when both are done.
func TestDeployment(t *testing.T) {
	b := deployingBattle(t, "")
	play(t, b, "{type: deploy, unit: a, at: [1, 0], facing: E}", "{type: deploy, unit: w, at: [8, 3]}")
	if u, _ := b.Unit("a"); u.At != geom.Sq(1, 0) || u.Facing != 2 {
		t.Errorf("a deployed at %v facing %s", u.At, u.Facing)
	}
	for _, r := range []struct{ src, want string }{
		{"{type: deploy, unit: b, at: [5, 6]}", "5,6 lies outside blue's deployment zone"},
		{"{type: deploy, unit: w, at: [8, 4]}", "8,5 lies outside blue's deployment zone"},
		{"{type: deploy, unit: b, at: [4, 2]}", "the ruined wall at 4,2 blocks it"},
		{"{type: deploy, unit: b, at: [9, 4]}", "w stands on 9,4"},
		{"{type: deploy, unit: s, at: [0, 7]}", "it is blue's deployment: red deploys when blue has deployed all its units"},
		{"{type: move, unit: b, path: [[6, 1]]}", "the battle has not begun: it is blue's deployment"},
	} {
		refusedOrder(t, b, r.src, r.want)
	}
	play(t, b, "type: end_deployment", "{type: deploy, unit: s, at: [0, 7]}")
	if !b.Board().Deploying || b.State().Turn.Side != "red" || b.State().Turn.Phase != "deployment" {
		t.Errorf("the board says deployment is over before red's: %+v", b.State().Turn)
	}
	play(t, b, "type: end_deployment")
	if turn := b.State().Turn; turn.Side != "blue" || turn.Phase != string(PhaseMove) {
		t.Errorf("the battle begins with %+v; want blue's move phase", turn)
	}
	play(t, b, "{type: move, unit: b, path: [[6, 1]]}")
	refusedOrder(t, b, "{type: deploy, unit: b, at: [5, 0]}", "the battle has begun")
	if b.Board().Deploying {
		t.Error("the board says units still deploy after a move")
	}
}

// TestDeploymentTurnsWarEngine: moveScenario's deployment in turns, held to what every
// system's must do.
func TestDeploymentTurnsWarEngine(t *testing.T) {
	rulestest.CheckDeploymentTurns(t, deployingBattle(t, ""), []string{"blue", "red"},
		map[string]string{"blue": "{type: deploy, unit: a, at: [1, 0], facing: E}", "red": "{type: deploy, unit: s, at: [0, 7]}"},
		map[string]string{"blue": "{type: move, unit: b, path: [[6, 1]]}", "red": "{type: end_phase}"})
	// A battle that begins in red's turn deploys red first.
	rulestest.CheckDeploymentTurns(t, deployingBattle(t, "turn: {side: red, phase: move}\n"), []string{"red", "blue"},
		map[string]string{"blue": "{type: deploy, unit: a, at: [1, 0], facing: E}", "red": "{type: deploy, unit: s, at: [0, 7]}"},
		map[string]string{"red": "{type: end_phase}", "blue": "{type: move, unit: b, path: [[6, 1]]}"})
}

// TestDeploymentEdition4WarEngine: a battle begun under edition 4 deploys as it did:
// either side at any time, until the first other action, which ends the deployment for
// both.
func TestDeploymentEdition4WarEngine(t *testing.T) {
	b, err := loadEdition(t, moveScenario, volley.EditionMoves)
	if err != nil {
		t.Fatal(err)
	}
	play(t, b, "{type: deploy, unit: s, at: [0, 7]}", "{type: deploy, unit: a, at: [1, 0], facing: E}", "{type: move, unit: b, path: [[6, 1]]}")
	refusedOrder(t, b, "{type: deploy, unit: t, at: [5, 7]}", "the battle has begun: units are deployed only before its first action")
}

// TestForkSharesNothing: a fork declares, fires and moves on its own; the battle it came
// from is as it was, and the fork's placements say where each of its units stands.
func TestForkSharesNothing(t *testing.T) {
	b := moveBattle(t, "turn: {side: blue, phase: target}\n")
	play(t, b, "{type: declare, unit: a, weapon: Gun, target: [4, 2]}")
	before, hits := rulestest.Snapshot(b), slices.Clone(b.cellHits)
	f := b.Fork().(*Battle)
	play(t, f, "{type: declare, unit: a, weapon: Gun, target: [3, 3]}", "type: end_phase", "{type: fire, unit: a, weapon: Gun}")
	f.cellHits[f.index(geom.Sq(4, 2))] = 0
	if rulestest.Snapshot(b) != before || !slices.Equal(b.cellHits, hits) {
		t.Error("the fork's actions changed the battle it came from")
	}
	if u, _ := b.Unit("a"); u.declared("Gun") == nil || u.declared("Gun").Target != geom.Sq(4, 2) {
		t.Errorf("the battle's declaration changed: %+v", u.Declared)
	}
	f = b.Fork().(*Battle)
	f.phase = PhaseMove
	play(t, f, "{type: move, unit: a, path: [[2, 1]], facing: SW}")
	if b.unitAt(geom.Sq(2, 1)) != nil || f.unitAt(geom.Sq(2, 1)) == nil || f.unitAt(geom.Sq(3, 2)) != nil {
		t.Error("the fork's move is on the battle's map too, or not on its own")
	}
	for _, p := range f.Placements() {
		if p.ID == "a" && (!slices.Equal(p.Set["at"].([]int), []int{2, 1}) || p.Set["facing"] != "SW") {
			t.Errorf("a's placement: %+v", p)
		}
	}
}

// TestPlacedScenarioLoads: the battle written back as a scenario (its placements) loads,
// with the units where they were deployed and moved, and a unit destroyed where it fell,
// off the map, though another now stands there.
func TestPlacedScenarioLoads(t *testing.T) {
	b := deployingBattle(t, "")
	play(t, b, "{type: deploy, unit: b, at: [7, 1], facing: W}", "{type: deploy, unit: a, at: [1, 3]}", "type: end_deployment", "type: end_deployment")
	w, _ := b.Unit("w")
	w.Hits = 0 // destroyed where it stands, 0,5 to 1,6
	b.vacate(b.byID["w"])
	play(t, b, "{type: move, unit: a, path: [[1, 4], [1, 5]]}")
	out, err := mustParse(t, moveScenario).Place(b.Placements(), "turn")
	if err != nil {
		t.Fatal(err)
	}
	c, _ := sys.Load(t, string(out))
	for id, want := range map[string]struct {
		at     geom.Square
		facing Facing
	}{"a": {geom.Sq(1, 5), 0}, "b": {geom.Sq(7, 1), 6}} {
		if u, _ := c.Unit(id); u.At != want.at || u.Facing != want.facing {
			t.Errorf("%s in the scenario written back: %v %s", id, u.At, u.Facing)
		}
	}
	if u, _ := c.Unit("w"); !u.Destroyed() || c.unitAt(geom.Sq(1, 5)) == nil || c.unitAt(geom.Sq(0, 5)) != nil {
		t.Errorf("w in the scenario written back: %+v", u)
	}
}

// TestMoveRefusedInCheck: check plays a scenario's actions and reports an illegal move
// at the square of its path that breaks the rule.
func TestMoveRefusedInCheck(t *testing.T) {
	src := moveScenario + `actions:
  - type: end_deployment
  - type: end_deployment
  - {type: move, unit: a, path: [[3, 1]]}
  - type: move
    unit: b
    path:
      - [5, 1]
      - [4, 1]
      - [3, 1]
`
	_, _, _, err := rules.Check(context.Background(), mustParse(t, src))
	want := "order.yaml:40:9: b cannot move there: step 3, to 3,1: a stands on 3,1"
	if err == nil || err.Error() != want {
		t.Errorf("check: %v; want %s", err, want)
	}
}

// TestMoveBounds: a path longer than any move could be is refused when it is read, and a
// move's cost counts its squares.
func TestMoveBounds(t *testing.T) {
	b := moveBattle(t, "")
	path := strings.Repeat("[3, 1], ", MaxMove) + "[3, 1]"
	if _, err := b.DecodeAction(mustParse(t, "{type: move, unit: a, path: ["+path+"]}")); err == nil || !strings.Contains(err.Error(), "move: path: at most 1024 squares") {
		t.Errorf("a path of %d squares: %v", MaxMove+1, err)
	}
	if _, err := b.DecodeAction(mustParse(t, "{type: move, unit: a}")); err == nil || !strings.Contains(err.Error(), "give a path of squares") {
		t.Errorf("a move of nothing: %v", err)
	}
	if c := b.Cost(decodeOrder(t, b, "{type: move, unit: w, path: [[1, 5], [1, 4]]}")); c != 2*3*4+1 {
		t.Errorf("a walker's two steps cost %d; want 25", c)
	}
}

// TestBoardMoves: the board says how a page builds a move (squares, a facing in 45°
// steps), where each side deploys, and how far each unit may still move.
func TestBoardMoves(t *testing.T) {
	b := moveBattle(t, "")
	play(t, b, "{type: move, unit: a, path: [[3, 1]]}")
	v := b.Board()
	if v.Moves == nil || !v.Moves.Grid || !v.Moves.Facing || v.Moves.FacingStep != 45 || len(v.Zones["blue"]) != 4 {
		t.Errorf("the board's move form: %+v, zones %v", v.Moves, v.Zones)
	}
	if mv := v.Units[0].Move; mv.Allowance != 4 || mv.Moved != 1 || mv.Left != 3 || mv.Why != "" {
		t.Errorf("a's move view: %+v", mv)
	}
	if mv := v.Units[3].Move; mv.Left != 0 || mv.Why != "it is blue's turn" {
		t.Errorf("s's move view: %+v", mv)
	}
}

// TestPhaseIScenario: a scenario that begins in a side's Phase I may not carry that
// side's declared targets, and its aiming: for that side is measured (a note says so);
// the map is the table.
func TestPhaseIScenario(t *testing.T) {
	src := strings.Replace(moveScenario, "at: [6, 2], facing: N}", "at: [6, 2], facing: N, aiming: false, targets: [{weapon: Gun, at: s}]}", 1)
	if _, err := loadEdition(t, src, 0); err == nil || !strings.Contains(err.Error(), `unit "b": targets: the battle begins in blue's Phase I`) {
		t.Errorf("targets in Phase I: %v", err)
	}
	src = strings.Replace(moveScenario, "at: [6, 2], facing: N}", "at: [6, 2], facing: N, aiming: false}", 1)
	b, err := loadEdition(t, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if u, _ := b.Unit("b"); !u.Aiming || len(b.Notes()) != 1 || !strings.Contains(b.Notes()[0], "aiming: the battle begins in blue's Phase I") {
		t.Errorf("b's aiming %v; notes %v", u.Aiming, b.Notes())
	}
	if _, err := loadEdition(t, "table: {width: 10, height: 8}\n"+moveScenario, 0); err == nil || !strings.Contains(err.Error(), "a War Engine battlefield is its map") {
		t.Errorf("a table: %v", err)
	}
}

// BenchmarkMoveCheck is the validation of a size-2 walker's move of 40 squares (20
// diagonal, each with its corner looked at, then 20 straight) on the danger map's 64×64
// map: what a server does for every move, and a preview for every frame of a drag.
func BenchmarkMoveCheck(bm *testing.B) {
	src := strings.Replace(dangerMap(""), "{name: Walker, size: 2,", "{name: Walker, size: 2, move: 40,", 1)
	src = strings.Replace(src, "turn: {side: red, phase: target}", "turn: {side: blue, phase: move}", 1)
	b, _ := sys.Load(bm, src)
	var path []string
	for i := 1; i <= 20; i++ {
		path = append(path, fmt.Sprintf("[%d, %d]", 30-i, 56-i))
	}
	for i := 1; i <= 20; i++ {
		path = append(path, fmt.Sprintf("[10, %d]", 36-i))
	}
	doc := rulestest.Parse(bm, "move.yaml", "{type: move, unit: blue-1, path: ["+strings.Join(path, ", ")+"]}")
	a, err := b.DecodeAction(doc)
	if err != nil {
		bm.Fatal(err)
	}
	o := a.(*Order)
	for bm.Loop() {
		if _, no := b.checkMove(o); no != nil {
			bm.Fatal(no.err)
		}
	}
}
