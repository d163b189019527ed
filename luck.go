package volley

import (
	"math"
	"slices"
)

// Luck says where a rolled result fell in the exact distribution volley worked out
// before rolling: for each target, and each measure the rule system gives a
// distribution of (hits, damage, casualties…), the share of outcomes below the one
// rolled, counting half of those equal to it (the mid-rank percentile). 0.5 is an
// average roll; 0.9 means nine rolls in ten would have done less. Every measure counted
// is one the rolling side wants more of. A measure that could come out only one way
// says nothing of luck and is left out.
type Luck struct {
	// Percentile is the mean of Measures' percentiles, in [0, 1].
	Percentile float64 `json:"percentile"`
	// Measures are each target's measures, in the order of the odds.
	Measures []MeasureLuck `json:"measures"`
}

// MeasureLuck is where one measure of one target fell.
type MeasureLuck struct {
	Target  string  `json:"target"`
	Measure string  `json:"measure"`
	Rolled  float64 `json:"rolled"`
	Mean    float64 `json:"mean"`
	// Percentile is P(X < rolled) + P(X = rolled)/2.
	Percentile float64 `json:"percentile"`
}

// LuckOf compares an outcome with the odds worked out before it was rolled; nil when no
// measure of it could have come out more than one way.
func LuckOf(o Odds, out Outcome) *Luck {
	rolled := map[string]map[string]float64{}
	for _, t := range out.Targets {
		rolled[t.Target] = t.Measures
	}
	l := &Luck{}
	sum := 0.0
	for _, t := range o.Targets {
		got, ok := rolled[t.Target]
		if !ok {
			continue
		}
		names := make([]string, 0, len(t.Distributions))
		for m := range t.Distributions {
			names = append(names, m)
		}
		slices.Sort(names)
		for _, m := range names {
			x, ok := got[m]
			if !ok {
				continue
			}
			dist := t.Distributions[m]
			below, at, outcomes := 0.0, 0.0, 0
			for _, p := range dist.Outcomes() {
				if p.P <= 0 {
					continue
				}
				outcomes++
				switch v := float64(p.Value); {
				case v < x:
					below += p.P
				case v == x:
					at += p.P
				}
			}
			if outcomes < 2 {
				continue
			}
			pc := round6(below + at/2)
			l.Measures = append(l.Measures, MeasureLuck{Target: t.Target, Measure: m, Rolled: x, Mean: round6(t.Mean[m]), Percentile: pc})
			sum += pc
		}
	}
	if len(l.Measures) == 0 {
		return nil
	}
	l.Percentile = round6(sum / float64(len(l.Measures)))
	return l
}

// round6 rounds to a millionth: luck is for people, and a last bit that differs between
// machines must not show.
func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }
