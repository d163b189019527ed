package warstrike

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rulestest"
)

// movesBattle is examples/warstrike/moves.yaml with none of its actions played, read
// under edition (0: the current one).
func movesBattle(tb testing.TB, edition int) *Battle {
	tb.Helper()
	b, _ := rulestest.MustLoadEdition(tb, Ruleset{}, sys.Example("moves.yaml"), nil, edition)
	return b.(*Battle)
}

func model(tb testing.TB, b *Battle, id string) *Model {
	tb.Helper()
	m, _, ok := b.Model(id)
	if !ok {
		tb.Fatalf("no model %s", id)
	}
	return m
}

const (
	alphaAdvances = "{type: move, unit: alpha, action: shooting_advance, models: [{id: alpha-3, path: [[25, 14]]}, {id: alpha-2, path: [[23.5, 13]]}, {id: alpha-leader, path: [[23, 14]]}]}"
	alphaShoots   = "{unit: alpha, targets: [{unit: raiders}]}"
	raidersDeploy = "{type: deploy, unit: raiders, at: [24, 24]}"
)

// TestActionChosenWithMove: "When selecting a unit in the Action Phase, you will choose
// an action based on what you wish the unit to do". The unit's first move chooses it;
// the unit keeps it for the turn; a move naming another, or a first move naming none, is
// refused and changes nothing.
func TestActionChosenWithMove(t *testing.T) {
	b := movesBattle(t, 0)
	rulestest.EndDeployment(t, b)
	rulestest.Refused(t, b, "{type: move, unit: alpha-3, path: [[22, 14]]}", "action: alpha has chosen no action this turn: its first move chooses it")
	out := rulestest.Play(t, b, "{type: move, unit: alpha-3, action: advance, path: [[24, 14]]}")
	if tr := out[0].Trace; len(tr) != 2 || !strings.Contains(tr[0].Result.(string), "alpha chose Advance: each of its models may move 6\" this turn, and it may not shoot") {
		t.Errorf("the move's trace: %+v", tr)
	}
	u, _ := b.Unit("alpha")
	if u.Action != Advance || b.State().Units[1].Values["action"] != float64(actionIndex(Advance)) {
		t.Errorf("alpha's action: %q", u.Action)
	}
	rulestest.Refused(t, b, "{type: move, unit: alpha-2, action: at_the_double, path: [[20, 13]]}", "alpha chose Advance this turn already, not At-The-Double: a unit chooses one action a turn")
	// The models that have not moved keep their whole move; the one that did, the rest.
	rulestest.Play(t, b, "{type: move, unit: alpha-2, path: [[25.5, 13]]}", "{type: move, unit: alpha-3, action: advance, path: [[26, 14]]}")
	if v := b.State().Units[1].Values; v["move"] != 6 || v["moved"] != 6 {
		t.Errorf("alpha's state: %v; want move 6, moved 6 (alpha-2's)", v)
	}
}

// TestAtTheDoubleMayNotShoot: "Armed units which have moved At-The-Double, or which have
// performed a Fall Back move may not perform a shooting action", and "Units which perform
// a Halt, Go To Ground, or Advance Action will also be unable to shoot". The shot is
// refused naming the rule, and changes nothing.
func TestAtTheDoubleMayNotShoot(t *testing.T) {
	for _, tc := range []struct {
		action, want string
	}{
		{"at_the_double", "alpha chose At-The-Double this turn: units that moved At-The-Double or fell back may not shoot (Who Can Shoot?)"},
		{"fall_back", "alpha chose Fall Back this turn: units that moved At-The-Double or fell back may not shoot (Who Can Shoot?)"},
		{"halt", "alpha chose Halt this turn, which is not an action that allows shooting (Who Can Shoot?; Actions That Allow Shooting)"},
		{"go_to_ground", "alpha chose Go To Ground this turn, which is not an action that allows shooting"},
		{"advance", "alpha chose Advance this turn, which is not an action that allows shooting"},
	} {
		b := movesBattle(t, 0)
		rulestest.Play(t, b, "type: end_deployment", raidersDeploy, "{type: move, unit: alpha, action: "+tc.action+"}")
		rulestest.Refused(t, b, alphaShoots, tc.want)
		for _, a := range rulestest.AimOf(t, b, alphaShoots) {
			if a.Status != volley.StatusNotEligible || !strings.Contains(a.Reason, "Who Can Shoot?") {
				t.Errorf("%s: the aim %s %s", tc.action, a.Status, a.Reason)
			}
		}
	}
}

