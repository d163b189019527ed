package warstrike

import (
	"context"
	"fmt"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rules"
)

// record gathers a resolution's trace; a nil record (simulation) keeps nothing.
type record = rules.Record

// rolled is what the dice did to one target.
type rolled struct {
	hits, pens, wounds int
	// killed are the models the wounds kill, in the order they fell; wounded the
	// wounds left on the next model, which survives.
	killed    []*Model
	wounded   *Model
	woundsOn  int
	markers   int
	firedUpon bool
}

// hit is one hit of a firing model, carried to the rolls to penetrate and kill.
type hit struct{ f *firer }

// rollTarget rolls every die of the models firing at one target, in the text's order:
// to hit for every firing model, then to penetrate for every hit, then to kill for
// every penetration; then it allocates the wounds. r may be nil.
func (b *Battle) rollTarget(t *planTarget, d *dice.Stream, r *record) rolled {
	var res rolled
	var hits []hit
	for i := range t.firers {
		f := &t.firers[i]
		n, _ := f.shots(b)
		if n == 0 {
			continue
		}
		res.firedUpon = true
		aim := f.looks[f.chosen].aim
		need := int(aim.Need)
		var faces []string
		got := 0
		for s := 0; s < n; s++ {
			face := d.Roll(b.tables.Die, rules.Purpose(d, "to hit: %s at %s, needs %s", f.model.ID, aim.Target, b.tables.needWords(need)))
			if b.tables.succeeds(face, need) {
				got++
				hits = append(hits, hit{f})
			}
			if r != nil {
				faces = append(faces, fmt.Sprint(face))
			}
		}
		if r != nil {
			r.Step("roll to hit", map[string]any{"model": f.model.ID, "weapon": f.model.Weapon, "target": aim.Target, "need": b.tables.needWords(need), "rolls": strings.Join(faces, " ")}, fmt.Sprintf("%d hits", got))
		}
	}
	res.hits = len(hits)
	var pens []hit
	for _, h := range hits {
		w := b.tables.Weapons[h.f.model.Weapon]
		if ok := b.through(&b.tables.Penetrate, w.Penetration-t.unit.Armour, d, "to penetrate", h.f, t, r); ok {
			pens = append(pens, h)
		}
	}
	res.pens = len(pens)
	for _, h := range pens {
		w := b.tables.Weapons[h.f.model.Weapon]
		if b.through(&b.tables.Kill, w.Kill-t.unit.Toughness, d, "to kill", h.f, t, r) {
			res.wounds++
		}
	}
	left := res.wounds
	for _, c := range b.casualtyOrder(t) {
		if left < c.needs {
			if left > 0 {
				res.wounded, res.woundsOn = c.model, left
			}
			break
		}
		left -= c.needs
		res.killed = append(res.killed, c.model)
	}
	res.markers = b.tables.Suppression.gained(res.firedUpon, res.hits, res.pens, res.wounds)
	if r != nil && res.firedUpon {
		r.Step("wounds", map[string]any{"target": t.unit.ID, "hits": res.hits, "penetrations": res.pens, "wounds": res.wounds}, b.killWords(res))
		r.Step("suppression", map[string]any{"target": t.unit.ID, "from": b.tables.Suppression.From}, fmt.Sprintf("%d markers", res.markers))
	}
	return res
}

// through rolls one hit's die to penetrate or to kill on a table, and reports success.
func (b *Battle) through(nt *NeedTable, diff int, d *dice.Stream, what string, f *firer, t *planTarget, r *record) bool {
	if len(nt.Needs) == 0 {
		return true
	}
	need, ok := nt.need(diff)
	if !ok {
		if r != nil {
			r.Step("roll "+what, map[string]any{"model": f.model.ID, "target": t.unit.ID, "difference": diff}, "impossible: below the table")
		}
		return false
	}
	face := d.Roll(b.tables.Die, rules.Purpose(d, "%s: %s's hit on %s, needs %s", what, f.model.ID, t.unit.ID, b.tables.needWords(need)))
	ok = b.tables.succeeds(face, need)
	if r != nil {
		r.Step("roll "+what, map[string]any{"model": f.model.ID, "target": t.unit.ID, "difference": diff, "need": b.tables.needWords(need), "roll": face}, ok)
	}
	return ok
}

// killWords says which models the wounds kill.
func (b *Battle) killWords(res rolled) string {
	var ids []string
	for _, m := range res.killed {
		ids = append(ids, m.ID)
	}
	verb := "removed"
	if b.opts.dead == DeadMark {
		verb = "marked dead"
	}
	s := "no model killed"
	if len(ids) > 0 {
		s = fmt.Sprintf("%d killed (%s): %s", len(ids), verb, strings.Join(ids, ", "))
	}
	if res.wounded != nil {
		s += fmt.Sprintf("; %s takes %d wounds and lives", res.wounded.ID, res.woundsOn)
	}
	return s
}

