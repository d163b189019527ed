package http_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/servertest"
)

// TestMovesOverTheAPI plays examples/dropzone/moves.yaml over the API: moves are
// refereed actions like any other, in turn and logged; a stated movement fact is a 400
// naming it; a refused move changes nothing; the battle with its moves verifies.
func TestMovesOverTheAPI(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "dropzone/moves.yaml")
	deployed(t, ts.URL, id, tokens, "UCM", "Scourge")
	act := sidesActor(t, ts.URL, id, tokens)
	units := func() map[string]map[string]any { return unitsOf(t, ts.URL, id, "table") }
	if status, v := act("UCM", "{type: move, unit: sabre-1, path: [[14, 9]]}"); status != 200 {
		t.Fatalf("a move: %d %v", status, v)
	}
	if u := units()["sabre-1"]; u["y"] != 9.0 || u["move"].(map[string]any)["moved"] != 3.0 || u["move"].(map[string]any)["left"] != 3.0 {
		t.Errorf("sabre-1 after its move: %v", u)
	}
	// A stated fact is refused, naming it.
	for _, tc := range []struct{ body, field string }{
		{"squad: sabres\nmoved: {sabre-1: 0}\ndeclarations: [{unit: sabre-1, weapon: Avenger Railgun, target: hunter-1}]", "moved"},
		{"squad: sabres\nout_of_coherency: false\ndeclarations: [{unit: sabre-1, weapon: Avenger Railgun, target: hunter-1}]", "out_of_coherency"},
		{"squad: sabres\ndisembarked: false\ndeclarations: [{unit: sabre-1, weapon: Avenger Railgun, target: hunter-1}]", "disembarked"},
	} {
		status, v := act("UCM", tc.body)
		if status != 400 || !strings.HasPrefix(fmt.Sprint(v["message"]), tc.field+": the server measures") || !strings.HasPrefix(fmt.Sprint(v["field"]), "body:") {
			t.Errorf("a shot stating %s: %d %v", tc.field, status, v)
		}
	}
	if status, v := act("UCM", "squad: sabres\ndeclarations: [{unit: sabre-1, weapon: Avenger Railgun, target: hunter-1}]"); status != 200 {
		t.Fatalf("the shot: %d %v", status, v)
	}
	// Having fired a weapon of M&F 4" after 3", sabre-1 may move 1" more, not 2".
	before := units()
	status, v := act("UCM", "{type: move, unit: sabre-1, path: [[14, 11]]}")
	if status != 400 || !strings.Contains(fmt.Sprint(v["message"]), "the smallest M&F of the weapons it used") {
		t.Errorf("a move past M&F after firing: %d %v", status, v)
	}
	if after := units(); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Error("a refused move changed the battle")
	}
	if status, v := act("Scourge", "{type: move, unit: hunter-1, path: [[12, 29]]}"); status != 409 {
		t.Errorf("a move out of turn: %d %v", status, v)
	}
	if status, v := act("UCM", "{type: move, unit: sabre-1, path: [[14, 10]]}"); status != 200 {
		t.Fatalf("the last inch: %d %v", status, v)
	}
	// The scenario as it stands: the units where they are now, ready for a new battle.
	now := scenarioNow(t, ts.URL, id)
	if !strings.Contains(now, "{id: sabre-1, type: Sabre, side: UCM, squad: sabres, at: [14, 10], facing: 0}") || strings.Contains(now, "actions:") {
		t.Errorf("the scenario as it stands:\n%s", now)
	}
	if next, _ := battle(t, ts.URL, []byte(now)); next == "" {
		t.Error("the exported scenario does not start a battle")
	}
	// Ended, the battle with its moves verifies.
	endVerified(t, ts.URL, id, tokens["UCM"], 5)
}

