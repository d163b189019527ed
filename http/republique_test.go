package http_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestRepubliqueOverTheAPI plays the Republique demo's phase through the API: a pairing,
// a skirmish fire, the end of the step, a grand battery's fire and a refusal naming the
// main target, the end of the segment with its leader tests; then the log verifies.
func TestRepubliqueOverTheAPI(t *testing.T) {
	ts := serve(t, sqliteStore(t))
	id, tokens := battle(t, ts.URL, example(t, "republique/demo.yaml"))
	fr, au := tokens["French"], tokens["Austrian"]
	if fr == "" || au == "" {
		t.Fatalf("tokens %v", tokens)
	}
	act := func(token, body string, want int) map[string]any {
		t.Helper()
		status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/actions", token, "", []byte(body))
		if status != want {
			t.Fatalf("%s: %d %v; want %d", body, status, v, want)
		}
		return v
	}
	// The forced main target, with its reason, from aim.
	status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/aim", watch(id), "", []byte("{type: fire, batteries: [g2], target: IR7}"))
	if status != http.StatusOK {
		t.Fatalf("aim: %d %v", status, v)
	}
	aim := v["aims"].([]any)[0].(map[string]any)
	if aim["forced"] != "IR3" || !strings.Contains(aim["reason"].(string), "not the main target") {
		t.Errorf("aim at IR7: %v", aim)
	}
	act(fr, "{type: oppose, pairs: [[s1, k1], [s2, k2]]}", http.StatusOK)
	act(au, "{type: end_step}", http.StatusForbidden) // the French player ends his own step
	act(fr, "{type: end_step}", http.StatusOK)
	act(fr, "{type: fire, batteries: [g1, g2], die: 3}", http.StatusBadRequest) // the server rolls
	v = act(fr, "{type: fire, batteries: [g1, g2]}", http.StatusOK)
	if o := v["outcome"].(map[string]any); len(o["rolls"].([]any)) != 1 || len(o["targets"].([]any)) != 2 {
		t.Errorf("grand battery: %v", o)
	}
	act(fr, "{type: fire, batteries: [g1]}", http.StatusBadRequest) // once a turn
	act(au, "{type: fire, batteries: [ab]}", http.StatusOK)         // both sides fire in the segment
	act(fr, "{type: end_step}", http.StatusOK)
	_, v = call(t, "GET", ts.URL+"/api/battles/"+id, watch(id), "", nil)
	if turn := v["state"].(map[string]any)["turn"].(map[string]any); turn["side"] != "Austrian" || turn["phase"] != "maneuver" {
		t.Errorf("after the segment: %v", turn)
	}
	call(t, "POST", ts.URL+"/api/battles/"+id+"/end", fr, "", nil)
	status, v = call(t, "GET", ts.URL+"/api/battles/"+id+"/verify", watch(id), "", nil)
	if status != http.StatusOK || v["verified"] != true {
		t.Errorf("verify: %d %v", status, v)
	}
}
