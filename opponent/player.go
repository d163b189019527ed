package opponent

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/scenario"
)

// Player plays one side of a battle with a policy, one decision at a time.
type Player struct {
	Policy Policy
	Side   string
	// Step is the distance between the points of the position maps it reads, in the
	// table's unit; 0 for each system's default.
	Step float64

	// phase is the turn and phase seen last, and seen the battles seen in it: an action
	// that would bring back one of them (a target declared, then another, then the
	// first again) goes round in a circle, and is not taken.
	phase string
	seen  map[string]bool
	// fired are the actors whose fire plan was chosen this phase, and steps the rest of
	// a plan of several actions (a War Engine unit's group, then each weapon's square),
	// taken before anything else: a plan chosen is carried out, not weighed again at
	// every step.
	fired    map[string]bool
	steps    []map[string]any
	stepsWhy string
	// maps are the position maps read this turn, by unit, where it stood, what was left
	// of the battle, what its rank read of the other units' places (objectivesKey) and
	// what fire has been taken since (firedKey): a map is read again when its unit has
	// moved, a unit has been destroyed, the count of an objective its best places were
	// chosen for has changed, its squad has fired, or a shot has damaged an enemy or it,
	// and not when only a friend has moved (each candidate is tried on the battle as it
	// is anyway).
	maps map[string]*advise.PositionMap
	// endsMove are the actors whose fire was found to end their move this phase, or not
	// (moveFirst): read once an actor a phase, since it costs a shot resolved on a copy.
	endsMove map[string]bool
	// threats are what each enemy unit's next fire is worth against the side, where the
	// battle's fire can pin a unit down (planner_pin.go), read once a unit for the battle
	// as it stands (threatsAt, its snapshot): a move or a shot of the side's changes what
	// an enemy's next fire can reach, so they are read again after each action.
	threats   map[string]float64
	threatsAt string
}

// option is one action a player may take now, weighed.
type option struct {
	kind   string // "move", "fire", "answer", "end"
	actor  string // the squad, unit or battery that acts ("" for an end)
	action map[string]any
	value  float64
	why    string
	// rest are the actions that carry out the rest of a fire plan of several.
	rest []map[string]any
	// targets are what a fire option fires at, in the plan's order.
	targets []string
	// A move option's place has a shot from it (shotThere: planner_move_first.go,
	// planner_squad_fire.go), and offenceHere is what its unit's position map counts of
	// its fire from where it stands, in points: what the move's gain gave up for it
	// (planner_move_first.go).
	shotThere   bool
	offenceHere float64
	// destroys is whether a fire option may destroy any of its targets (a chance under
	// 0.5% counts as none): a fire that only damages does not.
	destroys bool
}

// piece is a unit, model or stand on the board as the player reads it.
type piece struct {
	id, side, squad string
	// name is the piece's name on the table: its type's, in the systems that have types.
	name      string
	x, y      float64
	destroyed bool
	move      *volley.MoveView
}

// view is what the player reads of the battle before a decision.
type view struct {
	b        volley.Battle
	state    volley.State
	turn     *volley.Turn
	pieces   []piece
	unitIDs  map[string]bool
	points   map[string]float64 // what destroying each unit scores its enemies
	result   volley.Result
	end      *volley.End
	lastTurn bool
	// grid is true on a square grid map (the War Engine's), where distances to
	// objectives are counted in squares.
	grid bool
	// seen are the battles seen this phase (Player.seen).
	seen map[string]bool
	// enemyAfter is false when no other side acts after this one before the end
	// (enemyActsAfter): read by the strong level in the last round only, true otherwise.
	enemyAfter bool
}

func read(g *volley.Game) *view {
	b := g.Battle()
	v := &view{b: b, state: b.State(), unitIDs: map[string]bool{}, points: map[string]float64{}, end: g.End(), result: g.Result(), enemyAfter: true}
	v.turn = v.state.Turn
	for _, u := range v.state.Units {
		v.unitIDs[u.ID] = true
		v.points[u.ID] = volley.DefaultPoints
		if v.end != nil {
			v.points[u.ID] = v.end.Points[u.ID]
		}
	}
	if v.end != nil && v.end.Turns > 0 && v.turn != nil && v.turn.Number >= v.end.Turns {
		v.lastTurn = true
	}
	if bd, ok := b.(volley.Board); ok {
		v.grid = true
		for _, u := range bd.Board().Units {
			v.pieces = append(v.pieces, piece{id: u.ID, side: u.Side, name: u.Name, x: float64(u.X), y: float64(u.Y), move: u.Move})
		}
	} else if t, ok := b.(volley.Table); ok {
		for _, u := range t.Table().Units {
			if !u.Placed {
				continue
			}
			v.pieces = append(v.pieces, piece{id: u.ID, side: u.Side, squad: u.Squad, name: u.Name, x: u.X, y: u.Y, destroyed: u.Destroyed, move: u.Move})
		}
	}
	return v
}

// owner is the unit of the state a piece belongs to: itself, or its squad (a WarStrike
// model's unit).
func (v *view) owner(p piece) string {
	if v.unitIDs[p.id] {
		return p.id
	}
	return p.squad
}

// actorOf is who acts for a piece: its squad where it has one (a Dropzone squad fires
// and activates as one), else its unit.
func (v *view) actorOf(p piece) string {
	if p.squad != "" {
		return p.squad
	}
	return p.id
}

