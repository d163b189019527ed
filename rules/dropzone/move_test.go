package dropzone

import (
	"math"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/scenario"
)

// movesBattle is examples/dropzone/moves.yaml with nothing played yet but the end of
// each side's deployment: the battle has begun.
func movesBattle(tb testing.TB) *Battle {
	tb.Helper()
	b := deployingBattle(tb)
	rulestest.EndDeployment(tb, b)
	return b
}

// deployingBattle is examples/dropzone/moves.yaml with nothing played yet: the UCM
// deploys first.
func deployingBattle(tb testing.TB) *Battle {
	tb.Helper()
	b, _ := sys.LoadAny(tb, "moves.yaml")
	return b
}

// TestMoveAndFireBothWays: the Shooting chapter's Check Movement. "If a unit moves over
// the weapon's Move & Fire value, it cannot be used during the same activation. Equally,
// if a weapon is used, a unit cannot then move further than its M&F value." And "M&F is
// judged on a unit to unit basis".
func TestMoveAndFireBothWays(t *testing.T) {
	b := movesBattle(t)
	shot := "squad: sabres\ndeclarations:\n  - {unit: sabre-1, weapon: Avenger Railgun, target: hunter-1}\n  - {unit: sabre-2, weapon: Avenger Railgun, target: hunter-1}\n"
	// Moved exactly its M&F: it may still fire. Moved past it: it may not.
	rulestest.Play(t, b, "{type: move, unit: sabre-1, path: [[14, 10]]}", "{type: move, unit: sabre-2, path: [[18, 10.5]]}")
	aims := rulestest.AimOf(t, b, shot)
	if aims[0].Status != volley.StatusOK {
		t.Errorf("sabre-1 moved 4\", its M&F: %s %s", aims[0].Status, aims[0].Reason)
	}
	if aims[1].Status != volley.StatusNotEligible || !strings.Contains(aims[1].Reason, "moved 4.5\", more than the Avenger Railgun M&F of 4\"") {
		t.Errorf("sabre-2 moved 4.5\": %s %s", aims[1].Status, aims[1].Reason)
	}
	// Unit by unit: sabre-1 and sabre-3 fire, sabre-2 sits it out.
	rulestest.Play(t, b, "squad: sabres\ndeclarations: [{unit: sabre-1, weapon: Equalizer Machinegun, target: warriors-1}, {unit: sabre-3, weapon: Avenger Railgun, target: hunter-2}]")
	// The other way: sabre-1 fired a weapon of M&F 4" after moving 4": it may not move
	// on. sabre-3 fired after moving nothing: it may move up to 4", not its whole 6".
	rulestest.Refused(t, b, "{type: move, unit: sabre-1, path: [[14, 10.5]]}", "a unit that fires may move no further in all than its M&F")
	rulestest.Refused(t, b, "{type: move, unit: sabre-3, path: [[22, 10.5]]}", "having fired, at most 4\" in all: the smallest M&F of the weapons it used")
	rulestest.Play(t, b, "{type: move, unit: sabre-3, path: [[22, 10]]}")
	// sabre-2 did not fire: its whole move is its own.
	rulestest.Play(t, b, "{type: move, unit: sabre-2, path: [[18, 12]]}")
	if v := b.State().Units[1].Values; v["moved"] != 6 || v["move"] != 6 {
		t.Errorf("sabre-2's state: %v; want moved 6 of its 6", v)
	}
	rulestest.Refused(t, b, "{type: move, unit: sabre-2, path: [[18, 12.5]]}", "has moved its whole move of 6\"")
}

// TestMoveLimitNamed: a move longer than allowed is refused with the limit and the rule
// named, and changes nothing.
func TestMoveLimitNamed(t *testing.T) {
	b := movesBattle(t)
	rulestest.Refused(t, b, "{type: move, unit: sabre-1, path: [[14, 9], [10, 9]]}", "sabre-1's move is 7\" long, and it may move 6\" more this activation (its move 6\"; Check Movement)")
	rulestest.Refused(t, b, "{type: move, unit: hunter-1, path: [[12, 30]]}", "it is UCM's turn")
}

