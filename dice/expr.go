package dice

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Limits on dice expressions. They are far beyond any rule's needs and
// exist so that a mistyped expression cannot ask for an absurd amount of
// work or memory.
const (
	// MaxCount is the most dice one term may throw, as in "1000d6".
	MaxCount = 1000
	// MaxSides is the most sides a die may have.
	MaxSides = 10000
	// MaxNumber is the largest integer an expression may contain.
	MaxNumber = 1000000
	// MaxDistSpan is the most values (Max−Min+1) that Expr.Dist will work
	// out a distribution over. The work of an exact distribution grows
	// with the square of its span; at this limit it takes a fraction of a
	// second.
	MaxDistSpan = 1 << 15
)

// Expr is a parsed dice expression such as "2d6+1", "D6+E" or "d%": terms
// joined by + and -, each a throw of dice, an integer, or a variable the
// caller supplies (such as a weapon's E value). The zero Expr is the
// constant 0. An Expr is immutable once parsed.
//
// The grammar: an optional leading sign, then terms joined by "+" or "-",
// with spaces allowed between them. A term is [count]d<sides> (the "d" may
// be "D"; "d%" means "d100"), an integer, or an identifier: an ASCII letter
// followed by letters, digits and underscores. A "d" followed by a digit or
// "%" always starts a dice term, so "d6" is never a variable.
type Expr struct {
	terms []term
}

// termKind says which of the three kinds a term is.
type termKind uint8

const (
	numberTerm termKind = iota
	diceTerm
	varTerm
)

// term is one signed part of an expression.
type term struct {
	kind  termKind
	neg   bool
	n     int    // the number, or the count of dice
	sides int    // for diceTerm
	name  string // for varTerm
}

// ExprError is an error in the text of a dice expression.
type ExprError struct {
	Col int    // column of the offending character, in runes, counting from 1
	Msg string // what is wrong, in lower case
}

// Error returns "dice: col N: msg".
func (e *ExprError) Error() string {
	return fmt.Sprintf("dice: col %d: %s", e.Col, e.Msg)
}

// ParseExpr parses a dice expression. Its errors are *ExprError.
func ParseExpr(s string) (Expr, error) {
	p := parser{src: []rune(s)}
	return p.parse()
}

// MustParseExpr is ParseExpr for expressions written into code, where an
// error is a bug: it panics on one.
func MustParseExpr(s string) Expr {
	e, err := ParseExpr(s)
	if err != nil {
		panic(err)
	}
	return e
}

// parser reads one expression. It works on runes so that columns in errors
// count characters, not bytes.
type parser struct {
	src []rune
	pos int
}

func (p *parser) eof() bool  { return p.pos >= len(p.src) }
func (p *parser) peek() rune { return p.src[p.pos] }

// peekAt returns the rune i places ahead, or 0 past the end.
func (p *parser) peekAt(i int) rune {
	if p.pos+i >= len(p.src) {
		return 0
	}
	return p.src[p.pos+i]
}

func (p *parser) skipSpace() {
	for !p.eof() && unicode.IsSpace(p.peek()) {
		p.pos++
	}
}

