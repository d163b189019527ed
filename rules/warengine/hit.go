package warengine

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
)

// shot is one weapon of one unit aimed at one square.
type shot struct {
	unit     *Unit
	load     *Loadout
	w        *Weapon
	from     geom.Square // the weapon's square
	target   geom.Square // the declared square
	friendly bool
	// aiming is whether the unit aims (it did not move in its Phase I); picks is how many
	// times the square is picked: three for a repeating weapon fired without aiming, once
	// otherwise.
	aiming bool
	picks  int
}

func (b *Battle) newShot(u *Unit, l *Loadout, target geom.Square, friendly bool) *shot {
	return b.aimedShot(u, l, target, friendly, u.Aiming)
}

// orderShot is the shot of an order: aimed as the order states, if it does (the command
// line's "what if"), else as the unit is.
func (b *Battle) orderShot(o *Order, u *Unit, l *Loadout, target geom.Square, friendly bool) *shot {
	return b.aimedShot(u, l, target, friendly, aimingOf(o, u))
}

func (b *Battle) aimedShot(u *Unit, l *Loadout, target geom.Square, friendly, aiming bool) *shot {
	s := &shot{unit: u, load: l, w: b.weapons[l.Weapon], from: u.mount(l), target: target, friendly: friendly, aiming: aiming, picks: 1}
	if s.w.Repeating && !aiming {
		s.picks = RepeatingPicks
	}
	return s
}

// band is the range band of a weapon at a distance in squares: short, medium, or long
// for anything further (a target beyond the long band's reach is corrected onto the
// envelope when declared, but a deviated pick can start further out).
func band(w *Weapon, dist int) (*RangeBand, string) {
	switch {
	case dist <= w.Short.Range:
		return &w.Short, "short"
	case dist <= w.Medium.Range:
		return &w.Medium, "medium"
	}
	return &w.Long, "long"
}

// moraleModifier is the courage or panic percentage of a firing unit, and its name:
// courage for a morale at or below -50 (or, with courage_when: high, at or above +50),
// panic for a badly shaken or panicked unit.
func (b *Battle) moraleModifier(u *Unit) (int, string) {
	switch {
	case u.Status.shaken():
		return PanicModifier, "panic (" + string(u.Status) + ")"
	case !b.opts.courageHigh && u.Morale <= CourageMorale, b.opts.courageHigh && u.Morale >= -CourageMorale:
		return CourageModifier, "courage"
	}
	return 0, ""
}

// line is the line of fire from a to b with the scenario's line algorithm.
func (b *Battle) line(a, c geom.Square) []geom.Square { return geom.Line(a, c, b.opts.line) }

// walk visits the line of fire from a to c, square by square, until f returns false.
func (b *Battle) walk(a, c geom.Square, f func(geom.Square) bool) {
	geom.WalkLine(a, c, b.opts.line, f)
}

// visibilitySum adds the "diminishes visibility" of every square on the line from the
// weapon to the target, the weapon's own square excluded and the target's included.
func (b *Battle) visibilitySum(from, to geom.Square) int {
	sum := 0
	b.walk(from, to, func(q geom.Square) bool {
		if q != from && b.onMap(q) {
			sum += b.terrainAt(q).Visibility
		}
		return true
	})
	return sum
}

// chanceToHit is ChanceToHit for a pick aimed at square to: weapon skill, aiming,
// courage or panic, the range band's accuracy, and the terrain along the line. With
// terms set it also lists every term, for aims and traces; the exact odds compute
// thousands of picks and skip that.
func (b *Battle) chanceToHit(s *shot, to geom.Square, terms bool) (float64, []volley.Modifier) {
	u := s.unit
	var mods []volley.Modifier
	cth := 0.0
	add := func(v float64, rule func() string) {
		cth += v
		if terms {
			mods = append(mods, volley.Modifier{Rule: rule(), Value: v})
		}
	}
	add(float64(u.Type.WeaponSkill), func() string { return "weapon skill" })
	if s.aiming {
		add(AimingBonus, func() string { return "aiming" })
	}
	if b.opts.moraleAffectsHit {
		if m, why := b.moraleModifier(u); m != 0 {
			add(float64(m), func() string { return fmt.Sprintf("%s (morale %d)", why, u.Morale) })
		}
	}
	dist := s.from.Chebyshev(to)
	bd, name := band(s.w, dist)
	add(float64(bd.Accuracy), func() string { return fmt.Sprintf("%s range accuracy (%s)", name, squares(dist)) })
	vis := b.visibilitySum(s.from, to)
	add(-float64(vis)/VisibilityDivisor, func() string { return fmt.Sprintf("terrain: visibility %d along the line, halved", vis) })
	return cth, mods
}

