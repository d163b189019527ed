package scenario

import (
	"errors"
	"os"
	"testing"
)

// FuzzParseDecode feeds arbitrary bytes through Parse and Decode. Neither may
// panic or hang, and every error must be an ErrorList of valid, sorted
// positions, since a player is sent to each of them.
func FuzzParseDecode(f *testing.F) {
	for _, path := range goldenInputs(f) {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	for _, src := range []string{
		"", "~", "[", "{", "a: *x", "a: &x [*x]", "<<: 1", "- - - -", "? a\n: b",
		"units: [{<<: {name: a}, at: {x: 1cm, y: -2}}]", "ruleset: !!str 3\ntitle: !!str",
		"a: |\n  text\n", "\uFEFF{\"ruleset\": 1e3}", "a: 1\n---\nb: 2",
		// Inputs that made goccy's own decoder or other YAML parsers panic.
		"{? {? ", "true :", "10.:", "0::", "{0", "*-0", ">\n>", "&{0", "0_", "0\n:", "0\n-",
		"\"\\0\\\r\n", "  0: [\n] 0", "? ? \"\n\" 0", "    - {\n000}0", " \ufeff\n", "? \ufeff:\n",
		"|0#\xff\xfe0\n\xff0", "!!null\n-", "---\n- - - - - - - - {\n0}0\n---", "? !!str\n: 1", "{*a: 1}",
	} {
		f.Add([]byte(src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := Parse("fuzz.yaml", src)
		if err != nil {
			checkErrorList(t, err)
			return
		}
		_, _ = doc.Ruleset()
		_ = doc.Unit()
		_ = doc.Root()
		var s testScenario
		if err := doc.Decode(&s); err != nil {
			checkErrorList(t, err)
		}
		_ = doc.Pos(&s.Units)
		_ = doc.KeyPos(s.Armoury, "x")
		if sec := doc.Section("action"); sec != nil {
			var a struct {
				Attacker string `yaml:"attacker,required"`
				Range    Length `yaml:"range"`
				Anything any    `yaml:"anything"`
			}
			if err := sec.Decode(&a); err != nil {
				checkErrorList(t, err)
			}
		}
	})
}

func checkErrorList(t *testing.T, err error) {
	t.Helper()
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v is a %T, not an ErrorList", err, err)
	}
	if len(list) == 0 {
		t.Fatalf("empty ErrorList returned as an error")
	}
	for i, e := range list {
		if e.Pos.Line < 1 || e.Pos.Col < 1 || e.Pos.File != "fuzz.yaml" {
			t.Errorf("error %q has position %#v", e.Msg, e.Pos)
		}
		if i > 0 && compareErrors(list[i-1], e) >= 0 && !(i == len(list)-1 && e.IsMore()) {
			t.Errorf("errors not sorted, or repeated: %v before %v", list[i-1], e)
		}
	}
}
