package opponent

import (
	"fmt"
	"math"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/geom"
)

// Staging: keeping an objective within reach until the end (the strong level, session 43;
// the teaching level at its own pace, session 48).
//
// Only where the units stand when the last round ends scores, so a place within an
// objective counts for less the more rounds are left (objectiveValue), and a place outside
// one counts nothing. A unit that has something to shoot at has no other reason to move
// (moveOptions), so it stays where it is, out of reach of the objectives, until the last
// round finds it more than a move away: against a side that does not come forward, the
// battle ends level (Dropzone's draws against random, session 43).
//
// A place from which the unit can still be within an objective when the battle ends, in
// the moves it has left, is worth to the strong level what a place within it is worth now
// (what the unit's hold would change there, weighed by the rounds left). Every place that
// keeps the objective within reach is worth the same, so the danger and the offence of the
// places choose among them, and a unit moves for this only when staying where it is would
// put the objective out of its reach: in the last round it can still make it, not before.
// Its friends within an objective, or able to reach it by the end, count as holding it, so
// a side does not send more units to an objective than it needs; the enemy holds what it
// stands within now, as objectiveValue counts it. Before the last round a place within an
// objective is one more place that keeps it within reach, and is worth what those are
// worth: taking it three rounds early sent a War Engine raider to the crossroads, where the
// whole enemy side closed on it (session 45).
//
// And a unit destroyed holds nothing: what its place does to the objectives, and what it
// keeps within reach, count only as far as it lives through the enemy's next fire. A place
// within the crossroads with a 96% chance of being destroyed there was worth its 3 points
// less the unit's 2 times 96% (1.08); it is worth 4% of 3 less that now, and the unit
// stays out.
//
// The moves left are counted at the unit's whole move a round, along the straight line
// to the objective's edge, as the end measures it (the larger of columns and rows on a
// grid); a line that passes within wallClearance widths of the unit's base of a piece of
// terrain that blocks sight and has no floors to stand on (a hab block, a ruin's solid
// wall) is not counted a way there, since the way around it is longer and a base must
// clear it. None of this is in any of the texts; it is how a player reasons about a
// battle that scores only at its end.
//
// The teaching level stages too (session 48), at its own pace: it moves at most half the
// way it could (teachingReach), so its moves left are counted at half its move a round, its
// friends' too. It heads for an objective from the round in which the rounds left, at that
// pace, would no longer take it there if it stayed where it is: the last round it can
// still set off in and arrive, as a player who sees the end coming does. Before, it
// thought of the objectives only in the last round, when half a move no longer reached
// them (Warfare's foot, moving 3″, stood 5″ from the mill). Its mistakes are left as
// they were: it does not weigh whether it lives through the enemy's fire to hold the place
// (as it did not in the last round), and a unit of several models still thinks of the
// objectives only in the last round.

// wallClearance is how far, in widths of its base, a unit's straight way to an objective
// must pass from a wall to be counted: one width let walkers wait beside a hab block's
// corner, from which the last round's move round it was refused (session 43).
const wallClearance = 2

// staging wraps a unit's rank of its position map's points, at the levels that stage
// (stages: strong and teaching), with what each point keeps within the unit's reach by the
// end (see above), and, at the strong level, with the chance that the unit is not there at
// the end to hold anything: a unit destroyed holds no objective, so what its place does to
// the objectives, and what it keeps within reach, count only as far as it lives through
// the enemy's next fire (the danger there; none where no enemy acts after it before the
// end). The teaching level does not weigh that chance. The other levels' ranks, and every
// rank in a battle without objectives or a last round, are returned as they are. It reports too whether a place within an
// objective counts as one within reach (a unit with moves to come before the end), which
// heldByModels leaves as it is.
func (p *Player) staging(v *view, pc piece, unit string, rank func(advise.PositionPoint) float64) (func(advise.PositionPoint) float64, bool) {
	if !p.stages(v, unit) {
		return rank, false
	}
	st := p.stage(v, pc, unit)
	// What the objectives count with the unit off the table.
	gone := v.objectiveValue(p.Side, unit, math.Inf(1), math.Inf(1))
	staged := func(pt advise.PositionPoint) float64 {
		_, best := st.credit(v, pt.X, pt.Y)
		dg := 1 - v.survives(pt)
		if p.Policy.Level == Teaching {
			dg = 0 // it does not count on being destroyed there (see above)
		}
		here := v.objectiveValue(p.Side, unit, pt.X, pt.Y) - gone
		if st.gain != nil {
			// Before the last round, for a unit with moves to come (st.gain is nil
			// otherwise), a place within an objective is one more place that keeps it
			// within reach: only the end scores, so standing within it now changes
			// nothing a place within reach does not. It is worth what keeping it within
			// reach is worth, with the friends that can reach it by the end counted
			// beside the enemies within it (stage), not what taking it now would be.
			for i, o := range v.result.Objectives {
				if v.within(o, pt.X, pt.Y) {
					best = max(best, st.gain[i])
				}
			}
			return rank(pt) - here + (1-dg)*best
		}
		return rank(pt) + (1-dg)*best - dg*here
	}
	return staged, st.gain != nil
}