// TestShootingActionFromTheMove: "After you have selected an action for a unit that allows
// you to shoot", the shot is taken as that action: measured from the move. A unit that
// chose none shoots as Open Fire (not in the source). The command line may state the
// action as a "what if", which wins; a refereed shot may not state it (see
// TestStatedActionRefusedOverTheAPI).
func TestShootingActionFromTheMove(t *testing.T) {
	b := movesBattle(t, 0)
	outs := rulestest.Play(t, b, "type: end_deployment", raidersDeploy, alphaAdvances, alphaShoots)
	who := outs[3].Trace[0]
	if who.Rule != "who can shoot" || who.Inputs["action"] != "Shooting Advance" || who.Inputs["chosen"] != "with its move" || who.Inputs["moved"] != 4.0 {
		t.Errorf("the shot's first step: %+v", who)
	}
	// Shot, its models move no more this turn.
	rulestest.Refused(t, b, "{type: move, unit: alpha-2, path: [[23.5, 14]]}", "alpha has shot this turn: its models move before it shoots")

	// Bravo chooses Halt And Fire standing still, then shoots as it.
	b = movesBattle(t, 0)
	rulestest.Play(t, b, "type: end_deployment", raidersDeploy, "{type: move, unit: bravo, action: halt_and_fire}")
	if u, _ := b.Unit("bravo"); u.Action != HaltAndFire {
		t.Errorf("bravo chose %q", u.Action)
	}
	p := b.plan(rulestest.Decode(t, b, "{unit: bravo, targets: [{unit: raiders}]}").(*Shoot))
	if p.as != HaltAndFire || p.chosen != "with its move" {
		t.Errorf("bravo's shot is taken as %q, chosen %q", p.as, p.chosen)
	}
	// What if it had chosen Focus Fire? The command line may ask; the stated action wins.
	p = b.plan(rulestest.Decode(t, b, "{unit: bravo, as: focus_fire, targets: [{unit: raiders}]}").(*Shoot))
	if p.as != FocusFire || p.refusal != "" {
		t.Errorf("the what-if: %q %q", p.as, p.refusal)
	}
	// Without a move the unit shoots as Open Fire, by default.
	p = b.plan(rulestest.Decode(t, b, "{unit: alpha, targets: [{unit: raiders}]}").(*Shoot))
	if p.as != OpenFire || !strings.HasPrefix(p.chosen, "by default") {
		t.Errorf("a unit that did not move: %q %q", p.as, p.chosen)
	}
}

// TestStatedActionRefusedOverTheAPI: a refereed shot may not state the action it is taken
// as (as:): the server reads it from the unit's move. The same shot is a fair "what if" on
// the command line, and battles begun under edition 3 keep stating it.
func TestStatedActionRefusedOverTheAPI(t *testing.T) {
	rulestest.StatedFact(t, movesBattle(t, 0), movesBattle(t, 3), "{unit: alpha, as: open_fire, targets: [{unit: raiders}]}",
		"1:19: as: the server measures the action a unit shoots with")
}

// TestShotWithAction: a shot written with the move's word, action:, is read as as: on
// the command line, and over the API gets the real reason at its place, not "unknown
// field"; both at once is a mistake.
func TestShotWithAction(t *testing.T) {
	b := movesBattle(t, 0)
	src := "{unit: alpha, action: open_fire, targets: [{unit: raiders}]}"
	_, err := rulestest.DecodeAs(t, b, src, true, 0)
	if err == nil || !strings.Contains(err.Error(), "1:23: action: the server measures the action a unit shoots with") || strings.Contains(err.Error(), "unknown field") {
		t.Errorf("action: over the API: %v; want it refused at action, as as: is", err)
	}
	a, err := rulestest.DecodeAs(t, b, src, false, 0)
	if err != nil || a.(*Shoot).As != OpenFire {
		t.Errorf("action: on the command line: %v, %+v; want it read as as: open_fire", err, a)
	}
	_, err = rulestest.DecodeAs(t, b, "{unit: alpha, as: open_fire, action: open_fire, targets: [{unit: raiders}]}", false, 0)
	if err == nil || !strings.Contains(err.Error(), "action: a shot names the action it is taken as once") {
		t.Errorf("as: and action: both: %v", err)
	}
}

