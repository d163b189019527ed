package republique

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
)

// Passing fire, measured (from edition 4). The text: artillery may pass fire at an enemy
// unit moving across its front, more than 45° from perpendicular to it; enemy infantry
// must have been within the battery's arc for 8cm of its movement, cavalry for 15cm; the
// fire takes −2; batteries saving fire may not; those that do may not fire in the
// following artillery phase, and get no saved fire for missing it.
//
// volley measures it along the mover's path: the stretches of each leg that runs across
// the battery's front, during which some part of a base lies inside the arc, added up
// over the unit's moves of the maneuver step. When a move brings that to the distance,
// play pauses (a window): the battery's side may answer with passing fire at the mover,
// or decline, before the phasing player goes on.

// arcKey is a mover and a battery.
type arcKey struct{ mover, battery string }

// passWindow is the pause after a move that gave enemy batteries passing fire.
type passWindow struct {
	mover, side string
	// start are the mover's bases where the move began, path its centre's path: the
	// mover is fired at where it stood when a battery's distance was reached.
	start []Rect
	path  geom.Path
	// trigger is, for each battery the move gave the distance, how far along path it
	// was reached; inArc how far the mover has moved across that battery's front within
	// its arc this step.
	trigger map[string]float64
	inArc   map[string]float64
	// offered are the batteries that may fire now, in the scenario's order.
	offered []string
}

func (w *passWindow) clone() *passWindow {
	if w == nil {
		return nil
	}
	c := *w
	c.start = slices.Clone(w.start)
	c.path = slices.Clone(w.path)
	c.trigger = cloneMap(w.trigger)
	c.inArc = cloneMap(w.inArc)
	c.offered = slices.Clone(w.offered)
	return &c
}

