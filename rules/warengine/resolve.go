package warengine

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rules"
)

// Resolve carries out an order. Move, deploy, declare, clear, group and end_phase change
// the battle's state without dice; fire rolls the shot and its damage. A refused order changes
// nothing: every check and every die comes before the first change.
func (b *Battle) Resolve(ctx context.Context, a volley.Action, d *dice.Stream) (volley.Outcome, error) {
	if err := ctx.Err(); err != nil {
		return volley.Outcome{}, err
	}
	o := order(a)
	if err := b.refuse(o); err != nil {
		return volley.Outcome{}, err
	}
	r := &record{}
	var err error
	switch o.Type {
	case EndPhase:
		b.endPhase(r)
	case Group:
		b.changeGroup(o, r)
	case Clear:
		u, _ := b.Unit(o.Unit)
		u.clearDeclared(o.Weapon)
		r.step("clear", map[string]any{"unit": o.Unit, "weapon": o.Weapon}, "target cleared")
	case Declare:
		err = b.declare(o, r)
	case Fire:
		err = b.fire(o, d, r)
	case Move:
		err = b.resolveMove(o, r)
	case Deploy:
		err = b.resolveDeploy(o, r)
	case EndDeployment:
		var steps []volley.Step
		if steps, err = b.table.EndDeployment(); err != nil {
			err = fmt.Errorf("warengine: %w", err)
		}
		r.steps = append(r.steps, steps...)
	}
	if err != nil {
		return volley.Outcome{}, err
	}
	if o.Type != Deploy && o.Type != EndDeployment {
		b.table.Deploying = false // before edition 5 the battle's first other action ends its deployment
	}
	return volley.Outcome{Rolls: d.Rolls(), Trace: r.steps, Targets: r.targets, Landed: r.landed}, nil
}

// record gathers a resolution's trace and results.
type record struct {
	steps   []volley.Step
	targets []volley.TargetResult
	landed  []geom.Square
}

func (r *record) step(rule string, in map[string]any, result any) {
	if r != nil {
		r.steps = append(r.steps, volley.Step{Rule: rule, Inputs: in, Result: result})
	}
}

func (b *Battle) changeGroup(o *Order, r *record) {
	u, _ := b.Unit(o.Unit)
	kept := u.Declared[:0:0]
	for _, d := range u.Declared {
		if u.loadout(d.Weapon).Group == o.Group {
			kept = append(kept, d)
		}
	}
	dropped := len(u.Declared) - len(kept)
	u.Declared, u.Group = kept, o.Group
	r.step("change group", map[string]any{"unit": u.ID, "group": o.Group}, fmt.Sprintf("group %d; %d target(s) of other groups cleared", o.Group, dropped))
}

// aimAt applies the targeting rules to the square a weapon is aimed at and returns the
// square it will fire at: never the firer's own square, a friendly unit only when the
// declaration says so, and outside the weapon's envelope the nearest square inside it.
// The error is a plain sentence; callers add where it came from.
func (b *Battle) aimAt(u *Unit, l *Loadout, target geom.Square, friendly bool) (geom.Square, error) {
	if u.covers(target) {
		return target, fmt.Errorf("%s cannot target its own square %s", u.ID, squareName(target))
	}
	if v := b.unitAt(target); v != nil && v.Side == u.Side && !friendly {
		return target, fmt.Errorf("%s holds friendly %s: declare with friendly: true to target it (the game's shift-click)", squareName(target), v.ID)
	}
	s := b.newShot(u, l, target, friendly)
	c, ok := b.correct(s, target)
	if !ok {
		return target, fmt.Errorf("%s cannot reach any square from %s (arc %d°, range %d)", l.Name(), squareName(s.from), s.w.Arc, s.w.MaxRange)
	}
	// From edition 3 the correction is decided when the target is declared, so that a
	// declared target always fires: one that lands on a friend without friendly is
	// refused now, not when the fire order finds the friend there.
	if v := b.unitAt(c); b.edition >= Edition3 && c != target && v != nil && v.Side == u.Side && !friendly {
		return target, fmt.Errorf("%s is outside %s's range or arc, and the nearest square inside, %s, holds friendly %s: declare with friendly: true to fire there, or another target (the option correct_around_friends: true corrects to the nearest square without a friend)", squareName(target), l.Name(), squareName(c), v.ID)
	}
	return c, nil
}

