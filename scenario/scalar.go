package scenario

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// ScalarDecoder is implemented by types written as one scalar in a scenario:
// "3+", "4\"", "∞", "F/S". Decode hands such a type the scalar; an error it
// returns is reported at the scalar's position, after the field's name.
// A list or mapping where such a type is wanted is a type error, and a null
// leaves the value as it was, so DecodeScalar is never called with KindNull.
type ScalarDecoder interface {
	DecodeScalar(s Scalar) error
}

// ScalarKind says how a scalar was written, so that a ScalarDecoder can tell
// the number 3 from the string "3".
type ScalarKind int

// The kinds of scalar. A quoted, literal (|) or folded (>) scalar is always
// KindString; a plain one is classified by its text.
const (
	KindString ScalarKind = iota // text, quoted or not
	KindInt                      // a whole number: 3, -2, 0x1F, 1_000
	KindFloat                    // any other number: 2.5, 1e3, .nan
	KindBool                     // true or false
	KindNull                     // ~, null, or nothing at all
	KindInf                      // .inf or -.inf
)

var kindNames = [...]string{"string", "int", "float", "bool", "null", "inf"}

// String returns the kind's name: "string", "int", and so on.
func (k ScalarKind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "ScalarKind(" + strconv.Itoa(int(k)) + ")"
	}
	return kindNames[k]
}

// Scalar is one scalar value as written in a scenario.
type Scalar struct {
	// Text is the literal as written; for a quoted, literal or folded string
	// it is the string's value, with escapes and folding applied.
	Text string
	Kind ScalarKind
	// Unit is the document's length unit, for scalars that are lengths.
	Unit Unit
}

// got describes s for the end of a "want …, got …" message. Strings are
// quoted so that a player can see exactly what was read; other kinds are
// shown as written. Long text is shortened to keep one error on one line.
func (s Scalar) got() string {
	const maxRunes = 40
	t := s.Text
	if r := []rune(t); len(r) > maxRunes {
		t = string(r[:maxRunes]) + "…"
	}
	if s.Kind == KindString || strings.ContainsAny(t, "\n\r\t\"") {
		return strconv.Quote(t)
	}
	return t
}

// Plain scalars that goccy leaves as strings but a player (or JSON) means as
// numbers: exponents without a dot, and integers too big for 64 bits.
var (
	plainInt   = regexp.MustCompile(`^[-+]?[0-9][0-9_]*$`)
	plainFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?$`)
)

// scalarOf returns the scalar that node stands for, and false if node is not
// a scalar. node must already be resolved: no anchors, aliases or tags.
func scalarOf(node ast.Node, u Unit) (Scalar, bool) {
	s := Scalar{Unit: u}
	switch n := node.(type) {
	case *ast.NullNode:
		s.Kind = KindNull
		if n.Token != nil && n.Token.Type != token.ImplicitNullType {
			s.Text = n.Token.Value
		}
	case *ast.BoolNode:
		s.Kind, s.Text = KindBool, n.Token.Value
	case *ast.IntegerNode:
		s.Kind, s.Text = KindInt, n.Token.Value
	case *ast.FloatNode:
		s.Kind, s.Text = KindFloat, n.Token.Value
	case *ast.NanNode:
		s.Kind, s.Text = KindFloat, n.Token.Value
	case *ast.InfinityNode:
		s.Kind, s.Text = KindInf, n.Token.Value
	case *ast.LiteralNode:
		s.Kind = KindString
		if n.Value != nil {
			s.Text = n.Value.Value
		}
	case *ast.MergeKeyNode:
		s.Kind, s.Text = KindString, n.Token.Value
	case *ast.StringNode:
		s.Kind, s.Text = KindString, n.Value
		if n.Token != nil && n.Token.Type == token.StringType {
			switch {
			case plainInt.MatchString(s.Text):
				s.Kind = KindInt
			case plainFloat.MatchString(s.Text):
				s.Kind = KindFloat
			}
		}
	default:
		return Scalar{}, false
	}
	return s, true
}

// intText splits a YAML integer into sign, magnitude and base the way goccy
// reads it (0x, 0o, 0b prefixes; a leading 0 means octal; _ separates digits),
// so that this package and goccy agree on what 017 means.
func intText(text string) (neg bool, digits string, base int) {
	t := text
	switch {
	case strings.HasPrefix(t, "-"):
		neg, t = true, t[1:]
	case strings.HasPrefix(t, "+"):
		t = t[1:]
	}
	t = strings.ReplaceAll(t, "_", "")
	switch {
	case strings.HasPrefix(t, "0x"):
		return neg, t[2:], 16
	case strings.HasPrefix(t, "0o"):
		return neg, t[2:], 8
	case strings.HasPrefix(t, "0b"):
		return neg, t[2:], 2
	case len(t) > 1 && t[0] == '0':
		return neg, t[1:], 8
	}
	return neg, t, 10
}

// plainDecimal reports whether a whole number is written in plain decimal: an
// optional sign and digits without a leading zero or an underscore. YAML's
// other ways (0x1F, 0o17, 0b101, 017, 1_000) read differently in different
// YAML versions and JSON has none of them, so a scenario may not use them.
func plainDecimal(text string) bool {
	t := strings.TrimPrefix(strings.TrimPrefix(text, "-"), "+")
	if t == "" || len(t) > 1 && t[0] == '0' {
		return false
	}
	for _, c := range t {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// parseInt reads a whole number written as in YAML. ok is false if text is
// not a whole number; overflow is true if it is one but needs more than 64
// bits of magnitude.
func parseInt(text string) (neg bool, mag uint64, ok, overflow bool) {
	neg, digits, base := intText(text)
	if digits == "" || strings.HasPrefix(digits, "+") || strings.HasPrefix(digits, "-") {
		return false, 0, false, false
	}
	mag, err := strconv.ParseUint(digits, base, 64)
	if err != nil {
		if ne, isNum := err.(*strconv.NumError); isNum && ne.Err == strconv.ErrRange {
			return neg, 0, true, true
		}
		return false, 0, false, false
	}
	return neg, mag, true, false
}

// parseNumber reads a number of any kind the way YAML writes it: whole
// numbers in any base, decimals, exponents, .inf and .nan.
func parseNumber(s Scalar) (float64, bool) {
	switch s.Kind {
	case KindInt:
		neg, mag, ok, overflow := parseInt(s.Text)
		if overflow {
			// Too big for 64 bits but still a number: read it approximately.
			_, digits, base := intText(s.Text)
			if base != 10 {
				return 0, false
			}
			f, err := strconv.ParseFloat(digits, 64)
			if err != nil {
				return 0, false
			}
			if neg {
				f = -f
			}
			return f, true
		}
		if !ok {
			return 0, false
		}
		f := float64(mag)
		if neg {
			f = -f
		}
		return f, true
	case KindFloat:
		t := strings.ReplaceAll(s.Text, "_", "")
		switch strings.ToLower(t) {
		case ".nan":
			return math.NaN(), true
		}
		f, err := strconv.ParseFloat(t, 64)
		if err != nil && !math.IsInf(f, 0) {
			return 0, false
		}
		// Out of range comes back as ±Inf, which the caller reports as overflow.
		return f, true
	case KindInf:
		if strings.HasPrefix(s.Text, "-") {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	return 0, false
}
