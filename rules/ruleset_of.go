package rules

import (
	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/scenario"
)

// RulesetOf is a rule system's volley.Ruleset made of what every one is: its name, its
// scenario's type F, the load that builds its battle from one and the decode of its
// `action:` section (Load). A system that says no more of itself (a schema, the words of
// its trace) needs no Ruleset type of its own.
type RulesetOf[F any, B volley.Battle] struct {
	System string
	Build  func(*scenario.Doc, *F, *scenario.ErrorList) B
	Decode func(B, *scenario.Doc) (volley.Action, error)
}

// Name returns the system's name.
func (r RulesetOf[F, B]) Name() string { return r.System }

// Load reads a scenario of the system and the action of its `action:` section, if any
// (Load: every mistake of the file reported at once).
func (r RulesetOf[F, B]) Load(doc *scenario.Doc) (volley.Battle, volley.Action, error) {
	var f F
	return Load(doc, &f, r.Build, r.Decode)
}