// Next is the player's next action in g, or nil when its side has nothing to do now.
// rng draws the choices of the levels that choose at random; it should be a stream
// of the battle's own, so that the battle replays.
func (p *Player) Next(ctx context.Context, g *volley.Game, rng *dice.Stream) (*Decision, error) {
	if g.Over() {
		return nil, nil
	}
	v := read(g)
	t := v.turn
	if t == nil {
		return nil, nil
	}
	if phase := fmt.Sprintf("%d %s %s", t.Number, t.Side, t.Phase); phase != p.phase || p.seen == nil {
		p.phase, p.seen, p.fired, p.steps = phase, map[string]bool{}, map[string]bool{}, nil
		p.endsMove, p.threats = map[string]bool{}, nil
	}
	snap := snapshot(v.b)
	p.seen[snap] = true
	v.seen = p.seen
	if snap != p.threatsAt {
		p.threats, p.threatsAt = nil, snap
	}
	for len(p.steps) > 0 {
		st := p.steps[0]
		p.steps = p.steps[1:]
		if v.legal(ctx, st) {
			return &Decision{Action: st, Why: p.stepsWhy}, nil
		}
	}
	mine := t.Side == p.Side
	if mine && t.Phase == "deployment" {
		// The scenario's placements stand: the units deploy where it puts them.
		return p.decide(v, []option{{kind: "end", action: t.End, why: "keeps its units where the scenario deploys them"}}, rng, 0), nil
	}
	if mine && p.Policy.Level == Strong && v.lastTurn {
		v.enemyAfter = enemyActsAfter(ctx, v.b, v.end, p.Side)
	}
	var opts []option
	weighed := 0
	if mine && len(t.Actions) > 0 {
		for _, a := range t.Actions {
			o, err := p.answer(ctx, v, a)
			if err != nil {
				return nil, err
			}
			opts = append(opts, o)
		}
		weighed = len(opts)
		return p.decide(v, opts, rng, weighed), nil
	}
	fire, n, err := p.fireOptions(ctx, v)
	if err != nil {
		return nil, err
	}
	if len(fire) == 0 {
		// What the advisor does not plan, the battle may still offer (the War Engine's
		// fire at targets declared in the target phase).
		fire = p.offeredFire(ctx, v)
		n += len(fire)
	}
	weighed += n
	opts = append(opts, fire...)
	if mine {
		moves, n, err := p.moveOptions(ctx, v)
		if err != nil {
			return nil, err
		}
		weighed += n
		// A unit whose fire ends its move moves first where a place gains
		// (planner_move_first.go).
		p.moveFirst(ctx, v, fire, moves)
		// A squad shoots once: a member's step to a shot comes before the squad's
		// fire (planner_squad_fire.go).
		p.squadFirst(v, fire, moves)
		// A member whose shot only adds to its squad's fire steps to join it first
		// (planner_squad_join.go).
		moves = append(moves, p.squadJoin(ctx, v, fire)...)
		opts = append(opts, moves...)
	}
	if mine && t.End != nil {
		opts = append(opts, option{kind: "end", action: t.End, why: "nothing more worth doing this " + phaseName(t)})
	}
	if len(opts) == 0 {
		return nil, nil
	}
	return p.decide(v, opts, rng, weighed), nil
}

func phaseName(t *volley.Turn) string {
	if t.Phase == "" || t.Phase == "turn" {
		return "turn"
	}
	return t.Phase + " phase"
}

// decide chooses among weighed options as the level does.
func (p *Player) decide(v *view, opts []option, rng *dice.Stream, weighed int) *Decision {
	if len(opts) == 0 {
		return nil
	}
	pick := func(o option) *Decision {
		if o.kind == "fire" {
			p.fired[o.actor] = true
			p.steps, p.stepsWhy = o.rest, o.why
		}
		return &Decision{Action: o.action, Why: o.why, Weighed: weighed}
	}
	switch p.Policy.Level {
	case Random:
		return pick(opts[rng.IntN(len(opts))])
	case Greedy:
		return pick(p.greedy(v, opts))
	}
	// Teaching and Strong: finish the activation under way, then the most valuable.
	opts = p.focus(v, opts)
	slices.SortStableFunc(opts, func(a, b option) int { return cmp.Compare(b.value, a.value) })
	best := opts[0]
	if best.kind != "end" && best.value <= 0 {
		for _, o := range opts {
			if o.kind == "end" {
				return pick(o)
			}
		}
	}
	slip := ""
	if p.Policy.Level == Teaching {
		// It takes its units one at a time in the order the scenario lists them: the
		// first that has something worth doing acts, not the one with the most to gain.
		if first := p.firstInOrder(v, opts); len(first) > 0 {
			opts, best = first, first[0]
		}
		// Among its three best worth doing, a player who does not count everything takes
		// the second or third now and then. Its mistakes are actions it takes, never
		// actions it leaves: it does not end a phase while something is worth doing
		// (a target declared and left unfired is a turn lost, not a plausible slip).
		var good []option
		for _, o := range opts[:min(3, len(opts))] {
			if o.value > 0 && o.kind != "end" {
				good = append(good, o)
			}
		}
		if len(good) > 1 {
			r := rng.IntN(100)
			switch {
			case r < teachingThird && len(good) > 2:
				best, slip = good[2], "its third choice of three"
			case r < teachingThird+teachingSecond:
				best, slip = good[1], "its second choice"
			}
		}
		// A third of the time it fires at what is nearest rather than at what is best.
		if best.kind == "fire" && rng.IntN(teachingNearestOdds) == 0 {
			if near := v.nearestShot(best, opts); !same(near.action, best.action) {
				best, slip = near, "at the nearest target, not the best"
			}
		}
	}
	d := pick(best)
	if best.kind != "end" && len(opts) > 1 {
		d.Why += fmt.Sprintf(" — chosen among %s", count(int64(max(weighed, len(opts)))))
		if weighed > len(opts) {
			d.Why += " places and plans weighed"
		} else {
			d.Why += " choices"
		}
	}
	if slip != "" {
		// The teaching level says its slips: its reasons stay true to what it did.
		d.Why += "; " + slip
	}
	return d
}

// teachingNearestOdds is how rarely the teaching level fires at the nearest target
// instead of the best: one time in this many.
const teachingNearestOdds = 3