// TestMovesNotInOldEditions: a battle begun before edition 4 does not move its models,
// nor deploy them.
func TestMovesNotInOldEditions(t *testing.T) {
	b := movesBattle(t, 3)
	for _, src := range []string{alphaAdvances, raidersDeploy} {
		if _, err := rulestest.DecodeAs(t, b, src, true, 3); err == nil || !strings.Contains(err.Error(), "a battle begun under edition 3 does not move its models") {
			t.Errorf("%s in an edition 3 battle: %v", src, err)
		}
		// Replayed from a log, an action names no edition: the battle's decides.
		if _, err := rulestest.DecodeAs(t, b, src, false, 0); err == nil || !strings.Contains(err.Error(), "a battle begun before edition 4 does not move its models") {
			t.Errorf("%s replayed in an edition 3 battle: %v", src, err)
		}
	}
	if _, ok := b.State().Units[0].Values["move"]; ok {
		t.Error("an edition 3 battle's state has a move")
	}
	if tv := b.Table(); tv.Moves != nil || tv.Units[0].Move != nil || len(tv.Declare.Fields) != 1 || tv.Declare.Fields[0].Key != "as" {
		t.Errorf("an edition 3 battle's table: moves %v, declare fields %v", tv.Moves, tv.Declare.Fields)
	}
}

// TestMoveDistanceIsData: each action's move is the tables' (sample data, not in the
// source) or the unit's own; a move longer than the action allows is refused naming the
// limit, and changes nothing; an action that moves nothing moves nothing.
func TestMoveDistanceIsData(t *testing.T) {
	b := movesBattle(t, 0)
	rulestest.EndDeployment(t, b)
	rulestest.Refused(t, b, "{type: move, unit: alpha-3, action: shooting_advance, path: [[25, 14], [25, 15]]}",
		"alpha-3's move is 5\" long, and it may move 4\" more this turn (Shooting Advance moves 4\" a model: the tables' moves:, data)")
	rulestest.Refused(t, b, "{type: move, unit: alpha-3, action: halt, path: [[21.5, 14]]}", "Halt moves 0\" a model")
	// Two moves of one model add up.
	rulestest.Play(t, b, "{type: move, unit: alpha-3, action: shooting_advance, path: [[23, 14]]}")
	rulestest.Refused(t, b, "{type: move, unit: alpha-3, path: [[25.5, 14]]}", "it may move 2\" more this turn")
	// A unit's own moves: win over the tables'.
	src := sys.ReadExample(t, "moves.yaml")
	slow, _ := loadEdition(t, strings.Replace(src, "    toughness: 3\n    models:\n      - {id: alpha-leader", "    toughness: 3\n    moves: {shooting_advance: 2}\n    models:\n      - {id: alpha-leader", 1), 0)
	rulestest.EndDeployment(t, slow)
	rulestest.Refused(t, slow.(*Battle), "{type: move, unit: alpha-3, action: shooting_advance, path: [[24, 14]]}", "Shooting Advance moves 2\" a model")
	if mv := slow.(*Battle).Table().Units[3].Move; mv == nil || mv.Allowance != 12 {
		t.Errorf("alpha-leader's move before alpha chooses: %+v; want the farthest an action allows, 12\"", mv)
	}
}

