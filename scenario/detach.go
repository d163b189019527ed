package scenario

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// placer detaches the entries Place is about to change from the anchors, aliases and
// merge keys (<<) that share them with other entries, on a fresh parse of a document.
type placer struct {
	// aliases binds each alias of the tree to the value its anchor names.
	aliases map[*ast.AliasNode]ast.Node
}

// itemOf is the n-th item of the list under key in m, when it is a mapping. A list
// written as an alias (`models: *five`) is first replaced, in m, by a copy of what it
// stands for, so that placing an item places this entry's and no other's.
func (p *placer) itemOf(m *ast.MappingNode, key string, n int) (*ast.MappingNode, error) {
	for _, v := range m.Values {
		if keyOf(v) != key {
			continue
		}
		if _, ok := bare(v.Value).(*ast.AliasNode); ok {
			copied, err := parseNode(p.flow(v.Value))
			if err != nil {
				return nil, err
			}
			v.Value = copied
		}
		if seq, ok := bare(v.Value).(*ast.SequenceNode); ok && n >= 0 && n < len(seq.Values) {
			item, _ := bare(seq.Values[n]).(*ast.MappingNode)
			return item, nil
		}
	}
	return nil, nil
}

// bare is n without the anchor or tag written before it.
func bare(n ast.Node) ast.Node {
	for {
		switch x := n.(type) {
		case *ast.AnchorNode:
			n = x.Value
		case *ast.TagNode:
			n = x.Value
		default:
			return n
		}
	}
}

// detach makes the mappings in targets safe to edit. A target's merge keys are
// written out as the keys they bring in. Then every alias of a value that holds a
// target (an anchored entry, or an anchored list of them) is written out as it reads
// now: a merge key naming one, by writing the merged keys into the mapping that merges
// them; any other alias, by a copy of its value in flow style.
func (p *placer) detach(doc ast.Node, targets []*ast.MappingNode) error {
	isTarget := map[*ast.MappingNode]bool{}
	for _, m := range targets {
		isTarget[m] = true
	}
	for m := range isTarget {
		if err := p.expandMerges(m); err != nil {
			return err
		}
	}
	// The anchored values that hold a target.
	held := map[ast.Node]bool{}
	var anchored []ast.Node
	// inTarget counts the targets n is within: a value anchored inside a target may be
	// set or dropped by its placement (`at: &p …` with `at: *p` elsewhere), so its
	// aliases are written out as copies too, else the anchor goes and they name nothing.
	inTarget := 0
	var find func(n ast.Node)
	find = func(n ast.Node) {
		switch x := n.(type) {
		case *ast.DocumentNode:
			find(x.Body)
		case *ast.AnchorNode:
			if inTarget > 0 {
				held[x.Value] = true
			}
			anchored = append(anchored, x.Value)
			find(x.Value)
			anchored = anchored[:len(anchored)-1]
		case *ast.TagNode:
			find(x.Value)
		case *ast.MappingNode:
			if isTarget[x] {
				for _, a := range anchored {
					held[a] = true
				}
				inTarget++
				defer func() { inTarget-- }()
			}
			for _, v := range x.Values {
				find(v.Value)
			}
		case *ast.MappingValueNode:
			find(x.Value)
		case *ast.SequenceNode:
			for _, v := range x.Values {
				find(v)
			}
		}
	}
	find(doc)
	if len(held) == 0 {
		return nil
	}
	merging, copies := p.sharing(doc, held)
	// Every copy is written before any is put in place, so that none holds another.
	texts := make([]string, len(copies))
	for i, c := range copies {
		texts[i] = p.flow(c.node)
	}
	for _, m := range merging {
		if err := p.expandMerges(m); err != nil {
			return err
		}
	}
	for i, c := range copies {
		n, err := parseNode(texts[i])
		if err != nil {
			return err
		}
		c.set(n)
	}
	return nil
}

// share is a place in the tree that shares a value held: what to copy there (an
// alias, or a merge key's whole value) and how to put the copy in its place.
type share struct {
	node ast.Node
	set  func(ast.Node)
}