// stages reports whether the level weighs what unit's places keep within its reach
// (staging): the strong and the teaching level's, for a unit of one piece, in a battle with
// objectives and a last round.
func (p *Player) stages(v *view, unit string) bool {
	return (p.Policy.Level == Strong || p.Policy.Level == Teaching) && v.end != nil && v.end.Turns > 0 && v.turn != nil && len(v.result.Objectives) > 0 && v.models(unit) <= 1
}

// stagingWhy says which objective a staging unit's place keeps within its reach by the
// end, the one whose credit the rank counted there (staging), "" for none: where no
// objective is credited (a friend keeps it in reach already, the enemy holds it too
// strongly), where the place is within one already (moveOptions says so), or where the
// unit could reach it by the end from where it stands anyway.
func (p *Player) stagingWhy(v *view, pc piece, x, y float64) string {
	if !p.stages(v, v.owner(pc)) || v.objectiveAt(x, y) != "" {
		return ""
	}
	st := p.stage(v, pc, v.owner(pc))
	i, best := st.credit(v, x, y)
	if best <= 0 || v.inReach(i, pc.x, pc.y, st.after, st.allowance, st.walls) {
		return ""
	}
	left := fmt.Sprintf("%d moves left", st.after)
	if st.after == 1 {
		left = "1 move left"
	}
	return fmt.Sprintf("; keeps %s within reach by the end (%s)", v.result.Objectives[i].Name, left)
}

// stage is what keeping each objective within reach by the end is worth to a unit (gain,
// by objective; nil where it has no move after this one), with the moves it has left, the
// way it is counted to go in each (allowance: its whole move, the teaching level's half)
// and the walls its way must clear.
type stage struct {
	gain      []float64
	after     int
	allowance float64
	walls     walls
}

// stage reads what each objective within reach is worth to unit, a piece pc.
func (p *Player) stage(v *view, pc piece, unit string) stage {
	// The moves the unit has after this one: in the last round none, and a place within
	// an objective counts already (objectiveValue).
	st := stage{after: v.end.Turns - v.turn.Number}
	if st.after >= 1 && pc.move != nil && pc.move.Allowance > 0 {
		w := 1 / float64(1+st.after)
		st.allowance = p.pace() * pc.move.Allowance
		st.walls = v.walls(pc.id)
		st.gain = make([]float64, len(v.result.Objectives))
		for i, o := range v.result.Objectives {
			ours, theirs := v.staged(i, p.Side, unit, st.after, p.pace(), st.walls)
			st.gain[i] = w * (held(o.Points, ours+1, theirs) - held(o.Points, ours, theirs))
		}
	}
	return st
}

// pace is the part of its move a unit of the side is counted to go in each move it has
// left: the teaching level's cautious step (teachingReach), the whole move otherwise.
func (p *Player) pace() float64 {
	if p.Policy.Level == Teaching {
		return teachingReach
	}
	return 1
}

// credit is the objective a place keeps within reach that is worth the most to the unit,
// and what it is worth (0 for none): an objective the place is within already counts in
// objectiveValue, not here.
func (st stage) credit(v *view, x, y float64) (int, float64) {
	at, best := -1, 0.0
	for i, o := range v.result.Objectives {
		if st.gain != nil && st.gain[i] > best && !v.within(o, x, y) && v.inReach(i, x, y, st.after, st.allowance, st.walls) {
			at, best = i, st.gain[i]
		}
	}
	return at, best
}

