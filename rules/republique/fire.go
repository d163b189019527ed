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

// batteryPlan is one battery of a fire: may it fire at the target, and with what.
type batteryPlan struct {
	bat    *Unit
	aim    volley.Aim
	cand   candidate // the target's place in its arc
	zone   Zone
	points float64 // fire points after this battery's modifiers
	notes  []string
	deep   bool
	// deepUnits are the units other than the target whose bases made the deep target:
	// compound targets through the deep target rule.
	deepUnits []*Unit
	level     int // the die modifier for levels
	enfArc    *Arc
	forced    *Unit
	// disorder says which morale Disordered+ read and when, where it matters: the battery
	// began the artillery fire segment disordered or rattled, or its morale has changed
	// since (edition 5); "" otherwise.
	disorder string
}

// firePlan is a fire worked out: every battery, the target and its secondary targets,
// fire points, die modifiers and how many bases each unit may lose to the roll.
type firePlan struct {
	f      *Fire
	target *Unit
	bats   []batteryPlan
	ok     bool
	// hit lists the units the roll may hurt: the main target, then its tandem targets,
	// then its adjacent targets; caps how many base hits each can take from one roll.
	hit     []*Unit
	tandems int
	caps    []int
	points  float64
	mods    []volley.Modifier
	dieSum  int
	notes   []string
	leader  *Leader
}

// effect is what one roll does to one unit.
type effect struct{ Morale, Bases int }

// name is how a report names u (volley.Label).
func name(u *Unit) string { return volley.Label(u.Name, u.ID) }