// TestPreview: "what if I stand here?" — a legal move's trace, a shot's odds from where it
// ends and the danger there; an illegal one's reason; and the battle unchanged.
func TestPreview(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "dropzone/moves.yaml")
	deployed(t, ts.URL, id, tokens, "UCM", "Scourge")
	u := ts.URL + "/api/battles/" + id + "/preview"
	body := `{"move": {"type": "move", "unit": "sabre-1", "path": [[14, 9]]},
	  "then": {"squad": "sabres", "declarations": [{"unit": "sabre-1", "weapon": "Avenger Railgun", "target": "hunter-1"}]},
	  "danger": {"side": "UCM", "as": "Sabre"}}`
	status, v := call(t, "POST", u, tokens["UCM"], "", []byte(body))
	if status != 200 || v["legal"] != true {
		t.Fatalf("a legal preview: %d %v", status, v)
	}
	aims := v["aims"].([]any)
	if len(aims) != 1 || aims[0].(map[string]any)["status"] != "ok" {
		t.Errorf("the shot from the ghost: %v", aims)
	}
	if d, ok := v["danger"].(map[string]any); !ok || d["scores"] != "P(destroyed)" {
		t.Errorf("the danger at the ghost: %v", v["danger"])
	}
	tr, _ := json.Marshal(v["trace"])
	if !strings.Contains(string(tr), "sabre-1 moved 3") {
		t.Errorf("the move's trace: %s", tr)
	}
	// Too far: not legal, and why; a preview is an answer, not an error.
	status, v = call(t, "POST", u, watch(id), "", []byte(`{"move": {"type": "move", "unit": "sabre-1", "path": [[14, 20]]}}`))
	if status != 200 || v["legal"] != false || !strings.Contains(fmt.Sprint(v["reason"]), "it may move 6\" more") {
		t.Errorf("a move too long: %d %v", status, v)
	}
	// A move may not state what a refereed one may not.
	status, v = call(t, "POST", u, tokens["UCM"], "", []byte(`{"move": {"type": "move", "unit": "sabre-9", "path": [[1, 1]]}}`))
	if status != 400 || !strings.Contains(fmt.Sprint(v["message"]), "unknown unit") {
		t.Errorf("a move of no unit: %d %v", status, v)
	}
	_, st := call(t, "GET", ts.URL+"/api/battles/"+id, watch(id), "", nil)
	if n := st["actions"]; n != 2.0 {
		t.Errorf("previews left %v actions in the log, beside the two ends of deployment", n)
	}
}

// positionMap is the position map GET u answers (…/position?…), failing the test on
// any other answer than 200.
func positionMap(t *testing.T, u, token string) map[string]any {
	t.Helper()
	status, v := call(t, "GET", u, token, "", nil)
	if status != 200 {
		t.Fatalf("a position map: %d %v", status, v)
	}
	return v["position"].(map[string]any)
}

// accepted posts action, as JSON, to the battle at u (…/api/battles/{id}) and reports
// whether it was taken; what names it in the error when it was not.
func accepted(t *testing.T, u, token, what string, action any) bool {
	t.Helper()
	body, _ := json.Marshal(action)
	if status, v := call(t, "POST", u+"/actions", token, "", body); status != 200 {
		t.Errorf("%s %s: %d %v", what, body, status, v)
		return false
	}
	return true
}

