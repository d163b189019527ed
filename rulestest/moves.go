package rulestest

import (
	"context"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/scenario"
)

// Playing a battle's moves in a test: the actions written as a player writes them, each
// decoded and resolved in turn, and a refused one checked to leave the battle as it was
// (the house's rule 5).

// DecodeAs decodes an action written in src for b, as the command line (refereed false)
// or a server (true) would, read under edition (0: the current one).
func DecodeAs(tb testing.TB, b volley.Battle, src string, refereed bool, edition int) (volley.Action, error) {
	tb.Helper()
	doc, err := scenario.Parse("action.yaml", []byte(src))
	if err != nil {
		tb.Fatal(err)
	}
	doc.Refereed, doc.Edition = refereed, edition
	return b.DecodeAction(doc)
}

// Decode decodes an action written in src for b as the command line does, failing the
// test on an error.
func Decode(tb testing.TB, b volley.Battle, src string) volley.Action {
	tb.Helper()
	a, err := DecodeAs(tb, b, src, false, 0)
	if err != nil {
		tb.Fatalf("%s: %v", src, err)
	}
	return a
}

// Play resolves each action written in srcs in order, the i-th with the dice of
// dice.ForAction(1, i), failing the test on a refusal.
func Play(tb testing.TB, b volley.Battle, srcs ...string) []volley.Outcome {
	tb.Helper()
	var outs []volley.Outcome
	for i, src := range srcs {
		out, err := b.Resolve(context.Background(), Decode(tb, b, src), dice.ForAction(1, i))
		if err != nil {
			tb.Fatalf("%s: %v", src, err)
		}
		outs = append(outs, out)
	}
	return outs
}

// Refused resolves an action written in src that must be refused: it checks that its
// error says want and that the battle (its state, board and table) is as it was, and
// returns the error.
func Refused(tb testing.TB, b volley.Battle, src, want string) error {
	tb.Helper()
	before := FullSnapshot(b)
	_, err := b.Resolve(context.Background(), Decode(tb, b, src), dice.ForAction(1, 99))
	if err == nil || !strings.Contains(err.Error(), want) {
		tb.Errorf("%s: %v; want a refusal saying %q", src, err, want)
	}
	if FullSnapshot(b) != before {
		tb.Errorf("%s: a refused action changed the battle", src)
	}
	return err
}

// AimOf is the aims of the action written in src, decoded as the command line does,
// failing the test on an error.
func AimOf(tb testing.TB, b volley.Battle, src string) []volley.Aim {
	tb.Helper()
	return Aim(tb, b, Decode(tb, b, src))
}

// StatedFact checks an action written in src that states a fact the server measures from
// the moves in the battle's log (from volley.EditionMoves): a server (refereed) refuses
// it from b with an error saying want, the command line takes it from b as a "what if",
// and a server takes it from old, a battle begun under the edition before units moved
// (old may be b: the action is then read as that edition's).
func StatedFact(tb testing.TB, b, old volley.Battle, src, want string) {
	tb.Helper()
	if _, err := DecodeAs(tb, b, src, true, 0); err == nil || !strings.Contains(err.Error(), want) {
		tb.Errorf("%s over the API: %v; want it refused saying %q", src, err, want)
	}
	if _, err := DecodeAs(tb, b, src, false, 0); err != nil {
		tb.Errorf("%s on the command line: %v", src, err)
	}
	if _, err := DecodeAs(tb, old, src, true, volley.EditionMoves-1); err != nil {
		tb.Errorf("%s in an edition %d battle: %v", src, volley.EditionMoves-1, err)
	}
}
