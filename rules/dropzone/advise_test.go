package dropzone

import (
	"context"
	"testing"

	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/rulestest"
)

var objectives = []advise.Objective{
	{Kind: advise.Expected}, {Kind: advise.Destroyed}, {Kind: advise.Destroy, Unit: "hunter-2"}, {Kind: advise.AtLeast, K: 3},
}

// The advisor's best plan for the seed's Sabres is the brute-force maximum over every
// legal plan scored by Odds, and Monte Carlo agrees with its value.
func TestAdviceSabres(t *testing.T) {
	b, a := mustLoadFile(t, "sabres.yaml")
	rulestest.CheckAdvice(t, b, advise.Query{From: a, Actor: "sabres", Side: "UCM"}, objectives...)
}

func TestAdviceSeedChoiceRanks(t *testing.T) {
	b, a := mustLoadFile(t, "sabres.yaml")
	for _, o := range objectives[:2] {
		adv, err := advise.Advise(context.Background(), b, advise.Query{From: a}, o, 5, advise.DefaultBudget)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range adv[0].Plans {
			t.Logf("%s #%d %.4f %v", o, p.Rank, p.Value, p.Picks)
		}
		t.Logf("total %d scored %d bounded %d", adv[0].Total, adv[0].Scored, adv[0].Bounded)
	}
}
