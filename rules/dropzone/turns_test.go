package dropzone

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/scenario"
)

// decode decodes an action against b, failing the test on an error.
func decode(tb testing.TB, b *Battle, src string) volley.Action {
	tb.Helper()
	return rulestest.Decode(tb, b, src)
}

// TestTurns plays the sabres' scenario turn by turn: a squad shoots in its side's turn,
// once; end_turn passes the turn; out of turn and twice in a turn are conflicts (409)
// that change nothing.
func TestTurns(t *testing.T) {
	b, shoot := sys.LoadFile(t, "sabres.yaml")
	ctx := context.Background()
	end := decode(t, b, "type: end_turn")
	if turn := b.State().Turn; turn == nil || turn.Side != "UCM" || turn.Number != 1 || turn.End["type"] != "end_turn" {
		t.Fatalf("the first turn: %+v; want UCM's, round 1, ended by end_turn", turn)
	}
	if got := b.Actor(end); got != "UCM" {
		t.Errorf("Actor(end_turn) = %q; want the side whose turn it is", got)
	}
	if _, err := b.Resolve(ctx, shoot, dice.ForAction(1, 0)); err != nil {
		t.Fatal(err)
	}
	if done := b.State().Turn.Done; len(done) != 1 || done[0] != "sabres" {
		t.Errorf("done after the shot: %v", done)
	}
	before := snapshotState(b)
	_, err := b.Resolve(ctx, shoot, dice.ForAction(1, 1))
	if volley.ErrorCode(err) != volley.ECONFLICT || !strings.Contains(err.Error(), "already acted this turn") {
		t.Errorf("a second shot in one turn: %v; want a conflict", err)
	}
	if aims, _ := b.Aim(ctx, shoot); !strings.Contains(strings.Join(aims[0].Notes, " "), "not now") {
		t.Errorf("the aim of a squad that has shot says nothing of it: %v", aims[0].Notes)
	}
	if _, err := b.Resolve(ctx, end, dice.ForAction(1, 2)); err != nil {
		t.Fatal(err)
	}
	if turn := b.State().Turn; turn.Side != "Scourge" || len(turn.Done) != 0 {
		t.Errorf("after UCM's end_turn: %+v; want Scourge's turn, nothing done", turn)
	}
	_, err = b.Resolve(ctx, shoot, dice.ForAction(1, 3))
	if volley.ErrorCode(err) != volley.ECONFLICT || !strings.Contains(err.Error(), "it is Scourge's turn") {
		t.Errorf("the UCM out of turn: %v; want a conflict", err)
	}
	if got := snapshotState(b); got == before {
		t.Error("end_turn changed nothing")
	}
	out, err := b.Resolve(ctx, end, dice.ForAction(1, 4))
	if err != nil || len(out.Trace) != 1 || out.Trace[0].Result != "UCM's turn 2" {
		t.Errorf("Scourge's end_turn: %+v, %v", out.Trace, err)
	}
	if _, err := b.Resolve(ctx, shoot, dice.ForAction(1, 5)); err != nil {
		t.Errorf("the UCM's next turn: %v", err)
	}
}

func snapshotState(b *Battle) string {
	var s strings.Builder
	st := b.State()
	s.WriteString(st.Turn.Side)
	for _, u := range st.Units {
		s.WriteString(u.ID)
	}
	return s.String() + strings.Join(st.Turn.Done, ",")
}

func TestTurnOptions(t *testing.T) {
	src := func(turn string) string {
		return strings.Replace(sys.ReadExample(t, "sabres.yaml"), "\naction:", "\n"+turn+"\naction:", 1)
	}
	b, shoot := sys.Load(t, src("turn: {side: UCM, activations: alternate}"))
	if _, err := b.Resolve(context.Background(), shoot, dice.ForAction(1, 0)); err != nil {
		t.Fatal(err)
	}
	if turn := b.State().Turn; turn.Side != "Scourge" {
		t.Errorf("alternate activations: after a shot it is %s's turn; want Scourge's", turn.Side)
	}
	for _, tc := range []struct{ turn, want string }{
		{"turn: {side: Orks}", `turn: no unit is on side "Orks"`},
		{"turn: {order: [UCM]}", `turn: order: side "Scourge" has units but no place in the order`},
		{"turn: {done: [sabers]}", `turn: done: no squad or unit "sabers" (did you mean "sabres"?)`},
		{"turn: {activations: igougo}", `turn: activations: want "turns" or "alternate", got "igougo"`},
	} {
		doc, err := scenario.Parse("s.yaml", []byte(src(tc.turn)))
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = Ruleset{}.Load(doc)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want an error containing %q", tc.turn, err, tc.want)
		}
	}
}