// checkTarget is aimAt for an order, with the trace step that says where the target went.
func (b *Battle) checkTarget(o *Order, u *Unit, l *Loadout, target geom.Square, friendly bool, r *record) (geom.Square, error) {
	c, err := b.aimAt(u, l, target, friendly)
	if err != nil {
		return target, volley.Errorf(volley.EINVALID, "warengine: %v", err)
	}
	result := "target " + squareName(c)
	if c != target {
		result = fmt.Sprintf("outside the weapon's range or arc: corrected to %s, the nearest square inside", squareName(c))
	}
	r.step("declare", map[string]any{"unit": u.ID, "weapon": o.Weapon, "target": squareName(target), "friendly": friendly}, result)
	return c, nil
}

func (b *Battle) declare(o *Order, r *record) error {
	u, _ := b.Unit(o.Unit)
	l := u.loadout(o.Weapon)
	c, err := b.checkTarget(o, u, l, *o.Target, o.Friendly, r)
	if err != nil {
		return err
	}
	if u.Group == 0 {
		u.Group = l.Group
	}
	u.setDeclared(Declaration{Weapon: o.Weapon, Target: c, Friendly: o.Friendly})
	return nil
}

// fire rolls a shot: where it lands, then the damage to everything it strikes.
func (b *Battle) fire(o *Order, d *dice.Stream, r *record) error {
	u, _ := b.Unit(o.Unit)
	l := u.loadout(o.Weapon)
	decl := u.declared(o.Weapon)
	if b.moves {
		// The fact of movement the shot reads, measured from Phase I (or stated).
		r.step("aiming (Phase I)", aimingInputs(o, u), b.aimingWords(o, u))
	}
	if decl.Corrected != "" && b.edition >= 2 {
		r.step("declared target", map[string]any{"unit": u.ID, "weapon": o.Weapon}, decl.Corrected)
	}
	// The declared target is checked again: the battle may have changed since.
	target, err := b.aimAt(u, l, decl.Target, decl.Friendly)
	if err != nil {
		return volley.Errorf(volley.EINVALID, "warengine: %v", err)
	}
	s := b.orderShot(o, u, l, target, decl.Friendly)
	landed := b.rollLanding(s, d, r)
	hits := b.rollDamage(s, landed, d, r)
	// Only now does the battle change.
	u.clearDeclared(o.Weapon)
	b.apply(hits, r)
	return nil
}

// rollLanding rolls every pick and follows the line of fire. r may be nil (simulation).
func (b *Battle) rollLanding(s *shot, d *dice.Stream, r *record) geom.Square {
	start := s.target
	var first *pickPlan
	label := ""
	if r != nil {
		label = s.unit.ID + " " + s.load.Name()
	}
	for n := range s.picks {
		plan := b.planPick(s, start, n, first)
		if n == 0 {
			first = plan
		}
		if r != nil {
			in := map[string]any{"pick": n + 1, "from": squareName(s.from), "to": squareName(start)}
			mods := plan.mods
			if mods == nil {
				_, mods = b.chanceToHit(s, start, true)
			}
			for _, m := range mods {
				in[m.Rule] = m.Value
			}
			r.step("chance to hit", in, plan.cth)
			r.step("max distance missed by", map[string]any{"pick": n + 1, "distance": s.from.Chebyshev(start)},
				fmt.Sprintf("%d: a %d×%d area (%s on the map)", plan.r, 2*plan.r+1, 2*plan.r+1, squares(plan.nArea)))
		}
		// A certain result is not rolled: a need of 0 always fails, of 100 always passes.
		needed, roll := need(plan.cth), 0
		pass := needed == D100
		if needed > 0 && needed < D100 {
			roll = d.Roll(D100, b.percentile(d, needed, "ChanceToHit, %s, pick %d", label, n+1))
			pass = roll <= needed
		}
		start = b.rollPick(plan, pass, d, r, label, n+1, roll, needed)
	}
	landed, why := b.intercept(s, start)
	if r != nil {
		result := "lands on " + squareName(landed)
		if why != "" {
			result = fmt.Sprintf("%s: lands on %s", why, squareName(landed))
		}
		r.step("line of fire", map[string]any{"from": squareName(s.from), "to": squareName(start), "ignores_terrain": s.w.IgnoresTerrain}, result)
		r.landed = append(r.landed, landed)
	}
	return landed
}

// rollPick picks the square of one pick after its d100.
// percentile words a percentile die's purpose: what it decides and, from NeedsEdition,
// the roll it needs (needed or less passes).
func (b *Battle) percentile(d *dice.Stream, needed int, format string, args ...any) string {
	what := rules.Purpose(d, format, args...)
	if what == "" || b.edition < NeedsEdition {
		return what
	}
	return fmt.Sprintf("%s, needs %d or less", what, needed)
}

