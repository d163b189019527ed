package http_test

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/examples"
	"github.com/volley-wargames/volley/scenario"
	"github.com/volley-wargames/volley/servertest"
)

// The tests here play each system's examples/<system>/battle.yaml to its end over the
// API, as two players would: deployment, moves, shots and the ends of turns, round after
// round, until the server says the battle is over. Each battle rolls from a fixed seed,
// so that a run can be repeated; the scripts still choose their shots from what the rules
// allow as the battle stands (the aim of each candidate target, the first that may be
// taken), so that a change of odds or wording elsewhere does not strand them. What is
// asserted is read from the battle itself: the result's reason, each side's score
// against the points of the units it destroyed and the objectives it holds, the winner,
// the revealed seed, the log that verifies, and the words of every entry.

// match is a battle played over the API by a script.
type match struct {
	t        *testing.T
	base, id string
	tokens   map[string]string
	doc      []byte
	actions  int
	moved    map[string]bool // units (or squads) that moved
	fired    map[string]bool // units (or squads, batteries, markers) that fired
}

// newMatch starts examples/<system>/battle.yaml on a server of its own whose battles roll
// from a seed fixed by the system's name and seed.
func newMatch(t *testing.T, system, seed string) *match {
	t.Helper()
	doc, err := examples.FS.ReadFile(system + "/battle.yaml")
	if err != nil {
		t.Fatal(err)
	}
	srv := servertest.New(servertest.SQLite(t), servertest.Limits())
	sum := sha256.Sum256([]byte("volley battle " + system + seed))
	srv.NewSeed = func() (dice.Seed, error) { return dice.NewSeed(bytes.NewReader(sum[:])) }
	ts := servertest.Start(t, srv)
	id, tokens := battle(t, ts.URL, doc)
	return &match{t: t, base: ts.URL, id: id, tokens: tokens, doc: doc, moved: map[string]bool{}, fired: map[string]bool{}}
}

// view is the battle as it stands.
func (m *match) view() map[string]any {
	m.t.Helper()
	status, v := call(m.t, "GET", m.base+"/api/battles/"+m.id, watch(m.id), "", nil)
	if status != 200 {
		m.t.Fatalf("the battle: %d %v", status, v)
	}
	return v
}

// act sends side's action, which the rules must take.
func (m *match) act(side, body string) map[string]any {
	m.t.Helper()
	status, v := call(m.t, "POST", m.base+"/api/battles/"+m.id+"/actions", m.tokens[side], "", []byte(body))
	if status != 200 {
		m.t.Fatalf("%s: %s: %d %v", side, body, status, v)
	}
	m.actions++
	return v
}

// aims are the aims of an action, asked as a spectator: nothing is rolled.
func (m *match) aims(body string) []any {
	m.t.Helper()
	status, v := call(m.t, "POST", m.base+"/api/battles/"+m.id+"/aim", watch(m.id), "", []byte(body))
	if status != 200 {
		return nil
	}
	aims, _ := v["aims"].([]any)
	return aims
}

// allowed reports whether some shot of an action may be taken now.
func (m *match) allowed(body string) bool {
	m.t.Helper()
	for _, a := range m.aims(body) {
		if a.(map[string]any)["status"] == "ok" {
			return true
		}
	}
	return false
}

// units are the state's units by id.
func (m *match) units() map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, u := range m.view()["state"].(map[string]any)["units"].([]any) {
		out[u.(map[string]any)["id"].(string)] = u.(map[string]any)
	}
	return out
}

// alive reports whether a unit is still in the battle.
func (m *match) alive(id string) bool {
	u, ok := m.units()[id]
	return ok && u["destroyed"] != true
}

// placed are the table's (or board's) units by id: where each stands.
func (m *match) placed() map[string]map[string]any {
	v := m.view()
	table, ok := v["table"].(map[string]any)
	if !ok {
		table = v["board"].(map[string]any)
	}
	out := map[string]map[string]any{}
	for _, u := range table["units"].([]any) {
		out[u.(map[string]any)["id"].(string)] = u.(map[string]any)
	}
	return out
}

