package rules

import (
	"context"
	"fmt"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/scenario"
)

// Script is a scenario's actions in the order they are played: its `action:` section
// (decoded by the rule system's Load), then each item of its `actions:` list. An item is
// decoded only when its turn comes, against the battle as the actions before it left it:
// a move, then a shot from where the unit stopped.
type Script struct {
	first volley.Action
	items []*scenario.Doc
}

// ScriptOf reads the script of a scenario loaded with its action first (nil without an
// `action:` section). An `actions:` that is not a list is an error at its place.
func ScriptOf(doc *scenario.Doc, first volley.Action) (*Script, error) {
	s := &Script{first: first}
	sec := doc.Section("actions")
	if sec == nil {
		return s, nil
	}
	items, ok := sec.Items()
	if !ok {
		return nil, scenario.ErrorList{{Pos: sec.Root(), Msg: "actions: a list of actions, each in the form of an action: section, played in order"}}
	}
	s.items = items
	return s, nil
}

// Len is how many actions the script plays.
func (s *Script) Len() int {
	n := len(s.items)
	if s.first != nil {
		n++
	}
	return n
}

// Action decodes action n (from 0) against b, which must be the battle after actions 0
// to n-1. It returns where the action is written, for errors.
func (s *Script) Action(n int, b volley.Battle) (volley.Action, *scenario.Doc, error) {
	if s.first != nil {
		if n == 0 {
			return s.first, nil, nil
		}
		n--
	}
	doc := s.items[n]
	a, err := b.DecodeAction(doc)
	return a, doc, err
}

// Play resolves the script's first n actions on b, action i with the dice of (seed, i),
// and returns their outcomes. It stops at the first action that fails to decode or that
// the rules refuse, with an error that says which it is and where it is written.
func (s *Script) Play(ctx context.Context, b volley.Battle, seed uint64, n int) ([]volley.Outcome, error) {
	var outs []volley.Outcome
	for i := range n {
		a, doc, err := s.Action(i, b)
		if err != nil {
			return outs, err
		}
		out, err := b.Resolve(ctx, a, dice.ForAction(seed, i))
		if err != nil {
			if doc != nil && volley.ErrorCode(err) != volley.EINTERNAL {
				return outs, scenario.ErrorList{{Pos: doc.Root(), Msg: fmt.Sprintf("action %d (%s) is refused: %s", i+1, a.Kind(), strings.TrimSpace(err.Error()))}}
			}
			return outs, err
		}
		outs = append(outs, out)
	}
	return outs, nil
}
