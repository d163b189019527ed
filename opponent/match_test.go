package opponent_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"iter"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/examples"
	vhttp "github.com/volley-wargames/volley/http"
	"github.com/volley-wargames/volley/opponent"
	_ "github.com/volley-wargames/volley/rules/dropzone"
	_ "github.com/volley-wargames/volley/rules/republique"
	_ "github.com/volley-wargames/volley/rules/warengine"
	_ "github.com/volley-wargames/volley/rules/warfare"
	_ "github.com/volley-wargames/volley/rules/warstrike"
	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/scenario"
)

// systems are the rule systems whose battle.yaml the opponent plays.
var systems = []string{"dropzone", "warengine", "warfare", "republique", "warstrike"}

// battle reads examples/<system>/battle.yaml.
func battle(t testing.TB, system string) []byte {
	t.Helper()
	src, err := examples.FS.ReadFile(system + "/battle.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// battleWith is a system's example with, for each pair, the first text replaced by the
// second, once. A text the example lacks fails the test: the example changed under it.
func battleWith(t testing.TB, system string, replace [][2]string) []byte {
	t.Helper()
	src := string(battle(t, system))
	for _, r := range replace {
		if !strings.Contains(src, r[0]) {
			t.Fatalf("the %s example has no %q", system, r[0])
		}
		src = strings.Replace(src, r[0], r[1], 1)
	}
	return []byte(src)
}

// bareTable is a system's example up to its terrain: its tables, on a bare table, for a
// test to add its own units (and end) to.
func bareTable(t testing.TB, system string) string {
	t.Helper()
	head, _, ok := strings.Cut(string(battle(t, system)), "\nterrain:\n")
	if !ok {
		t.Fatalf("the %s example has no terrain: section", system)
	}
	return head
}

// replay takes each action in g, as the server does, failing the test on one refused.
func replay(t testing.TB, g *volley.Game, bodies ...string) {
	t.Helper()
	for _, body := range bodies {
		if _, _, _, err := g.Replay(context.Background(), body, dice.NewUnrecorded(1)); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
	}
}

// pastDeployment ends both sides' deployments, their units where the scenario places them.
func pastDeployment(t testing.TB, g *volley.Game) {
	t.Helper()
	for range 2 {
		raw, _ := json.Marshal(g.Battle().State().Turn.End)
		replay(t, g, string(raw))
	}
}

// decisions is p's decisions in g, one at a time with its count from 0, for a test's loop
// to look at: each is taken in g (replay) once the loop's body has looked at it, and one
// the body breaks or returns at is not. Before each decision the sequence ends where while,
// if given, is false; then, once most decisions are taken, it fails the test with tooMany
// (or, where tooMany is "", ends). It ends too where p has nothing to do (a nil decision),
// and fails the test where p errs in deciding or g refuses a decision.
func decisions(t testing.TB, g *volley.Game, p *opponent.Player, while func() bool, most int, tooMany string) iter.Seq2[int, *opponent.Decision] {
	return func(yield func(int, *opponent.Decision) bool) {
		t.Helper()
		for n := 0; while == nil || while(); n++ {
			if n == most {
				if tooMany != "" {
					t.Fatal(tooMany)
				}
				return
			}
			d, err := p.Next(context.Background(), g, dice.NewUnrecorded(1))
			if err != nil {
				t.Fatal(err)
			}
			if d == nil || !yield(n, d) {
				return
			}
			replay(t, g, d.Body())
		}
	}
}

// newMatch starts a battle with a player a side: policies by side, random where none.
func newMatch(t testing.TB, src []byte, seed string, policies map[string]string) *opponent.Match {
	t.Helper()
	g := rulestest.NewGame(t, "battle.yaml", src)
	sum := sha256.Sum256([]byte(seed))
	s, err := dice.NewSeed(bytes.NewReader(sum[:]))
	if err != nil {
		t.Fatal(err)
	}
	m := &opponent.Match{Game: g, Seed: s, Players: map[string]*opponent.Player{}}
	for _, side := range volley.Sides(g.Battle().State()) {
		name := policies[side]
		if name == "" {
			name = "random"
		}
		p, err := opponent.ParsePolicy(name)
		if err != nil {
			t.Fatal(err)
		}
		m.Players[side] = &opponent.Player{Policy: p, Side: side}
	}
	return m
}

// TestPlayEverySystem plays each system's battle to its end, the strong level against
// the greedy baseline: the battle ends by its scenario's end, every action the opponent
// takes carries its reasons, no action is refused, and the log, written as a server's,
// verifies.
func TestPlayEverySystem(t *testing.T) {
	for _, system := range systems {
		t.Run(system, func(t *testing.T) {
			src := battle(t, system)
			sides := volley.Sides(newMatch(t, src, "sides", nil).Game.Battle().State())
			m := newMatch(t, src, "1", map[string]string{sides[0]: "strong", sides[1]: "greedy"})
			if err := m.Play(context.Background()); err != nil {
				t.Fatal(err)
			}
			r := m.Game.Result()
			if !r.Over {
				t.Fatalf("the battle did not end after %d actions: %+v", len(m.Log), r)
			}
			for _, e := range m.Log {
				if e.Why == "" || opponent.Reason(e.Body) != e.Why {
					t.Errorf("action %d of %s carries no reasons: %q", e.Seq, e.Side, e.Body)
				}
			}
			lg := logOf(t, src, m)
			v, err := vhttp.Verify(context.Background(), lg)
			if err != nil || v.Actions != len(m.Log) {
				t.Errorf("the log of %d actions does not verify: %+v, %v", len(m.Log), v, err)
			}
			t.Logf("%s: %d actions; %s; scores %v, winner %q", system, len(m.Log), r.Reason, r.Scores, r.Winner)
		})
	}
}

// TestPlayDeterministic: the same battle, seed and levels give the same game, action for
// action, reasons included; another seed, another game.
func TestPlayDeterministic(t *testing.T) {
	src := battle(t, "warfare")
	play := func(seed string) string {
		m := newMatch(t, src, seed, map[string]string{"English": "teaching", "French": "strong:bold"})
		if err := m.Play(context.Background()); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, e := range m.Log {
			out, _ := json.Marshal(e.Outcome)
			b.WriteString(e.Side + " " + e.Body + string(out) + "\n")
		}
		return b.String()
	}
	a, b := play("7"), play("7")
	if a != b {
		t.Error("the same battle, seed and levels played twice gave two games")
	}
	if c := play("8"); c == a {
		t.Error("another seed gave the same game")
	}
}

// logOf writes a match as a server's log.
func logOf(t *testing.T, src []byte, m *opponent.Match) vhttp.Log {
	t.Helper()
	doc, _ := scenario.Parse("battle.yaml", src)
	name, _ := doc.Ruleset()
	var title string
	if sec := doc.Section("title"); sec != nil {
		sec.Decode(&title)
	}
	rec := &volley.BattleRecord{ID: "00000000000000aa", Ruleset: name, Scenario: string(src), Edition: volley.Edition, Seed: m.Seed}
	rec.Commitment = volley.Commitment(rec)
	seed := m.Seed.String()
	lg := vhttp.Log{ID: rec.ID, Ruleset: name, Title: title, Edition: rec.Edition, Generator: string(m.Seed.Generator), Scenario: rec.Scenario,
		Commitment: rec.Commitment, Ended: true, Seed: &seed}
	for _, e := range m.Log {
		out, _ := json.Marshal(e.Outcome)
		lg.Actions = append(lg.Actions, vhttp.LogEntry{Seq: e.Seq, Side: e.Side, Action: e.Body, Outcome: out})
	}
	return lg
}

// TestParsePolicy reads levels and styles, and refuses what is neither.
func TestParsePolicy(t *testing.T) {
	for in, want := range map[string]string{"strong": "strong", "strong:bold": "strong:bold", "teaching:0.25": "teaching:careful", "greedy": "greedy", "random:bold": "random"} {
		p, err := opponent.ParsePolicy(in)
		if err != nil || p.String() != want {
			t.Errorf("ParsePolicy(%q) = %v, %v; want %s", in, p, err, want)
		}
	}
	for _, bad := range []string{"", "clever", "strong:brave", "strong:1.5"} {
		if _, err := opponent.ParsePolicy(bad); err == nil {
			t.Errorf("ParsePolicy(%q) was accepted", bad)
		}
	}
}
