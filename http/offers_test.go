package http_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/servertest"
)

// whoActs is a moment of a battle and what its view must say of who may act.
type whoActs struct {
	name string
	// file is the example (<system>/<file>.yaml); acts the actions that lead to the
	// moment, each taken (200).
	file string
	acts []step
	// acting is state.turn.acting; offered the offers ("side type") the view must hold,
	// notOffered those it must not.
	acting     []string
	offered    []string
	notOffered []string
	// units: for each unit, "" when it may still act this turn, else words of why not.
	units map[string]string
	// aim is a shot asked now, whose aims (one at least OK) say not_now with these words,
	// and which is not legal.
	aim, notNow string
	// golden names testdata/offers/<golden>.json, the acting sides and the offers of
	// the moment, "" for none.
	golden string
}

func taken(sides ...string) []step {
	var out []step
	for i := 0; i+1 < len(sides); i += 2 {
		out = append(out, step{sides[i], sides[i+1], 200})
	}
	return out
}

var whoActsCases = []whoActs{
	{name: "dropzone, a fresh battle", file: "dropzone/moves.yaml",
		acts:   taken("UCM", "{type: end_deployment}", "Scourge", "{type: end_deployment}"),
		acting: []string{"UCM"}, offered: []string{"UCM move", "UCM shoot", "UCM end_turn"}, notOffered: []string{"Scourge move"},
		units: map[string]string{"sabre-1": "", "hunter-1": "it is UCM's turn"}, golden: "dropzone-moves"},
	{name: "dropzone, a unit that moved may still shoot", file: "dropzone/moves.yaml",
		acts:   taken("UCM", "{type: end_deployment}", "Scourge", "{type: end_deployment}", "UCM", "{type: move, unit: sabre-1, path: [[14, 9]]}"),
		acting: []string{"UCM"}, offered: []string{"UCM shoot"}, units: map[string]string{"sabre-1": ""}},
	{name: "dropzone, a shot out of turn", file: "dropzone/battle.yaml",
		acts: taken("UCM", "{type: deploy, unit: walker-2, at: [42, 6], facing: 0}", "UCM", "{type: end_deployment}",
			"Scourge", "{type: deploy, unit: beast-2, at: [40, 42], facing: 180}", "Scourge", "{type: end_deployment}"),
		acting: []string{"UCM"},
		aim:    "{squad: hunters, declarations: [{unit: hunter-1, weapon: Plasma Cannon, target: sabre-1}]}", notNow: "it is UCM's turn"},

	{name: "warfare, a fresh battle", file: "warfare/moves.yaml",
		acts:   taken("English", "{type: end_deployment}", "French", "{type: deploy, unit: spearmen, at: [4, 9]}", "French", "{type: end_deployment}"),
		acting: []string{"English"}, offered: []string{"English move", "English fire", "English end_turn"},
		units: map[string]string{"longbowmen": "", "knights": "it is English's turn"}, golden: "warfare-moves"},
	{name: "warfare, a fire out of turn", file: "warfare/moves.yaml",
		acts: taken("English", "{type: end_deployment}", "French", "{type: deploy, unit: spearmen, at: [4, 9]}", "French", "{type: end_deployment}",
			"English", "{type: move, unit: longbowmen, path: [[0, 2]]}", "English", "{type: end_turn}"),
		acting: []string{"French"}, notOffered: []string{"English fire"},
		units: map[string]string{"longbowmen": "it is French's turn"},
		aim:   "{unit: longbowmen, targets: [{unit: knights}]}", notNow: "it is French's turn"},
	{name: "warfare, a deployment under way", file: "warfare/moves.yaml",
		acts:   taken("English", "{type: end_deployment}", "French", "{type: deploy, unit: spearmen, at: [4, 9]}"),
		acting: []string{"French"}, offered: []string{"French deploy", "French end_deployment"}, notOffered: []string{"English fire"},
		units: map[string]string{"longbowmen": "the battle has not begun", "knights": ""},
		aim:   "{unit: longbowmen, targets: [{unit: knights}]}", notNow: "the battle has not begun"},

	{name: "warengine, a fresh battle: the move phase", file: "warengine/moves.yaml",
		acts:   taken("trenchers", "{type: end_deployment}", "raiders", "{type: deploy, unit: raider-2, at: [15, 1], facing: S}", "raiders", "{type: end_deployment}"),
		acting: []string{"trenchers"}, offered: []string{"trenchers move", "trenchers end_phase"}, notOffered: []string{"trenchers declare", "trenchers fire"},
		units: map[string]string{"murphy": "", "raider-1": "it is trenchers's turn"},
		aim:   "{type: declare, unit: murphy, weapon: HMG Model 50, target: raider-1}", notNow: "phase", golden: "warengine-moves"},
	{name: "warengine, the target phase: declarations", file: "warengine/moves.yaml",
		acts: taken("trenchers", "{type: end_deployment}", "raiders", "{type: deploy, unit: raider-2, at: [15, 1], facing: S}", "raiders", "{type: end_deployment}",
			"trenchers", "{type: end_phase}"),
		acting: []string{"trenchers"}, offered: []string{"trenchers declare", "trenchers end_phase"}, notOffered: []string{"trenchers move", "trenchers fire"},
		units: map[string]string{"murphy": "", "hale": ""}, golden: "warengine-target"},
	{name: "warengine, the fire phase: only what was declared", file: "warengine/moves.yaml",
		acts: taken("trenchers", "{type: end_deployment}", "raiders", "{type: deploy, unit: raider-2, at: [15, 1], facing: S}", "raiders", "{type: end_deployment}",
			"trenchers", "{type: end_phase}", "trenchers", "{type: declare, unit: murphy, weapon: HMG Model 50, target: raider-1}", "trenchers", "{type: end_phase}"),
		acting: []string{"trenchers"}, offered: []string{"trenchers fire", "trenchers end_phase"}, notOffered: []string{"trenchers declare"},
		units: map[string]string{"murphy": "", "hale": "no target left to fire at", "raider-1": "it is trenchers's turn"}},

	{name: "republique, a fresh battle: the maneuver step", file: "republique/moves.yaml",
		acts:   taken("French", "{type: end_deployment}", "Austrian", "{type: end_deployment}"),
		acting: []string{"French"}, offered: []string{"French move", "French end_step"}, notOffered: []string{"Austrian fire"},
		units: map[string]string{"ligne": "", "IR": "only its units move", "ab": ""},
		aim:   "{type: fire, batteries: [ab]}", notNow: "artillery fires in the artillery fire segment", golden: "republique-moves"},
	{name: "republique, the artillery fire segment: both sides fire", file: "republique/moves.yaml",
		acts: taken("French", "{type: end_deployment}", "Austrian", "{type: end_deployment}",
			"French", "{type: end_step}", "French", "{type: end_step}"),
		acting: []string{"French", "Austrian"}, offered: []string{"French fire", "Austrian fire", "Austrian save", "French end_step"}, notOffered: []string{"Austrian end_step", "French move"},
		units: map[string]string{"ligne": "only batteries and skirmish markers act", "fb": "limbered", "ab": ""}, golden: "republique-artillery"},

	{name: "warstrike, a fresh battle", file: "warstrike/moves.yaml",
		acts:   taken("Ironclad", "{type: end_deployment}", "Verdant", "{type: deploy, unit: raiders, at: [24, 24]}"),
		acting: []string{"Ironclad"}, offered: []string{"Ironclad move", "Ironclad shoot", "Ironclad end_turn"},
		units: map[string]string{"alpha": "", "raiders": "it is Ironclad's turn"}, golden: "warstrike-moves"},
	{name: "warstrike, a unit whose activation another ended", file: "warstrike/moves.yaml",
		acts: taken("Ironclad", "{type: end_deployment}", "Verdant", "{type: deploy, unit: raiders, at: [24, 24]}",
			"Ironclad", "{type: move, unit: alpha, action: shooting_advance, models: [{id: alpha-3, path: [[25, 14]]}]}",
			"Ironclad", "{type: move, unit: bravo, action: at_the_double, models: [{id: bravo-2, path: [[7, 18]]}]}"),
		acting: []string{"Ironclad"}, notOffered: []string{"Ironclad shoot"},
		units: map[string]string{"alpha": "already acted", "bravo": ""},
		aim:   "{unit: alpha, targets: [{unit: raiders}]}"},
	{name: "warstrike, a shot out of turn", file: "warstrike/moves.yaml",
		acts: taken("Ironclad", "{type: end_deployment}", "Verdant", "{type: deploy, unit: raiders, at: [24, 24]}",
			"Ironclad", "{type: move, unit: alpha, action: shooting_advance, models: [{id: alpha-3, path: [[25, 14]]}, {id: alpha-2, path: [[23.5, 13]]}, {id: alpha-leader, path: [[23, 14]]}]}",
			"Ironclad", "{type: end_turn}"),
		acting: []string{"Verdant"}, offered: []string{"Verdant move", "Verdant end_turn"}, notOffered: []string{"Ironclad shoot"},
		units: map[string]string{"alpha": "it is Verdant's turn", "raiders": ""},
		aim:   "{unit: alpha, targets: [{unit: raiders}]}", notNow: "it is Verdant's turn"},
}

