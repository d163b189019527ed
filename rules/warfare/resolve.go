package warfare

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

// volleyResult is what one fire did: casualties per target, and whether the firer
// went a step down in ammunition.
type volleyResult struct {
	casualties []int
	low        bool
}

// rollFire rolls a fire at targets that may all be shot at. r may be nil.
func (b *Battle) rollFire(f *Fire, firer *Unit, ts []*aimed, d *dice.Stream, r *record) volleyResult {
	res := volleyResult{casualties: make([]int, len(ts))}
	if b.system == Existing {
		tens := 0
		for i, t := range ts {
			need := b.need(t)
			if r != nil {
				var mods []string
				for _, m := range t.mods {
					mods = append(mods, fmt.Sprintf("%s %+g", m.Rule, -m.Value))
				}
				in := map[string]any{"unit": firer.ID, "target": t.Unit, "range": string(t.Band), "base": baseNeed(t.Band), "modifiers": strings.Join(mods, "; ")}
				if r != nil {
					r.Step("to hit", in, fmt.Sprintf("%d stands, each needs %d+", t.Stands, need))
				}
			}
			hits := 0
			var rolls []string
			for s := 1; s <= t.Stands; s++ {
				why := ""
				if d.Recording() { // formatting costs more than the die itself
					why = fmt.Sprintf("to hit: %s at %s, stand %d", firer.ID, t.Unit, s)
				}
				roll := d.Roll(D10, why)
				if b.hits(roll, need) {
					hits++
				}
				if roll == D10 {
					tens++
				}
				if r != nil {
					rolls = append(rolls, fmt.Sprint(roll))
				}
			}
			res.casualties[i] = min(hits, t.target.Left())
			if r != nil {
				r.Step("hits", map[string]any{"target": t.Unit, "rolls": strings.Join(rolls, " "), "need": need}, fmt.Sprintf("%d hits: %d casualties", hits, res.casualties[i]))
			}
		}
		res.low = tens >= b.lowTrigger
		if r != nil {
			r.Step("low on missiles", map[string]any{"natural tens": tens, "trigger": b.lowTrigger}, lowWords(res.low))
		}
		return res
	}
	// The alternate system: one pair of random-factor dice for every target.
	fr, tr := 0, 0
	if f.Rolls != nil {
		fr, tr = f.Rolls.Firer, f.Rolls.Target
	} else {
		fr = d.Roll(D6, rules.Purpose(d, "random factor: the firing player (%s)", firer.ID))
		tr = d.Roll(D6, rules.Purpose(d, "random factor: the target player"))
	}
	rf := halfUp(fr) - halfUp(tr)
	for i, t := range ts {
		modified := baseFactor(t.Band) + rf + t.modSum
		final := modified * t.Stands
		if r != nil {
			// The article's order: base, the two halved rolls, then each modifier.
			if r != nil {
				r.Step("base missile factor", map[string]any{"target": t.Unit, "range": string(t.Band)}, fmt.Sprintf("%+d", baseFactor(t.Band)))
			}
			if i == 0 {
				fixed := f.Rolls != nil
				if r != nil {
					r.Step("random factor: firer", map[string]any{"roll": fr, "fixed by the scenario": fixed}, fmt.Sprintf("%+d (half, rounded up)", halfUp(fr)))
				}
				if r != nil {
					r.Step("random factor: target", map[string]any{"roll": tr, "fixed by the scenario": fixed}, fmt.Sprintf("%+d (half, rounded up)", -halfUp(tr)))
				}
			}
			for _, m := range t.mods {
				if r != nil {
					r.Step("modifier", map[string]any{"target": t.Unit, "modifier": m.Rule}, fmt.Sprintf("%+g", m.Value))
				}
			}
			if r != nil {
				r.Step("modified missile factor", map[string]any{"target": t.Unit, "base": baseFactor(t.Band), "random": rf, "modifiers": t.modSum}, modified)
			}
			if r != nil {
				r.Step("final missile factor", map[string]any{"target": t.Unit, "modified": modified, "stands": t.Stands}, final)
			}
		}
		roll := d.Roll(D10, rules.Purpose(d, "fraction and ammunition: %s at %s", firer.ID, t.Unit))
		res.low = res.low || roll == LowOnMissilesRoll
		n := 0
		if final > 0 {
			whole, rem := final/FactorPerCasualty, final%FactorPerCasualty
			n = whole
			if roll <= rem {
				n++
			}
			if r != nil {
				r.Step("casualties", map[string]any{"target": t.Unit, "final": final, "whole": whole, "tenths": rem, "roll": roll},
					fmt.Sprintf("%d casualties", n))
			}
		} else {
			if r != nil {
				r.Step("casualties", map[string]any{"target": t.Unit, "final": final, "roll": roll}, "a factor of zero or less inflicts nothing")
			}
		}
		capped := min(n, t.Stands, t.target.Left())
		if capped < n {
			if r != nil {
				r.Step("casualty limit", map[string]any{"target": t.Unit, "casualties": n, "stands firing": t.Stands, "figures left": t.target.Left()}, capped)
			}
		}
		res.casualties[i] = capped
	}
	if r != nil {
		r.Step("low on missiles", map[string]any{"rule": "a 10 on a fraction d10"}, lowWords(res.low))
	}
	return res
}