// errAt returns an ExprError at rune index pos.
func (p *parser) errAt(pos int, format string, args ...any) error {
	return &ExprError{Col: pos + 1, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) parse() (Expr, error) {
	p.skipSpace()
	if p.eof() {
		return Expr{}, p.errAt(0, "empty expression")
	}
	var terms []term
	var op rune // the sign before the next term, 0 if none was written
	if c := p.peek(); c == '+' || c == '-' {
		op = c
		p.pos++
	}
	for {
		p.skipSpace()
		t, err := p.term(op)
		if err != nil {
			return Expr{}, err
		}
		t.neg = op == '-'
		terms = append(terms, t)
		p.skipSpace()
		if p.eof() {
			return Expr{terms: terms}, nil
		}
		c := p.peek()
		if c != '+' && c != '-' {
			return Expr{}, p.errAt(p.pos, "unexpected %q", string(c))
		}
		op = c
		p.pos++
	}
}

// term reads one term; op is the sign written before it, for messages.
func (p *parser) term(op rune) (term, error) {
	if p.eof() {
		if op != 0 {
			return term{}, p.errAt(p.pos, "expected a term after %q", string(op))
		}
		return term{}, p.errAt(p.pos, "expected a term")
	}
	start := p.pos
	c := p.peek()
	switch {
	case isDigit(c):
		n := p.number()
		if d := p.peekAt(0); d == 'd' || d == 'D' {
			if n < 1 || n > MaxCount {
				return term{}, p.errAt(start, "number of dice must be 1 to %d, not %s", MaxCount, string(p.src[start:p.pos]))
			}
			p.pos++
			sides, err := p.sides(d)
			return term{kind: diceTerm, n: n, sides: sides}, err
		}
		if n > MaxNumber {
			return term{}, p.errAt(start, "number %s is more than %d", string(p.src[start:p.pos]), MaxNumber)
		}
		return term{kind: numberTerm, n: n}, nil
	case (c == 'd' || c == 'D') && (isDigit(p.peekAt(1)) || p.peekAt(1) == '%'):
		p.pos++
		sides, err := p.sides(c)
		return term{kind: diceTerm, n: 1, sides: sides}, err
	case isLetter(c):
		for !p.eof() && (isLetter(p.peek()) || isDigit(p.peek()) || p.peek() == '_') {
			p.pos++
		}
		name := string(p.src[start:p.pos])
		if name == "d" || name == "D" {
			// A lone d is a die with its sides forgotten far more often
			// than a variable, so it is not allowed as a name.
			return term{}, p.errAt(p.pos, "expected number of sides after %q", name)
		}
		return term{kind: varTerm, name: name}, nil
	}
	return term{}, p.errAt(p.pos, "unexpected %q", string(c))
}

// sides reads the sides of a die after its d (which is passed, for
// messages).
func (p *parser) sides(d rune) (int, error) {
	if !p.eof() && p.peek() == '%' {
		p.pos++
		return 100, nil // "d%" is the percentile die
	}
	if p.eof() || !isDigit(p.peek()) {
		return 0, p.errAt(p.pos, "expected number of sides after %q", string(d))
	}
	start := p.pos
	n := p.number()
	if n < 1 || n > MaxSides {
		return 0, p.errAt(start, "a die must have 1 to %d sides, not %s", MaxSides, string(p.src[start:p.pos]))
	}
	return n, nil
}

// number reads a run of decimal digits. Values past MaxNumber are all
// returned as MaxNumber+1, which every caller rejects, so no run of digits
// can overflow.
func (p *parser) number() int {
	n := 0
	for !p.eof() && isDigit(p.peek()) {
		if n <= MaxNumber {
			n = n*10 + int(p.peek()-'0')
		}
		p.pos++
	}
	return min(n, MaxNumber+1)
}

func isDigit(r rune) bool  { return '0' <= r && r <= '9' }
func isLetter(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' }

// String returns e in canonical form: no spaces, a lower-case "d", "d100"
// for "d%", no count when it is 1, and no leading "+", as in "2d6+1" or
// "d6+E". Parsing the result gives an Expr with the same String.
func (e Expr) String() string {
	if len(e.terms) == 0 {
		return "0"
	}
	var b strings.Builder
	for i, t := range e.terms {
		if t.neg {
			b.WriteByte('-')
		} else if i > 0 {
			b.WriteByte('+')
		}
		switch t.kind {
		case numberTerm:
			b.WriteString(strconv.Itoa(t.n))
		case diceTerm:
			if t.n != 1 {
				b.WriteString(strconv.Itoa(t.n))
			}
			b.WriteByte('d')
			b.WriteString(strconv.Itoa(t.sides))
		case varTerm:
			b.WriteString(t.name)
		}
	}
	return b.String()
}

// MarshalText returns e.String(), so an Expr is written to JSON or YAML as
// its text.
func (e Expr) MarshalText() ([]byte, error) {
	return []byte(e.String()), nil
}

// UnmarshalText parses text into e, so an Expr can be read from JSON or
// YAML as a string.
func (e *Expr) UnmarshalText(text []byte) error {
	x, err := ParseExpr(string(text))
	if err != nil {
		return err
	}
	*e = x
	return nil
}

// Vars returns the names of the variables e uses, sorted, each once.
func (e Expr) Vars() []string {
	var names []string
	for _, t := range e.terms {
		if t.kind == varTerm {
			names = append(names, t.name)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// Const returns the value of e and true if e has no dice and no variables,
// or 0 and false if it has.
func (e Expr) Const() (int, bool) {
	total := 0
	for _, t := range e.terms {
		if t.kind != numberTerm {
			return 0, false
		}
		total += t.signed(t.n)
	}
	return total, true
}

// signed returns v with the term's sign.
func (t term) signed(v int) int {
	if t.neg {
		return -v
	}
	return v
}

// fixed returns the sum of e's numbers and variables, the part that is not
// thrown. It fails, naming the variable, if vars lacks one.
func (e Expr) fixed(vars map[string]int) (int, error) {
	total := 0
	for _, t := range e.terms {
		switch t.kind {
		case numberTerm:
			total += t.signed(t.n)
		case varTerm:
			v, ok := vars[t.name]
			if !ok {
				return 0, fmt.Errorf("dice: unknown variable %q in %s", t.name, e)
			}
			total += t.signed(v)
		}
	}
	return total, nil
}

// Min returns the smallest value e can take with the given variables.
func (e Expr) Min(vars map[string]int) (int, error) {
	lo, _, err := e.bounds(vars)
	return lo, err
}

// Max returns the largest value e can take with the given variables.
func (e Expr) Max(vars map[string]int) (int, error) {
	_, hi, err := e.bounds(vars)
	return hi, err
}

func (e Expr) bounds(vars map[string]int) (lo, hi int, err error) {
	lo, err = e.fixed(vars)
	if err != nil {
		return 0, 0, err
	}
	hi = lo
	for _, t := range e.terms {
		if t.kind != diceTerm {
			continue
		}
		if t.neg {
			lo -= t.n * t.sides
			hi -= t.n
		} else {
			lo += t.n
			hi += t.n * t.sides
		}
	}
	return lo, hi, nil
}

// Dist returns the exact distribution of e with the given variables. It
// fails if a variable is missing from vars, or if the result would cover
// more than MaxDistSpan values.
func (e Expr) Dist(vars map[string]int) (Dist, error) {
	lo, hi, err := e.bounds(vars)
	if err != nil {
		return Dist{}, err
	}
	// Compared as unsigned so that huge variable values cannot overflow
	// the subtraction into something small.
	if uint(hi)-uint(lo) >= MaxDistSpan {
		return Dist{}, fmt.Errorf("dice: %s ranges over more than %d values, too many to work out exactly", e, MaxDistSpan)
	}
	fixed, err := e.fixed(vars)
	if err != nil {
		return Dist{}, err
	}
	d := Const(fixed)
	for _, t := range e.terms {
		if t.kind != diceTerm {
			continue
		}
		sum := Die(t.sides).SumN(t.n)
		if t.neg {
			d = d.Sub(sum)
		} else {
			d = d.Add(sum)
		}
	}
	return d, nil
}

// Roll throws e's dice through s, one Roll each recorded with purpose, and
// returns the total. If a variable is missing from vars it fails before
// throwing anything, so the stream is left as it was.
func (e Expr) Roll(s *Stream, purpose string, vars map[string]int) (int, error) {
	total, err := e.fixed(vars)
	if err != nil {
		return 0, err
	}
	for _, t := range e.terms {
		if t.kind != diceTerm {
			continue
		}
		for range t.n {
			total += t.signed(s.Roll(t.sides, purpose))
		}
	}
	return total, nil
}

// ConstExprPattern is a regular expression (ECMA-262 as JSON Schema reads them, and Go's)
// matching the text of an expression without variables, such as "2", "D3" or "2d6+1":
// ParseExpr reads every text it matches, and an expression a player writes for a
// number that is rolled is one of them. What it cannot say are the bounds (MaxCount,
// MaxSides, MaxNumber) and spaces between a count and its d.
const ConstExprPattern = `^\s*[-+]?\s*([0-9]*[dD]([0-9]+|%)|[0-9]+)(\s*[-+]\s*([0-9]*[dD]([0-9]+|%)|[0-9]+))*\s*$`