// TestModelsMoveOneByOne: a unit's models move one after another, each against the others
// where the moves before it left them. Alpha's leader may pass where alpha-3 stood once
// alpha-3 has moved on, not before.
func TestModelsMoveOneByOne(t *testing.T) {
	b := movesBattle(t, 0)
	rulestest.EndDeployment(t, b)
	rulestest.Refused(t, b, "{type: move, unit: alpha, action: shooting_advance, models: [{id: alpha-leader, path: [[23, 14]]}, {id: alpha-3, path: [[25, 14]]}]}",
		"alpha-leader cannot move there: leg 1 would pass over alpha-3's base")
	rulestest.Play(t, b, "{type: move, unit: alpha, action: shooting_advance, models: [{id: alpha-3, path: [[25, 14]]}, {id: alpha-leader, path: [[23, 14]]}]}")
	if m := model(t, b, "alpha-leader"); m.At.X != 23 || b.moved["alpha-leader"] != 4 {
		t.Errorf("alpha-leader at %v, moved %v", m.At, b.moved["alpha-leader"])
	}
	// A model moved to where a later one of the same move wants to pass blocks it: the
	// leader's path is clear of where alpha-3 stood, not of where it went.
	b = movesBattle(t, 0)
	rulestest.EndDeployment(t, b)
	rulestest.Play(t, b.Fork().(*Battle), "{type: move, unit: alpha, action: shooting_advance, models: [{id: alpha-leader, path: [[21.6, 16.4]]}]}")
	rulestest.Refused(t, b, "{type: move, unit: alpha, action: shooting_advance, models: [{id: alpha-3, path: [[21, 17]]}, {id: alpha-leader, path: [[21.6, 16.4]]}]}",
		"alpha-leader cannot move there: leg 1 would pass over alpha-3's base")
}

// TestElevationFollowsGround: "Measure the distance from the table surface to the bottom
// of the model's base to determine it's elevation": a model that moves stands on the
// ground where it stops, the top of a hill under its centre or the table, and sees into
// area terrain as far as its elevation gives (6" more for each full 3").
func TestElevationFollowsGround(t *testing.T) {
	b := movesBattle(t, 0)
	rulestest.EndDeployment(t, b)
	if m := model(t, b, "bravo-2"); m.Elevation != 3 {
		t.Fatalf("bravo-2 on the hill: elevation %v", m.Elevation)
	}
	out := rulestest.Play(t, b, "{type: move, unit: bravo, action: advance, models: [{id: bravo-2, path: [[7, 20]]}, {id: bravo-3, path: [[11, 14]]}]}")
	if m := model(t, b, "bravo-2"); m.Elevation != 0 {
		t.Errorf("bravo-2 off the hill: elevation %v", m.Elevation)
	}
	if m := model(t, b, "bravo-3"); m.Elevation != 3 {
		t.Errorf("bravo-3 still on the hill: elevation %v", m.Elevation)
	}
	if r := out[0].Trace[1].Result.(string); !strings.HasSuffix(r, "it stands on the table (it stood 3\" up)") {
		t.Errorf("bravo-2's move reads %q", r)
	}
	// Onto the hill from the table: up 3", and it sees into area terrain to 18".
	rulestest.Play(t, b, "type: end_turn", "type: end_turn", "{type: move, unit: bravo, action: advance, models: [{id: bravo-2, path: [[7, 16]]}]}")
	m := model(t, b, "bravo-2")
	if m.Elevation != 3 {
		t.Errorf("bravo-2 back on the hill: elevation %v", m.Elevation)
	}
	for _, o := range b.Table().Overlays {
		if o.Owner == "bravo-2" && !strings.Contains(o.Label, `sees into area terrain to 18"`) {
			t.Errorf("bravo-2's sight: %s", o.Label)
		}
	}
}

