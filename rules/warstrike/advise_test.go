package warstrike

import (
	"testing"

	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/rulestest"
)

// The advisor's best plan for each WarStrike example is the brute-force maximum over
// every legal plan scored by Odds, and Monte Carlo agrees with it.
func TestAdviceWarStrike(t *testing.T) {
	for _, tc := range []struct{ file, actor, side, unit string }{
		{"split-fire.yaml", "alpha", "", "raiders"},
		{"demo.yaml", "", "Ironclad", "raiders"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b, a := rulestest.LoadFile(t, Ruleset{}, sys.Example(tc.file))
			q := advise.Query{From: a, Actor: tc.actor, Side: tc.side}
			if q.Side == "" {
				q.Side = b.Actor(a)
			}
			if tc.actor == "" {
				q.From = nil
			}
			got := rulestest.CheckAdvice(t, b, q, advise.Objective{Kind: advise.Expected}, advise.Objective{Kind: advise.Destroyed},
				advise.Objective{Kind: advise.Destroy, Unit: tc.unit}, advise.Objective{Kind: advise.AtLeast, K: 2})
			for _, adv := range got["expected"] {
				t.Logf("%s: %d plans (%d scored), best %.4f %v", adv.Actor, adv.Total, adv.Scored, adv.Plans[0].Value, adv.Plans[0].Picks)
			}
		})
	}
}
