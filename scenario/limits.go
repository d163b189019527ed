package scenario

import (
	"fmt"
	"unicode/utf8"

	"github.com/goccy/go-yaml/token"
)

// The limits on what a document may cost to read. Every one is checked before the work it
// bounds is done, so that no file or request body, however it is written, can cost more
// than they allow: the size and lines before anything else, the tokens before goccy's
// scanner runs, nesting and the length of block mappings before its parser runs, and the
// values with every alias expanded before anything is decoded. docs/api.md lists them
// under "Limits and abuse".
const (
	// maxSize is the largest scenario file read. Real scenarios are a few kilobytes; a
	// 512-row War Engine map is a quarter of a megabyte.
	maxSize = 4 << 20

	// maxLines is the most lines a scenario may have; a real one, even with a 512-row War
	// Engine map, has a few hundred.
	maxLines = 20000

	// MaxTokens is the most YAML tokens (scalars, indicators, comments) a document may
	// hold. goccy's scanner makes a token of about 260 bytes for each, and its parser as
	// much again for the node, all at once: a megabyte of "0," would cost over half a
	// gigabyte. A real scenario has a few thousand tokens; a War Engine map's rows are one.
	MaxTokens = 100_000

	// MaxValues is the most values (scalars, lists, mappings, keys) a document may stand
	// for once every alias and merge key is expanded: what decoding it costs. A few
	// lines of nested aliases (the "billion laughs") would otherwise expand to more
	// values than memory holds.
	MaxValues = 100_000

	// maxDepth is how deeply lists and mappings may nest. Scenarios nest a handful of
	// levels; goccy's parser recurses once per level and slows down faster than the
	// square of the depth, so a page of '[' would tie it up for minutes.
	maxDepth = 64

	// MaxKeys is the most keys one block mapping (one written with indentation rather
	// than braces) may have. goccy's parser copies a block mapping's keys once per key,
	// so its time grows with the square of their number (20,000 keys: a second). A real
	// mapping has a dozen; a list of units is a list, not a mapping.
	MaxKeys = 1000

	// MaxFreeForm is the most values a free-form field (one a rule system reads itself,
	// such as a War Engine target, [column, row] or a unit id) may hold: a few are all any
	// needs, and a field that takes anything must not take a hundred thousand.
	MaxFreeForm = 1000

	// MaxErrors is the most errors reported for one document; the rest are counted.
	// Fixing the first hundred usually fixes the others, and a file of mistakes
	// repeated through aliases must not make an answer of megabytes.
	MaxErrors = 100

	// MaxLength is the largest length, and the largest coordinate in either direction, a
	// scenario may write: 100,000 inches (about 2.5 km), far beyond any table, so that
	// every distance stays finite and exact enough to compare.
	MaxLength = 100_000
)

var errTooDeep = fmt.Sprintf("lists and mappings nested more than %d deep", maxDepth)

// checkText reports the first character a scenario may not contain: bytes that are not
// UTF-8, and the control characters YAML itself excludes from a stream (everything below
// space but tab, line feed and carriage return, DEL, the C1 controls but NEL, and the
// non-characters U+FFFE and U+FFFF). Such a byte is either a wrong file or an attempt to
// smuggle a NUL into a database or an escape sequence onto a terminal.
func checkText(file string, src []byte) (Pos, string, bool) {
	line, col := 1, 0
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		col++
		pos := Pos{File: file, Line: line, Col: col}
		switch {
		case r == utf8.RuneError && size <= 1:
			return pos, fmt.Sprintf("byte 0x%02x is not UTF-8 text", src[i]), false
		case !printable(r):
			return pos, fmt.Sprintf("character %U is a control character, which a scenario may not contain", r), false
		}
		// Lines are counted as goccy counts them: a CR, an LF or a CR LF pair ends one.
		if r == '\n' || r == '\r' && (i+1 == len(src) || src[i+1] != '\n') {
			line, col = line+1, 0
		}
		i += size
	}
	return Pos{}, "", true
}

// printable reports whether YAML allows r in a stream (its c-printable production).
func printable(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return true
	case r < 0x20 || r == 0x7f:
		return false
	case r >= 0x80 && r < 0xa0:
		return r == 0x85
	case r == 0xfffe || r == 0xffff:
		return false
	}
	return true
}

