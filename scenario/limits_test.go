package scenario

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/lexer"
)

// allocated returns the bytes f allocates, a measure of its cost that, unlike its
// time, does not depend on what else the machine is doing.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// parseBudget is what refusing a hostile document may cost: a small multiple of the
// largest body the HTTP API accepts (1 MiB), where the inputs below used to cost
// gigabytes.
const parseBudget = 64 << 20

// hostile are documents built to cost far more than their size. Each must be refused
// by Parse with the limit it breaks, for little more than the cost of reading it.
func hostile() []struct{ name, src, want string } {
	var laughs strings.Builder // nine levels of ten aliases: a billion values
	laughs.WriteString("ruleset: warengine\nl0: &l0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&laughs, "l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 10), ", "))
	}
	laughs.WriteString("action: {type: declare, unit: a, weapon: b, target: *l9}\n")

	var keys strings.Builder // one block mapping of 20,000 keys
	for i := range 19000 {
		fmt.Fprintf(&keys, "k%d: 1\n", i)
	}

	return []struct{ name, src, want string }{
		// The old pre-scan took -' for the start of a quoted string and stopped counting
		// brackets; YAML reads it as plain text.
		{"quote bypass, 100,000 brackets", "ruleset: dropzone\nx: -'\ny: " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n# '\n",
			"tokens; at most 100000"},
		{"quote bypass, 70 brackets", "ruleset: dropzone\nx: -'\ny: " + strings.Repeat("[", 70) + strings.Repeat("]", 70) + "\n# '\n",
			"3:68: " + errTooDeep},
		{"quote bypass after a colon", "x: a:'\ny: " + strings.Repeat("{", 70) + strings.Repeat("}", 70) + "\n",
			"2:68: " + errTooDeep},
		{"a megabyte of zeros", "x: [" + strings.Repeat("0,", 500000) + "]\n", "tokens; at most 100000"},
		{"billion laughs in a free-form field", laughs.String(), "values once its aliases and merge keys are expanded"},
		{"an alias of unknown keys used 4,000 times", "ruleset: dropzone\n" + unknownKeys(4000), "values once its aliases and merge keys are expanded"},
		{"20,000 keys in one block mapping", keys.String(), "1001:1: a mapping has more than 1000 keys"},
	}
}

// unknownKeys is a mapping of 1,000 unknown keys under an alias, k, that the units list
// uses n times.
func unknownKeys(n int) string {
	var b strings.Builder
	b.WriteString("k: &k {")
	for i := range 1000 {
		fmt.Fprintf(&b, "u%d: 1, ", i)
	}
	b.WriteString("}\nunits: [")
	for range n {
		b.WriteString("*k, ")
	}
	b.WriteString("]\n")
	return b.String()
}

func TestHostileDocuments(t *testing.T) {
	for _, tc := range hostile() {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			cost := allocated(func() { _, err = Parse("f.yaml", []byte(tc.src)) })
			errs := errorStrings(t, err)
			if len(errs) != 1 || !strings.Contains(errs[0], tc.want) {
				t.Errorf("Parse errors = %.200q; want one containing %q", errs, tc.want)
			}
			if cost > parseBudget {
				t.Errorf("refusing %d bytes allocated %d MiB; the budget is %d MiB", len(tc.src), cost>>20, parseBudget>>20)
			}
			t.Logf("%d bytes refused for %d KiB allocated", len(tc.src), cost>>10)
		})
	}
}

// TestErrorsRepeatedByAliases checks that a mistake met through many aliases is reported
// once, and that a document of many mistakes reports MaxErrors and a count of the rest.
func TestErrorsRepeatedByAliases(t *testing.T) {
	doc := mustParse(t, "f.yaml", []byte(unknownKeys(45)))
	var v struct {
		K     map[string]int `yaml:"k"`
		Units []struct {
			ID string `yaml:"id"`
		} `yaml:"units"`
	}
	var errs []string
	cost := allocated(func() { errs = errorStrings(t, doc.Decode(&v)) })
	if len(errs) != MaxErrors+1 {
		t.Fatalf("Decode reported %d errors; want %d and a count of the rest", len(errs), MaxErrors+1)
	}
	if want := "f.yaml:1:8: unknown field \"u0\""; errs[0] != want {
		t.Errorf("first error = %q; want %q", errs[0], want)
	}
	if last, want := errs[MaxErrors], fmt.Sprintf(moreErrors, 1000-MaxErrors); !strings.HasSuffix(last, want) {
		t.Errorf("last error = %q; want one ending %q", last, want)
	}
	if cost > parseBudget {
		t.Errorf("decoding allocated %d MiB; the budget is %d MiB", cost>>20, parseBudget>>20)
	}
}

// TestLimitsJustInside checks that documents at each limit are accepted: the limits
// refuse hostile documents, not big honest ones.
func TestLimitsJustInside(t *testing.T) {
	var keys, units strings.Builder
	for i := range MaxKeys {
		fmt.Fprintf(&keys, "k%d: 1\n", i)
	}
	units.WriteString("units:\n")
	for i := range 2000 {
		fmt.Fprintf(&units, "  - {id: u%d, type: t, at: [%d, 3.5], weapons: [a, b]}\n", i, i)
	}
	rows := strings.Repeat(strings.Repeat(".#~^", 128)+"\n    ", 512)
	for _, tc := range []struct{ name, src string }{
		{"MaxKeys keys", keys.String()},
		{"2,000 units", units.String()},
		{"a 512 × 512 map", "map:\n  rows: |\n    " + rows},
		{"flow depth 64", strings.Repeat("[", 64) + strings.Repeat("]", 64)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Parse("f.yaml", []byte(tc.src)); err != nil {
				t.Errorf("Parse: %.300v", err)
			}
		})
	}
}

// TestMergeChain checks that a long chain of merges, each merging the one
// before twice, costs no more than the mappings in it.
func TestMergeChain(t *testing.T) {
	var b strings.Builder
	b.WriteString("m0: &m0 {a: 1}\n")
	for i := 1; i <= 12; i++ {
		fmt.Fprintf(&b, "m%d: &m%d {<<: [*m%d, *m%d], k%d: %d}\n", i, i, i-1, i-1, i, i)
	}
	doc := mustParse(t, "", []byte(b.String()))
	var v map[string]map[string]int
	if err := doc.Decode(&v); err != nil {
		t.Fatal(err)
	}
	if got := len(v["m12"]); got != 13 {
		t.Errorf("m12 has %d keys; want 13", got)
	}
}

// TestMergeLaughs checks that merging one large anchored mapping many times counts
// against the same limit as aliases.
func TestMergeLaughs(t *testing.T) {
	var b strings.Builder
	b.WriteString("b: &b {v: [" + strings.TrimSuffix(strings.Repeat("x, ", 1000), ", ") + "]}\n")
	b.WriteString("ms:\n")
	for range 2000 {
		b.WriteString("  - {<<: *b}\n")
	}
	_, err := Parse("", []byte(b.String()))
	errs := errorStrings(t, err)
	if len(errs) != 1 || !strings.Contains(errs[0], "values once its aliases and merge keys are expanded") {
		t.Errorf("Parse errors = %q; want the expansion limit", errs)
	}
}

func TestTextChecks(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"NUL", "a: b\x00c", []string{"f.yaml:1:5: character U+0000 is a control character, which a scenario may not contain"}},
		{"invalid UTF-8", "a: 1\nb: \xff", []string{"f.yaml:2:4: byte 0xff is not UTF-8 text"}},
		{"escape character", "id: x\x1b[31m", []string{"f.yaml:1:6: character U+001B is a control character, which a scenario may not contain"}},
		{"C1 control", "id: x\u0085y\u009b", []string{"f.yaml:1:8: character U+009B is a control character, which a scenario may not contain"}},
		{"escaped NUL", `id: "a\0b"`, []string{`f.yaml:1:5: the string holds the control character U+0000 (written as an escape), which a scenario may not contain`}},
		{"escaped ESC in a key", `{"\e[2J": 1}`, []string{`f.yaml:1:2: the string holds the control character U+001B (written as an escape), which a scenario may not contain`}},
		{"escaped CR", `id: "a\rb"`, []string{`f.yaml:1:5: the string holds the control character U+000D (written as an escape), which a scenario may not contain`}},
		{"tab and newline are text", "a: \"x\\ty\\nz\"\nb: |\n  \tindented\n", nil},
		{"unknown tag", "a: !!binary aGk=\nb: !foo 1", []string{
			"f.yaml:1:4: tag !!binary is not one volley reads (only !!str, !!int, !!float, !!bool, !!null, !!seq and !!map)",
			"f.yaml:2:4: tag !foo is not one volley reads (only !!str, !!int, !!float, !!bool, !!null, !!seq and !!map)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f.yaml", []byte(tc.src))
			if got := errorStrings(t, err); !slices.Equal(got, tc.want) {
				t.Errorf("Parse errors = %q; want %q", got, tc.want)
			}
		})
	}
}