// firstInOrder are the options worth doing of the first actor, in the order the
// scenario lists the pieces, that has any, with the end; nil when no actor has one.
func (p *Player) firstInOrder(v *view, opts []option) []option {
	order := map[string]int{}
	for i, pc := range v.pieces {
		for _, id := range []string{pc.id, v.owner(pc), v.actorOf(pc)} {
			if _, ok := order[id]; !ok && id != "" {
				order[id] = i
			}
		}
	}
	first, at := "", len(v.pieces)+1
	for _, o := range opts {
		i, ok := order[o.actor]
		if !ok {
			i = len(v.pieces)
		}
		if o.kind != "end" && o.value > 0 && i < at {
			first, at = o.actor, i
		}
	}
	if at > len(v.pieces) {
		return nil
	}
	var its []option
	for _, o := range opts {
		if (o.actor == first && o.kind != "end" && o.value > 0) || o.kind == "end" {
			its = append(its, o)
		}
	}
	return its
}

// nearestShot is, among the fire options of shot's actor, the one whose first target
// is nearest to it (shot itself on a tie, or where nothing can be measured).
func (v *view) nearestShot(shot option, opts []option) option {
	from, ok := v.centre(shot.actor)
	if !ok {
		return shot
	}
	best, dist := shot, math.Inf(1)
	if len(shot.targets) > 0 {
		if at, ok := v.centre(shot.targets[0]); ok {
			dist = math.Hypot(at[0]-from[0], at[1]-from[1])
		}
	}
	for _, o := range opts {
		if o.kind != "fire" || o.actor != shot.actor || len(o.targets) == 0 || o.value <= 0 {
			continue
		}
		if at, ok := v.centre(o.targets[0]); ok {
			if d := math.Hypot(at[0]-from[0], at[1]-from[1]); d < dist {
				best, dist = o, d
			}
		}
	}
	return best
}

// centre is the mean place of the pieces still on the table of a unit, squad or actor.
func (v *view) centre(id string) ([2]float64, bool) {
	var sum [2]float64
	n := 0
	for _, pc := range v.pieces {
		if !pc.destroyed && (pc.id == id || v.owner(pc) == id || v.actorOf(pc) == id) {
			sum[0], sum[1] = sum[0]+pc.x, sum[1]+pc.y
			n++
		}
	}
	if n == 0 {
		return sum, false
	}
	return [2]float64{sum[0] / float64(n), sum[1] / float64(n)}, true
}

// focus keeps, while an actor's activation is under way (it has begun this turn and may
// still act), only that actor's options and the end: another's action could end it.
func (p *Player) focus(v *view, opts []option) []option {
	if v.turn == nil {
		return opts
	}
	for _, done := range v.turn.Done {
		var its []option
		for _, o := range opts {
			if o.actor == done && o.value > 0 {
				its = append(its, o)
			}
		}
		if len(its) > 0 {
			for _, o := range opts {
				if o.kind == "end" {
					its = append(its, o)
				}
			}
			return its
		}
	}
	return opts
}

// greedy is the baseline's choice: the first actor in the scenario's order that has a
// shot fires its best; else the first that may move closes on the nearest enemy; else
// the end.
func (p *Player) greedy(v *view, opts []option) option {
	for _, kind := range []string{"answer", "fire", "move"} {
		var best *option
		for i := range opts {
			o := &opts[i]
			if o.kind == kind && (best == nil || o.value > best.value) && (kind != "fire" || o.value > 0) {
				best = o
			}
		}
		if best != nil {
			return *best
		}
	}
	return opts[len(opts)-1]
}

// answer weighs an action the side is offered as it is (Republique's passing fire):
// what it is likely to destroy, by its exact odds.
func (p *Player) answer(ctx context.Context, v *view, a map[string]any) (option, error) {
	o := option{kind: "answer", action: a, why: "declines"}
	act, err := decode(v.b, a)
	if err != nil {
		return o, nil
	}
	if v.turn != nil && v.turn.End != nil && same(a, v.turn.End) {
		o.why = "declines: nothing worth the fire"
		return o, nil
	}
	odds, err := v.b.Odds(ctx, act)
	if err != nil {
		if volley.ErrorCode(err) == volley.EUNAVAILABLE {
			return o, err
		}
		return o, nil
	}
	var parts []string
	for _, t := range odds.Targets {
		v.addWorth(&o.value, 1, t)
		parts = append(parts, fmt.Sprintf("%s: %s to destroy", t.Target, pct(t.PDestroyed)))
	}
	o.why = "answers: " + strings.Join(parts, ", ")
	return o, nil
}

