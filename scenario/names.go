package scenario

import (
	"fmt"
	"maps"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
	"github.com/mtibben/confusables"
)

// Names: what a scenario may call its units, sides and squads. A name is shown
// to players (on the page, in the log, in a terminal) and an id is what an action names,
// so both must read as what they are: no invisible characters, no text that reverses
// itself, no letters of one script dressed up as another's, no two names of a battle that
// look alike. The rules follow Unicode's advice for identifiers (UTS #39), kept simple.

// MaxNameLength is the most characters an id or a name may have.
const MaxNameLength = 64

// NameKind says which characters a name may hold.
type NameKind int

const (
	// ID is a unit's, a model's or a squad's id, which actions name: letters, digits,
	// '-', '_' and '.'.
	ID NameKind = iota
	// Name is a side or a unit's name: as an ID, and single spaces between words.
	Name
)

// CheckName says what is wrong with s as a name of kind k, or "" when nothing is: its
// length, a character outside the kind's set (control, format such as bidirectional
// marks and zero-width joiners, symbols, punctuation but '-', '_' and '.'), spaces at
// either end or doubled, a combining mark on nothing, or letters of several scripts
// (Latin with Cyrillic, say; Japanese and Chinese may mix their scripts with Latin, as
// Unicode allows).
func CheckName(s string, k NameKind) string {
	n := utf8.RuneCountInString(s)
	switch {
	case n == 0:
		return "is empty"
	case n > MaxNameLength:
		return fmt.Sprintf("has %d characters; at most %d", n, MaxNameLength)
	}
	var scripts []*unicode.RangeTable
	prev := ' '
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			if sc := scriptOf(r); sc != nil && !slices.Contains(scripts, sc) {
				scripts = append(scripts, sc)
			}
		case unicode.IsMark(r):
			if !unicode.IsLetter(prev) && !unicode.IsMark(prev) {
				return fmt.Sprintf("has the combining mark %U on no letter", r)
			}
		case unicode.Is(unicode.Nd, r), r == '-', r == '_', r == '.':
		case r == ' ' && k == Name:
			if prev == ' ' {
				return "has spaces at its start, or two in a row"
			}
		case r == ' ':
			return "has a space: an id is letters, digits, '-', '_' and '.'"
		case unicode.Is(unicode.Cf, r) || unicode.IsControl(r):
			return fmt.Sprintf("holds the invisible character %U (a control, bidirectional or zero-width character)", r)
		default:
			return fmt.Sprintf("holds %q (%U): %s", r, r, allowed(k))
		}
		prev = r
	}
	if prev == ' ' {
		return "ends with a space"
	}
	if !mixable(scripts) {
		return fmt.Sprintf("mixes the letters of %s: one that looks like another's letters is refused", scriptNames(scripts))
	}
	return ""
}

func allowed(k NameKind) string {
	if k == ID {
		return "an id is letters, digits, '-', '_' and '.'"
	}
	return "a name is letters, digits, '-', '_', '.' and single spaces"
}

// scripts are the scripts a letter is looked up in, the common ones first.
var scripts = func() []*unicode.RangeTable {
	first := []*unicode.RangeTable{unicode.Latin, unicode.Cyrillic, unicode.Greek, unicode.Han, unicode.Hiragana,
		unicode.Katakana, unicode.Hangul, unicode.Arabic, unicode.Hebrew}
	out := slices.Clone(first)
	for _, name := range slices.Sorted(maps.Keys(unicode.Scripts)) {
		if t := unicode.Scripts[name]; !slices.Contains(first, t) && name != "Common" && name != "Inherited" {
			out = append(out, t)
		}
	}
	return out
}()

// scriptOf is the script of a letter, or nil for one of none (Common).
func scriptOf(r rune) *unicode.RangeTable {
	for _, t := range scripts {
		if unicode.Is(t, r) {
			return t
		}
	}
	return nil
}

// mixable reports whether letters of these scripts may share a name: one script, or
// Latin with the scripts written together in Japanese, Chinese or Korean (UTS #39's
// "highly restrictive" level).
func mixable(used []*unicode.RangeTable) bool {
	if len(used) <= 1 {
		return true
	}
	for _, set := range [][]*unicode.RangeTable{
		{unicode.Latin, unicode.Han, unicode.Hiragana, unicode.Katakana},
		{unicode.Latin, unicode.Han, unicode.Bopomofo},
		{unicode.Latin, unicode.Han, unicode.Hangul},
	} {
		all := true
		for _, t := range used {
			all = all && slices.Contains(set, t)
		}
		if all {
			return true
		}
	}
	return false
}

func scriptNames(used []*unicode.RangeTable) string {
	var names []string
	for _, t := range used {
		for name, st := range unicode.Scripts {
			if st == t {
				names = append(names, name)
			}
		}
	}
	slices.Sort(names)
	out := ""
	for i, n := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			out += " and "
		default:
			out += ", "
		}
		out += n
	}
	return out
}

// Confusable reports whether two different names look alike: the same skeleton, in
// Unicode's table of characters that can be mistaken for one another ("rn" for "m",
// Cyrillic "а" for Latin "a", "1" for "l").
func Confusable(a, b string) bool {
	return a != b && confusables.Skeleton(a) == confusables.Skeleton(b)
}

// Skeleton is what two names that look alike have in common (see Confusable): a key to
// find them, not a name to show.
func Skeleton(s string) string { return confusables.Skeleton(s) }

// ValuePos is the position of the first value in the document, in the order it is
// written, whose text is s: where a name the rules read was written. It is the
// document's start when none is.
func (d *Doc) ValuePos(s string) Pos {
	found := firstNode(d.node, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.DocumentNode, *ast.AnchorNode, *ast.TagNode, *ast.MappingNode, *ast.MappingValueNode,
			*ast.SequenceNode, *ast.AliasNode, *ast.MappingKeyNode:
			return false // not a value written, or one written elsewhere
		}
		sc, ok := scalarOf(n, Inch)
		return ok && sc.Text == s
	})
	if found == nil {
		return d.Root()
	}
	return nodePos(d.File, found)
}

// firstNode is the first node below n, n included, in the order the document writes
// them, that match answers: the values of mappings (not their keys), the items of
// sequences, and what anchors and tags mark; an alias is not followed, so that a value
// is found where it is written.
func firstNode(n ast.Node, match func(ast.Node) bool) ast.Node {
	if n == nil {
		return nil
	}
	if match(n) {
		return n
	}
	var below []ast.Node
	switch x := n.(type) {
	case *ast.DocumentNode:
		below = []ast.Node{x.Body}
	case *ast.AnchorNode:
		below = []ast.Node{x.Value}
	case *ast.TagNode:
		below = []ast.Node{x.Value}
	case *ast.MappingNode:
		for _, v := range x.Values {
			below = append(below, v)
		}
	case *ast.MappingValueNode:
		below = []ast.Node{x.Value}
	case *ast.SequenceNode:
		below = x.Values
	}
	for _, v := range below {
		if found := firstNode(v, match); found != nil {
			return found
		}
	}
	return nil
}
