package warengine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/volley-wargames/volley/scenario"
)

// The turn. Sides take turns in the order their first unit appears in the scenario; a
// side's turn is its move phase (Phase I, from edition 4), its target phase and its fire
// phase, each ended by end_phase.

// loadTurn reads the sides and where the battle begins: the scenario's turn, else the
// first side's first phase.
func (b *Battle) loadTurn(doc *scenario.Doc, t *turnSpec, errs *scenario.ErrorList) {
	for i := range b.units {
		if !slices.Contains(b.sides, b.units[i].Side) {
			b.sides = append(b.sides, b.units[i].Side)
		}
	}
	b.phase = t.Phase
	b.side = t.Side
	b.round = max(t.Number, 1)
	if t.Number < 0 {
		errs.Add(doc.At(&t.Number), "turn: number counts from 1")
	}
	if b.side == "" && len(b.sides) > 0 {
		b.side = b.sides[0]
	}
	if b.phase == "" {
		// A turn begins with its Phase I, where the side has one to play (loadMoves).
		b.phase = PhaseTarget
		if b.moves && b.hasMover(b.side) {
			b.phase = PhaseMove
		}
	}
	if t.Side != "" && !slices.Contains(b.sides, t.Side) {
		errs.Add(doc.At(&t.Side), "turn: no unit is on side %q", t.Side)
	}
}

// endPhase ends the phase under way: Phase I for the target phase, the target phase for
// the fire phase, the fire phase for the next side's turn.
func (b *Battle) endPhase(r *record) {
	from := b.phase
	if b.phase == PhaseMove {
		b.phase = PhaseTarget
		r.step("end phase", map[string]any{"side": b.side, "phase": string(from)}, b.phaseIWords())
		return
	}
	if b.phase == PhaseTarget {
		b.phase = PhaseFire
		r.step("end phase", map[string]any{"side": b.side, "phase": string(from)}, "fire phase: found targets are ready to fire")
		// A stunned unit sits this fire phase out.
		for i := range b.units {
			if u := &b.units[i]; u.Side == b.side && u.StunnedFor > 0 {
				u.StunnedFor--
				u.Stunned = true
				r.step("stunned", map[string]any{"unit": u.ID}, "may not fire this phase")
			}
		}
		return
	}
	// The fire phase ends the side's turn: what was not fired is dropped, and groups
	// are chosen afresh next turn.
	for i := range b.units {
		if u := &b.units[i]; u.Side == b.side {
			u.Declared, u.Group, u.Stunned = nil, 0, false
		}
	}
	next := b.sides[0]
	for i, s := range b.sides {
		if s == b.side {
			next = b.sides[(i+1)%len(b.sides)]
		}
	}
	if next == b.sides[0] {
		b.round++
	}
	if !b.moves {
		r.step("end phase", map[string]any{"side": b.side, "phase": string(from)}, fmt.Sprintf("%s's target phase", next))
		b.side, b.phase = next, PhaseTarget
		return
	}
	// From edition 4 the next side's turn begins with its Phase I, where its units move;
	// a side with no unit that may move has none to play (not in the source), and its
	// units, having stood still, aim.
	ended := b.side
	b.side = next
	b.beginPhaseI(next)
	result := fmt.Sprintf("%s's move phase (Phase I)", next)
	b.phase = PhaseMove
	if !b.hasMover(next) {
		b.phase = PhaseTarget
		result = fmt.Sprintf("%s's target phase: no unit of it may move (no move: in its types), so its Phase I is passed and its units aim", next)
	}
	r.step("end phase", map[string]any{"side": ended, "phase": string(from)}, result)
}

// hasMover reports whether side has a unit that may leave its squares, and so a Phase I
// to play.
func (b *Battle) hasMover(side string) bool {
	return slices.ContainsFunc(b.units, func(u Unit) bool { return u.Side == side && u.canMove() })
}

// beginPhaseI starts side's Phase I: none of its units has moved, so each is aiming
// until it moves.
func (b *Battle) beginPhaseI(side string) {
	for i := range b.units {
		if u := &b.units[i]; u.Side == side {
			u.Moved, u.diagonals, u.Aiming, u.measured = 0, 0, true, true
		}
	}
}

// phaseIWords lists, at the end of a Phase I, which of the side's units aim.
func (b *Battle) phaseIWords() string {
	var aim, not []string
	for i := range b.units {
		if u := &b.units[i]; u.Side == b.side && !u.Destroyed() {
			if u.Aiming {
				aim = append(aim, u.ID)
			} else {
				not = append(not, u.ID)
			}
		}
	}
	words := "target phase"
	if len(aim) > 0 {
		words += "; aiming (stood still in Phase I): " + strings.Join(aim, ", ")
	}
	if len(not) > 0 {
		words += "; not aiming (moved): " + strings.Join(not, ", ")
	}
	return words
}
