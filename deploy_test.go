package volley_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/scenario"
)

// loadTable reads a scenario's header under edition ed (0: the current one) as a rule
// system would, for sides red, blue and green.
func loadTable(t testing.TB, src string, ed int) (volley.Tabletop, error) {
	t.Helper()
	doc, err := scenario.Parse("t.yaml", []byte("ruleset: test\n"+src))
	if err != nil {
		t.Fatal(err)
	}
	doc.Edition = ed
	var h scenario.Header
	var tt volley.Tabletop
	err = doc.DecodeChecked(&h, func(errs *scenario.ErrorList) { tt = volley.LoadTable(doc, &h, []string{"red", "blue", "green"}, errs) })
	return tt, err
}

const zones = `deployment:
  red: [[0, 0], [10, 0], [10, 5], [0, 5]]
`

// units are each side's units to deploy: green has none.
var units = map[string][]string{"red": {"r1", "r2"}, "blue": {"b1", "b2"}}

// deployIn places unit of side, checked first, and returns the steps that follow.
func deployIn(t *testing.T, tt *volley.Tabletop, side, unit string) []volley.Step {
	t.Helper()
	if err := tt.CheckDeploy(side, []string{unit}, "units"); err != nil {
		t.Fatalf("%s's %s: %v", side, unit, err)
	}
	return tt.Deployed([]string{unit}, unit)
}