// TestMoveBlocked: a base may not cross another base, a wall, a building or the table's
// edge; a model on a roof stays on it; bases that touch do not overlap; hills and area
// terrain are entered.
func TestMoveBlocked(t *testing.T) {
	b := movesBattle(t, 0)
	rulestest.Play(t, b, "type: end_deployment", raidersDeploy)
	rulestest.Refused(t, b, "{type: move, unit: alpha-leader, action: advance, path: [[19, 20]]}", "alpha-leader cannot move there: leg 1 would pass through field wall (wall)")
	rulestest.Refused(t, b, "{type: move, unit: alpha-2, action: advance, path: [[22, 10]]}", "leg 1 would pass through house (building)")
	rulestest.Refused(t, b, "{type: move, unit: alpha-2, action: advance, path: [[19.3, 12.2], [20, 10]]}", "leg 2 would pass through house (building)")
	rulestest.Refused(t, b, "{type: move, unit: bravo-leader, action: at_the_double, path: [[0.2, 14]]}", "leg 1: its base would leave the table")
	rulestest.Refused(t, b, "{type: move, unit: alpha-leader, action: advance, path: [[21.5, 14.5]]}", "would pass over alpha-3's base")
	// Into contact, and onto the hill.
	rulestest.Play(t, b, "{type: move, unit: alpha-leader, action: advance, path: [[20, 14]]}", "{type: move, unit: bravo-3, action: advance, path: [[10, 12]]}")

	// A model on the roof walks across it, and not off it.
	src := sys.ReadExample(t, "moves.yaml")
	roof, _ := loadEdition(t, strings.Replace(src, "{id: alpha-2, at: [19.5, 13]}", "{id: alpha-2, at: [21, 9]}", 1), 0)
	rb := roof.(*Battle)
	rulestest.EndDeployment(t, rb)
	if m := model(t, rb, "alpha-2"); m.Elevation != 5 {
		t.Fatalf("alpha-2 on the roof: %v", m.Elevation)
	}
	rulestest.Refused(t, rb, "{type: move, unit: alpha-2, action: advance, path: [[21, 13]]}", "leg 1 would step off the roof of house: climbing down a building is not modelled")
	rulestest.Play(t, rb, "{type: move, unit: alpha-2, action: advance, path: [[25, 11]]}")
	if m := model(t, rb, "alpha-2"); m.Elevation != 5 {
		t.Errorf("alpha-2 across the roof: %v", m.Elevation)
	}
}

// TestDeploymentWarStrike: before the battle begins each side places its models, one by
// one or a unit in its formation, inside its deployment zone, in its own deployment: the
// Ironclad's first (they play first), then the Verdant's. A side whose units are all
// placed is done; the battle begins when both are.
func TestDeploymentWarStrike(t *testing.T) {
	b := movesBattle(t, 0)
	rulestest.Refused(t, b, raidersDeploy, "it is Ironclad's deployment: Verdant deploys when Ironclad has deployed all its units or ended its deployment")
	rulestest.Refused(t, b, "{type: deploy, unit: bravo-2, at: [5.5, 14]}", "its base would overlap bravo-leader's")
	rulestest.Refused(t, b, "{type: deploy, unit: bravo-2, at: [20, 20]}", "its base would lie outside Ironclad's deployment zone")
	rulestest.Play(t, b, "{type: deploy, unit: bravo-2, at: [23, 10]}") // on the house's roof
	if m := model(t, b, "bravo-2"); m.Elevation != 5 {
		t.Errorf("bravo-2 deployed on the roof: elevation %v", m.Elevation)
	}
	rulestest.Refused(t, b, "{type: move, unit: alpha, action: halt}", "the battle has not begun: it is Ironclad's deployment")
	rulestest.Play(t, b, "type: end_deployment")
	rulestest.Refused(t, b, "{type: deploy, unit: raiders, at: [24, 21]}", "cannot be deployed there: its base would lie outside Verdant's deployment zone")
	// The raiders, the Verdant's one unit, placed whole: the battle begins.
	out := rulestest.Play(t, b, raidersDeploy)[0]
	if got := out.Trace[len(out.Trace)-1].Result; got != "every side has deployed" {
		t.Errorf("after the Verdant's last unit: %v", out.Trace)
	}
	want := map[string][2]float64{"raider-1": {22, 24}, "raider-2": {24, 25}, "raider-3": {26, 23}}
	for id, at := range want {
		if m := model(t, b, id); m.At.X != at[0] || m.At.Y != at[1] {
			t.Errorf("%s deployed at %v; want %v", id, m.At, at)
		}
	}
	rulestest.Play(t, b, "{type: move, unit: alpha, action: halt}")
	rulestest.Refused(t, b, "{type: deploy, unit: raider-1, at: [30, 30]}", "the battle has begun")
}

