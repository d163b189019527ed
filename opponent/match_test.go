package opponent_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"strings"
	"testing"
	"time"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/examples"
	"github.com/volley-wargames/volley/opponent"
	"github.com/volley-wargames/volley/rules"
	_ "github.com/volley-wargames/volley/rules/dropzone"
	_ "github.com/volley-wargames/volley/rules/republique"
	_ "github.com/volley-wargames/volley/rules/warengine"
	_ "github.com/volley-wargames/volley/rules/warfare"
	_ "github.com/volley-wargames/volley/rules/warstrike"
	"github.com/volley-wargames/volley/scenario"
)

// newMatch starts examples/<system>/battle.yaml with a player a side.
func newMatch(t *testing.T, system string, seed string, policies map[string]string) *opponent.Match {
	t.Helper()
	src, err := examples.FS.ReadFile(system + "/battle.yaml")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := scenario.Parse(system+"/battle.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	_, b, _, err := rules.Open(doc)
	if err != nil {
		t.Fatal(err)
	}
	end, err := volley.ReadEnd(doc, b)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(seed))
	s, err := dice.NewSeed(bytes.NewReader(sum[:]))
	if err != nil {
		t.Fatal(err)
	}
	m := &opponent.Match{Game: volley.NewGame(b, end), Seed: s, Players: map[string]*opponent.Player{}}
	for _, side := range volley.Sides(b.State()) {
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

func TestPlayScratch(t *testing.T) {
	for _, sys := range []string{"dropzone", "warfare", "warstrike", "republique", "warengine"} {
		sides := volley.Sides(newMatch(t, sys, "x", map[string]string{}).Game.Battle().State())
		m := newMatch(t, sys, "1", map[string]string{sides[0]: "strong", sides[1]: "greedy"})
		start := time.Now()
		err := m.Play(context.Background())
		r := m.Game.Result()
		t.Logf("%s: %d actions in %v, err %v, result %+v", sys, len(m.Log), time.Since(start), err, r)
		for _, e := range m.Log[:min(len(m.Log), 25)] {
			t.Logf("  %d %s: %s", e.Seq, e.Side, e.Why)
		}
	}
}

func TestPlayScratchWE(t *testing.T) {
	m := newMatch(t, "warengine", "1", map[string]string{"trenchers": "strong", "raiders": "greedy"})
	m.MaxActions = 40
	err := m.Play(context.Background())
	t.Logf("err %v", err)
	for _, e := range m.Log {
		t.Logf("  %d %s: %s | %s", e.Seq, e.Side, e.Why, strings.TrimSpace(strings.SplitN(e.Body, "\n", 2)[1]))
	}
}