// need is the highest d100 roll that passes a test of pct percent: the roll must be at
// or under the percentage, so 52.5 passes on 52 or less. It lies in 0..100. The 1e-9
// absorbs float noise in percentages that are whole numbers on paper.
func need(pct float64) int { return min(max(int(math.Floor(pct+1e-9)), 0), D100) }

// chance is the probability that a d100 passes a test of pct percent.
func chance(pct float64) float64 { return float64(need(pct)) / D100 }

// maxDistanceMissedBy is how far a pick may stray: the larger of the column and row
// distances, divided by 5, capped at 5.
func maxDistanceMissedBy(from, to geom.Square) int {
	return min(MaxDeviation, from.Chebyshev(to)/DeviationStep)
}

// pickPlan is one pick of the target square worked out: its area and how likely each
// square in it is.
type pickPlan struct {
	start geom.Square
	cth   float64
	mods  []volley.Modifier // the terms of cth, for the first pick only
	r     int
	pass  float64 // probability that the d100 passes ChanceToHit
	// The area: every square within r of start, on the map (and not the firer's, with
	// excludeFirer).
	x0, y0, x1, y1 int
	firer          *Unit
	excludeFirer   bool
	nArea, nEmpty  int
	// unitSq are the unit-occupied squares of the area with their weights (the targeted
	// enemy square counts twice).
	unitSq   []geom.Square
	unitW    []int
	totalW   int
	targeted geom.Square
	doubled  bool // the targeted square holds an enemy and counts twice
}

// planPick works out the pick that starts from square start. n is the pick's number
// (0 for the first); first is the first pick's plan, for options that keep its values.
func (b *Battle) planPick(s *shot, start geom.Square, n int, first *pickPlan) *pickPlan {
	p := &pickPlan{start: start, firer: s.unit, excludeFirer: b.opts.excludeFirer}
	if n > 0 && b.opts.repeatFirstPick && first != nil {
		p.cth, p.r = first.cth, first.r
	} else {
		p.cth, p.mods = b.chanceToHit(s, start, n == 0)
		p.r = maxDistanceMissedBy(s.from, start)
	}
	p.pass = chance(p.cth)
	p.targeted = start
	hasTarget := true
	if n > 0 {
		switch b.opts.repeatTargeted {
		case RepeatTargetOriginal:
			p.targeted = s.target
		case RepeatTargetNone:
			hasTarget = false
		}
	}
	// The manual doubles the square "you targeted" when it holds an enemy; friendly:
	// true only lets a friend's square be declared (unless friendly_drops_double).
	if hasTarget && (!s.friendly || !b.opts.friendlyDropsDouble) {
		if v := b.unitAt(p.targeted); v != nil && v.Side != s.unit.Side {
			p.doubled = true
		}
	}
	p.x0, p.x1 = max(0, start.X-p.r), min(b.width-1, start.X+p.r)
	p.y0, p.y1 = max(0, start.Y-p.r), min(b.height-1, start.Y+p.r)
	p.area(b, func(q geom.Square) {
		p.nArea++
		if b.unitAt(q) == nil {
			p.nEmpty++
			return
		}
		w := 1
		if p.doubled && q == p.targeted {
			w = TargetedEnemyWeight
		}
		p.unitSq = append(p.unitSq, q)
		p.unitW = append(p.unitW, w)
		p.totalW += w
	})
	return p
}

