package rulestest

import (
	"os"
	"path/filepath"
	"testing"
)

// Golden compares got with the golden file at path, failing the test where they differ;
// with update it first rewrites the file (and its folder) with got, for a change that is
// meant to change it.
func Golden(tb testing.TB, path, got string, update bool) {
	tb.Helper()
	if update {
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