// TestMoveBlocked: a base may not pass over another base or through solid terrain, nor
// leave the table.
func TestMoveBlocked(t *testing.T) {
	b := movesBattle(t)
	rulestest.Refused(t, b, "{type: move, unit: sabre-1, path: [[20, 6]]}", "would pass over sabre-2's base")
	b = deployingBattle(t)
	rulestest.Play(t, b, "{type: deploy, unit: sabre-3, at: [28, 11]}")
	rulestest.EndDeployment(t, b)
	rulestest.Refused(t, b, "{type: move, unit: sabre-3, path: [[31, 14]]}", "would pass through hab-block (solid terrain)")
	b = movesBattle(t)
	rulestest.Refused(t, b, "{type: move, unit: sabre-1, path: [[14, 2], [14, 0.2]]}", "its base would leave the table")
	// Into contact is not over: bases that touch do not overlap.
	rulestest.Play(t, b, "{type: move, unit: sabre-1, path: [[16.75, 6]]}")
	// Both too long and blocked: the base in the way comes first, the length after it
	// (the length alone once said nothing of sabre-2, which a shorter path still meets).
	b = movesBattle(t)
	rulestest.Refused(t, b, "{type: move, unit: sabre-1, path: [[22, 6]]}", `sabre-1 cannot move there: leg 1 would pass over sabre-2's base (and the move is 8" long, with 6" left this activation)`)
}

// TestCoherencyMeasured: "A squad that is out of coherency suffers a +1 penalty to its
// Accuracy." The distance is the scenario's (sample data); the squad is measured where
// it stands when it shoots.
func TestCoherencyMeasured(t *testing.T) {
	b := movesBattle(t)
	shot := "squad: sabres\ndeclarations: [{unit: sabre-1, weapon: Avenger Railgun, target: hunter-1}]"
	if aims := rulestest.AimOf(t, b, shot); len(aims[0].Modifiers) != 0 {
		t.Errorf("a squad 4\" apart with a coherency of 6\": %v", aims[0].Modifiers)
	}
	// sabre-3 strays: 8.75" from sabre-2, base edge to base edge, and linked to no one.
	rulestest.Play(t, b, "{type: move, unit: sabre-3, path: [[28, 6]]}")
	b.act = activation{} // another squad acts between, as far as the shot is concerned
	b.turns.Done = nil
	aims := rulestest.AimOf(t, b, shot)
	if len(aims[0].Modifiers) != 1 || aims[0].Modifiers[0].Rule != "squad out of coherency" || aims[0].Modifiers[0].Value != OutOfCoherencyPenalty {
		t.Errorf("a squad with a unit 11\" away: %v; want +1 for coherency", aims[0].Modifiers)
	}
	// What if it were in coherency? The command line may say so, and wins.
	if aims := rulestest.AimOf(t, b, shot+"\nout_of_coherency: false"); len(aims[0].Modifiers) != 0 {
		t.Errorf("stated in coherency: %v", aims[0].Modifiers)
	}
}

// TestDisembarkMeasured: "A squad that has disembarked during that activation suffers a
// +2 penalty to its Accuracy." Disembarking is a move off the transport.
func TestDisembarkMeasured(t *testing.T) {
	src := `ruleset: dropzone
types:
  - {name: Condor, armour: 8, damage_points: 3, base: 2, height: 1, move: 12}
  - name: Legionnaires
    armour: 5
    damage_points: 1
    base: 1
    height: 0.5
    move: 3
    weapons: [{name: Rifles, mf: "-", arc: F/S/R, full_range: 12, countered_range: 12, shots: 2, accuracy: 4+, energy: 2}]
units:
  - {id: condor, type: Condor, side: UCM, at: [0, 0]}
  - {id: legion-1, type: Legionnaires, side: UCM, squad: legion, embarked: condor}
  - {id: warriors, type: Legionnaires, side: Scourge, at: [0, 10]}
`
	b, _ := sys.Load(t, src)
	shot := "squad: legion\ndeclarations: [{unit: legion-1, weapon: Rifles, target: warriors}]"
	if aims := rulestest.AimOf(t, b, shot); aims[0].Status != volley.StatusNotEligible || !strings.Contains(aims[0].Reason, "embarked") {
		t.Errorf("a shot from inside the transport: %s %s", aims[0].Status, aims[0].Reason)
	}
	rulestest.Play(t, b, "{type: move, unit: condor, path: [[0, 3]]}") // the transport moves, carrying it
	rulestest.Play(t, b, "type: end_turn", "type: end_turn")
	rulestest.Play(t, b, "{type: move, unit: legion-1, path: [[0, 5]]}") // off the transport: 2" from its centre
	aims := rulestest.AimOf(t, b, shot)
	if aims[0].Status != volley.StatusOK || len(aims[0].Modifiers) != 1 || aims[0].Modifiers[0].Value != DisembarkedPenalty {
		t.Errorf("after disembarking: %s %v; want +2", aims[0].Status, aims[0].Modifiers)
	}
}