// play plays rounds rounds of the sides' turns, in order (turn plays side's turn of the
// round, its end included), until the battle is over; then finish checks its end.
func (m *match) play(rounds int, sides []string, turn func(round int, side string)) {
	m.t.Helper()
	for round := range rounds {
		for _, side := range sides {
			if m.over() {
				break
			}
			turn(round, side)
		}
	}
	m.finish()
}

// deploy ends a battle's deployment as the examples' battles do: first ends its own, then
// second places the unit its action deploy (a body) places and ends its own.
func (m *match) deploy(first, second, deploy string) {
	m.act(first, "{type: end_deployment}")
	m.act(second, deploy)
	m.act(second, "{type: end_deployment}")
}

// over reports whether the battle has ended.
func (m *match) over() bool { return m.view()["result"].(map[string]any)["over"] == true }

// shoot sends side's first action of candidates that the rules allow now, and says
// which, "" for none. who is the unit, squad or battery it counts as fired for.
func (m *match) shoot(side, who string, candidates ...string) string {
	m.t.Helper()
	if m.over() {
		return ""
	}
	for _, body := range candidates {
		if m.allowed(body) {
			m.act(side, body)
			m.fired[who] = true
			return body
		}
	}
	return ""
}

// end ends side's turn, phase or step with body, unless the battle is over: a shot may
// leave a side with no unit.
func (m *match) end(side, body string) {
	m.t.Helper()
	if !m.over() {
		m.act(side, body)
	}
}

// finish checks the end of the battle: over, ended by the server with its seed revealed,
// for the reason the battle gives (a side with no unit left, else its last round ended);
// each side's score is the points of the enemy units it destroyed (the scenario's end:
// section, read here on its own) and of the objectives it holds; the winner has the best
// score; the log verifies from the seed; every entry of the log is told in words. It
// returns the result.
func (m *match) finish() map[string]any {
	m.t.Helper()
	v := m.view()
	r := v["result"].(map[string]any)
	if r["over"] != true {
		m.t.Fatalf("the result: %v; want over", r)
	}
	if v["ended"] != true || v["seed"] == nil {
		m.t.Errorf("the battle is over but not ended: ended %v, seed %v", v["ended"], v["seed"])
	}
	left := map[string]int{}
	for _, u := range v["state"].(map[string]any)["units"].([]any) {
		u := u.(map[string]any)
		left[u["side"].(string)] += 0
		if u["destroyed"] != true {
			left[u["side"].(string)]++
		}
	}
	reason := fmt.Sprintf("round %v, the last, has ended", r["last_round"])
	for _, side := range slices.Sorted(maps.Keys(left)) {
		if left[side] == 0 {
			reason = side + " has no unit left"
		}
	}
	if r["reason"] != reason {
		m.t.Errorf("the battle ended because %q; its state says %q", r["reason"], reason)
	}
	doc, err := scenario.Parse("battle.yaml", m.doc)
	if err != nil {
		m.t.Fatal(err)
	}
	var end scenario.EndSpec
	if err := doc.Section("end").Decode(&end); err != nil {
		m.t.Fatal(err)
	}
	want := map[string]float64{}
	units := v["state"].(map[string]any)["units"].([]any)
	for _, u := range units {
		want[u.(map[string]any)["side"].(string)] = 0
	}
	for _, u := range units {
		u := u.(map[string]any)
		if u["destroyed"] != true {
			continue
		}
		p, ok := end.Points[u["id"].(string)]
		if !ok {
			p = volley.DefaultPoints
			if end.Destroyed != nil {
				p = *end.Destroyed
			}
		}
		for side := range want {
			if side != u["side"] {
				want[side] += p
			}
		}
	}
	for _, o := range r["objectives"].([]any) {
		o := o.(map[string]any)
		if held, _ := o["held"].(string); held != "" {
			want[held] += o["points"].(float64)
		}
	}
	scores := r["scores"].(map[string]any)
	best, winner := math.Inf(-1), ""
	for _, side := range slices.Sorted(maps.Keys(want)) {
		if scores[side] != want[side] {
			m.t.Errorf("%s scores %v; the units it destroyed and the objectives it holds make %g", side, scores[side], want[side])
		}
		switch {
		case want[side] > best:
			best, winner = want[side], side
		case want[side] == best:
			winner = ""
		}
	}
	if got, _ := r["winner"].(string); got != winner {
		m.t.Errorf("winner %q; the scores %v make %q", got, scores, winner)
	}
	if _, vv := call(m.t, "GET", m.base+"/api/battles/"+m.id+"/verify", watch(m.id), "", nil); vv["verified"] != true || vv["actions"] != float64(m.actions) {
		m.t.Errorf("verify: %v; want verified, %d actions", vv, m.actions)
	}
	_, lg := call(m.t, "GET", m.base+"/api/battles/"+m.id+"/log", watch(m.id), "", nil)
	for _, e := range lg["actions"].([]any) {
		e := e.(map[string]any)
		words, _ := e["words"].([]any)
		if len(words) == 0 {
			m.t.Errorf("log entry %v (%s) has no words", e["seq"], e["action"])
		}
		for _, w := range words {
			if s := w.(string); s == "" || strings.ContainsAny(s, "{}[]") {
				m.t.Errorf("log entry %v (%s): words %q", e["seq"], e["action"], s)
			}
		}
		var told []string
		for _, w := range words {
			told = append(told, fmt.Sprint(w))
		}
		m.t.Logf("%v %s: %s", e["seq"], e["side"], strings.Join(told, " | "))
	}
	m.t.Logf("%s; scores %v, winner %q; moved %v; fired %v", r["reason"], scores, r["winner"], slices.Sorted(maps.Keys(m.moved)), slices.Sorted(maps.Keys(m.fired)))
	return r
}

