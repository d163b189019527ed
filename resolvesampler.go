package volley

import (
	"context"
	"slices"

	"github.com/volley-wargames/volley/dice"
)

// ResolveSampler is a Sampler for a battle that can be copied (Forker) and has no faster
// one of its own: each draw resolves a on a fresh copy of b, so that Monte Carlo holds
// Resolve itself to the exact odds. targets are the units a may hurt, in the order of its
// Odds; measures are the TargetResult measures tallied, then "destroyed". The action must
// be one b takes now: its refusal is the error. Draw is safe for concurrent use.
func ResolveSampler(b Battle, a Action, targets []string, measures ...string) (*Sim, error) {
	fk, ok := b.(Forker)
	if !ok {
		return nil, Errorf(ENOTSUPPORTED, "volley: this battle cannot be copied, so it cannot be sampled by resolving")
	}
	if _, err := fk.Fork().Resolve(context.Background(), a, dice.NewUnrecorded(1)); err != nil {
		return nil, err
	}
	n := len(measures) + 1
	return &Sim{Targets: targets, Measures: append(slices.Clone(measures), "destroyed"), Destroyed: len(measures), Draw: func(d *dice.Stream, out []int) {
		clear(out)
		res, _ := fk.Fork().Resolve(context.Background(), a, d)
		for _, r := range res.Targets {
			if t := slices.Index(targets, r.Target); t >= 0 {
				for m, name := range measures {
					out[t*n+m] = int(r.Measures[name])
				}
				if r.Destroyed {
					out[t*n+len(measures)] = 1
				}
			}
		}
	}}, nil
}