// TestStatedFactsRefusedOverTheAPI: a refereed action (one a server is sent) may not
// state what the server measures; the command line may, as "what if".
func TestStatedFactsRefusedOverTheAPI(t *testing.T) {
	b := movesBattle(t)
	for _, tc := range []struct{ src, field string }{
		{"squad: sabres\nmoved: {sabre-1: 2}\ndeclarations: [{unit: sabre-1, weapon: Avenger Railgun, target: hunter-1}]", "moved"},
		{"squad: sabres\nout_of_coherency: false\ndeclarations: [{unit: sabre-1, weapon: Avenger Railgun, target: hunter-1}]", "out_of_coherency"},
		{"squad: sabres\ndisembarked: true\ndeclarations: [{unit: sabre-1, weapon: Avenger Railgun, target: hunter-1}]", "disembarked"},
	} {
		// Battles begun before moves keep their stated facts.
		rulestest.StatedFact(t, b, b, tc.src, tc.field+": the server measures")
	}
}

// TestDeployment: before the battle begins each side places its units in its zone, in
// its own deployment (the UCM's first: it plays first), and may place a unit again until
// its deployment ends.
func TestDeployment(t *testing.T) {
	b := deployingBattle(t)
	rulestest.Play(t, b, "{type: deploy, unit: sabre-1, at: [4, 4]}", "{type: deploy, unit: sabre-2, at: [18, 4]}")
	rulestest.Refused(t, b, "{type: deploy, unit: sabre-2, at: [18, 20]}", "outside UCM's deployment zone")
	rulestest.Refused(t, b, "{type: deploy, unit: sabre-2, at: [4.5, 4]}", "would overlap sabre-1's")
	rulestest.Play(t, b, "{type: deploy, unit: sabre-2, at: [20, 4]}") // placed again: its side deploys still
	rulestest.Refused(t, b, "{type: deploy, unit: hunter-1, at: [10, 40], facing: 180}", "it is UCM's deployment: Scourge deploys when UCM has deployed all its units")
	// Its last unit placed, the UCM's deployment ends by itself.
	out := rulestest.Play(t, b, "{type: deploy, unit: sabre-3, at: [30, 4]}")[0]
	if got := out.Trace[len(out.Trace)-1].Result; got != "Scourge's deployment" {
		t.Errorf("after the UCM's last unit: %v", out.Trace)
	}
	rulestest.Play(t, b, "{type: deploy, unit: hunter-1, at: [10, 40], facing: 180}")
	if u, _ := b.Unit("hunter-1"); u.At.X != 10 || u.At.Y != 40 || u.Facing != 180 {
		t.Errorf("hunter-1 deployed at %v facing %v", u.At, u.Facing)
	}
	rulestest.Refused(t, b, "{type: deploy, unit: sabre-1, at: [6, 4]}", "it is Scourge's deployment, and UCM's has ended")
	rulestest.Play(t, b, "type: end_deployment")
	rulestest.Play(t, b, "{type: move, unit: sabre-2, path: [[20, 8]]}")
	rulestest.Refused(t, b, "{type: deploy, unit: hunter-2, at: [30, 40]}", "the battle has begun")
}

