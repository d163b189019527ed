package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckOffTheTable: a scenario with a table may not begin with a base off it, in any
// system with a table's edge: volley check says where, with the table's size.
func TestCheckOffTheTable(t *testing.T) {
	for _, tc := range []struct{ system, from, to, where string }{
		{"dropzone", "at: [14, 6]", "at: [47.5, 6]", ":50:"},
		{"warfare", "at: [6, 14]", "at: [6, 17.5]", ":34:"},
		{"warstrike", "{id: bravo-2, at: [7, 14]}", "{id: bravo-2, at: [-1, 14]}", ":51:"},
		{"republique", "at: [30, 15]", "at: [121, 15]", ":30:"},
	} {
		src, err := os.ReadFile(filepath.Join("..", "..", "examples", tc.system, "moves.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), tc.from) {
			t.Fatalf("%s: no %q in moves.yaml", tc.system, tc.from)
		}
		// Beside copies of the example's neighbours: the files it names (charts, tables).
		dir := t.TempDir()
		others, _ := filepath.Glob(filepath.Join("..", "..", "examples", tc.system, "*.yaml"))
		for _, o := range others {
			if b, err := os.ReadFile(o); err == nil {
				os.WriteFile(filepath.Join(dir, filepath.Base(o)), b, 0o644)
			}
		}
		file := filepath.Join(dir, "moves.yaml")
		os.WriteFile(file, []byte(strings.Replace(string(src), tc.from, tc.to, 1)), 0o644)
		status, _, errOut := runCLI("check", file)
		if status != exitInput || !strings.Contains(errOut, tc.where) || !strings.Contains(errOut, "lies off the table") {
			t.Errorf("%s: status %d: %s; want an error at line %s saying it lies off the table", tc.system, status, errOut, tc.where)
		}
		status, _, errOut = runCLI("check", filepath.Join("..", "..", "examples", tc.system, "moves.yaml"))
		if status != exitOK {
			t.Errorf("%s: the example itself: %d %s", tc.system, status, errOut)
		}
	}
}