// fireOptions are the best fire plans of every actor of the side that may fire now, each
// tried on a copy of the battle.
func (p *Player) fireOptions(ctx context.Context, v *view) ([]option, int, error) {
	if _, ok := v.b.(advise.Planner); !ok {
		return nil, 0, nil
	}
	k := 3
	if p.Policy.Level == Random {
		k = 5
	}
	advice, err := advise.Advise(ctx, v.b, advise.Query{Side: p.Side}, advise.Objective{Kind: advise.Destroyed}, k, budget)
	if err != nil {
		if volley.ErrorCode(err) == volley.EUNAVAILABLE {
			return nil, 0, err
		}
		return nil, 0, nil // nothing may fire now
	}
	expected, err := advise.Advise(ctx, v.b, advise.Query{Side: p.Side}, advise.Objective{Kind: advise.Expected}, k, budget)
	if err == nil {
		advice = append(advice, expected...)
	}
	if p.Policy.Level == Strong {
		// The plans most likely to destroy each enemy that holds or contests an
		// objective: the advisor ranks plans by enemies destroyed, not by what they
		// hold, and the plan at the one Hunter on the crossroads may not be among the
		// best by count.
		//
		// And where the battle's fire can pin an enemy down (planner_pin.go), the plans
		// most likely to destroy each enemy, which put the most fire on it: the plan
		// that pins the Support team down is not among the best by count or kills.
		_, pinner := v.b.(advise.Pinner)
		pinner = pinner && v.enemyAfter
		for _, u := range v.state.Units {
			if u.Side == p.Side || u.Destroyed {
				continue
			}
			if gain, _ := v.unheld(p.Side, u.ID); gain <= 0 && !pinner {
				continue
			}
			at, err := advise.Advise(ctx, v.b, advise.Query{Side: p.Side}, advise.Objective{Kind: advise.Destroy, Unit: u.ID}, k, budget)
			if volley.ErrorCode(err) == volley.EUNAVAILABLE {
				return nil, 0, err // out of time: the turn stops here, as above
			}
			if err == nil {
				advice = append(advice, at...)
			}
		}
	}
	var opts []option
	weighed := 0
	seen := map[string]bool{}
	for _, a := range advice {
		if p.fired[a.Actor] {
			continue
		}
		weighed += int(min(a.Total, 1<<30))
		for _, pl := range a.Plans {
			// A plan of several steps (a War Engine unit's group, then each weapon's
			// square) is taken a step at a time: the first that changes anything.
			steps := pl.Steps
			if pl.Action != nil {
				steps = []map[string]any{pl.Action}
			}
			var act map[string]any
			var rest []map[string]any
			for i, st := range steps {
				if v.legal(ctx, st) {
					act, rest = st, steps[i+1:]
					break
				}
			}
			if act == nil {
				continue
			}
			key, _ := json.Marshal(act)
			if p.Policy.Level == Strong {
				// Plans that begin alike (a War Engine unit choosing its group, then
				// declaring) are told apart by their whole: the strong level weighs each,
				// and takes the rest of the one it chooses.
				key, _ = json.Marshal(append([]map[string]any{act}, rest...))
			}
			if seen[string(key)] {
				continue
			}
			seen[string(key)] = true
			o := option{kind: "fire", actor: a.Actor, action: act, rest: rest}
			var parts []string
			for _, t := range pl.Targets {
				o.targets = append(o.targets, t.Target)
				progress := 0.0
				if n := len(t.Dist) - 1; n > 0 {
					progress = t.Mean / float64(n)
				}
				o.value += v.points[t.Target] * (t.PDestroyed + 0.2*progress)
				held := ""
				if p.Policy.Level == Strong && t.PDestroyed > 0 {
					// A unit destroyed holds nothing (planner_held.go): what its
					// objectives come to without it counts with its points.
					gain, names := v.unheld(p.Side, t.Target)
					o.value += t.PDestroyed * gain
					if gain > 0 {
						held = ", within " + names
					}
				}
				if t.PDestroyed >= 0.005 {
					o.destroys = true
					parts = append(parts, fmt.Sprintf("%s to destroy %s%s", pct(t.PDestroyed), t.Target, held))
				} else {
					parts = append(parts, fmt.Sprintf("%s %s expected on %s", num(t.Mean), a.Measure, t.Target))
				}
			}
			if len(parts) == 0 {
				continue
			}
			if p.Policy.Level == Strong {
				// The advisor scores a plan by the enemies it hurts; the friends its shots
				// may strike (a blast's square beside them, a miss that strays onto them)
				// are in each square's odds only. Strong counts them against the plan, as
				// the fire of a declared target counts them (offeredFire).
				loss, words := v.friendsHit(ctx, p.Side, steps)
				o.value -= loss
				parts = append(parts, words...)
				// An enemy pinned down does not shoot again (planner_pin.go).
				pinned, words := p.pins(ctx, v, steps)
				o.value += pinned
				parts = append(parts, words...)
			}
			o.why = fmt.Sprintf("%s fires: %s (the best of %s plans)", a.Actor, strings.Join(parts, "; "), count(a.Total))
			if a.Total == 1 {
				o.why = fmt.Sprintf("%s fires: %s (its one plan)", a.Actor, strings.Join(parts, "; "))
			}
			opts = append(opts, o)
		}
	}
	return opts, weighed, nil
}

// offeredFire weighs what the battle offers the side to fire that the advisor does not
// plan: the War Engine's fire, in its fire phase, at the targets declared before. Each
// offer whose choices are all among listed values (no square, path or unit to find) is
// tried with each choice, on a copy of the battle, and valued by its exact odds; an
// action with no odds (a clearing of a target) is not fire, and is left alone.
func (p *Player) offeredFire(ctx context.Context, v *view) []option {
	of, ok := v.b.(volley.Offerer)
	if !ok {
		return nil
	}
	var opts []option
	for _, o := range of.Offers().Offers {
		if o.Side != p.Side || o.Key == "" || sharedKind(o.Type) {
			continue
		}
		for _, a := range o.Actors {
			for _, body := range choices(o, a) {
				if !v.legal(ctx, body) {
					continue
				}
				act, err := decode(v.b, body)
				if err != nil {
					continue
				}
				odds, err := v.b.Odds(ctx, act)
				if err != nil {
					if volley.ErrorCode(err) == volley.EUNAVAILABLE {
						return opts
					}
					continue
				}
				opt := option{kind: "fire", actor: a.ID + " " + fmt.Sprint(body), action: body}
				var parts []string
				for _, t := range odds.Targets {
					opt.targets = append(opt.targets, t.Target)
					// A friend caught by the fire (a blast, a shot that strays) counts
					// against it.
					sign := 1.0
					if v.sideOf(t.Target) == p.Side {
						sign = -1
					}
					v.addWorth(&opt.value, sign, t)
					if t.PDestroyed >= 0.005 {
						parts = append(parts, fmt.Sprintf("%s to destroy %s", pct(t.PDestroyed), t.Target))
					}
				}
				if opt.value <= 0 {
					continue
				}
				opt.why = fmt.Sprintf("%s fires: %s", a.ID, strings.Join(parts, ", "))
				opts = append(opts, opt)
			}
		}
	}
	return opts
}

