package toy_test

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/volley-wargames/volley/servertest"
)

// The toy through the real server: the API takes a system it has never heard of, since
// the toy registered itself in this test binary only.

// server is a volley server over a fresh SQLite file, its URL.
func server(t *testing.T) string {
	return servertest.Serve(t, servertest.SQLite(t), servertest.Limits()).URL
}

// battle starts testdata/skirmish.yaml on the server at base: its id and tokens.
func battle(t *testing.T, base string) (string, map[string]string) {
	t.Helper()
	src, err := os.ReadFile("testdata/skirmish.yaml")
	if err != nil {
		t.Fatal(err)
	}
	status, v := servertest.Call(t, "POST", base+"/api/battles", "", src)
	if status != 201 {
		t.Fatalf("creating: %d %v", status, v)
	}
	tokens := map[string]string{}
	for side, tok := range v["tokens"].(map[string]any) {
		tokens[side] = tok.(string)
	}
	return v["id"].(string), tokens
}

// TestAPIPlaysABattle plays a whole toy battle through the JSON API, taking only what the
// offers allow: each side shoots with every token that may, else moves each towards the
// nearest enemy, then ends its turn, until the server ends the battle by itself. The
// log then verifies from the seed.
func TestAPIPlaysABattle(t *testing.T) {
	base := server(t)
	id, tokens := battle(t, base)
	act := func(side string, body map[string]any) int {
		t.Helper()
		src, _ := json.Marshal(body)
		status, v := servertest.Call(t, "POST", base+"/api/battles/"+id+"/actions", tokens[side], src)
		if status != 200 && status != 400 {
			t.Fatalf("%s: %d %v", src, status, v)
		}
		return status
	}
	view := func() map[string]any {
		_, v := servertest.Call(t, "GET", base+"/api/battles/"+id, tokens["red"], nil)
		return v
	}
	if act("red", map[string]any{"type": "deploy", "unit": "r2", "at": []float64{9, 3}}) != 200 {
		t.Fatal("r2 not deployed")
	}
	act("red", map[string]any{"type": "end_deployment"})
	act("blue", map[string]any{"type": "end_deployment"})
	actions := 3
	for turn := 0; view()["ended"] != true; turn++ {
		if turn > 60 {
			t.Fatal("60 turns and the battle has not ended")
		}
		v := view()
		side := v["state"].(map[string]any)["turn"].(map[string]any)["side"].(string)
		at := map[string][2]float64{}
		for _, u := range v["table"].(map[string]any)["units"].([]any) {
			u := u.(map[string]any)
			if u["destroyed"] != true && u["placed"] == true {
				at[u["id"].(string)] = [2]float64{u["x"].(float64), u["y"].(float64)}
			}
		}
		shot := false
		for _, o := range v["offers"].([]any) {
			o := o.(map[string]any)
			if o["type"] != "shoot" {
				continue
			}
			for _, a := range o["actors"].([]any) {
				a := a.(map[string]any)
				target := a["fields"].([]any)[0].(map[string]any)["options"].([]any)[0].(map[string]any)["value"]
				if view()["ended"] != true && act(side, map[string]any{"type": "shoot", "unit": a["id"], "target": target}) == 200 {
					actions, shot = actions+1, true
				}
			}
		}
		if !shot {
			for _, o := range v["offers"].([]any) {
				if o := o.(map[string]any); o["type"] == "move" {
					for _, a := range o["actors"].([]any) {
						a := a.(map[string]any)
						from := at[a["id"].(string)]
						to, d := nearestEnemy(v, side, from)
						step := math.Min(a["fields"].([]any)[0].(map[string]any)["max"].(float64), d-2)
						if step > 0.1 && act(side, map[string]any{"type": "move", "unit": a["id"],
							"path": [][2]float64{{from[0] + (to[0]-from[0])*step/d, from[1] + (to[1]-from[1])*step/d}}}) == 200 {
							actions++
						}
					}
				}
			}
		}
		if view()["ended"] != true {
			act(side, map[string]any{"type": "end_turn"})
			actions++
		}
	}
	v := view()
	r := v["result"].(map[string]any)
	if r["over"] != true || r["winner"] == nil || v["seed"] == nil {
		t.Errorf("the end: %v, seed %v", r, v["seed"])
	}
	t.Logf("%d actions; %v", actions, r["reason"])
	status, ver := servertest.Call(t, "GET", base+"/api/battles/"+id+"/verify", tokens["red"], nil)
	if status != 200 || ver["verified"] != true {
		t.Errorf("verify: %d %v", status, ver)
	}
	if n := ver["actions"].(float64); int(n) != actions {
		t.Errorf("%v actions verified, %d played", n, actions)
	}
}

// TestAPIExportRefused: the toy places nothing back on a table (it is no volley.Placer),
// so the server refuses to write its battle back as a scenario, saying why.
func TestAPIExportRefused(t *testing.T) {
	base := server(t)
	id, tokens := battle(t, base)
	status, v := servertest.Call(t, "GET", base+"/api/battles/"+id+"/scenario", tokens["red"], nil)
	if status != 400 || v["message"] != "toy battles cannot be written back as a scenario" {
		t.Errorf("the export: %d %v", status, v)
	}
}

// nearestEnemy is the nearest token of another side than side to from, in the view v.
func nearestEnemy(v map[string]any, side string, from [2]float64) ([2]float64, float64) {
	best, to := math.Inf(1), [2]float64{}
	for _, u := range v["table"].(map[string]any)["units"].([]any) {
		u := u.(map[string]any)
		if u["side"] == side || u["destroyed"] == true {
			continue
		}
		p := [2]float64{u["x"].(float64), u["y"].(float64)}
		if d := math.Hypot(p[0]-from[0], p[1]-from[1]); d < best {
			best, to = d, p
		}
	}
	return to, best
}
