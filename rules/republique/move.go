package republique

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// Movement (from edition 4, volley.EditionMoves). The phase's text reads movement in
// four places: limbered batteries may not fire; saving fire needs a stationary battery,
// and a battery with saved fire loses it when it moves in any way, changing facing and
// prolonging included; a battery that prolonged in the movement before the segment loses
// simultaneous fire against enemy artillery; passing fire answers an enemy unit moving
// across a battery's front. The Maneuver section, which says how units move, is not part
// of the text: how volley moves them is its own reading (docs/rules/republique.md,
// "Movement") and the rates are data.

// movementSpec is a scenario's `movement:` section: how far each arm moves in its player
// turn's maneuver step, and what limbering and a change of formation take of that. The
// Maneuver section that gives them is not part of the text: every value is data.
type movementSpec struct {
	Infantry scenario.Length `yaml:"infantry"`
	Light    scenario.Length `yaml:"light"`
	Cavalry  scenario.Length `yaml:"cavalry"`
	// Artillery is a limbered battery's rate; Prolonge how far, within it, an
	// unlimbered battery may move by prolonge.
	Artillery scenario.Length `yaml:"artillery"`
	Prolonge  scenario.Length `yaml:"prolonge"`
	// Limber is what limbering, or unlimbering, takes of a battery's move; Reform what
	// a change of formation takes of a unit's. Without them, nothing.
	Limber scenario.Length `yaml:"limber"`
	Reform scenario.Length `yaml:"reform"`
}

// movement is movementSpec in cm.
type movement struct {
	rate                     map[Kind]float64
	prolonge, limber, reform float64
}

// loadMovement reads `movement:`, which only a battle that moves may have.
func loadMovement(doc *scenario.Doc, s *movementSpec, errs *scenario.ErrorList) movement {
	m := movement{rate: map[Kind]float64{}}
	if !doc.Pos(s).IsValid() {
		return m
	}
	if !volley.Moves(doc) {
		errs.Add(doc.At(s), "movement: a battle begun under edition %d does not move its units", volley.DocEdition(doc))
		return m
	}
	inCm := func(l *scenario.Length) float64 {
		v := l.In(scenario.Centimetre)
		if v > MaxDistance {
			errs.Add(doc.At(l), "movement: at most %gcm", MaxDistance)
			return 0
		}
		return v
	}
	m.rate[Infantry], m.rate[Light], m.rate[Cavalry], m.rate[Artillery] = inCm(&s.Infantry), inCm(&s.Light), inCm(&s.Cavalry), inCm(&s.Artillery)
	m.prolonge, m.limber, m.reform = inCm(&s.Prolonge), inCm(&s.Limber), inCm(&s.Reform)
	return m
}

// The kinds of the actions of movement. A move and a deployment are volley's own
// (volley.MoveAction, volley.DeployAction); decline lets an enemy move pass without
// passing fire.
const KindDecline = "decline"

// The pivots of a change of facing: about the unit's centre, in place, or a wheel on
// its left or right front corner.
const (
	PivotCentre = "centre"
	PivotLeft   = "left"
	PivotRight  = "right"
)

// Move is one unit's move in its player turn's maneuver step, in this order: a battery
// limbers (Limber), the unit's centre follows Path, it turns to Facing (about its centre,
// or wheeling on a front corner), re-forms (Formation) and a battery unlimbers
// (Unlimber). Every part is optional; a move changes something.
type Move struct {
	Unit string
	// Path are the points the unit's centre moves through, in cm, from where it stands.
	Path      []geom.Vec
	Facing    *float64
	Pivot     string
	Formation Formation
	Limber    bool
	Unlimber  bool
	at        scenario.Pos
}

// Kind returns "move".
func (*Move) Kind() string { return volley.MoveAction }

// MovedUnit is the unit the move moves.
func (m *Move) MovedUnit() string { return m.Unit }

// Deploy places a unit before the battle's first action, its centre at At (cm), in its
// side's deployment zone (the whole table without one).
type Deploy struct {
	Unit   string
	At     geom.Vec
	Facing *float64
	at     scenario.Pos
}

// Kind returns "deploy".
func (*Deploy) Kind() string { return volley.DeployAction }

// MovedUnit is the unit the deployment places.
func (d *Deploy) MovedUnit() string { return d.Unit }

// Decline is the answer of a side that lets an enemy unit's move pass without the
// passing fire it could have answered it with.
type Decline struct{ at scenario.Pos }

// Kind returns "decline".
func (*Decline) Kind() string { return KindDecline }

