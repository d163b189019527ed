package warengine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/geom"
)

// adviceRing is how far around an enemy's footprint the advisor considers target squares:
// the squares it covers and those next to them, where a blast or a repeating weapon's
// walk may do more than a square on the unit. Squares farther off are not searched.
const adviceRing = 1

// Problems lists the choices of every unit of q.Side that may fire (or of q.Actor): one
// problem per weapon group it may choose (only its chosen group once it has one), with a
// slot per weapon of the group choosing a target square among the enemy units' squares
// and the squares around them. Each weapon–square pair's effect is the Odds of firing it
// there: the hits every enemy unit it may strike loses, capped at its hits left. A
// weapon with no square it may fire at holds fire.
func (b *Battle) Problems(ctx context.Context, q advise.Query) ([]*advise.Problem, error) {
	q, _ = advise.From(q, func(o *Order) string { return o.Unit })
	var out []*advise.Problem
	for i := range b.units {
		u := &b.units[i]
		if u.Side != q.Side || (q.Actor != "" && u.ID != q.Actor) || u.Destroyed() {
			continue
		}
		for _, g := range b.groupsOf(u) {
			p, err := b.problem(ctx, u, g, q.Centres)
			if err != nil {
				return nil, err
			}
			if b.side != q.Side {
				p.Notes = append(p.Notes, fmt.Sprintf("not now: it is %s's turn", b.side))
			}
			if u.Stunned {
				p.Notes = append(p.Notes, u.ID+" is stunned: it may not fire this phase")
			}
			out = append(out, p)
		}
	}
	return advise.Named(q, out, "warengine: %s has no unit %q that may fire")
}

// AdviceCost is the work of building q's problems: every weapon of every group of each
// unit planned, at every square it is offered, scored by Odds (Cost).
func (b *Battle) AdviceCost(q advise.Query) int64 {
	q, _ = advise.From(q, func(o *Order) string { return o.Unit })
	work := int64(0)
	for i := range b.units {
		u := &b.units[i]
		if u.Side != q.Side || (q.Actor != "" && u.ID != q.Actor) || u.Destroyed() {
			continue
		}
		for _, g := range b.groupsOf(u) {
			if groupSize(u, g) == 1 {
				work += b.declaredWork(u.Side, u.ID)
			}
		}
		squares := b.adviceSquares(u, q.Centres)
		for li := range u.Type.Weapons {
			l := &u.Type.Weapons[li]
			for _, sq := range squares {
				work += b.Cost(&Order{Type: Fire, Unit: u.ID, Weapon: l.Name(), Target: &sq})
			}
		}
	}
	return work
}

// groupsOf is the weapon groups a unit may fire: its chosen one, or every group of its
// weapons.
func (b *Battle) groupsOf(u *Unit) []int {
	if u.Group != 0 {
		return []int{u.Group}
	}
	var gs []int
	for i := range u.Type.Weapons {
		if g := u.Type.Weapons[i].Group; !slices.Contains(gs, g) {
			gs = append(gs, g)
		}
	}
	slices.Sort(gs)
	return gs
}

