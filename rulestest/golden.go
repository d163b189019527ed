package rulestest

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// Update is the -update flag of every test that imports rulestest: go test -update
// rewrites the package's golden files (Golden's, the words told, the broken scenarios'
// errors) from the current output, for a change that is meant to change them.
var Update = flag.Bool("update", false, "rewrite the golden files of testdata/ from the current output")

// Golden compares got with the golden file at path, failing the test where they differ;
// under -update (Update) it first rewrites the file (and its folder) with got.
func Golden(tb testing.TB, path, got string) {
	tb.Helper()
	if *Update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (go test -update writes it)", err)
	}
	if got != string(want) {
		tb.Errorf("%s differs (go test -update rewrites it if the change is meant); got:\n%s\nwant:\n%s", path, got, want)
	}
}