// TestEditionOneHasNoTurns: a battle begun before turns (edition 1) replays as it was
// played: any squad shoots at any time, and there is no turn to end.
func TestEditionOneHasNoTurns(t *testing.T) {
	bb, a, err := rulestest.LoadEdition(t, Ruleset{}, "sabres.yaml", []byte(sys.ReadExample(t, "sabres.yaml")), 1)
	if err != nil {
		t.Fatal(err)
	}
	b := bb.(*Battle)
	for n := range 3 {
		if _, err := b.Resolve(context.Background(), a, dice.ForAction(1, n)); err != nil && !strings.Contains(err.Error(), "destroyed") {
			t.Fatalf("shot %d: %v", n, err)
		}
	}
	if b.State().Turn != nil {
		t.Error("an edition 1 battle shows a turn")
	}
	end, _ := scenario.Parse("a.yaml", []byte("type: end_turn"))
	end.Edition = 1
	if _, err := b.DecodeAction(end); err == nil || !strings.Contains(err.Error(), "keeps no turns") {
		t.Errorf("end_turn in edition 1: %v", err)
	}
}

// TestSightIsTracedOnce: line of sight is traced once per firer, eye point and target,
// and the shared traces give every declaration what tracing it alone would: also past
// the few traces kept in a slice, when they move to a map.
func TestSightIsTracedOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString(`ruleset: dropzone
types:
  - {name: T, armour: 5, damage_points: 3, base: 1, height: 1, weapons: [
      {name: A, mf: "-", arc: F/S/R, full_range: ∞, countered_range: ∞, shots: 1, accuracy: 3+, energy: 5, special: [Articulated]},
      {name: B, mf: "-", arc: F/S/R, full_range: ∞, countered_range: ∞, shots: 1, accuracy: 3+, energy: 5}]}
terrain:
  - {id: wall, height: 1.2, polygon: [[-50, 10], [50, 10], [50, 10.5], [-50, 10.5]]}
units:
`)
	for i := range 30 {
		fmt.Fprintf(&b, "  - {id: u%d, type: T, side: A, squad: s, at: [%d, 0]}\n", i, i-15)
	}
	b.WriteString("  - {id: t1, type: T, side: B, at: [0, 20]}\n  - {id: t2, type: T, side: B, at: [8, 20], elevation: 0.5}\naction:\n  squad: s\n  declarations:\n")
	for i := range 30 {
		fmt.Fprintf(&b, "    - {unit: u%d, weapon: A, target: t%d}\n    - {unit: u%d, weapon: B, target: t%d}\n", i, 1+i%2, i, 2-i%2)
	}
	battle, a := sys.Load(t, b.String())
	shots := mustPlan(t, battle, a)
	for _, s := range shots {
		alone := battle.newSight(1)
		want, _ := alone.visibleFraction(&s)
		if s.visible != want && s.ok() {
			t.Errorf("%s %s at %s: %v shared, %v alone", s.Shooter, s.Weapon, s.Target, s.visible, want)
		}
	}
	sight := battle.newSight(len(shots))
	for i := range shots {
		sight.visibleFraction(&shots[i])
	}
	if traces := len(sight.seen); traces != 90 || len(sight.few) != fewTraces { // 30 firers: A's 2 eyes at one target, B's 1 at the other
		t.Errorf("%d traces in the map, %d in the slice; want 90 and %d", traces, len(sight.few), fewTraces)
	}
}
