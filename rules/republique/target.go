package republique

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
)

// How a battery sees the table: its arc of fire, the range bracket of every enemy unit in
// it, and the main target the rules force on it.

// arc is a battery's 60° arc of fire, from the outer front edges of its base.
func (u *Unit) arc() Arc { return Arc{Edge: u.Bases[0].Front(), Bearing: u.Facing} }

// muzzle is the middle of a battery's front edge: where its frontage zone and centre of
// fire begin.
func (u *Unit) muzzle() geom.Vec {
	f := u.Bases[0].Front()
	return f.A.Lerp(f.B, 0.5)
}

// reach is a unit's distance from a battery, front edge to the nearest base, in cm.
func reach(bat, u *Unit) float64 {
	d := math.Inf(1)
	front := bat.Bases[0].Front()
	for _, r := range u.Bases {
		d = min(d, segRectDist(front, r))
	}
	return d
}

// coverAt is the heaviest cover over a point.
func (b *Battle) coverAt(p geom.Vec) Cover {
	c := Open
	for _, t := range b.terrain {
		if t.Poly != nil && t.Cover > c && t.Poly.Contains(p) {
			c = t.Cover
		}
	}
	return c
}

// levelAt is the elevation level of a point: the highest hill over it.
func (b *Battle) levelAt(p geom.Vec) int {
	l := 0
	for _, t := range b.terrain {
		if t.Poly != nil && t.Level > l && t.Poly.Contains(p) {
			l = t.Level
		}
	}
	return l
}

// inCover counts a unit's bases whose centres are in cover of at least class c.
func (b *Battle) inCover(u *Unit, c Cover) int {
	n := 0
	for _, r := range u.Bases {
		if b.coverAt(r.C) >= c {
			n++
		}
	}
	return n
}

// covered reports whether half or more of a unit is in cover of at least class c.
func (b *Battle) covered(u *Unit, c Cover) bool {
	return len(u.Bases) > 0 && 2*b.inCover(u, c) >= len(u.Bases)
}

// hidden reports whether artillery cannot spot a unit: every base lies more than half
// an inch inside cover.
func (b *Battle) hidden(u *Unit) bool {
	for _, r := range u.Bases {
		if !b.deepInCover(r) {
			return false
		}
	}
	return len(u.Bases) > 0
}

func (b *Battle) deepInCover(r Rect) bool {
	for _, t := range b.terrain {
		if t.Poly == nil || t.Cover == Open {
			continue
		}
		inside := true
		for _, c := range r.Corners() {
			if !t.Poly.Contains(c) {
				inside = false
				break
			}
		}
		if !inside {
			continue
		}
		d := math.Inf(1)
		for _, e := range edges(t.Poly) {
			d = min(d, segRectDist(e, r))
		}
		if d > SpotInsideCover {
			return true
		}
	}
	return false
}

// beyondObstacle reports whether an obstacle lies between two points.
func (b *Battle) beyondObstacle(from, to geom.Vec) bool {
	s := geom.Segment{A: from, B: to}
	for _, t := range b.terrain {
		for i := 0; i+1 < len(t.Line); i++ {
			if _, ok := s.Intersect(geom.Segment{A: t.Line[i], B: t.Line[i+1]}); ok {
				return true
			}
		}
	}
	return false
}

// candidate is an enemy unit a battery could fire at: in its arc and range, spotted.
type candidate struct {
	u       *Unit
	dist    float64 // cm, front edge to nearest base
	bracket int
	offset  float64 // from the battery's straight-ahead centre line
}

