package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// nested returns a block mapping nested n levels deep.
func nested(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat("  ", i) + "a:\n")
	}
	return b.String()
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		errs []string // nil: Parse succeeds
	}{
		{"ok", "a: 1", nil},
		{"json", `{"a": [1, {"b": null}]}`, nil},
		{"trailing empty document", "a: 1\n---\n", nil},
		{"document end", "a: 1\n...\n", nil},
		{"unclosed", "a: [1, 2\n", []string{"1:4: sequence end token ']' not found"}},
		{"duplicate key", "a: 1\na: 2", []string{`2:1: mapping key "a" already defined at [1:1]`}},
		{"tab", "a:\n\tb: 1", []string{"2:1: found character '\t' that cannot start any token"}},
		{"empty", "", []string{"1:1: empty document"}},
		{"comment only", "# nothing here\n", []string{"1:1: empty document"}},
		{"header only", "---\n", []string{"1:1: empty document"}},
		{"two documents", "a: 1\n---\nb: 2\n", []string{"2:1: a file holds one document; this is a second"}},
		{"undefined alias", "a: *nope\nb: *nada", []string{`1:4: undefined alias "nope"`, `2:4: undefined alias "nada"`}},
		{"alias inside its anchor", "a: &x [1, *x]", []string{`1:11: undefined alias "x"`}},
		{"alias before anchor", "a: *x\nb: &x 1", []string{`1:4: undefined alias "x"`}},
		{"flow depth 64", strings.Repeat("[", 64) + strings.Repeat("]", 64), nil},
		{"flow depth 65", strings.Repeat("[", 65) + strings.Repeat("]", 65), []string{"1:65: " + errTooDeep}},
		{"flow mapping depth", strings.Repeat("{a: ", 65) + "1" + strings.Repeat("}", 65), []string{"1:257: " + errTooDeep}},
		{"block depth 64", nested(64), nil},
		{"block depth 65", nested(65), []string{"65:129: " + errTooDeep}},
		{"compact depth", strings.Repeat("- ", 65) + "x", []string{"1:129: " + errTooDeep}},
		{"mixed depth", nested(40) + strings.Repeat("  ", 40) + "a: " + strings.Repeat("[", 25) + strings.Repeat("]", 25),
			[]string{"41:" + "107: " + errTooDeep}},
		{"brackets in quotes", `a: "` + strings.Repeat("[", 100) + `"` + "\nb: '" + strings.Repeat("{", 100) + "'", nil},
		{"brackets in comment", "a: 1 # " + strings.Repeat("[", 100), nil},
		{"too large", "a: " + strings.Repeat("x", maxSize), []string{"1:1: file is larger than 4 MiB"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("", []byte(tc.src))
			if got := errorStrings(t, err); !slices.Equal(got, tc.errs) {
				t.Errorf("Parse errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.errs, "\n"))
			}
		})
	}
}

func TestParseByteOrderMark(t *testing.T) {
	doc := mustParse(t, "", []byte("\uFEFFruleset: x\n"))
	if rs, err := doc.Ruleset(); rs != "x" || err != nil {
		t.Errorf("Ruleset() = %q, %v; want \"x\", nil", rs, err)
	}
}

func TestParseFile(t *testing.T) {
	_, err := ParseFile(filepath.Join("testdata", "no-such-file.yaml"))
	var list ErrorList
	if err == nil || errors.As(err, &list) || !strings.HasPrefix(err.Error(), "scenario: open ") {
		t.Errorf("ParseFile(missing) = %v; want a plain \"scenario: open …\" error", err)
	}
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ParseFile(missing) = %v; want it to wrap os.ErrNotExist", err)
	}

	path := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(path, []byte("ruleset: x\ntitle: [t]\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	doc, err := ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var h Header
	err = doc.Decode(&h)
	if want := path + ":2:8: title: want a string, got a list"; err == nil || err.Error() != want {
		t.Errorf("Decode error = %v; want %s", err, want)
	}
}

func TestRuleset(t *testing.T) {
	for _, tc := range []struct {
		src, want, err string
	}{
		{"ruleset: grimdark", "grimdark", ""},
		{`{"title": "t", "ruleset": "x"}`, "x", ""},
		{"ruleset: 40", "40", ""},
		{"title: t\nunits: []", "", `f:1:1: missing field "ruleset"`},
		{"title: t\nruleset:", "", `f:2:10: ruleset: missing value`},
		{"ruleset: [a]", "", `f:1:10: ruleset: want a string, got a list`},
		{"- ruleset: a", "", `f:1:1: want a mapping, got a list`},
		{"defs: &r x\nruleset: *r", "x", ""},
	} {
		doc := mustParse(t, "f", []byte(tc.src))
		got, err := doc.Ruleset()
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("Ruleset(%q) error is %T; want *Error", tc.src, err)
			}
		}
		if got != tc.want || gotErr != tc.err {
			t.Errorf("Ruleset(%q) = %q, %q; want %q, %q", tc.src, got, gotErr, tc.want, tc.err)
		}
	}
}