// at is a point as a scenario writes it.
func at(p [2]float64) string { return fmt.Sprintf("[%g, %g]", p[0], p[1]) }

// TestPlayBattleDropzone plays the Dropzone battle to the end of its fourth round. Each
// squad moves within its weapons' M&F and fires, each weapon at the first enemy it may;
// a scout walker's move is taken back and made again; in the last round the Sabres run
// for the crossroads, too far to fire.
func TestPlayBattleDropzone(t *testing.T) {
	m := newMatch(t, "dropzone", "")
	m.act("UCM", "{type: deploy, unit: walker-2, at: [42, 6], facing: 0}")
	m.deploy("UCM", "Scourge", "{type: deploy, unit: beast-2, at: [40, 42], facing: 180}")
	type squad struct {
		side, name string
		units      []string
		weapons    []string
		enemies    []string
	}
	squads := []squad{
		{"UCM", "sabres", []string{"sabre-1", "sabre-2", "sabre-3"}, []string{"Avenger Railgun", "Equalizer Machinegun"}, []string{"beast-1", "beast-2", "hunter-1", "hunter-2"}},
		{"UCM", "scouts", []string{"walker-1", "walker-2"}, []string{"Scout Cannon"}, []string{"beast-2", "beast-1", "hunter-2", "hunter-1"}},
		{"Scourge", "hunters", []string{"hunter-1", "hunter-2"}, []string{"Plasma Cannon"}, []string{"sabre-1", "sabre-2", "sabre-3", "walker-1", "walker-2"}},
		{"Scourge", "beasts", []string{"beast-1", "beast-2"}, []string{"Plasma Lance"}, []string{"sabre-1", "sabre-2", "sabre-3", "walker-1", "walker-2"}},
	}
	// Where each unit goes in each round: a Sabre 4" or less, to fire its weapons of M&F
	// 4", but for the run to the crossroads in the last round; a path of two legs round
	// the ruin.
	paths := []map[string][][2]float64{
		{"sabre-1": {{19, 8}}, "sabre-2": {{21, 8}}, "sabre-3": {{28, 8}}, "walker-1": {{40, 12}}, "walker-2": {{44, 13}},
			"hunter-1": {{20, 37}}, "hunter-2": {{28, 37}}, "beast-1": {{12, 38}}, "beast-2": {{40, 37}}},
		{"sabre-1": {{18, 11.5}}, "sabre-2": {{20.2, 11.5}}, "sabre-3": {{28, 11.5}}, "walker-1": {{42, 19}}, "walker-2": {{46, 20}},
			"hunter-1": {{20, 31}}, "hunter-2": {{28, 31}}, "beast-1": {{15, 33}}, "beast-2": {{42, 33}}},
		{"sabre-1": {{18, 15}}, "sabre-2": {{20, 15.5}}, "sabre-3": {{27.5, 16}}, "walker-1": {{41, 26}}, "walker-2": {{45, 27}},
			"hunter-1": {{22, 27}}, "hunter-2": {{26, 27}}, "beast-1": {{17, 29}}, "beast-2": {{44, 34}}},
		{"sabre-1": {{20.5, 21.5}}, "sabre-2": {{20, 18}, {22, 20.5}}, "sabre-3": {{26.8, 19.9}}, "walker-1": {{41, 30}}, "walker-2": {{45, 31}},
			"hunter-1": {{23, 25.5}}, "hunter-2": {{25.5, 25.5}}, "beast-1": {{19, 27}}, "beast-2": {{44, 32}}},
	}
	m.play(len(paths), []string{"UCM", "Scourge"}, func(round int, side string) {
		for _, s := range squads {
			if s.side != side {
				continue
			}
			for _, u := range s.units {
				if !m.alive(u) {
					continue
				}
				var legs []string
				for _, p := range paths[round][u] {
					legs = append(legs, at(p))
				}
				move := fmt.Sprintf("{type: move, unit: %s, path: [%s]}", u, strings.Join(legs, ", "))
				m.act(side, move)
				if round == 0 && u == "walker-1" {
					m.act(side, "type: take_back")
					m.act(side, move)
				}
				m.moved[u] = true
			}
			// Each weapon of each unit at the first enemy it may fire at.
			var decls []string
			for _, u := range s.units {
				for _, w := range s.weapons {
					for _, e := range s.enemies {
						d := fmt.Sprintf("{unit: %s, weapon: %s, target: %s}", u, w, e)
						if m.alive(e) && m.allowed(fmt.Sprintf("{squad: %s, declarations: [%s]}", s.name, d)) {
							decls = append(decls, d)
							m.fired[u] = true
							break
						}
					}
				}
			}
			if len(decls) > 0 && !m.over() {
				m.act(side, fmt.Sprintf("{squad: %s, declarations: [%s]}", s.name, strings.Join(decls, ", ")))
			}
		}
		m.end(side, "type: end_turn")
	})
}

