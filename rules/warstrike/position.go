package warstrike

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// Where to stand (docs/advise.md, "Where to stand"): for a unit of the side to act, every
// point it can reach this turn, scored by the best plan it could fire from there after the
// move and by the danger map's value for it there. None of what follows is in the source,
// which names the actions without their distances and says nothing of formations:
//
//   - The unit keeps its formation, translated: the map's point is the centre of its
//     living models (as the danger map centres the unit it places), and each model goes
//     to its own place round that point. Each model takes its own shortest legal way
//     there, round bases and the terrain that stops it (as its move is checked), and the
//     point's reach is the farthest any of them goes: the action's distance is a model's.
//   - The models move one by one, in an order that lets each pass: front first, and a
//     model whose way crosses a fellow's place moves after the fellow has left it, or
//     before the fellow arrives. A point no order allows is left out (a detour round a
//     fellow is not searched), and every point's move is checked by the move's own rules.
//   - The action is the one the move there needs: the cheapest (least distance) of those
//     that reach the point and let the unit shoot, else the cheapest that reaches it. The
//     action only says whether the unit may shoot (Who Can Shoot?; volley gives it no
//     modifier), so every shooting action scores the same offence: the cheapest is also
//     the best for offence. A unit that chose its action this turn keeps it.

// DefaultPositionStep is the spacing of a position map's points unless asked otherwise:
// an inch, as the danger map's, since each point looks from every enemy model at every
// model of the unit, and from each of its models at every enemy.
const DefaultPositionStep = DefaultDangerStep

// positionActions are the actions a map tries for a unit that has chosen none this turn,
// in the order it prefers among actions that move as far: the four that allow shooting in
// the text's order, then Advance before At-The-Double and Fall Back (the text ties falling
// back to being forced back), then Halt and Go To Ground.
var positionActions = []Action{OpenFire, HaltAndFire, ShootingAdvance, FocusFire, Advance, AtTheDouble, FallBack, Halt, GoToGround}

// positionSetup is a position query checked: the unit, its formation, how far its models
// may still move, what each must go round, and the points, in inches and in the scenario's
// unit.
type positionSetup struct {
	u *Unit
	// models are the unit's living models, in its order: the formation. centre is their
	// centre, moved how far each has moved this turn.
	models []*Model
	centre geom.Vec
	moved  []float64
	// left is the least any model may still move (the map's Left), most the most.
	left, most float64
	// shootMost is the farthest a model may go and the unit still shoot, -1 when it may
	// not shoot at all this turn.
	shootMost float64
	// ways are each model's, as far as it may still move with the farthest action it may
	// choose, round what its centre keeps out of (the terrain that stops it and every
	// other base, grown by its radius); built by Position, after the price.
	ways []advise.Ways
	// The points, in the scenario's unit: a square, the unit's centre at its middle.
	unitLength scenario.Unit
	perInch    float64
	advise.Lattice
}

