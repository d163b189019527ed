package http_test

import (
	"strings"
	"testing"

	"github.com/volley-wargames/volley/servertest"
)

// TestExportMergeKeys: a battle whose scenario writes its units with an anchor and merge
// keys (`- &s {id: sabre-1, …}` then `- {<<: *s, id: sabre-2, …}`) exports as it stands
// (issue 34: GET …/scenario answered 500, "no entry with id"), and the export starts a
// battle with every unit where it was: the move of the anchored sabre-1 does not carry
// the units that merge it along.
func TestExportMergeKeys(t *testing.T) {
	ts := serve(t, servertest.SQLite(t))
	src := strings.Replace(string(example(t, "dropzone/moves.yaml")),
		`  - {id: sabre-1, type: Sabre, side: UCM, squad: sabres, at: [14, 6], facing: 0}
  - {id: sabre-2, type: Sabre, side: UCM, squad: sabres, at: [18, 6], facing: 0}
  - {id: sabre-3, type: Sabre, side: UCM, squad: sabres, at: [22, 6], facing: 0}`,
		`  - &s {id: sabre-1, type: Sabre, side: UCM, squad: sabres, at: [14, 6], facing: 0}
  - {<<: *s, id: sabre-2, at: [18, 6]}
  - {<<: *s, id: sabre-3, at: [22, 6]}`, 1)
	if !strings.Contains(src, "<<: *s") {
		t.Fatal("examples/dropzone/moves.yaml no longer writes its Sabres as this test expects")
	}
	id, tokens := battle(t, ts.URL, []byte(src))
	deployed(t, ts.URL, id, tokens, "UCM", "Scourge")
	if status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/actions", tokens["UCM"], "", []byte("{type: move, unit: sabre-1, path: [[14, 9]]}")); status != 200 {
		t.Fatalf("a move: %d %v", status, v)
	}
	now := scenarioNow(t, ts.URL, id)
	next, _ := battle(t, ts.URL, []byte(now))
	_, v := call(t, "GET", ts.URL+"/api/battles/"+next, watch(next), "", nil)
	at := map[string][2]float64{}
	for _, u := range v["table"].(map[string]any)["units"].([]any) {
		m := u.(map[string]any)
		at[m["id"].(string)] = [2]float64{m["x"].(float64), m["y"].(float64)}
	}
	for unit, want := range map[string][2]float64{"sabre-1": {14, 9}, "sabre-2": {18, 6}, "sabre-3": {22, 6}} {
		if at[unit] != want {
			t.Errorf("%s in the exported battle at %v; want %v\n%s", unit, at[unit], want, now)
		}
	}
}
