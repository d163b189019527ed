package republique

import (
	"context"
	"fmt"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
)

// maxAdvisedBatteries bounds the batteries whose groupings the advisor lists: their set
// partitions number 4,140 for 8 batteries and grow past 100,000 at 10.
const maxAdvisedBatteries = 8

// artilleryActor is the name the advice gives a side's artillery, which acts as one.
func artilleryActor(side string) string { return side + " artillery" }

// Problems lists the choices of q.Side's artillery that may fire now (or of the one
// battery q.Actor names, alone): one problem for each way to group the batteries (each
// battery alone, some together as a group or massed battery), with a slot per group
// choosing to fire or to save its fire. The rules,
// not the player, choose a fire's target (the main target rule), so a group has one
// fire; its effect is that fire's Odds, on its main target and any other unit it may
// hit. Saving fire scores nothing now: its worth is the doubled fire points of the
// battery's next fire (a battery saving fire may not pass fire).
func (b *Battle) Problems(ctx context.Context, q advise.Query) ([]*advise.Problem, error) {
	var notes []string
	if b.phase.step != ArtillerySegment {
		// Plan the coming artillery segment on a copy that stands in it: the plans are the
		// player's to carry out when it comes.
		c := *b
		c.phase.step = ArtillerySegment
		notes = append(notes, fmt.Sprintf("not now: this is the %s step; planned as the artillery segment will find the table", b.phase.step))
		b = &c
	}
	// The actor is the side's artillery, or one battery of it alone (what a position
	// map weighs: the battery's own fire from where it moves).
	actor, only := artilleryActor(q.Side), ""
	if q.Actor != "" && q.Actor != actor {
		if u := b.Unit(q.Actor); u == nil || !u.Battery() || u.Side != q.Side {
			return nil, volley.Errorf(volley.EINVALID, "republique: the advisor plans %q, a side's artillery firing together, or one battery of it alone, not %q", actor, q.Actor)
		}
		actor, only = q.Actor, q.Actor
	}
	var bats []string
	for i := range b.units {
		u := &b.units[i]
		if u.Side == q.Side && u.Battery() && b.mayFire(u, false) == "" && (only == "" || u.ID == only) {
			bats = append(bats, u.ID)
		}
	}
	if len(bats) == 0 {
		return nil, nil
	}
	if len(bats) > maxAdvisedBatteries {
		notes = append(notes, fmt.Sprintf("only the first %d of %d batteries are planned", maxAdvisedBatteries, len(bats)))
		bats = bats[:maxAdvisedBatteries]
	}
	// Each group's fire is worked out once, whatever grouping it appears in.
	type fire struct {
		ok      bool
		effects []advise.Effect
		target  string
	}
	var targets []advise.Target
	fires := map[string]*fire{}
	fireOf := func(group []string) *fire {
		key := strings.Join(group, "+")
		if f, ok := fires[key]; ok {
			return f
		}
		f := &fire{}
		fires[key] = f
		p := b.plan(&Fire{Batteries: group})
		if !p.ok || p.target == nil {
			return f
		}
		f.ok, f.target = true, p.target.ID
		for _, t := range b.fireOdds(p).Targets {
			u := b.Unit(t.Target)
			if u == nil || u.Side == q.Side {
				continue
			}
			left := u.Capacity() - b.pendingFor(u.ID).Bases
			if left < 1 {
				continue
			}
			k := advise.TargetIndex(&targets, u.ID, func() advise.Target { return advise.Target{ID: u.ID, Left: left} })
			f.effects = append(f.effects, advise.Effect{Target: k, Dist: advise.Capped(t.Distributions[MeasureBases], left)})
		}
		return f
	}
	var out []*advise.Problem
	var failed error
	partitions(bats, func(groups [][]string) bool {
		if failed = ctx.Err(); failed != nil {
			return false
		}
		p := &advise.Problem{Actor: actor, Side: q.Side, Measure: MeasureBases, Notes: notes}
		var words []string
		for _, g := range groups {
			f := fireOf(g)
			if !f.ok && len(g) > 1 {
				return true // this group may not fire together: not a grouping to offer
			}
			slot := advise.Slot{Label: strings.Join(g, "+")}
			if f.ok {
				slot.Choices = append(slot.Choices, advise.Choice{Target: f.target, Effects: f.effects})
			}
			slot.Choices = append(slot.Choices, advise.Choice{}) // saving its fire
			p.Slots = append(p.Slots, slot)
			words = append(words, slot.Label)
		}
		if len(groups) > 1 || len(groups[0]) > 1 {
			p.Variant = strings.Join(words, ", ")
		}
		slots := p.Slots
		p.Steps = func(picks []int) []map[string]any {
			var steps []map[string]any
			for i, c := range picks {
				kind := KindFire
				if slots[i].Choices[c].Target == "" {
					kind = KindSave
				}
				steps = append(steps, map[string]any{"type": kind, "batteries": strings.Split(slots[i].Label, "+")})
			}
			return steps
		}
		p.Notes = append(p.Notes, "the main target rule chooses each fire's target; saving fire scores nothing now")
		out = append(out, p)
		return true
	})
	if failed != nil {
		return nil, failed
	}
	for _, p := range out {
		p.Targets = targets
	}
	return out, nil
}

// partitions calls f with every way to split items into groups (set partitions, each
// group in the items' order), until f returns false.
func partitions(items []string, f func([][]string) bool) {
	var groups [][]string
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == len(items) {
			out := make([][]string, len(groups))
			for k, g := range groups {
				out[k] = append([]string(nil), g...)
			}
			return f(out)
		}
		for k := range groups {
			groups[k] = append(groups[k], items[i])
			if !rec(i + 1) {
				return false
			}
			groups[k] = groups[k][:len(groups[k])-1]
		}
		groups = append(groups, []string{items[i]})
		ok := rec(i + 1)
		groups = groups[:len(groups)-1]
		return ok
	}
	rec(0)
}