// problem is one unit's choice with one weapon group.
func (b *Battle) problem(ctx context.Context, u *Unit, group int, centres bool) (*advise.Problem, error) {
	p := &advise.Problem{Actor: u.ID, Side: u.Side, Measure: MeasureHits}
	if len(b.groupsOf(u)) > 1 || u.Group == 0 {
		p.Variant = fmt.Sprintf("group %d", group)
	}
	type pick struct {
		weapon string
		at     geom.Square
	}
	var picks [][]pick
	squares := b.adviceSquares(u, centres)
	friendlyFire := false
	// The fire the side has declared this target phase, weighed with a group of one
	// weapon (two weapons of one plan at the same target would each count it).
	var declared map[string][]float64
	var words []string
	if groupSize(u, group) == 1 {
		var err error
		if declared, words, err = b.declaredFire(ctx, u.Side, u.ID); err != nil {
			return nil, err
		}
	}
	for li := range u.Type.Weapons {
		l := &u.Type.Weapons[li]
		if l.Group != group {
			continue
		}
		slot := advise.Slot{Label: u.ID + " " + l.Name()}
		var ps []pick
		for _, sq := range squares {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			// Out of range or arc is the common case and needs no aim's words (nor the
			// search for where a correction would put the shot): the danger map's test.
			if s := b.newShot(u, l, sq, false); s.from.Chebyshev(sq) > s.w.MaxRange || !b.inArc(s, sq) {
				continue
			}
			o := &Order{Type: Fire, Unit: u.ID, Weapon: l.Name(), Target: &sq}
			aim, shot, land := b.aim(o)
			if land == nil || aim.Status == volley.StatusOutOfRange || aim.Status == volley.StatusOutOfArc || aim.Status == volley.StatusNotEligible {
				continue
			}
			// What Odds would give this order's victims, from the landing the aim worked
			// out: the square is in the envelope, so no correction, and one landing.
			targets, err := b.victimOdds(ctx, shot, *land, nil)
			land.release()
			if err != nil {
				return nil, err
			}
			c := advise.Choice{Target: squareName(sq), Effects: []advise.Effect{}}
			for _, t := range targets {
				v, ok := b.Unit(t.Target)
				if !ok || t.Distributions[MeasureHits].Max() == 0 {
					continue
				}
				if v.Side == u.Side {
					friendlyFire = true
					continue
				}
				k := p.TargetIndex(v.ID, func() advise.Target { return advise.Target{ID: v.ID, Left: v.Hits} })
				e := advise.Capped(t.Distributions[MeasureHits], v.Hits)
				if d, ok := declared[v.ID]; ok {
					e = afterDeclared(e, d)
				}
				c.Effects = append(c.Effects, advise.Effect{Target: k, Dist: e})
			}
			if len(c.Effects) == 0 {
				continue // a square where the weapon can hurt no enemy is not worth a plan
			}
			slot.Choices = append(slot.Choices, c)
			ps = append(ps, pick{l.Name(), sq})
		}
		if len(slot.Choices) == 0 {
			slot.Choices = []advise.Choice{{}}
			ps = append(ps, pick{weapon: l.Name()})
		}
		p.Slots = append(p.Slots, slot)
		picks = append(picks, ps)
	}
	p.Steps = func(chosen []int) []map[string]any {
		steps := []map[string]any{}
		if u.Group != group {
			steps = append(steps, map[string]any{"type": string(Group), "unit": u.ID, "group": group})
		}
		for i, c := range chosen {
			if p.Slots[i].Choices[c].Target == "" {
				continue
			}
			at := picks[i][c].at
			steps = append(steps, map[string]any{"type": string(Declare), "unit": u.ID, "weapon": picks[i][c].weapon, "target": []int{at.X, at.Y}})
		}
		return steps
	}
	if len(words) > 0 {
		p.Notes = append(p.Notes, "fire declared before this target phase ("+strings.Join(words, ", ")+
			") fires too: a shot at a target it may hurt counts the target destroyed only where this shot is the one that destroys it, else the hits this shot takes off it while it stands (not in the source)")
	}
	p.Notes = append(p.Notes, fmt.Sprintf("target squares: each enemy's squares and those within %d of them", adviceRing),
		"each weapon is scored against the battle as it stands: a wall one weapon knocks down does not open the line for the next")
	if friendlyFire {
		p.Notes = append(p.Notes, "some squares put friendly units at risk too: that risk is in each square's odds, not in the score")
	}
	return p, nil
}

// adviceSquares are the squares a unit's weapons are tried at: every enemy's footprint
// and the ring of adviceRing squares round it (with centres, each enemy's centre square
// alone), on the map, never a friend's square nor the unit's own.
func (b *Battle) adviceSquares(u *Unit, centres bool) []geom.Square {
	if centres {
		var out []geom.Square
		for i := range b.units {
			if e := &b.units[i]; e.Side != u.Side && !e.Destroyed() {
				if q := e.centre(); !u.covers(q) && !slices.Contains(out, q) {
					out = append(out, q)
				}
			}
		}
		return out
	}
	seen := map[geom.Square]bool{}
	var out []geom.Square
	for i := range b.units {
		e := &b.units[i]
		if e.Side == u.Side || e.Destroyed() {
			continue
		}
		for y := e.At.Y - adviceRing; y < e.At.Y+e.Type.Size+adviceRing; y++ {
			for x := e.At.X - adviceRing; x < e.At.X+e.Type.Size+adviceRing; x++ {
				q := geom.Sq(x, y)
				if !b.onMap(q) || seen[q] || u.covers(q) {
					continue
				}
				if v := b.unitAt(q); v != nil && v.Side == u.Side {
					continue // a friend's square is never a target here
				}
				seen[q] = true
				out = append(out, q)
			}
		}
	}
	slices.SortFunc(out, func(a, c geom.Square) int {
		if a.Y != c.Y {
			return a.Y - c.Y
		}
		return a.X - c.X
	})
	return out
}
