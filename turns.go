package volley

import (
	"fmt"
	"slices"

	"github.com/volley-wargames/volley/scenario"
)

// Turns is an order of play for rule systems whose text gives none of its own (Dropzone
// and Warfare describe a shot, not a game turn): the sides take turns in a fixed order,
// and in its turn each of a side's squads or units acts once, until the side ends its
// turn. With Alternate set the turn passes by itself after each action, so that the
// sides alternate activations one squad at a time. This order is volley's, not the
// source's; each system's docs/rules page says so.
//
// The zero Turns has no order: anyone may act at any time, as in edition 1 battles.
type Turns struct {
	// Order lists the sides in the order they play; empty for no turns.
	Order []string
	// Side is the index in Order of the side whose turn it is.
	Side int
	// Number counts the rounds from 1: it goes up when the first side's turn comes again.
	Number int
	// Done holds the squads or units that have acted this turn.
	Done []string
	// Alternate passes the turn after every action.
	Alternate bool
}

// TurnSpec is the `turn:` section of a scenario of a system that keeps Turns: where a
// battle begins. Every field may be left out.
type TurnSpec struct {
	// Order lists the sides in the order they play; by default, the order in which the
	// scenario's units first name them.
	Order []string `yaml:"order"`
	// Side is the side whose turn it is; by default the first of Order.
	Side string `yaml:"side"`
	// Number is the round; 1 by default.
	Number int `yaml:"number"`
	// Done names the squads or units that have acted this turn already.
	Done []string `yaml:"done"`
	// Activations is "turns" (a side acts with all its squads, then ends its turn: the
	// default) or "alternate" (the turn passes after each action).
	Activations string `yaml:"activations"`
}

// The values of a turn section's activations.
const (
	// ActivationsTurns: a side acts with all its squads or units, then ends its turn.
	ActivationsTurns = "turns"
	// ActivationsAlternate: the turn passes after each action.
	ActivationsAlternate = "alternate"
)

// Choices are the values of TurnSpec's string fields that allow only some.
func (TurnSpec) Choices() map[string][]any {
	return map[string][]any{"activations": scenario.Values(ActivationsTurns, ActivationsAlternate)}
}

// LoadTurns checks a turn section against the sides of the battle's units (in the order
// they appear) and the squads or units that may act (actors), and returns the Turns it
// describes. Errors are added to errs. A document read under edition 1 has no turns.
func LoadTurns(doc *scenario.Doc, t *TurnSpec, sides, actors []string, errs *scenario.ErrorList) Turns {
	if DocEdition(doc) < 2 {
		if doc.Pos(t).IsValid() {
			errs.Add(doc.At(t), "turn: an edition %d battle has no turns", DocEdition(doc))
		}
		return Turns{}
	}
	tu := Turns{Order: sides, Number: max(t.Number, 1)}
	if t.Order != nil {
		tu.Order = t.Order
		for i, s := range t.Order {
			if !slices.Contains(sides, s) {
				errs.Add(doc.At(&t.Order[i]), "turn: order: no unit is on side %q", s)
			}
			if slices.Index(t.Order, s) != i {
				errs.Add(doc.At(&t.Order[i]), "turn: order: side %q is listed twice", s)
			}
		}
		for _, s := range sides {
			if !slices.Contains(t.Order, s) {
				errs.Add(doc.At(&t.Order), "turn: order: side %q has units but no place in the order", s)
			}
		}
	}
	if t.Side != "" {
		tu.Side = slices.Index(tu.Order, t.Side)
		if tu.Side < 0 {
			errs.Add(doc.At(&t.Side), "turn: no unit is on side %q", t.Side)
			tu.Side = 0
		}
	}
	if t.Number < 0 {
		errs.Add(doc.At(&t.Number), "turn: number counts from 1")
	}
	for i, d := range t.Done {
		if !slices.Contains(actors, d) {
			errs.Add(doc.At(&t.Done[i]), "turn: done: no squad or unit %q%s", d, scenario.Hint(d, actors))
		} else if !slices.Contains(tu.Done, d) {
			tu.Done = append(tu.Done, d)
		}
	}
	switch t.Activations {
	case "", ActivationsTurns:
	case ActivationsAlternate:
		tu.Alternate = true
	default:
		errs.Add(doc.At(&t.Activations), `turn: activations: want "turns" or "alternate", got %q`, t.Activations)
	}
	return tu
}

// DocEdition is the edition a document is read under: its Edition, or the current one
// when it names none.
func DocEdition(doc *scenario.Doc) int {
	if doc.Edition == 0 {
		return Edition
	}
	return doc.Edition
}

// Kept reports whether there are turns at all.
func (t *Turns) Kept() bool { return len(t.Order) > 0 }

// Current is the side whose turn it is, or "" without turns.
func (t *Turns) Current() string {
	if !t.Kept() {
		return ""
	}
	return t.Order[t.Side]
}

