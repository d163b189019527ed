package scenario

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Pos is a place in a scenario file. Line and Col count from 1; Col counts
// characters (runes), as goccy/go-yaml does, not bytes. The zero Pos means
// "not from a file": the value was a default.
type Pos struct {
	File      string
	Line, Col int
}

// IsValid reports whether p is a place in a file, that is, whether it has a line.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String returns "file:line:col", or "line:col" when p has no file.
// An invalid Pos prints as "-" so that a default never looks like a place.
func (p Pos) String() string {
	if !p.IsValid() {
		return "-"
	}
	s := strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
	if p.File != "" {
		s = p.File + ":" + s
	}
	return s
}

// Error is one problem at one place in a scenario file.
type Error struct {
	Pos Pos
	Msg string
}

// Error returns "file:line:col: msg". When Pos is invalid the place is left
// out (keeping the file name if there is one), rather than printing "-".
func (e *Error) Error() string {
	switch {
	case e.Pos.IsValid():
		return e.Pos.String() + ": " + e.Msg
	case e.Pos.File != "":
		return e.Pos.File + ": " + e.Msg
	}
	return e.Msg
}

var _ error = (*Error)(nil)

// ErrorList collects the errors of one or more files so that a player sees
// every problem at once rather than one per run. Its order, once sorted, is by
// file, line, column, then message.
type ErrorList []*Error

// Add appends an error at pos with a message formatted as by fmt.Sprintf.
func (l *ErrorList) Add(pos Pos, format string, args ...any) {
	*l = append(*l, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// Len returns the number of errors in l.
func (l ErrorList) Len() int { return len(l) }

// Sort sorts l in place by file, line, column, then message.
func (l ErrorList) Sort() {
	slices.SortStableFunc(l, compareErrors)
}

func compareErrors(a, b *Error) int {
	return cmp.Or(
		cmp.Compare(a.Pos.File, b.Pos.File),
		cmp.Compare(a.Pos.Line, b.Pos.Line),
		cmp.Compare(a.Pos.Col, b.Pos.Col),
		cmp.Compare(a.Msg, b.Msg),
	)
}

// Err returns nil if l is empty, and otherwise l sorted with repeats of the
// same message at the same place removed. Repeats are common: a mistake inside
// an anchored node is met once for every alias that uses it. Of more than
// MaxErrors errors, the first MaxErrors are kept and a last one says how many
// more there were (see IsMore).
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	out := slices.Clone(l)
	out.Sort()
	out = slices.CompactFunc(out, func(a, b *Error) bool { return compareErrors(a, b) == 0 })
	if len(out) > MaxErrors {
		rest := len(out) - MaxErrors
		out = append(out[:MaxErrors:MaxErrors], &Error{Pos: out[MaxErrors].Pos, Msg: fmt.Sprintf(moreErrors, rest)})
	}
	return out
}

// moreErrors is the message of the error that stands for those left out.
const moreErrors = "and %d more errors, not shown: fix these first"

// IsMore reports whether e is the last error of a long list, standing for
// the errors left out rather than being one itself.
func (e *Error) IsMore() bool {
	var n int
	_, err := fmt.Sscanf(e.Msg, moreErrors, &n)
	return err == nil
}

var _ error = ErrorList(nil)

// Error returns the errors one per line.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Merge joins the errors a decoder reported with those a rule system's own checks
// found. A check error at a place the decoder already reported is dropped: the value
// there failed to decode and was left at its zero value, so the check would only
// complain about that zero again.
func Merge(decoded, checked ErrorList) ErrorList {
	at := map[Pos]bool{}
	for _, e := range decoded {
		at[e.Pos] = true
	}
	all := append(ErrorList{}, decoded...)
	for _, e := range checked {
		if !at[e.Pos] {
			all = append(all, e)
		}
	}
	return all
}

// Hint is a " (did you mean "x"?)" suffix for an error about an unknown name, or "" when
// no known name is close enough to be a likely typo.
func Hint(word string, known []string) string {
	for _, k := range known {
		if Confusable(word, k) && !ascii(word+k) {
			// They look the same, one written in other letters: say how they differ, or
			// the hint reads as nonsense.
			return fmt.Sprintf(" (%q looks the same but is written with other characters: %s)", k, differing(word, k))
		}
	}
	if s := nearest(word, known); s != "" {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}

func ascii(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// differing names the characters of b that a does not have, as code points.
func differing(a, b string) string {
	var out []string
	for _, r := range b {
		if !strings.ContainsRune(a, r) {
			out = append(out, fmt.Sprintf("%U", r))
		}
	}
	if len(out) == 0 {
		return "the same characters in another order"
	}
	return strings.Join(out, ", ")
}
