package http_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/servertest"
)

// TestAdviceOverTheAPI asks a battle for the best plans and for a danger map, and gets a
// 400 naming the parameter at fault for every bad query.
func TestAdviceOverTheAPI(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "dropzone/sabres.yaml")
	base := ts.URL + "/api/battles/" + id
	status, v := call(t, "GET", base+"/advice?side=UCM&objective=destroyed&top=2", watch(id), "", nil)
	if status != http.StatusOK {
		t.Fatalf("advice: %d %v", status, v)
	}
	adv := v["advice"].([]any)[0].(map[string]any)
	plans := adv["plans"].([]any)
	if adv["actor"] != "sabres" || len(plans) != 2 || adv["total"] != float64(1000) || adv["complete"] != true {
		t.Fatalf("advice: %v", adv)
	}
	best := plans[0].(map[string]any)
	if best["value"].(float64) < 2.07 || best["action"].(map[string]any)["squad"] != "sabres" {
		t.Errorf("best plan: %v", best)
	}
	// The plan's action is ready to send: its odds give the same value.
	status, o := call(t, "POST", base+"/odds", watch(id), "", mustJSON(t, best["action"]))
	if status != http.StatusOK {
		t.Fatalf("odds of the plan: %d %v", status, o)
	}
	if got := o["values"].(map[string]any)["expected_units_destroyed"].(float64); abs(got-best["value"].(float64)) > 1e-12 {
		t.Errorf("the plan's odds give %v units destroyed, the advice %v", got, best["value"])
	}
	// Once the squad has fired, nothing of UCM may fire: a sound question, answered with
	// no plans and why, not refused.
	if status, v := call(t, "POST", base+"/actions", tokens["UCM"], "", mustJSON(t, best["action"])); status != http.StatusOK {
		t.Fatalf("the plan fired: %d %v", status, v)
	}
	status, v = call(t, "GET", base+"/advice?side=UCM", watch(id), "", nil)
	if status != http.StatusOK || len(v["advice"].([]any)) != 0 || v["why"] != "advise: nothing of UCM may fire now" {
		t.Errorf("advice once the squad has fired: %d %v", status, v)
	}

	id2, _ := battle(t, ts.URL, example(t, "dropzone/crossfire.yaml"))
	status, v = call(t, "GET", ts.URL+"/api/battles/"+id2+"/danger?side=UCM&as=Sabre&step=2", watch(id2), "", nil)
	if status != http.StatusOK {
		t.Fatalf("danger: %d %v", status, v)
	}
	d := v["danger"].(map[string]any)
	if n := len(d["values"].([]any)); n != int(d["cols"].(float64)*d["rows"].(float64)) || n == 0 {
		t.Errorf("danger: %d values for %v × %v", n, d["cols"], d["rows"])
	}

	for _, tc := range []struct{ path, field string }{
		{"/advice?objective=most", "objective"},
		{"/advice?top=0", "top"},
		{"/advice?top=x", "top"},
		{"/advice?side=Nobody", "side"},
		{"/advice?side=UCM&actor=hunters", "actor"},
		{"/advice?side=UCM&objective=" + url.QueryEscape("destroy:nobody"), "objective"},
		{"/danger?as=Sabre", "side"},
		{"/danger?side=UCM", "as"},
		{"/danger?side=UCM&as=Tank", "as"},
		{"/danger?side=Nobody&as=Sabre", "side"},
		{"/danger?side=UCM&as=Sabre&step=0", "step"},
		{"/danger?side=UCM&as=Sabre&step=0.001", "step"},
		{"/danger?side=UCM&as=Sabre&objective=at_least:3", "objective"},
	} {
		b := base
		if strings.HasPrefix(tc.path, "/danger") {
			b = ts.URL + "/api/battles/" + id2
		}
		i := id
		if b != base {
			i = id2
		}
		status, v := call(t, "GET", b+tc.path, watch(i), "", nil)
		if status != http.StatusBadRequest || v["field"] != tc.field {
			t.Errorf("%s: %d %v; want 400 at %s", tc.path, status, v, tc.field)
		}
	}
	if status, _ := call(t, "GET", base+"/advice", "", "", nil); status != http.StatusUnauthorized {
		t.Errorf("advice without a token: %d", status)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func mustJSON(tb testing.TB, v any) []byte {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// FuzzAdviceQuery sends arbitrary advice and danger queries: a 200 or a 4xx with the
// parameter at fault, never a 500.
func FuzzAdviceQuery(f *testing.F) {
	ts := serve(f, servertest.SQLite(f))
	id, _ := battle(f, ts.URL, example(f, "dropzone/moves.yaml"))
	f.Add("advice", "UCM", "destroyed", "2", "", "")
	f.Add("advice", "Scourge", "at_least:3", "1", "", "")
	f.Add("danger", "UCM", "destroyed", "", "Sabre", "2")
	f.Add("danger", "Scourge", "expected", "", "Hunter", "1cm")
	f.Add("position", "", "expected", "", "sabre-1", "1")
	f.Add("position", "destroyed", "destroy:hunter-1", "", "sabre-2", "0.5in")
	f.Fuzz(func(t *testing.T, what, side, objective, top, as, step string) {
		if what != "advice" && what != "position" {
			what = "danger"
		}
		q := url.Values{"side": {side}, "objective": {objective}, "top": {top}, "as": {as}, "step": {step}}
		if what == "position" { // unit, and danger's objective, in the fields the fuzzer fills
			q = url.Values{"unit": {as}, "objective": {objective}, "danger": {side}, "step": {step}}
		}
		status, v := call(t, "GET", ts.URL+"/api/battles/"+id+"/"+what+"?"+q.Encode(), watch(id), "", nil)
		if status >= 500 {
			t.Fatalf("%s %v: %d %v", what, q, status, v)
		}
		if field, _ := v["field"].(string); status == http.StatusBadRequest && field == "" {
			t.Fatalf("%s %v: a 400 naming no field: %v", what, q, v)
		}
	})
}
