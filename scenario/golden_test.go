package scenario

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// goldenInputs returns the scenario files under testdata.
func goldenInputs(tb testing.TB) []string {
	tb.Helper()
	var files []string
	for _, pattern := range []string{"*.yaml", "*.json"} {
		m, err := filepath.Glob(filepath.Join("testdata", pattern))
		if err != nil {
			tb.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		tb.Fatal("no testdata inputs")
	}
	return files
}

// TestGolden decodes each file under testdata and compares the full, sorted
// error list with the file's .golden twin ("ok" when there are no errors).
func TestGolden(t *testing.T) {
	for _, path := range goldenInputs(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := Parse(filepath.ToSlash(path), src)
			if err == nil {
				var s testScenario
				err = doc.Decode(&s)
			}
			got := "ok\n"
			if err != nil {
				got = err.Error() + "\n"
			}
			golden := strings.TrimSuffix(path, filepath.Ext(path)) + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o666); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("errors for %s:\n%s\nwant (%s):\n%s", path, got, golden, want)
			}
		})
	}
}
