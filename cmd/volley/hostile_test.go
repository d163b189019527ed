package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestHostileFiles gives the CLI the documents that once cost the server a minute and
// gigabytes, and the bytes the API refuses: it checks them as the API does, refusing
// each with the limit it breaks, at little cost.
func TestHostileFiles(t *testing.T) {
	var laughs strings.Builder
	laughs.WriteString("ruleset: warengine\nl0: &l0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&laughs, "l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 10), ", "))
	}
	laughs.WriteString("action: {type: fire, unit: a, weapon: b, target: *l9}\n")
	sabres, err := os.ReadFile(example("sabres"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tc := range []struct{ name, src, want string }{
		{"quote bypass", "ruleset: dropzone\nx: -'\ny: " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n# '\n", "at most 100000"},
		{"billion laughs", laughs.String(), "values once its aliases and merge keys are expanded"},
		{"invalid UTF-8", "ruleset: dropzone\ntitle: \xff\xfe\n", "2:8: byte 0xff is not UTF-8 text"},
		{"NUL", "ruleset: dropzone\ntitle: a\x00b\n", "2:9: character U+0000 is a control character"},
		{"an escape sequence in an id", strings.Replace(string(sabres), "id: sabre-1", `id: "\e]0;owned\a"`, 1), "control character U+001B"},
		{"moved 1e308", strings.Replace(string(sabres), `moved: {sabre-1: 2"`, `moved: {sabre-1: 1e308`, 1), "within ±100000 inches"},
		{"an octal number", strings.Replace(string(sabres), "armour: 10", "armour: 0o12", 1), "plain decimal"},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml")
		if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		var status int
		var errOut string
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		status, _, errOut = runCLI("check", path)
		runtime.ReadMemStats(&after)
		if status != exitInput || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d, %q; want %d with %q", tc.name, status, errOut, exitInput, tc.want)
		}
		if strings.ContainsAny(errOut, "\x00\x1b\a") {
			t.Errorf("%s: control characters reached the terminal: %q", tc.name, errOut)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
			t.Errorf("%s: checking it allocated %d MiB", tc.name, grew>>20)
		}
	}
}

func TestTerminalSafe(t *testing.T) {
	for in, want := range map[string]string{
		"plain\nlines\tand tabs": "plain\nlines\tand tabs",
		"\x1b[31mred":            `\x1b[31mred`,
		"bell\a, C1 \u009b":      `bell\x07, C1 \x9b`,
	} {
		if got := terminalSafe(in); got != want {
			t.Errorf("terminalSafe(%q) = %q; want %q", in, got, want)
		}
	}
}