func TestSection(t *testing.T) {
	src := "ruleset: r\ndistances: cm\naction:\n  attacker: Alpha\n  range: 10\n  oops: 1\n"
	doc := mustParse(t, "f", []byte(src))
	if doc.Section("missing") != nil {
		t.Errorf("Section(\"missing\") != nil")
	}
	sec := doc.Section("action")
	if sec == nil {
		t.Fatal("Section(\"action\") = nil")
	}
	if got, want := sec.Root(), (Pos{"f", 4, 3}); got != want {
		t.Errorf("Section root = %v; want %v", got, want)
	}
	var action struct {
		Attacker string `yaml:"attacker"`
		Range    Length `yaml:"range"`
	}
	err := sec.Decode(&action)
	if want := `f:6:3: unknown field "oops"`; err == nil || err.Error() != want {
		t.Errorf("Section Decode error = %v; want %s", err, want)
	}
	if action.Attacker != "Alpha" || action.Range != Centimetres(10) {
		t.Errorf("Section Decode = %+v; want Alpha at 10cm", action)
	}
	// Positions decoded through a section are known to the whole document.
	if got, want := doc.Pos(&action.Range), (Pos{"f", 5, 10}); got != want {
		t.Errorf("Pos(&action.Range) = %v; want %v", got, want)
	}
}

const posSrc = `ruleset: test
units:
  - name: Alpha
    at: [1, 2]
    weapons:
      - name: gun
        range: 24
  - name: Beta
    leader:
      name: Gamma
armoury:
  pistol: {name: p}
  sword:
    name: s
extra: {k: [1, 2]}
`

func TestPos(t *testing.T) {
	doc := mustParse(t, "f.yaml", []byte(posSrc))
	var s testScenario
	if err := doc.Decode(&s); err != nil {
		t.Fatal(err)
	}
	at := func(line, col int) Pos { return Pos{"f.yaml", line, col} }
	for _, tc := range []struct {
		what string
		got  Pos
		want Pos
	}{
		{"&s", doc.Pos(&s), at(1, 1)},
		{"&s.Header", doc.Pos(&s.Header), at(1, 1)},
		{"&s.Ruleset", doc.Pos(&s.Ruleset), at(1, 10)},
		{"&s.Title", doc.Pos(&s.Title), Pos{}},
		{"&s.Units", doc.Pos(&s.Units), at(3, 3)},
		{"&s.Units[0]", doc.Pos(&s.Units[0]), at(3, 5)},
		{"&s.Units[0].Name", doc.Pos(&s.Units[0].Name), at(3, 11)},
		{"&s.Units[0].At", doc.Pos(&s.Units[0].At), at(4, 9)},
		{"&s.Units[0].At.Y", doc.Pos(&s.Units[0].At.Y), at(4, 13)},
		{"&s.Units[0].Weapons[0].Range", doc.Pos(&s.Units[0].Weapons[0].Range), at(7, 16)},
		{"&s.Units[1]", doc.Pos(&s.Units[1]), at(8, 5)},
		{"&s.Units[1].Leader", doc.Pos(&s.Units[1].Leader), at(10, 7)},
		{"s.Units[1].Leader", doc.Pos(s.Units[1].Leader), at(10, 7)},
		{"&s.Units[1].Leader.Name", doc.Pos(&s.Units[1].Leader.Name), at(10, 13)},
		{"&s.Armoury", doc.Pos(&s.Armoury), at(12, 3)},
		{"KeyPos(&s.Armoury, pistol)", doc.KeyPos(&s.Armoury, "pistol"), at(12, 11)},
		{"KeyPos(s.Armoury, sword)", doc.KeyPos(s.Armoury, "sword"), at(14, 5)},
		{"KeyPos(s.Armoury, nope)", doc.KeyPos(s.Armoury, "nope"), Pos{}},
		{"&s.Extra", doc.Pos(&s.Extra), at(15, 8)},
		{"KeyPos(s.Extra, k)", doc.KeyPos(s.Extra, "k"), at(15, 12)},
		{"KeyPos(nil)", doc.KeyPos(nil, "k"), Pos{}},
		{"Pos(nil)", doc.Pos(nil), Pos{}},
		{"Pos(s)", doc.Pos(s), Pos{}},
		{"Pos(&other)", doc.Pos(new(int)), Pos{}},
		{"Root", doc.Root(), at(1, 1)},
	} {
		if tc.got != tc.want {
			t.Errorf("Pos(%s) = %v; want %v", tc.what, tc.got, tc.want)
		}
	}
	e := doc.Errorf(&s.Units[1].Name, "no unit called %s", "Beta")
	if got, want := e.Error(), "f.yaml:8:11: no unit called Beta"; got != want {
		t.Errorf("Errorf = %q; want %q", got, want)
	}
}