func (b *Battle) rollPick(p *pickPlan, pass bool, d *dice.Stream, r *record, label string, n, roll, needed int) geom.Square {
	useUnits, useAll, kind := p.candidates(pass)
	total := p.nEmpty
	switch {
	case useUnits:
		total = p.totalW
	case useAll:
		total = p.nArea
	}
	var in map[string]any
	if r != nil {
		in = map[string]any{"pick": n, "need": needed, "candidates": total}
		if roll > 0 {
			in["roll"] = roll
		} else {
			in["roll"] = "none: the result is certain"
		}
		if len(p.unitSq) > 0 {
			// Shown whatever the d100 says: where a passed roll would go.
			var w []string
			for i, q := range p.unitSq {
				w = append(w, fmt.Sprintf("%s %d/%d (%.4g%%)", squareName(q), p.unitW[i], p.totalW, 100*float64(p.unitW[i])/float64(p.totalW)))
			}
			in["unit squares if passed"] = strings.Join(w, "; ")
		}
	}
	k := 1
	if total > 1 {
		k = d.Roll(total, rules.Purpose(d, "pick %s, %s, pick %d", kind, label, n))
		if in != nil {
			in["pick_roll"] = k
		}
	}
	var chosen geom.Square
	if useUnits {
		for i, q := range p.unitSq {
			if k <= p.unitW[i] {
				chosen = q
				break
			}
			k -= p.unitW[i]
		}
	} else {
		p.area(b, func(q geom.Square) {
			if k > 0 && (useAll || b.unitAt(q) == nil) {
				if k--; k == 0 {
					chosen = q
				}
			}
		})
	}
	if r != nil {
		verdict := "fails ChanceToHit: " + kind
		if pass {
			verdict = "passes ChanceToHit: " + kind
		}
		r.step("pick", in, fmt.Sprintf("%s → %s", verdict, squareName(chosen)))
	}
	return chosen
}

// blow is what a resolved shot does to one victim: the hits it loses, or regains from a
// healing weapon, or a stun.
type blow struct {
	unit   *Unit
	square geom.Square
	id     string
	kind   effect
	hits   int
	healed int
}

// rollDamage rolls the damage check, the hits and the save of every victim; or, for a
// healing weapon, the hits each unit struck regains; or, for a stunning one, stuns each.
func (b *Battle) rollDamage(s *shot, landed geom.Square, d *dice.Stream, r *record) []blow {
	units, terrain := b.victims(s, landed)
	if len(units)+len(terrain) == 0 {
		r.step("strike", map[string]any{"square": squareName(landed)}, "nothing there can be damaged")
		return nil
	}
	switch b.effect(s.w) {
	case heals:
		var out []blow
		for _, u := range units {
			out = append(out, blow{unit: u, square: landed, id: u.ID, kind: heals, healed: b.rollHealing(s, u, d, r)})
		}
		return out
	case stuns:
		var out []blow
		for _, u := range units {
			r.step("stun", map[string]any{"target": u.ID, "weapon": s.load.Name(), "strength": 0}, "stunned: may not fire in its side's next fire phase")
			out = append(out, blow{unit: u, square: landed, id: u.ID, kind: stuns})
		}
		return out
	}
	var out []blow
	one := func(u *Unit, q geom.Square) {
		c := b.checkDamage(s, landed, u, q, r != nil)
		if r != nil {
			r.steps = append(r.steps, c.steps...)
		}
		out = append(out, blow{unit: u, square: q, id: c.victim, hits: b.rollHits(s, c, d, r)})
	}
	for _, u := range units {
		one(u, landed)
	}
	for _, q := range terrain {
		one(nil, q)
	}
	return out
}

