package volley_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
)

// chainBattle is a fixed record whose chain the tests pin.
var chainBattle = &volley.BattleRecord{ID: "0123456789abcdef", Ruleset: "dropzone", Scenario: "ruleset: dropzone\n", Commitment: "c0ffee"}

// TestChainPinned: the chain's text is fixed. A head a player kept must still check
// against the log years later, so the bytes hashed may never change. These values were
// worked out apart from this code, in Python, from docs/api.md's description.
func TestChainPinned(t *testing.T) {
	start := volley.ChainStart(chainBattle)
	if start != "e0e1ebbce1b45b564f04bbbaee496da2c078f098f62dc6269fbaf83004c1deb9" {
		t.Errorf("ChainStart = %s", start)
	}
	a := &volley.ActionRecord{Seq: 0, Side: "UCM", Body: "{type: move, unit: sabre-1, path: [[14, 9]], facing: 30}", Outcome: `{"trace":["a\u003cb"], "rolls":[]}`}
	if got := volley.ChainNext(start, a); got != "5192391cc8bcff9aec14ff92ec0f7f14cb9945dfeba95896c0d3f7738fa17972" {
		t.Errorf("ChainNext = %s", got)
	}
	if got := string(volley.HeadText("0123456789abcdef", 1, start)); got != "volley chain head\nid: 0123456789abcdef\nactions: 1\nhead: "+start+"\n" {
		t.Errorf("HeadText = %q", got)
	}
}

// TestChainCoversEverything: every part of an action, and of the battle, is in its link;
// the fields cannot run into each other; the outcome's spacing is not.
func TestChainCoversEverything(t *testing.T) {
	start := volley.ChainStart(chainBattle)
	base := volley.ActionRecord{Seq: 3, Side: "UCM", Body: "{type: move, unit: sabre-1, path: [[14, 9]], facing: 30}", Outcome: `{"rolls":[{"value":4}],"targets":[]}`}
	head := volley.ChainNext(start, &base)
	for _, tc := range []struct {
		name string
		edit func(a *volley.ActionRecord)
	}{
		{"the facing", func(a *volley.ActionRecord) { a.Body = "{type: move, unit: sabre-1, path: [[14, 9]], facing: 31}" }},
		{"the seq", func(a *volley.ActionRecord) { a.Seq = 4 }},
		{"the side", func(a *volley.ActionRecord) { a.Side = "Scourge" }},
		{"a die", func(a *volley.ActionRecord) { a.Outcome = `{"rolls":[{"value":5}],"targets":[]}` }},
		{"a space in the body", func(a *volley.ActionRecord) { a.Body += " " }},
		{"the side's end moved into the body", func(a *volley.ActionRecord) { a.Side, a.Body = "UC", "M"+a.Body }},
	} {
		a := base
		tc.edit(&a)
		if volley.ChainNext(start, &a) == head {
			t.Errorf("%s changed and the head did not", tc.name)
		}
	}
	if volley.ChainNext(volley.ChainStart(&volley.BattleRecord{ID: "0123456789abcdee", Ruleset: "dropzone", Scenario: "ruleset: dropzone\n", Commitment: "c0ffee"}), &base) == head {
		t.Error("another battle's chain has the same head")
	}
	for _, outcome := range []string{
		"{\n  \"rolls\": [ {\"value\": 4} ],\n  \"targets\": []\n}\n", // spaced
		`{"targets":[],"rolls":[{"value":4.0}]}`,                      // keys in another order, 4 as 4.0
		`{"rolls":[{"value":4e0}],"targets":[]}`,
	} {
		spaced := base
		spaced.Outcome = outcome
		if volley.ChainNext(start, &spaced) != head {
			t.Errorf("the outcome written as %s changed the head", outcome)
		}
	}
}

// TestCanonicalJSON: what a JSON tool may change in writing a value again does not change
// its canonical text; what it means does.
func TestCanonicalJSON(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"b": 1, "a": [true, null, "x"]}`, `{"a":[true,null,"x"],"b":1}`},
		{`{"t":"a\u003cb & c\u003e"}`, `{"t":"a<b & c>"}`},
		{`{"t":"a<b & c>"}`, `{"t":"a<b & c>"}`},
		{`[1e21, 1e-7, 0.1, 100, -0, 0.0, 12345678901234567890]`, `[1e+21,1e-7,0.1,100,0,0,12345678901234567000]`},
		{`{"10": 1, "9": 2}`, `{"10":1,"9":2}`},
		{`{"s":"\u2028"}`, `{"s":"\u2028"}`},
		{`not json`, `not json`},
	} {
		if got := string(volley.CanonicalJSON(tc.in)); got != tc.want {
			t.Errorf("CanonicalJSON(%s) = %s; want %s", tc.in, got, tc.want)
		}
	}
}

// The head a player keeps after two actions: changing the first changes it.
func ExampleChainNext() {
	battle := &volley.BattleRecord{ID: "0123456789abcdef", Ruleset: "dropzone", Scenario: "ruleset: dropzone\n", Commitment: "c0ffee"}
	head := volley.ChainStart(battle)
	for seq, body := range []string{"{type: move, unit: sabre-1, path: [[14, 9]]}", "type: end_turn"} {
		head = volley.ChainNext(head, &volley.ActionRecord{Seq: seq, Side: "UCM", Body: body, Outcome: `{"rolls":[]}`})
	}
	fmt.Println(head[:16])
	// Output: 0f4c32eaca9f6ca7
}

// BenchmarkChainNext is the chain's cost per action stored: a Dropzone squad's shot of
// 12 dice and 40 trace steps (about 8 KB of outcome), written canonically and hashed.
func BenchmarkChainNext(b *testing.B) {
	out := volley.Outcome{}
	for i := range 12 {
		out.Rolls = append(out.Rolls, dice.Roll{Purpose: fmt.Sprintf("to-hit: sabre-%d Avenger Railgun at hunter-%d, shot 1", i%3+1, i%3+1), Sides: 6, Value: i%6 + 1})
	}
	for i := range 40 {
		out.Trace = append(out.Trace, volley.Step{Rule: "Check Range (Shooting)", Inputs: map[string]any{"range": 12.5 + float64(i), "full_range": "∞", "countered_range": 24, "firer": "sabre-1", "target": "hunter-1"}, Result: "in full range"})
	}
	raw, err := json.Marshal(out)
	if err != nil {
		b.Fatal(err)
	}
	a := &volley.ActionRecord{Seq: 41, Side: "UCM", Body: sabresBody, Outcome: string(raw)}
	head := volley.ChainStart(chainBattle)
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		volley.ChainNext(head, a)
	}
}

const sabresBody = `squad: sabres
declarations:
  - {unit: sabre-1, weapon: Avenger Railgun, target: hunter-1}
  - {unit: sabre-2, weapon: Avenger Railgun, target: hunter-2}
  - {unit: sabre-3, weapon: Avenger Railgun, target: hunter-3}
`
