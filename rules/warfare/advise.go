package warfare

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
)

// maxSplits bounds the ways a unit's stands are split among its targets that the
// advisor lists: 6 stands over 4 targets is 84; a unit of 40 stands facing 8 targets
// would be millions.
const maxSplits = 20_000

// Problems lists the choices of every unit of q.Side that may fire now (or of q.Actor):
// which enemy units to fire at and how many stands at each, every stand firing. A target
// is one the unit's whole fire could be aimed at (in range, a band stated or measured).
// Casualties on one target are not a sum over stands in the alternate system (the random
// factor is shared), so each split is scored with Odds.
func (b *Battle) Problems(ctx context.Context, q advise.Query) ([]*advise.Problem, error) {
	q, from := advise.From(q, func(f *Fire) string { return f.Unit })
	var out []*advise.Problem
	for i := range b.units {
		u := &b.units[i]
		if u.Side != q.Side || (q.Actor != "" && u.ID != q.Actor) || u.Destroyed() || u.Weapon == "" || u.Ammo == AmmoOut {
			continue
		}
		wait := b.fireCheck(&Fire{Unit: u.ID})
		if wait != nil && q.Actor == "" {
			continue
		}
		p, err := b.problem(ctx, u, from)
		if err != nil {
			return nil, err
		}
		if p == nil {
			continue
		}
		p.NotNow(wait)
		out = append(out, p)
	}
	return advise.Named(q, out, "warfare: %s has no unit %q that may fire at anything")
}

// problem is one unit's choice, or nil when it can fire at nothing.
func (b *Battle) problem(ctx context.Context, u *Unit, from *Fire) (*advise.Problem, error) {
	p := &advise.Problem{Actor: u.ID, Side: u.Side, Measure: MeasureCasualties}
	// What the scenario's action states about a target (a band, a distance, claimed
	// modifiers) holds for every plan that fires at it.
	stated := map[string]map[string]any{}
	if from != nil && from.Unit == u.ID {
		for _, t := range from.Targets {
			facts := map[string]any{}
			if t.Distance > 0 {
				facts["distance"] = strconv.FormatFloat(t.Distance, 'g', -1, 64) + "in"
			} else if t.Band != "" {
				facts["range"] = string(t.Band)
			}
			if len(t.Modifiers) > 0 {
				facts["modifiers"] = t.Modifiers
			}
			stated[t.Unit] = facts
		}
	}
	target := func(id string, stands int) map[string]any {
		t := map[string]any{"unit": id, "stands": stands}
		for k, v := range stated[id] {
			t[k] = v
		}
		return t
	}
	stands := u.StandsLeft()
	var ids []string
	var skipped []string
	for j := range b.units {
		t := &b.units[j]
		if t.Side == u.Side || t.Destroyed() {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		a, err := advise.DecodePlan(b, map[string]any{"unit": u.ID, "targets": []any{target(t.ID, stands)}})
		if err != nil {
			skipped = append(skipped, t.ID)
			continue
		}
		aims, err := b.Aim(ctx, a)
		if err != nil {
			return nil, err
		}
		if len(aims) == 1 && aims[0].Status == volley.StatusOK {
			ids = append(ids, t.ID)
			p.Targets = append(p.Targets, advise.Target{ID: t.ID, Left: t.Left()})
		} else {
			skipped = append(skipped, t.ID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	splits := compositions(stands, len(ids), maxSplits)
	slot := advise.Slot{Label: fmt.Sprintf("%s's %d stands", u.ID, stands)}
	for _, s := range splits {
		var words []string
		for i, n := range s {
			if n > 0 {
				words = append(words, fmt.Sprintf("%s %d", ids[i], n))
			}
		}
		slot.Choices = append(slot.Choices, advise.Choice{Target: strings.Join(words, " + ")})
	}
	p.Slots = []advise.Slot{slot}
	p.Action = func(picks []int) map[string]any {
		var ts []any
		for i, n := range splits[picks[0]] {
			if n > 0 {
				ts = append(ts, target(ids[i], n))
			}
		}
		return map[string]any{"unit": u.ID, "targets": ts}
	}
	p.Notes = append(p.Notes, "every stand fires; the risk of running Low on missiles is in each plan's odds (p_low), not in its score")
	if len(splits) == maxSplits {
		p.Notes = append(p.Notes, fmt.Sprintf("only the first %d splits of the stands are listed", maxSplits))
	}
	if len(skipped) > 0 {
		p.Notes = append(p.Notes, "not a target here (out of range, or no range band given in the scenario's action): "+strings.Join(skipped, ", "))
	}
	return p, nil
}

// compositions lists the ways to split n stands among k targets, each target taking
// none or some, up to most of them, in lexicographic order (the first target's share
// largest first).
func compositions(n, k, most int) [][]int {
	var out [][]int
	cur := make([]int, k)
	var rec func(i, left int)
	rec = func(i, left int) {
		if len(out) >= most {
			return
		}
		if i == k-1 {
			cur[i] = left
			out = append(out, append([]int(nil), cur...))
			return
		}
		for x := left; x >= 0; x-- {
			cur[i] = x
			rec(i+1, left-x)
		}
	}
	rec(0, n)
	return out
}