// TestPlayBattleWarfare plays the Warfare battle to the end of its fifth round: each unit
// moves (ranges are measured where it stands) and fires all its stands at the first
// target of its own choosing in range.
func TestPlayBattleWarfare(t *testing.T) {
	m := newMatch(t, "warfare", "")
	m.deploy("English", "French", "{type: deploy, unit: bidowers, at: [5, 16]}")
	order := map[string][]string{"English": {"longbowmen", "archers", "crossbowmen", "hobilars"}, "French": {"genoese-1", "genoese-2", "sergeants", "bidowers"}}
	targets := map[string][]string{
		"longbowmen": {"genoese-1", "genoese-2", "sergeants", "bidowers"}, "archers": {"genoese-2", "genoese-1", "sergeants", "bidowers"},
		"crossbowmen": {"sergeants", "genoese-2", "genoese-1", "bidowers"}, "hobilars": {"bidowers", "genoese-1", "genoese-2", "sergeants"},
		"genoese-1": {"archers", "longbowmen", "crossbowmen", "hobilars"}, "genoese-2": {"archers", "crossbowmen", "longbowmen", "hobilars"},
		"sergeants": {"crossbowmen", "archers", "longbowmen", "hobilars"}, "bidowers": {"hobilars", "longbowmen", "archers", "crossbowmen"},
	}
	// Where each unit stands after its move in each round; the last rounds hold.
	places := []map[string][2]float64{
		{"longbowmen": {12, 6}, "archers": {19, 6}, "crossbowmen": {26, 6}, "hobilars": {5, 8},
			"genoese-1": {14, 14}, "genoese-2": {22, 14}, "sergeants": {28, 12}, "bidowers": {5, 13}},
		{"longbowmen": {14, 8}, "archers": {18, 8}, "crossbowmen": {24, 8}, "hobilars": {4.5, 8.5},
			"genoese-1": {15.5, 12}, "genoese-2": {20.5, 12}, "sergeants": {25, 11}, "bidowers": {5, 11.5}},
		{"longbowmen": {16, 9}, "archers": {18, 8}, "crossbowmen": {22.5, 9.5}, "hobilars": {4.5, 9},
			"genoese-1": {16, 11.8}, "genoese-2": {19.5, 12.3}, "sergeants": {24.5, 11.5}, "bidowers": {5, 11.5}},
	}
	m.play(5, []string{"English", "French"}, func(round int, side string) {
		for _, u := range order[side] {
			if !m.alive(u) {
				continue
			}
			p := places[min(round, len(places)-1)][u]
			if here := m.placed()[u]; here["x"] != p[0] || here["y"] != p[1] {
				m.act(side, fmt.Sprintf("{type: move, unit: %s, path: [%s]}", u, at(p)))
				m.moved[u] = true
			}
			var fires []string
			for _, e := range targets[u] {
				if m.alive(e) {
					fires = append(fires, fmt.Sprintf("{unit: %s, targets: [{unit: %s}]}", u, e))
				}
			}
			m.shoot(side, u, fires...)
		}
		m.end(side, "type: end_turn")
	})
}

