package rulestest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
)

// deploying reports whether b's sides are deploying in turns now.
func deploying(b volley.Battle) bool {
	t := b.State().Turn
	return t != nil && t.Phase == "deployment"
}

// EndDeployment ends every side's deployment in turn, as each would with {type:
// end_deployment}, so that the battle begins with its units where the scenario placed
// them: for tests of what comes after the deployment (from volley.EditionDeployTurns). A
// battle that is not deploying in turns is left as it is.
func EndDeployment(tb testing.TB, b volley.Battle) {
	tb.Helper()
	for i := 0; deploying(b); i++ {
		if _, err := b.Resolve(context.Background(), Decode(tb, b, "type: "+volley.EndDeployment), dice.ForAction(0, i)); err != nil {
			tb.Fatalf("end_deployment: %v", err)
		}
	}
}

// FullSnapshot is Snapshot with the table a table system draws, where deployed units
// stand.
func FullSnapshot(b volley.Battle) string {
	s := Snapshot(b)
	if t, ok := b.(volley.Table); ok {
		v, _ := json.Marshal(t.Table())
		s += string(v)
	}
	return s
}

// CheckDeploymentTurns plays a battle's deployment in turns (from
// volley.EditionDeployTurns) and checks what every rule system's must do. order lists the
// sides in the order they deploy; deploys gives, for each, an action that deploys one of
// its units (legal in the battle as it stands, and not the side's last unit), and others
// an action of the side other than a deployment (a move) that the rules allow once the
// battle begins, order[0]'s first. It checks that:
//
//   - the state's turn names the side deploying, the phase "deployment" and the action
//     that ends it, and the table says units deploy;
//   - while a side deploys, every other side's deployment, and every side's other action
//     (the race of issue 34: the first side acting to end the other's deployment), are
//     refused with a conflict naming whose deployment it is, and change nothing;
//   - the side's own deployment is taken, and end_deployment is the side's to take and
//     passes the deployment on to the next side;
//   - once every side has ended its deployment the battle begins: a deployment, or
//     another end_deployment, is a conflict, and order[0]'s other action is taken.
func CheckDeploymentTurns(t *testing.T, b volley.Battle, order []string, deploys, others map[string]string) {
	t.Helper()
	ctx := context.Background()
	n := 0
	play := func(src string) {
		t.Helper()
		n++
		if _, err := b.Resolve(ctx, Decode(t, b, src), dice.ForAction(1, n)); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
	}
	refused := func(src, want string) {
		t.Helper()
		before := FullSnapshot(b)
		_, err := b.Resolve(ctx, Decode(t, b, src), dice.ForAction(1, 99))
		if volley.ErrorCode(err) != volley.ECONFLICT || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want a conflict saying %q", src, err, want)
		}
		if FullSnapshot(b) != before {
			t.Errorf("%s: a refused action changed the battle", src)
		}
	}
	table := func() bool {
		tv, ok := b.(volley.Table)
		if !ok {
			bv, ok := b.(volley.Board)
			return ok && bv.Board().Deploying
		}
		return tv.Table().Deploying
	}
	for i, side := range order {
		turn := b.State().Turn
		if turn == nil || turn.Side != side || turn.Phase != "deployment" || turn.End["type"] != volley.EndDeployment {
			t.Fatalf("deployment %d: the turn is %+v; want %s's deployment, ended by end_deployment", i+1, turn, side)
		}
		if !table() {
			t.Errorf("%s's deployment: the table does not say units deploy", side)
		}
		for _, other := range order {
			if other != side {
				refused(deploys[other], "it is "+side+"'s deployment")
			}
			refused(others[other], "it is "+side+"'s deployment")
		}
		play(deploys[side])
		if turn := b.State().Turn; turn.Side != side || turn.Phase != "deployment" {
			t.Fatalf("%s's deployment ended with %s: the turn is %+v", side, deploys[side], turn)
		}
		end := Decode(t, b, "type: "+volley.EndDeployment)
		if got := b.Actor(end); got != side {
			t.Errorf("end_deployment in %s's deployment is %q's to take", side, got)
		}
		play("type: " + volley.EndDeployment)
	}
	if deploying(b) || table() {
		t.Fatalf("every side has ended its deployment, and the turn is %+v", b.State().Turn)
	}
	refused(deploys[order[len(order)-1]], "the battle has begun")
	refused("type: "+volley.EndDeployment, "the battle has begun")
	play(others[order[0]])
}