func TestPlainNumbers(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string // "" decodes
	}{
		{"n: 12", ""},
		{"n: -3", ""},
		{"n: +1", ""},
		{"n: 0", ""},
		{"n: 0b101", "want a whole number in plain decimal (no leading zeros, 0x, 0o, 0b or _), got 0b101"},
		{"n: 0o777", "want a whole number in plain decimal (no leading zeros, 0x, 0o, 0b or _), got 0o777"},
		{"n: 0x1F", "want a whole number in plain decimal (no leading zeros, 0x, 0o, 0b or _), got 0x1F"},
		{"n: 017", "want a whole number in plain decimal (no leading zeros, 0x, 0o, 0b or _), got 017"},
		{"n: 1_000", "want a whole number in plain decimal (no leading zeros, 0x, 0o, 0b or _), got 1_000"},
		{"n: !!float 3", "want a whole number, got 3"},
		{"n: !!str 3", `want a whole number, got "3"`},
		{"n: !!int 3", ""},
		{"any: [0x10, 4]", "any[0]: want a whole number in plain decimal (no leading zeros, 0x, 0o, 0b or _), got 0x10"},
	} {
		doc, err := Parse("f.yaml", []byte(tc.src))
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.src, err)
		}
		var v struct {
			N   int `yaml:"n"`
			Any any `yaml:"any"`
		}
		errs := errorStrings(t, doc.Decode(&v))
		switch {
		case tc.want == "" && len(errs) != 0:
			t.Errorf("Decode(%q) = %q; want no error", tc.src, errs)
		case tc.want != "" && (len(errs) != 1 || !strings.HasSuffix(errs[0], tc.want)):
			t.Errorf("Decode(%q) = %q; want one error ending %q", tc.src, errs, tc.want)
		}
	}
}

// FuzzEstimateTokens checks that estimateTokens is an upper bound on the tokens goccy's
// scanner makes of any text checkText accepts: Parse trusts it to refuse a document
// before scanning it.
func FuzzEstimateTokens(f *testing.F) {
	for _, tc := range hostile() {
		if len(tc.src) < 4096 {
			f.Add([]byte(tc.src))
		}
	}
	for _, s := range []string{
		"a: 'x'\n", "- - - a\n", `{"a":"b","c":"d"}`, "a: |\n  - - -\n  [[]]\n", "'a''b'", `"a\"b"`, "x: &a *b !c %d\n",
		"? a\n: b\n", "a:b:c:d\n", "x: [\n  a:b:c\n]\n", "#c\n- #c\n", "--- |\n  text\n...\n", "a: \"x\n  [[[,,,\"\n",
		"%YAML 1.2\n---\na: 1\n", "a: >-\n  b\n  c\n", "- -\n- -x\n", "a: - b\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<16 {
			return
		}
		if _, _, ok := checkText("f.yaml", src); !ok {
			// Parse refuses such text before it estimates anything; the bound is not
			// promised for it (NUL reads as a break to goccy: "-\x00 #" is three tokens).
			return
		}
		got := len(lexer.Tokenize(string(src)))
		if est := estimateTokens(src); est < got {
			t.Errorf("estimateTokens = %d; goccy's scanner makes %d tokens of %q", est, got, src)
		}
	})
}

func TestLengthBounds(t *testing.T) {
	const want = "a length or coordinate lies within ±100000 inches, got "
	for _, tc := range []struct{ src, err string }{
		{"l: 100000", ""},
		{"l: 254000cm", ""},
		{"p: [-100000, 5]", ""},
		{"l: 1e308", want + "1e308"},
		{"l: 100001", want + "100001"},
		{`l: "254001cm"`, want + "254001cm"},
		{"p: [-1e9, 0]", want + "-1e9"},
		{"p: {x: 0, y: 1e6in}", want + "1e6in"},
	} {
		doc := mustParse(t, "f.yaml", []byte(tc.src))
		var v struct {
			L Length `yaml:"l"`
			P Point  `yaml:"p"`
		}
		errs := errorStrings(t, doc.Decode(&v))
		switch {
		case tc.err == "" && len(errs) > 0:
			t.Errorf("Decode(%q) = %q; want no error", tc.src, errs)
		case tc.err != "" && (len(errs) != 1 || !strings.HasSuffix(errs[0], tc.err)):
			t.Errorf("Decode(%q) = %q; want one error ending %q", tc.src, errs, tc.err)
		}
	}
}

func TestFreeFormAndSkip(t *testing.T) {
	big := "any: [" + strings.Repeat("1, ", MaxFreeForm) + "1]\nskip: [" + strings.Repeat("[1, 2], ", 5000) + "]\n"
	doc := mustParse(t, "f.yaml", []byte(big))
	var v struct {
		Any  any  `yaml:"any"`
		Skip Skip `yaml:"skip"`
	}
	errs := errorStrings(t, doc.Decode(&v))
	want := fmt.Sprintf("f.yaml:1:6: any: a free-form value holds at most %d values", MaxFreeForm)
	if len(errs) != 1 || errs[0] != want {
		t.Errorf("Decode = %q; want [%q]", errs, want)
	}
	small, _ := Parse("f.yaml", []byte("any: {a: [1, 2], b: x}\nskip: {whatever: [1]}\n"))
	if err := small.Decode(&v); err != nil || v.Any.(map[string]any)["b"] != "x" {
		t.Errorf("a small free-form value: %v, %v", v.Any, err)
	}
}
