package volley

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Teller is implemented by rule systems (their Ruleset) that can tell what an action
// did in words, a line for each thing that happened, for a player reading the log:
// "sabre-1 moved 3.5″", "Avenger Railgun → hunter-1: needs 2+, rolled 5, hit; 5 + 10
// against armour 13: 2 damage (critical)". The words are read off the outcome alone, so
// a log of any age can be told. The JSON stays what the API answers; this is for people.
type Teller interface {
	Tell(out Outcome) []string
}

// Tell tells an outcome in words: by its rule system, where it tells, else a line for
// each step of the trace that moved, deployed or ended something, and one for what
// happened to each target.
func Tell(rs Ruleset, out Outcome) []string {
	if t, ok := rs.(Teller); ok {
		if lines := t.Tell(out); len(lines) > 0 {
			return lines
		}
	}
	return TellPlainly(out)
}

// plainRules are the steps TellPlainly tells: those whose result is already a sentence
// for a player.
var plainRules = []string{"move", "deploy", "end of turn", "end phase", "end step", "take back", "offer to end", "end of deployment"}

// TellPlainly tells an outcome without its rule system: the results in words of its moves,
// deployments and turns, then each target's measures.
func TellPlainly(out Outcome) []string {
	var lines []string
	for _, s := range out.Trace {
		r, ok := s.Result.(string)
		if !ok || r == "" {
			continue
		}
		for _, p := range plainRules {
			if s.Rule == p || strings.HasPrefix(s.Rule, p+" ") {
				lines = append(lines, r)
				break
			}
		}
	}
	for _, t := range out.Targets {
		lines = append(lines, TellTarget(t))
	}
	return lines
}

// TellTarget says what an action did to one target, in its measures' own names: "hunter-2:
// 2 damage, 1 hit — destroyed".
func TellTarget(t TargetResult) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(t.Measures)) {
		parts = append(parts, fmt.Sprintf("%s %s", strings.ReplaceAll(k, "_", " "), strconv.FormatFloat(t.Measures[k], 'f', -1, 64)))
	}
	s := t.Target + ": " + strings.Join(parts, ", ")
	if t.Destroyed {
		s += " — destroyed"
	}
	return s
}