// TestDeploymentTurnsWarStrike: the deployment of examples/warstrike/moves.yaml in
// turns, held to what every system's must do.
func TestDeploymentTurnsWarStrike(t *testing.T) {
	rulestest.CheckDeploymentTurns(t, movesBattle(t, 0), []string{"Ironclad", "Verdant"},
		map[string]string{"Ironclad": "{type: deploy, unit: bravo-2, at: [7, 14]}", "Verdant": "{type: deploy, unit: raider-1, at: [28, 28]}"},
		map[string]string{"Ironclad": "{type: move, unit: alpha, action: halt}", "Verdant": "{type: move, unit: raiders, action: halt}"})
}

// TestDeploymentAlternatesWarStrike: with deployment_order: alternate the sides place a
// unit each in turn, model by model or whole: the turn passes when the unit's last model
// is placed, and a model placed stays placed.
func TestDeploymentAlternatesWarStrike(t *testing.T) {
	src := sys.ReadExample(t, "moves.yaml")
	x, _ := loadEdition(t, strings.Replace(src, "\ntables:", "\ndeployment_order: alternate\ntables:", 1), 0)
	b := x.(*Battle)
	rulestest.Play(t, b, "{type: deploy, unit: bravo-2, at: [7, 14]}")
	rulestest.Refused(t, b, "{type: deploy, unit: bravo-2, at: [7, 15]}", "bravo-2 is deployed already")
	rulestest.Refused(t, b, "{type: deploy, unit: bravo, at: [7, 15]}", "bravo-2 is deployed already")
	rulestest.Refused(t, b, raidersDeploy, "it is Ironclad's deployment: the sides place a unit each in turn")
	rulestest.Play(t, b, "{type: deploy, unit: bravo-leader, at: [5, 14]}", "{type: deploy, unit: bravo-3, at: [9, 14]}") // bravo whole: the Verdant's turn
	if turn := b.State().Turn; turn.Side != "Verdant" || turn.Phase != "deployment" {
		t.Fatalf("once bravo is placed: %+v", turn)
	}
	rulestest.Play(t, b, raidersDeploy) // the Verdant's last unit: the Ironclad deploy on alone
	if turn := b.State().Turn; turn.Side != "Ironclad" || turn.Phase != "deployment" {
		t.Fatalf("once the raiders are placed: %+v", turn)
	}
	rulestest.Play(t, b, "type: end_deployment")
	if turn := b.State().Turn; turn.Phase != "turn" {
		t.Errorf("once every side is done: %+v", turn)
	}
}

// TestDeploymentEdition4WarStrike: a battle begun under edition 4 deploys as it did:
// either side at any time, until the first other action, which ends the deployment for
// both.
func TestDeploymentEdition4WarStrike(t *testing.T) {
	b := movesBattle(t, volley.EditionMoves)
	rulestest.Play(t, b, raidersDeploy, "{type: move, unit: alpha, action: halt}")
	rulestest.Refused(t, b, "{type: deploy, unit: raider-1, at: [30, 30]}", "the battle has begun: models are deployed only before its first action")
}

// TestForkAndPlacements: a fork moves without touching the battle; the battle written
// back as a scenario puts every model where it stands, models without ids by their
// place in their unit, and loads.
func TestForkAndPlacements(t *testing.T) {
	b := movesBattle(t, 0)
	before := rulestest.FullSnapshot(b)
	f := b.Fork().(*Battle)
	rulestest.Play(t, f, "type: end_deployment", raidersDeploy, alphaAdvances, alphaShoots)
	if rulestest.FullSnapshot(b) != before {
		t.Error("moves on the fork changed the battle")
	}
	src := sys.ReadExample(t, "moves.yaml")
	noIDs := strings.NewReplacer("{id: raider-1, at:", "{at:", "{id: raider-2, at:", "{at:", "{id: raider-3, at:", "{at:").Replace(src)
	b, _ = func() (*Battle, volley.Action) { x, a := loadEdition(t, noIDs, 0); return x.(*Battle), a }()
	rulestest.Play(t, b, "type: end_deployment", raidersDeploy, alphaAdvances)
	doc := rulestest.Parse(t, "moves.yaml", noIDs)
	out, err := doc.Place(b.Placements(), "actions")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"{at: [22, 24], leader: true}", "{at: [24, 25]}", "{id: alpha-leader, at: [23, 14], leader: true, weapon: carbine}", "{id: bravo-2, at: [7, 14]}"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the placed scenario lacks %q:\n%s", want, out)
		}
	}
	placed, _ := loadEdition(t, string(out), 0)
	if m := model(t, placed.(*Battle), "alpha-3"); m.At.X != 25 || m.At.Y != 14 {
		t.Errorf("alpha-3 in the placed scenario: %v", m.At)
	}
}