// TestOffersWhoActs: at moments of each system's battles, the view says who may act now
// (state.turn.acting: both sides in Republique's artillery fire segment), what each is
// offered (the War Engine's declarations among them), whether each unit may still act
// this turn and why not, and a shot aimed out of its turn, phase or step is not legal
// and its aims say not_now. The offers of a fresh battle of each system's moves.yaml
// (and of the War Engine's target phase and Republique's artillery segment) are kept in
// testdata/offers/, docs/json.md's examples (-update rewrites them).
func TestOffersWhoActs(t *testing.T) {
	for _, c := range whoActsCases {
		t.Run(c.name, func(t *testing.T) {
			ts := serve(t, servertest.SQLite(t))
			doc := example(t, c.file)
			if c.file == "republique/moves.yaml" {
				doc = republiqueMoves(t)
			}
			id, tokens := battle(t, ts.URL, doc)
			for _, s := range c.acts {
				if status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/actions", tokens[s.side], "", []byte(s.body)); status != s.status {
					t.Fatalf("%s %s: %d %v", s.side, s.body, status, v)
				}
			}
			status, raw := sendRaw(t, "GET", ts.URL+"/api/battles/"+id, watch(id), nil)
			if status != 200 {
				t.Fatalf("the view: %d %s", status, raw)
			}
			var v struct {
				State struct {
					Turn struct {
						Acting []string `json:"acting"`
					} `json:"turn"`
					Units []struct {
						ID     string `json:"id"`
						MayAct *bool  `json:"may_act"`
						WhyNot string `json:"why_not"`
					} `json:"units"`
				} `json:"state"`
				Offers []json.RawMessage `json:"offers"`
			}
			if err := json.Unmarshal(raw, &v); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(v.State.Turn.Acting, c.acting) {
				t.Errorf("state.turn.acting %q, want %q", v.State.Turn.Acting, c.acting)
			}
			var offered []string
			var rules []json.RawMessage // the rules' offers, not the game's own
			for _, o := range v.Offers {
				var head struct{ Side, Type string }
				if err := json.Unmarshal(o, &head); err != nil {
					t.Fatal(err)
				}
				offered = append(offered, head.Side+" "+head.Type)
				if head.Type != "take_back" && head.Type != "offer_end" {
					rules = append(rules, o)
				}
			}
			for _, want := range c.offered {
				if !slices.Contains(offered, want) {
					t.Errorf("no offer %q among %q", want, offered)
				}
			}
			for _, not := range c.notOffered {
				if slices.Contains(offered, not) {
					t.Errorf("offer %q among %q", not, offered)
				}
			}
			for unit, why := range c.units {
				i := slices.IndexFunc(v.State.Units, func(u struct {
					ID     string `json:"id"`
					MayAct *bool  `json:"may_act"`
					WhyNot string `json:"why_not"`
				}) bool {
					return u.ID == unit
				})
				if i < 0 {
					t.Fatalf("no unit %s in the view", unit)
				}
				u := v.State.Units[i]
				switch {
				case u.MayAct == nil:
					t.Errorf("%s: no may_act", unit)
				case why == "" && (!*u.MayAct || u.WhyNot != ""):
					t.Errorf("%s: may_act %v (%s), want true", unit, *u.MayAct, u.WhyNot)
				case why != "" && (*u.MayAct || !strings.Contains(u.WhyNot, why)):
					t.Errorf("%s: may_act %v, why_not %q; want false, %q", unit, *u.MayAct, u.WhyNot, why)
				}
			}
			if c.aim != "" {
				status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/aim", watch(id), "", []byte(c.aim))
				if status != 200 || v["legal"] != false || v["reason"] == "" {
					t.Fatalf("aim %s: %d %v; want 200, not legal, a reason", c.aim, status, v)
				}
				if c.notNow != "" {
					waits := 0
					for _, a := range v["aims"].([]any) {
						a := a.(map[string]any)
						if a["status"] != "ok" {
							continue
						}
						if nn, _ := a["not_now"].(string); !strings.Contains(nn, c.notNow) {
							t.Errorf("aim %v: not_now %q, want %q", a["target"], nn, c.notNow)
						}
						waits++
					}
					if waits == 0 {
						t.Errorf("aim %s: no aim ok to say not now: %v", c.aim, v["aims"])
					}
				}
			}
			if c.golden != "" {
				got, err := json.MarshalIndent(map[string]any{"acting": v.State.Turn.Acting, "offers": rules}, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, '\n')
				path := filepath.Join("testdata", "offers", c.golden+".json")
				rulestest.Golden(t, path, string(got))
			}
		})
	}
}

