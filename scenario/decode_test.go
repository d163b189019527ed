package scenario

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

// box wraps a value of type T as the field v, so that one table can try
// every kind of field.
type box[T any] struct {
	V T `yaml:"v"`
}

func into[T any]() func() any { return func() any { return new(box[T]) } }

func val[T any](x T) any { return &box[T]{x} }

// defsBox is box with a place to define anchors.
type defsBox[T any] struct {
	Defs any `yaml:"defs"`
	V    T   `yaml:"v"`
}

func intoDefs[T any]() func() any { return func() any { return new(defsBox[T]) } }

// upper is an encoding.TextUnmarshaler for the tests.
type upper string

func (u *upper) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		return errors.New("want some text")
	}
	*u = upper(strings.ToUpper(string(b)))
	return nil
}

type inner struct {
	A int    `yaml:"a,required"`
	B string `yaml:"b"`
}

type named struct {
	ID string `yaml:"id,required"`
}

// kindName is a required name of a closed set, as a rule system's unit kinds are.
type kindName string

func (k *kindName) DecodeScalar(s Scalar) error {
	if s.Text != "infantry" && s.Text != "cavalry" {
		return errors.New("want infantry or cavalry")
	}
	*k = kindName(s.Text)
	return nil
}

type kindBox struct {
	Kind kindName `yaml:"kind,required"`
}

type embedded struct {
	inner
	C bool
}

type decodeCase struct {
	name string
	src  string
	into func() any
	want any      // the decoded value, compared if non-nil
	errs []string // "line:col: message", in order
}