type moveSpec struct {
	Type      string           `yaml:"type"`
	Unit      string           `yaml:"unit,required"`
	Path      []scenario.Point `yaml:"path"`
	Facing    *float64         `yaml:"facing"`
	Pivot     string           `yaml:"pivot"`
	Formation Formation        `yaml:"formation"`
	Limber    bool             `yaml:"limber"`
	Unlimber  bool             `yaml:"unlimber"`
}

type deploySpec struct {
	Type   string         `yaml:"type"`
	Unit   string         `yaml:"unit,required"`
	At     scenario.Point `yaml:"at,required"`
	Facing *float64       `yaml:"facing"`
}

// turnStep is the largest turn, in degrees, between two poses at which a turning unit
// is checked against the bases around it: the hull of two poses this close misses less
// than 0.0002 of the turning radius of the arc its corners sweep.
const turnStep = 2.0

// inUnit reads an action in the battle's unit: one sent on its own (over the API)
// writes its coordinates as the scenario does.
func (b *Battle) inUnit(doc *scenario.Doc) *scenario.Doc {
	if b.unit == "" {
		return doc
	}
	return doc.WithUnit(b.unit)
}

func (b *Battle) decodeMove(doc *scenario.Doc) (volley.Action, error) {
	doc = b.inUnit(doc)
	return volley.ReadAction(doc, func(s *moveSpec, errs *scenario.ErrorList) volley.Action {
		if volley.RefuseNoMoves(errs, doc, &s.Type, volley.MoveAction, "units", b.moves) {
			return nil
		}
		u := b.actingUnit(doc, errs, &s.Unit, "move")
		if u == nil {
			return nil
		}
		m := &Move{Unit: u.ID, Facing: s.Facing, Pivot: s.Pivot, Formation: s.Formation, Limber: s.Limber, Unlimber: s.Unlimber, at: doc.Root()}
		if len(s.Path) > volley.MaxLegs {
			errs.Add(doc.At(&s.Path), "move: path: at most %d legs", volley.MaxLegs)
			return m
		}
		for i := range s.Path {
			p := cm(s.Path[i])
			if !b.onTable(doc, errs, &s.Path[i], p) {
				return m
			}
			m.Path = append(m.Path, p)
		}
		if f := s.Facing; f != nil && (!finite(*f) || math.Abs(*f) > 720) {
			errs.Add(doc.At(f), "move: facing is a bearing in degrees")
		}
		switch s.Pivot {
		case "":
			m.Pivot = PivotCentre
		case PivotCentre:
		case PivotLeft, PivotRight:
			if s.Facing == nil {
				errs.Add(doc.At(&s.Pivot), "move: pivot: give the facing the unit wheels to")
			}
			if len(s.Path) > 0 {
				errs.Add(doc.At(&s.Pivot), "move: pivot: a wheel is a move of its own; send the path in the next move")
			}
		default:
			errs.Add(doc.At(&s.Pivot), "move: pivot: want centre, left or right, got %q", s.Pivot)
		}
		if u.Battery() && s.Formation != "" {
			errs.Add(doc.At(&s.Formation), "move: formation: %s is a battery, which has no formation", u.ID)
		}
		if !u.Battery() && (s.Limber || s.Unlimber) {
			errs.Add(doc.At(s), "move: limber and unlimber are for batteries; %s is %s", u.ID, u.Kind)
		}
		if len(s.Path) == 0 && s.Facing == nil && s.Formation == "" && !s.Limber && !s.Unlimber {
			errs.Add(doc.At(s), "move: give a path, a facing, a formation, limber or unlimber")
		}
		return m
	})
}

func (b *Battle) decodeDeploy(doc *scenario.Doc) (volley.Action, error) {
	doc = b.inUnit(doc)
	return volley.ReadAction(doc, func(s *deploySpec, errs *scenario.ErrorList) volley.Action {
		if b.table.RefuseDeploy(errs, doc, &s.Type, "units", b.moves) {
			return nil
		}
		u := b.actingUnit(doc, errs, &s.Unit, "deploy")
		if u == nil {
			return nil
		}
		at := cm(s.At)
		if !b.onTable(doc, errs, &s.At, at) {
			return nil
		}
		if f := s.Facing; f != nil && (!finite(*f) || math.Abs(*f) > 720) {
			errs.Add(doc.At(f), "deploy: facing is a bearing in degrees")
		}
		return &Deploy{Unit: u.ID, At: at, Facing: s.Facing, at: doc.Root()}
	})
}