// friendsHit is what the steps of a fire plan cost side in its own units, by the exact odds
// of each step the battle gives odds for (a War Engine declaration, a fire order): each
// friend it may strike counted as offeredFire counts it, its points times its chance of
// being destroyed, and a twentieth of its points for each hit it is expected to lose; with
// the words that name each friend the plan may destroy.
func (v *view) friendsHit(ctx context.Context, side string, steps []map[string]any) (float64, []string) {
	loss := 0.0
	var words []string
	for t := range v.stepTargets(ctx, steps) {
		if v.sideOf(t.Target) != side {
			continue
		}
		v.addWorth(&loss, 1, t)
		if t.PDestroyed >= 0.005 {
			words = append(words, fmt.Sprintf("%s to destroy %s, a friend", pct(t.PDestroyed), t.Target))
		}
	}
	return loss, words
}

// stepTargets yields the exact odds of each target of each step of a fire plan, step by
// step, where the battle gives odds for the step (a War Engine declaration, a fire order);
// a step that cannot be read or has no odds yields nothing.
func (v *view) stepTargets(ctx context.Context, steps []map[string]any) iter.Seq[volley.TargetOdds] {
	return func(yield func(volley.TargetOdds) bool) {
		for _, st := range steps {
			act, err := decode(v.b, st)
			if err != nil {
				continue
			}
			odds, err := v.b.Odds(ctx, act)
			if err != nil {
				continue
			}
			for _, t := range odds.Targets {
				if !yield(t) {
					return
				}
			}
		}
	}
}

// hitWorth is the share of a unit's points that one hit it is expected to lose counts
// for, short of destroying it: a twentieth.
const hitWorth = 0.05

// addWorth adds to acc, by sign (1 for an enemy, -1 for a friend), what fire does to the
// target of t: its points times its chance of being destroyed, and hitWorth of its points
// for each hit it is expected to lose (the same arithmetic, in the same order, for every
// answer, fire and plan weighed).
func (v *view) addWorth(acc *float64, sign float64, t volley.TargetOdds) {
	*acc += sign * v.points[t.Target] * t.PDestroyed
	for _, m := range t.Mean {
		*acc += sign * hitWorth * v.points[t.Target] * m
	}
}

// sideOf is the side of a unit of the state, "" for anything else (a square).
func (v *view) sideOf(id string) string {
	for _, u := range v.state.Units {
		if u.ID == id {
			return u.Side
		}
	}
	return ""
}

// sharedKind is an action every battle has, which is not fire: a move, a deployment, the
// end of a phase, turn or deployment, a take-back, an offer to end.
func sharedKind(kind string) bool {
	switch kind {
	case "move", "deploy", "take_back", "offer_end":
		return true
	}
	return strings.HasPrefix(kind, "end_")
}

// maxChoices bounds the bodies an offer's choices make for one actor.
const maxChoices = 16

// choices are the bodies of offer o for actor a, one for each combination of the values
// its fields list (the actor's fields in place of the offer's of the same key); none
// when a field that must be sent lists no values (a square or a path to find).
func choices(o volley.Offer, a volley.Actor) []map[string]any {
	fields := map[string]volley.Field{}
	var keys []string
	for _, f := range append(slices.Clone(o.Fields), a.Fields...) {
		if _, ok := fields[f.Key]; !ok {
			keys = append(keys, f.Key)
		}
		fields[f.Key] = f
	}
	bodies := []map[string]any{{}}
	for k, v := range o.Action {
		bodies[0][k] = v
	}
	for k, v := range a.Action {
		bodies[0][k] = v
	}
	for _, k := range keys {
		f := fields[k]
		if f.Optional {
			continue
		}
		if f.Kind != volley.FieldSelect || len(f.Options) == 0 {
			return nil
		}
		var next []map[string]any
		for _, b := range bodies {
			for _, opt := range f.Options {
				c := maps.Clone(b)
				c[k] = opt.Value
				next = append(next, c)
			}
		}
		if len(next) > maxChoices {
			next = next[:maxChoices]
		}
		bodies = next
	}
	return bodies
}

// minGain is the least a move must gain, in points, to be worth making: less is the
// rounding of a map's points, or a step to and fro.
const minGain = 0.02

// closingWeight is what a unit of length nearer the nearest enemy adds to a place's rank:
// small, so that closing breaks ties and draws a unit with nothing to shoot at on.
const closingWeight = 0.01

// reachWeight is what a unit of length walked takes off a place's rank: of two places
// alike, the nearer.
const reachWeight = 0.0001

// teachingDanger is the share of the danger its style weighs that the teaching level
// counts: it under-counts what the enemy could do to it.
const teachingDanger = 0.5

// The teaching level's slips among its three best choices, in hundredths: it takes the
// third this often, and the second this often.
const (
	teachingThird  = 25
	teachingSecond = 35
)

// teachingReach is the part of the way it may still move that the teaching level moves
// at most: it advances a cautious step where it could have gone the whole way.
const teachingReach = 0.5

// teachingPlaces is how many of a unit's best places the teaching level weighs (the
// strong level four).
const teachingPlaces = 2

// budget bounds each advisor search the player makes.
var budget = advise.Budget{Nodes: 2_000_000}

