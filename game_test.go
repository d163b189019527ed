package volley_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rules"
	_ "github.com/volley-wargames/volley/rules/dropzone"
	_ "github.com/volley-wargames/volley/rules/warengine"
	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/scenario"
)

// skirmish is a small Dropzone battle with an end: two rounds, the hunter worth 3, an
// objective between the sides.
const skirmish = `ruleset: dropzone
title: A skirmish
table: {width: 48, height: 48}
types:
  - name: Sabre
    armour: 10
    damage_points: 3
    base: 1.25
    height: 1
    move: 6"
    weapons:
      - {name: Avenger Railgun, mf: 4", arc: F/S/R, full_range: ∞, countered_range: 24", shots: 1, accuracy: 2+, energy: 10}
  - {name: Hunter, armour: 13, damage_points: 3, base: 1.25, height: 1, move: 6"}
  - {name: Warriors, armour: 6, damage_points: 1, base: 1, height: 0.5, move: 3"}
units:
  - {id: sabre-1, type: Sabre, side: UCM, squad: sabres, at: [14, 6], facing: 0}
  - {id: hunter-1, type: Hunter, side: Scourge, squad: hunters, at: [12, 31], facing: 180}
  - {id: warriors-1, type: Warriors, side: Scourge, squad: warriors, at: [20, 20], facing: 180}
end:
  turns: 2
  points: {hunter-1: 3}
  objectives:
    - {name: the ridge, at: [20, 18], radius: 3, points: 2}
`

func newGame(t *testing.T, src string) *volley.Game {
	t.Helper()
	return rulestest.NewGame(t, "skirmish.yaml", []byte(src))
}

// play takes an action in a game, as the server does, failing the test on an error.
func play(t *testing.T, g *volley.Game, seq int, body string) volley.Outcome {
	t.Helper()
	_, _, out, err := g.Replay(context.Background(), body, dice.ForAction(7, seq))
	if err != nil {
		t.Fatalf("action %d %s: %v", seq, body, err)
	}
	return out
}

// TestGameEndsAfterLastRound plays the skirmish to the end of its second round: the
// objective held by the warriors scores for Scourge, the battle is over when round 3
// would begin, and it then takes no more actions.
func TestGameEndsAfterLastRound(t *testing.T) {
	g := newGame(t, skirmish)
	r := g.Result()
	if r.Over || r.LastRound != 2 || r.Round != 1 {
		t.Fatalf("at the start: %+v; want round 1 of 2, not over", r)
	}
	if r.Scores["Scourge"] != 2 || r.Scores["UCM"] != 0 || len(r.Objectives) != 1 || r.Objectives[0].Held != "Scourge" {
		t.Fatalf("at the start: scores %v, objectives %+v; want the ridge held by Scourge, 2 to 0", r.Scores, r.Objectives)
	}
	for seq := range 3 {
		play(t, g, seq, "type: end_turn")
		if g.Over() {
			t.Fatalf("over after %d turns ended: %+v", seq+1, g.Result())
		}
	}
	play(t, g, 3, "type: end_turn")
	r = g.Result()
	if !r.Over || r.Winner != "Scourge" || !strings.Contains(r.Reason, "round 2") {
		t.Fatalf("after round 2: %+v; want over, Scourge the winner, the reason round 2", r)
	}
	if _, _, _, err := g.Replay(context.Background(), "type: end_turn", dice.ForAction(7, 4)); volley.ErrorCode(err) != volley.ECONFLICT {
		t.Errorf("an action after the end: %v; want a conflict", err)
	}
}

