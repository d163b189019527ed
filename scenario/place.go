package scenario

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// Placement is what a scenario's entry for one unit (or model) should say now: the
// entry written with `id: ID`, its keys in Set given these values (float64, int, bool,
// string, a list of them: [x, y], a list of points: [[x, y], …], or []any and
// map[string]any of these, written in flow style: [{height: 7}]), its keys in Drop
// removed. With List set, the entry is instead the Item-th mapping (from 0) of the list
// under key List in the entry with `id: ID`: a model written without an id of its own,
// in its unit's `models:`.
type Placement struct {
	ID   string
	Set  map[string]any
	Drop []string
	List string
	Item int
}

// Place writes the document again with every placement applied to the entry of its id,
// and the top-level keys in drop removed (a deployed battle's `action:`, which it has
// played). Everything else, comments and layout included, is written as it was. An id
// with no entry is an error.
//
// Anchors, aliases and merge keys (<<) are placed as YAML reads them. An anchored entry
// is found where it is written. Before anything changes, every entry or list that is
// about to change stops sharing with others: an entry placed that merges others has the
// keys it inherits written into it, so that a key it only inherits can be dropped or
// replaced; an entry or list that others merge or alias is, in each of them, written
// out as it was (merged keys written into the merging entry, an alias replaced by a copy
// in flow style), so that what is set on it does not leak into them; and a list reached
// through an alias is written out as a copy before one of its items is placed.
func (d *Doc) Place(placements []Placement, drop ...string) ([]byte, error) {
	// A fresh parse: placing edits the tree, and the document's own must not change.
	f, err := parser.ParseBytes(d.src, parser.ParseComments)
	if err != nil || len(f.Docs) == 0 {
		return nil, fmt.Errorf("scenario: place: %v", err)
	}
	doc := f.Docs[0]
	// Bind the fresh tree's aliases as Parse bound the document's (it has reported any
	// that are unknown).
	c := &checker{file: d.File, anchors: map[string]ast.Node{}, sizes: map[string]int64{}, aliases: map[*ast.AliasNode]ast.Node{}}
	c.walk(doc.Body, 0)
	pl := &placer{aliases: c.aliases}
	if top, ok := doc.Body.(*ast.MappingNode); ok {
		top.Values = slices.DeleteFunc(top.Values, func(v *ast.MappingValueNode) bool { return slices.Contains(drop, keyOf(v)) })
	}
	// First find every entry, then detach them all, then edit: a copy made to detach
	// an entry holds what the document said, never a placement half done.
	targets := make([]*ast.MappingNode, len(placements))
	for i, p := range placements {
		m := entryOf(doc, p.ID)
		if m == nil {
			return nil, fmt.Errorf("scenario: place: no entry with id %q", p.ID)
		}
		if p.List != "" {
			if m, err = pl.itemOf(m, p.List, p.Item); err != nil {
				return nil, err
			} else if m == nil {
				return nil, fmt.Errorf("scenario: place: the entry with id %q has no mapping %d in %s", p.ID, p.Item, p.List)
			}
		}
		targets[i] = m
	}
	if err := pl.detach(doc, targets); err != nil {
		return nil, err
	}
	for i, p := range placements {
		m := targets[i]
		m.Values = slices.DeleteFunc(m.Values, func(v *ast.MappingValueNode) bool { return slices.Contains(p.Drop, keyOf(v)) })
		for _, key := range slices.Sorted(maps.Keys(p.Set)) {
			text := flowText(p.Set[key])
			if i := slices.IndexFunc(m.Values, func(v *ast.MappingValueNode) bool { return keyOf(v) == key }); i >= 0 {
				v, err := parseNode(text)
				if err != nil {
					return nil, err
				}
				m.Values[i].Value = v
				continue
			}
			mv, err := newEntry(m, key, text)
			if err != nil {
				return nil, err
			}
			m.Values = append(m.Values, mv)
		}
	}
	return []byte(f.String()), nil
}

// keyOf is the text of a mapping entry's key.
func keyOf(v *ast.MappingValueNode) string {
	if v.Key == nil || v.Key.GetToken() == nil {
		return ""
	}
	return v.Key.GetToken().Value
}

// entryOf finds the mapping that holds `id: id`, anywhere in the document.
func entryOf(n ast.Node, id string) *ast.MappingNode {
	// An entry may be written once and merged into others: `- &s {id: …}`.
	found, _ := firstNode(n, func(n ast.Node) bool {
		m, ok := n.(*ast.MappingNode)
		return ok && slices.ContainsFunc(m.Values, func(v *ast.MappingValueNode) bool {
			return keyOf(v) == "id" && v.Value != nil && v.Value.GetToken() != nil && v.Value.GetToken().Value == id
		})
	}).(*ast.MappingNode)
	return found
}

// parseNode parses a value written in flow style.
func parseNode(text string) (ast.Node, error) {
	f, err := parser.ParseBytes([]byte(text), 0)
	if err != nil || len(f.Docs) == 0 {
		return nil, fmt.Errorf("scenario: place: %q: %v", text, err)
	}
	return f.Docs[0].Body, nil
}

// newEntry makes a `key: text` entry to add to m: in flow style for a flow mapping, or
// at the column of m's keys for a block one.
func newEntry(m *ast.MappingNode, key, text string) (*ast.MappingValueNode, error) {
	src := "{" + key + ": " + text + "}"
	if !m.IsFlowStyle && len(m.Values) > 0 && m.Values[0].Key.GetToken() != nil {
		col := m.Values[0].Key.GetToken().Position.Column
		src = strings.Repeat(" ", max(col-1, 0)) + key + ": " + text + "\n"
	}
	f, err := parser.ParseBytes([]byte(src), 0)
	if err != nil || len(f.Docs) == 0 {
		return nil, fmt.Errorf("scenario: place: %q: %v", src, err)
	}
	switch b := f.Docs[0].Body.(type) {
	case *ast.MappingNode:
		return b.Values[0], nil
	case *ast.MappingValueNode:
		return b, nil
	}
	return nil, fmt.Errorf("scenario: place: %q is not an entry", src)
}

// flowText writes a value in YAML's flow style: numbers as short as they read back,
// strings quoted when they need it, lists in brackets.
func flowText(v any) string {
	switch x := v.(type) {
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return "0"
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case int:
		return strconv.Itoa(x)
	case string:
		b, err := yaml.Marshal(x)
		if err != nil {
			return strconv.Quote(x)
		}
		return strings.TrimSpace(string(b))
	case []float64:
		return flowList(x)
	case [2]float64:
		return flowText(x[:])
	case []int:
		return flowList(x)
	case [2]int:
		return flowText(x[:])
	case bool:
		return strconv.FormatBool(x)
	case [][2]float64:
		return flowList(x)
	case []any:
		return flowList(x)
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = flowText(k) + ": " + flowText(x[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v)
}

// flowList writes a list in YAML's flow style: its values, each as flowText writes it, in
// brackets.
func flowList[T any](xs []T) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = flowText(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
