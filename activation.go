package volley

import "maps"

// Activation is where a side's turn stands in a battle whose units act one at a time in
// their side's turn (Turns), as Warfare's and the test-only toy's do: the unit acting
// now, whether its action is over (a unit moves, then fires or shoots, and that ends it),
// and how far each unit has moved this turn. No text gives this order: it is volley's,
// and each system's docs/rules page says so. The zero Activation has nobody acting.
type Activation struct {
	Unit  string
	Over  bool
	Moved map[string]float64
}

// CheckMove returns the error that keeps unit id of side from moving now
// (Turns.CheckActing): done says what ended its action ("has fired this turn: a unit
// moves before it fires").
func (a *Activation) CheckMove(t *Turns, side, id, done string) error {
	return t.CheckActing(side, id, a.Unit, a.Over, done)
}

// CheckAct returns the error that keeps unit id of side from taking the action that ends
// its activation (a fire, a shot): out of its side's turn, or it has acted. The unit
// acting now may, after its moves.
func (a *Activation) CheckAct(t *Turns, side, id string) error {
	if t.GoesOn(side, id, a.Unit, a.Over) {
		return nil
	}
	return t.Check(side, id, "unit")
}

// Left is how far unit id may still move this turn of its allowance, never below 0.
func (a *Activation) Left(id string, allowance float64) float64 {
	return max(allowance-a.Moved[id], 0)
}

// Move records that unit id moved length: it is the unit acting now from its first move.
func (a *Activation) Move(t *Turns, id string, length float64) {
	if a.Unit != id {
		a.Unit, a.Over = id, false
		t.Begin(id)
	}
	if a.Moved == nil {
		a.Moved = map[string]float64{}
	}
	a.Moved[id] += length
}

// Acted records that unit id took the action that ends its activation; where activations
// alternate the turn passes (Turns.Acted), and nobody acts or has moved in the next. It
// returns the trace's steps that say so.
func (a *Activation) Acted(t *Turns, id string) []Step {
	a.Unit, a.Over = id, true
	steps := t.Acted(id)
	if len(steps) > 0 {
		*a = Activation{}
	}
	return steps
}

// EndTurn ends the side's turn (Turns.End): nobody acts, nobody has moved.
func (a *Activation) EndTurn(t *Turns) []Step {
	*a = Activation{}
	return t.End()
}

// Closes is the unit acting now whose activation an action of unit id would end
// (Actor.Closes), "" for none.
func (a *Activation) Closes(id string) string { return Closes(a.Unit, a.Over, id) }

// Clone returns a copy that shares nothing with a, for a battle's fork.
func (a Activation) Clone() Activation {
	a.Moved = maps.Clone(a.Moved)
	return a
}