// TestPlayBattleWarEngine plays the War Engine battle to the end of its fourth round,
// each side's turn the manual's three phases: its units move square by square (Phase I,
// turning to face the enemy), each declares a target at the first enemy it may aim at
// (Phase II), and every declared weapon fires (Phase III).
func TestPlayBattleWarEngine(t *testing.T) {
	m := newMatch(t, "warengine", "")
	m.deploy("trenchers", "raiders", "{type: deploy, unit: raider-3, at: [21, 2], facing: S}")
	order := map[string][]string{"trenchers": {"murphy", "hale", "cole", "grenadier"}, "raiders": {"chief", "raider-1", "raider-2", "raider-3"}}
	weapon := map[string]string{"murphy": "HMG Model 50", "hale": "Rifle", "cole": "Rifle", "grenadier": "Grenade Launcher",
		"chief": "Rifle", "raider-1": "Carbine", "raider-2": "Carbine", "raider-3": "Carbine"}
	// Where each unit moves in each round, and how it faces; a unit not named stands and
	// aims (Murphy's repeating HMG picks once then).
	type step struct {
		to     [2]int
		facing string
	}
	moves := []map[string]step{
		{"hale": {[2]int{12, 15}, "N"}, "cole": {[2]int{17, 14}, "N"}, "grenadier": {[2]int{20, 15}, "NW"},
			"chief": {[2]int{12, 4}, "S"}, "raider-1": {[2]int{6, 5}, "SE"}, "raider-2": {[2]int{14, 6}, "S"}, "raider-3": {[2]int{21, 5}, "SW"}},
		{"hale": {[2]int{11, 12}, "N"}, "cole": {[2]int{18, 12}, "N"}, "grenadier": {[2]int{20, 12}, "NW"},
			"raider-1": {[2]int{8, 8}, "SE"}, "raider-2": {[2]int{13, 8}, "S"}, "raider-3": {[2]int{20, 8}, "SW"}},
		{"murphy": {[2]int{8, 14}, "N"}, "hale": {[2]int{11, 10}, "N"}, "cole": {[2]int{18, 10}, "N"}, "grenadier": {[2]int{19, 10}, "NW"},
			"chief": {[2]int{11, 8}, "S"}, "raider-1": {[2]int{9, 9}, "SE"}, "raider-2": {[2]int{13, 9}, "S"}, "raider-3": {[2]int{19, 8}, "SW"}},
		{},
	}
	m.play(len(moves), []string{"trenchers", "raiders"}, func(round int, side string) {
		enemy := order["raiders"]
		if side == "raiders" {
			enemy = order["trenchers"]
		}
		// Phase I: each unit steps to the next square towards its place, one
		// square at a time (a diagonal step is one square).
		for _, u := range order[side] {
			s, ok := moves[round][u]
			if !ok || !m.alive(u) {
				continue
			}
			here := m.placed()[u]
			x, y := int(here["x"].(float64)), int(here["y"].(float64))
			var path []string
			for x != s.to[0] || y != s.to[1] {
				x += cmpInt(s.to[0], x)
				y += cmpInt(s.to[1], y)
				path = append(path, fmt.Sprintf("[%d, %d]", x, y))
			}
			m.act(side, fmt.Sprintf("{type: move, unit: %s, path: [%s], facing: %s}", u, strings.Join(path, ", "), s.facing))
			m.moved[u] = true
		}
		m.end(side, "type: end_phase")
		// Phase II: a target for each unit, the first enemy its weapon may aim at.
		var declared []string
		for _, u := range order[side] {
			if !m.alive(u) {
				continue
			}
			for _, e := range enemy {
				d := fmt.Sprintf("{type: declare, unit: %s, weapon: %s, target: %s}", u, weapon[u], e)
				if m.alive(e) && m.allowed(d) {
					m.act(side, d)
					declared = append(declared, u)
					break
				}
			}
		}
		m.end(side, "type: end_phase")
		// Phase III: every declared weapon fires, if its unit still stands.
		for _, u := range declared {
			if m.alive(u) && !m.over() {
				m.act(side, fmt.Sprintf("{type: fire, unit: %s, weapon: %s}", u, weapon[u]))
				m.fired[u] = true
			}
		}
		m.end(side, "type: end_phase")
	})
}