// area visits the squares of the pick's area in row order: all of them, the firer's own
// included, as the manual's area is; or, with deviation_area: exclude_firer, all but the
// firer's own, and then when the area holds only those the shot stays where it was
// aimed: the area is the start square.
func (p *pickPlan) area(b *Battle, f func(q geom.Square)) {
	some := false
	for y := p.y0; y <= p.y1; y++ {
		for x := p.x0; x <= p.x1; x++ {
			if q := geom.Sq(x, y); !p.excludeFirer || !p.firer.covers(q) {
				some = true
				f(q)
			}
		}
	}
	if !some {
		f(p.start)
	}
}

// candidates says which squares a pick chooses among after a passed or failed d100:
// after a pass the unit-occupied squares by weight, or any square of the area if none
// holds a unit; after a failure the empty squares, or any square if none is empty.
// Exact odds and rolled dice both go through here, so they cannot disagree.
func (p *pickPlan) candidates(pass bool) (units, all bool, kind string) {
	switch {
	case pass && len(p.unitSq) > 0:
		return true, false, "a unit-occupied square"
	case pass:
		return false, true, "any square (no unit in the area)"
	case p.nEmpty == 0:
		return false, true, "any square (no empty square in the area)"
	}
	return false, false, "an empty square"
}

// each calls f for every square the pick can land on, with its probability. A square
// may be visited twice, once for a pass and once for a failure.
func (p *pickPlan) each(b *Battle, f func(q geom.Square, pr float64)) {
	for _, pass := range [...]bool{true, false} {
		pr := p.pass
		if !pass {
			pr = 1 - p.pass
		}
		if pr == 0 {
			continue
		}
		units, all, _ := p.candidates(pass)
		if units {
			for i, q := range p.unitSq {
				f(q, pr*float64(p.unitW[i])/float64(p.totalW))
			}
			continue
		}
		n := p.nEmpty
		if all {
			n = p.nArea
		}
		p.area(b, func(q geom.Square) {
			if all || b.unitAt(q) == nil {
				f(q, pr/float64(n))
			}
		})
	}
}

// intercept follows the line of fire from the weapon to the picked square: the first
// force or solid terrain on it becomes the final square, unless the weapon ignores
// terrain. It returns the final square and what stopped the shot ("" if nothing did).
func (b *Battle) intercept(s *shot, picked geom.Square) (geom.Square, string) {
	stop, by := b.stopOf(s, picked)
	if by != "" {
		return stop, by + " is in the way"
	}
	return stop, ""
}

// stopOf is where a shot at picked stops, and the id or terrain that stopped it short
// ("" when nothing did): intercept without the words, for the exact landing's walks.
func (b *Battle) stopOf(s *shot, picked geom.Square) (geom.Square, string) {
	if s.w.IgnoresTerrain {
		return picked, ""
	}
	stop, by := picked, ""
	b.walk(s.from, picked, func(q geom.Square) bool {
		if q == s.from || s.unit.covers(q) || !b.onMap(q) {
			return true
		}
		if u := b.unitAt(q); u != nil {
			stop = q
			if q != picked {
				by = u.ID // named, not worded: exact landings walk thousands of lines
			}
			return false
		}
		if t := b.terrainAt(q); t.Firepower >= SolidFirepower {
			stop = q
			if q != picked {
				by = t.Name
			}
			return false
		}
		return true
	})
	return stop, by
}

// squareDist is a probability for each square of the map, dense so that sums run in a
// fixed order (row-major) and give the same float64 on every run.
type squareDist struct {
	p    []float64
	seen []bool
	idx  []int // squares with a probability, in the order first touched
}

// squareDists keeps spent distributions for reuse: a map of 4,096 squares costs 36 KB a
// distribution, and a danger map computes a landing for every square and firer.
var squareDists sync.Pool

func newSquareDist(n int) *squareDist {
	if d, ok := squareDists.Get().(*squareDist); ok && len(d.p) == n {
		return d
	}
	return &squareDist{p: make([]float64, n), seen: make([]bool, n)}
}

// release clears the squares it touched and keeps d for reuse; d must not be used after.
func (d *squareDist) release() {
	for _, i := range d.idx {
		d.p[i], d.seen[i] = 0, false
	}
	d.idx = d.idx[:0]
	squareDists.Put(d)
}

func (d *squareDist) add(i int, v float64) {
	if !d.seen[i] {
		d.seen[i] = true
		d.idx = append(d.idx, i)
	}
	d.p[i] += v
}

