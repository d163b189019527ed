// Package rules is the registry of rule systems. Each system lives in a package under
// rules/ and registers itself from init, as database/sql drivers do; only cmd/volley
// imports them all.
package rules

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/opponent"
	"github.com/volley-wargames/volley/scenario"
)

var (
	mu       sync.RWMutex
	registry = map[string]volley.Ruleset{}
)

// Register makes a rule system available by its name. Registering two systems under one
// name is a programming error and panics.
func Register(r volley.Ruleset) {
	mu.Lock()
	defer mu.Unlock()
	name := r.Name()
	if name == "" {
		panic("rules: Register with an empty name")
	}
	if _, dup := registry[name]; dup {
		panic("rules: Register called twice for " + name)
	}
	registry[name] = r
}

// Lookup returns the rule system registered under name.
func Lookup(name string) (volley.Ruleset, bool) {
	mu.RLock()
	defer mu.RUnlock()
	r, ok := registry[name]
	return r, ok
}

// Names lists the registered rule systems in alphabetical order.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Open loads a scenario document with the rule system its `ruleset:` key names: the
// battle and the action of its `action:` section (nil if it has none).
func Open(doc *scenario.Doc) (volley.Ruleset, volley.Battle, volley.Action, error) {
	name, err := doc.Ruleset()
	if err != nil {
		// Always a list, so that callers print every scenario error the same way.
		var one *scenario.Error
		if errors.As(err, &one) {
			return nil, nil, nil, scenario.ErrorList{one}
		}
		return nil, nil, nil, err
	}
	r, ok := Lookup(name)
	if !ok {
		var list scenario.ErrorList
		list.Add(doc.Section("ruleset").Root(), "unknown ruleset %q (known: %s)", name, strings.Join(Names(), ", "))
		return nil, nil, nil, list.Err()
	}
	b, a, err := r.Load(doc)
	if err != nil {
		// The end and opponent sections are checked in full once the battle loads
		// (below); what in them needs no battle is reported now, with the loader's
		// errors, so that a file's author sees every mistake at once.
		var list scenario.ErrorList
		if !doc.Accepted && errors.As(err, &list) && !slices.ContainsFunc(list, (*scenario.Error).IsMore) {
			// (A list cut short already says to fix those first: nothing is added.)
			more := append(volley.EndProblems(doc), opponent.SeatProblems(doc)...)
			return nil, nil, nil, scenario.Merge(list, more).Err()
		}
		return nil, nil, nil, err
	}
	if !doc.Accepted {
		if err := checkNames(doc, b); err != nil {
			return nil, nil, nil, err
		}
		// The end and opponent sections name units and sides: checked here, once the
		// battle has loaded, for every rule system alike, and reported together.
		var list scenario.ErrorList
		_, endErr := volley.ReadEnd(doc, b)
		_, seatErr := opponent.ReadSeat(doc, b)
		for _, err := range []error{endErr, seatErr} {
			var l scenario.ErrorList
			switch {
			case err == nil:
			case errors.As(err, &l):
				list = append(list, l...)
			default:
				return nil, nil, nil, err
			}
		}
		if err := list.Err(); err != nil {
			return nil, nil, nil, err
		}
	}
	return r, b, a, nil
}

// checkNames checks the names a battle's units, sides and squads go by, in every
// rule system alike (scenario.CheckName), and that no two of them look alike without being
// the same (scenario.Confusable). Each error is at the first place the name is written.
func checkNames(doc *scenario.Doc, b volley.Battle) error {
	type named struct {
		what string
		kind scenario.NameKind
		s    string
	}
	var names []named
	for _, u := range b.State().Units {
		names = append(names, named{"unit id", scenario.ID, u.ID}, named{"side", scenario.Name, u.Side})
		if u.Name != "" {
			names = append(names, named{"unit name", scenario.Name, u.Name})
		}
	}
	if t, ok := b.(volley.Table); ok {
		v := t.Table()
		for _, u := range v.Units {
			names = append(names, named{"id", scenario.ID, u.ID})
			if u.Squad != "" {
				names = append(names, named{"squad", scenario.ID, u.Squad})
			}
		}
	}
	var errs scenario.ErrorList
	seen := map[string]bool{}
	bySkeleton := map[string]string{}
	for _, n := range names {
		key := n.what + "\x00" + n.s
		if n.s == "" || seen[key] {
			continue
		}
		seen[key] = true
		if problem := scenario.CheckName(n.s, n.kind); problem != "" {
			errs.Add(doc.ValuePos(n.s), "the %s %q %s", n.what, truncate(n.s), problem)
			continue
		}
		sk := scenario.Skeleton(n.s)
		if other, ok := bySkeleton[sk]; ok && other != n.s {
			errs.Add(doc.ValuePos(n.s), "the %s %q looks like %q, another name of this battle: a player could not tell them apart", n.what, n.s, other)
			continue
		}
		bySkeleton[sk] = n.s
	}
	return errs.Err()
}

// truncate shortens a long name for a message.
func truncate(s string) string {
	if r := []rune(s); len(r) > scenario.MaxNameLength {
		return string(r[:scenario.MaxNameLength]) + "…"
	}
	return s
}

// Check loads a scenario document as Open does and plays its script (its action, then
// each of its actions: Script), adding every refusal of each by the rules
// (volley.Refuser), each at the place that declares the refused shot or move: all a
// scenario's author has to fix, as one sorted scenario.ErrorList. An action is played
// (with the dice of seed 0) only when none of it is refused, since the ones after it are
// asked of the battle it leaves; the first refused stops the play. Each action's work is
// bounded already: a rule system's loader refuses an action that would cost more than
// volley.MaxWork. A scenario that does not load has no battle to ask, so its refusals
// wait until its errors are fixed: they could follow only from them.
func Check(ctx context.Context, doc *scenario.Doc) (volley.Ruleset, volley.Battle, volley.Action, error) {
	r, b, a, err := Open(doc)
	if err != nil {
		return r, b, a, err
	}
	script, err := ScriptOf(doc, a)
	if err != nil {
		return r, b, a, err
	}
	ref, _ := b.(volley.Refuser)
	var all scenario.ErrorList
	for i := range script.Len() {
		act, at, err := script.Action(i, b)
		if err != nil {
			return r, b, a, err
		}
		if ref != nil {
			list, err := ref.Refusals(ctx, act)
			if err != nil {
				return r, b, a, err
			}
			if len(list) > 0 {
				all = append(all, list...)
				break
			}
		}
		if i == script.Len()-1 {
			break
		}
		if _, err := b.Resolve(ctx, act, dice.ForAction(0, i)); err != nil {
			pos := doc.Root()
			if at != nil {
				pos = at.Root()
			}
			all.Add(pos, "action %d (%s) is refused: %v", i+1, act.Kind(), err)
			break
		}
	}
	return r, b, a, all.Err()
}