// moveOptions are the best places each unit of the side that may move now could go,
// from its position map, each tried on a copy of the battle.
func (p *Player) moveOptions(ctx context.Context, v *view) ([]option, int, error) {
	ps, ok := v.b.(advise.Positioner)
	if !ok {
		return nil, 0, nil
	}
	var opts []option
	weighed := 0
	done := map[string]bool{}
	for _, pc := range v.pieces {
		if pc.side != p.Side || pc.destroyed || pc.move == nil || pc.move.Why != "" || !(pc.move.Left > 0) {
			continue
		}
		unit := v.owner(pc)
		if unit == "" || done[unit] {
			continue
		}
		done[unit] = true
		q := advise.PositionQuery{Unit: unit, Objective: advise.Objective{Kind: advise.Destroyed}, Danger: advise.Destroyed, Step: p.Step, Top: 4}
		if p.Policy.Level == Teaching {
			q.Top = teachingPlaces // a shorter look
		}
		if _, err := ps.PositionWork(q); err != nil {
			continue // the rules say it may not move now
		}
		rank := p.rank(v, unit)
		rank, staged := p.staging(v, pc, unit, rank) // an objective kept within reach by the end (planner_staging.go)
		if p.Policy.Level == Teaching {
			// It moves less far than it could: no place beyond part of its move.
			full, limit := rank, teachingReach*pc.move.Left
			rank = func(pt advise.PositionPoint) float64 {
				if pt.Reach > limit+1e-6 {
					return math.Inf(-1)
				}
				return full(pt)
			}
		}
		q.Rank = rank
		key := fmt.Sprintf("%s %g %g %g %d %s%s%s", unit, pc.x, pc.y, pc.move.Left, v.destroyed(), p.phase, p.objectivesKey(v, pc, unit), p.firedKey(v, pc, unit))
		m := p.maps[key]
		if m == nil {
			var err error
			if m, err = ps.Position(advise.WithCores(ctx, 1), q); err != nil {
				if volley.ErrorCode(err) == volley.EUNAVAILABLE {
					return nil, 0, err
				}
				continue
			}
			if p.maps == nil || len(p.maps) > 64 {
				p.maps = map[string]*advise.PositionMap{}
			}
			p.maps[key] = m
		}
		weighed += m.Reachable
		from := nearest(m, m.From)
		here := rank(from)
		offenceHere := 0.0
		if !math.IsNaN(from.Offence) {
			offenceHere = from.Offence * v.meanPoints(p.Side) // as rank counts it
		}
		armed := false
		for _, off := range m.OffenceValues {
			armed = armed || off > 0
		}
		for _, pt := range m.Top {
			body := pt.Move
			if body == nil && len(pt.Moves) > 0 {
				body = pt.Moves[0]
			}
			if body == nil {
				continue // where it stands
			}
			gain := rank(pt) - here
			held := v.objectiveAt(pt.X, pt.Y)
			if p.Policy.Level == Strong {
				// Its models hold an objective, not its centre (planner_held.go).
				gain, held = p.heldByModels(ctx, v, unit, m, pt, gain, staged)
			}
			if p.Policy.Level == Random {
				gain = 1
			} else if gain < minGain && !p.shortStep(v, pc, pt, m, armed, gain) {
				continue // not worth the move
			} else if p.Policy.Level == Strong && armed && p.closing(v, pt, m) >= gain-minGain {
				// A unit that has something to shoot at from its reach does not step
				// towards the enemy for nothing: closing breaks ties, it is no reason to
				// move, and a step nearer is a step into the enemy's reach in its turn.
				continue
			}
			if !v.legal(ctx, body) {
				continue
			}
			o := option{kind: "move", actor: v.actorOf(pc), action: body, value: gain,
				shotThere: pt.Offence > 0, offenceHere: offenceHere}
			o.why = fmt.Sprintf("%s to (%s, %s), %s away: %s expected destroyed from there, %s chance of being destroyed there", unit, num(pt.X), num(pt.Y),
				length(pt.Reach, m.Length), num(pt.Offence), pct(pt.Danger))
			if held != "" {
				o.why += "; holds " + held
			}
			o.why += p.stagingWhy(v, pc, pt.X, pt.Y)
			if !v.enemyAfter {
				o.why += "; no enemy acts after it before the end"
			}
			opts = append(opts, o)
		}
	}
	return opts, weighed, nil
}

// objectivesKey is what unit's rank reads of the other units' places, for the key of its
// map (Player.maps): at the levels that weigh objectives, each objective's holders of
// either side (objectiveValue), and, where the level stages (stages), what keeping each
// within reach is worth (staging, from the friends that cover it). A map read before a
// friend moved onto an objective, or within reach of one, chose its best places for the
// old table; "" for the levels whose rank reads no objective.
func (p *Player) objectivesKey(v *view, pc piece, unit string) string {
	if p.Policy.Level == Random || p.Policy.Level == Greedy {
		return ""
	}
	var b strings.Builder
	for i := range v.result.Objectives {
		ours, theirs := v.holders(i, p.Side, unit)
		fmt.Fprintf(&b, " %d:%d", ours, theirs)
	}
	if p.stages(v, unit) {
		fmt.Fprintf(&b, " %v", p.stage(v, pc, unit).gain)
	}
	return b.String()
}

// firedKey is what unit's map reads of the fire taken since the turn began, for the key
// of its map (Player.maps): whether its own squad or unit has fired (a Dropzone squad
// shoots once an activation, and its members' places have no shot after it, though a
// Scout Walker, whose weapon's M&F is its whole move, has as far left to go as before),
// and the condition of each enemy unit and of its own, as the battle states them (the
// damage a shot did short of destroying: what a shot from each place may finish, and
// what the enemy's fire may do to it). A map read before a fire that destroyed nothing
// counted a shot already taken, or a target as whole as it was.
func (p *Player) firedKey(v *view, pc piece, unit string) string {
	var b strings.Builder
	if p.fired[v.actorOf(pc)] {
		b.WriteString(" fired")
	}
	for _, u := range v.state.Units {
		if u.Side == p.Side && u.ID != unit {
			continue // a friend's condition is not its map's (its place is not either)
		}
		raw, _ := json.Marshal(struct {
			Values    map[string]float64
			Destroyed bool
			Targets   []volley.DeclaredTarget
		}{u.Values, u.Destroyed, u.Targets})
		fmt.Fprintf(&b, " %s%s", u.ID, raw)
	}
	return b.String()
}