// each visits every square with a probability, in row-major order.
func (d *squareDist) each(f func(i int, p float64)) {
	slices.Sort(d.idx)
	for _, i := range d.idx {
		if d.p[i] > 0 {
			f(i, d.p[i])
		}
	}
}

// landing is the exact distribution of where a shot ends: after every pick (picked),
// then after the interception (landed).
type landing struct {
	picked, landed *squareDist
	first          *pickPlan
}

// exactLanding computes the landing distribution of a shot without rolling. Pick plans
// are worked out once per starting square.
func (b *Battle) exactLanding(s *shot) landing {
	var l landing
	n := b.width * b.height
	cur := newSquareDist(n)
	cur.add(b.index(s.target), 1)
	memo := map[geom.Square]*pickPlan{}
	for pick := range s.picks {
		next := newSquareDist(n)
		cur.each(func(i int, p float64) {
			start := b.square(i)
			plan, ok := memo[start]
			if !ok {
				plan = b.planPick(s, start, pick, l.first)
				memo[start] = plan
			}
			if pick == 0 {
				l.first = plan
			}
			// The conversion forbids a fused multiply-add, so every CPU gets the same bits.
			plan.each(b, func(q geom.Square, pr float64) { next.add(b.index(q), float64(p*pr)) })
		})
		cur.release()
		cur = next
		// The first pick targets the declared square; the second and third follow
		// repeat_targeted alike, so their plans are shared.
		if pick == 0 {
			memo = map[geom.Square]*pickPlan{}
		}
	}
	l.picked = cur
	l.landed = newSquareDist(n)
	cur.each(func(i int, p float64) {
		f, _ := b.stopOf(s, b.square(i))
		l.landed.add(b.index(f), p)
	})
	return l
}

// release hands the landing's distributions back for reuse, when nothing reads them any
// more.
func (l landing) release() {
	l.picked.release()
	l.landed.release()
}

// inEnvelope reports whether a weapon may fire at q as declared: on the map, within its
// maximum range and its arc, and not one of the firer's own squares. With the option
// correct_around_friends (volley's, not the manual's), also not a friend's square
// unless the declaration targets friends.
func (b *Battle) inEnvelope(s *shot, q geom.Square) bool {
	if !b.onMap(q) || s.unit.covers(q) || s.from.Chebyshev(q) > s.w.MaxRange || !b.inArc(s, q) {
		return false
	}
	if !b.opts.correctAroundFriends {
		return true
	}
	v := b.unitAt(q)
	return s.friendly || v == nil || v.Side != s.unit.Side
}

// inArc reports whether the centre of q lies within the weapon's arc, centred on the
// unit's facing; the arc's edges are inside it.
func (b *Battle) inArc(s *shot, q geom.Square) bool {
	if s.w.Arc >= 360 || q == s.from {
		return true
	}
	diff := math.Abs(geom.AngleDiff(s.unit.Facing.Degrees(), geom.GridBearing(s.from, q)))
	return diff <= float64(s.w.Arc)/2+geom.AngleTolerance
}

// correct moves a target outside the weapon's envelope to the nearest square inside
// it: the least straight-line distance between square centres, then the fewest squares
// from the weapon, then the first in row order. ok is false when the envelope is empty.
func (b *Battle) correct(s *shot, q geom.Square) (geom.Square, bool) {
	if b.inEnvelope(s, q) {
		return q, true
	}
	best, found := geom.Square{}, false
	var bestD float64
	var bestR int
	r := s.w.MaxRange
	for y := max(0, s.from.Y-r); y <= min(b.height-1, s.from.Y+r); y++ {
		for x := max(0, s.from.X-r); x <= min(b.width-1, s.from.X+r); x++ {
			c := geom.Sq(x, y)
			if !b.inEnvelope(s, c) {
				continue
			}
			d := math.Hypot(float64(c.X-q.X), float64(c.Y-q.Y))
			rr := s.from.Chebyshev(c)
			if !found || d < bestD-1e-12 || math.Abs(d-bestD) <= 1e-12 && rr < bestR {
				best, bestD, bestR, found = c, d, rr, true
			}
		}
	}
	return best, found
}
