package republique

import (
	"context"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/rulestest"
)

// The advisor's best grouping of the demo's batteries, and each group's choice to fire or
// save, is the brute-force best over every grouping scored from its fires' Odds; Monte
// Carlo agrees.
func TestAdviceRepublique(t *testing.T) {
	// The demo begins in the skirmish step; the batteries fire in the artillery segment.
	src := strings.Replace(sys.ReadExample(t, "demo.yaml"), "turn: {side: French, step: skirmish}", "turn: {side: French, step: artillery}", 1)
	b, _ := rulestest.Load(t, Ruleset{}, "demo.yaml", []byte(src))
	side := "French"
	shot := func(st map[string]any) volley.Action {
		if st["type"] != KindFire {
			return nil
		}
		act, err := advise.DecodePlan(b, st)
		if err != nil {
			t.Fatalf("%v: %v", st, err)
		}
		return act
	}
	got := rulestest.CheckAdviceSteps(t, b, advise.Query{Side: side}, shot,
		advise.Objective{Kind: advise.Expected}, advise.Objective{Kind: advise.Destroyed})
	for _, adv := range got["expected"] {
		t.Logf("%s: %d plans, best %.4f %v %v", adv.Actor, adv.Total, adv.Plans[0].Value, adv.Plans[0].Variant, adv.Plans[0].Steps)
	}
}

func TestPartitions(t *testing.T) {
	n := 0
	partitions([]string{"a", "b", "c", "d"}, func([][]string) bool { n++; return true })
	if n != 15 {
		t.Errorf("%d partitions of 4, want the Bell number 15", n)
	}
}

// TestAdviceOneBattery: the advisor plans one battery alone when asked for it (what a
// position map weighs): one slot, fire or save; a unit that is not one of the side's
// batteries is refused.
func TestAdviceOneBattery(t *testing.T) {
	b := positionBattle(t, "at: [40, 16], saved_fire: true", "at: [60, 16], saved_fire: true")
	probs, err := b.Problems(context.Background(), advise.Query{Side: "French", Actor: "fb"})
	if err != nil || len(probs) != 1 || probs[0].Actor != "fb" || len(probs[0].Slots) != 1 || len(probs[0].Slots[0].Choices) != 2 {
		t.Fatalf("fb alone: %v, %+v", err, probs)
	}
	for _, actor := range []string{"ligne", "ab", "nobody"} {
		if _, err := b.Problems(context.Background(), advise.Query{Side: "French", Actor: actor}); err == nil || !strings.Contains(err.Error(), "or one battery of it alone") {
			t.Errorf("%s: %v", actor, err)
		}
	}
}
