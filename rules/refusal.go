package rules

import (
	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/scenario"
)

// Refusal is a rule system's refusal of a whole action (volley.Refuser), msg at the
// place the action, or the part of it at fault, is written.
func Refusal(at scenario.Pos, msg string) scenario.ErrorList {
	return scenario.ErrorList{{Pos: at, Msg: msg}}
}

// NotBegun is the refusal of an action taken while the sides still deploy, at the place
// it is written (from volley.EditionDeployTurns the battle begins once every side has
// deployed: volley.Tabletop.CheckBegun), or nil once the battle has begun.
func NotBegun(table *volley.Tabletop, at scenario.Pos) scenario.ErrorList {
	if err := table.CheckBegun(); err != nil {
		return Refusal(at, volley.ErrorMessage(err))
	}
	return nil
}
