package rules

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/scenario"
)

// tally is a battle made for these tests: an action throws Dice d6 and adds how many
// show a 6 to the score everyone sees; sixes on a first die only are also kept in
// hidden, which State leaves out. An action of Dice −1 is refused when the score is odd.
type tally struct {
	score, hidden int
}

type roll struct {
	Dice int `yaml:"dice"`
}

func (roll) Kind() string { return "roll" }

func (b *tally) DecodeAction(doc *scenario.Doc) (volley.Action, error) {
	var a roll
	if err := doc.Decode(&a); err != nil {
		return nil, err
	}
	return a, nil
}
func (b *tally) Cost(volley.Action) int64 { return 1 }
func (b *tally) Aim(context.Context, volley.Action) ([]volley.Aim, error) {
	return []volley.Aim{{Shooter: "s", Target: "t", Status: volley.StatusOK, PHit: float64(b.score) / 10}}, nil
}
func (b *tally) Odds(_ context.Context, a volley.Action) (volley.Odds, error) {
	n := a.(roll).Dice
	d := dice.Binomial(n, 1.0/6).Shift(b.score)
	aims, _ := b.Aim(context.Background(), a)
	return volley.Odds{Aims: aims, Targets: []volley.TargetOdds{{Target: "t", Distributions: map[string]dice.Dist{"score": d}, Mean: map[string]float64{"score": d.Mean()}}},
		Values: map[string]float64{"score_before": float64(b.score), "dice": float64(n)}}, nil
}
func (b *tally) Resolve(_ context.Context, a volley.Action, d *dice.Stream) (volley.Outcome, error) {
	n := a.(roll).Dice
	if n < 0 {
		if b.score%2 == 1 {
			return volley.Outcome{}, volley.Errorf(volley.EINVALID, "tally: an odd score may not roll")
		}
		return volley.Outcome{}, nil
	}
	for i := range n {
		if d.Roll(6, "") == 6 {
			b.score++
			if i == 0 {
				b.hidden++
			}
		}
	}
	return volley.Outcome{}, nil
}
func (b *tally) State() volley.State {
	return volley.State{Units: []volley.UnitState{{ID: "t", Side: "a", Values: map[string]float64{"score": float64(b.score)}}}}
}
func (b *tally) Actor(volley.Action) string { return "a" }
func (b *tally) Fork() volley.Battle        { c := *b; return &c }

// tallyScript is a script of rolls of the given numbers of dice.
func tallyScript(t *testing.T, dice ...int) *Script {
	t.Helper()
	var src strings.Builder
	src.WriteString("actions:\n")
	for _, n := range dice {
		src.WriteString("  - {dice: " + itoa(n) + "}\n")
	}
	doc, err := scenario.Parse("tally.yaml", []byte(src.String()))
	if err != nil {
		t.Fatal(err)
	}
	s, err := ScriptOf(doc, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + itoa(n%10)
}

// TestBranchesMergeOnlyEqualBattles: two dice leave scores 0, 1 and 2; a score of 1 is
// reached with the six on the first die (hidden 1) or the second (hidden 0), which State
// does not tell apart and the battles do: four battles, by hand 25/36, 5/36, 5/36, 1/36.
func TestBranchesMergeOnlyEqualBattles(t *testing.T) {
	b := &tally{}
	var work int64
	got, err := tallyScript(t, 2).Branches(context.Background(), b, 1, &work)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		score, hidden int
		p             float64
		ways          int64
	}{{0, 0, 25.0 / 36, 25}, {1, 0, 5.0 / 36, 5}, {1, 1, 5.0 / 36, 5}, {2, 1, 1.0 / 36, 1}}
	if len(got) != len(want) {
		t.Fatalf("%d battles; want %d", len(got), len(want))
	}
	for _, w := range want {
		found := false
		for _, br := range got {
			x := br.Battle.(*tally)
			if x.score == w.score && x.hidden == w.hidden {
				found = true
				if math.Abs(br.P-w.p) > 1e-15 || br.Ways != w.ways {
					t.Errorf("score %d hidden %d: P %v over %d ways; want %v over %d", w.score, w.hidden, br.P, br.Ways, w.p, w.ways)
				}
			}
		}
		if !found {
			t.Errorf("no battle of score %d hidden %d", w.score, w.hidden)
		}
	}
	if b.score != 0 || b.hidden != 0 {
		t.Errorf("the battle asked of changed: %+v", *b)
	}
	if work != 36*(1+wayWork)+probes*(1+wayWork) {
		t.Errorf("work %d; want 36 ways and %d probes, each its Cost and wayWork", work, probes)
	}
}