func (b *Battle) positionSetup(q advise.PositionQuery) (*positionSetup, error) {
	u, ok := b.Unit(q.Unit)
	if !ok {
		return nil, advise.Invalid("unit", "warstrike: no unit %q%s", q.Unit, scenario.Hint(q.Unit, b.unitIDs()))
	}
	if !b.moves {
		return nil, advise.Invalid("unit", "warstrike: this battle began before models moved (edition %d): it has no position map", volley.EditionMoves-1)
	}
	if err := advise.CheckDestroyTarget(b, u.Side, q.Objective); err != nil {
		return nil, err
	}
	s := &positionSetup{u: u, unitLength: b.unit.OrInch(), left: math.Inf(1), shootMost: -1}
	s.perInch = scenario.Inches(1).In(s.unitLength)
	for i := range u.Models {
		m := &u.Models[i]
		if !m.Alive() {
			continue
		}
		// Every model moves with the formation: one that may not move holds it still.
		left, why := b.movable(u, m)
		if why != "" {
			return nil, advise.Invalid("unit", "warstrike: %s may not move now: %s", u.ID, why)
		}
		s.models = append(s.models, m)
		s.centre = s.centre.Add(m.At) // summed as the danger map sums it, to the last bit
		s.moved = append(s.moved, b.moved[m.ID])
		// Its ways go as far as it may still move with the farthest action it may choose
		// (to within geom.Tolerance, as the move's check allows).
		s.ways = append(s.ways, advise.Ways{Start: m.At, Left: left + geom.Tolerance})
		s.left, s.most = min(s.left, left), max(s.most, left)
	}
	if len(s.models) == 0 {
		return nil, advise.Invalid("unit", "warstrike: %s has no models left", u.ID)
	}
	s.centre = s.centre.Scale(1 / float64(len(s.models)))
	for _, a := range s.choices() {
		if b.shoots(u, a) {
			farthest := math.Inf(1)
			for i := range s.models {
				farthest = min(farthest, b.allowance(u, a)-s.moved[i])
			}
			s.shootMost = max(s.shootMost, farthest)
		}
	}
	// Models of one base, standing as high and as tall, go round the same obstacles: they
	// are grown once.
	type body struct{ r, elevation, height float64 }
	grown := map[body][]geom.Polygon{}
	for i, m := range s.models {
		r := m.Base / 2
		key := body{r, m.Elevation, m.Height}
		obs, ok := grown[key]
		if !ok {
			for j := range b.terrain {
				if t := &b.terrain[j]; blocksMove(t, m) {
					obs = append(obs, geom.Inflate(t.Poly, r)...)
				}
			}
			for ui := range b.units {
				for mi := range b.units[ui].Models {
					// Every base on the table but the formation's own: a model marked
					// dead is still there (pathBlocked).
					if o := &b.units[ui].Models[mi]; !o.Dead && (&b.units[ui] != u || !o.Alive()) {
						obs = append(obs, geom.InflateCircle(o.circle(), r))
					}
				}
			}
			grown[key] = obs
		}
		s.ways[i].Obstacles = obs
		s.ways[i].Lo, s.ways[i].Hi = b.table.Within(r)
	}
	step, err := q.CheckedStep(scenario.Inches(DefaultPositionStep).In(s.unitLength), "warstrike")
	if err != nil {
		return nil, err
	}
	// The points: a square round the unit's centre, the centre one of them (standing
	// still is a choice), as far out as a model may go.
	k := math.Ceil(s.most*s.perInch/step - 1e-9)
	if s.Lattice, err = advise.SquareAround([2]float64{s.centre.X * s.perInch, s.centre.Y * s.perInch}, k, step, "warstrike"); err != nil {
		return nil, err
	}
	return s, nil
}

// choices are the actions the unit may move with: the one it chose this turn, or any.
func (s *positionSetup) choices() []Action {
	if s.u.Action != "" {
		return []Action{s.u.Action}
	}
	return positionActions
}

// shoots reports whether u may shoot after choosing a (Who Can Shoot?).
func (b *Battle) shoots(u *Unit, a Action) bool {
	return a.allowsShooting() && b.whoMayShoot(u, a) == ""
}

// action is the action a move needs whose farthest model ends need inches from where it
// began the turn: the cheapest of those that let the unit shoot, else the cheapest of
// all (positionActions' order among equals); false when none reaches.
func (s *positionSetup) action(b *Battle, need float64) (Action, bool) {
	best, found := Action(""), false
	for _, a := range s.choices() {
		if need > b.allowance(s.u, a)+geom.Tolerance {
			continue
		}
		if !found {
			best, found = a, true
			continue
		}
		sa, sb := b.shoots(s.u, a), b.shoots(s.u, best)
		if sa && !sb || sa == sb && b.allowance(s.u, a) < b.allowance(s.u, best) {
			best = a
		}
	}
	return best, found
}

// point is point (c, r) in inches.
func (s *positionSetup) point(c, r int) geom.Vec { return geom.V(s.At(c, r, s.perInch)) }

// within counts the points no further than d inches from the unit's centre.
func (s *positionSetup) within(d float64) int64 { return s.Within(s.point, s.centre, d) }