var decodeCases = []decodeCase{
	// Strings take any scalar as written.
	{"string", "v: hello", into[string](), val("hello"), nil},
	{"string/number", "v: 12", into[string](), val("12"), nil},
	{"string/quoted", `v: "a: b"`, into[string](), val("a: b"), nil},
	{"string/literal", "v: |\n  a\n  b\n", into[string](), val("a\nb\n"), nil},
	{"string/folded", "v: >\n  a\n  b\n", into[string](), val("a b\n"), nil},
	{"string/tag", "v: !!str 0x10", into[string](), val("0x10"), nil},
	{"string/list", "v: [a]", into[string](), nil, []string{`1:4: v: want a string, got a list`}},
	{"string/mapping", "v:\n  a: 1", into[string](), nil, []string{`2:3: v: want a string, got a mapping`}},

	{"bool/true", "v: true", into[bool](), val(true), nil},
	{"bool/False", "v: False", into[bool](), val(false), nil},
	{"bool/yes", "v: yes", into[bool](), nil, []string{`1:4: v: want true or false, got "yes"`}},
	{"bool/1", "v: 1", into[bool](), nil, []string{`1:4: v: want true or false, got 1`}},

	{"int", "v: 3", into[int](), val(3), nil},
	{"int/negative", "v: -3", into[int](), val(-3), nil},
	// YAML's other ways to write a whole number read differently in different YAML
	// versions, and JSON has none of them.
	{"int/hex", "v: 0x1F", into[int](), nil, []string{`1:4: v: want a whole number in plain decimal (no leading zeros, 0x, 0o, 0b or _), got 0x1F`}},
	{"int/octal", "v: 0o17", into[int](), nil, []string{`1:4: v: want a whole number in plain decimal (no leading zeros, 0x, 0o, 0b or _), got 0o17`}},
	{"int/leading zero", "v: 017", into[int](), nil, []string{`1:4: v: want a whole number in plain decimal (no leading zeros, 0x, 0o, 0b or _), got 017`}},
	{"int/underscore", "v: 1_000", into[int](), nil, []string{`1:4: v: want a whole number in plain decimal (no leading zeros, 0x, 0o, 0b or _), got 1_000`}},
	{"int/word", "v: two", into[int](), nil, []string{`1:4: v: want a whole number, got "two"`}},
	{"int/quoted", `v: "3"`, into[int](), nil, []string{`1:4: v: want a whole number, got "3"`}},
	{"int/fraction", "v: 2.5", into[int](), nil, []string{`1:4: v: want a whole number, got 2.5`}},
	{"int/list", "v: [1]", into[int](), nil, []string{`1:4: v: want a whole number, got a list`}},
	{"int8/max", "v: 127", into[int8](), val(int8(127)), nil},
	{"int8/min", "v: -128", into[int8](), val(int8(-128)), nil},
	{"int8/over", "v: 128", into[int8](), nil, []string{`1:4: v: value 128 overflows int8`}},
	{"int8/under", "v: -129", into[int8](), nil, []string{`1:4: v: value -129 overflows int8`}},
	{"int64/min", "v: -9223372036854775808", into[int64](), val(int64(math.MinInt64)), nil},
	{"int64/over", "v: 99999999999999999999", into[int64](), nil, []string{`1:4: v: value 99999999999999999999 overflows int64`}},
	{"uint8", "v: 255", into[uint8](), val(uint8(255)), nil},
	{"uint8/over", "v: 300", into[uint8](), nil, []string{`1:4: v: value 300 overflows uint8`}},
	{"uint8/negative", "v: -1", into[uint8](), nil, []string{`1:4: v: value -1 overflows uint8`}},
	{"uint64/max", "v: 18446744073709551615", into[uint64](), val(uint64(math.MaxUint64)), nil},

	{"float", "v: 2.5", into[float64](), val(2.5), nil},
	{"float/int", "v: 3", into[float64](), val(3.0), nil},
	{"float/exponent", "v: 1e3", into[float64](), val(1000.0), nil},
	{"float/inf", "v: .inf", into[float64](), val(math.Inf(1)), nil},
	{"float/-inf", "v: -.inf", into[float64](), val(math.Inf(-1)), nil},
	{"float/nan", "v: .nan", into[float64](), nil, []string{`1:4: v: want a number, got .nan`}},
	{"float/word", "v: far", into[float64](), nil, []string{`1:4: v: want a number, got "far"`}},
	{"float/list", "v: [1]", into[float64](), nil, []string{`1:4: v: want a number, got a list`}},
	{"float/over", "v: 1e400", into[float64](), nil, []string{`1:4: v: value 1e400 overflows float64`}},
	{"float32/over", "v: 1e39", into[float32](), nil, []string{`1:4: v: value 1e39 overflows float32`}},

	{"slice", "v: [1, 2, 3]", into[[]int](), val([]int{1, 2, 3}), nil},
	{"slice/block", "v:\n  - 1\n  - 2", into[[]int](), val([]int{1, 2}), nil},
	{"slice/empty", "v: []", into[[]int](), val([]int{}), nil},
	{"slice/string", "v: bolter", into[[]int](), nil, []string{`1:4: v: want a list, got a string`}},
	{"slice/number", "v: 3", into[[]int](), nil, []string{`1:4: v: want a list, got a number`}},
	{"slice/element", "v: [1, x, 3, y]", into[[]int](), nil, []string{
		`1:8: v[1]: want a whole number, got "x"`,
		`1:14: v[3]: want a whole number, got "y"`,
	}},
	{"slice/null element", "v: [1, ~]", into[[]int](), val([]int{1, 0}), nil},
	{"array", "v: [1, 2]", into[[2]int](), val([2]int{1, 2}), nil},
	{"array/long", "v: [1, 2, 3]", into[[2]int](), nil, []string{`1:4: v: want 2 values, got 3`}},
	{"array/scalar", "v: 1", into[[2]int](), nil, []string{`1:4: v: want a list of 2 values, got a number`}},

	{"map", "v: {a: 1, b: 2}", into[map[string]int](), val(map[string]int{"a": 1, "b": 2}), nil},
	{"map/value", "v:\n  a: 1\n  b: x", into[map[string]int](), nil, []string{`3:6: b: want a whole number, got "x"`}},
	{"map/list", "v: [1]", into[map[string]int](), nil, []string{`1:4: v: want a mapping, got a list`}},
	{"map/number key", "v: {1: a}", into[map[string]string](), val(map[string]string{"1": "a"}), nil},

	{"pointer", "v: 3", into[*int](), val(ptr(3)), nil},
	{"pointer/null", "v: ~", into[*int](), val[*int](nil), nil},

	{"null/tilde", "v: ~", into[int](), val(0), nil},
	{"null/word", "v: null", into[string](), val(""), nil},
	{"null/empty", "v:", into[[]int](), val[[]int](nil), nil},

	{"any/mapping", "v: {a: 1, b: [x, 2.5, true, ~]}", into[any](),
		val[any](map[string]any{"a": int64(1), "b": []any{"x", 2.5, true, nil}}), nil},
	{"any/big", "v: 99999999999999999999", into[any](), val[any](1e20), nil},
	{"any/inf", "v: -.inf", into[any](), val[any](math.Inf(-1)), nil},

	{"struct", "v: {a: 1, b: x}", into[inner](), val(inner{1, "x"}), nil},
	{"struct/unknown", "v: {a: 1, bb: x, zzz: 2}", into[inner](), nil, []string{
		`1:11: unknown field "bb" (did you mean "b"?)`,
		`1:18: unknown field "zzz"`,
	}},
	{"struct/missing", "v:\n  b: x", into[inner](), nil, []string{`2:3: missing field "a"`}},
	{"struct/required null", "v:\n  a: ~", into[inner](), nil, []string{`2:6: a: missing value`}},
	{"struct/required empty string", "v: {id: \"\"}", into[named](), nil, []string{`1:9: id: must not be empty`}},
	// A value that fails to decode is left empty, and its own error is the only one.
	{"struct/required bad kind", "v: {kind: artilery}", into[kindBox](), nil, []string{`1:11: kind: want infantry or cavalry`}},
	{"struct/required empty kind", "v: {kind: \"\"}", into[kindBox](), nil, []string{`1:11: kind: want infantry or cavalry`}},
	{"struct/null list entry", "v:\n  -\n", into[[]named](), nil, []string{`2:5: missing field "id"`}},
	{"struct/list", "v: [1]", into[inner](), nil, []string{`1:4: v: want a mapping, got a list`}},
	{"struct/inline", "v: {a: 1, c: true}", into[embedded](), val(embedded{inner{A: 1}, true}), nil},
	{"struct/skip", "secret: x", func() any { return new(unit) }, nil, []string{
		`1:1: missing field "name"`,
		`1:1: unknown field "secret"`,
	}},

	{"merge", "defs: {b: &b {a: 1, c: x}}\nv: {<<: *b, c: y, d: z}", intoDefs[map[string]any](), nil, nil},
	{"merge/struct", "defs: [&b {a: 1, b: x}]\nv:\n  <<: *b\n  b: y", intoDefs[inner](), nil, nil},
	{"merge/list", "defs:\n  - &x {a: 1, b: x}\n  - &y {a: 2}\nv:\n  <<: [*y, *x]", intoDefs[inner](), nil, nil},
	{"merge/error", "defs: [&b {a: x}]\nv: {<<: *b, b: 1}", intoDefs[inner](), nil, []string{`1:15: a: want a whole number, got "x"`}},
	{"merge/scalar", "v:\n  <<: 3\n  a: 1", into[inner](), nil, []string{`2:7: <<: want a mapping or a list of mappings to merge, got a number`}},
	{"alias", "defs: &x 5\nv: *x", intoDefs[int](), nil, nil},
	{"alias/error", "defs: &x five\nv: *x", intoDefs[int](), nil, []string{`2:4: v: want a whole number, got "five"`}},

	{"ScalarDecoder", `v: 3+`, into[roll](), val(roll(3)), nil},
	{"ScalarDecoder/error", `v: 7+`, into[roll](), nil, []string{`1:4: v: want a roll from 2+ to 6+, got "7+"`}},
	{"ScalarDecoder/list", `v: [3+]`, into[roll](), nil, []string{`1:4: v: want a single value, got a list`}},
	{"TextUnmarshaler", `v: abc`, into[upper](), val(upper("ABC")), nil},
	{"TextUnmarshaler/error", `v: ""`, into[upper](), nil, []string{`1:4: v: want some text`}},

	{"Length", `v: 4"`, into[Length](), val(Inches(4)), nil},
	{"Length/cm", `v: 10cm`, into[Length](), val(Centimetres(10)), nil},
	{"Length/list", `v: [4]`, into[Length](), nil, []string{`1:4: v: want a length, got a list`}},
	{"Length/bool", `v: true`, into[Length](), nil, []string{`1:4: v: want a length like 6, 6" or 15cm, got true`}},
	{"Length/negative", `v: -3`, into[Length](), nil, []string{`1:4: v: a length cannot be negative, got -3`}},
	{"Length/unit", `v: 4 parsecs`, into[Length](), nil, []string{`1:4: v: unknown unit "parsecs" in length "4 parsecs" (want in, " or cm)`}},
	{"Point/list", `v: [1, -2]`, into[Point](), val(Point{1, -2}), nil},
	{"Point/mapping", `v: {x: 1, y: 2cm}`, into[Point](), val(Point{1, Centimetres(2).Inches()}), nil},
	{"Point/count", `v: [1]`, into[Point](), nil, []string{`1:4: v: want 2 coordinates [x, y], got 1`}},
	{"Point/missing", `v: {x: 1, z: 2}`, into[Point](), nil, []string{`1:4: missing field "y"`, `1:11: unknown field "z"`}},
	{"Point/coordinate", `v: [1, a]`, into[Point](), nil, []string{`1:8: v[1]: want a length like 6, 6" or 15cm, got "a"`}},
	{"Point/string", `v: here`, into[Point](), nil, []string{`1:4: v: want a point [x, y] or {x: …, y: …}, got a string`}},
	{"Unit", `v: mm`, into[Unit](), nil, []string{`1:4: v: want "in" or "cm", got "mm"`}},

	{"unsupported", "v: 1", into[chan int](), nil, []string{`1:4: v: cannot decode into Go type chan int`}},
}