// TestGameTakeBack takes back a move: the battle is as before it, field for field; a
// shot makes the moves before it final, and the other side cannot take back UCM's move.
func TestGameTakeBack(t *testing.T) {
	g := newGame(t, skirmish)
	before := rulestest.Snapshot(g.Battle())
	play(t, g, 0, "{type: move, unit: sabre-1, path: [[14, 9]]}")
	if side, what := g.CanTakeBack(); side != "UCM" || what != "the move of sabre-1" {
		t.Fatalf("after a move, CanTakeBack = %q, %q; want UCM, the move of sabre-1", side, what)
	}
	moved := rulestest.Snapshot(g.Battle())
	if moved == before {
		t.Fatal("the move changed nothing")
	}
	doc, _ := scenario.Parse("a", []byte("type: take_back"))
	tb, err := g.DecodeAction(doc)
	if err != nil {
		t.Fatal(err)
	}
	if g.Actor(tb) != "UCM" {
		t.Errorf("a take-back's actor is %q; want UCM, whose move it undoes", g.Actor(tb))
	}
	out := play(t, g, 1, "type: take_back")
	if len(out.Rolls) != 0 || !strings.Contains(out.Trace[0].Result.(string), "took back the move of sabre-1") {
		t.Errorf("the take-back's outcome: %+v", out)
	}
	if got := rulestest.Snapshot(g.Battle()); got != before {
		t.Errorf("after the take-back the battle is\n%s\nwant it as before the move\n%s", got, before)
	}
	if _, _, _, err := g.Replay(context.Background(), "type: take_back", dice.ForAction(7, 2)); err == nil {
		t.Error("a second take-back with nothing to take back was accepted")
	}
	// A move, then a shot: the move is final.
	play(t, g, 2, "{type: move, unit: sabre-1, path: [[14, 8]]}")
	play(t, g, 3, "{squad: sabres, declarations: [{unit: sabre-1, weapon: Avenger Railgun, target: hunter-1}]}")
	if side, _ := g.CanTakeBack(); side != "" {
		t.Errorf("after a shot %s may still take back", side)
	}
}

// TestGameAgreedEnd ends the skirmish by agreement: one offer is not enough, an action
// between withdraws it, and both sides' offers end the battle on the score as it stands.
func TestGameAgreedEnd(t *testing.T) {
	g := newGame(t, skirmish)
	play(t, g, 0, "{type: offer_end, side: UCM}")
	if g.Over() {
		t.Fatal("one side's offer ended the battle")
	}
	play(t, g, 1, "type: end_turn")
	play(t, g, 2, "{type: offer_end, side: Scourge}")
	if g.Over() {
		t.Fatal("an offer withdrawn by an action still counted")
	}
	play(t, g, 3, "{type: offer_end, side: UCM}")
	r := g.Result()
	if !r.Over || r.Reason != "every side agreed to end the battle" || r.Winner != "Scourge" {
		t.Errorf("after both offers: %+v; want over by agreement, Scourge ahead on the objective", r)
	}
}

// TestGameLuck checks the luck of a shot by hand: one railgun shot at the warriors, a
// 2+ to hit, then D6+10 against armour 6 (every hit damages; a 6 is a critical), so
// hits is 1 with 5/6 and the warriors are destroyed whenever it hits.
func TestGameLuck(t *testing.T) {
	g := newGame(t, skirmish)
	g.Luck = true
	out := play(t, g, 0, "{squad: sabres, declarations: [{unit: sabre-1, weapon: Avenger Railgun, target: warriors-1}]}")
	if out.Luck == nil {
		t.Fatal("no luck on a shot")
	}
	hit := out.Targets[0].Measures["hits"] == 1
	for _, m := range out.Luck.Measures {
		want := 1.0 / 12 // a miss: half the 1/6 of misses
		if hit {
			want = 1.0/6 + 5.0/12
		}
		if m.Measure == "hits" && math.Abs(m.Percentile-want) > 1e-6 {
			t.Errorf("hits percentile %g; want %g (hit %t)", m.Percentile, want, hit)
		}
	}
	if p := out.Luck.Percentile; p < 0 || p > 1 {
		t.Errorf("luck %g is not a share", p)
	}
	play(t, g, 1, "type: end_turn")
	if out := play(t, g, 2, "{type: move, unit: hunter-1, path: [[12, 29]]}"); out.Luck != nil {
		t.Error("a move has luck")
	}
}

// TestLuckOf holds the percentile to a hand computation over a made-up distribution.
func TestLuckOf(t *testing.T) {
	d, err := dice.FromMap(map[int]float64{0: 0.25, 1: 0.5, 2: 0.25})
	if err != nil {
		t.Fatal(err)
	}
	point, _ := dice.FromMap(map[int]float64{3: 1})
	o := volley.Odds{Targets: []volley.TargetOdds{{Target: "a", Distributions: map[string]dice.Dist{"hits": d, "fixed": point}, Mean: map[string]float64{"hits": 1}}}}
	for _, c := range []struct {
		rolled float64
		want   float64
	}{{0, 0.125}, {1, 0.5}, {2, 0.875}} {
		out := volley.Outcome{Targets: []volley.TargetResult{{Target: "a", Measures: map[string]float64{"hits": c.rolled, "fixed": 3}}}}
		l := volley.LuckOf(o, out)
		if l == nil || len(l.Measures) != 1 || l.Percentile != c.want {
			t.Errorf("rolled %g: luck %+v; want %g from hits alone (a fixed measure says nothing)", c.rolled, l, c.want)
		}
	}
}

