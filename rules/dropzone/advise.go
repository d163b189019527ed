package dropzone

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
)

// Problems lists the choices of every squad of q.Side that may shoot now (or of q.Actor):
// one slot per weapon of each living unit, choosing among the enemy units it may fire at
// under the same checks Aim makes (movement against M&F, arc, line of sight, range). A
// weapon with no target holds fire. Each weapon–target pair's damage is worked out once,
// as Odds works it out, capped at the target's damage points.
func (b *Battle) Problems(ctx context.Context, q advise.Query) ([]*advise.Problem, error) {
	q, from := advise.From(q, func(s *Shooting) string { return s.Squad })
	var out []*advise.Problem
	for _, squad := range b.squads(q.Side) {
		if q.Actor != "" && squad != q.Actor {
			continue
		}
		wait := b.shootCheck(&Shooting{Squad: squad})
		if wait != nil && q.Actor == "" {
			continue // only the squads that may act now, unless one is named
		}
		act := &Shooting{Squad: squad, Moved: map[string]float64{}}
		if from != nil && from.Squad == squad {
			act.Moved, act.OutOfCoherency, act.Disembarked = from.Moved, from.OutOfCoherency, from.Disembarked
			act.stated = from.stated
		}
		p, err := b.problem(ctx, act, "")
		if err != nil {
			return nil, err
		}
		p.NotNow(wait)
		out = append(out, p)
	}
	return advise.Named(q, out, "dropzone: %s has no squad %q")
}

// AdviceCost is the work of building q's problems: for each squad it plans, the cost of
// an action declaring every weapon of it at every enemy unit (Cost), lines of sight and
// all.
func (b *Battle) AdviceCost(q advise.Query) int64 {
	q, _ = advise.From(q, func(s *Shooting) string { return s.Squad })
	work := int64(0)
	for _, squad := range b.squads(q.Side) {
		if q.Actor != "" && squad != q.Actor {
			continue
		}
		all := &Shooting{Squad: squad}
		for i := range b.units {
			u := &b.units[i]
			if u.Squad != squad || u.Destroyed() {
				continue
			}
			for _, w := range u.Type.Weapons {
				for j := range b.units {
					if t := &b.units[j]; t.Side != u.Side && !t.Destroyed() {
						all.Declarations = append(all.Declarations, Declaration{Shooter: u.ID, Weapon: w.Name, Target: t.ID})
					}
				}
			}
		}
		work += b.Cost(all)
	}
	return work
}

// squads are the squads of side with a unit still on the table, in the order the
// scenario lists their units.
func (b *Battle) squads(side string) []string {
	var out []string
	for i := range b.units {
		u := &b.units[i]
		if u.Side == side && !u.Destroyed() && !slices.Contains(out, u.Squad) {
			out = append(out, u.Squad)
		}
	}
	return out
}

// problem is one squad's choice.
func (b *Battle) problem(ctx context.Context, stated *Shooting, only string) (*advise.Problem, error) {
	// The facts the plans are judged under: measured from the moves, or as the
	// scenario's action states them (the command line's "what if").
	act := b.measured(stated)
	p := &advise.Problem{Actor: act.Squad, Measure: MeasureDamage}
	sight := b.newSight(16)
	type slotOf struct{ unit, weapon string }
	var slots []slotOf
	for i := range b.units {
		u := &b.units[i]
		if u.Squad != act.Squad || u.Destroyed() || (only != "" && u.ID != only) {
			continue
		}
		p.Side = u.Side
		for wi := range u.Type.Weapons {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			w := &u.Type.Weapons[wi]
			p.Slots = append(p.Slots, advise.Slot{Label: u.ID + " " + w.Name})
			slot := &p.Slots[len(p.Slots)-1]
			for j := range b.units {
				tg := &b.units[j]
				if tg.Side == u.Side || tg.Destroyed() {
					continue
				}
				s := shot{Declaration: Declaration{Shooter: u.ID, Weapon: w.Name, Target: tg.ID}, shooter: u, target: tg, weapon: w,
					aim: volley.Aim{Modifiers: []volley.Modifier{}}}
				b.check(act, &s, sight)
				if !s.ok() {
					continue
				}
				_, damage := declarationOdds(&s)
				p.Choose(len(p.Slots)-1, advise.Target{ID: tg.ID, Left: tg.DamagePoints}, damage)
			}
			if len(slot.Choices) == 0 {
				slot.Choices = []advise.Choice{{}} // no target it may fire at: it holds fire
			}
			slots = append(slots, slotOf{u.ID, w.Name})
		}
	}
	p.Action = func(picks []int) map[string]any {
		var decls []any
		for i, c := range picks {
			if t := p.Slots[i].Choices[c].Target; t != "" {
				decls = append(decls, map[string]any{"unit": slots[i].unit, "weapon": slots[i].weapon, "target": t})
			}
		}
		if len(decls) == 0 {
			return nil // every weapon holds fire
		}
		// Only what the scenario's action stated goes back into the plan's action: a
		// measured fact is the server's to measure, and an action may not state it.
		body := map[string]any{"squad": act.Squad, "declarations": decls}
		if len(stated.Moved) > 0 && (!b.moves || len(stated.stated.moved) > 0) {
			moved := map[string]any{}
			for id, d := range stated.Moved {
				moved[id] = strconv.FormatFloat(d, 'g', -1, 64) + "in"
			}
			body["moved"] = moved
		}
		if stated.OutOfCoherency && (!b.moves || stated.stated.coherency) {
			body["out_of_coherency"] = true
		}
		if stated.Disembarked && (!b.moves || stated.stated.disembarked) {
			body["disembarked"] = true
		}
		return body
	}
	switch {
	case len(stated.Moved) > 0:
		p.Notes = append(p.Notes, fmt.Sprintf("movement as the scenario's action states it: %s", b.movedWords(act.Moved)))
	case len(act.Moved) > 0:
		p.Notes = append(p.Notes, fmt.Sprintf("movement this activation, as the moves measure it: %s", b.movedWords(act.Moved)))
	default:
		p.Notes = append(p.Notes, "no unit of the squad has moved (M&F limits none of its weapons)")
	}
	return p, nil
}

func (b *Battle) movedWords(m map[string]float64) string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	s := ""
	for i, id := range ids {
		if i > 0 {
			s += ", "
		}
		s += id + " " + b.formatLength(m[id])
	}
	return s
}
