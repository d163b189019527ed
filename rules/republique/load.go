package republique

import (
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// Options are the readings of the rules a scenario may switch; docs/rules/republique.md
// gives the default of each and the rule it reads.
type Options struct {
	// MainTarget ranks the units of the closest range bracket: "centre" (closest to the
	// battery's centre line first, then the nearer; the default, as the text's picture
	// of battery 2 decides) or "distance" (the nearer first, the centre line breaking
	// ties).
	MainTarget string `yaml:"main_target"`
	// FrontageZone is how deep the frontage zone must be free of friends: "range" (to
	// the end of the gun's range line, the default: the text says the zone must be free)
	// or "target" (to the far edge of the main target).
	FrontageZone string `yaml:"frontage_zone"`
	// FirePoints is where halved fire points are rounded down: "total" (the group's
	// total, after each battery's modifiers; the default) or "each" (each battery's).
	FirePoints string `yaml:"fire_points"`
	// AdjacentWithin is how close a unit's base must be to the main target's for the unit
	// to stand "next to" it; default 1cm (not in the source).
	AdjacentWithin *scenario.Length `yaml:"adjacent_within"`
	// Adjacent is where "next to" the main target an adjacent target stands: "beside"
	// (flank to flank, level with it; the default from edition 3, since the tandem rule
	// covers the units behind) or "any_side" (within adjacent_within on any side, in
	// front or behind too; the default of edition 1 and 2 battles).
	Adjacent string `yaml:"adjacent"`
	// FullCoverDie is the die modifier of a target half or more in full cover, which the
	// text does not give: "heavy" (as heavy cover, the default) or "none".
	FullCoverDie string `yaml:"full_cover_die"`
	// LeaderRisk is which units fired upon put a leader within 8cm at risk: "any" (the
	// text's words, the default) or "own" (only units of the leader's side).
	LeaderRisk string `yaml:"leader_risk"`
}

// options are Options with their defaults filled in.
type options struct {
	mainByDistance bool
	zoneToTarget   bool
	roundEach      bool
	adjacentWithin float64 // cm
	fullAsHeavy    bool
	riskOwnOnly    bool
	adjacentAny    bool // "next to" on any side, not only beside
	// rulings of edition 3 (see volley.Edition); older battles replay without them.
	compoundDeep bool // compound targets also through the deep target rule
	deepOpen     bool // no deep target against a main target in cover; every base crossed open
	combatBases  bool // batteries are not combat bases anywhere (deep count, bases_lost)
	// rulings of edition 5 (Edition5).
	segmentStart bool // Disordered+ reads the morale a battery began the segment with
}

func oneOf(doc *scenario.Doc, errs *scenario.ErrorList, v *string, name string, allowed ...string) string {
	if *v == "" {
		return allowed[0]
	}
	if !slices.Contains(allowed, *v) {
		errs.Add(doc.At(v), "options: %s: want %s, got %q", name, strings.Join(allowed, " or "), *v)
		return allowed[0]
	}
	return *v
}

func (o *Options) read(doc *scenario.Doc, errs *scenario.ErrorList) options {
	r := options{adjacentWithin: 1}
	r.mainByDistance = oneOf(doc, errs, &o.MainTarget, "main_target", "centre", "distance") == "distance"
	r.zoneToTarget = oneOf(doc, errs, &o.FrontageZone, "frontage_zone", "range", "target") == "target"
	r.roundEach = oneOf(doc, errs, &o.FirePoints, "fire_points", "total", "each") == "each"
	r.fullAsHeavy = oneOf(doc, errs, &o.FullCoverDie, "full_cover_die", "heavy", "none") == "heavy"
	r.riskOwnOnly = oneOf(doc, errs, &o.LeaderRisk, "leader_risk", "any", "own") == "own"
	old := volley.DocEdition(doc) < Edition3
	adjacent := []string{"beside", "any_side"}
	if old {
		adjacent = []string{"any_side", "beside"}
	}
	r.adjacentAny = oneOf(doc, errs, &o.Adjacent, "adjacent", adjacent...) == "any_side"
	r.compoundDeep, r.deepOpen, r.combatBases = !old, !old, !old
	r.segmentStart = volley.DocEdition(doc) >= Edition5
	if o.AdjacentWithin != nil {
		r.adjacentWithin = o.AdjacentWithin.In(scenario.Centimetre)
		if r.adjacentWithin > 20 {
			errs.Add(doc.At(o.AdjacentWithin), "options: adjacent_within: at most 20cm")
		}
	}
	return r
}

// Step is where the current player turn stands. volley keeps the three moments of a
// player turn that this phase needs: the Maneuver phase before it (only passing fire is
// resolved there), the skirmish fire step and the artillery fire segment. Leader
// injuries are rolled as the segment ends.
type Step string

// The steps, in order.
const (
	Maneuver         Step = "maneuver"
	Skirmish         Step = "skirmish"
	ArtillerySegment Step = "artillery"
)

var steps = []Step{Maneuver, Skirmish, ArtillerySegment}

// DecodeScalar reads a step.
func (s *Step) DecodeScalar(sc scenario.Scalar) error { return scenario.DecodeWord(s, sc, steps...) }

// load builds the battle from a decoded file.
func load(doc *scenario.Doc, f *file, errs *scenario.ErrorList) *Battle {
	b := &Battle{opts: f.Options.read(doc, errs), unit: doc.Unit(), broken: map[string]bool{}}
	b.ladder = DefaultLadder
	if f.Morale != nil {
		b.ladder = f.Morale
		at := -1
		for _, want := range DefaultLadder {
			i := slices.Index(f.Morale, want)
			if i <= at {
				errs.Add(doc.At(&f.Morale), "morale: the ladder must hold %s in this order (steps may be added between them)", strings.Join(DefaultLadder, ", "))
				b.ladder = DefaultLadder
				break
			}
			at = i
		}
	}
	b.charts = loadCharts(doc, &f.Charts, errs)
	for i := range f.Terrain {
		t := &f.Terrain[i]
		p := Piece{ID: t.ID, Cover: t.Cover, Level: t.Level}
		switch {
		case t.Polygon != nil && t.Line != nil, t.Polygon == nil && t.Line == nil:
			errs.Add(doc.At(t), "terrain %q: give a polygon (an area of cover or a hill) or a line (an obstacle)", t.ID)
			continue
		case t.Polygon != nil:
			for _, q := range t.Polygon {
				p.Poly = append(p.Poly, cm(q))
			}
			if len(p.Poly) < 3 || len(p.Poly) > geom.MaxVertices {
				errs.Add(doc.At(&t.Polygon), "terrain %q: a polygon has 3 to %d corners", t.ID, geom.MaxVertices)
				continue
			}
			if err := p.Poly.Validate(); err != nil {
				errs.Add(doc.At(&t.Polygon), "terrain %q: %v", t.ID, err)
				continue
			}
		default:
			for _, q := range t.Line {
				p.Line = append(p.Line, cm(q))
			}
			if len(p.Line) < 2 || len(p.Line) > geom.MaxVertices {
				errs.Add(doc.At(&t.Line), "terrain %q: a line has 2 to %d points", t.ID, geom.MaxVertices)
				continue
			}
		}
		if t.Level < 0 || t.Level > 20 {
			errs.Add(doc.At(&t.Level), "terrain %q: level lies between 0 and 20", t.ID)
		}
		b.terrain = append(b.terrain, p)
	}
	ids := map[string]string{}
	claim := func(id, what string, pos scenario.Pos) bool {
		if prev, dup := ids[id]; dup {
			errs.Add(pos, "id %q is used twice (also a %s)", id, prev)
			return false
		}
		ids[id] = what
		return true
	}
	if len(f.Units) > MaxUnits {
		errs.Add(doc.At(&f.Units), "units: at most %d", MaxUnits)
		f.Units = f.Units[:MaxUnits]
	}
	for i := range f.Units {
		s := &f.Units[i]
		if s.ID == "" || !claim(s.ID, "unit", doc.At(&s.ID)) {
			continue
		}
		// A unit with a mistake in it is left out, its mistakes reported where they
		// are written; what refers to it says nothing more.
		if u, ok := b.loadUnit(doc, s, errs); ok && !doc.Failed(s) {
			b.units = append(b.units, u)
		} else {
			b.broken[s.ID] = true
		}
	}
	for i := range f.Skirmishers {
		s := &f.Skirmishers[i]
		if !claim(s.ID, "skirmish marker", doc.At(&s.ID)) {
			continue
		}
		parent := b.Unit(s.Parent)
		if doc.Failed(s) || parent == nil && b.broken[s.Parent] {
			b.broken[s.ID] = true
			continue
		}
		if parent == nil {
			errs.Add(doc.At(&s.Parent), "skirmish marker %q: no unit %q%s", s.ID, s.Parent, scenario.Hint(s.Parent, b.unitIDs()))
			continue
		}
		if parent.Kind != Light {
			errs.Add(doc.At(&s.Parent), "skirmish marker %q: %s is %s; skirmish markers belong to light units", s.ID, parent.ID, parent.Kind)
		}
		if s.Side != "" && s.Side != parent.Side {
			errs.Add(doc.At(&s.Side), "skirmish marker %q: its parent %s is on side %q", s.ID, parent.ID, parent.Side)
		}
		w, d := s.Frontage.In(scenario.Centimetre), s.Depth.In(scenario.Centimetre)
		if w == 0 {
			w = defaultMarkerSize
		}
		if d == 0 {
			d = defaultMarkerSize
		}
		at := cm(s.At)
		if !b.onTable(doc, errs, &s.At, at) || !sizeOK(doc, errs, &s.Frontage, w) || !sizeOK(doc, errs, &s.Depth, d) {
			continue
		}
		b.markers = append(b.markers, Marker{ID: s.ID, Side: parent.Side, Parent: parent.ID, R: Rect{C: at, Facing: s.Facing, W: w, D: d}})
	}
	for i := range f.Leaders {
		s := &f.Leaders[i]
		if !claim(s.ID, "leader", doc.At(&s.ID)) {
			continue
		}
		l := Leader{ID: s.ID, Name: s.Name, Side: s.Side, At: cm(s.At), Rating: s.Rating, Artillery: s.Artillery, Attached: s.Attached, Command: s.Command}
		if doc.Failed(s) || !b.onTable(doc, errs, &s.At, l.At) {
			b.broken[s.ID] = true
			continue
		}
		if s.Attached != "" && !b.broken[s.Attached] {
			u := b.Unit(s.Attached)
			switch {
			case u == nil:
				errs.Add(doc.At(&s.Attached), "leader %q: no unit %q to be attached to%s", s.ID, s.Attached, scenario.Hint(s.Attached, b.unitIDs()))
			case u.Side != s.Side:
				errs.Add(doc.At(&s.Attached), "leader %q: %s is on side %q, not %q", s.ID, u.ID, u.Side, s.Side)
			}
		}
		if s.Rating < -5 || s.Rating > 5 {
			errs.Add(doc.At(&s.Rating), "leader %q: rating lies within ±5", s.ID)
		}
		b.leaders = append(b.leaders, l)
	}
	sides := b.sides(doc, f.Units, f.Turn.Order != nil, errs)
	b.loadTurn(doc, &f.Turn, sides, errs)
	b.loadSegmentStart(doc, f.Units, errs)
	b.moves = volley.Moves(doc)
	b.movement = loadMovement(doc, &f.Movement, errs)
	b.table = volley.LoadTable(doc, &f.Header, sides, errs)
	// From edition 5 the sides deploy in the order they play.
	deploys := rules.Deploys(b.units, func(u *Unit) (string, string, bool) { return u.Side, u.ID, !u.Destroyed() && !b.broken[u.ID] })
	b.table.PlanDeployment(volley.FromFirst(b.phase.order, b.phase.side), deploys, false)
	var earlier []obstacle // the bases of the units before, for a new scenario's overlaps
	for i := range f.Units {
		s := &f.Units[i]
		if u := b.Unit(s.ID); u != nil && !b.broken[s.ID] {
			pos := doc.At(&s.ID)
			if s.At != nil {
				pos = doc.At(s.At)
			}
			if why := b.offTable(u.Bases); why != "" {
				errs.Add(pos, "unit %q: at: %s", s.ID, strings.Replace(why, "would leave", "lies off", 1))
			}
			// Not in the source, which never has two units stand in one place: a move
			// passes over no other unit's base, so neither of two that overlap could
			// move. A battle stored before the check loads as it was.
			if !doc.Accepted {
				if on := standsOn(u.Bases, earlier); on != "" {
					errs.Add(pos, "unit %q: at: a base of it overlaps %s: two units may not stand in one place, where neither could move", s.ID, on)
				}
				for _, r := range u.Bases {
					earlier = append(earlier, obstacleOf(u.ID+"'s base", r))
				}
			}
		}
	}
	b.phase.newMovement()
	return b
}

// sides are the sides the scenario's units are on, in order of appearance, whether or
// not each unit loaded: a unit with a mistake elsewhere still tells its side. Without
// turn.order, a side beyond the phase's two that has fewer units than both is likely a
// typo, and is reported at each of its units' side.
func (b *Battle) sides(doc *scenario.Doc, specs []unitSpec, ordered bool, errs *scenario.ErrorList) []string {
	var sides []string
	count := map[string]int{}
	for i := range specs {
		s := &specs[i]
		if s.Side == "" || doc.Failed(&s.Side) {
			continue
		}
		if count[s.Side] == 0 {
			sides = append(sides, s.Side)
		}
		count[s.Side]++
	}
	if ordered || len(sides) <= 2 {
		return sides
	}
	main := slices.Clone(sides)
	slices.SortStableFunc(main, func(x, y string) int { return count[y] - count[x] })
	if count[main[2]] == count[main[1]] {
		return sides // no two sides stand out: loadTurn says how many there are
	}
	main = main[:2]
	for i := range specs {
		s := &specs[i]
		if s.Side != "" && !slices.Contains(main, s.Side) {
			errs.Add(doc.At(&s.Side), "unit %q: side %q: this phase is played by two sides, %s%s", s.ID, s.Side, strings.Join(main, " and "), scenario.Hint(s.Side, main))
		}
	}
	return main
}

func sizeOK(doc *scenario.Doc, errs *scenario.ErrorList, at *scenario.Length, v float64) bool {
	if v <= 0 || v > MaxBaseSize {
		errs.Add(doc.At(at), "a base's frontage and depth lie between 0 and %gcm", MaxBaseSize)
		return false
	}
	return true
}

func (b *Battle) onTable(doc *scenario.Doc, errs *scenario.ErrorList, at *scenario.Point, p geom.Vec) bool {
	if !finite(p.X) || !finite(p.Y) || math.Abs(p.X) > MaxDistance || math.Abs(p.Y) > MaxDistance {
		errs.Add(doc.At(at), "coordinates lie within ±%gcm", MaxDistance)
		return false
	}
	return true
}

func (b *Battle) level(name string, doc *scenario.Doc, errs *scenario.ErrorList, at *string) int {
	if name == "" {
		return 0
	}
	i := slices.Index(b.ladder, name)
	if i < 0 {
		errs.Add(doc.At(at), "morale %q is not on the ladder (%s)%s", name, strings.Join(b.ladder, ", "), scenario.Hint(name, b.ladder))
		return 0
	}
	return i
}

func (b *Battle) loadUnit(doc *scenario.Doc, s *unitSpec, errs *scenario.ErrorList) (Unit, bool) {
	u := Unit{ID: s.ID, Name: s.Name, Side: s.Side, Kind: s.Kind, Formation: s.Formation, Facing: geom.NormDeg(s.Facing),
		W: s.Frontage.In(scenario.Centimetre), D: s.Depth.In(scenario.Centimetre), Deployed: s.Deployed, Command: s.Command,
		Gun: s.Gun, Limbered: s.Limbered, Damaged: s.Damaged, SavedFire: s.SavedFire, Moved: s.Moved, Outside: s.OutOfCommand}
	if u.Formation == "" {
		u.Formation = Line
	}
	// quiet: a field that failed, or one left out of a unit with a misspelt key, was
	// reported already, and its zero value would only be reported again.
	quiet := func(ptr any) bool { return doc.Failed(ptr) || !doc.Pos(ptr).IsValid() && doc.Failed(s) }
	u.Morale = b.level(s.Morale, doc, errs, &s.Morale)
	ok := true
	if doc.Pos(&s.Move).IsValid() {
		u.Move = s.Move.In(scenario.Centimetre)
		switch {
		case !volley.Moves(doc):
			errs.Add(doc.At(&s.Move), "unit %q: move: a battle begun under edition %d does not move its units", s.ID, volley.DocEdition(doc))
		case u.Move > MaxDistance:
			errs.Add(doc.At(&s.Move), "unit %q: move: at most %gcm", s.ID, MaxDistance)
			u.Move = 0
		}
	}
	for _, l := range []*scenario.Length{&s.Frontage, &s.Depth} {
		if quiet(l) {
			ok = false
		} else if !sizeOK(doc, errs, l, l.In(scenario.Centimetre)) {
			ok = false
		}
	}
	if !finite(s.Facing) || math.Abs(s.Facing) > 720 {
		errs.Add(doc.At(&s.Facing), "unit %q: facing is a bearing in degrees", s.ID)
		ok = false
	}
	switch {
	case s.Positions != nil && (s.At != nil || s.Bases != 0):
		errs.Add(doc.At(&s.Positions), "unit %q: give positions, or at and bases, not both", s.ID)
		ok = false
	case s.Positions != nil:
		if len(s.Positions) == 0 || len(s.Positions) > MaxBases {
			errs.Add(doc.At(&s.Positions), "unit %q: 1 to %d bases", s.ID, MaxBases)
			ok = false
		}
		for i := range s.Positions {
			p := cm(s.Positions[i])
			if !b.onTable(doc, errs, &s.Positions[i], p) {
				ok = false
			}
			u.Bases = append(u.Bases, Rect{C: p, Facing: u.Facing, W: u.W, D: u.D})
		}
	case s.At == nil:
		if !doc.Failed(s) {
			errs.Add(doc.At(s), "unit %q: place it with at (its centre) and bases, or with positions (each base's centre)", s.ID)
		}
		ok = false
	default:
		n := s.Bases
		if n == 0 {
			n = 1
		}
		if n < 1 || n > MaxBases {
			errs.Add(doc.At(&s.Bases), "unit %q: 1 to %d bases", s.ID, MaxBases)
			ok = false
		}
		at := cm(*s.At)
		if !b.onTable(doc, errs, s.At, at) {
			ok = false
		}
		if ok {
			u.Bases = layout(at, u.Facing, u.W, u.D, n, u.Formation)
		}
	}
	u.Start = len(u.Bases)
	if quiet(&s.Kind) {
		return u, false // what a unit may have follows from its kind
	}
	if u.Battery() {
		if s.Gun == "" {
			if !quiet(&s.Gun) {
				errs.Add(doc.At(s), "battery %q: name its gun, a range line of the charts", s.ID)
			}
			ok = false
		} else if b.charts != nil {
			if _, has := b.charts.Ranges[s.Gun]; !has {
				errs.Add(doc.At(&s.Gun), "battery %q: the charts have no range line for %q%s", s.ID, s.Gun, scenario.Hint(s.Gun, slices.Sorted(maps.Keys(b.charts.Ranges))))
			}
		}
		if len(u.Bases) > 1 {
			errs.Add(doc.At(s), "battery %q: a battery is one base (a massed battery is several batteries touching)", s.ID)
			ok = false
		}
	} else if s.Gun != "" || s.Limbered || s.Damaged || s.SavedFire || s.Moved || s.OutOfCommand {
		errs.Add(doc.At(s), "unit %q: gun, limbered, damaged, saved_fire, moved and out_of_command are for batteries", s.ID)
	}
	if s.Deployed < 0 || s.Deployed > u.Start || s.Deployed > 0 && u.Kind != Light {
		errs.Add(doc.At(&s.Deployed), "unit %q: deployed counts a light unit's skirmish markers, at most one per base", s.ID)
	}
	if s.SavedFire && (s.Moved || s.OutOfCommand) {
		errs.Add(doc.At(&s.SavedFire), "battery %q: a battery that moved or is out of command cannot keep saved fire", s.ID)
	}
	return u, ok
}

// loadSegmentStart records, for a scenario that begins in the artillery fire segment, each
// battery's morale when the segment began: its morale_at_segment_start, by default its
// morale (edition 5, Edition5).
func (b *Battle) loadSegmentStart(doc *scenario.Doc, units []unitSpec, errs *scenario.ErrorList) {
	if b.phase.step == ArtillerySegment {
		b.beginSegment()
	}
	for i := range units {
		s := &units[i]
		if s.MoraleAtSegmentStart == "" || b.broken[s.ID] {
			continue
		}
		at := doc.At(&s.MoraleAtSegmentStart)
		u := b.Unit(s.ID)
		switch {
		case u == nil:
		case !b.opts.segmentStart:
			errs.Add(at, "battery %q: morale_at_segment_start: a battery of a battle begun under edition %d is halved by its morale as it fires", s.ID, volley.DocEdition(doc))
		case !u.Battery():
			errs.Add(at, "unit %q: morale_at_segment_start is for batteries (Disordered+)", s.ID)
		case !slices.Contains(b.ladder, s.MoraleAtSegmentStart):
			b.level(s.MoraleAtSegmentStart, doc, errs, &s.MoraleAtSegmentStart) // says why
		case b.phase.step != ArtillerySegment:
			errs.Add(at, "battery %q: morale_at_segment_start: the scenario begins in the %s step, before the artillery fire segment: its morale is the one it begins with", s.ID, b.phase.step)
		default:
			b.phase.began[u.ID] = b.level(s.MoraleAtSegmentStart, doc, errs, &s.MoraleAtSegmentStart)
		}
	}
}

func (b *Battle) loadTurn(doc *scenario.Doc, t *turnSpec, sides []string, errs *scenario.ErrorList) {
	p := &b.phase
	p.order, p.number, p.step = sides, max(1, t.Number), t.Step
	if p.step == "" {
		p.step = Maneuver
	}
	if t.Order != nil {
		p.order = t.Order
		for i, s := range t.Order {
			if !slices.Contains(sides, s) {
				errs.Add(doc.At(&t.Order[i]), "turn: order: no unit is on side %q", s)
			}
		}
		for _, s := range sides {
			if !slices.Contains(t.Order, s) {
				errs.Add(doc.At(&t.Order), "turn: order: side %q has units but no place in the order", s)
			}
		}
	}
	if len(p.order) != 2 && len(sides) > 0 {
		errs.Add(doc.At(&t.Order), "turn: this phase is played by two sides, not %d", len(p.order))
	}
	if t.Side != "" {
		p.side = slices.Index(p.order, t.Side)
		if p.side < 0 {
			errs.Add(doc.At(&t.Side), "turn: no unit is on side %q", t.Side)
			p.side = 0
		}
	}
	names := func(list []string, field string, want func(id string) bool) []string {
		var out []string
		for i, id := range list {
			if b.broken[id] {
				continue // its own errors are reported where it is written
			}
			if !want(id) {
				errs.Add(doc.At(&list[i]), "turn: %s: no %q here", field, id)
				continue
			}
			if !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
		return out
	}
	isUnit := func(id string) bool { return b.Unit(id) != nil }
	isBattery := func(id string) bool { u := b.Unit(id); return u != nil && u.Battery() }
	p.done = names(t.Done, "done", func(id string) bool { return isBattery(id) || b.marker(id) != nil })
	p.passed = names(t.Passed, "passed", isBattery)
	p.firedUpon = names(t.FiredUpon, "fired_upon", isUnit)
	p.skirmished = names(t.Skirmished, "skirmished", isUnit)
	if t.Demoralized != nil {
		p.demoralized = names(t.Demoralized, "demoralized", isUnit)
	} else {
		for i := range b.units {
			if b.units[i].Morale >= b.demoralized() {
				p.demoralized = append(p.demoralized, b.units[i].ID)
			}
		}
	}
	for i := range t.BasesLost {
		l := &t.BasesLost[i]
		u := b.Unit(l.Unit)
		if u == nil && b.broken[l.Unit] {
			continue
		}
		if u == nil {
			errs.Add(doc.At(&l.Unit), "turn: bases_lost: no unit %q%s", l.Unit, scenario.Hint(l.Unit, b.unitIDs()))
			continue
		}
		if b.opts.combatBases && !u.CombatBases() {
			errs.Add(doc.At(&l.Unit), "turn: bases_lost: %s is a battery, and a battery's base is not a combat base: only combat bases lost count for leader injury", u.ID)
			continue
		}
		at := cm(l.At)
		if !b.onTable(doc, errs, &l.At, at) {
			continue
		}
		p.lost = append(p.lost, lostBase{Unit: u.ID, Side: u.Side, R: Rect{C: at, Facing: u.Facing, W: u.W, D: u.D}})
	}
	if t.Number < 0 {
		errs.Add(doc.At(&t.Number), "turn: number counts from 1")
	}
	_ = volley.EndTurn
}
