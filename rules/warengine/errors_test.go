package warengine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/scenario"
)

// TestErrorGoldens loads each file of testdata/errors and compares every error it gives,
// with its position, to the file's .golden. Refresh with go test -update.
func TestErrorGoldens(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "errors", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no error files: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			lines := len(strings.Split(string(src), "\n"))
			var got string
			doc, err := scenario.Parse(filepath.Base(f), src)
			if err == nil {
				_, _, err = Ruleset{}.Load(doc)
			}
			if err == nil {
				t.Fatal("loads without an error")
			}
			got = err.Error() + "\n"
			if list, ok := err.(scenario.ErrorList); ok {
				for _, e := range list {
					if !e.Pos.IsValid() || e.Pos.Line > lines {
						t.Errorf("%v points outside the file", e)
					}
				}
			}
			golden := strings.TrimSuffix(f, ".yaml") + ".golden"
			rulestest.Golden(t, golden, got)
		})
	}
}
