package scenario

import (
	"math"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

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
// decoding: it binds each alias to the anchor defined most recently before it
// (an anchor is bound only after its own value, so an alias inside the value
// it would name is undefined and aliases can never loop), reports nesting
// deeper than maxDepth, and counts the values the document stands for with
// every alias expanded, for MaxValues.
type checker struct {
	file    string
	anchors map[string]ast.Node
	sizes   map[string]int64 // values under each anchor, aliases expanded
	aliases map[*ast.AliasNode]ast.Node
	errs    ErrorList
}

// walk checks n and returns how many values it stands for once its aliases are
// expanded: one for n itself and one for each value under it. The count saturates
// rather than overflow, since nested aliases can multiply it past any integer.
func (c *checker) walk(n ast.Node, depth int) int64 {
	switch x := n.(type) {
	case nil:
		return 0
	case *ast.DocumentNode:
		return c.walk(x.Body, depth)
	case *ast.AnchorNode:
		size := c.walk(x.Value, depth)
		if x.Name != nil && x.Name.GetToken() != nil {
			name := x.Name.GetToken().Value
			c.anchors[name] = x.Value
			c.sizes[name] = size
		}
		return size
	case *ast.AliasNode:
		name := ""
		if x.Value != nil && x.Value.GetToken() != nil {
			name = x.Value.GetToken().Value
		}
		target, ok := c.anchors[name]
		if !ok {
			c.errs.Add(nodePos(c.file, x), "undefined alias %q", name)
			return 1
		}
		c.aliases[x] = target
		return c.sizes[name]
	case *ast.TagNode:
		if x.Start != nil && !allowedTags[token.ReservedTagKeyword(x.Start.Value)] {
			c.errs.Add(tokenPos(c.file, x.Start), "tag %s is not one volley reads (only !!str, !!int, !!float, !!bool, !!null, !!seq and !!map)", x.Start.Value)
		}
		return c.walk(x.Value, depth)
	case *ast.MappingKeyNode:
		return c.walk(x.Value, depth)
	case *ast.MappingNode:
		if !c.deeper(n, depth) {
			return 1
		}
		size := int64(1)
		for _, v := range x.Values {
			if v != nil {
				size = addSat(size, c.walk(v.Key, depth+1))
				size = addSat(size, c.walk(v.Value, depth+1))
			}
		}
		return size
	case *ast.MappingValueNode:
		if !c.deeper(n, depth) {
			return 1
		}
		return addSat(1, addSat(c.walk(x.Key, depth+1), c.walk(x.Value, depth+1)))
	case *ast.SequenceNode:
		if !c.deeper(n, depth) {
			return 1
		}
		size := int64(1)
		for _, v := range x.Values {
			size = addSat(size, c.walk(v, depth+1))
		}
		return size
	}
	if s, ok := scalarOf(n, Inch); ok {
		for _, r := range s.Text {
			if !printable(r) || r == '\r' {
				c.errs.Add(nodePos(c.file, n), "the string holds the control character %U (written as an escape), which a scenario may not contain", r)
				break
			}
		}
	}
	return 1
}

// allowedTags are the tags the decoder understands: YAML's own names for the
// kinds of value it reads anyway.
var allowedTags = map[token.ReservedTagKeyword]bool{
	token.StringTag: true, token.IntegerTag: true, token.FloatTag: true, token.BooleanTag: true,
	token.NullTag: true, token.SequenceTag: true, token.MappingTag: true,
}

// addSat adds two counts, saturating at the largest int64.
func addSat(a, b int64) int64 {
	if s := a + b; s >= a {
		return s
	}
	return math.MaxInt64
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