// plan works out a fire.
func (b *Battle) plan(f *Fire) *firePlan {
	p := &firePlan{f: f, ok: true}
	var bats []*Unit
	for _, id := range f.Batteries {
		if u := b.Unit(id); u != nil && u.Battery() {
			bats = append(bats, u)
		}
	}
	if f.Target != "" {
		p.target = b.Unit(f.Target)
	}
	ql := b.qualifiedLeader(bats)
	for _, bat := range bats {
		bp := batteryPlan{bat: bat, aim: volley.Aim{Shooter: bat.ID, Weapon: bat.Gun, RangeUnit: "cm", Die: D10, Modifiers: []volley.Modifier{}}}
		bp.aim.Target = f.Target
		refuse := func(st volley.AimStatus, why string) {
			bp.aim.Status, bp.aim.Reason = st, why
			p.ok = false
		}
		if why := b.mayFire(bat, f.Passing); why != "" {
			refuse(volley.StatusNotEligible, why)
			p.bats = append(p.bats, bp)
			continue
		}
		cs := b.candidates(bat)
		if p.target == nil && len(cs) > 0 && !f.Passing {
			p.target = cs[0].u
		}
		t := p.target
		if t == nil {
			refuse(volley.StatusOutOfRange, fmt.Sprintf("no enemy unit %s can spot is in its 60° arc of fire and within its range line (%s)", bat.ID, fmtCm(b.charts.maxRange(bat.Gun))))
			p.bats = append(p.bats, bp)
			continue
		}
		bp.aim.Target = t.ID
		at := slices.IndexFunc(cs, func(c candidate) bool { return c.u == t })
		if at < 0 && f.Passing && t.ID == b.ghost && !b.hidden(t) && t.Side != bat.Side {
			// The window measured the mover in the arc along its path; where it stood
			// when the distance was reached it may only touch the arc's edge.
			if c, ok := b.candidate(bat, t); ok {
				cs, at = append(cs, c), len(cs)
			}
		}
		switch {
		case t.Side == bat.Side:
			refuse(volley.StatusNotEligible, t.ID+" is a friendly unit")
		case t.Destroyed():
			refuse(volley.StatusNotEligible, t.ID+" is destroyed")
		case at < 0 && b.hidden(t):
			refuse(volley.StatusBlocked, fmt.Sprintf("%s is more than half an inch inside cover: artillery can spot and fire at units only up to ½\" inside cover", t.ID))
		case at < 0 && !b.inArc(bat, t):
			refuse(volley.StatusOutOfArc, fmt.Sprintf("%s is outside %s's 60° arc of fire, measured from the outer front edges of its base", t.ID, bat.ID))
		case at < 0:
			refuse(volley.StatusOutOfRange, fmt.Sprintf("%s is %s away, beyond %s's range line (%s)", t.ID, fmtCm(reach(bat, t)), bat.Gun, fmtCm(b.charts.maxRange(bat.Gun))))
		}
		if bp.aim.Status != "" {
			bp.aim.Range = round3(reach(bat, t))
			p.bats = append(p.bats, bp)
			continue
		}
		bp.cand = cs[at]
		bp.aim.Range = round3(bp.cand.dist)
		main := cs[0]
		switch {
		case f.Passing:
			bp.notes = append(bp.notes, "passing fire: the main target rule gives way to the moving unit fired at")
		case main.u == t:
			bp.notes = append(bp.notes, fmt.Sprintf("main target: %s, the closest threat (%s bracket, %s) and closest to the centre line", name(t), b.charts.Ranges[bat.Gun][bp.cand.bracket].Name, fmtCm(bp.cand.dist)))
			if bp.cand.offset > geom.Tolerance {
				bp.notes = append(bp.notes, fmt.Sprintf("fired at obliquely (%s off the centre line): no other unit of that bracket is closer or more directly to %s's front", fmtCm(bp.cand.offset), bat.ID))
			}
		case ql != nil && bp.cand.bracket == main.bracket:
			bp.notes = append(bp.notes, fmt.Sprintf("%s is not the main target (%s is), but the good artillery leader %s attached to the battery lets it converge on any unit of the closest bracket", t.ID, main.u.ID, ql.ID))
		default:
			bp.forced = main.u
			bp.aim.Forced = main.u.ID
			refuse(volley.StatusNotEligible, b.whyMain(bat, cs, t))
			p.bats = append(p.bats, bp)
			continue
		}
		bp.zone = b.zoneAt(bat, t)
		if friends := b.friendsInZone(bat, bp.zone); len(friends) > 0 {
			refuse(volley.StatusBlocked, fmt.Sprintf("friendly %s in the frontage zone: it must be free of friendly bases and markers, and artillery may not fire through or over friends", strings.Join(friends, ", ")))
			p.bats = append(p.bats, bp)
			continue
		}
		why := b.whenFire(bat, f.Passing)
		if why == "" && f.Passing && b.moves {
			why = b.passingWhy(bat, t)
		}
		if why != "" {
			refuse(volley.StatusNotEligible, why)
			p.bats = append(p.bats, bp)
			continue
		}
		b.batteryPoints(&bp, t, f.Passing)
		p.bats = append(p.bats, bp)
	}
	if len(bats) == 0 || p.target == nil {
		p.ok = false
	}
	if !p.ok {
		return p
	}
	b.groupPlan(p, bats, ql)
	return p
}

// inArc reports whether any base of u is inside the battery's arc.
func (b *Battle) inArc(bat, u *Unit) bool {
	arc := bat.arc()
	for _, r := range u.Bases {
		if area(arc.Inside(r)) > 1e-6 {
			return true
		}
	}
	return false
}

