package rulestest

import (
	"math"
	"testing"

	"github.com/volley-wargames/volley"
)

// SimSigmas is the Monte Carlo tolerance of the systems' tests: a probability simulated
// over n trials must lie within SimSigmas standard errors of the exact one, plus 1/n for
// outcomes too rare to show up. At a fixed seed a test is deterministic; five standard
// errors keep it meaningful (a wrong rule shifts probabilities by far more) without
// being brittle.
const SimSigmas = 5

// Agrees reports whether sim, a probability simulated over n trials, agrees with the
// exact one within SimSigmas standard errors (plus 1/n).
func Agrees(exact, sim float64, n int) bool {
	return math.Abs(exact-sim) <= SimSigmas*math.Sqrt(exact*(1-exact)/float64(n))+1/float64(n)
}

// SimAgreesWithOdds rolls a trials times with b's sampler from seed (volley.Simulate,
// the fast roll of what Resolve does) and fails the test where a target's distribution
// of any measure, or its chance to be destroyed, strays from b's exact odds.
func SimAgreesWithOdds(t *testing.T, b volley.Battle, a volley.Action, seed uint64, trials int) {
	t.Helper()
	odds := Odds(t, b, a)
	CompareToExact(t, odds, volley.Simulate(sampler(t, b, a), seed, trials, nil).Targets, trials)
}

// sampler is b's sampler of a, failing the test where b samples none.
func sampler(tb testing.TB, b volley.Battle, a volley.Action) *volley.Sim {
	tb.Helper()
	s, ok := b.(volley.Sampler)
	if !ok {
		tb.Fatalf("%T does not sample", b)
	}
	sim, err := s.Sampler(a)
	if err != nil {
		tb.Fatal(err)
	}
	return sim
}

// CompareToExact fails the test where got, the targets' odds simulated over n trials,
// strays from the exact odds: a target missing or out of order, a measure's probability
// or the chance to be destroyed.
func CompareToExact(t *testing.T, odds volley.Odds, got []volley.TargetOdds, n int) {
	t.Helper()
	if len(got) != len(odds.Targets) {
		t.Fatalf("%d simulated targets; %d exact", len(got), len(odds.Targets))
	}
	for i, x := range odds.Targets {
		s := got[i]
		if s.Target != x.Target {
			t.Fatalf("target %d is %s; exact has %s", i, s.Target, x.Target)
		}
		for m, xd := range x.Distributions {
			sd := s.Distributions[m]
			for v := min(xd.Min(), sd.Min()); v <= max(xd.Max(), sd.Max()); v++ {
				if !Agrees(xd.P(v), sd.P(v), n) {
					t.Errorf("%s P(%s=%d): simulated %.5f, exact %.5f", x.Target, m, v, sd.P(v), xd.P(v))
				}
			}
		}
		if !Agrees(x.PDestroyed, s.PDestroyed, n) {
			t.Errorf("%s p_destroyed: simulated %.5f, exact %.5f", x.Target, s.PDestroyed, x.PDestroyed)
		}
	}
}
