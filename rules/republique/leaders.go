package republique

import (
	"fmt"
	"math"

	"github.com/volley-wargames/volley"
)

// Leader injuries, after all skirmish and artillery fire of the phase.

// distTo is the distance from a leader to a unit's nearest base (bases lost this turn
// included: the unit stood there when it was fired upon).
func (b *Battle) distTo(l *Leader, u *Unit) float64 {
	d := math.Inf(1)
	for _, r := range u.Bases {
		d = min(d, pointRectDist(l.At, r))
	}
	for _, lb := range b.phase.lost {
		if lb.Unit == u.ID {
			d = min(d, pointRectDist(l.At, lb.R))
		}
	}
	return d
}

// injuryTest is a leader's test: at risk or not, and the modifiers.
type injuryTest struct {
	l    *Leader
	why  string
	mods []volley.Modifier
	sum  int
}

// injuryTests are the tests of every leader at risk: within 8cm of a unit fired upon this
// phase by a battery that had a modified chance to hit, or by skirmishers.
func (b *Battle) injuryTests() []injuryTest {
	var out []injuryTest
	for i := range b.leaders {
		l := &b.leaders[i]
		if l.Gone != "" {
			continue
		}
		why := ""
		for _, id := range b.phase.firedUpon {
			u := b.Unit(id)
			if b.opts.riskOwnOnly && u.Side != l.Side {
				continue
			}
			if d := b.distTo(l, u); d <= LeaderRisk+1e-9 {
				why = fmt.Sprintf("within %gcm of %s (%s), fired upon this phase", LeaderRisk, u.ID, fmtCm(d))
				break
			}
		}
		if why == "" {
			continue
		}
		t := injuryTest{l: l, why: why}
		for _, id := range b.phase.skirmished {
			u := b.Unit(id)
			if u.Side == l.Side && b.distTo(l, u) <= LeaderRisk+1e-9 {
				t.mods = append(t.mods, mod("within 8cm of "+u.ID+", which suffered morale hits from enemy skirmishers", SkirmishedModifier))
				break
			}
		}
		if l.Attached != "" {
			t.mods = append(t.mods, mod("attached to "+l.Attached+" (leading attack or defence)", AttachedModifier))
		}
		lost := 0
		for _, lb := range b.phase.lost {
			if lb.Side == l.Side && pointRectDist(l.At, lb.R) <= LeaderRisk+1e-9 {
				lost++
			}
		}
		if lost > 0 {
			t.mods = append(t.mods, mod(fmt.Sprintf("%d friendly combat base(s) lost within 8cm this player turn", lost), lost*BaseLostModifier))
		}
		near, covered := 0, 0
		for j := range b.units {
			u := &b.units[j]
			if u.Destroyed() || b.distTo(l, u) > LeaderRisk+1e-9 {
				continue
			}
			near++
			if 2*b.inCover(u, Solid) >= len(u.Bases) {
				covered++
			}
		}
		if near > 0 && 2*covered >= near {
			t.mods = append(t.mods, mod("half or more of the units within 8cm are in cover", LeaderCoverModifier))
		}
		t.sum = sum(t.mods)
		out = append(out, t)
	}
	return out
}

// injuryOdds are each leader's chances: unhurt, injured, killed.
func (b *Battle) injuryOdds(t injuryTest) (unhurt, injured, killed float64) {
	for face := 1; face <= D10; face++ {
		switch b.charts.injury(face + t.sum) {
		case Killed:
			killed += 0.1
		case Injured:
			injured += 0.1
		default:
			unhurt += 0.1
		}
	}
	return
}