func lowWords(low bool) string {
	if low {
		return "one step down: Low on Missiles, or Out if already Low"
	}
	return "ammunition holds"
}

// endTurn ends the side's turn: with moves, no unit is acting and none has moved in the
// next side's, and the deployment of a battle begun before edition 5 is over.
func (b *Battle) endTurn() []volley.Step {
	if b.moves {
		b.table.Deploying = false
		return b.act.EndTurn(&b.turns)
	}
	return b.turns.End()
}

// Resolve rolls a fire and applies the casualties and the ammunition. A fire at a
// target that cannot be shot at is refused and changes nothing. A unit fires in its
// side's turn, once a turn (volley's order of play, see volley.Turns); end_turn passes
// the turn to the next side.
func (b *Battle) Resolve(ctx context.Context, a volley.Action, d *dice.Stream) (volley.Outcome, error) {
	if out, ok, err := rules.ResolveTurnAction(ctx, Name, &b.table, a, d, b.endTurn, b.resolveMove, b.resolveDeploy); ok {
		return out, err
	}
	f := mustFire(a)
	if err := b.fireCheck(f); err != nil {
		return volley.Outcome{}, fmt.Errorf("warfare: %w", err)
	}
	firer, ts := b.plan(f)
	if firer == nil {
		return volley.Outcome{}, volley.Errorf(volley.ENOTFOUND, "warfare: unknown unit %q", f.Unit)
	}
	var bad []string
	var ok []*aimed
	for i := range ts {
		if ts[i].ok() {
			ok = append(ok, &ts[i])
		} else {
			bad = append(bad, fmt.Sprintf("%s at %s is %s: %s", firer.ID, ts[i].Unit, ts[i].aim.Status, ts[i].aim.Reason))
		}
	}
	if len(ok) == 0 && len(bad) == 0 {
		bad = append(bad, "the fire has no target")
	}
	if len(bad) > 0 {
		return volley.Outcome{}, volley.Errorf(volley.EINVALID, "warfare: the unit cannot fire as ordered:\n  - %s", strings.Join(bad, "\n  - "))
	}
	r := &record{}
	if b.moves {
		// The ranges the table measures, from where the units stand after their moves.
		for _, t := range ok {
			if t.measured {
				r.Step("measure range", map[string]any{"unit": firer.ID, "target": t.Unit, "distance": roundIn(t.Distance, b.unit)},
					fmt.Sprintf("%s is %s from %s, centre to centre where they stand now: %s range", t.Unit, b.length(t.Distance), firer.ID, t.Band))
			}
		}
	}
	res := b.rollFire(f, firer, ok, d, r)
	// Only now does the battle change.
	out := volley.Outcome{Rolls: d.Rolls(), Targets: []volley.TargetResult{}}
	for i, t := range ok {
		t.target.Lost += res.casualties[i]
		out.Targets = append(out.Targets, volley.TargetResult{
			Target:    t.Unit,
			Measures:  map[string]float64{MeasureCasualties: float64(res.casualties[i]), "figures_left": float64(t.target.Left())},
			Destroyed: t.target.Destroyed(),
		})
	}
	if res.low {
		before := firer.Ammo
		firer.Ammo = firer.Ammo.after()
		r.Step("ammunition", map[string]any{"unit": firer.ID, "was": string(before)}, string(firer.Ammo))
	}
	var passed []volley.Step
	if b.moves {
		// It moved (if it did) before it fired, and moves no more this turn; with
		// alternate activations the turn passed with the fire.
		b.table.Deploying = false
		passed = b.act.Acted(&b.turns, f.Unit)
	} else {
		passed = b.turns.Acted(f.Unit)
	}
	out.Trace = append(r.Steps, passed...)
	return out, nil
}

// Sampler prepares a fire for Monte Carlo: each draw rolls the fire as Resolve does,
// without a trace and without changing the battle. Draw is safe for concurrent use.
func (b *Battle) Sampler(a volley.Action) (*volley.Sim, error) {
	f, isFire := a.(*Fire)
	if !isFire {
		return nil, rules.NothingRolled(Name, a)
	}
	firer, ts := b.plan(f)
	if firer == nil {
		return nil, volley.Errorf(volley.ENOTFOUND, "warfare: unknown unit %q", f.Unit)
	}
	var ok []*aimed
	for i := range ts {
		if ts[i].ok() {
			ok = append(ok, &ts[i])
		}
	}
	const (
		casualtiesAt = iota
		destroyedAt
		stride
	)
	sim := &volley.Sim{Measures: []string{MeasureCasualties, "destroyed"}, Destroyed: destroyedAt}
	for _, t := range ok {
		sim.Targets = append(sim.Targets, t.Unit)
	}
	sim.Draw = func(d *dice.Stream, out []int) {
		clear(out)
		if len(ok) == 0 {
			return
		}
		res := b.rollFire(f, firer, ok, d, nil)
		for i, t := range ok {
			out[i*stride+casualtiesAt] = res.casualties[i]
			if res.casualties[i] >= t.target.Left() {
				out[i*stride+destroyedAt] = 1
			}
		}
	}
	return sim, nil
}