// actingUnit is the unit an action names at id, or nil: an unknown unit is refused at id
// (what is the action's word for it), one that failed to load is not (its errors are
// reported where it is written).
func (b *Battle) actingUnit(doc *scenario.Doc, errs *scenario.ErrorList, id *string, what string) *Unit {
	u := b.Unit(*id)
	if u == nil && !b.broken[*id] {
		volley.RefuseUnknown(errs, doc, id, what+": no unit", b.unitIDs)
	}
	return u
}

func (b *Battle) decodeDecline(doc *scenario.Doc) (volley.Action, error) {
	return volley.ReadAction(doc, func(s *volley.BareAction, errs *scenario.ErrorList) volley.Action {
		volley.RefuseNoMoves(errs, doc, &s.Type, KindDecline, "units", b.moves)
		return &Decline{at: doc.Root()}
	})
}

// rate is how far a unit may move in its player turn: its own rate, or its arm's (for a
// battery, limbered). 0 when it does not move.
func (b *Battle) rate(u *Unit) float64 {
	if u.Move > 0 {
		return u.Move
	}
	return b.movement.rate[u.Kind]
}

// moveTurn is why no unit of side may move now, at this moment of the turn, or "".
func (b *Battle) moveTurn(side string) string {
	p := &b.phase
	switch {
	case p.window != nil:
		return b.waiting()
	case p.step != Maneuver:
		return fmt.Sprintf("units move in their player turn's maneuver step, and this is the %s step", p.step)
	case side != b.phasing():
		return fmt.Sprintf("it is %s's player turn: only its units move in its maneuver step", b.phasing())
	}
	return ""
}

// movable says why unit u may not move now, or "": (false, why) for the turn, (true,
// why) for the rules. left is how much of its rate it has left.
func (b *Battle) movable(u *Unit) (left float64, why string, rules bool) {
	if u.Destroyed() {
		return 0, u.ID + " is destroyed", true
	}
	rate := b.rate(u)
	if rate <= 0 {
		return 0, fmt.Sprintf("%s moves at no rate: the scenario gives %s none (movement: %s, or the unit's move:)", u.ID, u.Kind, u.Kind), true
	}
	if why := b.moveTurn(u.Side); why != "" {
		return 0, why, false
	}
	left = max(rate-b.phase.moved[u.ID], 0)
	if left <= geom.Tolerance {
		return 0, fmt.Sprintf("%s has moved its whole %s this player turn", u.ID, fmtCm(rate)), true
	}
	return left, "", true
}

// moving is a move worked out on copies of the unit's bases, before it is applied.
type moving struct {
	u     *Unit
	start []Rect
	// path is the centre's, from where it stood; bases where they end.
	path      geom.Path
	bases     []Rect
	facing    float64
	formation Formation
	limbered  bool
	// cost is what the move takes of the unit's rate, parts what it is made of;
	// prolonge is how far an unlimbered battery moved by prolonge.
	cost     float64
	prolonge float64
	parts    []string
	turned   float64 // degrees, signed
}

