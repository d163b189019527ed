package warfare

import (
	"testing"

	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/rulestest"
)

// The advisor's best split of the stands is the brute-force best over every split,
// scored by Odds, and Monte Carlo agrees, in both systems.
func TestAdviceWarfare(t *testing.T) {
	for _, file := range []string{"demo.yaml", "longbowmen.yaml", "longbowmen-existing.yaml"} {
		t.Run(file, func(t *testing.T) {
			b, a := rulestest.LoadFile(t, Ruleset{}, sys.Example(file))
			q := advise.Query{From: a, Side: b.Actor(a)}
			objs := []advise.Objective{{Kind: advise.Expected}, {Kind: advise.Destroyed}, {Kind: advise.AtLeast, K: 3}}
			got := rulestest.CheckAdvice(t, b, q, objs...)
			for _, adv := range got["expected"] {
				t.Logf("%s: %d plans, best %.4f %v", adv.Actor, adv.Total, adv.Plans[0].Value, adv.Plans[0].Picks)
			}
		})
	}
}

func TestCompositions(t *testing.T) {
	got := compositions(3, 2, 100)
	if len(got) != 4 || got[0][0] != 3 || got[3][1] != 3 {
		t.Errorf("%v", got)
	}
	if n := len(compositions(6, 4, 1000)); n != 84 {
		t.Errorf("6 stands over 4 targets: %d splits, want 84", n)
	}
	if n := len(compositions(40, 8, 50)); n != 50 {
		t.Errorf("the bound: %d", n)
	}
}
