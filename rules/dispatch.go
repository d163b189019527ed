package rules

import (
	"context"
	"fmt"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/scenario"
)

// The actions of a battle on a table played in turns that no text defines, for the
// systems whose battles are (Dropzone, Warfare, WarStrike): ending a side's turn,
// moving a unit, deploying it, ending a side's deployment. Each system says what a move
// and a deployment are; these functions only send each action to its own.

// TurnEnd is the action that ends the current side's turn (volley.Turns).
type TurnEnd struct{}

// Kind returns "end_turn".
func (*TurnEnd) Kind() string { return volley.EndTurn }

// DecodeTurnAction decodes an action of a battle played in turns, by the type doc gives:
// end_turn, end_deployment, and a move and a deployment with the system's move and
// deploy. It reports false for any other type: the system's own action.
func DecodeTurnAction[M, D volley.Action](doc *scenario.Doc, turns *volley.Turns, table *volley.Tabletop,
	move func(*scenario.Doc) (M, error), deploy func(*scenario.Doc) (D, error),
) (volley.Action, bool, error) {
	var a volley.Action
	var err error
	switch doc.Peek("type") {
	case volley.EndTurn:
		if err = turns.DecodeEndTurn(doc); err == nil {
			a = &TurnEnd{}
		}
	case volley.MoveAction:
		a, err = move(doc)
	case volley.DeployAction:
		a, err = deploy(doc)
	case volley.EndDeployment:
		a, err = table.DecodeEndDeployment(doc)
	default:
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err // no action: not a nil M in one
	}
	return a, true, nil
}

// Must is a as the system's own action of type A, for a system's Resolve, Aim or Cost
// once the engine's actions are dealt with: any other action there is the system's bug
// (its DecodeAction makes only its own), and panics.
func Must[A volley.Action](system string, a volley.Action) A {
	x, ok := a.(A)
	if !ok {
		panic(fmt.Sprintf("%s: action of type %T is not a %T", system, a, x))
	}
	return x
}

// ResolveTurnAction resolves an action of a battle played in turns as DecodeTurnAction
// decodes them, for the system named system: endTurn ends the turn (with whatever the
// system keeps of it), move and deploy resolve a move and a deployment. Every action but
// a deployment is refused while the sides deploy (from volley.EditionDeployTurns the
// battle begins once every side has deployed). It reports false, with no error, for the
// system's own action, to be resolved by the system.
func ResolveTurnAction[M, D volley.Action](ctx context.Context, system string, table *volley.Tabletop, a volley.Action, d *dice.Stream,
	endTurn func() []volley.Step, move func(M) (volley.Outcome, error), deploy func(D) (volley.Outcome, error),
) (volley.Outcome, bool, error) {
	if err := ctx.Err(); err != nil {
		return volley.Outcome{}, true, err
	}
	switch a := a.(type) {
	case D:
		out, err := deploy(a)
		out.Rolls = d.Rolls()
		return out, true, err
	case *volley.DeploymentEnd:
		steps, err := table.EndDeployment()
		if err != nil {
			return volley.Outcome{}, true, fmt.Errorf("%s: %w", system, err)
		}
		return volley.Outcome{Rolls: d.Rolls(), Trace: steps, Targets: []volley.TargetResult{}}, true, nil
	}
	if err := table.CheckBegun(); err != nil {
		return volley.Outcome{}, true, fmt.Errorf("%s: %w", system, err)
	}
	switch a := a.(type) {
	case *TurnEnd:
		return volley.Outcome{Rolls: d.Rolls(), Trace: endTurn(), Targets: []volley.TargetResult{}}, true, nil
	case M:
		out, err := move(a)
		out.Rolls = d.Rolls()
		return out, true, err
	}
	return volley.Outcome{}, false, nil
}

// TurnActor is the side that takes an action of a battle played in turns that names no
// unit: ending a turn is the side whose turn it is, ending a deployment the side
// deploying (or, with none, whose turn it is). It reports false for any other action.
func TurnActor(turns *volley.Turns, table *volley.Tabletop, a volley.Action) (string, bool) {
	switch a.(type) {
	case *TurnEnd:
		return turns.Current(), true
	case *volley.DeploymentEnd:
		if side := table.DeployingSide(); side != "" {
			return side, true
		}
		return turns.Current(), true
	}
	return "", false
}

// UnitActor is the side that takes action a of a battle played in turns: an end of a
// turn or of a deployment as TurnActor says, else the side of the unit the action names
// (a volley.UnitAction: a move, a deployment, a unit's own action), which sideOf gives
// ("" for an unknown unit). It reports false for an action that names no one unit: the
// system says whose that is.
func UnitActor(turns *volley.Turns, table *volley.Tabletop, a volley.Action, sideOf func(id string) string) (string, bool) {
	if side, ok := TurnActor(turns, table, a); ok {
		return side, true
	}
	if u, ok := a.(volley.UnitAction); ok {
		return sideOf(u.ActingUnit()), true
	}
	return "", false
}

// CheckKind refuses the type a system's own action is written with (typ, read when the
// action is not one of DecodeTurnAction's) unless it is kind or left out: the types the
// error lists are kind and end_turn, and move and deploy from volley.EditionMoves.
func CheckKind(doc *scenario.Doc, typ *string, kind string, errs *scenario.ErrorList) {
	if *typ == "" || *typ == kind {
		return
	}
	types := kind + ", end_turn"
	if volley.Moves(doc) {
		types = kind + ", move, deploy, end_turn"
	}
	errs.Add(doc.At(typ), "action type %q is not one of this system's: %s", *typ, types)
}

// TurnState is whose turn it is as a battle's State shows it: the deployment's while the
// sides deploy before the first turn (from volley.EditionDeployTurns), else turn.
func TurnState(turn *volley.Turn, table *volley.Tabletop) *volley.Turn {
	if t := table.DeployTurn(); t != nil {
		return t
	}
	return turn
}
