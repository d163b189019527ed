package volley

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/scenario"
)

// Ruleset is one rule system for shooting. Each lives in its own package under rules/ and
// registers itself there from init.
type Ruleset interface {
	// Name is the value of a scenario's `ruleset:` key that selects this system.
	Name() string
	// Load decodes a scenario written for this system: the battlefield, the units and
	// their weapons, the options, and the action in its `action:` section. The action is
	// nil when the scenario has none. Every problem in the file is reported at once, as a
	// scenario.ErrorList.
	Load(doc *scenario.Doc) (Battle, Action, error)
}

// Battle is a battle in progress under one rule system. Its state changes only through
// Resolve; Aim and Odds never roll and never change it, so that several of them may run
// at once on one battle.
//
// Aim, Odds and Resolve stop and return ctx's error when ctx is done, the battle as it
// was. Their work is known before they start: Cost counts it, and DecodeAction refuses an
// action that would cost more than MaxWork.
type Battle interface {
	// DecodeAction decodes an action in this system's form: the same form as a scenario's
	// `action:` section, which is also what the HTTP API accepts. Errors carry positions.
	DecodeAction(doc *scenario.Doc) (Action, error)
	// Cost is the work Aim, Odds or Resolve of the action would do, in MaxWork's units,
	// whichever of them it is: an upper bound, found without doing the work.
	Cost(a Action) int64
	// Aim says, for every shot the action declares, whether it is possible and why not,
	// with the range, every modifier and the true chance to hit.
	Aim(ctx context.Context, a Action) ([]Aim, error)
	// Odds gives the exact distribution of every outcome of the action.
	Odds(ctx context.Context, a Action) (Odds, error)
	// Resolve rolls the action's dice from d, applies the result and returns it with the
	// trace. If it returns an error the battle is exactly as it was.
	Resolve(ctx context.Context, a Action, d *dice.Stream) (Outcome, error)
	// State is the battle as players see it now.
	State() State
	// Actor is the side an action is taken for: the side whose player may send it. Ask it
	// before resolving the action: an action that ends a turn belongs to the side whose
	// turn it was.
	Actor(a Action) string
}

// Noter is implemented by battles with something to say of how their scenario was read
// beyond its errors, such as a declared target moved into a weapon's envelope. `volley
// check` prints the notes.
type Noter interface {
	Notes() []string
}

// Refuser is implemented by battles that can say, before a die is rolled, why the rules
// refuse an action: what Resolve would refuse, one error for each refused shot, each at
// the place in the action's document that declares it and naming the rule that decides.
// An action the rules allow has none. `volley check` reports them with the scenario's
// other errors (see rules.Check), so that a scenario whose shot cannot happen does not
// pass. The error is for work stopped by ctx.
type Refuser interface {
	Refusals(ctx context.Context, a Action) (scenario.ErrorList, error)
}

// Action is one thing a player does: a squad's shooting, a declared target, a fire order.
// Its concrete type belongs to the rule system that decoded it.
type Action interface {
	// Kind names the action in the rule system's words, e.g. "shoot".
	Kind() string
}

// Sampler is implemented by battles that can draw outcomes of an action quickly, without
// applying them or recording a trace. Monte Carlo simulation needs it; exact odds do not.
type Sampler interface {
	Sampler(a Action) (*Sim, error)
}

// Sim draws outcomes of one action for Monte Carlo. Draw fills out with one value per
// (target, measure) pair, target-major: out[t*len(Measures)+m].
type Sim struct {
	Targets  []string
	Measures []string
	// Destroyed is the index in Measures of a 0/1 measure that says the target was
	// destroyed, or -1.
	Destroyed int
	Draw      func(d *dice.Stream, out []int)
}

// ReplayAction decodes a logged action against a battle and resolves it with d, the
// dice of its place in the log: what a server does to rebuild a battle and what `volley
// verify` does to check one. body is the action as it was sent. actor is the side the
// action belongs to, asked before it was resolved.
func ReplayAction(ctx context.Context, b Battle, body string, d *dice.Stream) (a Action, actor string, out Outcome, err error) {
	doc, err := scenario.Parse("action", []byte(body))
	if err != nil {
		return nil, "", Outcome{}, err
	}
	a, err = b.DecodeAction(doc)
	if err != nil {
		return nil, "", Outcome{}, err
	}
	actor = b.Actor(a)
	out, err = b.Resolve(ctx, a, d)
	return a, actor, out, err
}

// SameResult reports whether two resolutions of an action rolled the same dice and did
// the same to every target, landing on the same squares. The trace is left out: it is
// prose for people, and a new version of volley may word a step better without changing
// what happened. Landings are compared when both outcomes record them; logs written
// before volley recorded them have none.
func SameResult(a, b Outcome) bool {
	if len(a.Rolls) != len(b.Rolls) || len(a.Targets) != len(b.Targets) {
		return false
	}
	if len(a.Landed) > 0 && len(b.Landed) > 0 && !slices.Equal(a.Landed, b.Landed) {
		return false
	}
	for i := range a.Rolls {
		if a.Rolls[i] != b.Rolls[i] {
			return false
		}
	}
	ta, _ := json.Marshal(a.Targets)
	tb, _ := json.Marshal(b.Targets)
	return string(ta) == string(tb)
}