// TestPosThroughAlias checks that a value used through an alias is placed at
// the alias, and its insides at the anchored text.
func TestPosThroughAlias(t *testing.T) {
	src := "ruleset: r\narmoury:\n  a: &gun {name: gun}\nunits:\n  - name: x\n    leader: &l {name: l}\n  - name: y\n    leader: *l\n"
	doc := mustParse(t, "", []byte(src))
	var s testScenario
	if err := doc.Decode(&s); err != nil {
		t.Fatal(err)
	}
	if got, want := doc.Pos(&s.Units[1].Leader), (Pos{Line: 8, Col: 13}); got != want {
		t.Errorf("Pos(leader via alias) = %v; want %v", got, want)
	}
	if got, want := doc.Pos(&s.Units[1].Leader.Name), (Pos{Line: 6, Col: 23}); got != want {
		t.Errorf("Pos(name inside alias) = %v; want %v", got, want)
	}
}

// TestParsePanic checks that a panic in goccy's parser, which fuzzing of
// goccy has found before, becomes an error with a position.
func TestParsePanic(t *testing.T) {
	defer func(old func(token.Tokens) (*ast.File, error)) { parseTokens = old }(parseTokens)
	parseTokens = func(token.Tokens) (*ast.File, error) { panic("index out of range") }
	_, err := Parse("f.yaml", []byte("a: 1"))
	if got, want := errorStrings(t, err), []string{"f.yaml:1:1: yaml: cannot parse: index out of range"}; !slices.Equal(got, want) {
		t.Errorf("Parse errors = %q; want %q", got, want)
	}
}

func TestWithout(t *testing.T) {
	for _, src := range []string{
		"type: shoot\nsquad: sabres\ndice: [4, 6]\n",
		`{"type": "shoot", "dice": [4, 6], "squad": "sabres"}`,
		"dice: [4, 6]\n",
		"type: shoot\nsquad: sabres\n",
	} {
		doc := mustParse(t, "body", []byte(src))
		var faces []int
		if sec := doc.Section("dice"); sec != nil {
			if err := sec.Decode(&faces); err != nil {
				t.Fatal(err)
			}
		}
		var rest map[string]any
		if err := doc.Without("dice").Decode(&rest); err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if _, ok := rest["dice"]; ok {
			t.Errorf("%q: dice is still there: %v", src, rest)
		}
		if strings.Contains(src, "squad") && rest["squad"] != "sabres" {
			t.Errorf("%q: the rest is gone: %v", src, rest)
		}
		if strings.Contains(src, "dice") && len(faces) != 2 {
			t.Errorf("%q: faces %v", src, faces)
		}
		// The document itself keeps its dice.
		if strings.Contains(src, "dice") && doc.Section("dice") == nil {
			t.Errorf("%q: Without changed the document", src)
		}
	}
	// Positions are the document's: an error after Without is where it was written.
	doc, _ := Parse("body", []byte("dice: [1]\nsquad: [x]\n"))
	var spec struct {
		Squad string `yaml:"squad"`
	}
	err := doc.Without("dice").Decode(&spec)
	if err == nil || !strings.Contains(err.Error(), "body:2:8") {
		t.Errorf("error %v, want at body:2:8", err)
	}
}