func ptr[T any](x T) *T { return &x }

// TestDecodeAliases checks the values that anchors, aliases and merge keys
// give, which the table above cannot compare through its defs field.
func TestDecodeAliases(t *testing.T) {
	for _, tc := range []struct {
		src  string
		into any
		want any
	}{
		{"defs: {b: &b {a: 1, c: x}}\nv: {<<: *b, c: y, d: z}", new(defsBox[map[string]any]),
			map[string]any{"a": int64(1), "c": "y", "d": "z"}},
		{"defs: [&b {a: 1, b: x}]\nv:\n  <<: *b\n  b: y", new(defsBox[inner]), inner{1, "y"}},
		// Of two merged mappings the earlier wins.
		{"defs:\n  - &x {a: 1, b: x}\n  - &y {a: 2}\nv:\n  <<: [*y, *x]", new(defsBox[inner]), inner{2, "x"}},
		{"defs: &x 5\nv: *x", new(defsBox[int]), 5},
		// An alias names the latest anchor before it.
		{"defs: [&x 1, *x, &x 2]\nv: *x", new(defsBox[int]), 2},
	} {
		if _, errs := decodeString(t, tc.src, tc.into); errs != nil {
			t.Errorf("Decode(%q): %v", tc.src, errs)
			continue
		}
		got := reflect.ValueOf(tc.into).Elem().FieldByName("V").Interface()
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Decode(%q) = %#v; want %#v", tc.src, got, tc.want)
		}
	}
}