// TestBranchesMergeAcrossActions: a second action is played once from each different
// battle, and the ways that lead to a battle add up through both actions. By hand, from
// (score 0, hidden 0) at 5/6 over 5 ways and (1, 1) at 1/6 over 1: (0, 0) at 25/36 over
// 25 ways; (1, 1) at 5/36 + 5/36 over 5 + 5; (2, 2) at 1/36 over 1.
func TestBranchesMergeAcrossActions(t *testing.T) {
	got, err := tallyScript(t, 1, 1).Branches(context.Background(), &tally{}, 2, new(int64))
	if err != nil {
		t.Fatal(err)
	}
	want := []Branch{{&tally{0, 0}, 25.0 / 36, 25}, {&tally{1, 1}, 10.0 / 36, 10}, {&tally{2, 2}, 1.0 / 36, 1}}
	if len(got) != len(want) {
		t.Fatalf("%d battles; want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if *g.Battle.(*tally) != *w.Battle.(*tally) || math.Abs(g.P-w.P) > 1e-15 || g.Ways != w.Ways {
			t.Errorf("battle %d: %+v at %v over %d ways; want %+v at %v over %d", i, g.Battle, g.P, g.Ways, w.Battle, w.P, w.Ways)
		}
	}
}

func TestBranchesRefuseWhatCannotBePlayedEverywhere(t *testing.T) {
	// One die, then an action refused where the score is odd: in 1/6 of the ways.
	_, err := tallyScript(t, 1, -1).Branches(context.Background(), &tally{}, 2, new(int64))
	if err == nil || !strings.Contains(err.Error(), "action 2 (roll) cannot be played in 16.7% of the ways") || !strings.Contains(err.Error(), "an odd score may not roll") {
		t.Errorf("err = %v; want action 2 refused in 16.7%% of the ways, and why", err)
	}
}

// TestBranchesPriceBeforeTheWork: ten dice have 6^10 ways, far past the limit: the
// estimate refuses them after its probes alone. Seven (279,936) are within twice the
// limit: they are counted, and refused at the limit.
func TestBranchesPriceBeforeTheWork(t *testing.T) {
	var work int64
	_, err := tallyScript(t, 10).Branches(context.Background(), &tally{}, 1, &work)
	if volley.ErrorCode(err) != volley.ETOOLARGE || !strings.Contains(err.Error(), "about 60466176 ways") || !strings.Contains(err.Error(), "--seed N") {
		t.Errorf("err = %v; want the estimated 6^10 ways refused, and --seed offered", err)
	}
	if work != probes*(1+wayWork) {
		t.Errorf("work %d before the refusal; want the probes' alone", work)
	}
	if testing.Short() {
		t.Skip("counting 200,000 ways")
	}
	work = 0
	_, err = tallyScript(t, 7).Branches(context.Background(), &tally{}, 1, &work)
	if volley.ErrorCode(err) != volley.ETOOLARGE || !strings.Contains(err.Error(), "more than 200000 ways") {
		t.Errorf("err = %v; want the ways refused at the limit", err)
	}
}

func TestBranchesStopWithTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := tallyScript(t, 2).Branches(ctx, &tally{}, 1, new(int64))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v; want the context's", err)
	}
}

