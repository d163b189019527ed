package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBlockPos(t *testing.T) {
	src := "map:\n  rows: |\n    ..#.\n    .x..\n"
	doc := mustParse(t, "m.yaml", []byte(src))
	var v struct {
		Map struct {
			Rows string `yaml:"rows"`
		} `yaml:"map"`
	}
	if err := doc.Decode(&v); err != nil {
		t.Fatal(err)
	}
	if v.Map.Rows != "..#.\n.x..\n" {
		t.Fatalf("rows = %q", v.Map.Rows)
	}
	got := doc.BlockPos(doc.Pos(&v.Map.Rows), 1, 1)
	if want := (Pos{File: "m.yaml", Line: 4, Col: 6}); got != want {
		t.Errorf("BlockPos of the x = %v; want %v", got, want)
	}
}

// TestDecodeChecked: decoding errors and the rule system's own errors come back
// together, sorted, and a check error where decoding already failed is dropped.
func TestDecodeChecked(t *testing.T) {
	doc := mustParse(t, "c.yaml", []byte("a: x\nb: 2\n"))
	var v struct {
		A int `yaml:"a"`
		B int `yaml:"b"`
	}
	err := doc.DecodeChecked(&v, func(errs *ErrorList) {
		errs.Add(doc.At(&v.A), "a is zero") // where decoding failed: dropped
		errs.Add(doc.At(&v.B), "b must be odd")
	})
	want := "c.yaml:1:4: a: want a whole number, got \"x\"\nc.yaml:2:4: b must be odd"
	if err == nil || err.Error() != want {
		t.Errorf("DecodeChecked: %v\nwant:\n%s", err, want)
	}
}

func TestTooManyLines(t *testing.T) {
	src := []byte(strings.Repeat("a: 1\n", maxLines+1))
	if _, err := Parse("big.yaml", src); err == nil || !strings.Contains(err.Error(), "at most 20000") {
		t.Errorf("Parse of %d lines: %v", maxLines+1, err)
	}
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.yaml"), []byte("a: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tables.yaml"), []byte("b: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "escape.yaml")); err != nil {
		t.Fatal(err)
	}
	doc, err := ParseFile(filepath.Join(dir, "main.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if sub, err := doc.Open("tables.yaml"); err != nil || sub.File != filepath.Join(dir, "tables.yaml") {
		t.Errorf("Open(tables.yaml) = %v, %v", sub, err)
	}
	for _, name := range []string{"/etc/passwd", "../x.yaml", "escape.yaml", ".", "missing.yaml"} {
		if _, err := doc.Open(name); err == nil {
			t.Errorf("Open(%q) succeeded", name)
		}
	}
	fromBytes, _ := Parse("request", []byte("a: 1\n"))
	if _, err := fromBytes.Open("tables.yaml"); err == nil || !strings.Contains(err.Error(), "not read from a file") {
		t.Errorf("a document from bytes opened a file: %v", err)
	}
}