// TestDeploymentTurns: the deployment of examples/dropzone/moves.yaml in turns, held to
// what every system's must do.
func TestDeploymentTurns(t *testing.T) {
	rulestest.CheckDeploymentTurns(t, deployingBattle(t), []string{"UCM", "Scourge"},
		map[string]string{"UCM": "{type: deploy, unit: sabre-1, at: [4, 4]}", "Scourge": "{type: deploy, unit: hunter-1, at: [10, 40]}"},
		map[string]string{"UCM": "{type: move, unit: sabre-2, path: [[18, 8]]}", "Scourge": "{type: move, unit: hunter-2, path: [[24, 28]]}"})
}

// TestDeploymentAlternates: with deployment_order: alternate (or turns whose activations
// alternate) the sides place a unit each in turn, and a unit placed stays placed; a side
// done deploying is passed over.
func TestDeploymentAlternates(t *testing.T) {
	src := movesSource(t)
	for _, change := range []string{"options: {coherency: 6\"}\ndeployment_order: alternate", "options: {coherency: 6\"}\nturn: {activations: alternate}"} {
		b, _ := sys.Load(t, strings.Replace(src, "options: {coherency: 6\"}", change, 1))
		rulestest.Play(t, b, "{type: deploy, unit: sabre-1, at: [4, 4]}")
		rulestest.Refused(t, b, "{type: deploy, unit: sabre-2, at: [18, 4]}", "it is Scourge's deployment: the sides place a unit each in turn")
		rulestest.Play(t, b, "{type: deploy, unit: hunter-1, at: [10, 40]}")
		rulestest.Refused(t, b, "{type: deploy, unit: sabre-1, at: [6, 4]}", "sabre-1 is deployed already")
		rulestest.Play(t, b, "{type: deploy, unit: sabre-2, at: [18, 4]}", "type: end_deployment") // the Scourge is done
		rulestest.Play(t, b, "{type: deploy, unit: sabre-3, at: [30, 4]}")                         // the UCM's last: the battle begins
		if turn := b.State().Turn; turn.Phase != "turn" || turn.Side != "UCM" {
			t.Errorf("%s: after the last unit deployed the turn is %+v", change, turn)
		}
	}
	if _, err := loadDoc(t, strings.Replace(src, "options: {coherency: 6\"}", "deployment_order: sideways", 1), 0); err == nil || !strings.Contains(err.Error(), `deployment_order: want "sides" or "alternate", got "sideways"`) {
		t.Errorf("a deployment order of no kind: %v", err)
	}
}

// TestDeploymentEdition4: a battle begun under edition 4 deploys as it did: either side
// at any time, until the first other action, which ends the deployment for both.
func TestDeploymentEdition4(t *testing.T) {
	b, _ := loadEdition(t, movesSource(t), volley.EditionMoves)
	rulestest.Play(t, b, "{type: deploy, unit: hunter-1, at: [10, 40], facing: 180}", "{type: deploy, unit: sabre-1, at: [4, 4]}", "{type: deploy, unit: sabre-2, at: [18, 4]}")
	if u, _ := b.Unit("hunter-1"); u.At.X != 10 || u.At.Y != 40 {
		t.Errorf("hunter-1 deployed at %v", u.At)
	}
	if turn := b.State().Turn; turn.Phase != "turn" {
		t.Errorf("an edition 4 battle deploying shows the turn %+v", turn)
	}
	rulestest.Play(t, b, "{type: move, unit: sabre-2, path: [[18, 8]]}")
	rulestest.Refused(t, b, "{type: deploy, unit: hunter-2, at: [30, 40]}", "the battle has begun: units are deployed only before its first action")
	for _, src := range []string{"type: end_deployment", "deployment_order: alternate"} {
		doc, _ := scenario.Parse("x.yaml", []byte(src))
		doc.Edition = volley.EditionMoves
		if src[0] == 't' {
			_, err := b.DecodeAction(doc)
			if err == nil || !strings.Contains(err.Error(), "deploys without turns") {
				t.Errorf("%s in an edition 4 battle: %v", src, err)
			}
			continue
		}
		if _, err := loadDoc(t, movesSource(t)+src+"\n", volley.EditionMoves); err == nil || !strings.Contains(err.Error(), "deploys without turns") {
			t.Errorf("%s in an edition 4 scenario: %v", src, err)
		}
	}
}