// sharing finds the aliases under n of the values held: the mappings that merge one
// (anywhere in what a merge key names), and every other place that names one. Aliases
// used as keys are left alone: no placement changes a key.
func (p *placer) sharing(n ast.Node, held map[ast.Node]bool) (merging []*ast.MappingNode, copies []share) {
	// names reports whether an alias under n names a value held.
	var names func(n ast.Node) bool
	names = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AliasNode:
			return held[p.aliases[x]]
		case *ast.AnchorNode:
			return names(x.Value)
		case *ast.TagNode:
			return names(x.Value)
		case *ast.MappingNode:
			for _, v := range x.Values {
				if names(v.Value) {
					return true
				}
			}
		case *ast.MappingValueNode:
			return names(x.Value)
		case *ast.SequenceNode:
			for _, v := range x.Values {
				if names(v) {
					return true
				}
			}
		}
		return false
	}
	var walk func(n ast.Node, set func(ast.Node))
	walk = func(n ast.Node, set func(ast.Node)) {
		switch x := n.(type) {
		case *ast.DocumentNode:
			walk(x.Body, func(v ast.Node) { x.Body = v })
		case *ast.AliasNode:
			if held[p.aliases[x]] && set != nil {
				copies = append(copies, share{x, set})
			}
		case *ast.AnchorNode:
			walk(x.Value, func(v ast.Node) { x.Value = v })
		case *ast.TagNode:
			walk(x.Value, func(v ast.Node) { x.Value = v })
		case *ast.MappingNode:
			merges := false
			for _, v := range x.Values {
				if isMerge(v) {
					merges = merges || names(v.Value)
					continue
				}
				walk(v.Value, func(n ast.Node) { v.Value = n })
			}
			if merges {
				merging = append(merging, x)
			}
		case *ast.MappingValueNode:
			if isMerge(x) { // a mapping of the merge key alone: merge a copy instead
				if names(x.Value) {
					copies = append(copies, share{x.Value, func(v ast.Node) { x.Value = v }})
				}
				return
			}
			walk(x.Value, func(v ast.Node) { x.Value = v })
		case *ast.SequenceNode:
			for i := range x.Values {
				walk(x.Values[i], func(v ast.Node) { x.Values[i] = v })
			}
		}
	}
	walk(n, nil)
	return merging, copies
}

// isMerge reports whether v is a merge key's entry (<<, not written as the string
// "<<" with !!str).
func isMerge(v *ast.MappingValueNode) bool {
	k := ast.Node(v.Key)
	if mk, ok := k.(*ast.MappingKeyNode); ok {
		k = mk.Value
	}
	_, ok := k.(*ast.MergeKeyNode)
	return ok
}

// mergeList is what a merge key's value names: one mapping, or each of a list's.
func mergeList(n ast.Node) []ast.Node {
	if seq, ok := bare(n).(*ast.SequenceNode); ok {
		return seq.Values
	}
	return []ast.Node{n}
}

// resolve is the node an alias stands for, without anchors or tags, through any
// number of aliases.
func (p *placer) resolve(n ast.Node) ast.Node {
	for {
		n = bare(n)
		a, ok := n.(*ast.AliasNode)
		if !ok {
			return n
		}
		n = p.aliases[a]
	}
}

// merged is the key-value pairs of a mapping as YAML reads it, merge keys applied as
// the decoder applies them (entries): merged pairs first, an explicit key overriding a
// merged one, and of two merged mappings the earlier winning.
func (p *placer) merged(n ast.Node) (keys []string, values map[string]ast.Node) {
	var mvs []*ast.MappingValueNode
	switch m := p.resolve(n).(type) {
	case *ast.MappingNode:
		mvs = m.Values
	case *ast.MappingValueNode:
		mvs = []*ast.MappingValueNode{m}
	}
	values = map[string]ast.Node{}
	explicit := map[string]bool{}
	for _, v := range mvs {
		if !isMerge(v) {
			explicit[keyOf(v)] = true
		}
	}
	for _, v := range mvs {
		if !isMerge(v) {
			continue
		}
		for _, src := range mergeList(v.Value) {
			ks, vs := p.merged(src)
			for _, k := range ks {
				if _, seen := values[k]; !seen && !explicit[k] {
					keys = append(keys, k)
					values[k] = vs[k]
				}
			}
		}
	}
	for _, v := range mvs {
		if k := keyOf(v); !isMerge(v) {
			if _, seen := values[k]; !seen {
				keys = append(keys, k)
			}
			values[k] = v.Value
		}
	}
	return keys, values
}