// batteryPoints works out a battery's fire points and its own die modifiers.
func (b *Battle) batteryPoints(bp *batteryPlan, t *Unit, passing bool) {
	bat := bp.bat
	br := b.charts.Ranges[bat.Gun][bp.cand.bracket]
	bp.points = br.Points
	bp.notes = append(bp.notes, fmt.Sprintf("fire points: %g (%s, %s bracket to %s)", br.Points, bat.Gun, br.Name, fmtCm(br.To.In("cm"))))
	times := func(k float64, why string) {
		bp.points *= k
		bp.notes = append(bp.notes, fmt.Sprintf("fire points ×%g: %s", k, why))
	}
	if bat.SavedFire && !passing {
		times(SavedFireFactor, "saved fire")
	}
	enf, arc := b.enfilade(bat, t)
	bp.enfArc = arc
	switch {
	case enf && t.Formation == Square:
		times(EnfiladeFactor, "enfilade: infantry squares are always enfilade targets")
	case enf:
		times(EnfiladeFactor, fmt.Sprintf("enfilade: more than half of %s's frontage is inside the enfilade arc of %s's flank", bat.ID, t.ID))
	case arc == nil && t.Formation != Square:
		bp.notes = append(bp.notes, fmt.Sprintf("no enfilade: %s is in full cover", t.ID))
	}
	if bat.Damaged {
		times(DamagedFactor, "damaged")
	}
	switch read, when := b.disorderRead(bat, passing); {
	case when == "":
		if read == b.disordered() || read == b.rattled() {
			times(DisorderFactor, b.moraleName(read))
		}
	case read == b.disordered() || read == b.rattled():
		bp.disorder = fmt.Sprintf("%s began the artillery fire segment %s: its fire points are halved (Disordered+)", bat.ID, b.moraleName(read))
		times(DisorderFactor, fmt.Sprintf("%s %s", b.moraleName(read), when))
	case read != bat.Morale:
		bp.disorder = fmt.Sprintf("%s began the artillery fire segment %s (%s now, by hits that took effect within it): Disordered+ halves only batteries that begin the step disordered or rattled", bat.ID, b.moraleName(read), b.moraleName(bat.Morale))
		bp.notes = append(bp.notes, bp.disorder)
	}
	n, why := b.deepTarget(bp, t)
	bp.deep = n >= DeepTargetBases && why == ""
	if n >= DeepTargetBases && why != "" {
		bp.notes = append(bp.notes, "no deep target: "+why)
	}
	bp.notes = append(bp.notes, fmt.Sprintf("arc of fire: from the ends of %s's front edge, bearings %g° to %g°; %s lies in it", bat.ID,
		geom.NormDeg(bat.Facing-ArcOfFire/2), geom.NormDeg(bat.Facing+ArcOfFire/2), t.ID),
		fmt.Sprintf("frontage zone: %s wide, from the middle of the front edge along the centre of fire to %s, free of friends", fmtCm(bp.zone.Width), fmtCm(bp.zone.Depth)))
	bp.notes = append(bp.notes, fmt.Sprintf("centre of fire: from the middle of %s's front edge on bearing %g°, through %d combat base(s) that count for a deep target (in the open, in the %s bracket, not beyond an obstacle)", bat.ID, math.Round(bp.zone.Bearing), n, br.Name))
	diff := b.levelAt(bat.Bases[0].C) - b.unitLevel(t)
	if diff < 0 {
		diff = -diff
	}
	bp.level = LevelModifier * diff
}

// unitLevel is the level a unit stands on: the level under most of its bases.
func (b *Battle) unitLevel(u *Unit) int {
	count := map[int]int{}
	best := 0
	for _, r := range u.Bases {
		l := b.levelAt(r.C)
		count[l]++
		if count[l] > count[best] || count[l] == count[best] && l > best {
			best = l
		}
	}
	return best
}

// targetMods are the die modifiers a unit's own nature brings: cavalry, cover and
// skirmishers. uncovered says whether the centre of fire is closest to an uncovered
// base of an otherwise covered main target (then no cover modifier, and only uncovered
// bases may be killed).
func (b *Battle) targetMods(u *Unit, zone *Zone) (mods []volley.Modifier, uncoveredOnly int) {
	if u.Kind == Cavalry {
		mods = append(mods, mod("firing at cavalry", CavalryModifier))
	}
	heavy, solid, open, full := 0, 0, 0, 0
	for _, r := range u.Bases {
		c := b.coverAt(r.C)
		if c == Full && b.opts.fullAsHeavy {
			c = Heavy
			full++
		}
		switch {
		case c == Open || c == Full:
			open++
		case c >= Heavy:
			heavy++
			solid++
		default:
			solid++
		}
	}
	n := len(u.Bases)
	var cover *volley.Modifier
	switch {
	case 2*heavy >= n:
		what := "heavy cover"
		if full > 0 {
			what = "heavy or full cover (full counted as heavy)"
		}
		m := mod("firing at "+what+" (half or more of "+u.ID+")", HeavyCoverModifier)
		cover = &m
	case 2*solid >= n:
		m := mod("firing at solid cover (half or more of "+u.ID+")", SolidCoverModifier)
		cover = &m
	}
	if cover != nil && zone != nil && open > 0 {
		// The base nearest the centre of fire decides.
		best, bo, ba := -1, math.Inf(1), math.Inf(1)
		for i, r := range u.Bases {
			o, a := offset(zone.From, zone.Bearing, r), along(zone.From, zone.Bearing, r)
			if o < bo-geom.Tolerance || math.Abs(o-bo) <= geom.Tolerance && a < ba {
				best, bo, ba = i, o, a
			}
		}
		if best >= 0 && b.coverAt(u.Bases[best].C) == Open {
			cover = nil
			uncoveredOnly = open
		}
	}
	if cover != nil {
		mods = append(mods, *cover)
	}
	if u.Kind == Light && u.Deployed > 0 && u.Deployed >= len(u.Bases) {
		mods = append(mods, mod("firing at skirmishers (a fully deployed light unit)", SkirmisherModifier))
	}
	return mods, uncoveredOnly
}