func TestDecode(t *testing.T) {
	for _, tc := range decodeCases {
		t.Run(tc.name, func(t *testing.T) {
			got, errs := decodeString(t, tc.src, tc.into())
			if !reflect.DeepEqual(errs, tc.errs) {
				t.Errorf("Decode(%q) errors:\n%s\nwant:\n%s", tc.src, strings.Join(errs, "\n"), strings.Join(tc.errs, "\n"))
			}
			if tc.want != nil && !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Decode(%q) = %#v; want %#v", tc.src, got, tc.want)
			}
		})
	}
}

// mustParse parses src under the file name file and stops the test on an error.
func mustParse(tb testing.TB, file string, src []byte) *Doc {
	tb.Helper()
	doc, err := Parse(file, src)
	if err != nil {
		tb.Fatal(err)
	}
	return doc
}

// decodeString parses and decodes src into v, returning v and the errors as
// "line:col: message" (the file name is empty).
func decodeString(tb testing.TB, src string, v any) (any, []string) {
	tb.Helper()
	doc, err := Parse("", []byte(src))
	if err != nil {
		return v, errorStrings(tb, err)
	}
	return v, errorStrings(tb, doc.Decode(v))
}

func errorStrings(tb testing.TB, err error) []string {
	tb.Helper()
	if err == nil {
		return nil
	}
	var list ErrorList
	if !errors.As(err, &list) {
		tb.Fatalf("error %v is a %T, not an ErrorList", err, err)
	}
	var out []string
	for _, e := range list {
		out = append(out, e.Error())
	}
	return out
}

// TestFailed: a value whose decoding reported an error is Failed, with every value it
// lies in; its sound neighbours are not.
func TestFailed(t *testing.T) {
	type unit struct {
		ID       string `yaml:"id,required"`
		Frontage Length `yaml:"frontage,required"`
		Side     string `yaml:"side"`
	}
	type file struct {
		Units []unit `yaml:"units"`
		Title string `yaml:"title"`
	}
	src := "title: t\nunits:\n  - {id: a, frontge: 4, side: x}\n  - {id: b, frontage: 4, side: y}\n  - {id: c, frontage: wide}\n"
	doc := mustParse(t, "f.yaml", []byte(src))
	var f file
	if err := doc.Decode(&f); err == nil {
		t.Fatal("no error")
	}
	for _, tc := range []struct {
		name string
		ptr  any
		want bool
	}{
		{"file", &f, true},
		{"units", &f.Units, true},
		{"title", &f.Title, false},
		{"a (misspelt field)", &f.Units[0], true},
		{"a.side", &f.Units[0].Side, false},
		{"b", &f.Units[1], false},
		{"c (bad length)", &f.Units[2], true},
		{"c.frontage", &f.Units[2].Frontage, true},
		{"c.id", &f.Units[2].ID, false},
		{"not decoded", new(int), false},
	} {
		if got := doc.Failed(tc.ptr); got != tc.want {
			t.Errorf("Failed(%s) = %v; want %v", tc.name, got, tc.want)
		}
	}
}