// TestHopelessShotRefused: a shot whose every aim is out of range is refused (400, the
// target named) and the battle is as it was, in every system that can aim one: Dropzone
// and Warfare (always), WarStrike (from edition 5: rules/warstrike's
// TestRulingHopelessShot), Republique (a battery with no target in its arc and range
// fires at none). The War Engine corrects a declaration into the weapon's reach instead.
func TestHopelessShotRefused(t *testing.T) {
	for _, c := range []struct {
		name, file string
		acts       []step
		side, shot string
		words      string
	}{
		{"dropzone", "dropzone/battle.yaml", taken("UCM", "{type: deploy, unit: walker-2, at: [42, 6], facing: 0}", "UCM", "{type: end_deployment}",
			"Scourge", "{type: deploy, unit: beast-2, at: [40, 42], facing: 180}", "Scourge", "{type: end_deployment}", "UCM", "{type: end_turn}"),
			"Scourge", "{squad: hunters, declarations: [{unit: hunter-1, weapon: Plasma Cannon, target: walker-1}]}", "beyond the 36\" full range"},
		{"warfare", "warfare/battle.yaml", taken("English", "{type: end_deployment}", "French", "{type: end_deployment}"),
			"English", "{unit: longbowmen, targets: [{unit: genoese-1}]}", "beyond longbow's long range"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ts, id, tokens := exampleBattle(t, c.file)
			for _, s := range c.acts {
				if status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/actions", tokens[s.side], "", []byte(s.body)); status != s.status {
					t.Fatalf("%s %s: %d %v", s.side, s.body, status, v)
				}
			}
			_, before := sendRaw(t, "GET", ts.URL+"/api/battles/"+id, watch(id), nil)
			status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/actions", tokens[c.side], "", []byte(c.shot))
			if msg, _ := v["message"].(string); status != 400 || !strings.Contains(msg+strings.Join(strings.Fields(fmtAny(v["errors"])), " "), c.words) {
				t.Errorf("%s: %d %v; want 400, %q", c.shot, status, v, c.words)
			}
			if _, after := sendRaw(t, "GET", ts.URL+"/api/battles/"+id, watch(id), nil); !bytes.Equal(before, after) {
				t.Errorf("the refused shot changed the view")
			}
		})
	}
}

func fmtAny(x any) string {
	b, _ := json.Marshal(x)
	return string(b)
}
