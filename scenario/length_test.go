package scenario

import (
	"reflect"
	"slices"
	"testing"
)

func TestParseLength(t *testing.T) {
	for _, tc := range []struct {
		text string
		unit Unit
		want Length
		err  string
	}{
		{`4"`, Inch, 4, ""},
		{`4in`, Inch, 4, ""},
		{`4 in`, Centimetre, 4, ""},
		{`10cm`, Inch, 3.937007874015748, ""},
		{`2.5 cm`, Inch, Centimetres(2.5), ""},
		{`12`, Centimetre, Centimetres(12), ""},
		{`12`, Inch, 12, ""},
		{`12`, "", 12, ""},
		{` 0.5" `, Inch, 0.5, ""},
		{`0`, Inch, 0, ""},
		{`4 parsecs`, Inch, 0, `unknown unit "parsecs" in length "4 parsecs" (want in, " or cm)`},
		{`-3`, Inch, 0, `a length cannot be negative, got -3`},
		{`-3cm`, Inch, 0, `a length cannot be negative, got -3cm`},
		{`far`, Inch, 0, `want a length like 6, 6" or 15cm, got "far"`},
		{``, Inch, 0, `want a length like 6, 6" or 15cm, got ""`},
		{`∞`, Inch, 0, `want a length like 6, 6" or 15cm, got "∞"`},
		{`1e999`, Inch, 0, `want a length like 6, 6" or 15cm, got "1e999"`},
		{`4e`, Inch, 0, `want a length like 6, 6" or 15cm, got "4e"`},
	} {
		got, err := ParseLength(tc.text, tc.unit)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if got != tc.want || gotErr != tc.err {
			t.Errorf("ParseLength(%q, %q) = %v, %q; want %v, %q", tc.text, tc.unit, got, gotErr, tc.want, tc.err)
		}
	}
}

func TestLengthUnits(t *testing.T) {
	for _, tc := range []struct {
		l      Length
		inches float64
		cm     float64
	}{
		{Inches(4), 4, 10.16},
		{Centimetres(10), 3.937007874015748, 10},
		{0, 0, 0},
	} {
		if got := tc.l.Inches(); got != tc.inches {
			t.Errorf("%v.Inches() = %v; want %v", tc.l, got, tc.inches)
		}
		if got := tc.l.In(Inch); got != tc.inches {
			t.Errorf("%v.In(Inch) = %v; want %v", tc.l, got, tc.inches)
		}
		if got := tc.l.In(Centimetre); got != tc.cm {
			t.Errorf("%v.In(Centimetre) = %v; want %v", tc.l, got, tc.cm)
		}
	}
}

// TestLengthInDocument checks that a plain number takes the document's unit
// and that an explicit unit overrides it, in lengths and in points.
func TestLengthInDocument(t *testing.T) {
	type target struct {
		Header
		Range Length   `yaml:"range"`
		Also  Length   `yaml:"also"`
		At    Point    `yaml:"at"`
		Many  []Length `yaml:"many"`
	}
	for _, tc := range []struct {
		src  string
		want target
	}{
		{
			"ruleset: r\nrange: 12\nalso: 4\"\nat: [2.54, -1in]\nmany: [10cm, 1]",
			target{Header{Ruleset: "r"}, 12, 4, Point{2.54, -1}, []Length{Centimetres(10), 1}},
		},
		{
			"ruleset: r\ndistances: cm\nrange: 12\nalso: 4\"\nat: [2.54, -1in]\nmany: [10cm, 1]",
			target{Header{Ruleset: "r", Distances: Centimetre}, Centimetres(12), 4, Point{1, -1}, []Length{Centimetres(10), Centimetres(1)}},
		},
		{
			"ruleset: r\ndistances: in\nrange: 10 cm",
			target{Header: Header{Ruleset: "r", Distances: Inch}, Range: 3.937007874015748},
		},
	} {
		var got target
		if _, errs := decodeString(t, tc.src, &got); errs != nil {
			t.Errorf("Decode(%q): %v", tc.src, errs)
			continue
		}
		if got.Range != tc.want.Range || got.Also != tc.want.Also || got.At != tc.want.At ||
			!reflect.DeepEqual(got.Header, tc.want.Header) || len(got.Many) != len(tc.want.Many) {
			t.Errorf("Decode(%q) = %+v; want %+v", tc.src, got, tc.want)
			continue
		}
		for i := range got.Many {
			if got.Many[i] != tc.want.Many[i] {
				t.Errorf("Decode(%q).Many = %v; want %v", tc.src, got.Many, tc.want.Many)
			}
		}
	}
}

func TestUnit(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want Unit
		errs []string
	}{
		{"ruleset: r", Inch, nil},
		{"ruleset: r\ndistances: in", Inch, nil},
		{"ruleset: r\ndistances: cm", Centimetre, nil},
		{"ruleset: r\ndistances: mm", Inch, []string{`2:12: distances: want "in" or "cm", got "mm"`}},
		{"ruleset: r\ndistances: [cm]", Inch, []string{`2:12: distances: want "in" or "cm", got a list`}},
	} {
		doc := mustParse(t, "", []byte(tc.src))
		if got := doc.Unit(); got != tc.want {
			t.Errorf("Parse(%q).Unit() = %q; want %q", tc.src, got, tc.want)
		}
		if sec := doc.Section("ruleset"); sec.Unit() != tc.want {
			t.Errorf("Parse(%q).Section(\"ruleset\").Unit() = %q; want %q", tc.src, sec.Unit(), tc.want)
		}
		var h Header
		if errs := errorStrings(t, doc.Decode(&h)); !slices.Equal(errs, tc.errs) {
			t.Errorf("Decode(%q) errors = %q; want %q", tc.src, errs, tc.errs)
		}
	}
}
