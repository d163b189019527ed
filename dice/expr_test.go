package dice

import (
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestParseExprValid(t *testing.T) {
	tests := []struct {
		in      string
		want    string // String()
		vars    []string
		min     int // with every variable 1
		max     int
		isConst bool
	}{
		{"2d6+1", "2d6+1", nil, 3, 13, false},
		{"d3", "d3", nil, 1, 3, false},
		{"D6+E", "d6+E", []string{"E"}, 2, 7, false},
		{"3d6-2", "3d6-2", nil, 1, 16, false},
		{"d100", "d100", nil, 1, 100, false},
		{"d%", "d100", nil, 1, 100, false},
		{"D%", "d100", nil, 1, 100, false},
		{"4", "4", nil, 4, 4, true},
		{"E+2", "E+2", []string{"E"}, 3, 3, false},
		{"1d6", "d6", nil, 1, 6, false},
		{"+d6", "d6", nil, 1, 6, false},
		{"-d6", "-d6", nil, -6, -1, false},
		{"- 3", "-3", nil, -3, -3, true},
		{"  2d6 + 1 - E  ", "2d6+1-E", []string{"E"}, 2, 12, false},
		{"1000d10000", "1000d10000", nil, 1000, 10000000, false},
		{"1000000", "1000000", nil, 1000000, 1000000, true},
		{"007", "7", nil, 7, 7, true},
		{"dam+Shots_2+dam", "dam+Shots_2+dam", []string{"Shots_2", "dam"}, 3, 3, false},
		{"d6-d6", "d6-d6", nil, -5, 5, false},
		{"1+2-3", "1+2-3", nil, 0, 0, true},
		{"\td6\n", "d6", nil, 1, 6, false},
		{"x1d6", "x1d6", []string{"x1d6"}, 1, 1, false},
	}
	for _, tt := range tests {
		e, err := ParseExpr(tt.in)
		if err != nil {
			t.Errorf("ParseExpr(%q) = %v; want %s", tt.in, err, tt.want)
			continue
		}
		if got := e.String(); got != tt.want {
			t.Errorf("ParseExpr(%q).String() = %q; want %q", tt.in, got, tt.want)
		}
		if got := e.Vars(); !slices.Equal(got, tt.vars) {
			t.Errorf("ParseExpr(%q).Vars() = %q; want %q", tt.in, got, tt.vars)
		}
		vars := map[string]int{}
		for _, v := range tt.vars {
			vars[v] = 1
		}
		lo, err1 := e.Min(vars)
		hi, err2 := e.Max(vars)
		if lo != tt.min || hi != tt.max || err1 != nil || err2 != nil {
			t.Errorf("ParseExpr(%q) Min, Max = %d, %d (%v, %v); want %d, %d", tt.in, lo, hi, err1, err2, tt.min, tt.max)
		}
		if v, ok := e.Const(); ok != tt.isConst || (ok && v != tt.min) {
			t.Errorf("ParseExpr(%q).Const() = %d, %v; want %d, %v", tt.in, v, ok, tt.min, tt.isConst)
		}
	}
}

func TestParseExprInvalid(t *testing.T) {
	tests := []struct {
		in  string
		col int
		msg string
	}{
		{"", 1, "empty expression"},
		{"   ", 1, "empty expression"},
		{"2d", 3, `expected number of sides after "d"`},
		{"2d+1", 3, `expected number of sides after "d"`},
		{"2Dx", 3, `expected number of sides after "D"`},
		{"d", 2, `expected number of sides after "d"`},
		{"E+d", 4, `expected number of sides after "d"`},
		{"2d6*2", 4, `unexpected "*"`},
		{"2d6+", 5, `expected a term after "+"`},
		{"-", 2, `expected a term after "-"`},
		{"2d6 +  ", 8, `expected a term after "+"`},
		{"2 d6", 3, `unexpected "d"`},
		{"2x", 2, `unexpected "x"`},
		{"d6d6", 3, `unexpected "d"`},
		{"d%%", 3, `unexpected "%"`},
		{"++1", 2, `unexpected "+"`},
		{"1--1", 3, `unexpected "-"`},
		{"_x", 1, `unexpected "_"`},
		{"(d6)", 1, `unexpected "("`},
		{"0d6", 1, "number of dice must be 1 to 1000, not 0"},
		{"1001d6", 1, "number of dice must be 1 to 1000, not 1001"},
		{"1+99999999999999999999999d6", 3, "number of dice must be 1 to 1000, not 99999999999999999999999"},
		{"d0", 2, "a die must have 1 to 10000 sides, not 0"},
		{"3d10001", 3, "a die must have 1 to 10000 sides, not 10001"},
		{"1000001", 1, "number 1000001 is more than 1000000"},
		{"é+1", 1, `unexpected "é"`},
		{"\u00a0\u00a0d", 4, `expected number of sides after "d"`}, // columns count runes, not bytes
		{"\xff", 1, "unexpected \"\ufffd\""},
	}
	for _, tt := range tests {
		e, err := ParseExpr(tt.in)
		var xe *ExprError
		if !errors.As(err, &xe) {
			t.Errorf("ParseExpr(%q) = %v, %v; want *ExprError", tt.in, e, err)
			continue
		}
		if xe.Col != tt.col || xe.Msg != tt.msg {
			t.Errorf("ParseExpr(%q) = col %d: %s; want col %d: %s", tt.in, xe.Col, xe.Msg, tt.col, tt.msg)
		}
	}
	_, err := ParseExpr("2d")
	if got, want := err.Error(), `dice: col 3: expected number of sides after "d"`; got != want {
		t.Errorf("ParseExpr(%q) error = %q; want %q", "2d", got, want)
	}
}

func TestMustParseExpr(t *testing.T) {
	if got := MustParseExpr("2D6").String(); got != "2d6" {
		t.Errorf("MustParseExpr(%q).String() = %q; want %q", "2D6", got, "2d6")
	}
	defer func() {
		if recover() == nil {
			t.Errorf("MustParseExpr(%q) did not panic", "2d")
		}
	}()
	MustParseExpr("2d")
}

func TestZeroExpr(t *testing.T) {
	var e Expr
	if got := e.String(); got != "0" {
		t.Errorf("Expr{}.String() = %q; want %q", got, "0")
	}
	if v, ok := e.Const(); v != 0 || !ok {
		t.Errorf("Expr{}.Const() = %d, %v; want 0, true", v, ok)
	}
	if d, err := e.Dist(nil); err != nil || !sameDist(d, Const(0), 0) {
		t.Errorf("Expr{}.Dist(nil) = %v, %v; want {0: 1}", d, err)
	}
}

func TestExprDist(t *testing.T) {
	tests := []struct {
		in   string
		vars map[string]int
		want Dist
	}{
		{"2d6+1", nil, Die(6).SumN(2).Shift(1)},
		{"d6+E", map[string]int{"E": 2}, Die(6).Shift(2)},
		{"-d6", nil, Die(6).Neg()},
		{"d6-d6", nil, Die(6).Sub(Die(6))},
		{"3d6-2", nil, Die(6).SumN(3).Shift(-2)},
		{"d%", nil, Die(100)},
		{"4-X", map[string]int{"X": 10}, Const(-6)},
		{"d4+d6", nil, Die(4).Add(Die(6))},
	}
	for _, tt := range tests {
		d, err := MustParseExpr(tt.in).Dist(tt.vars)
		if err != nil {
			t.Errorf("%q.Dist(%v) = %v", tt.in, tt.vars, err)
			continue
		}
		checkInvariants(t, tt.in, d)
		if !sameDist(d, tt.want, 1e-15) {
			t.Errorf("%q.Dist(%v) = %v; want %v", tt.in, tt.vars, d, tt.want)
		}
	}
}

func TestExprDistErrors(t *testing.T) {
	tests := []struct {
		in   string
		vars map[string]int
		want string
	}{
		{"d6+E", nil, `dice: unknown variable "E" in d6+E`},
		{"d6+E", map[string]int{"e": 1}, `dice: unknown variable "E" in d6+E`},
		{"1000d1000", nil, "dice: 1000d1000 ranges over more than 32768 values"},
		{"d6+X", map[string]int{"X": 1 << 62}, ""},
	}
	for _, tt := range tests {
		_, err := MustParseExpr(tt.in).Dist(tt.vars)
		if tt.want == "" {
			if err != nil {
				t.Errorf("%q.Dist(%v) = %v; want no error", tt.in, tt.vars, err)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%q.Dist(%v) error = %v; want %q", tt.in, tt.vars, err, tt.want)
		}
	}
}

func TestExprRoll(t *testing.T) {
	e := MustParseExpr("2d6+d3-1+E")
	s := New(11)
	got, err := e.Roll(s, "shots, Avenger Railgun", map[string]int{"E": 4})
	if err != nil {
		t.Fatal(err)
	}
	rolls := s.Rolls()
	wantSides := []int{6, 6, 3}
	if len(rolls) != len(wantSides) {
		t.Fatalf("Roll recorded %d rolls; want %d", len(rolls), len(wantSides))
	}
	sum := 3
	for i, r := range rolls {
		if r.Sides != wantSides[i] || r.Purpose != "shots, Avenger Railgun" {
			t.Errorf("roll %d = %+v; want a d%d for %q", i, r, wantSides[i], "shots, Avenger Railgun")
		}
		sum += r.Value
	}
	if got != sum {
		t.Errorf("Roll = %d; want the dice plus 3 = %d", got, sum)
	}

	// The same seed gives the same total, recorded or not.
	again, _ := e.Roll(NewUnrecorded(11), "", map[string]int{"E": 4})
	if again != got {
		t.Errorf("Roll through NewUnrecorded(11) = %d; want %d", again, got)
	}

	// A missing variable fails before any die is thrown.
	s2 := New(11)
	if _, err := e.Roll(s2, "x", nil); err == nil || s2.Len() != 0 {
		t.Errorf("Roll with E missing = %v, %d rolls; want an error and 0 rolls", err, s2.Len())
	}

	// Negative dice subtract.
	s3 := New(1)
	v, _ := MustParseExpr("-d6").Roll(s3, "x", nil)
	if v != -s3.Rolls()[0].Value {
		t.Errorf("-d6 rolled %d from a die showing %d", v, s3.Rolls()[0].Value)
	}
}

// TestExprRollMatchesDist checks that rolling many times gives about the
// frequencies Dist promises.
func TestExprRollMatchesDist(t *testing.T) {
	e := MustParseExpr("2d6-d3")
	d, _ := e.Dist(nil)
	s := NewUnrecorded(3)
	const n = 60000
	counts := map[int]int{}
	for range n {
		v, _ := e.Roll(s, "", nil)
		counts[v]++
	}
	for _, o := range d.Outcomes() {
		got := float64(counts[o.Value]) / n
		// Five standard errors: generous, and the stream is fixed anyway.
		if tol := 5 * math.Sqrt(o.P*(1-o.P)/n); math.Abs(got-o.P) > tol {
			t.Errorf("2d6-d3 rolled %d with frequency %.4f; want %.4f ± %.4f", o.Value, got, o.P, tol)
		}
	}
}

func TestExprText(t *testing.T) {
	type weapon struct {
		Shots Expr `json:"shots"`
	}
	var w weapon
	if err := json.Unmarshal([]byte(`{"shots":"D3 + 1"}`), &w); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(w)
	if err != nil || string(b) != `{"shots":"d3+1"}` {
		t.Errorf("json.Marshal = %s, %v; want %s", b, err, `{"shots":"d3+1"}`)
	}
	if err := json.Unmarshal([]byte(`{"shots":"2d"}`), &w); err == nil {
		t.Errorf("json.Unmarshal of a bad expression succeeded")
	}
}

func FuzzParseExpr(f *testing.F) {
	for _, s := range []string{"2d6+1", "d3", "D6+E", "3d6-2", "d100", "d%", "4", "E+2", "", "-", "2d", "1000d10000", "x_1-7", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := ParseExpr(s)
		if err != nil {
			var xe *ExprError
			if !errors.As(err, &xe) || xe.Col < 1 || xe.Col > len([]rune(s))+1 {
				t.Fatalf("ParseExpr(%q) error %v: want *ExprError with a column in the input", s, err)
			}
			return
		}
		text := e.String()
		e2, err := ParseExpr(text)
		if err != nil {
			t.Fatalf("ParseExpr(%q).String() = %q, which does not parse: %v", s, text, err)
		}
		if got := e2.String(); got != text {
			t.Fatalf("String() of %q: %q then %q", s, text, got)
		}
		vars := map[string]int{}
		for _, v := range e.Vars() {
			vars[v] = 1
		}
		lo, err1 := e.Min(vars)
		hi, err2 := e.Max(vars)
		if err1 != nil || err2 != nil || lo > hi {
			t.Fatalf("%q Min, Max = %d, %d, %v, %v", s, lo, hi, err1, err2)
		}
		if hi-lo > 10000 {
			return // keep each input cheap
		}
		d, err := e.Dist(vars)
		if err != nil {
			t.Fatalf("%q.Dist(%v) = %v", s, vars, err)
		}
		// Inside, not equal: extreme totals of many dice, such as 700 ones
		// on 700d7, are too unlikely for a float64 and drop out.
		if d.Min() < lo || d.Max() > hi {
			t.Fatalf("%q.Dist range = %d..%d; want within %d..%d", s, d.Min(), d.Max(), lo, hi)
		}
		if msg := invariantError(d); msg != "" {
			t.Fatalf("%q.Dist = %v: %s", s, d, msg)
		}
	})
}

func BenchmarkParseExpr(b *testing.B) {
	for b.Loop() {
		ParseExpr("2d6+D3-E")
	}
}

func BenchmarkExprRoll(b *testing.B) {
	e := MustParseExpr("2d6+1")
	s := NewUnrecorded(1)
	for b.Loop() {
		e.Roll(s, "", nil)
	}
}

// BenchmarkExprDistWorst is about the most work Expr.Dist accepts, to keep
// MaxDistSpan honest.
func BenchmarkExprDistWorst(b *testing.B) {
	for _, s := range []string{"1000d33", "3d10000", "d10000+d10000-d10000"} {
		e := MustParseExpr(s)
		b.Run(s, func(b *testing.B) {
			for b.Loop() {
				if _, err := e.Dist(nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// FuzzConstExprPattern holds ConstExprPattern, which a scenario's schema gives for an
// expression without variables, to ParseExpr: every text it matches parses, unless a
// number is past a bound (which a pattern cannot say), and has no variable; every
// expression without variables that parses with its terms written plainly matches it.
func FuzzConstExprPattern(f *testing.F) {
	for _, s := range []string{"2", "D3", "2d6+1", " d% - 2 ", "-1", "3d6-2d4+1", "D6+E", "0d6", "d0", "2 d6", "+d6", "1e3", "d6++1", ""} {
		f.Add(s)
	}
	re := regexp.MustCompile(ConstExprPattern)
	f.Fuzz(func(t *testing.T, s string) {
		e, err := ParseExpr(s)
		if re.MatchString(s) {
			if err != nil && !strings.Contains(err.Error(), " to ") && !strings.Contains(err.Error(), "more than") {
				t.Fatalf("%q matches the pattern and does not parse: %v", s, err)
			}
			if err == nil && len(e.Vars()) > 0 {
				t.Fatalf("%q matches the pattern and has variables %v", s, e.Vars())
			}
			return
		}
		if err == nil && len(e.Vars()) == 0 && strings.IndexFunc(s, func(r rune) bool { return r > 127 || r == '\v' }) < 0 && !strings.Contains(strings.ToLower(s), "d ") {
			t.Fatalf("%q parses to a constant expression the pattern refuses", s)
		}
	})
}
