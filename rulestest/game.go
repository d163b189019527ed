package rulestest

import (
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// NewGame opens a scenario written in src, named file, with the rule system its
// `ruleset:` key names, and starts a game of it with the end its `end:` section says,
// as a server does, failing the test on any error.
func NewGame(tb testing.TB, file string, src []byte) *volley.Game {
	tb.Helper()
	doc, err := scenario.Parse(file, src)
	if err != nil {
		tb.Fatal(err)
	}
	_, b, _, err := rules.Open(doc)
	if err != nil {
		tb.Fatal(err)
	}
	end, err := volley.ReadEnd(doc, b)
	if err != nil {
		tb.Fatal(err)
	}
	return volley.NewGame(b, end)
}
