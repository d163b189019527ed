package rules

import (
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/scenario"
)

// Refusal is a rule system's refusal of a whole action (volley.Refuser), msg at the
// place the action, or the part of it at fault, is written.
func Refusal(at scenario.Pos, msg string) scenario.ErrorList {
	return scenario.ErrorList{{Pos: at, Msg: msg}}
}

// RefusalOf is the Refusal of err at at, or nil for a nil err: err worded as a player
// may read it (volley.ErrorMessage: an internal error is not described), without the
// rule system's prefix pkg ("warfare"; "" for an error of the engine's, which has none).
func RefusalOf(at scenario.Pos, err error, pkg string) scenario.ErrorList {
	if err == nil {
		return nil
	}
	msg := volley.ErrorMessage(err)
	if pkg != "" {
		msg = strings.TrimPrefix(msg, pkg+": ")
	}
	return Refusal(at, msg)
}

// NotBegun is the refusal of an action taken while the sides still deploy, at the place
// it is written (from volley.EditionDeployTurns the battle begins once every side has
// deployed: volley.Tabletop.CheckBegun), or nil once the battle has begun.
func NotBegun(table *volley.Tabletop, at scenario.Pos) scenario.ErrorList {
	return RefusalOf(at, table.CheckBegun(), "")
}

// MoveRefusals are the refusals of a move written at at: the battle not begun (NotBegun),
// else refuse's, the system's own (what it may not do by its rules), asked only once the
// battle has begun.
func MoveRefusals(table *volley.Tabletop, at scenario.Pos, refuse func() scenario.ErrorList) scenario.ErrorList {
	if list := NotBegun(table, at); list != nil {
		return list
	}
	return refuse()
}