func sum(ms []volley.Modifier) int {
	s := 0
	for _, m := range ms {
		s += int(m.Value)
	}
	return s
}

// groupPlan totals the fire points, finds the secondary targets and the die modifiers.
func (b *Battle) groupPlan(p *firePlan, bats []*Unit, ql *Leader) {
	t := p.target
	total := 0.0
	for i := range p.bats {
		if b.opts.roundEach {
			p.bats[i].points = math.Floor(p.bats[i].points)
		}
		total += p.bats[i].points
	}
	p.points = math.Floor(total + 1e-9)
	if len(p.bats) > 1 {
		p.notes = append(p.notes, fmt.Sprintf("fire points: %g in all, rounded down to %g", total, p.points))
	}
	// Secondary targets, for any battery's frontage zone.
	p.hit = []*Unit{t}
	var tandems, adjacents []*Unit
	for _, bp := range p.bats {
		tz := bp.zone
		tFront := math.Inf(1)
		for _, r := range t.Bases {
			tFront = min(tFront, along(tz.From, tz.Bearing, r))
		}
		for i := range b.units {
			u := &b.units[i]
			if u == t || u.Side == bp.bat.Side || u.Destroyed() || b.hidden(u) || slices.Contains(tandems, u) || slices.Contains(adjacents, u) {
				continue
			}
			inZone := false
			front := math.Inf(1)
			for _, r := range u.Bases {
				if area(clip(r.Polygon(), tz.planes()...)) > 1e-6 {
					inZone = true
				}
				front = min(front, along(tz.From, tz.Bearing, r))
			}
			if !inZone || b.charts.bracketOf(bp.bat.Gun, reach(bp.bat, u)) != bp.cand.bracket {
				continue
			}
			behind := front - tFront
			fully := u.Kind == Light && u.Deployed > 0 && u.Deployed >= len(u.Bases)
			if behind > geom.Tolerance && behind <= TandemBehind+geom.Tolerance && b.inCover(u, Solid) == 0 && !fully {
				tandems = append(tandems, u)
				p.notes = append(p.notes, fmt.Sprintf("tandem target: %s, in the frontage zone and the same bracket, its front %s behind %s's", name(u), fmtCm(behind), t.ID))
				continue
			}
			if b.nextTo(u, t) {
				adjacents = append(adjacents, u)
			}
		}
	}
	z := p.bats[0].zone
	closeness := func(x, y *Unit) int {
		ox, oy := math.Inf(1), math.Inf(1)
		for _, r := range x.Bases {
			ox = min(ox, offset(z.From, z.Bearing, r))
		}
		for _, r := range y.Bases {
			oy = min(oy, offset(z.From, z.Bearing, r))
		}
		if math.Abs(ox-oy) > geom.Tolerance {
			return sign(ox - oy)
		}
		return strings.Compare(x.ID, y.ID)
	}
	slices.SortStableFunc(adjacents, closeness)
	if len(adjacents) > 0 {
		p.notes = append(p.notes, fmt.Sprintf("adjacent target: %s, next to %s in the frontage zone and the same bracket (it suffers only if the main and tandem targets are destroyed by the roll)", name(adjacents[0]), t.ID))
		adjacents = adjacents[:1] // only the closest suffers the balance
	}
	p.tandems = len(tandems)
	p.hit = append(append(p.hit, tandems...), adjacents...)
	// Die modifiers.
	deep, level := false, math.MinInt
	for _, bp := range p.bats {
		deep = deep || bp.deep
		level = max(level, bp.level)
	}
	if deep {
		p.mods = append(p.mods, mod("firing at a deep target: the centre of fire passes through 3 or more combat bases in one bracket, in the open", DeepTargetModifier))
	}
	if ql != nil {
		p.leader = ql
		p.mods = append(p.mods, mod("good artillery leader "+ql.ID+" attached", *b.charts.GoodArtilleryLeader))
	}
	// Compound targets: the unit whose own modifiers favour the battery most.
	own, uncovered := b.targetMods(t, &z)
	best := sum(own)
	if uncovered > 0 {
		p.notes = append(p.notes, fmt.Sprintf("the centre of fire is closest to an uncovered base of %s: no cover modifier, and only its %d uncovered base(s) may be killed", t.ID, uncovered))
	}
	// Units targeted through the secondary target rules, and from edition 3 through the
	// deep target rule (the units whose bases made it), compete.
	targeted := slices.Clone(p.hit[1:])
	if b.opts.compoundDeep && deep {
		for _, bp := range p.bats {
			if !bp.deep {
				continue
			}
			for _, u := range bp.deepUnits {
				if !slices.Contains(targeted, u) {
					targeted = append(targeted, u)
				}
			}
		}
	}
	for _, u := range targeted {
		m, _ := b.targetMods(u, nil)
		if s := sum(m); s > best {
			best, own = s, m
			p.notes = append(p.notes, fmt.Sprintf("compound target: %s's modifiers favour the battery more than %s's, and are used", u.ID, t.ID))
			uncovered = 0
		}
	}
	p.mods = append(p.mods, own...)
	if p.f.Passing {
		p.mods = append(p.mods, mod("passing fire", PassingFireModifier))
	}
	if level != 0 {
		p.mods = append(p.mods, mod(fmt.Sprintf("%d elevation level(s) between battery and target", -level), level))
	}
	p.dieSum = sum(p.mods)
	p.caps = make([]int, len(p.hit))
	for i, u := range p.hit {
		p.caps[i] = u.Capacity()
	}
	if uncovered > 0 {
		p.caps[0] = min(p.caps[0], uncovered)
	}
}