// estimateTokens returns an upper bound on the tokens goccy's scanner makes of src, found
// in one pass over the bytes without scanning them: the scanner builds every token of a
// file at once, so its cost must be known before it runs.
//
// The bound holds whatever quoting, flow or block context a line is in, because it never
// guesses that context (a guess about quotes is what an attacker exploits):
//   - A line that holds none of YAML's indicator characters but '-' and '#' (no quotes,
//     brackets, braces, commas, colons and so on) can only be plain text, a comment,
//     part of a quoted or block scalar begun earlier, or "- " sequence entries: at most
//     two tokens and one per "- ". A War Engine map's rows are such lines.
//   - Any other line makes at most one token per word (a run of characters between
//     spaces) plus two per indicator character: a token starts at a word's start, at an
//     indicator, or just after one.
//
// The bound is for text checkText accepts, which is all Parse passes it: goccy's scanner
// reads a control character such as NUL as a break, so "-\x00" opens a sequence entry
// that a line of plain text could not. FuzzEstimateTokens checks the bound against
// goccy's scanner on such text.
func estimateTokens(src []byte) int {
	n := 0
	for len(src) > 0 {
		line := src
		if i := indexNewline(src); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		n += lineTokens(line)
	}
	return n
}

// indexNewline returns the index of the first line break in b, or -1: a line feed or
// a carriage return, as goccy's scanner breaks lines (a CR LF pair makes one break and
// an empty line, which costs the bound nothing it needs).
func indexNewline(b []byte) int {
	for i, c := range b {
		if c == '\n' || c == '\r' {
			return i
		}
	}
	return -1
}

// lineTokens bounds the tokens of one line (see estimateTokens).
func lineTokens(line []byte) int {
	quiet := true
	for _, c := range line {
		if loud(c) {
			quiet = false
			break
		}
	}
	if quiet {
		n := 2
		for i, c := range line {
			if c == '-' && (i+1 == len(line) || space(line[i+1])) {
				n++
			}
		}
		return n
	}
	n, inWord := 1, false
	for _, c := range line {
		switch {
		case space(c):
			inWord = false
		case loud(c) || c == '-' || c == '#':
			n += 2
			inWord = false
		case !inWord:
			n++
			inWord = true
		}
	}
	return n
}

// loud reports whether c is one of YAML's indicator characters that may start or end a
// token in the middle of a word: everything but '-' and '#', which do so only next to a
// space.
func loud(c byte) bool {
	switch c {
	case '[', ']', '{', '}', ',', ':', '?', '|', '>', '&', '*', '!', '%', '@', '`', '\'', '"':
		return true
	}
	return false
}

func space(c byte) bool { return c == ' ' || c == '\t' }

// checkTokens looks at goccy's tokens for what would make its parser slow before the
// parser runs: nesting deeper than maxDepth (flow brackets, and "- - -" entries opened on
// one line), and block mappings of more than MaxKeys keys. The nesting check is a guard;
// the exact one is made on the parsed document.
func checkTokens(file string, toks token.Tokens) (Pos, string, bool) {
	type mapping struct{ col, keys int }
	var (
		flow     int
		compact  int // "- " and "? " entries since the line began, before anything else
		line     = -1
		mappings []mapping // the block mappings open at the current line, by key column
	)
	for i, tk := range toks {
		if tk == nil || tk.Position == nil {
			continue
		}
		if tk.Type == token.CommentType {
			continue
		}
		first := tk.Position.Line != line
		if first {
			line, compact = tk.Position.Line, 0
			// A line that begins left of a block mapping's keys ends that mapping.
			if flow == 0 {
				for len(mappings) > 0 && mappings[len(mappings)-1].col > tk.Position.Column {
					mappings = mappings[:len(mappings)-1]
				}
			}
		}
		switch tk.Type {
		case token.SequenceStartType, token.MappingStartType:
			flow++
			if flow+compact > maxDepth {
				return tokenPos(file, tk), errTooDeep, false
			}
		case token.SequenceEndType, token.MappingEndType:
			flow = max(flow-1, 0)
		case token.SequenceEntryType, token.MappingKeyType:
			if flow == 0 && (first || compact > 0 && toks[i-1].Position.Line == line) {
				compact++
				if flow+compact > maxDepth {
					return tokenPos(file, tk), errTooDeep, false
				}
			}
		case token.MappingValueType:
			if flow > 0 || i == 0 || toks[i-1].Position == nil || toks[i-1].Position.Line != tk.Position.Line {
				continue
			}
			key := toks[i-1]
			col := key.Position.Column
			for len(mappings) > 0 && mappings[len(mappings)-1].col > col {
				mappings = mappings[:len(mappings)-1]
			}
			if len(mappings) == 0 || mappings[len(mappings)-1].col != col {
				mappings = append(mappings, mapping{col: col})
			}
			top := &mappings[len(mappings)-1]
			if top.keys++; top.keys > MaxKeys {
				return tokenPos(file, key), fmt.Sprintf("a mapping has more than %d keys; write a long list of things as a list", MaxKeys), false
			}
		}
		if tk.Type != token.SequenceEntryType && tk.Type != token.MappingKeyType {
			compact = 0
		}
	}
	return Pos{}, "", true
}