// PositionWork is the work of q's map, priced before any of it is done: each model's
// ways (the visibility graph of the grown obstacles' corners within its reach, then each
// point's way among them), each point's order of the models and its move checked by the
// move's rules (a model's way priced as two legs), the unit's advice from each point a
// shooting action reaches (AdviceCost, and its dice added up), and the danger of each
// point (dangerPointWork). The search of the plans is bounded by the request's deadline,
// as the advisor's is.
func (b *Battle) PositionWork(q advise.PositionQuery) (int64, error) {
	return advise.PositionWorkOf(q, b.positionSetup, (*positionSetup).checkWays, b.positionWork)
}

func (b *Battle) positionWork(s *positionSetup) (int64, string) {
	points := s.within(s.most)
	shooting := int64(0)
	if s.shootMost >= 0 {
		shooting = s.within(s.shootMost)
	}
	n := int64(len(s.models))
	ways := int64(0)
	for i := range s.ways {
		w, _ := s.ways[i].Work(points)
		ways = advise.AddWork(ways, w)
	}
	checks := points * n * 2 * (n + b.sweepWork())
	offence := b.AdviceCost(advise.Query{Side: s.u.Side, Actor: s.u.ID})
	for _, m := range s.models {
		if !b.armed(m) {
			continue
		}
		for i := range b.units {
			if t := &b.units[i]; t.Side != s.u.Side && !t.Destroyed() {
				wounds := int64(t.Left() * max(t.Wounds, 1))
				offence += (wounds + 1) * (wounds + 1)
			}
		}
	}
	danger := points * b.dangerPointWork(s.u, s.u.Side)
	work := advise.AddWork(ways, checks, advise.MulWork(shooting, offence+int64(len(b.modelAt))), danger)
	return work, fmt.Sprintf("%d points, %d of them where %s may still shoot, %d models' ways round what stops them, its advice from each and the danger map",
		points, shooting, s.u.ID, n)
}

// Position maps every point the unit's centre can reach now, its formation translated:
// the farthest any model goes there by its shortest legal way, the best plan from there
// after the move (the advisor's, under the action the move needs), and the danger there
// (the danger map of the unit itself).
func (b *Battle) Position(ctx context.Context, q advise.PositionQuery) (*advise.PositionMap, error) {
	s, _, err := advise.PricePosition(q, b.positionSetup, (*positionSetup).checkWays, b.positionWork)
	if err != nil {
		return nil, err
	}
	if err := s.buildWays(ctx, b); err != nil {
		return nil, err
	}
	u := s.u
	obj := advise.OffenceObjective(q)
	dobj := advise.DangerObjective(q.Danger)
	cols := s.Cols
	m := advise.NewPositionMap(u.ID, u.Side, [2]float64{s.centre.X * s.perInch, s.centre.Y * s.perInch}, s.left*s.perInch,
		obj.Describe(MeasureKills), string(s.unitLength), s.Lattice)
	m.Danger = advise.DangerScores(dobj, "expected kills")
	_, err = advise.FillGrid(ctx, cols, cols, m.OffenceValues, func() advise.PointFunc {
		d := b.newDangerWorker(u, u.Side)
		return func(c, r int, firers map[string]bool) (float64, error) {
			i := r*cols + c
			m.Reach[i], m.DangerValues[i] = math.NaN(), math.NaN()
			p := s.point(c, r)
			w := s.wayTo(b, p)
			if w == nil {
				return math.NaN(), nil
			}
			// The danger map's own worker: its value for the unit centred here.
			dv, err := d.at(ctx, p, dobj, firers)
			if err != nil || math.IsNaN(dv) {
				return math.NaN(), err // a model under an arch: the danger map holds no unit there
			}
			m.Reach[i], m.DangerValues[i] = w.reach*s.perInch, dv
			v, _, err := s.offenceAt(ctx, b, w, obj)
			return v, err
		}
	})
	if err != nil {
		return nil, err
	}
	m.Finish(q, func(i int) map[string]any {
		return s.moveJSON(b, s.wayTo(b, s.point(i%cols, i/cols)))
	}, func(i int) map[string]any {
		return advise.TopPlan(s.offenceAt(ctx, b, s.wayTo(b, s.point(i%cols, i/cols)), obj))
	})
	m.Notes = s.notes(b)
	return m, nil
}

// buildWays works out each model's shortest ways among what it must go round.
func (s *positionSetup) buildWays(ctx context.Context, b *Battle) error {
	for i := range s.ways {
		if err := s.ways[i].Build(ctx, b.table.Edged); err != nil {
			return err
		}
	}
	return nil
}