// TestAskMixesTheOdds: the odds of a die rolled after one die are the mixture, by hand,
// of its odds from score 0 (5/6) and from score 1 (1/6); the aims, which differ, are
// grouped with their chances; a value every battle agrees on is kept as it is.
func TestAskMixesTheOdds(t *testing.T) {
	q, err := tallyScript(t, 1, 1).Ask(context.Background(), &tally{}, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if q.Ways != 6 || len(q.Branches) != 2 || q.Kind != "roll" {
		t.Fatalf("%d ways, %d battles, kind %q; want 6, 2, roll", q.Ways, len(q.Branches), q.Kind)
	}
	odds, given, err := q.Odds(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// Score after both: 0 = 5/6·5/6, 1 = 5/6·1/6 + 1/6·5/6, 2 = 1/6·1/6.
	want := map[int]float64{0: 25.0 / 36, 1: 10.0 / 36, 2: 1.0 / 36}
	d := odds.Targets[0].Distributions["score"]
	for k, p := range want {
		if math.Abs(d.P(k)-p) > 1e-15 {
			t.Errorf("P(score %d) = %v; want %v", k, d.P(k), p)
		}
	}
	if m := odds.Targets[0].Mean["score"]; math.Abs(m-2.0/6) > 1e-15 {
		t.Errorf("mean %v; want 1/3", m)
	}
	if odds.Values["dice"] != 1 || math.Abs(odds.Values["score_before"]-1.0/6) > 1e-15 {
		t.Errorf("values %v; want dice 1 as it is and score_before its mean 1/6", odds.Values)
	}
	if len(given) != 2 || math.Abs(given[0].P-5.0/6) > 1e-15 || given[0].Aims[0].PHit != 0 || given[1].Aims[0].PHit != 0.1 || odds.Aims != nil {
		t.Errorf("given %+v, aims %v; want the aims of score 0 (5/6) then of score 1 (1/6), and no aims of their own", given, odds.Aims)
	}
}

// TestAskGivenASeed plays the actions before with one seed's dice, as Play does.
func TestAskGivenASeed(t *testing.T) {
	for seed := range uint64(40) {
		b, c := &tally{}, &tally{}
		q, err := tallyScript(t, 3, 1).Ask(context.Background(), b, 1, &seed)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tallyScript(t, 3, 1).Play(context.Background(), c, seed, 1); err != nil {
			t.Fatal(err)
		}
		if len(q.Branches) != 1 || q.Branches[0].P != 1 || *q.Branches[0].Battle.(*tally) != *c {
			t.Fatalf("seed %d: %d battles, %+v; want the one Play leaves, %+v", seed, len(q.Branches), q.Branches[0].Battle, *c)
		}
	}
}

// TestMixOddsKeepsWhatAgrees: odds asked of one battle are themselves, and a
// distribution every battle has is kept bit for bit, not summed again.
func TestMixOddsKeepsWhatAgrees(t *testing.T) {
	d := dice.Binomial(3, 0.3)
	o := volley.Odds{Targets: []volley.TargetOdds{{Target: "t", Distributions: map[string]dice.Dist{"x": d}, Mean: map[string]float64{"x": d.Mean()}, PDestroyed: 0.3}},
		Values:  map[string]float64{"v": 0.1},
		Squares: []volley.SquareOdds{{X: 1, Y: 2, P: 0.7}},
		Joint:   []volley.JointOutcome{{Outcome: map[string]int{"t x": 1}, P: 0.7}}}
	m := MixOdds([]float64{0.1, 0.2, 0.7}, []volley.Odds{o, o, o})
	if !equalDist(m.Targets[0].Distributions["x"], d) || m.Targets[0].PDestroyed != 0.3 || m.Values["v"] != 0.1 || m.Squares[0].P != 0.7 || m.Joint[0].P != 0.7 {
		t.Errorf("mixed %+v; want o's numbers bit for bit", m)
	}
	// A target one battle lacks counts there as nothing.
	m = MixOdds([]float64{0.25, 0.75}, []volley.Odds{o, {}})
	if got := m.Targets[0].Distributions["x"].P(0); math.Abs(got-(0.25*d.P(0)+0.75)) > 1e-15 {
		t.Errorf("P(x=0) = %v; want 0.25·%v + 0.75", got, d.P(0))
	}
	if m.Squares[0].P != 0.25*0.7 || m.Joint[0].P != 0.25*0.7 || m.Targets[0].PDestroyed != 0.25*0.3 {
		t.Errorf("mixed %+v; want a quarter of o's chances", m)
	}
}

func equalDist(a, b dice.Dist) bool {
	x, y := a.Outcomes(), b.Outcomes()
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}