// rollHits rolls one victim's d100 against the chance to damage, its hits and its save.
// A roll whose result is certain is not made.
func (b *Battle) rollHits(s *shot, c *damageCheck, d *dice.Stream, r *record) int {
	if c.skipped != "" {
		return 0
	}
	needed := need(c.chance)
	switch needed {
	case 0:
		r.step("chance to damage", map[string]any{"target": c.victim, "chance": c.chance}, "no chance: escapes damage")
		return 0
	case D100:
		r.step("chance to damage", map[string]any{"target": c.victim, "chance": c.chance}, "certain: damaged")
	default:
		roll := d.Roll(D100, b.percentile(d, needed, "chance to damage %s", c.victim))
		if roll > needed {
			r.step("chance to damage", map[string]any{"target": c.victim, "chance": c.chance, "roll": roll}, "escapes damage")
			return 0
		}
		r.step("chance to damage", map[string]any{"target": c.victim, "chance": c.chance, "roll": roll}, "damaged")
	}
	w := s.w
	hits := w.Damage[0]
	if n := w.Damage[1] - w.Damage[0] + 1; n > 1 {
		hits = w.Damage[0] - 1 + d.Roll(n, rules.Purpose(d, "hits on %s (%d-%d)", c.victim, w.Damage[0], w.Damage[1]))
	}
	r.step("hits", map[string]any{"target": c.victim, "min": w.Damage[0], "max": w.Damage[1]}, hits)
	switch save := need(float64(c.save)); save {
	case 0:
		r.step("save", map[string]any{"target": c.victim, "save": c.save}, "no save")
		return hits
	case D100:
		r.step("save", map[string]any{"target": c.victim, "save": c.save}, "certain: escapes all damage")
		return 0
	default:
		roll := d.Roll(D100, b.percentile(d, save, "save of %s", c.victim))
		if roll <= save {
			r.step("save", map[string]any{"target": c.victim, "save": c.save, "roll": roll}, "saved: escapes all damage")
			return 0
		}
		r.step("save", map[string]any{"target": c.victim, "save": c.save, "roll": roll}, "failed")
		return hits
	}
}

// rollHealing rolls the hits a unit struck by a healing weapon regains: uniform from the
// weapon's minimum to its maximum, no more than the unit has lost.
func (b *Battle) rollHealing(s *shot, u *Unit, d *dice.Stream, r *record) int {
	w := s.w
	n := w.Damage[0]
	if k := w.Damage[1] - w.Damage[0] + 1; k > 1 {
		n = w.Damage[0] - 1 + d.Roll(k, rules.Purpose(d, "healing of %s (%d-%d)", u.ID, w.Damage[0], w.Damage[1]))
	}
	healed := min(n, u.Type.Hits-u.Hits)
	r.step("healing", map[string]any{"target": u.ID, "min": w.Damage[0], "max": w.Damage[1], "rolled": n, "hits": u.Hits, "max_hits": u.Type.Hits}, healed)
	return healed
}

// apply removes the hits: a unit at 0 hits is destroyed, terrain at 0 hits turns into
// what it becomes. A healing blow gives hits back; a stun makes the unit sit out its
// side's next fire phase.
func (b *Battle) apply(blows []blow, r *record) {
	for _, bl := range blows {
		if u := bl.unit; bl.kind != damages {
			res := volley.TargetResult{Target: bl.id, Measures: map[string]float64{MeasureStruck: 1}}
			if bl.kind == stuns {
				u.StunnedFor = max(u.StunnedFor, 1)
				res.Measures[MeasureStunned] = 1
			} else {
				u.Hits += bl.healed
				res.Measures[MeasureHealed] = float64(bl.healed)
			}
			res.Measures["hits_left"] = float64(u.Hits)
			r.targets = append(r.targets, res)
			continue
		}
		res := volley.TargetResult{Target: bl.id, Measures: map[string]float64{MeasureHits: float64(bl.hits), MeasureStruck: 1}}
		if u := bl.unit; u != nil {
			before := u.Hits
			u.Hits = max(0, u.Hits-bl.hits)
			res.Measures["hits_left"] = float64(u.Hits)
			if u.Destroyed() && before > 0 {
				b.vacate(b.byID[u.ID])
				res.Destroyed = true
				r.step("destroyed", map[string]any{"target": u.ID}, "removed from the map")
			}
		} else if bl.hits > 0 {
			i := b.index(bl.square)
			t := b.terrain[b.cells[i]]
			b.cellHits[i] = max(0, b.cellHits[i]-bl.hits)
			res.Measures["hits_left"] = float64(b.cellHits[i])
			if b.cellHits[i] == 0 {
				sym, _ := utf8.DecodeRuneInString(t.Becomes)
				b.cells[i] = b.bySymbol[sym]
				b.cellHits[i] = b.terrain[b.cells[i]].Hits
				res.Destroyed = true
				r.step("knocked down", map[string]any{"square": bl.id, "was": t.Name}, "now "+b.terrain[b.cells[i]].Name)
			}
		}
		r.targets = append(r.targets, res)
	}
}
