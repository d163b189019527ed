package scenario

import (
	"fmt"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

var errTooDeep = fmt.Sprintf("lists and mappings nested more than %d deep", maxDepth)

// tokenPos converts a goccy token's position. goccy counts lines and columns
// from 1 but gives some nodes column 0 (the text of a | or > block); those
// are moved to column 1 so that every position is valid.
func tokenPos(file string, tk *token.Token) Pos {
	if tk == nil || tk.Position == nil {
		return Pos{}
	}
	return Pos{File: file, Line: max(tk.Position.Line, 1), Col: max(tk.Position.Column, 1)}
}

// nodePos returns where a node starts, as a player would point at it.
// goccy's own token for a block mapping is the ':' after its first key, and
// for a | block the text's column is 0, so both are handled here: a block
// mapping starts at its first key, a flow mapping at its '{', a | block at
// its '|', and an anchored or tagged value at the value itself.
func nodePos(file string, n ast.Node) Pos {
	for {
		switch x := n.(type) {
		case nil:
			return Pos{}
		case *ast.DocumentNode:
			if x.Body == nil {
				return tokenPos(file, x.Start)
			}
			n = x.Body
		case *ast.AnchorNode:
			if x.Value == nil {
				return tokenPos(file, x.Start)
			}
			n = x.Value
		case *ast.TagNode:
			if x.Value == nil {
				return tokenPos(file, x.Start)
			}
			n = x.Value
		case *ast.MappingNode:
			if x.IsFlowStyle || len(x.Values) == 0 || x.Values[0] == nil || x.Values[0].Key == nil {
				return tokenPos(file, x.Start)
			}
			n = x.Values[0].Key
		case *ast.MappingValueNode:
			if x.Key == nil {
				return tokenPos(file, x.Start)
			}
			n = x.Key
		case *ast.LiteralNode:
			return tokenPos(file, x.Start)
		case *ast.MappingKeyNode:
			return tokenPos(file, x.Start)
		case *ast.CommentGroupNode:
			return tokenPos(file, x.GetToken())
		default:
			return tokenPos(file, n.GetToken())
		}
	}
}

// checker walks a parsed document once, in document order, before any
// decoding: it binds each alias to the anchor defined most recently before
// it (an anchor is bound only after its own value, so an alias inside the
// value it would name is undefined and aliases can never loop), and it
// reports nesting deeper than maxDepth.
type checker struct {
	file    string
	anchors map[string]ast.Node
	aliases map[*ast.AliasNode]ast.Node
	errs    ErrorList
}

func (c *checker) walk(n ast.Node, depth int) {
	switch x := n.(type) {
	case *ast.DocumentNode:
		c.walk(x.Body, depth)
	case *ast.AnchorNode:
		c.walk(x.Value, depth)
		if x.Name != nil && x.Name.GetToken() != nil {
			c.anchors[x.Name.GetToken().Value] = x.Value
		}
	case *ast.AliasNode:
		name := ""
		if x.Value != nil && x.Value.GetToken() != nil {
			name = x.Value.GetToken().Value
		}
		if target, ok := c.anchors[name]; ok {
			c.aliases[x] = target
		} else {
			c.errs.Add(nodePos(c.file, x), "undefined alias %q", name)
		}
	case *ast.TagNode:
		c.walk(x.Value, depth)
	case *ast.MappingKeyNode:
		c.walk(x.Value, depth)
	case *ast.MappingNode:
		if !c.deeper(n, depth) {
			return
		}
		for _, v := range x.Values {
			if v != nil {
				c.walk(v.Key, depth+1)
				c.walk(v.Value, depth+1)
			}
		}
	case *ast.MappingValueNode:
		if c.deeper(n, depth) {
			c.walk(x.Key, depth+1)
			c.walk(x.Value, depth+1)
		}
	case *ast.SequenceNode:
		if !c.deeper(n, depth) {
			return
		}
		for _, v := range x.Values {
			c.walk(v, depth+1)
		}
	}
}

// deeper reports whether a collection at depth may be entered, and reports an
// error if not.
func (c *checker) deeper(n ast.Node, depth int) bool {
	if depth+1 > maxDepth {
		c.errs.Add(nodePos(c.file, n), "%s", errTooDeep)
		return false
	}
	return true
}

// prescan looks for nesting deeper than maxDepth before goccy parses src,
// because goccy's parser recurses for each level and slows down faster than
// the square of the depth: a megabyte of '[' would take it minutes. It
// counts flow brackets outside quotes and comments, plus block entries
// ("- - -") that open on one line, and returns the position of the first
// opener past the limit. It is a guard, not the rule: the exact check is
// made on the parsed document. Brackets in plain text or in a | block are
// counted too, which matters only for text with dozens of unmatched '['.
func prescan(file string, src []byte) (Pos, bool) {
	var (
		line, col     = 1, 0
		flow, compact int
		quote         rune // the open quote character, or 0
		comment       bool
		lineStart     = true // only spaces and block indicators so far
		prev          rune   // previous rune on the line, or 0 at its start
	)
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		i += size
		col++
		if r == '\n' {
			line, col = line+1, 0
			comment, lineStart, compact, prev = false, true, 0, 0
			continue
		}
		switch {
		case comment:
		case quote != 0:
			switch {
			case quote == '"' && r == '\\' && i < len(src) && src[i] != '\n':
				_, n := utf8.DecodeRune(src[i:])
				i += n
				col++
			case r == quote:
				quote = 0
			}
		case r == ' ' || r == '\t' || r == '\r':
		case r == '#' && (prev == 0 || prev == ' ' || prev == '\t'):
			comment = true
		case (r == '"' || r == '\'') && opensScalar(prev):
			quote = r
			lineStart = false
		case r == '[' || r == '{':
			flow++
			lineStart = false
			if flow+compact > maxDepth {
				return Pos{File: file, Line: line, Col: col}, true
			}
		case r == ']' || r == '}':
			flow = max(flow-1, 0)
			lineStart = false
		case (r == '-' || r == '?') && lineStart && flow == 0 && (i == len(src) || src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r'):
			compact++
			if flow+compact > maxDepth {
				return Pos{File: file, Line: line, Col: col}, true
			}
		default:
			lineStart = false
		}
		prev = r
	}
	return Pos{}, false
}

// opensScalar reports whether a quote after prev starts a quoted scalar
// rather than sitting inside plain text like "don't".
func opensScalar(prev rune) bool {
	switch prev {
	case 0, ' ', '\t', '[', '{', ',', ':', '-', '?':
		return true
	}
	return false
}