// cmpInt is the step from b towards a: -1, 0 or 1.
func cmpInt(a, b int) int {
	switch {
	case a > b:
		return 1
	case a < b:
		return -1
	}
	return 0
}

// TestPlayBattleRepublique plays the Republique battle to the end of its fourth round:
// in each player turn the phasing side maneuvers (a battery prolonging, the cavalry riding
// across a battery's front, which answers with passing fire or lets it pass), every
// unopposed skirmish marker of both sides fires at the first enemy it may, and every
// battery of both sides fires at its main target where the rules let it.
func TestPlayBattleRepublique(t *testing.T) {
	m := newMatch(t, "republique", "")
	m.deploy("French", "Austrian", "{type: deploy, unit: cav, at: [14, 70], facing: 180}")
	units := map[string][]string{"French": {"fb1", "fb2", "ligne-1", "ligne-2", "leg", "hussars"}, "Austrian": {"ab1", "ab2", "IR3", "IR4", "grenz", "cav"}}
	batteries := map[string][]string{"French": {"fb1", "fb2"}, "Austrian": {"ab1", "ab2"}}
	markers := map[string][]string{"French": {"s1", "s2"}, "Austrian": {"k1", "k2"}}
	other := map[string]string{"French": "Austrian", "Austrian": "French"}
	// Where each unit's centre goes in its side's maneuver step of each round (cm).
	moves := []map[string][2]float64{
		{"ligne-1": {62, 30}, "ligne-2": {102, 28}, "hussars": {8, 36},
			"IR3": {64, 54}, "IR4": {26, 54}, "cav": {14, 54}},
		{"fb1": {40, 8}, "fb2": {80, 8}, "ligne-1": {61, 40}, "ligne-2": {102, 38}, "hussars": {10, 46}, "leg": {26, 26},
			"IR3": {62, 46}, "IR4": {26, 50}, "cav": {42, 54}, "grenz": {108, 56}},
		{"ligne-2": {100, 42},
			"ab1": {46, 72}, "ab2": {94, 72}, "cav": {52, 48}, "grenz": {104, 50}},
		{},
	}
	// answer lets the side play waits on answer a pause for passing fire: the first
	// battery offered that may fire does, else the move passes.
	answer := func() {
		for {
			turn := m.view()["state"].(map[string]any)["turn"].(map[string]any)
			if turn["phase"] != "passing fire" {
				return
			}
			side := turn["side"].(string)
			var offers []string
			for _, a := range turn["actions"].([]any) {
				if a.(map[string]any)["type"] == "passing_fire" {
					body, _ := json.Marshal(a)
					offers = append(offers, string(body))
				}
			}
			if m.shoot(side, "passing fire", offers...) == "" {
				m.act(side, "type: decline")
			}
		}
	}
	m.play(len(moves), []string{"French", "Austrian"}, func(round int, side string) {
		for _, u := range units[side] {
			p, ok := moves[round][u]
			if !ok || !m.alive(u) {
				continue
			}
			m.act(side, fmt.Sprintf("{type: move, unit: %s, path: [%s]}", u, at(p)))
			m.moved[u] = true
			answer()
		}
		m.end(side, "type: end_step")
		for _, s := range []string{side, other[side]} {
			for _, k := range markers[s] {
				var fires []string
				for _, e := range units[other[s]] {
					if m.alive(e) {
						fires = append(fires, fmt.Sprintf("{type: skirmish, marker: %s, target: %s}", k, e))
					}
				}
				m.shoot(s, k, fires...)
			}
		}
		m.end(side, "type: end_step")
		for _, s := range []string{side, other[side]} {
			for _, b := range batteries[s] {
				if m.alive(b) {
					m.shoot(s, b, fmt.Sprintf("{type: fire, batteries: [%s]}", b))
				}
			}
		}
		m.end(side, "type: end_step")
	})
}

