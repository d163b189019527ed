package warengine

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/scenario"
)

// sys is the War Engine as its tests load it.
var sys = rulestest.System[*Battle, *Order]{Name: "warengine", Ruleset: Ruleset{}}

// TestMurphy is the seed's worked example: 40 + 20 aiming - 10/2 bushes = 55, and 22
// squares give a MaxDistanceMissedBy of 4, a 9×9 area.
func TestMurphy(t *testing.T) {
	b, o := sys.LoadFile(t, "murphy.yaml")
	odds := rulestest.Odds(t, b, o)
	for name, want := range map[string]float64{"chance_to_hit": 55, "max_distance_missed_by": 4, "area_width": 9, "p_pass": 0.55, "picks": 1} {
		if got := odds.Values[name]; got != want {
			t.Errorf("values.%s = %v; want %v", name, got, want)
		}
	}
	s, _, _ := b.shotFor(o)
	first := b.planPick(s, s.target, 0, nil)
	if first.nArea != 81 {
		t.Errorf("area has %d squares; want 81", first.nArea)
	}
	// The transport's 9 squares and the two troopers; the targeted centre counts twice.
	if len(first.unitSq) != 11 || first.totalW != 12 {
		t.Errorf("unit squares %d with weight %d; want 11 and 12", len(first.unitSq), first.totalW)
	}
	sum := 0.0
	for _, sq := range odds.Squares {
		sum += sq.P
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("landing probabilities sum to %v", sum)
	}
	// Everything that lands on the transport is stopped by its nearest row.
	for _, sq := range odds.Squares {
		if sq.Y == 7 && sq.X >= 10 && sq.X <= 12 || sq.Y == 8 && sq.X >= 10 && sq.X <= 12 {
			t.Errorf("shot lands on %d,%d behind the transport's front row", sq.X, sq.Y)
		}
	}
}

// TestMurphyPass: with four unit squares in the area, one the targeted enemy, a pass
// picks the targeted square with 2/5 and each other with 1/5.
func TestMurphyPass(t *testing.T) {
	b, o := sys.LoadFile(t, "murphy-pass.yaml")
	s, _, _ := b.shotFor(o)
	p := b.planPick(s, s.target, 0, nil)
	if len(p.unitSq) != 4 {
		t.Fatalf("%d unit squares in the area; want 4", len(p.unitSq))
	}
	for i, q := range p.unitSq {
		got := float64(p.unitW[i]) / float64(p.totalW)
		want := 0.2
		if q == s.target {
			want = 0.4
		}
		if math.Abs(got-want) > 1e-15 {
			t.Errorf("given a pass, %v has %v; want %v", q, got, want)
		}
	}
	// The trace lists the same weights, whatever the d100 says.
	out := rulestest.MustResolve(t, b, o, dice.ForAction(7, 0))
	found := false
	for _, st := range out.Trace {
		if w, ok := st.Inputs["unit squares if passed"].(string); ok {
			found = true
			if strings.Count(w, "(40%)") != 1 || strings.Count(w, "(20%)") != 3 || !strings.Contains(w, "11,8 2/5 (40%)") {
				t.Errorf("trace weights %q; want 11,8 at 40%% and three at 20%%", w)
			}
		}
	}
	if !found {
		t.Error("the trace does not show the pick's weights")
	}
}

// TestBolter is the seed's damage example, step by step: 48, 48, 98, 48, 18.
func TestBolter(t *testing.T) {
	b, o := sys.LoadFile(t, "bolter.yaml")
	odds := rulestest.Odds(t, b, o)
	for name, want := range map[string]float64{
		"adjusted_strength": 48, "obstacle_modifier": 0, "strength_after_obstacle": 48,
		"damage_roll": 98, "toughness": 50, "cover_modifier": 30, "chance_to_damage": 18,
	} {
		if got := odds.Values[name]; got != want {
			t.Errorf("values.%s = %v; want %v", name, got, want)
		}
	}
	s, _, _ := b.shotFor(o)
	victim, _ := b.Unit("behind-the-tree")
	c := b.checkDamage(s, s.target, victim, s.target, true)
	var got []string
	for _, st := range c.steps {
		switch st.Rule {
		case "adjusted strength", "obstacle modifier", "base damage roll", "toughness", "cover":
			got = append(got, st.Rule+"="+formatResult(st.Result))
		}
	}
	want := "adjusted strength=48 obstacle modifier=48 base damage roll=98 toughness=48 cover=18"
	if strings.Join(got, " ") != want {
		t.Errorf("trace: %s\nwant:  %s", strings.Join(got, " "), want)
	}
	if c.direction != "front" {
		t.Errorf("the shot comes from the %s; want front", c.direction)
	}
}