// Resolve rolls a shooting action and applies it: models killed are removed or marked,
// wounds and suppression markers stay, and the unit has chosen its action for the turn.
// An action the rules refuse changes nothing. A unit shoots in its side's turn, once a
// turn (volley's order of play); end_turn passes the turn to the next side.
func (b *Battle) Resolve(ctx context.Context, a volley.Action, d *dice.Stream) (volley.Outcome, error) {
	if out, ok, err := rules.ResolveTurnAction(ctx, Name, &b.table, a, d, b.endTurn, b.resolveMove, b.resolveDeploy); ok {
		return out, err
	}
	s := mustShoot(a)
	p := b.plan(s)
	if p == nil {
		return volley.Outcome{}, volley.Errorf(volley.ENOTFOUND, "warstrike: unknown unit %q", s.Unit)
	}
	if err := b.shootCheck(p.unit); err != nil {
		return volley.Outcome{}, fmt.Errorf("warstrike: %w", err)
	}
	if why := p.refusals(b.hopeless); len(why) > 0 {
		return volley.Outcome{}, volley.Errorf(volley.EINVALID, "warstrike: %s cannot shoot as ordered:\n  - %s", p.unit.ID, strings.Join(why, "\n  - "))
	}
	r := &record{}
	who := map[string]any{"unit": p.unit.ID, "action": p.as.Title(), "suppression at start": p.unit.SuppressionAtStart}
	if b.moves {
		// The action as measured from the moves (or stated), and how far the unit moved.
		who["chosen"], who["moved"] = p.chosen, b.inUnit(b.farthest(p.unit))
	}
	r.Step("who can shoot", who, "may shoot")
	results := make([]rolled, len(p.targets))
	for i := range p.targets {
		results[i] = b.rollTarget(&p.targets[i], d, r)
	}
	// Only now does the battle change.
	out := volley.Outcome{Rolls: d.Rolls(), Targets: []volley.TargetResult{}}
	p.unit.Action = p.as
	for i := range p.targets {
		t, res := p.targets[i].unit, results[i]
		for _, m := range res.killed {
			if b.opts.dead == DeadMark {
				m.Marked = true
			} else {
				m.Dead = true
			}
		}
		if res.wounded != nil {
			res.wounded.WoundsLost += res.woundsOn
		}
		t.Suppression = min(t.Suppression+res.markers, MaxMarkers)
		out.Targets = append(out.Targets, volley.TargetResult{
			Target: t.ID,
			Measures: map[string]float64{MeasureHits: float64(res.hits), MeasurePenetrations: float64(res.pens), MeasureWounds: float64(res.wounds),
				MeasureKills: float64(len(res.killed)), MeasureSuppression: float64(res.markers),
				"models_left": float64(t.Left()), "suppression_markers": float64(t.Suppression)},
			Destroyed: t.Destroyed(),
		})
	}
	if b.moves {
		// Its models moved (if they did) before it shot, and move no more this turn.
		b.table.Deploying = false
		if b.act.unit != p.unit.ID {
			b.act = activation{unit: p.unit.ID}
		}
		b.act.shot = true
	}
	passed := b.turns.Acted(p.unit.ID)
	if b.moves && len(passed) > 0 {
		// Alternate activations: the turn passed with the shot.
		b.act, b.moved = activation{}, map[string]float64{}
	}
	out.Trace = append(r.Steps, passed...)
	return out, nil
}

// endTurn passes the turn: marked dead models leave the table, and the units of the
// side whose turn begins choose their actions afresh, with the suppression markers they
// have now deciding whether they may shoot.
func (b *Battle) endTurn() []volley.Step {
	steps := b.turns.End()
	if b.moves {
		b.act, b.moved = activation{}, map[string]float64{}
		b.table.Deploying = false
	}
	var gone []string
	for i := range b.units {
		u := &b.units[i]
		for j := range u.Models {
			if m := &u.Models[j]; m.Marked {
				m.Marked, m.Dead = false, true
				gone = append(gone, m.ID)
			}
		}
		if u.Side == b.turns.Current() {
			u.Action, u.SuppressionAtStart = "", u.Suppression
		}
	}
	if len(gone) > 0 {
		steps = append(steps, volley.Step{Rule: "remove marked dead models", Inputs: map[string]any{}, Result: strings.Join(gone, ", ")})
	}
	return steps
}

// Sampler prepares a shooting action for Monte Carlo: each draw rolls it as Resolve
// does, without a trace and without changing the battle. Draw is safe for concurrent
// use.
func (b *Battle) Sampler(a volley.Action) (*volley.Sim, error) {
	s, ok := a.(*Shoot)
	if !ok {
		return nil, rules.NothingRolled(Name, a)
	}
	p := b.plan(s)
	if p == nil {
		return nil, volley.Errorf(volley.ENOTFOUND, "warstrike: unknown unit %q", s.Unit)
	}
	var ts []*planTarget
	if p.refusal == "" {
		for i := range p.targets {
			if p.targets[i].refusal == "" {
				ts = append(ts, &p.targets[i])
			}
		}
	}
	const (
		hitsAt = iota
		pensAt
		woundsAt
		killsAt
		markersAt
		destroyedAt
		stride
	)
	sim := &volley.Sim{Measures: []string{MeasureHits, MeasurePenetrations, MeasureWounds, MeasureKills, MeasureSuppression, "destroyed"}, Destroyed: destroyedAt}
	for _, t := range ts {
		sim.Targets = append(sim.Targets, t.unit.ID)
	}
	sim.Draw = func(d *dice.Stream, out []int) {
		clear(out)
		for i, t := range ts {
			res := b.rollTarget(t, d, nil)
			o := out[i*stride:]
			o[hitsAt], o[pensAt], o[woundsAt], o[killsAt], o[markersAt] = res.hits, res.pens, res.wounds, len(res.killed), res.markers
			if len(res.killed) == t.unit.Left() {
				o[destroyedAt] = 1
			}
		}
	}
	return sim, nil
}