// candidates are the enemy units in a battery's arc and range that it can spot, nearest
// bracket first and, within a bracket, in the order the main target rule ranks them.
func (b *Battle) candidates(bat *Unit) []candidate {
	arc := bat.arc()
	var out []candidate
	for i := range b.units {
		u := &b.units[i]
		if u.Side == bat.Side || u.Destroyed() || b.hidden(u) {
			continue
		}
		inArc := false
		for _, r := range u.Bases {
			if area(arc.Inside(r)) > 1e-6 {
				inArc = true
				break
			}
		}
		if !inArc {
			continue
		}
		if c, ok := b.candidate(bat, u); ok {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(x, y candidate) int {
		if x.bracket != y.bracket {
			return x.bracket - y.bracket
		}
		first, second := x.offset-y.offset, x.dist-y.dist
		if b.opts.mainByDistance {
			first, second = second, first
		}
		switch {
		case math.Abs(first) > geom.Tolerance:
			return sign(first)
		case math.Abs(second) > geom.Tolerance:
			return sign(second)
		}
		return strings.Compare(x.u.ID, y.u.ID)
	})
	return out
}

// candidate is u as a battery's target: its distance, bracket and offset from the
// centre line; false beyond the range line.
func (b *Battle) candidate(bat, u *Unit) (candidate, bool) {
	d := reach(bat, u)
	br := b.charts.bracketOf(bat.Gun, d)
	if br < 0 {
		return candidate{}, false
	}
	off := math.Inf(1)
	for _, r := range u.Bases {
		off = min(off, offset(bat.muzzle(), bat.Facing, r))
	}
	return candidate{u: u, dist: d, bracket: br, offset: off}, true
}

func sign(x float64) int {
	if x < 0 {
		return -1
	}
	return 1
}

// whyMain says why the first candidate is the main target rather than another.
func (b *Battle) whyMain(bat *Unit, cs []candidate, other *Unit) string {
	m := cs[0]
	var o *candidate
	for i := range cs {
		if cs[i].u == other {
			o = &cs[i]
		}
	}
	br := func(c candidate) string {
		return fmt.Sprintf("%s, %s", b.charts.Ranges[bat.Gun][c.bracket].Name, fmtCm(c.dist))
	}
	switch {
	case o == nil:
		return fmt.Sprintf("not the main target: %s is not in %s's arc of fire and range, or cannot be spotted; %s is the main target (%s)", name(other), bat.ID, name(m.u), br(m))
	case o.bracket > m.bracket:
		return fmt.Sprintf("not the main target: %s is in a closer range bracket (%s) than %s (%s)", name(m.u), br(m), other.ID, br(*o))
	case b.opts.mainByDistance && m.dist < o.dist-geom.Tolerance:
		return fmt.Sprintf("not the main target: %s is the closest unit in the closest bracket (%s against %s)", name(m.u), fmtCm(m.dist), fmtCm(o.dist))
	}
	return fmt.Sprintf("not the main target: %s and %s are both in the closest bracket (%s), and %s is closer to %s's centre line (%s off it, against %s)",
		name(m.u), other.ID, b.charts.Ranges[bat.Gun][m.bracket].Name, m.u.ID, bat.ID, fmtCm(m.offset), fmtCm(o.offset))
}

// zoneAt is a battery's frontage zone swung towards a unit: its centre of fire aims at
// the middle of the unit's bases, turned no further than the edge of the arc.
func (b *Battle) zoneAt(bat, u *Unit) Zone {
	var c geom.Vec
	for _, r := range u.Bases {
		c = c.Add(r.C)
	}
	c = c.Scale(1 / float64(len(u.Bases)))
	from := bat.muzzle()
	turn := geom.AngleDiff(bat.Facing, geom.Bearing(from, c))
	turn = max(-ArcOfFire/2, min(ArcOfFire/2, turn))
	depth := b.charts.maxRange(bat.Gun)
	if b.opts.zoneToTarget {
		depth = 0
		f := dir(bat.Facing + turn)
		for _, r := range u.Bases {
			for _, p := range r.Corners() {
				depth = max(depth, f.Dot(p.Sub(from)))
			}
		}
	}
	return Zone{From: from, Bearing: geom.NormDeg(bat.Facing + turn), Width: bat.Bases[0].W, Depth: depth, Facing: bat.Facing}
}

// friendsInZone names the friendly bases and markers in a zone.
func (b *Battle) friendsInZone(bat *Unit, z Zone) []string {
	var out []string
	for i := range b.units {
		u := &b.units[i]
		if u.Side != bat.Side || u == bat {
			continue
		}
		for _, r := range u.Bases {
			if area(clip(r.Polygon(), z.planes()...)) > 1e-6 {
				out = append(out, u.ID)
				break
			}
		}
	}
	for i := range b.markers {
		m := &b.markers[i]
		if m.Side == bat.Side && area(clip(m.R.Polygon(), z.planes()...)) > 1e-6 {
			out = append(out, m.ID)
		}
	}
	return out
}

// whenFire is why no battery may fire now, at this moment of the turn, or "".
func (b *Battle) whenFire(bat *Unit, passing bool) string {
	p := &b.phase
	switch {
	case passing && p.step != Maneuver:
		return "passing fire is opportunity fire during the enemy's movement (the maneuver step)"
	case passing && b.phasing() == bat.Side:
		return "passing fire is at enemy units moving in their own player turn"
	case !passing && p.step != ArtillerySegment:
		return fmt.Sprintf("artillery fires in the artillery fire segment, and this is the %s step", p.step)
	}
	return ""
}

// mayFire is why a battery may not fire at all, or "".
func (b *Battle) mayFire(bat *Unit, passing bool) string {
	p := &b.phase
	switch {
	case bat.Destroyed():
		return bat.ID + " is destroyed"
	case bat.Limbered:
		return "limbered batteries may not fire"
	case bat.Damaged && bat.Morale > 0:
		return fmt.Sprintf("silenced: %s is damaged and has morale hits (%s); it may not fire until it is ordered", bat.ID, b.moraleName(bat.Morale))
	case !bat.Damaged && bat.Morale >= b.shaken():
		return fmt.Sprintf("%s is %s: a battery shaken or worse may not fire until its morale improves to rattled or better", bat.ID, b.moraleName(bat.Morale))
	case !passing && slices.Contains(p.passed, bat.ID):
		// Before "once a turn", which passing fire also spends: this rule says more.
		return bat.ID + " conducted passing fire this turn and may not fire in the following artillery phase"
	case slices.Contains(p.done, bat.ID):
		return bat.ID + " has already fired or saved fire this player turn: a battery fires once each player turn"
	case passing && bat.SavedFire:
		return "batteries saving fire may not use passing fire"
	}
	return ""
}

// qualifiedLeader is the good artillery leader attached to one of the batteries, in the
// chain of command of half or more of them, or nil. A group of several must be a massed
// battery: every battery touching another.
func (b *Battle) qualifiedLeader(bats []*Unit) *Leader {
	if len(bats) > 1 && !massed(bats) {
		return nil
	}
	for i := range b.leaders {
		l := &b.leaders[i]
		if l.Gone != "" || !l.Artillery || l.Rating < GoodLeaderRating {
			continue
		}
		attached, inChain := false, 0
		for _, u := range bats {
			attached = attached || l.Attached == u.ID
			if l.Command == "" || l.Command == u.Command {
				inChain++
			}
		}
		if attached && 2*inChain >= len(bats) {
			return l
		}
	}
	return nil
}

// massed reports whether batteries form one massed battery: bases touching, in a chain.
func massed(bats []*Unit) bool {
	reached := []int{0}
	for k := 0; k < len(reached); k++ {
		for j := range bats {
			if !slices.Contains(reached, j) && rectDist(bats[reached[k]].Bases[0], bats[j].Bases[0]) <= 0.05 {
				reached = append(reached, j)
			}
		}
	}
	return len(reached) == len(bats)
}

// enfilade reports whether a battery fires at a unit from enfilade: more than half of
// its frontage inside the 60° enfilade arc on the unit's flank nearest to it. Squares
// always are, units in full cover never.
func (b *Battle) enfilade(bat, u *Unit) (bool, *Arc) {
	if u.Formation == Square {
		return true, nil
	}
	if b.covered(u, Full) {
		return false, nil
	}
	arc := b.enfiladeArc(bat, u)
	return arc.Fraction(bat.Bases[0].Front()) > 0.5+1e-9, &arc
}

// enfiladeArc is the enfilade arc on the flank of u nearest the battery: aligned to
// that flank, as long as the unit is deep or the battery is wide (whichever is more),
// flush with the unit's front edge, or with its rear edge when the battery is behind
// the unit.
func (b *Battle) enfiladeArc(bat, u *Unit) Arc {
	fwd, right := dir(u.Facing), dir(u.Facing+90)
	o := u.Bases[0].C
	loX, hiX, loY, hiY := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, r := range u.Bases {
		for _, c := range r.Corners() {
			x, y := right.Dot(c.Sub(o)), fwd.Dot(c.Sub(o))
			loX, hiX, loY, hiY = min(loX, x), max(hiX, x), min(loY, y), max(hiY, y)
		}
	}
	bx, by := right.Dot(bat.muzzle().Sub(o)), fwd.Dot(bat.muzzle().Sub(o))
	length := max(hiY-loY, bat.Bases[0].W)
	front, back := hiY, hiY-length
	if by < loY {
		front, back = loY+length, loY
	}
	pt := func(x, y float64) geom.Vec { return o.Add(right.Scale(x)).Add(fwd.Scale(y)) }
	if bx < (loX+hiX)/2 { // the left flank, looking out to the left
		return Arc{Edge: geom.Segment{A: pt(loX, back), B: pt(loX, front)}, Bearing: geom.NormDeg(u.Facing - 90)}
	}
	return Arc{Edge: geom.Segment{A: pt(hiX, front), B: pt(hiX, back)}, Bearing: geom.NormDeg(u.Facing + 90)}
}

// volley.Modifier helpers.
func mod(rule string, v int) volley.Modifier { return volley.Modifier{Rule: rule, Value: float64(v)} }