// checkWays refuses a map whose models' ways alone cost more than volley.MaxHeavyWork:
// the corners within their moves, which no step makes fewer.
func (s *positionSetup) checkWays() error { return advise.CheckWays(s.u.ID, s.ways...) }

// offenceAt makes the move w on a copy of the battle and asks the advisor for the unit's
// best plan from there: its value and action. A move whose action forbids shooting
// scores 0.
func (s *positionSetup) offenceAt(ctx context.Context, b *Battle, w *way, obj advise.Objective) (float64, map[string]any, error) {
	if !b.shoots(s.u, w.act) {
		return 0, nil, nil
	}
	f := b.Fork().(*Battle)
	if _, err := f.resolveMove(s.moveOf(w, nil)); err != nil {
		return 0, nil, err
	}
	adv, err := advise.Advise(ctx, f, advise.Query{Side: s.u.Side, Actor: s.u.ID}, obj, 1, advise.Budget{})
	if err != nil {
		if volley.ErrorCode(err) == volley.EINVALID {
			return 0, nil, nil // nothing it could fire at from there
		}
		return 0, nil, err
	}
	if len(adv) == 0 || len(adv[0].Plans) == 0 {
		return 0, nil, nil
	}
	return adv[0].Plans[0].Value, adv[0].Plans[0].Action, nil
}

// notes say what the map's readings are, with the actions' distances.
func (s *positionSetup) notes(b *Battle) []string {
	u := s.u
	var shooting, moving []string
	for _, a := range s.choices() {
		if d := b.allowance(u, a); d > 0 || a == OpenFire {
			w := fmt.Sprintf("%s %s", a.Title(), b.length(d))
			if b.shoots(u, a) {
				shooting = append(shooting, w)
			} else {
				moving = append(moving, w)
			}
		}
	}
	action := "action: each point's is the one the move there needs (not in the source): the cheapest that reaches it and lets " + u.ID + " shoot"
	if len(shooting) > 0 {
		action += " (" + strings.Join(shooting, ", ") + ")"
	}
	action += ", else the cheapest that reaches it"
	if len(moving) > 0 {
		action += " (" + strings.Join(moving, ", ") + ": no shooting)"
	}
	action += "; every action that allows shooting scores the same, as the action only says whether the unit may shoot (Who Can Shoot?)"
	if u.Action != "" {
		action = fmt.Sprintf("action: %s chose %s this turn: every point is reached with it, %s a model", u.ID, u.Action.Title(), b.length(b.allowance(u, u.Action)))
		if !b.shoots(u, u.Action) {
			action += ", and it may not shoot"
		}
	}
	notes := []string{
		"formation: " + u.ID + "'s living models keep their places round the point, translated (not in the source); each takes its own shortest legal way there, round bases and the terrain that stops it (corners rounded as 16-sided polygons: at most about 2% of a base's radius longer a corner), and the point's reach is the farthest any goes",
		"order: the models move one by one, front first, each after any fellow whose place its way crosses; a point no order allows is left out (a detour round a fellow is not searched), and every move is checked by the move's own rules",
		action,
		"offence: " + u.ID + "'s best plan from there after the move (the advisor's), each model seeing exactly from where it stands, on the ground there; 0 where the move's action forbids shooting",
		"danger: the other sides' next fire at " + u.ID + " standing there, none of them having moved (the danger map of the unit itself)",
	}
	if s.shootMost < 0 {
		why := b.whoMayShoot(u, OpenFire)
		if u.Action != "" {
			why = b.whoMayShoot(u, u.Action)
		}
		notes = append(notes, "no point has offence: "+why)
	}
	if b.roofBound(s.models) {
		notes = append(notes, "a model on a roof moves across it and not off it: a point whose way would step off is left out")
	}
	return notes
}

// roofBound reports whether any of models stands on a building's roof.
func (b *Battle) roofBound(models []*Model) bool {
	for _, m := range models {
		for j := range b.terrain {
			if t := &b.terrain[j]; t.Kind == Building && standsOn(t, m) {
				return true
			}
		}
	}
	return false
}