// closing is the part of a move's gain that is only the tie-break of rank: the way
// nearer the enemy (and the shorter way there).
func (p *Player) closing(v *view, pt advise.PositionPoint, m *advise.PositionMap) float64 {
	enemy := v.nearestEnemy(p.Side)
	return closingWeight*(enemy(m.From[0], m.From[1])-enemy(pt.X, pt.Y)) - reachWeight*pt.Reach
}

// shortStep reports whether a move worth less than minGain is the teaching level's step
// towards the enemy by a unit whose cautious step is too short for closing to count: a
// unit with nothing to shoot at from anywhere in its reach walks on, as a player does
// when nothing is in range. Closing breaks ties at a hundredth a unit of length, and the
// teaching level steps at most half its move (teachingReach): a unit whose whole move
// (its allowance, in the map's unit: inches, squares or cm) is 4 or under could never
// close by minGain's worth. Warfare's foot, moving 3″, stood all battle while the enemy took the
// objectives. The most a step gains by closing is its length times closingWeight less
// reachWeight (the way walked counts against it too): a unit whose half move gains
// minGain that way (a move over 4.04) is left to minGain, as at every level. One that
// moves exactly 4 (the War Engine's grenadier, Warfare's bidowers) closes by 0.02 less
// 0.0002 at best, and stood until session 48 counted the reach's tie-break here.
func (p *Player) shortStep(v *view, pc piece, pt advise.PositionPoint, m *advise.PositionMap, armed bool, gain float64) bool {
	if p.Policy.Level != Teaching || armed || gain <= 0 {
		return false
	}
	// Once a turn: each move may go half of what is left, and steps after the first
	// would take the unit nearly its whole move (1.5″, then 0.75″… of 3″).
	if pc.move.Moved > 0 || teachingReach*pc.move.Allowance*(closingWeight-reachWeight) >= minGain {
		return false
	}
	return p.closing(v, pt, m) > 0
}

// rank scores a point of a unit's position map as the level weighs it.
func (p *Player) rank(v *view, unit string) func(advise.PositionPoint) float64 {
	enemy := v.nearestEnemy(p.Side)
	switch p.Policy.Level {
	case Random:
		// A point drawn from the map: ranked by a hash of its place, a fixed shuffle.
		return func(pt advise.PositionPoint) float64 {
			h := math.Float64bits(pt.X*7919+pt.Y*104729) * 0x9E3779B97F4A7C15
			return float64(h>>11) / (1 << 53)
		}
	case Greedy:
		return func(pt advise.PositionPoint) float64 { return -enemy(pt.X, pt.Y) }
	}
	w := p.Policy.dangerWeight()
	if p.Policy.Level == Teaching {
		w *= teachingDanger
	}
	// A unit lost is its points to the enemy, and what it would have done after: counted
	// as a point more.
	worth := v.points[unit] + 1
	if p.Policy.Level == Strong && v.lastTurn {
		// The last round has no after (planner_end.go): a unit lost costs its points,
		// and only an enemy that still acts before the end can take it.
		worth = v.points[unit]
		if !v.enemyAfter {
			w = 0
		}
	}
	// The map's offence counts enemies destroyed, whichever they are; in points, each
	// counts what an enemy on the table is worth on average.
	foe := v.meanPoints(p.Side)
	// The teaching level thinks of the objectives in the last round, and before it where
	// it stages (planner_staging.go): from the round in which it must set off, at its
	// pace, to reach one by the end. A unit of several models, which does not stage,
	// thinks of them only in the last round.
	objectives := p.Policy.Level != Teaching || v.lastTurn || p.stages(v, unit)
	return func(pt advise.PositionPoint) float64 {
		off, dg := pt.Offence, pt.Danger
		if math.IsNaN(off) {
			off = 0
		}
		off *= foe
		if math.IsNaN(dg) {
			dg = 0
		}
		s := off - w*worth*dg
		if objectives {
			s += v.objectiveValue(p.Side, unit, pt.X, pt.Y)
		}
		// Closing on the enemy breaks ties, and draws a unit that has nothing to shoot
		// at towards one.
		return s - closingWeight*enemy(pt.X, pt.Y) - reachWeight*pt.Reach
	}
}

// meanPoints is what destroying an enemy of side's still on the table scores, on
// average (1 where none is left).
func (v *view) meanPoints(side string) float64 {
	sum, n := 0.0, 0
	for _, u := range v.state.Units {
		if u.Side != side && !u.Destroyed {
			sum += v.points[u.ID]
			n++
		}
	}
	if n == 0 {
		return 1
	}
	return sum / float64(n)
}

// destroyed counts the units destroyed.
func (v *view) destroyed() int {
	n := 0
	for _, u := range v.state.Units {
		if u.Destroyed {
			n++
		}
	}
	return n
}

// objectiveValue is what unit standing at a point does to the objectives' count at the
// end, for its side against the others: an objective is held by the side with the most
// units within it, nobody's on a tie (volley.End). Each objective counts its points when
// the side holds it, nothing when nobody does, and its points against when an enemy
// does, since the winner is the side with more: contesting one the enemy holds is worth
// its points (denied), tipping it to the side's hold twice as much, joining friends who
// hold it already nothing, and leaving one that only this unit holds costs. The rest of the
// battle stands as it is. The sum counts in full in the last round and less the more
// rounds are left (a half one round before, a third two before…), since only where the
// units stand at the end scores.
func (v *view) objectiveValue(side, unit string, x, y float64) float64 {
	w := 1.0
	if v.end != nil && v.end.Turns > 0 && v.turn != nil {
		w = 1 / float64(1+max(0, v.end.Turns-v.turn.Number))
	}
	s := 0.0
	for i, o := range v.result.Objectives {
		ours, theirs := v.holders(i, side, unit)
		if v.within(o, x, y) {
			ours++
		}
		switch {
		case ours > theirs:
			s += w * o.Points
		case theirs > ours:
			s -= w * o.Points
		}
	}
	return s
}

