package volley

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"regexp"
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
// Dice rolled by hand are told first, as the players' own.
func Tell(rs Ruleset, out Outcome) []string {
	lines := tellHand(out)
	if t, ok := rs.(Teller); ok {
		if told := t.Tell(out); len(told) > 0 {
			return append(lines, told...)
		}
	}
	return append(lines, TellPlainly(out)...)
}

// tellHand says whose hands rolled an outcome's dice, when players rolled them: "rolled
// by hand by UCM, not by the server: 4 and 6 on d6".
func tellHand(out Outcome) []string {
	if len(out.Rolls) == 0 || out.Rolls[0].By == "" {
		return nil
	}
	faces := make([]string, len(out.Rolls))
	for i, r := range out.Rolls {
		faces[i] = fmt.Sprintf("%d (d%d)", r.Value, r.Sides)
	}
	return []string{fmt.Sprintf("rolled by hand by %s, not by the server: %s", out.Rolls[0].By, strings.Join(faces, ", "))}
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

// The helpers below are for the rule systems' tellers, which read a step's inputs as the
// server stored them (numbers come back from JSON as float64) or as Resolve built them
// (ints, float64s, strings).

// Number is the step's input key as a number, whichever way the step was built; false
// when it has none.
func (s Step) Number(key string) (float64, bool) {
	switch v := s.Inputs[key].(type) {
	case float64:
		return v, true
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	case float32:
		return float64(v), true
	case json.Number:
		f, err := v.Float64()
		return f, err == nil
	}
	return 0, false
}

// Text is the step's input key in words: a string as it is, a number as FormatNumber
// writes it, a bool as yes or no; "" for anything else.
func (s Step) Text(key string) string {
	switch v := s.Inputs[key].(type) {
	case string:
		return v
	case bool:
		if v {
			return "yes"
		}
		return "no"
	}
	if x, ok := s.Number(key); ok {
		return FormatNumber(x)
	}
	return ""
}

// Sentence is the step's result when it is text, its numbers tidied (TidyNumbers); ""
// otherwise.
func (s Step) Sentence() string {
	r, _ := s.Result.(string)
	return TidyNumbers(r)
}

// FormatNumber writes a number for people: at most two decimals, no trailing zeros
// (3.16, 6, 0.5).
func FormatNumber(x float64) string {
	s := strconv.FormatFloat(math.Round(x*100)/100, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		return "0"
	}
	return s
}

// longDecimal is a number with three or more decimals in a text.
var longDecimal = regexp.MustCompile(`\d+\.\d{3,}`)

// TidyNumbers rounds every number of a text that has more than two decimals to two, for
// a trace's words written at a thousandth ("moved 3.162\"" reads "moved 3.16\"").
func TidyNumbers(s string) string {
	return longDecimal.ReplaceAllStringFunc(s, func(n string) string {
		x, err := strconv.ParseFloat(n, 64)
		if err != nil {
			return n
		}
		return FormatNumber(x)
	})
}

// TellTurnEnd tells the step with which Turns ends a side's turn: "UCM ends its turn;
// Scourge's turn, round 2". It is "" for any other step.
func TellTurnEnd(s Step) string {
	if s.Rule != "end of turn" {
		return ""
	}
	next := s.Sentence()
	if i := strings.LastIndex(next, "'s turn "); i > 0 {
		next = next[:i] + "'s turn, round " + next[i+len("'s turn "):]
	}
	if from := s.Text("side"); from != "" {
		return fmt.Sprintf("%s ends its turn; %s", from, next)
	}
	return next
}

// TellStep tells a step a system has no words of its own for: the end of a side's turn
// as TellTurnEnd tells it, any other step as its sentence ("" where it has none).
func TellStep(s Step) string {
	if line := TellTurnEnd(s); line != "" {
		return line
	}
	return s.Sentence()
}
