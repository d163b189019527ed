package scenario

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// fakeDocs is the doc comments of the test's types, as the generator reads them from
// source.
type fakeDocs struct{}

func (fakeDocs) TypeDoc(t reflect.Type) string {
	return map[string]string{"sheet": "sheet is a stat sheet.", "colour": "colour is a side's colour."}[t.Name()]
}

func (fakeDocs) FieldDoc(t reflect.Type, field string) string {
	return map[string]string{"Armour": "Armour is what a hit must beat.", "Colour": "Colour, when given, paints it."}[field]
}

func (fakeDocs) Consts(t reflect.Type) []any {
	switch t.Name() {
	case "colour":
		return []any{"red", "blue", "beyond"} // beyond: a constant no scenario writes
	case "DiceSource":
		return []any{"server", "players"}
	}
	return nil
}

type colour string

// DecodeScalar reads red or blue.
func (c *colour) DecodeScalar(s Scalar) error {
	if s.Text != "red" && s.Text != "blue" {
		return fmt.Errorf("want red or blue")
	}
	*c = colour(s.Text)
	return nil
}

type plainRoll int

func (*plainRoll) DecodeScalar(Scalar) error { return nil }

// JSONSchema lists a value its DecodeScalar refuses, for the test of checkEnums.
func (*lyingRoll) JSONSchema() *Schema { return &Schema{Enum: Values[any](3, "seven")} }

type lyingRoll int

func (r *lyingRoll) DecodeScalar(s Scalar) error {
	if s.Text == "seven" {
		return fmt.Errorf("not a plainRoll")
	}
	return nil
}

type sheet struct {
	Header `yaml:",inline"`
	Name   string            `yaml:"name,required"`
	Armour int               `yaml:"armour"`
	Base   Length            `yaml:"base"`
	At     *Point            `yaml:"at"`
	Colour colour            `yaml:"colour"`
	Arc    int               `yaml:"arc"`
	Counts [2]int            `yaml:"counts"`
	Moves  map[string]Length `yaml:"moves"`
	Hidden string            `yaml:"-"`
	Action Skip              `yaml:"action"`
	Self   []sheet           `yaml:"self"`
}

func (sheet) Choices() map[string][]any { return map[string][]any{"arc": Values[any](90, 180)} }

func TestSchemaBuilder(t *testing.T) {
	b := &SchemaBuilder{Docs: fakeDocs{}, Sections: map[string]*Schema{"action": {Description: "an action", Type: "object"}}}
	ref := b.Of(reflect.TypeFor[sheet]())
	if err := b.Err(); err != nil {
		t.Fatal(err)
	}
	if ref.Ref != "#/$defs/scenario.sheet" {
		t.Fatalf("ref %q", ref.Ref)
	}
	s := b.Defs["scenario.sheet"]
	if s.Description != "A stat sheet." {
		t.Errorf("type doc %q", s.Description)
	}
	if !s.AdditionalProperties.never {
		t.Error("unknown keys are allowed")
	}
	if strings.Join(s.Required, ",") != "name,ruleset" {
		t.Errorf("required %v", s.Required)
	}
	for _, key := range []string{"ruleset", "distances", "deployment", "end", "dice", "name", "armour", "base", "at", "colour", "arc", "counts", "moves", "action", "self"} {
		if s.Properties[key] == nil {
			t.Errorf("no key %s", key)
		}
	}
	if s.Properties["hidden"] != nil || s.Properties["header"] != nil {
		t.Error("a skipped or inlined field is a key")
	}
	if d := s.Properties["armour"].Description; d != "armour is what a hit must beat." {
		t.Errorf("field doc %q", d)
	}
	if d := s.Properties["colour"].Description; d != "colour, when given, paints it." {
		t.Errorf("field doc %q", d)
	}
	if p := s.Properties["colour"]; p.Ref != "#/$defs/scenario.colour" || fmt.Sprint(b.Defs["scenario.colour"].Enum) != "[red blue]" {
		t.Errorf("colour: %+v, enum %v", p, b.Defs["scenario.colour"].Enum)
	}
	if p := s.Properties["arc"]; fmt.Sprint(p.Enum) != "[90 180]" || p.Type != "integer" {
		t.Errorf("arc: %+v", p)
	}
	if p := s.Properties["counts"]; *p.MinItems != 2 || *p.MaxItems != 2 {
		t.Errorf("counts: %+v", p)
	}
	if p := s.Properties["action"]; p.Description != "an action" {
		t.Errorf("a section keeps its own description: %q", p.Description)
	}
	if p := s.Properties["dice"]; p.Ref != "#/$defs/scenario.DiceSource" {
		t.Errorf("dice: %+v", p)
	}
	if p := s.Properties["self"]; p.Items.Ref != ref.Ref {
		t.Errorf("a type that holds itself: %+v", p)
	}
	if p := s.Properties["distances"]; p.Ref != "#/$defs/scenario.Unit" || fmt.Sprint(b.Defs["scenario.Unit"].Enum) != "[in cm]" {
		t.Errorf("distances: %+v", p)
	}
	if p := s.Properties["deployment_order"]; fmt.Sprint(p.Enum) != "[sides alternate]" {
		t.Errorf("an inlined type's choices: %+v", p)
	}
	out, err := json.Marshal(s)
	if err != nil || !strings.Contains(string(out), `"additionalProperties":false`) {
		t.Errorf("%s, %v", out, err)
	}
}