// TestNoDeployment: a scenario of the current edition with neither zones nor a
// deployment_order places its units itself: the battle begins at once, and a deployment
// is a mistake. deployment_order alone deploys anywhere on the table.
func TestNoDeployment(t *testing.T) {
	src := movesSource(t)
	zones := src[strings.Index(src, "deployment:"):strings.Index(src, "options:")]
	b, _ := sys.Load(t, strings.Replace(src, zones, "", 1))
	if turn := b.State().Turn; turn.Phase != "turn" || b.Table().Deploying {
		t.Errorf("a battle without a deployment: the turn is %+v", turn)
	}
	for _, a := range []string{"{type: deploy, unit: sabre-1, at: [4, 4]}", "type: end_deployment"} {
		doc, _ := scenario.Parse("x.yaml", []byte(a))
		if _, err := b.DecodeAction(doc); err == nil || !strings.Contains(err.Error(), "this battle has no deployment") {
			t.Errorf("%s: %v", a, err)
		}
	}
	rulestest.Play(t, b, "{type: move, unit: sabre-1, path: [[14, 9]]}")
	b, _ = sys.Load(t, strings.Replace(src, zones, "deployment_order: sides\n", 1))
	rulestest.Play(t, b, "{type: deploy, unit: sabre-1, at: [40, 40]}") // anywhere on the table
	rulestest.Refused(t, b, "{type: move, unit: sabre-2, path: [[18, 9]]}", "the battle has not begun: it is UCM's deployment")
}

// movesSource is examples/dropzone/moves.yaml without its actions.
func movesSource(tb testing.TB) string {
	tb.Helper()
	src := sys.ReadExample(tb, "moves.yaml")
	s := src
	return s[:strings.Index(s, "\nactions:")] + "\n"
}

// loadDoc loads a scenario under edition ed (0: the current one).
func loadDoc(tb testing.TB, src string, ed int) (*Battle, error) {
	tb.Helper()
	doc := rulestest.Parse(tb, "test.yaml", src)
	doc.Edition = ed
	b, _, err := Ruleset{}.Load(doc)
	if err != nil {
		return nil, err
	}
	return b.(*Battle), nil
}

// TestMovesNotInOldEditions: a battle begun before moves does not move.
func TestMovesNotInOldEditions(t *testing.T) {
	b := movesBattle(t)
	doc, _ := scenario.Parse("body", []byte("{type: move, unit: sabre-1, path: [[14, 9]]}"))
	doc.Edition = 3
	if _, err := b.DecodeAction(doc); err == nil || !strings.Contains(err.Error(), "does not move its units") {
		t.Errorf("a move in an edition 3 battle: %v", err)
	}
}

// TestMoveSentOnItsOwnInTheBattlesUnit: a move sent without its scenario (over the API)
// writes its coordinates in the battle's unit, as the scenario's own actions do. In a
// battle measured in centimetres, [14, 8] is 2 cm up the table, not 2".
func TestMoveSentOnItsOwnInTheBattlesUnit(t *testing.T) {
	src := sys.ReadExample(t, "moves.yaml")
	s := src
	s = strings.Replace(s[:strings.Index(s, "\nactions:")], "distances: in", "distances: cm", 1) + "\n"
	b, _ := sys.Load(t, s)
	rulestest.Play(t, b, "{type: deploy, unit: sabre-2, at: [4, 4]}")
	rulestest.EndDeployment(t, b)
	if u, _ := b.Unit("sabre-2"); math.Abs(u.At.X-4/2.54) > 1e-9 {
		t.Errorf("deployed at x %v\"; want 4 cm", u.At.X)
	}
	u, _ := b.Unit("sabre-1")
	from := u.At
	rulestest.Play(t, b, "{type: move, unit: sabre-1, path: [[14, 8]]}")
	if got, want := u.At.Sub(from).Len(), 2/2.54; math.Abs(got-want) > 1e-9 {
		t.Errorf("moved %v\"; want 2 cm, %v\"", got, want)
	}
}
