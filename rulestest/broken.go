package rulestest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// MinMistakes is how many mistakes a rule system's broken scenarios hold at least:
// the common ones a new author makes (typos, wrong kinds, out of arc, out of range,
// unreachable targets).
const MinMistakes = 10

// mistakeMark ends a line of a broken scenario that holds one mistake: "# mistake: why".
var mistakeMark = regexp.MustCompile(`#\s*mistake:`)

// BrokenScenarios checks a rule system's broken scenarios, the files *.yaml of dir, as
// `volley check` reports them (rules.Check): every line marked `# mistake: …` has
// exactly one error, and no other line has any, so that one mistake never hides behind
// another's cascade nor costs its author a second message; the errors, with their
// line:col, are those of the file's .golden beside it (refresh with -update). The files
// hold MinMistakes mistakes at least between them.
func BrokenScenarios(t *testing.T, dir string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no broken scenarios in %s: %v", dir, err)
	}
	total := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		marked := map[int]bool{}
		for i, line := range strings.Split(string(src), "\n") {
			if mistakeMark.MatchString(line) {
				marked[i+1] = true
			}
		}
		total += len(marked)
		t.Run(filepath.Base(f), func(t *testing.T) {
			list := checkErrors(t, f)
			perLine := map[int]int{}
			for _, e := range list {
				perLine[e.Pos.Line]++
				if !marked[e.Pos.Line] {
					t.Errorf("an error on a line without a mistake: %v", e)
				}
			}
			for line := range marked {
				if perLine[line] != 1 {
					t.Errorf("line %d holds one mistake and has %d errors", line, perLine[line])
				}
			}
			got := list.Error() + "\n"
			golden := strings.TrimSuffix(f, ".yaml") + ".golden"
			Golden(t, golden, got)
		})
	}
	if total < MinMistakes {
		t.Errorf("%s holds %d mistakes; want %d at least", dir, total, MinMistakes)
	}
}

// checkErrors is what `volley check` reports of a file, each error once.
func checkErrors(t *testing.T, path string) scenario.ErrorList {
	t.Helper()
	doc, err := scenario.ParseFile(path)
	if err == nil {
		_, _, _, err = rules.Check(context.Background(), doc)
	}
	if err == nil {
		t.Fatal("checks without an error")
	}
	var list scenario.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("not a scenario error: %v", err)
	}
	for _, e := range list {
		if e.Pos.File != filepath.Base(path) && e.Pos.File != path {
			t.Errorf("%v: not in %s", e, path)
		}
	}
	// Positions in the golden are the file's own name, wherever the tests run.
	out := make(scenario.ErrorList, len(list))
	for i, e := range list {
		c := *e
		c.Pos.File = filepath.Base(path)
		out[i] = &c
	}
	return out
}