// TestMoveView: the table says how each model may move now, and the page's form chooses
// the action with the move.
func TestMoveView(t *testing.T) {
	b := movesBattle(t, 0)
	tv := b.Table()
	if tv.Moves == nil || tv.Moves.Facing || len(tv.Moves.Fields) != 1 || tv.Moves.Fields[0].Key != "action" || len(tv.Moves.Fields[0].Options) != len(AllActions) {
		t.Fatalf("the move form: %+v", tv.Moves)
	}
	if len(tv.Declare.Fields) != 0 {
		t.Errorf("the shot still states its action: %v", tv.Declare.Fields)
	}
	if tv.Edge == nil || len(tv.Zones) != 2 || !tv.Deploying {
		t.Errorf("the table's edge and zones: %v %v %v", tv.Edge, tv.Zones, tv.Deploying)
	}
	if m := tv.Units[0].Move; m.Left != 0 || !strings.Contains(m.Why, "it is Ironclad's deployment") {
		t.Errorf("alpha-leader while the Ironclad deploy: %+v", m)
	}
	rulestest.EndDeployment(t, b)
	rulestest.Play(t, b, "{type: move, unit: alpha-3, action: shooting_advance, path: [[23, 14]]}")
	moves := map[string]*volley.MoveView{}
	for _, u := range b.Table().Units {
		moves[u.ID] = u.Move
	}
	if m := moves["alpha-3"]; m.Allowance != 4 || m.Moved != 2 || m.Left != 2 || m.Why != "" {
		t.Errorf("alpha-3: %+v", m)
	}
	if m := moves["raider-1"]; m.Left != 0 || !strings.Contains(m.Why, "it is Ironclad's turn") {
		t.Errorf("raider-1 in Ironclad's turn: %+v", m)
	}
	if math.IsNaN(moves["alpha-leader"].Left) || moves["alpha-leader"].Left != 4 {
		t.Errorf("alpha-leader: %+v", moves["alpha-leader"])
	}
	// Another unit acting ends alpha's action.
	if m := moves["bravo-2"]; m.Left != 12 || m.Why != "" {
		t.Errorf("bravo-2 before it acts: %+v", m)
	}
	rulestest.Play(t, b, "{type: move, unit: bravo, action: halt}")
	for _, u := range b.Table().Units {
		if u.ID == "alpha-3" && (u.Move.Left != 0 || !strings.Contains(u.Move.Why, "unit alpha has already acted this turn")) {
			t.Errorf("alpha-3 once bravo acts: %+v", u.Move)
		}
	}
}

// TestMoveRefusalsInCheck: check reports a refused move at the model's path, naming the
// rule.
func TestMoveRefusalsInCheck(t *testing.T) {
	b := movesBattle(t, 0)
	rulestest.EndDeployment(t, b)
	doc := rulestest.Parse(t, "action.yaml", "type: move\nunit: alpha\naction: shooting_advance\nmodels:\n  - {id: alpha-3, path: [[25, 14]]}\n  - {id: alpha-2, path: [[30, 13]]}\n")
	a, err := b.DecodeAction(doc)
	if err != nil {
		t.Fatal(err)
	}
	list, err := b.Refusals(context.Background(), a)
	if err != nil || len(list) != 1 || list[0].Pos.Line != 6 || !strings.Contains(list[0].Msg, "alpha-2's move is 10.5\" long") {
		t.Errorf("refusals: %v %v", list, err)
	}
	if c := b.Cost(a); c < 3 || c > volley.MaxWork {
		t.Errorf("cost %d", c)
	}
}
