// Package rules is the registry of rule systems. Each system lives in a package under
// rules/ and registers itself from init, as database/sql drivers do; only cmd/volley
// imports them all.
package rules

import (
	"context"
	"errors"
	"sort"
	"strings"
	"sync"

	"github.com/volley-wargames/volley"
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
		return nil, nil, nil, err
	}
	return r, b, a, nil
}

// Check loads a scenario document as Open does and, when it loads and has an action,
// adds every refusal of that action by the rules (volley.Refuser), each at the place that
// declares the refused shot: all a scenario's author has to fix, as one sorted
// scenario.ErrorList. The action's work is bounded already: a rule system's loader
// refuses an action that would cost more than volley.MaxWork. A scenario that does not load has no battle to ask, so its
// refusals wait until its errors are fixed: they could follow only from them.
func Check(ctx context.Context, doc *scenario.Doc) (volley.Ruleset, volley.Battle, volley.Action, error) {
	r, b, a, err := Open(doc)
	if err != nil || a == nil {
		return r, b, a, err
	}
	ref, ok := b.(volley.Refuser)
	if !ok {
		return r, b, a, nil
	}
	list, err := ref.Refusals(ctx, a)
	if err != nil {
		return r, b, a, err
	}
	return r, b, a, list.Err()
}
