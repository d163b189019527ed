package scenario

import (
	"fmt"
	"slices"
	"strings"
)

// DecodeWord reads s, less the spaces around it, into v when it is one of words: how a
// rule system reads a scalar that names one of a few things (a range band, a formation).
// Any other is an error that lists them: `want close, effective or long, got "far"`.
func DecodeWord[T ~string](v *T, s Scalar, words ...T) error {
	if w := T(strings.TrimSpace(s.Text)); slices.Contains(words, w) {
		*v = w
		return nil
	}
	return fmt.Errorf("want %s, got %q", orList(words), s.Text)
}

// orList writes words as a sentence lists them: "a", "a or b", "a, b or c".
func orList[T ~string](words []T) string {
	var b strings.Builder
	for i, w := range words {
		switch {
		case i == 0:
		case i == len(words)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(string(w))
	}
	return b.String()
}