func formatResult(v any) string {
	f, ok := v.(float64)
	if !ok {
		return fmt.Sprint(v)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// TestCubicles: a strength-50 shotgun through a wall of visibility 100 and firepower
// 20 keeps 80%: 40.
func TestCubicles(t *testing.T) {
	b, o := sys.LoadFile(t, "cubicles.yaml")
	odds := rulestest.Odds(t, b, o)
	if got := odds.Values["adjusted_strength"]; got != 50 {
		t.Errorf("adjusted_strength = %v; want 50", got)
	}
	if got := odds.Values["obstacle_modifier"]; got != 20 {
		t.Errorf("obstacle_modifier = %v; want 20", got)
	}
	if got := odds.Values["strength_after_obstacle"]; got != 40 {
		t.Errorf("strength_after_obstacle = %v; want 40", got)
	}
	if odds.Aims[0].Status != volley.StatusBlocked {
		t.Errorf("aim through an opaque wall: %s; want blocked", odds.Aims[0].Status)
	}
}

// TestCoverOptions reads the bolter example under each cover rule.
func TestCoverOptions(t *testing.T) {
	for cover, want := range map[Cover]float64{CoverInFront: 18, CoverFacing: 18, CoverOccupied: 48, CoverOff: 48} {
		b, o := sys.LoadFile(t, "bolter.yaml")
		b.opts.cover = cover
		if got := rulestest.Odds(t, b, o).Values["chance_to_damage"]; got != want {
			t.Errorf("cover %s: chance_to_damage %v; want %v", cover, got, want)
		}
	}
}

// TestMoraleReadings checks the courage threshold and its sign option.
func TestMoraleReadings(t *testing.T) {
	b, _ := sys.LoadFile(t, "bolter.yaml")
	u, _ := b.Unit("in-the-open")
	tests := []struct {
		high   bool
		morale int
		status MoraleStatus
		want   int
	}{
		{false, 0, StatusNormal, 0},
		{false, -50, StatusNormal, CourageModifier},
		{false, -49, StatusNormal, 0},
		{false, 60, StatusNormal, 0},
		{true, 60, StatusNormal, CourageModifier},
		{true, -60, StatusNormal, 0},
		{false, -60, StatusBadlyShaken, PanicModifier},
		{true, 60, StatusPanicked, PanicModifier},
	}
	for _, tt := range tests {
		b.opts.courageHigh = tt.high
		u.Morale, u.Status = tt.morale, tt.status
		if got, _ := b.moraleModifier(u); got != tt.want {
			t.Errorf("courage_when high=%v, morale %d, %s: %d; want %d", tt.high, tt.morale, tt.status, got, tt.want)
		}
	}
}

// TestEnvelopeCorrection: a declaration beyond range or outside the arc moves to the
// nearest square inside both.
func TestEnvelopeCorrection(t *testing.T) {
	b, _ := sys.LoadFile(t, "murphy.yaml")
	u, _ := b.Unit("murphy")
	l := u.loadout("HMG Model 50")
	s := b.newShot(u, l, geom.Sq(11, 0), false)
	tests := []struct {
		target, want geom.Square
	}{
		{geom.Sq(11, 8), geom.Sq(11, 8)},   // inside: unchanged
		{geom.Sq(11, 33), geom.Sq(11, 29)}, // behind him: out of the 90° front arc
		{geom.Sq(0, 30), geom.Sq(6, 25)},   // beside him: the nearest square on the arc's edge
	}
	for _, tt := range tests {
		got, ok := b.correct(s, tt.target)
		if !ok || got != tt.want {
			t.Errorf("correct(%v) = %v, %v; want %v", tt.target, got, ok, tt.want)
		}
		if ok && !b.inEnvelope(s, got) {
			t.Errorf("correct(%v) = %v, outside the envelope", tt.target, got)
		}
	}
}

// TestTurnsAndGroups walks a turn: declare, a wrong group, change group, fire in the
// wrong phase, end the phase, fire, end the turn. Refused orders change nothing.
func TestTurnsAndGroups(t *testing.T) {
	b, _ := sys.Load(t, turnScenario)
	steps := []struct {
		src  string
		code string // "" if accepted
	}{
		{"{type: declare, unit: a, weapon: Rifle, target: [5, 1]}", ""},
		{"{type: declare, unit: a, weapon: Grenade, target: [5, 1]}", volley.EINVALID}, // group 2 while 1 is chosen
		{"{type: fire, unit: a, weapon: Rifle}", volley.ECONFLICT},                     // target phase
		{"{type: declare, unit: c, weapon: Rifle, target: [1, 1]}", volley.ECONFLICT},  // not c's side's turn
		{"{type: declare, unit: a, weapon: Rifle, target: [1, 2]}", volley.EINVALID},   // a friend without friendly
		{"{type: group, unit: a, group: 2}", ""},
		{"{type: declare, unit: a, weapon: Grenade, target: [5, 1]}", ""},
		{"{type: end_phase}", ""},
		{"{type: declare, unit: a, weapon: Grenade, target: [5, 2]}", volley.ECONFLICT}, // fire phase
		{"{type: fire, unit: a, weapon: Rifle}", volley.EINVALID},                       // not in group 2
		{"{type: fire, unit: a, weapon: Grenade}", ""},
		{"{type: fire, unit: a, weapon: Grenade}", volley.EINVALID}, // fired already
		{"{type: end_phase}", ""},
		{"{type: declare, unit: c, weapon: Rifle, target: [1, 1]}", ""},
	}
	for n, st := range steps {
		a := rulestest.Decode(t, b, st.src)
		before := b.State()
		_, err := b.Resolve(context.Background(), a, dice.ForAction(5, n))
		if got := volley.ErrorCode(err); got != st.code {
			t.Fatalf("step %d %s: error %v (code %q); want code %q", n, st.src, err, got, st.code)
		}
		if err != nil && !sameState(before, b.State()) {
			t.Fatalf("step %d %s: refused, but the battle changed", n, st.src)
		}
	}
	if turn := b.State().Turn; turn.Side != "red" || turn.Phase != string(PhaseTarget) {
		t.Errorf("turn = %+v; want red's target phase", turn)
	}
}

func sameState(a, b volley.State) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

const turnScenario = `ruleset: warengine
map:
  legend: {".": {name: open}}
  rows: |
    ........
    ........
    ........
weapons:
  - {name: Rifle, arc: 90, short: {range: 5}, medium: {range: 10}, long: {range: 20}, strength: 30, damage: [1, 1]}
  - {name: Grenade, arc: 360, short: {range: 3}, medium: {range: 6}, long: {range: 8}, strength: 40, damage: [1, 2], blast: 1, ignores_terrain: true}
types:
  - {name: Soldier, weapon_skill: 50, hits: 2, weapons: [{weapon: Rifle, group: 1}, {weapon: Grenade, group: 2}]}
units:
  - {id: a, type: Soldier, side: blue, at: [1, 1], facing: E}
  - {id: b, type: Soldier, side: blue, at: [1, 2], facing: E}
  - {id: c, type: Soldier, side: red, at: [6, 1], facing: W}
`

func TestNeed(t *testing.T) {
	tests := []struct {
		pct  float64
		want int
	}{{29, 29}, {57, 57}, {58, 58}, {0.29 * 100, 29}, {52.5, 52}, {55, 55}, {-3, 0}, {0, 0}, {100, 100}, {130, 100}}
	for _, tt := range tests {
		if got := need(tt.pct); got != tt.want {
			t.Errorf("need(%v) = %d; want %d", tt.pct, got, tt.want)
		}
	}
}

// TestDeclaredTargetsFollowTheRules: targets carried in a scenario obey the same rules
// as declared ones: corrected onto the envelope, never the firer's own square.
func TestDeclaredTargetsFollowTheRules(t *testing.T) {
	src := strings.Replace(turnScenario, "  - {id: a, type: Soldier, side: blue, at: [1, 1], facing: E}",
		"  - {id: a, type: Soldier, side: blue, at: [1, 1], facing: E, targets: [{weapon: Rifle, at: [0, 1]}]}", 1)
	b, _ := sys.Load(t, src)
	u, _ := b.Unit("a")
	if d := u.declared("Rifle"); d == nil || !b.inEnvelope(b.newShot(u, u.loadout("Rifle"), d.Target, false), d.Target) {
		t.Errorf("a target behind the firer was kept as %+v; want it corrected into the arc", d)
	}
	src = strings.Replace(turnScenario, "  - {id: a, type: Soldier, side: blue, at: [1, 1], facing: E}",
		"  - {id: a, type: Soldier, side: blue, at: [1, 1], facing: E, targets: [{weapon: Rifle, at: [1, 1], friendly: true}]}", 1)
	doc, _ := scenario.Parse("own.yaml", []byte(src))
	if _, _, err := (Ruleset{}).Load(doc); err == nil || !strings.Contains(err.Error(), "cannot target its own square") {
		t.Errorf("a unit targeting its own square: %v", err)
	}
}

// TestCorrection: a target outside the envelope goes to the nearest square inside it, as
// the manual's automatic correction does, whatever stands there. From a at 1,1 facing
// east, 0,2 is out of the arc and the nearest square inside it is 2,2, where friend b
// stands. With correct_around_friends (volley's option) the correction goes on to 2,1,
// unless the declaration targets friends.
func TestCorrection(t *testing.T) {
	b, _ := sys.Load(t, strings.Replace(turnScenario, "{id: b, type: Soldier, side: blue, at: [1, 2]", "{id: b, type: Soldier, side: blue, at: [2, 2]", 1))
	u, _ := b.Unit("a")
	s := b.newShot(u, u.loadout("Rifle"), geom.Sq(0, 2), false)
	if c, ok := b.correct(s, geom.Sq(0, 2)); !ok || c != geom.Sq(2, 2) {
		t.Errorf("corrected to %v, %v; want 2,2", c, ok)
	}
	b.opts.correctAroundFriends = true
	if c, ok := b.correct(s, geom.Sq(0, 2)); !ok || c != geom.Sq(2, 1) {
		t.Errorf("around friends, corrected to %v, %v; want 2,1", c, ok)
	}
	s.friendly = true
	if c, ok := b.correct(s, geom.Sq(0, 2)); !ok || c != geom.Sq(2, 2) {
		t.Errorf("around friends with friendly set, corrected to %v, %v; want 2,2", c, ok)
	}
}

func TestOrdersRefused(t *testing.T) {
	b, _ := sys.Load(t, turnScenario)
	resolve := func(src string) error {
		doc, _ := scenario.Parse("o.yaml", []byte(src))
		a, err := b.DecodeAction(doc)
		if err != nil {
			t.Fatal(err)
		}
		_, err = b.Resolve(context.Background(), a, dice.ForAction(1, 0))
		return err
	}
	if err := resolve("{type: declare, unit: a, weapon: Rifle, target: c}"); err != nil {
		t.Fatal(err)
	}
	if err := resolve("{type: end_phase}"); err != nil {
		t.Fatal(err)
	}
	if err := resolve("{type: fire, unit: a, weapon: Rifle, target: [6, 1]}"); err == nil {
		t.Error("resolve fired at a target that was never declared")
	}
	if err := resolve("{type: fire, unit: a, weapon: Rifle}"); err != nil {
		t.Fatal(err)
	}
	if err := resolve("{type: fire, unit: a, weapon: Rifle}"); err == nil {
		t.Error("a weapon fired twice in one fire phase")
	}
	empty, _ := sys.Load(t, "ruleset: warengine\nmap: {legend: {\".\": {name: open}}, rows: \"...\\n\"}\n")
	doc, _ := scenario.Parse("e.yaml", []byte("{type: end_phase}"))
	a, _ := empty.DecodeAction(doc)
	if _, err := empty.Resolve(context.Background(), a, dice.ForAction(1, 0)); err == nil {
		t.Error("end_phase with no units was accepted")
	}
	if _, err := empty.Sampler(a); err == nil {
		t.Error("an end_phase order was simulated")
	}
}

func TestUnitIDsLikeSquares(t *testing.T) {
	src := strings.Replace(turnScenario, "{id: c,", `{id: "6,1",`, 1)
	doc, _ := scenario.Parse("ids.yaml", []byte(src))
	if _, _, err := (Ruleset{}).Load(doc); err == nil || !strings.Contains(err.Error(), `looks like a square`) {
		t.Errorf("unit id 6,1: %v", err)
	}
}

// TestBrokenScenarios: the mistakes of testdata/broken (typos, wrong kinds, a unit off
// the map or on its own square, a correction onto a friend, an order out of turn or of
// another group, a weapon that reaches no square, twin weapon names) are each reported
// once, at its line:col, as volley check reports them. Refresh with go test -update.
func TestBrokenScenarios(t *testing.T) {
	rulestest.BrokenScenarios(t, filepath.Join("testdata", "broken"))
}