// roll is one face of the fire's d10: the chart's cell and what it does to each unit.
func (p *firePlan) roll(b *Battle, face int) (int, Hits, []effect) {
	die := face + p.dieSum
	h := b.charts.Artillery.cell(p.points, die)
	return die, h, distribute(h, p.caps, p.tandems)
}

// faces are the d10 faces the fire may show: one if the action fixes it.
func (p *firePlan) faces() []int {
	if p.f.Die != 0 {
		return []int{p.f.Die}
	}
	return []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
}

// chance is the probability that the fire scores any hit, and the lowest face that does.
func (p *firePlan) chance(b *Battle) (float64, int) {
	n, need := 0, 0
	for face := 1; face <= D10; face++ {
		if _, h, _ := p.roll(b, face); h.Any() {
			n++
			if need == 0 {
				need = face
			}
		}
	}
	return float64(n) / D10, need
}

// aims are the plan's aims, one per battery.
func (b *Battle) fireAims(p *firePlan) []volley.Aim {
	var out []volley.Aim
	// A group refused as declared: the batteries that may fire are shown with what they
	// would do on their own.
	q := p
	if !p.ok {
		var able []string
		for _, bp := range p.bats {
			if bp.aim.Status == "" {
				able = append(able, bp.bat.ID)
			}
		}
		q = nil
		if len(able) > 0 && len(able) < len(p.bats) {
			if sub := b.plan(&Fire{Batteries: able, Target: p.target.ID, Passing: p.f.Passing, Die: p.f.Die}); sub.ok {
				q = sub
			}
		}
	}
	pHit, need := 0.0, 0
	if q != nil {
		pHit, need = q.chance(b)
	}
	for _, bp := range p.bats {
		a := bp.aim
		a.Notes = append(a.Notes, bp.notes...)
		if a.Status == "" {
			a.Status = volley.StatusOK
			a.Reason = fmt.Sprintf("%s may fire at %s", bp.bat.ID, a.Target)
			if q != nil && len(q.bats) > 1 {
				a.Reason += fmt.Sprintf(", %d batteries together", len(q.bats))
			}
			if q != p {
				a.Reason += "; the fire as declared is refused, as not every battery of the group may fire"
			}
			if q != nil {
				a.Modifiers = append(a.Modifiers, q.mods...)
				a.Notes = append(a.Notes, q.notes...)
				a.PHit, a.Need = pHit, float64(need)
				switch col := b.charts.Artillery.column(q.points); {
				case col < 0:
					a.Notes = append(a.Notes, fmt.Sprintf("%g fire points: below the chart's first column (%g), so no roll scores", q.points, b.charts.Artillery.Columns[0]))
				default:
					a.Notes = append(a.Notes, fmt.Sprintf("the chart's column for %g fire points (from %g); modified d10 = d10 %+d", q.points, b.charts.Artillery.Columns[col], q.dieSum))
				}
				if need == 0 {
					a.Reason += ", but no modified roll scores anything on the chart"
				}
			}
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		out = append(out, volley.Aim{Status: volley.StatusNotEligible, Reason: "no battery fires", Modifiers: []volley.Modifier{}})
	}
	return out
}

// fireOdds is the exact distribution of one fire's hits on every unit it may hurt,
// including what pending hits of the segment already take.
func (b *Battle) fireOdds(p *firePlan) volley.Odds {
	o := volley.Odds{Aims: b.fireAims(p), Targets: []volley.TargetOdds{}, Values: map[string]float64{}}
	if !p.ok {
		return o
	}
	faces := p.faces()
	w := 1 / float64(len(faces))
	morale := make([]map[int]float64, len(p.hit))
	bases := make([]map[int]float64, len(p.hit))
	dead := make([]float64, len(p.hit))
	for i := range p.hit {
		morale[i], bases[i] = map[int]float64{}, map[int]float64{}
	}
	joint := map[string]*volley.JointOutcome{}
	var order []string
	any := 0.0
	for _, face := range faces {
		_, h, eff := p.roll(b, face)
		if h.Any() {
			any += w
		}
		key := fmt.Sprint(eff)
		if joint[key] == nil {
			out := map[string]int{}
			for i, u := range p.hit {
				out[u.ID+" morale"] = eff[i].Morale
				out[u.ID+" bases"] = eff[i].Bases
			}
			joint[key] = &volley.JointOutcome{Outcome: out}
			order = append(order, key)
		}
		joint[key].P += w
		for i, u := range p.hit {
			morale[i][eff[i].Morale] += w
			bases[i][eff[i].Bases] += w
			if eff[i].Bases+b.pendingFor(u.ID).Bases >= u.Capacity() {
				dead[i] += w
			}
		}
	}
	for i, u := range p.hit {
		md, bd := distOf(morale[i]), distOf(bases[i])
		o.Targets = append(o.Targets, volley.TargetOdds{Target: u.ID,
			Distributions: map[string]dice.Dist{MeasureMorale: md, MeasureBases: bd},
			Mean:          map[string]float64{MeasureMorale: md.Mean(), MeasureBases: bd.Mean()},
			PDestroyed:    dead[i]})
	}
	for _, k := range order {
		o.Joint = append(o.Joint, *joint[k])
	}
	o.Values["fire_points"] = p.points
	o.Values["die_modifier"] = float64(p.dieSum)
	o.Values["p_effect"] = any
	return o
}

// The measures of this system.
const (
	MeasureMorale = "morale_hits"
	MeasureBases  = "base_hits"
)