// TestPlayBattleWarStrike plays the WarStrike battle to the end of its fourth round: each
// unit chooses its action with its move, its models moving one by one, the front first,
// and then shoots at the first enemy unit its leader sees and its models can reach,
// as the action it moved with allows.
func TestPlayBattleWarStrike(t *testing.T) {
	m := newMatch(t, "warstrike", "4")
	m.deploy("Ironclad", "Verdant", "{type: deploy, unit: raiders, at: [19, 30]}")
	units := map[string][]string{"Ironclad": {"alpha", "bravo", "watchers"}, "Verdant": {"rangers", "raiders", "gunners"}}
	type order struct {
		action string
		dx, dy float64
	}
	orders := []map[string]order{
		{"alpha": {"shooting_advance", 0, 4}, "bravo": {"shooting_advance", 1, 3.8}, "watchers": {"open_fire", 0, 0},
			"rangers": {"shooting_advance", 2, -3.4}, "raiders": {"open_fire", 0, 0}, "gunners": {"shooting_advance", 0, -4}},
		{"alpha": {"shooting_advance", -1, 3.8}, "bravo": {"shooting_advance", 0, 4}, "watchers": {"shooting_advance", -2, 3.4},
			"rangers": {"shooting_advance", 2, -3.4}, "raiders": {"shooting_advance", 1, -3.8}, "gunners": {"shooting_advance", 0, -3}},
		{"alpha": {"shooting_advance", 0, 3.5}, "bravo": {"shooting_advance", 0, 4}, "watchers": {"open_fire", 0, 0},
			"rangers": {"shooting_advance", 0, -3}, "raiders": {"shooting_advance", 0, -3.5}, "gunners": {"shooting_advance", 0, -3}},
		{"alpha": {"shooting_advance", 1, 2}, "bravo": {"shooting_advance", 0, 2}, "watchers": {"open_fire", 0, 0},
			"rangers": {"shooting_advance", 0, -3}, "raiders": {"shooting_advance", 0, -2}, "gunners": {"shooting_advance", 0, -2}},
	}
	m.play(len(orders), []string{"Ironclad", "Verdant"}, func(round int, side string) {
		enemy := units["Verdant"]
		if side == "Verdant" {
			enemy = units["Ironclad"]
		}
		for _, u := range units[side] {
			if !m.alive(u) {
				continue
			}
			o := orders[round][u]
			// The unit's living models, the front first along the move.
			var models []map[string]any
			for _, p := range m.placed() {
				if p["squad"] == u && p["destroyed"] != true {
					models = append(models, p)
				}
			}
			slices.SortFunc(models, func(a, b map[string]any) int {
				ka := a["x"].(float64)*o.dx + a["y"].(float64)*o.dy
				kb := b["x"].(float64)*o.dx + b["y"].(float64)*o.dy
				if c := -cmp.Compare(ka, kb); c != 0 {
					return c
				}
				return strings.Compare(a["id"].(string), b["id"].(string))
			})
			var paths []string
			for _, p := range models {
				if o.dx != 0 || o.dy != 0 {
					paths = append(paths, fmt.Sprintf("{id: %s, path: [[%g, %g]]}", p["id"], p["x"].(float64)+o.dx, p["y"].(float64)+o.dy))
				}
			}
			m.act(side, fmt.Sprintf("{type: move, unit: %s, action: %s, models: [%s]}", u, o.action, strings.Join(paths, ", ")))
			if len(paths) > 0 {
				m.moved[u] = true
			}
			var shots []string
			for _, e := range enemy {
				if m.alive(e) {
					shots = append(shots, fmt.Sprintf("{unit: %s, targets: [{unit: %s}]}", u, e))
				}
			}
			m.shoot(side, u, shots...)
		}
		m.end(side, "type: end_turn")
	})
}