// expandMerges writes the keys m's merge keys bring in into m itself, where the first
// merge key was, each as a copy in flow style, and drops the merge keys: m then reads
// as it did, and shares nothing with the mappings it merged.
func (p *placer) expandMerges(m *ast.MappingNode) error {
	first := -1
	explicit := map[string]bool{}
	for i, v := range m.Values {
		if isMerge(v) {
			if first < 0 {
				first = i
			}
		} else {
			explicit[keyOf(v)] = true
		}
	}
	if first < 0 {
		return nil
	}
	keys, values := p.merged(m)
	var brought []*ast.MappingValueNode
	for _, k := range keys {
		if explicit[k] {
			continue
		}
		mv, err := newEntry(m, flowString(k), p.flow(values[k]))
		if err != nil {
			return err
		}
		brought = append(brought, mv)
	}
	var out []*ast.MappingValueNode
	for i, v := range m.Values {
		if i == first {
			out = append(out, brought...)
		}
		if !isMerge(v) {
			out = append(out, v)
		}
	}
	m.Values = out
	return nil
}

// flow writes a value in YAML's flow style as it reads: aliases written out (so that
// the copy names no anchor, and no later anchor of the same name can change what it
// reads), anchors and comments left out, tags and merge keys kept, every scalar read
// as it was (a plain one stays plain where flow style allows, so that "3+" or 12 reads
// the same).
func (p *placer) flow(n ast.Node) string {
	switch x := n.(type) {
	case nil:
		return "null"
	case *ast.AnchorNode:
		return p.flow(x.Value)
	case *ast.AliasNode:
		return p.flow(p.aliases[x])
	case *ast.TagNode:
		return x.Start.Value + " " + p.flow(x.Value)
	case *ast.MappingKeyNode:
		return p.flow(x.Value)
	case *ast.MappingNode:
		parts := make([]string, 0, len(x.Values))
		for _, v := range x.Values {
			parts = append(parts, p.flow(v.Key)+": "+p.flow(v.Value))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case *ast.MappingValueNode:
		return "{" + p.flow(x.Key) + ": " + p.flow(x.Value) + "}"
	case *ast.SequenceNode:
		parts := make([]string, 0, len(x.Values))
		for _, v := range x.Values {
			switch v.(type) {
			case *ast.CommentGroupNode, *ast.CommentNode:
				continue
			}
			parts = append(parts, p.flow(v))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *ast.StringNode:
		if x.Token != nil && (x.Token.Type == token.SingleQuoteType || x.Token.Type == token.DoubleQuoteType) {
			return strconv.Quote(x.Value) // quoted as written: still a string
		}
		return flowString(x.Value)
	case *ast.LiteralNode:
		if x.Value == nil {
			return `""`
		}
		return strconv.Quote(x.Value.Value)
	}
	if tk := n.GetToken(); tk != nil {
		return tk.Value // numbers, booleans, null, infinities, <<: as written
	}
	return fmt.Sprint(n)
}

// flowString writes a plain string as a flow collection may hold it: as it is when
// nothing in it has a meaning there, else double-quoted.
func flowString(s string) string {
	if s == "" || strings.TrimSpace(s) != s || strings.ContainsAny(s, ",[]{}#\"'`\n\t\\") ||
		strings.Contains(s, ": ") || strings.HasSuffix(s, ":") || strings.ContainsRune("!&*|>%@?:", rune(s[0])) ||
		s == "-" || strings.HasPrefix(s, "- ") {
		return strconv.Quote(s)
	}
	return s
}
