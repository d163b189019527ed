package republique

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/geom"
)

// The skirmish fire step: markers within 8cm of enemy markers are opposed and may not
// fire; each unopposed marker fires once per turn with a d10 on the skirmish chart.

// pairs are the opposed markers of the step: the phasing player's declaration, or the
// default pairing.
func (b *Battle) pairs() [][2]string {
	if b.phase.paired {
		return b.phase.pairs
	}
	return b.defaultPairs()
}

// markerGap is the distance between two markers, edge to edge.
func markerGap(a, c *Marker) float64 { return rectDist(a.R, c.R) }

// defaultPairs pairs opposed markers closest first: of every phasing marker and enemy
// marker within 8cm, the closest two are paired, then the closest two of the rest, and
// so on (volley's reading: the text lets the phasing player choose when the numbers are
// uneven; this is the choice when the player declares none). Ties go by ids.
func (b *Battle) defaultPairs() [][2]string {
	type cand struct {
		a, e string
		d    float64
	}
	var cs []cand
	for i := range b.markers {
		m := &b.markers[i]
		if m.Side != b.phasing() {
			continue
		}
		for j := range b.markers {
			e := &b.markers[j]
			if e.Side == m.Side {
				continue
			}
			if d := markerGap(m, e); d <= OpposeWithin+geom.Tolerance {
				cs = append(cs, cand{m.ID, e.ID, d})
			}
		}
	}
	slices.SortStableFunc(cs, func(x, y cand) int {
		if math.Abs(x.d-y.d) > geom.Tolerance {
			return sign(x.d - y.d)
		}
		if c := strings.Compare(x.a, y.a); c != 0 {
			return c
		}
		return strings.Compare(x.e, y.e)
	})
	var out [][2]string
	used := map[string]bool{}
	for _, c := range cs {
		if !used[c.a] && !used[c.e] {
			used[c.a], used[c.e] = true, true
			out = append(out, [2]string{c.a, c.e})
		}
	}
	return out
}

// opposedBy is the marker that opposes m, or "".
func (b *Battle) opposedBy(id string) string {
	for _, p := range b.pairs() {
		switch id {
		case p[0]:
			return p[1]
		case p[1]:
			return p[0]
		}
	}
	return ""
}

// checkOppose is why a pairing may not be declared, or "".
func (b *Battle) checkOppose(o *Oppose) string {
	if b.phase.step != Skirmish {
		return fmt.Sprintf("opposed skirmishers are declared in the skirmish fire step, and this is the %s step", b.phase.step)
	}
	for _, id := range b.phase.done {
		if b.marker(id) != nil {
			return "skirmish markers have fired this step already: pairs are declared before any fire"
		}
	}
	used := map[string]bool{}
	for _, p := range o.Pairs {
		a, e := b.marker(p[0]), b.marker(p[1])
		switch {
		case a.Side == e.Side:
			return fmt.Sprintf("%s and %s are on the same side: a marker opposes an enemy marker", a.ID, e.ID)
		case markerGap(a, e) > OpposeWithin+geom.Tolerance:
			return fmt.Sprintf("%s and %s are %s apart: a marker may oppose an enemy marker within %gcm", a.ID, e.ID, fmtCm(markerGap(a, e)), OpposeWithin)
		case used[a.ID] || used[e.ID]:
			return "a marker is in one pair at most"
		}
		used[a.ID], used[e.ID] = true, true
	}
	// Every marker that could be opposed is: the phasing player only chooses which,
	// when the numbers are uneven.
	for i := range b.markers {
		for j := range b.markers {
			m, e := &b.markers[i], &b.markers[j]
			if m.Side == b.phasing() && e.Side != m.Side && !used[m.ID] && !used[e.ID] && markerGap(m, e) <= OpposeWithin+geom.Tolerance {
				return fmt.Sprintf("%s and %s are within %gcm and neither is paired: only the markers left over when the numbers are uneven stay unopposed", m.ID, e.ID, OpposeWithin)
			}
		}
	}
	return ""
}

// skirmishPlan is one marker's fire worked out.
type skirmishPlan struct {
	m       *Marker
	target  *Unit
	aim     volley.Aim
	bracket int
}