// TestPositionOverTheAPI: where a unit could stand, each point with its offence and
// danger, the Pareto front; a bad parameter is a 400 naming it.
func TestPositionOverTheAPI(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "dropzone/position.yaml")
	u := ts.URL + "/api/battles/" + id + "/position?"
	m := positionMap(t, u+"unit=sabre-1&step=1", tokens["UCM"])
	points, front := m["points"].([]any), m["pareto"].([]any)
	if len(points) < 100 || len(front) == 0 || len(m["top"].([]any)) == 0 {
		t.Fatalf("%d points, a front of %d", len(points), len(front))
	}
	for _, k := range []string{"x", "y", "reach", "offence", "danger"} {
		if _, ok := points[0].(map[string]any)[k]; !ok {
			t.Errorf("a point has no %s: %v", k, points[0])
		}
	}
	// The best point is where sabre-1 stands (every map offers standing still): it has
	// a plan and no move; the next has both.
	for i, p := range m["top"].([]any)[:2] {
		top := p.(map[string]any)
		if (top["move"] == nil) != (top["reach"] == 0.0) || top["plan"] == nil {
			t.Errorf("top point %d: %v; want a plan, and a move unless it is where the unit stands", i, top)
		}
	}
	for _, tc := range []struct{ query, field string }{
		{"", "unit"}, {"unit=beast-1", "unit"}, {"unit=sabre-9", "unit"}, {"unit=sabre-1&step=-1", "step"},
		{"unit=sabre-1&objective=most", "objective"}, {"unit=sabre-1&danger=worst", "danger"}, {"unit=sabre-1&step=0.001", "step"},
	} {
		wantFieldError(t, tc.query, u+tc.query, tokens["UCM"], tc.field)
	}
}

// TestPositionOverTheAPIOnAGrid: a War Engine position map counts squares, and its best
// square's move is one the battle then accepts.
func TestPositionOverTheAPIOnAGrid(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "warengine/position.yaml")
	deployed(t, ts.URL, id, tokens, "trenchers", "raiders")
	m := positionMap(t, ts.URL+"/api/battles/"+id+"/position?unit=hale", tokens["trenchers"])
	if m["grid"] != true || m["length_unit"] != "square" || len(m["points"].([]any)) < 50 {
		t.Fatalf("grid %v, unit %v, %d points", m["grid"], m["length_unit"], len(m["points"].([]any)))
	}
	move := m["top"].([]any)[0].(map[string]any)["move"]
	accepted(t, ts.URL+"/api/battles/"+id, tokens["trenchers"], "the best square's move", move)
	wantFieldError(t, "a step on a grid", ts.URL+"/api/battles/"+id+"/position?unit=hale&step=2", tokens["trenchers"], "step")
}

// TestPositionOverTheAPIWarfare: a Warfare position map over the API; its best point's
// move, round the billmen, is one the battle then accepts, and so is the fire it plans
// from there; a unit that may not move is refused at unit.
func TestPositionOverTheAPIWarfare(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "warfare/position.yaml")
	u := ts.URL + "/api/battles/" + id
	m := positionMap(t, u+"/position?unit=longbowmen&danger=expected", tokens["English"])
	if m["grid"] == true || m["length_unit"] != "in" || len(m["points"].([]any)) < 300 || len(m["pareto"].([]any)) == 0 {
		t.Fatalf("grid %v, unit %v, %d points", m["grid"], m["length_unit"], len(m["points"].([]any)))
	}
	top := m["top"].([]any)[0].(map[string]any)
	if path, _ := top["move"].(map[string]any)["path"].([]any); len(path) < 2 {
		t.Errorf("the best point's move does not go round the billmen: %v", top["move"])
	}
	for _, a := range []any{top["move"], top["plan"]} {
		accepted(t, u, tokens["English"], "the best point's", a)
	}
	wantFieldError(t, "a French unit in the English turn", u+"/position?unit=crossbowmen", tokens["English"], "unit")
}

// TestPositionOverTheAPIInCm: a Republique position map is in the battle's unit (cm), and
// its best point's move — limber, a path round the line, unlimber — is one the battle
// then accepts; the enemy's battery may not move in the French turn.
func TestPositionOverTheAPIInCm(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "republique/position.yaml")
	u := ts.URL + "/api/battles/" + id + "/position?"
	m := positionMap(t, u+"unit=fb&step=2", tokens["French"])
	if m["length_unit"] != "cm" || m["step"] != 2.0 || len(m["points"].([]any)) < 100 {
		t.Fatalf("unit %v, step %v, %d points", m["length_unit"], m["step"], len(m["points"].([]any)))
	}
	top := m["top"].([]any)[0].(map[string]any)
	if top["plan"] == nil {
		t.Errorf("the best point has no plan: %v", top)
	}
	accepted(t, ts.URL+"/api/battles/"+id, tokens["French"], "the best point's move", top["move"])
	for _, q := range []string{"unit=ab", "unit=nobody"} {
		wantFieldError(t, q, u+q, tokens["French"], "unit")
	}
}