// inReach reports whether a unit with a move of allowance a round, standing at a point,
// can be within objective i after moves more of its own, along a straight line clear of
// walls (see walls).
func (v *view) inReach(i int, x, y float64, moves int, allowance float64, w walls) bool {
	d := v.toObjective(i, x, y)
	if d == 0 {
		return true
	}
	if d > float64(moves)*allowance+1e-9 {
		return false
	}
	// The straight way to the objective's edge, towards its centre.
	o := v.result.Objectives[i]
	c := math.Hypot(o.X-x, o.Y-y)
	end := [2]float64{x + (o.X-x)*d/c, y + (o.Y-y)*d/c}
	for _, poly := range w.pieces {
		if near([2]float64{x, y}, end, poly, w.clear) {
			return false
		}
	}
	return true
}

// walls are the table's pieces of terrain that block sight and have no floors to stand
// on, and the clearance a unit's way must keep from them (wallClearance). A way that
// passes nearer is not counted (inReach). None on a grid, where a square's terrain is the
// board's.
type walls struct {
	pieces [][][2]float64
	clear  float64
}

// walls are the table's walls for unit (see type walls).
func (v *view) walls(unit string) walls {
	t, ok := v.b.(volley.Table)
	if !ok || v.grid {
		return walls{}
	}
	return tableWalls(t.Table(), unit)
}

// tableWalls are the walls of the table tv for unit (see type walls).
func tableWalls(tv volley.TableView, unit string) walls {
	var w walls
	for _, u := range tv.Units {
		if u.ID == unit {
			w.clear = wallClearance * u.Base
		}
	}
	for _, tp := range tv.Terrain {
		if tp.BlocksLOS && len(tp.Levels) == 0 && len(tp.Polygon) >= 3 {
			w.pieces = append(w.pieces, tp.Polygon)
		}
	}
	return w
}

// near reports whether the segment from a to b comes within gap of polygon poly: an
// end inside it, an edge of it crossed, or an edge nearer than gap.
func near(a, b [2]float64, poly [][2]float64, gap float64) bool {
	pg := make(geom.Polygon, len(poly))
	for i, c := range poly {
		pg[i] = geom.V(c[0], c[1])
	}
	ab := geom.Segment{A: geom.V(a[0], a[1]), B: geom.V(b[0], b[1])}
	if pg.Contains(ab.A) || pg.Contains(ab.B) {
		return true
	}
	for i := range pg {
		e := geom.Segment{A: pg[i], B: pg[(i+1)%len(pg)]}
		if _, meet := ab.Intersect(e); meet || min(e.DistTo(ab.A), e.DistTo(ab.B), ab.DistTo(e.A), ab.DistTo(e.B)) < gap {
			return true
		}
	}
	return false
}

// held is what an objective of points counts for a side with ours units within it against
// theirs at the end: its points held, as much against when the enemy holds it, nothing on
// a tie (volley.End).
func held(points float64, ours, theirs int) float64 {
	switch {
	case ours > theirs:
		return points
	case theirs > ours:
		return -points
	}
	return 0
}

// staged counts, for objective i, the units of side other than unit that are within it or
// can be within it in after moves of their own from where they stand, each going pace of
// its move (Player.pace), and the enemy units within it now. A unit of several pieces
// counts once.
func (v *view) staged(i int, side, unit string, after int, pace float64, w walls) (ours, theirs int) {
	o := v.result.Objectives[i]
	in := map[string]string{}
	for _, pc := range v.pieces {
		owner := v.owner(pc)
		if pc.destroyed || owner == unit || owner == "" {
			continue
		}
		switch {
		case v.within(o, pc.x, pc.y):
		case pc.side == side && pc.move != nil && v.inReach(i, pc.x, pc.y, after, pace*pc.move.Allowance, w):
		default:
			continue
		}
		in[owner] = pc.side
	}
	return sides(in, side)
}

// toObjective is how far a point is from being within objective i, as the end measures:
// between centres on a table, the larger of columns and rows on a grid; 0 within it.
func (v *view) toObjective(i int, x, y float64) float64 {
	o := v.result.Objectives[i]
	d := math.Hypot(x-o.X, y-o.Y)
	if v.grid {
		d = max(math.Abs(x-o.X), math.Abs(y-o.Y))
	}
	return max(0, d-o.Radius)
}

// models counts the pieces of unit still on the table. Staging weighs a unit of one
// piece only: a unit of several models (a WarStrike team) holds an objective where one of
// its models stands within it, which heldByModels reads from a copy of the battle, while
// staging's reach is measured from a point, the unit's centre; the two together would
// count a place at an objective's edge twice, or not at all (a centre outside with a
// model within; a centre within with every model outside).
func (v *view) models(unit string) int {
	n := 0
	for _, pc := range v.pieces {
		if !pc.destroyed && v.owner(pc) == unit {
			n++
		}
	}
	return n
}