// holders counts the units within objective i, of side and of the other sides, leaving
// out unit (the one whose place is weighed). A unit of several pieces is within when one
// of them is, as volley.End counts it.
func (v *view) holders(i int, side, unit string) (ours, theirs int) {
	o := v.result.Objectives[i]
	in := map[string]string{}
	for _, pc := range v.pieces {
		owner := v.owner(pc)
		if pc.destroyed || owner == unit || owner == "" || !v.within(o, pc.x, pc.y) {
			continue
		}
		in[owner] = pc.side
	}
	return sides(in, side)
}

// sides counts the units of in (a unit's side by its id) that are of side, and those
// that are not.
func sides(in map[string]string, side string) (ours, theirs int) {
	for _, s := range in {
		if s == side {
			ours++
		} else {
			theirs++
		}
	}
	return ours, theirs
}

// objectiveAt names the objectives a point is within.
func (v *view) objectiveAt(x, y float64) string {
	var names []string
	for _, o := range v.result.Objectives {
		if v.within(o, x, y) {
			names = append(names, o.Name)
		}
	}
	return strings.Join(names, " and ")
}

// within reports whether a point is within an objective as volley.End measures it: the
// distance between centres on a table, the larger of the columns' and rows' on a grid.
func (v *view) within(o volley.HeldObjective, x, y float64) bool {
	if v.grid {
		return max(math.Abs(x-o.X), math.Abs(y-o.Y)) <= o.Radius
	}
	return math.Hypot(x-o.X, y-o.Y) <= o.Radius
}

// nearestEnemy measures from a point to the nearest enemy piece still on the table.
func (v *view) nearestEnemy(side string) func(x, y float64) float64 {
	var foes []piece
	for _, pc := range v.pieces {
		if pc.side != side && !pc.destroyed {
			foes = append(foes, pc)
		}
	}
	return func(x, y float64) float64 {
		best := math.Inf(1)
		for _, f := range foes {
			best = min(best, math.Hypot(f.x-x, f.y-y))
		}
		if math.IsInf(best, 1) {
			return 0
		}
		return best
	}
}

// nearest is the map's point nearest at: where the unit stands, which every map holds.
func nearest(m *advise.PositionMap, at [2]float64) advise.PositionPoint {
	best, dist := advise.PositionPoint{X: at[0], Y: at[1]}, math.Inf(1)
	for i, r := range m.Reach {
		if math.IsNaN(r) {
			continue
		}
		pt := m.Point(i)
		if d := math.Hypot(pt.X-at[0], pt.Y-at[1]); d < dist {
			best, dist = pt, d
		}
	}
	return best
}

// decode decodes an action against a battle, as the server would a player's.
func decode(b volley.Battle, a map[string]any) (volley.Action, error) {
	raw, err := json.Marshal(a)
	if err != nil {
		return nil, err
	}
	doc, err := scenario.Parse("action", raw)
	if err != nil {
		return nil, err
	}
	doc.Refereed = true
	return b.DecodeAction(doc)
}

// legal reports whether the rules take an action now, and whether it changes anything:
// it is decoded and resolved on a copy of the battle, with dice of no consequence, and
// the copy compared with the battle. An action that changes nothing (a weapon group
// chosen again) is worth nothing, and would be taken again and again; one that brings
// back a battle seen this phase goes round in a circle.
func (v *view) legal(ctx context.Context, a map[string]any) bool {
	b := v.b
	f, ok := b.(volley.Forker)
	if !ok {
		return true
	}
	act, err := decode(b, a)
	if err != nil {
		return false
	}
	c := f.Fork()
	before := snapshot(c)
	if _, err = c.Resolve(ctx, act, dice.NewUnrecorded(1)); err != nil {
		return false
	}
	after := snapshot(c)
	return after != before && !v.seen[after]
}

// onCopy plays bodies in order on a copy of the battle, with dice no one sees, and returns
// the copy: false where the battle cannot be copied or an action is refused. It is how the
// strong level reads what an action would leave (a move's hold, whether a shot ends a
// move or can still be taken after one).
func (v *view) onCopy(ctx context.Context, bodies ...map[string]any) (volley.Battle, bool) {
	f, ok := v.b.(volley.Forker)
	if !ok {
		return nil, false
	}
	c := f.Fork()
	for _, body := range bodies {
		act, err := decode(c, body)
		if err != nil {
			return nil, false
		}
		if _, err := c.Resolve(ctx, act, dice.NewUnrecorded(1)); err != nil {
			return nil, false
		}
	}
	return c, true
}

// snapshot is what a player sees of a battle, to tell whether an action changed it: its
// state and where everything stands.
func snapshot(b volley.Battle) string {
	parts := []any{b.State()}
	if bd, ok := b.(volley.Board); ok {
		parts = append(parts, bd.Board())
	} else if t, ok := b.(volley.Table); ok {
		parts = append(parts, t.Table().Units)
	}
	raw, _ := json.Marshal(parts)
	return string(raw)
}

// same reports whether two actions are the same body.
func same(a, b map[string]any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func pct(p float64) string {
	if math.IsNaN(p) {
		return "0%"
	}
	return fmt.Sprintf("%.0f%%", 100*p)
}

func num(x float64) string {
	if math.IsNaN(x) {
		return "0"
	}
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", x), "0"), ".")
}

// length writes a distance in a position map's unit: 4.5″, 12 cm, 3 squares.
func length(d float64, unit string) string {
	switch unit {
	case "in", "":
		return num(d) + "″"
	case "square":
		if d == 1 {
			return "1 square"
		}
		return num(d) + " squares"
	}
	return num(d) + " " + unit
}

func count(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