func cloneMap[K comparable](m map[K]float64) map[K]float64 {
	if m == nil {
		return nil
	}
	c := make(map[K]float64, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// basesAt are the mover's bases when it had come s cm along its path.
func (w *passWindow) basesAt(s float64) []Rect {
	d := pathAt(w.path, s).Sub(w.path[0])
	out := make([]Rect, len(w.start))
	for i, r := range w.start {
		out[i] = r.moved(d)
	}
	return out
}

// pathAt is the point s cm along a path.
func pathAt(p geom.Path, s float64) geom.Vec {
	for i := range len(p) - 1 {
		l := p[i].Dist(p[i+1])
		if s <= l {
			if l == 0 {
				return p[i]
			}
			return p[i].Lerp(p[i+1], s/l)
		}
		s -= l
	}
	return p.End()
}

// passingDistance is how far a unit of kind k must move within a battery's arc for it
// to pass fire: light infantry is infantry. A moving battery gives none: the text gives
// distances for infantry and cavalry only.
func passingDistance(k Kind) (float64, bool) {
	switch k {
	case Infantry, Light:
		return PassingInfantry, true
	case Cavalry:
		return PassingCavalry, true
	}
	return 0, false
}

// across reports whether a leg runs across a battery's front: more than PassingAcross
// from perpendicular to it (from the battery's facing, or its reverse).
func across(facing float64, leg geom.Segment) bool {
	a := math.Abs(geom.AngleDiff(facing, geom.Bearing(leg.A, leg.B)))
	if a > 90 {
		a = 180 - a
	}
	return a > PassingAcross+geom.AngleTolerance
}

// acrossSpans are the stretches of a path, as distances along it, during which bases
// that start at start move across bat's front with some part of a base inside its arc.
func acrossSpans(bat *Unit, start []Rect, path geom.Path) [][2]float64 {
	arc := bat.arc()
	var out [][2]float64
	s := 0.0
	for i := range len(path) - 1 {
		leg := path.Leg(i)
		l := leg.Len()
		if l > 0 && across(bat.Facing, leg) {
			u, d := leg.B.Sub(leg.A).Scale(1/l), leg.A.Sub(path[0])
			var spans [][2]float64
			for _, r := range start {
				if t0, t1 := arc.span(r.moved(d), u, l); t1 > t0 {
					spans = append(spans, [2]float64{s + t0, s + t1})
				}
			}
			out = append(out, merge(spans)...)
		}
		s += l
	}
	return out
}

// merge joins overlapping spans, in order.
func merge(spans [][2]float64) [][2]float64 {
	slices.SortFunc(spans, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
	var out [][2]float64
	for _, sp := range spans {
		if n := len(out); n > 0 && sp[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], sp[1])
			continue
		}
		out = append(out, sp)
	}
	return out
}

// span is the part [t0, t1] of a move of base r along the unit vector u, for l cm, during
// which the base overlaps the arc with some area; t1 <= t0 when it never does. Two convex
// shapes share area unless an edge normal of one of them separates them: the arc's three
// sides and the base's two axes, each a bound on t.
func (a Arc) span(r Rect, u geom.Vec, l float64) (t0, t1 float64) {
	t0, t1 = 0, l
	// holds keeps the t with c0 + t·k > 0.
	holds := func(c0, k float64) {
		switch {
		case math.Abs(k) < 1e-12:
			if c0 <= 0 {
				t1 = -1
			}
		case k > 0:
			t0 = max(t0, -c0/k)
		default:
			t1 = min(t1, -c0/k)
		}
	}
	cs := r.Corners()
	for _, h := range a.planes() {
		_, hi := extent(cs[:], h.n)
		holds(hi-h.c, h.n.Dot(u))
	}
	rays := [2]geom.Vec{dir(a.Bearing - ArcOfFire/2), dir(a.Bearing + ArcOfFire/2)}
	for _, m := range []geom.Vec{r.fwd(), r.right()} {
		lo, hi := extent(cs[:], m)
		k := m.Dot(u)
		ea, eb := m.Dot(a.Edge.A), m.Dot(a.Edge.B)
		if min(m.Dot(rays[0]), m.Dot(rays[1])) >= -1e-12 { // the arc ends below
			holds(hi-min(ea, eb), k)
		}
		if max(m.Dot(rays[0]), m.Dot(rays[1])) <= 1e-12 { // and above
			holds(max(ea, eb)-lo, -k)
		}
	}
	return t0, t1
}

// passingAfter measures a move against every enemy battery and, when it gives one
// passing fire, opens the window. It returns the steps of the trace that say what it
// measured.
func (b *Battle) passingAfter(u *Unit, w *moving) []volley.Step {
	need, ok := passingDistance(u.Kind)
	if !ok || w.path.Length() == 0 {
		return nil
	}
	var steps []volley.Step
	win := &passWindow{mover: u.ID, start: w.start, path: w.path, trigger: map[string]float64{}, inArc: map[string]float64{}}
	for i := range b.units {
		bat := &b.units[i]
		if !bat.Battery() || bat.Side == u.Side || bat.Destroyed() {
			continue
		}
		key := arcKey{u.ID, bat.ID}
		before, got := b.phase.inArc[key], 0.0
		spans := acrossSpans(bat, w.start, w.path)
		for _, sp := range spans {
			got += sp[1] - sp[0]
		}
		if got <= 0 {
			continue
		}
		total := before + got
		b.phase.inArc[key] = total
		in := map[string]any{"mover": u.ID, "battery": bat.ID, "this_move": round3(got), "this_step": round3(total), "needed": need}
		if total < need-geom.Tolerance {
			steps = append(steps, volley.Step{Rule: "passing fire", Inputs: in, Result: fmt.Sprintf("%s has moved %s across %s's front within its arc this step: short of the %s %s must, so no passing fire",
				u.ID, fmtCm(total), bat.ID, fmtCm(need), u.Kind)})
			continue
		}
		// Where the mover stood when the distance was reached: there the battery fires.
		rest := need - before
		for _, sp := range spans {
			if rest <= sp[1]-sp[0] {
				win.trigger[bat.ID] = sp[0] + max(rest, 0)
				break
			}
			rest -= sp[1] - sp[0]
		}
		win.inArc[bat.ID], win.side = total, bat.Side
		at := centre(win.basesAt(win.trigger[bat.ID]))
		in["fired_on_at"] = []float64{round3(at.X), round3(at.Y)}
		steps = append(steps, volley.Step{Rule: "passing fire", Inputs: in, Result: fmt.Sprintf("%s has moved %s across %s's front within its arc this step (%s for %s): %s may pass fire at it",
			u.ID, fmtCm(total), bat.ID, fmtCm(need), u.Kind, bat.ID)})
	}
	if len(win.trigger) == 0 {
		return steps
	}
	// The batteries that may fire: ready (unlimbered, not saving fire, not silenced, not
	// fired this turn), and able to fire at the mover where it stood.
	b.phase.window = win
	var cannot []string
	for i := range b.units {
		bat := &b.units[i]
		if _, ok := win.trigger[bat.ID]; !ok {
			continue
		}
		f := &Fire{Batteries: []string{bat.ID}, Target: u.ID, Passing: true}
		v := b.fireView(f)
		if p := v.plan(f); p.ok {
			win.offered = append(win.offered, bat.ID)
		} else {
			cannot = append(cannot, bat.ID+": "+p.bats[0].aim.Reason)
		}
	}
	if len(win.offered) == 0 {
		b.phase.window = nil
		return append(steps, volley.Step{Rule: "passing fire", Inputs: map[string]any{"mover": u.ID}, Result: "no battery may pass fire: " + strings.Join(cannot, "; ")})
	}
	return append(steps, volley.Step{Rule: "passing fire", Inputs: map[string]any{"mover": u.ID, "batteries": strings.Join(win.offered, ", ")},
		Result: fmt.Sprintf("%s may answer %s's move with passing fire (%s) or decline; %s goes on after", win.side, u.ID, strings.Join(win.offered, ", "), b.phasing())})
}

// waiting says what play waits on while a window is open.
func (b *Battle) waiting() string {
	w := b.phase.window
	return fmt.Sprintf("play waits on %s, which may answer %s's move with passing fire (%s at %s) or decline it", w.side, w.mover, strings.Join(w.offered, ", "), w.mover)
}

// passingWhy is why bat may not pass fire at t now, in a battle whose moves are
// measured, or "".
func (b *Battle) passingWhy(bat, t *Unit) string {
	need, ok := passingDistance(t.Kind)
	if !ok {
		return fmt.Sprintf("%s is %s: passing fire answers moving infantry and cavalry, the units the text gives a distance for", t.ID, t.Kind)
	}
	w := b.phase.window
	got := b.phase.inArc[arcKey{t.ID, bat.ID}]
	if w != nil && w.mover == t.ID {
		if _, ok := w.trigger[bat.ID]; ok {
			return ""
		}
	}
	if got >= need-geom.Tolerance {
		return fmt.Sprintf("passing fire answers a move before the next action, and %s's move across %s's front has been answered or let pass", t.ID, bat.ID)
	}
	return fmt.Sprintf("%s has moved %s across %s's front within its arc this step, and %s must for %s: passing fire answers such a move", t.ID, fmtCm(got), bat.ID, t.Kind, fmtCm(need))
}

// closeWindow ends the window when no battery offered may still fire at the mover: they
// have fired, or the mover is gone; r records that it closed.
func (b *Battle) closeWindow(r *record) {
	w := b.phase.window
	if w == nil {
		return
	}
	w.offered = slices.DeleteFunc(w.offered, func(id string) bool { return slices.Contains(b.phase.done, id) })
	if mover := b.Unit(w.mover); len(w.offered) > 0 && mover != nil && !mover.Destroyed() {
		return
	}
	b.phase.window = nil
	r.Step("passing fire", map[string]any{"mover": w.mover}, fmt.Sprintf("answered: %s goes on", b.phasing()))
}

// resolveDecline lets the move pass: the phasing player goes on.
func (b *Battle) resolveDecline(r *record) error {
	w := b.phase.window
	if w == nil {
		return volley.Errorf(volley.ECONFLICT, "republique: there is no passing fire to decline: no enemy move waits for an answer")
	}
	b.phase.window = nil
	r.Step("decline", map[string]any{"side": w.side, "mover": w.mover}, fmt.Sprintf("%s lets %s's move pass without passing fire: %s goes on", w.side, w.mover, b.phasing()))
	return nil
}

// windowTurn is the turn as State shows it while a window is open: the answering side,
// what it may do, and decline as the action that ends the pause.
func (b *Battle) windowTurn() *volley.Turn {
	w := b.phase.window
	t := &volley.Turn{Side: w.side, Phase: "passing fire", Number: b.phase.number, Done: append([]string{}, b.phase.done...), End: map[string]any{"type": KindDecline}}
	for _, id := range w.offered {
		t.Actions = append(t.Actions, map[string]any{"type": KindPassing, "batteries": []string{id}, "target": w.mover})
	}
	t.Actions = append(t.Actions, map[string]any{"type": KindDecline})
	return t
}

// fireView is the battle a fire is worked out on: b itself, or a copy in which the
// batteries stand as the action states (the command line's "what if") and, for passing
// fire answering a move, the mover stands where it was when the batteries' distance was
// reached (the farthest along its path, for several). Only b is ever changed.
func (b *Battle) fireView(f *Fire) *Battle {
	w := b.phase.window
	ghost := b.moves && f.Passing && w != nil && w.mover == f.Target
	if !ghost && len(f.stated) == 0 {
		return b
	}
	c := b.copy()
	if ghost {
		s := 0.0
		for _, id := range f.Batteries {
			s = max(s, w.trigger[id])
		}
		if u := c.Unit(w.mover); u != nil && len(w.start) == len(u.Bases) {
			u.Bases, c.ghost = w.basesAt(s), u.ID
		}
	}
	c.state(f.stated)
	return c
}

// stated is what an action says of its batteries: a "what if" of the command line.
type stated struct {
	moved, limbered, saved *bool
}

// state sets the batteries as an action states them.
func (b *Battle) state(facts map[string]stated) {
	for id, s := range facts {
		u := b.Unit(id)
		if u == nil {
			continue
		}
		if s.moved != nil {
			u.Moved = *s.moved
		}
		if s.limbered != nil {
			u.Limbered = *s.limbered
		}
		if s.saved != nil {
			u.SavedFire = *s.saved
		}
	}
}

// rebind makes a plan worked out on a view refer to b's own units, so that resolving it
// changes b.
func (p *firePlan) rebind(b *Battle) {
	if p.target != nil {
		p.target = b.Unit(p.target.ID)
	}
	for i := range p.hit {
		p.hit[i] = b.Unit(p.hit[i].ID)
	}
	for i := range p.bats {
		p.bats[i].bat = b.Unit(p.bats[i].bat.ID)
	}
}

// movementStep is the trace's step of the facts of movement a fire or a save reads, as
// measured (or as the action states them), from edition 4.
func (b *Battle) movementStep(v *Battle, ids []string, facts map[string]stated, passing *Fire) volley.Step {
	in := map[string]any{}
	var parts []string
	for _, id := range ids {
		u := v.Unit(id)
		if u == nil {
			continue
		}
		var f []string
		flag := func(yes bool, y, n string, said *bool) {
			s := n
			if yes {
				s = y
			}
			if said != nil {
				s += " (as the action states)"
			}
			f = append(f, s)
		}
		st := facts[id]
		flag(u.Limbered, "limbered", "unlimbered", st.limbered)
		flag(u.Moved, "moved this player turn", "stationary", st.moved)
		flag(u.SavedFire, "saved fire", "no saved fire", st.saved)
		if l := b.phase.prolonged[id]; l > 0 {
			f = append(f, fmt.Sprintf("prolonged %s (enemy artillery's hits on it take effect at once)", fmtCm(l)))
		}
		in[id] = strings.Join(f, ", ")
		parts = append(parts, id+": "+strings.Join(f, ", "))
	}
	if passing != nil {
		if w := b.phase.window; w != nil && w.mover == passing.Target {
			s := 0.0
			for _, id := range passing.Batteries {
				if d, ok := w.trigger[id]; ok {
					s = max(s, d)
					parts = append(parts, fmt.Sprintf("%s moved %s across %s's front within its arc this step", w.mover, fmtCm(w.inArc[id]), id))
				}
			}
			at := centre(w.basesAt(s))
			in["fired_on_at"] = []float64{round3(at.X), round3(at.Y)}
			parts = append(parts, fmt.Sprintf("fired on where it stood then, %s along its move", fmtCm(s)))
		}
	}
	return volley.Step{Rule: "movement", Inputs: in, Result: strings.Join(parts, "; ")}
}