// TestReadEndErrors reports every mistake of an end section at its place.
func TestReadEndErrors(t *testing.T) {
	src := strings.Replace(skirmish, `end:
  turns: 2
  points: {hunter-1: 3}
  objectives:
    - {name: the ridge, at: [20, 18], radius: 3, points: 2}`, `end:
  turns: -1
  points: {huntr-1: 3, sabre-1: -2}
  objectives:
    - {name: the ridge, at: [20, 18], radius: 0}
    - {name: the ridge, at: [2, 2], radius: 1}`, 1)
	doc := rulestest.Parse(t, "bad.yaml", src)
	// rules.Open reads the end section once the battle has loaded, as ReadEnd does.
	_, b, _, err := rules.Open(doc)
	if err == nil {
		_, err = volley.ReadEnd(doc, b)
	}
	want := []string{
		`bad.yaml:20:10: end: turns: the last round counts from 1`,
		`bad.yaml:21:21: end: points: no unit "huntr-1" (did you mean "hunter-1"?)`,
		`bad.yaml:21:33: end: points: sabre-1: points are a number from 0 to 1e+06`,
		`bad.yaml:23:47: end: objectives: the ridge: radius must be above 0`,
		`bad.yaml:24:14: end: objectives: "the ridge" is named twice`,
	}
	if err == nil {
		t.Fatal("no error")
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("errors\n%v\nlack %s", err, w)
		}
	}
}

// TestEndErrorsWhenTheBattleFails: a file whose battle does not load still has its end
// and opponent sections checked as far as they can be without the battle, and every
// mistake is reported at once (house rule 5), not the sections' only once the rest is
// fixed. What needs the battle (a unit's name in points) waits for it.
func TestEndErrorsWhenTheBattleFails(t *testing.T) {
	src := strings.Replace(skirmish, "title: A skirmish", "titel: A skirmish", 1)
	src = strings.Replace(src, "  turns: 2\n  points: {hunter-1: 3}", "  turns: -1\n  points: {huntr-1: 3}", 1)
	src += "opponent: {side: Scourge, level: strongest}\n"
	doc := rulestest.Parse(t, "bad.yaml", src)
	_, _, _, err := rules.Open(doc)
	if err == nil {
		t.Fatal("no error")
	}
	want := []string{
		`bad.yaml:2:1: unknown field "titel" (did you mean "title"?)`,
		`bad.yaml:20:10: end: turns: the last round counts from 1`,
		`bad.yaml:24:34: opponent: unknown level "strongest"`,
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("errors\n%v\nlack %s", err, w)
		}
	}
	if n := strings.Count(err.Error(), "\n") + 1; n != len(want) {
		t.Errorf("%d errors\n%v\nwant %d: each mistake once", n, err, len(want))
	}
	if strings.Contains(err.Error(), "huntr-1") {
		t.Errorf("errors\n%v\nname a unit before the battle has loaded", err)
	}
}

// TestEndObjectivesInTheScenarioUnit: a battle measured in centimetres reports its
// objectives in centimetres, as its view reports its units, and holds them as it
// measures them (the skirmish's inches written in centimetres).
func TestEndObjectivesInTheScenarioUnit(t *testing.T) {
	src := strings.Replace(skirmish, "table: {width: 48, height: 48}", "distances: cm\ntable: {width: 48in, height: 48in}", 1)
	src = strings.Replace(src, "{name: the ridge, at: [20, 18], radius: 3, points: 2}", "{name: the ridge, at: [50.8, 45.72], radius: 7.62, points: 2}", 1)
	src = strings.NewReplacer("at: [14, 6]", "at: [14in, 6in]", "at: [12, 31]", "at: [12in, 31in]", "at: [20, 20]", "at: [20in, 20in]").Replace(src)
	r := newGame(t, src).Result()
	if len(r.Objectives) != 1 {
		t.Fatalf("objectives %+v", r.Objectives)
	}
	o := r.Objectives[0]
	if o.X != 50.8 || o.Y != 45.72 || o.Radius != 7.62 || o.Held != "Scourge" {
		t.Errorf("the ridge %+v; want at [50.8, 45.72] cm, radius 7.62 cm, held by Scourge", o)
	}
}