// workMove works a move out: what it costs, where it ends, and why it may not be made
// (an error: ECONFLICT for the turn, EINVALID for the rules). It changes nothing.
func (b *Battle) workMove(m *Move) (*moving, error) {
	u := b.Unit(m.Unit)
	left, why, rules := b.movable(u)
	if why != "" {
		code := volley.ECONFLICT
		if rules {
			code = volley.EINVALID
		}
		return nil, volley.Errorf(code, "republique: %s may not move now: %s", u.ID, why)
	}
	refuse := func(format string, args ...any) (*moving, error) {
		return nil, volley.Errorf(volley.EINVALID, "republique: "+format, args...)
	}
	w := &moving{u: u, start: slices.Clone(u.Bases), bases: slices.Clone(u.Bases), facing: u.Facing, formation: u.Formation, limbered: u.Limbered}
	w.path = append(geom.Path{centre(w.bases)}, m.Path...)
	add := func(cost float64, what string) {
		w.cost += cost
		w.parts = append(w.parts, fmt.Sprintf("%s %s", what, fmtCm(cost)))
	}
	if m.Limber {
		if u.Limbered {
			return refuse("%s is limbered already", u.ID)
		}
		w.limbered = true
		add(b.movement.limber, "limbering")
	}
	if m.Unlimber && !w.limbered {
		return refuse("%s is unlimbered already", u.ID)
	}
	if l := w.path.Length(); l > 0 {
		add(l, "path")
		if u.Battery() && !w.limbered {
			// An unlimbered battery moves by prolonge only, within the prolonge rate.
			w.prolonge = l
			done := b.phase.prolonged[u.ID]
			switch {
			case b.movement.prolonge <= 0:
				return refuse("%s is unlimbered: it moves by prolonge, and the scenario gives no prolonge rate (movement: prolonge); limber it first (limber: true)", u.ID)
			case done+l > b.movement.prolonge+geom.Tolerance:
				return refuse("%s's prolonge is %s long, and it may prolong %s more this player turn (movement: prolonge %s)", u.ID, fmtCm(l), fmtCm(max(b.movement.prolonge-done, 0)), fmtCm(b.movement.prolonge))
			}
		}
	}
	if m.Facing != nil {
		if d := geom.AngleDiff(u.Facing, geom.NormDeg(*m.Facing)); math.Abs(d) > geom.AngleTolerance {
			w.turned = d
			// Not in the source: a turn takes the arc the front corner farthest from the
			// pivot travels, as a wheel is measured on the table.
			pivot, r := pivotOf(w.bases, u.Facing, m.Pivot), 0.0
			for _, c := range frontCorners(w.bases, u.Facing) {
				r = max(r, c.Dist(pivot))
			}
			what := "turn"
			if m.Pivot != PivotCentre {
				what = "wheel"
			}
			add(r*math.Abs(d)*math.Pi/180, what)
		}
	}
	if m.Formation != "" && m.Formation != u.Formation {
		w.formation = m.Formation
		add(b.movement.reform, "change of formation")
	}
	if m.Unlimber {
		w.limbered = false
		add(b.movement.limber, "unlimbering")
	}
	if w.cost > left+geom.Tolerance {
		return refuse("%s's move takes %s of its rate (%s), and it may move %s more this player turn (its rate %s: the scenario's movement:)",
			u.ID, fmtCm(w.cost), strings.Join(w.parts, ", "), fmtCm(left), fmtCm(b.rate(u)))
	}
	if w.turned == 0 && w.formation == u.Formation && w.limbered == u.Limbered && w.path.Length() == 0 {
		return refuse("%s's move changes nothing", u.ID)
	}
	// Where the bases go: along the path, then the turn, then the new formation.
	obs := b.obstacles(u)
	for i := range len(w.path) - 1 {
		d := w.path[i+1].Sub(w.path[i])
		if why := sweep(w.bases, func(r Rect) Rect { return r.moved(d) }, obs); why != "" {
			return refuse("%s cannot move there: leg %d would pass over %s", u.ID, i+1, why)
		}
		for j := range w.bases {
			w.bases[j] = w.bases[j].moved(d)
		}
		if why := b.offTable(w.bases); why != "" {
			return refuse("%s cannot move there: leg %d: %s", u.ID, i+1, why)
		}
	}
	if w.turned != 0 {
		pivot := pivotOf(w.bases, u.Facing, m.Pivot)
		n := int(math.Ceil(math.Abs(w.turned) / turnStep))
		for k := 1; k <= n; k++ {
			from, to := w.turned*float64(k-1)/float64(n), w.turned*float64(k)/float64(n)
			if why := sweep(w.bases, func(r Rect) Rect { return r.turned(pivot, to-from) }, obs); why != "" {
				return refuse("%s cannot turn there: it would pass over %s", u.ID, why)
			}
			for j := range w.bases {
				w.bases[j] = w.bases[j].turned(pivot, to-from)
			}
			if why := b.offTable(w.bases); why != "" {
				return refuse("%s cannot turn there: %s", u.ID, why)
			}
		}
		w.facing = geom.NormDeg(u.Facing + w.turned)
		for j := range w.bases {
			w.bases[j].Facing = w.facing
		}
	}
	if w.formation != u.Formation {
		w.bases = layout(centre(w.bases), w.facing, u.W, u.D, len(w.bases), w.formation)
		if why := standsOn(w.bases, obs); why != "" {
			return refuse("%s cannot form %s there: it would stand on %s", u.ID, w.formation, why)
		}
		if why := b.offTable(w.bases); why != "" {
			return refuse("%s cannot form %s there: %s", u.ID, w.formation, why)
		}
	}
	return w, nil
}

// pivotOf is the point a unit turns about: its centre, or the left or right end of its
// front (in its own frame).
func pivotOf(bases []Rect, facing float64, pivot string) geom.Vec {
	c := centre(bases)
	if pivot == PivotCentre || pivot == "" {
		return c
	}
	right := dir(facing + 90)
	best, side := c, math.Inf(1)
	if pivot == PivotRight {
		side = math.Inf(-1)
	}
	for _, p := range frontCorners(bases, facing) {
		x := right.Dot(p.Sub(c))
		if pivot == PivotLeft && x < side || pivot == PivotRight && x > side {
			best, side = p, x
		}
	}
	return best
}