// TestPositionOverTheAPIWarStrike: a WarStrike unit's map places its formation, each top
// point's move names the action it needs, and the best point's move and then its plan
// are accepted; a unit of the side not to act, or one that has shot, is a 400 at unit.
func TestPositionOverTheAPIWarStrike(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "warstrike/position.yaml")
	u := ts.URL + "/api/battles/" + id + "/position?"
	m := positionMap(t, u+"unit=alpha", tokens["Ironclad"])
	if m["length_unit"] != "in" || m["left"] != 12.0 || len(m["points"].([]any)) < 200 {
		t.Fatalf("unit %v, left %v, %d points", m["length_unit"], m["left"], len(m["points"].([]any)))
	}
	for _, tc := range []struct{ query, field string }{{"unit=raiders", "unit"}, {"unit=alpha&step=0.01", "step"}} {
		wantFieldError(t, tc.query, u+tc.query, tokens["Ironclad"], tc.field)
	}
	top := m["top"].([]any)[0].(map[string]any)
	move, plan := top["move"].(map[string]any), top["plan"]
	if move["action"] != "shooting_advance" || plan == nil {
		t.Fatalf("the best point: %v", top)
	}
	if !accepted(t, ts.URL+"/api/battles/"+id, tokens["Ironclad"], "the best point's move", move) {
		t.FailNow()
	}
	accepted(t, ts.URL+"/api/battles/"+id, tokens["Ironclad"], "its plan", plan)
	// Once it has shot, alpha moves no more this turn.
	wantFieldError(t, "alpha after its shot", u+"unit=alpha", tokens["Ironclad"], "unit")
}

// FuzzMoveBody sends arbitrary moves and previews of them: never a 500, and every 400 names
// where the fault is.
func FuzzMoveBody(f *testing.F) {
	ts := serve(f, servertest.SQLite(f))
	id, tokens := battle(f, ts.URL, example(f, "dropzone/moves.yaml"))
	f.Add(false, []byte("{type: move, unit: sabre-1, path: [[14, 9]], facing: 30}"))
	f.Add(false, []byte("{type: deploy, unit: sabre-2, at: [4, 4]}"))
	f.Add(false, []byte("{type: end_deployment, unit: sabre-2}"))
	f.Add(true, []byte(`{"move": {"type": "deploy", "unit": "hunter-1", "at": [12, 40]}}`))
	f.Add(true, []byte(`{"move": {"type": "move", "unit": "sabre-1", "path": [[14, 9], [15, 10]]}, "danger": {"side": "UCM", "as": "Sabre"}}`))
	f.Add(true, []byte(`{"move": {"type": "move", "unit": "sabre-3", "path": [[1e5, -1e5]]}, "then": {"squad": "sabres", "declarations": []}}`))
	f.Fuzz(func(t *testing.T, preview bool, body []byte) {
		u := ts.URL + "/api/battles/" + id + "/actions"
		if preview {
			u = ts.URL + "/api/battles/" + id + "/preview"
		}
		status, v := callRaw(t, "POST", u, tokens["UCM"], body)
		if status >= 500 {
			t.Fatalf("status %d for %q: %v", status, body, v)
		}
		if field, _ := v["field"].(string); status == 400 && field == "" {
			t.Fatalf("a 400 naming no field for %q: %v", body, v)
		}
	})
}

// callRaw is call for any body, with an answer that may not be JSON (then nil).
func callRaw(tb testing.TB, method, u, token string, body []byte) (int, map[string]any) {
	tb.Helper()
	req, err := http.NewRequest(method, u, bytes.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var v map[string]any
	json.NewDecoder(resp.Body).Decode(&v)
	return resp.StatusCode, v
}
