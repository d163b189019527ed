package rulestest

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rules"
)

// TellSeed is the seed the words' goldens roll with: cmd/volley's resolve goldens' own.
const TellSeed = 7

// TellGolden tells, with r, the outcome of every action of every example of dir (a
// system's examples folder) that has actions, and of each scenario of extra (by name),
// played with the dice of TellSeed, each outcome read back from JSON as the server stores
// it. The words are held to testdata/tell/<name>.txt (-update rewrites them), and every
// line must read as words (CheckWords). A file that does not load as a battle (a tables
// file, a scenario naming one) is left out; an action the rules refuse ends its file's
// words with the refusal.
func TellGolden(t *testing.T, r volley.Ruleset, dir string, extra map[string][]byte) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// A file is read from disk (nil here), so that it may name its tables file.
	sources := map[string][]byte{}
	for _, f := range files {
		sources[strings.TrimSuffix(filepath.Base(f), ".yaml")] = nil
	}
	for name, src := range extra {
		sources[name] = src
	}
	told := 0
	for _, name := range slices.Sorted(maps.Keys(sources)) {
		got, ok := tellScenario(t, r, filepath.Join(dir, name+".yaml"), sources[name])
		if !ok {
			continue
		}
		told++
		t.Run(name, func(t *testing.T) {
			golden := filepath.Join("testdata", "tell", name+".txt")
			Golden(t, golden, got)
		})
	}
	if told == 0 {
		t.Fatalf("no scenario of %s has actions to tell", dir)
	}
}

// TellExamples is TellGolden for r's examples (examples/<r.Name()>, seen from the
// system's package folder), with one scenario more, "battle-round": the examples'
// battle.yaml played on with the actions of round, so that the words of a whole round
// are held too.
func TellExamples(t *testing.T, r volley.Ruleset, round string) {
	t.Helper()
	dir := filepath.Join("..", "..", "examples", r.Name())
	battle, err := os.ReadFile(filepath.Join(dir, "battle.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	TellGolden(t, r, dir, map[string][]byte{"battle-round": append(battle, round...)})
}

// tellScenario plays a scenario's actions and tells each outcome: "action N (kind):" and
// its lines, indented. src nil reads the file at path. It reports false for a scenario
// without actions or that does not load as a battle.
func tellScenario(t *testing.T, r volley.Ruleset, path string, src []byte) (string, bool) {
	t.Helper()
	name := path
	if src != nil {
		name = filepath.Base(path)
	}
	doc, err := parse(name, src)
	if err != nil {
		return "", false
	}
	_, b, first, err := rules.Open(doc)
	if err != nil {
		return "", false
	}
	script, err := rules.ScriptOf(doc, first)
	if err != nil || script.Len() == 0 {
		return "", false
	}
	var w strings.Builder
	for i := range script.Len() {
		a, _, err := script.Action(i, b)
		if err != nil {
			fmt.Fprintf(&w, "action %d does not decode: %v\n", i+1, err)
			break
		}
		out, err := b.Resolve(context.Background(), a, dice.ForAction(TellSeed, i))
		if err != nil {
			first, _, _ := strings.Cut(strings.TrimSpace(err.Error()), "\n")
			fmt.Fprintf(&w, "action %d (%s) is refused: %s\n", i+1, a.Kind(), first)
			break
		}
		raw, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		var stored volley.Outcome
		if err := json.Unmarshal(raw, &stored); err != nil {
			t.Fatal(err)
		}
		lines := volley.Tell(r, stored)
		CheckWords(t, fmt.Sprintf("%s, action %d", filepath.Base(path), i+1), lines)
		tellBare(t, r, stored)
		fmt.Fprintf(&w, "action %d (%s):\n", i+1, a.Kind())
		for _, l := range lines {
			fmt.Fprintf(&w, "  %s\n", l)
		}
	}
	return w.String(), true
}

// tellBare tells the outcome with every step's inputs and result taken away, then with
// each result a number: a log of an older edition, or a trace worded anew, may lack what
// the teller looks for, and it must still tell without failing.
func tellBare(t *testing.T, r volley.Ruleset, out volley.Outcome) {
	t.Helper()
	for _, result := range []any{nil, "", 1.5} {
		bare := out
		bare.Trace = make([]volley.Step, len(out.Trace))
		for i, s := range out.Trace {
			bare.Trace[i] = volley.Step{Rule: s.Rule, Inputs: map[string]any{}, Result: result}
		}
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("telling a bare outcome (results %v) panics: %v", result, p)
				}
			}()
			volley.Tell(r, bare)
		}()
	}
}

// notWords are what a line told for a player may not hold: JSON, a raw status code, a
// die written as a code ("d70 47"), a name of the code's, a number to a thousandth.
var notWords = []*regexp.Regexp{
	regexp.MustCompile(`[{}\[\]]`),
	regexp.MustCompile(`\b(not_eligible|out_of_range|out_of_arc|base_hits|morale_hits|pending_[a-z_]+|damage_points|hits_left|figures_left|models_left|suppression_markers)\b`),
	regexp.MustCompile(`\bd\d+ \d+\b`),
	regexp.MustCompile(`MaxDistanceMissedBy|\bTrace\b`),
	regexp.MustCompile(`\d\.\d{3,}`),
}

// CheckWords fails the test for a line told for people that is empty or holds what
// notWords lists, and for an outcome told in no line.
func CheckWords(t *testing.T, what string, lines []string) {
	t.Helper()
	if len(lines) == 0 {
		t.Errorf("%s: no words", what)
	}
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			t.Errorf("%s: an empty line", what)
		}
		for _, re := range notWords {
			if re.MatchString(l) {
				t.Errorf("%s: %q holds %q, not words a player reads", what, l, re.FindString(l))
			}
		}
	}
}