// Acting are the sides that may act now: the side whose turn it is, or, without turns,
// every side (all, in the order the battle's units name them).
func (t *Turns) Acting(all []string) []string {
	if !t.Kept() {
		return all
	}
	return []string{t.Current()}
}

// Distinct is what of gives for a battle's units, each value once, in the order the
// units first give it: their sides, or their squads, in the order the scenario names
// them.
func Distinct[U any](units []U, of func(*U) string) []string {
	var out []string
	for i := range units {
		if v := of(&units[i]); !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// Check returns the error that keeps who, of side, from acting now: another side's turn
// (ECONFLICT, as the War Engine answers out of turn), or who has acted this turn already.
func (t *Turns) Check(side, who, what string) error {
	if !t.Kept() {
		return nil
	}
	if side != t.Current() {
		return Errorf(ECONFLICT, "it is %s's turn, and %s is %s's: wait for %s to end its turn", t.Current(), who, side, t.Current())
	}
	if slices.Contains(t.Done, who) {
		return Errorf(ECONFLICT, "%s %s has already acted this turn: each acts once a turn, and %s's next turn comes after the other sides'", what, who, side)
	}
	return nil
}

// GoesOn reports whether who, of side, is the unit acting now (acting) and may go on:
// its activation not over (it has not yet fired, or shot) and its side's turn not ended.
// A unit acting now may move again before it fires, where units act one at a time.
func (t *Turns) GoesOn(side, who, acting string, over bool) bool {
	return who == acting && !over && (!t.Kept() || side == t.Current())
}

// Closes is the unit acting now (acting) whose activation an action of who would end
// (Actor.Closes): "" when who is that unit, or none acts, or its activation is over.
func Closes(acting string, over bool, who string) string {
	if acting == "" || acting == who || over {
		return ""
	}
	return acting
}

// CheckActing is Check for a system whose units act one at a time, acting the unit
// acting now and over whether its activation is over: that unit may go on until it is,
// and then may not act again this turn (done says why: "has fired this turn: a unit moves
// before it fires, and acts once a turn"). This order is volley's, not the source's.
func (t *Turns) CheckActing(side, who, acting string, over bool, done string) error {
	switch {
	case t.GoesOn(side, who, acting, over):
		return nil
	case who == acting && over && t.Kept() && side == t.Current():
		return Errorf(ECONFLICT, "unit %s %s (volley's order of play, not in the source)", who, done)
	}
	return t.Check(side, who, "unit")
}

// ActivationEnds is what an action that ends a unit's activation (a fire, a shot) ends,
// for its offer: the side's turn when activations alternate, else the activation.
func (t *Turns) ActivationEnds() string {
	if t.Alternate {
		return EndsTurn
	}
	return EndsActivation
}

// Begin records that who has begun acting this turn (a squad's first move), without
// passing the turn: it may go on acting until another acts or the turn ends.
func (t *Turns) Begin(who string) {
	if t.Kept() && !slices.Contains(t.Done, who) {
		t.Done = append(t.Done, who)
	}
}

// Acted records that who has acted, and passes the turn if activations alternate. It
// returns the steps of the trace that say so.
func (t *Turns) Acted(who string) []Step {
	if !t.Kept() {
		return nil
	}
	t.Begin(who)
	if t.Alternate {
		return t.End()
	}
	return nil
}

// End ends the current side's turn: the next side's begins with nothing done, and a new
// round when the order comes round again. It returns the trace's step.
func (t *Turns) End() []Step {
	from := t.Current()
	t.Done = nil
	t.Side++
	if t.Side == len(t.Order) {
		t.Side, t.Number = 0, t.Number+1
	}
	return []Step{{Rule: "end of turn", Inputs: map[string]any{"side": from}, Result: fmt.Sprintf("%s's turn %d", t.Current(), t.Number)}}
}

// Clone returns a copy that shares nothing with t, so that a resolution can work on it
// and keep it only if nothing fails.
func (t Turns) Clone() Turns {
	t.Done = slices.Clone(t.Done)
	return t
}

// EndTurn is the action that ends a side's turn in a system that keeps Turns, as the
// page sends it.
const EndTurn = "end_turn"

// DecodeEndTurn decodes an action whose type is end_turn, which says nothing else, for
// a battle that keeps t.
func (t *Turns) DecodeEndTurn(doc *scenario.Doc) error {
	var spec BareAction
	return doc.DecodeChecked(&spec, func(errs *scenario.ErrorList) {
		if !t.Kept() {
			errs.Add(doc.At(&spec.Type), "end_turn: this battle keeps no turns (it began under edition %d)", DocEdition(doc))
		}
	})
}

// View is the turn as State shows it, or nil without turns.
func (t *Turns) View() *Turn {
	if !t.Kept() {
		return nil
	}
	return &Turn{Side: t.Current(), Phase: "turn", Number: t.Number, Done: slices.Clone(t.Done), End: map[string]any{"type": EndTurn}}
}