// TestSchemaBuilderRefuses: a scalar type that says nothing of its form, a Schemer that
// lists a value it refuses, and a choice of a key that does not exist are errors.
func TestSchemaBuilderRefuses(t *testing.T) {
	type bad struct {
		Roll  plainRoll `yaml:"plainRoll"`
		Lying lyingRoll `yaml:"lying"`
		Ch    chan int  `yaml:"ch"`
	}
	b := &SchemaBuilder{Docs: fakeDocs{}}
	b.Of(reflect.TypeFor[bad]())
	err := b.Err()
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"scenario.plainRoll decodes a scalar but says nothing of its form", "lists seven, which it does not read", "no scenario can write a chan"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v: want %q", err, want)
		}
	}
}

func TestSchemaLengthPattern(t *testing.T) {
	b := &SchemaBuilder{}
	b.Prime()
	length := b.Defs["scenario.Length"].AnyOf[1].Pattern
	coord := b.Defs["scenario.Point"].AnyOf[0].Items.AnyOf[1].Pattern
	for _, tc := range []struct {
		text          string
		length, coord bool
	}{
		{`6"`, true, true}, {"6in", true, true}, {"15 cm", true, true}, {"2.5", true, true}, {".5cm", true, true},
		{"1e2", true, true}, {"-3", false, true}, {"-3cm", false, true}, {"6 ft", false, false}, {"six", false, false}, {"", false, false},
	} {
		for _, p := range []struct {
			pattern string
			want    bool
			parse   func(string) error
		}{
			{length, tc.length, func(s string) error { _, err := ParseLength(s, Inch); return err }},
			{coord, tc.coord, func(s string) error { _, err := parseSignedLength(s, Inch); return err }},
		} {
			if got := regexpMatch(t, p.pattern, tc.text); got != p.want {
				t.Errorf("%q against %s: %v", tc.text, p.pattern, got)
			}
			if err := p.parse(tc.text); (err == nil) != p.want {
				t.Errorf("%q: volley reads it: %v, and the schema says %v", tc.text, err, p.want)
			}
		}
	}
}

func TestTypeAndFieldDoc(t *testing.T) {
	for _, tc := range [][3]string{
		{"Coherency is the distance.", "Coherency", "coherency is the distance."},
		{"Sample, when set, says so.", "Sample", "sample, when set, says so."},
		{"Stun: a unit struck stops.", "Stun", "stun: a unit struck stops."},
		{"Whatever else.", "Other", "Whatever else."},
	} {
		if got := fieldDoc(tc[0], tc[1], strings.ToLower(tc[1])); got != tc[2] {
			t.Errorf("fieldDoc(%q) = %q", tc[0], got)
		}
	}
	if got := typeDoc("UnitType is a stat sheet.", "UnitType"); got != "A stat sheet." {
		t.Errorf("typeDoc: %q", got)
	}
	if got := typeDoc("Options are the readings.", "Options"); got != "The readings." {
		t.Errorf("typeDoc: %q", got)
	}
}

func TestJSON(t *testing.T) {
	out, err := JSON("x.yaml", []byte("ruleset: dropzone\nbase: 6\"\narc: F/S\nn: 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil || v["base"] != `6"` || v["arc"] != "F/S" || v["n"] != 3.0 {
		t.Errorf("%s: %v", out, err)
	}
	if _, err := JSON("x.yaml", []byte("a: [")); err == nil {
		t.Error("a broken document reads")
	}
}

func regexpMatch(t *testing.T, pattern, s string) bool {
	t.Helper()
	return regexp.MustCompile(pattern).MatchString(s)
}