// TestDeploymentInTurns: the sides deploy in the order they play from the first, each in
// its own deployment, which ends when it has placed every unit or says it is done; a side
// with nothing to deploy is passed over; the battle begins when every side's has ended.
func TestDeploymentInTurns(t *testing.T) {
	tt, err := loadTable(t, zones, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !tt.Deploying || tt.InTurns() {
		t.Fatalf("before its turns are planned: deploying %v, in turns %v", tt.Deploying, tt.InTurns())
	}
	tt.PlanDeployment(volley.FromFirst([]string{"red", "blue", "green"}, 1), units, false)
	if got := tt.DeployingSide(); got != "blue" {
		t.Fatalf("the first side to deploy is %q; want blue, which plays first", got)
	}
	if err := tt.CheckBegun(); volley.ErrorCode(err) != volley.ECONFLICT || !strings.Contains(err.Error(), "it is blue's deployment") {
		t.Errorf("an action while blue deploys: %v", err)
	}
	if err := tt.CheckDeploy("red", []string{"r1"}, "units"); volley.ErrorCode(err) != volley.ECONFLICT || !strings.Contains(err.Error(), "it is blue's deployment: red deploys when blue") {
		t.Errorf("red deploying in blue's deployment: %v", err)
	}
	if steps := deployIn(t, &tt, "blue", "b1"); len(steps) != 0 {
		t.Errorf("blue's first unit: %v", steps)
	}
	deployIn(t, &tt, "blue", "b1") // placed again: blue deploys still
	steps := deployIn(t, &tt, "blue", "b2")
	if len(steps) != 2 || steps[0].Result != "blue has deployed all its units" || steps[1].Result != "red's deployment" {
		t.Errorf("blue's last unit: %v", steps)
	}
	if turn := tt.DeployTurn(); turn.Side != "red" || turn.Phase != "deployment" || turn.End["type"] != volley.EndDeployment || !slices.Equal(turn.Done, []string{"b1", "b2"}) {
		t.Errorf("the turn in red's deployment: %+v", turn)
	}
	if err := tt.CheckDeploy("blue", []string{"b1"}, "units"); err == nil || !strings.Contains(err.Error(), "it is red's deployment, and blue's has ended") {
		t.Errorf("blue deploying again: %v", err)
	}
	deployIn(t, &tt, "red", "r1")
	steps, err = tt.EndDeployment()
	if err != nil || len(steps) != 2 || steps[1].Rule != "the battle begins" {
		t.Fatalf("red ends its deployment: %v %v", steps, err)
	}
	if tt.Deploying || tt.InTurns() || tt.DeployTurn() != nil || tt.CheckBegun() != nil {
		t.Error("the battle has not begun once every side is done")
	}
	if err := tt.CheckDeploy("red", []string{"r2"}, "units"); err == nil || !strings.Contains(err.Error(), "the battle has begun") {
		t.Errorf("a deployment once the battle has begun: %v", err)
	}
	if _, err := tt.EndDeployment(); volley.ErrorCode(err) != volley.ECONFLICT {
		t.Errorf("end_deployment once the battle has begun: %v", err)
	}
}

// TestDeploymentAlternates: alternating, the deployment passes after each unit placed
// whole, never to a side that is done, and no unit is placed twice.
func TestDeploymentAlternates(t *testing.T) {
	for _, tc := range []struct {
		src         string
		alternating bool
	}{{zones + "deployment_order: alternate\n", false}, {zones, true}} {
		tt, err := loadTable(t, tc.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		tt.PlanDeployment([]string{"red", "blue", "green"}, units, tc.alternating)
		deployIn(t, &tt, "red", "r1")
		if got := tt.DeployingSide(); got != "blue" {
			t.Fatalf("after red's first unit it is %s's deployment", got)
		}
		if err := tt.CheckDeploy("red", []string{"r2"}, "units"); err == nil || !strings.Contains(err.Error(), "the sides place a unit each in turn") {
			t.Errorf("red's second unit out of turn: %v", err)
		}
		// A model of a unit placed, the unit not yet whole: blue goes on.
		if steps := tt.Deployed([]string{"b1-a"}, ""); len(steps) != 0 || tt.DeployingSide() != "blue" {
			t.Errorf("part of b1: %v, %s's deployment", steps, tt.DeployingSide())
		}
		if err := tt.CheckDeploy("blue", []string{"b1-a"}, "units"); err == nil || !strings.Contains(err.Error(), "b1-a is deployed already") {
			t.Errorf("a model placed twice: %v", err)
		}
		tt.Deployed([]string{"b1-b"}, "b1")
		if _, err := tt.EndDeployment(); err != nil || tt.DeployingSide() != "blue" {
			t.Fatalf("red done: %v, %s's deployment; want blue's, red done and green with nothing", err, tt.DeployingSide())
		}
		if steps := deployIn(t, &tt, "blue", "b2"); steps[len(steps)-1].Rule != "the battle begins" {
			t.Errorf("blue's last unit, red done: %v", steps)
		}
	}
}

// TestDeploymentTable: which battles deploy, and in which order, from the scenario; what
// a battle of edition 4 does; the copy a fork takes shares nothing.
func TestDeploymentTable(t *testing.T) {
	for _, tc := range []struct {
		src        string
		ed         int
		deploys    bool
		inTurns    bool
		err        string
		decodeWhy  string
		noDeployTo string
	}{
		{src: zones, deploys: true, inTurns: true},
		{src: "deployment_order: sides\n", deploys: true, inTurns: true},
		{src: "", deploys: false, decodeWhy: "this battle has no deployment", noDeployTo: "this battle has no deployment"},
		{src: zones, ed: volley.EditionMoves, deploys: true, decodeWhy: "deploys without turns (from edition 5)"},
		{src: "", ed: volley.EditionMoves, deploys: true, decodeWhy: "deploys without turns"},
		{src: zones + "deployment_order: alternate\n", ed: volley.EditionMoves, err: "deployment_order: a battle begun under edition 4 deploys without turns"},
		{src: "deployment_order: sideways\n", err: `deployment_order: want "sides" or "alternate", got "sideways"`},
	} {
		name := fmt.Sprintf("%q, edition %d", tc.src, tc.ed)
		tt, err := loadTable(t, tc.src, tc.ed)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: %v; want %q", name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		tt.PlanDeployment([]string{"red", "blue"}, units, false)
		if tt.Deploying != tc.deploys || tt.InTurns() != tc.inTurns {
			t.Errorf("%s: deploying %v, in turns %v", name, tt.Deploying, tt.InTurns())
		}
		if got := tt.NoDeployment(); tc.noDeployTo == "" && got != "" || !strings.Contains(got, tc.noDeployTo) {
			t.Errorf("%s: a deploy action: %q", name, got)
		}
		doc, _ := scenario.Parse("a.yaml", []byte("type: end_deployment"))
		doc.Edition = tc.ed
		_, err = tt.DecodeEndDeployment(doc)
		if tc.decodeWhy == "" && err != nil || tc.decodeWhy != "" && (err == nil || !strings.Contains(err.Error(), tc.decodeWhy)) {
			t.Errorf("%s: end_deployment: %v; want %q", name, err, tc.decodeWhy)
		}
		if !tc.inTurns {
			if err := tt.CheckBegun(); err != nil {
				t.Errorf("%s: an action refused: %v", name, err)
			}
		}
	}
	tt, _ := loadTable(t, zones, 0)
	tt.PlanDeployment([]string{"red", "blue"}, units, false)
	fork := tt.Clone()
	fork.Deployed([]string{"r1"}, "r1")
	fork.EndDeployment()
	fork.Deployment.Units["blue"][0] = "x"
	if tt.DeployingSide() != "red" || len(tt.Deployment.Deployed) != 0 || len(tt.Deployment.Placed) != 0 || tt.Deployment.Units["blue"][0] != "b1" {
		t.Errorf("the fork's deployment changed the battle's: %+v", tt.Deployment)
	}
}

// A battle of three sides, the second of which plays first: blue deploys, then red (green
// has no unit to deploy); the battle begins when red says it is done.
func ExampleTabletop_PlanDeployment() {
	doc, _ := scenario.Parse("t.yaml", []byte("ruleset: test\ndeployment_order: sides\n"))
	var h scenario.Header
	var t volley.Tabletop
	doc.DecodeChecked(&h, func(errs *scenario.ErrorList) { t = volley.LoadTable(doc, &h, []string{"red", "blue", "green"}, errs) })
	t.PlanDeployment(volley.FromFirst([]string{"red", "blue", "green"}, 1), map[string][]string{"red": {"r1", "r2"}, "blue": {"b1"}}, false)
	fmt.Println(t.DeployingSide())
	for _, s := range t.Deployed([]string{"b1"}, "b1") {
		fmt.Println(s.Result)
	}
	fmt.Println(t.CheckBegun())
	steps, _ := t.EndDeployment()
	for _, s := range steps {
		fmt.Println(s.Result)
	}
	fmt.Println(t.Deploying)
	// Output:
	// blue
	// blue has deployed all its units
	// red's deployment
	// the battle has not begun: it is red's deployment; it begins when every side has deployed its units or ended its deployment ({type: end_deployment})
	// red is done deploying
	// every side has deployed
	// false
}

// TestDeploymentMisspeltSide: a side of the units without a zone, whose name is that of
// a side of the units with one misspelt, is reported where it is first written; a side
// far from every zoned name, or of one series with it, deploys anywhere, as a scenario
// may mean; a zone misspelt is reported once, at the zone.
func TestDeploymentMisspeltSide(t *testing.T) {
	const red, blue = "[[0, 0], [10, 0], [10, 5], [0, 5]]", "[[0, 9], [10, 9], [10, 5], [0, 5]]"
	const way = "; give it one (deployment:) if it is a side of its own"
	for _, tc := range []struct {
		zones string
		sides []string
		want  string
	}{
		{"red: " + red + ", blue: " + blue, []string{"red", "blue", "green"}, ""},
		{"red: " + red + ", blue: " + blue, []string{"red", "blue", "rde"}, `t.yaml:2:8: side "rde" has no deployment zone (did you mean "red"?)` + way},
		{"red: " + red + ", blue: " + blue, []string{"red", "blue", "bleu"}, `t.yaml:2:8: side "bleu" has no deployment zone (did you mean "blue"?)` + way},
		{"red: " + red + ", blue: " + blue, []string{"red", "blue", "blue2"}, ""},
		{"Red 1: " + red, []string{"Red 1", "Red 2"}, ""},
		{"US: " + red, []string{"US", "UK"}, ""},
		{"Side A: " + red, []string{"Side A", "Side B"}, ""},
		{"rde: " + red + ", blue: " + blue, []string{"red", "blue"}, `t.yaml:3:19: deployment: no unit is on side "rde" (did you mean "red"?)`},
	} {
		// The title stands for the unit that names the side: the error is where the
		// name is first written.
		last := tc.sides[len(tc.sides)-1]
		doc, err := scenario.Parse("t.yaml", []byte("ruleset: test\ntitle: "+last+"\ndeployment: {"+tc.zones+"}\n"))
		if err != nil {
			t.Fatal(err)
		}
		var h scenario.Header
		err = doc.DecodeChecked(&h, func(errs *scenario.ErrorList) { volley.LoadTable(doc, &h, tc.sides, errs) })
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("sides %q, zones %s:\n got %q\nwant %q", tc.sides, tc.zones, got, tc.want)
		}
	}
}