func (b *Battle) planSkirmish(s *SkirmishFire) *skirmishPlan {
	m, t := b.marker(s.Marker), b.Unit(s.Target)
	p := &skirmishPlan{m: m, target: t, bracket: -1, aim: volley.Aim{Shooter: s.Marker, Weapon: "skirmish fire", Target: s.Target, RangeUnit: "cm", Die: D10, Modifiers: []volley.Modifier{}}}
	refuse := func(st volley.AimStatus, why string) { p.aim.Status, p.aim.Reason = st, why }
	d := math.Inf(1)
	for _, r := range t.Bases {
		d = min(d, rectDist(m.R, r))
	}
	if !math.IsInf(d, 1) {
		p.aim.Range = round3(d)
	}
	ch := &b.charts.Skirmish
	switch {
	case b.phase.step != Skirmish:
		refuse(volley.StatusNotEligible, fmt.Sprintf("skirmishers fire in the skirmish fire step, and this is the %s step", b.phase.step))
	case slices.Contains(b.phase.done, m.ID):
		refuse(volley.StatusNotEligible, m.ID+" has fired this turn: each marker fires once per turn")
	case b.opposedBy(m.ID) != "":
		refuse(volley.StatusNotEligible, fmt.Sprintf("%s is opposed by %s: opposed skirmishers are tied down and may not fire on combat bases this turn", m.ID, b.opposedBy(m.ID)))
	case t.Side == m.Side:
		refuse(volley.StatusNotEligible, t.ID+" is a friendly unit")
	case t.Destroyed():
		refuse(volley.StatusNotEligible, t.ID+" is destroyed")
	default:
		p.bracket = ch.bracket(d)
		if p.bracket < 0 {
			refuse(volley.StatusOutOfRange, fmt.Sprintf("%s is %s from %s, beyond the skirmishers' range (%s)", t.ID, fmtCm(d), m.ID, fmtCm(ch.Ranges[len(ch.Ranges)-1].To.In("cm"))))
			break
		}
		n, need := 0, 0
		for face := 1; face <= D10; face++ {
			if ch.morale(p.bracket, face) > 0 {
				n++
				if need == 0 {
					need = face
				}
			}
		}
		p.aim.Status = volley.StatusOK
		p.aim.Reason = fmt.Sprintf("%s is unopposed and %s is at %s range", m.ID, t.ID, ch.Ranges[p.bracket].Name)
		p.aim.PHit, p.aim.Need = float64(n)/D10, float64(need)
		if parent := b.parentsOf(t); parent != "" {
			p.aim.Notes = append(p.aim.Notes, fmt.Sprintf("%s is the parent light unit of enemy skirmish marker %s: a marker may fire at it", t.ID, parent))
		}
		p.aim.Notes = append(p.aim.Notes, "each morale hit lowers the target's morale one step, at the end of the skirmish fire step")
	}
	return p
}

// parentsOf names a marker deployed by u, if any.
func (b *Battle) parentsOf(u *Unit) string {
	for i := range b.markers {
		if b.markers[i].Parent == u.ID {
			return b.markers[i].ID
		}
	}
	return ""
}

// skirmishOdds is the exact distribution of the morale hits of one marker's fire.
func (b *Battle) skirmishOdds(s *SkirmishFire) volley.Odds {
	p := b.planSkirmish(s)
	o := volley.Odds{Aims: []volley.Aim{p.aim}, Targets: []volley.TargetOdds{}, Values: map[string]float64{}}
	if p.aim.Status != volley.StatusOK {
		return o
	}
	faces := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	if s.Die != 0 {
		faces = []int{s.Die}
	}
	m := map[int]float64{}
	for _, f := range faces {
		m[b.charts.Skirmish.morale(p.bracket, f)] += 1 / float64(len(faces))
	}
	d := distOf(m)
	o.Targets = append(o.Targets, volley.TargetOdds{Target: p.target.ID, Distributions: map[string]dice.Dist{MeasureMorale: d}, Mean: map[string]float64{MeasureMorale: d.Mean()}})
	o.Values["p_effect"] = 1 - d.P(0)
	return o
}

func distOf(m map[int]float64) dice.Dist {
	d, err := dice.FromMap(m)
	if err != nil {
		panic("republique: " + err.Error())
	}
	return d
}