// frontCorners are the corners of a unit's bases on its front: the foremost line of
// its block, in its own frame.
func frontCorners(bases []Rect, facing float64) []geom.Vec {
	fwd, c := dir(facing), centre(bases)
	front := math.Inf(-1)
	for _, r := range bases {
		for _, p := range r.Corners() {
			front = max(front, fwd.Dot(p.Sub(c)))
		}
	}
	var out []geom.Vec
	for _, r := range bases {
		for _, p := range r.Corners() {
			if fwd.Dot(p.Sub(c)) >= front-1e-6 {
				out = append(out, p)
			}
		}
	}
	return out
}

// resolveMove checks a move and applies it. It rolls no die. A refused move changes
// nothing.
func (b *Battle) resolveMove(m *Move) (volley.Outcome, error) {
	w, err := b.workMove(m)
	if err != nil {
		return volley.Outcome{}, err
	}
	u := w.u
	from := centre(u.Bases)
	// Applied only now: workMove left the battle as it was.
	b.table.Deploying = false
	b.follow(u, w.bases, w.facing)
	u.Bases, u.Facing, u.Formation, u.Limbered = w.bases, w.facing, w.formation, w.limbered
	u.Moved = true
	b.phase.moved[u.ID] += w.cost
	if w.prolonge > 0 {
		b.phase.prolonged[u.ID] += w.prolonge
	}
	to := centre(u.Bases)
	in := map[string]any{"unit": u.ID, "from": []float64{round3(from.X), round3(from.Y)}, "to": []float64{round3(to.X), round3(to.Y)},
		"cost": round3(w.cost), "moved_this_turn": round3(b.phase.moved[u.ID]), "rate": round3(b.rate(u))}
	if w.turned != 0 {
		in["facing"] = round3(w.facing)
	}
	steps := []volley.Step{{Rule: "move", Inputs: in, Result: fmt.Sprintf("%s moved: %s, %s of its %s this player turn",
		u.ID, strings.Join(w.parts, ", "), fmtCm(b.phase.moved[u.ID]), fmtCm(b.rate(u)))}}
	if u.Battery() {
		var facts []string
		switch {
		case m.Limber && !w.limbered:
			facts = append(facts, "limbered and unlimbered again")
		case m.Limber:
			facts = append(facts, "limbered: it may not fire while it is")
		case m.Unlimber:
			facts = append(facts, "unlimbered")
		}
		if w.prolonge > 0 {
			facts = append(facts, fmt.Sprintf("prolonged %s: it loses simultaneous fire against enemy artillery this player turn", fmtCm(w.prolonge)))
		}
		facts = append(facts, "not stationary: it may not save fire this player turn")
		steps = append(steps, volley.Step{Rule: "artillery movement", Inputs: map[string]any{"battery": u.ID, "limbered": u.Limbered}, Result: strings.Join(facts, "; ")})
		if u.SavedFire {
			// Any move loses saved fire: changing facing and prolonging included.
			u.SavedFire = false
			steps = append(steps, volley.Step{Rule: "saved fire", Inputs: map[string]any{"battery": u.ID}, Result: "lost: a battery with saved fire that moves in any way loses it"})
		}
	}
	steps = append(steps, b.passingAfter(u, w)...)
	return volley.Outcome{Trace: steps, Targets: []volley.TargetResult{}}, nil
}

// follow moves the leaders attached to u with it, keeping where each stands from its
// centre, turned as it turns.
func (b *Battle) follow(u *Unit, to []Rect, facing float64) {
	c0, c1 := centre(u.Bases), centre(to)
	d := geom.AngleDiff(u.Facing, facing)
	for i := range b.leaders {
		if l := &b.leaders[i]; l.Attached == u.ID && l.Gone == "" {
			l.At = c1.Add(turn(l.At.Sub(c0), d))
		}
	}
}

// moveRefusals is a move's or a deployment's refusal, for check: at its place.
func (b *Battle) moveRefusals(a volley.Action) scenario.ErrorList {
	var list scenario.ErrorList
	switch a := a.(type) {
	case *Move:
		_, err := b.workMove(a)
		return rules.RefusalOf(a.at, err, "republique")
	case *Deploy:
		if err := b.table.CheckDeploy(b.Unit(a.Unit).Side, []string{a.Unit}, "units"); err != nil {
			list.Add(a.at, "%s", volley.ErrorMessage(err))
		} else if _, _, why := b.deployed(a); why != "" {
			list.Add(a.at, "%s cannot be deployed there: %s", a.Unit, why)
		}
	}
	return list
}
