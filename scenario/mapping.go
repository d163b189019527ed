package scenario

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// entry is one key of a mapping after merge keys are applied.
type entry struct {
	key    string
	keyPos Pos
	value  ast.Node // unresolved, so that an alias keeps its own position
	merged bool     // brought in by a merge key
}

// mappingValues returns the key-value pairs of a resolved mapping node.
func mappingValues(node ast.Node) ([]*ast.MappingValueNode, bool) {
	switch n := node.(type) {
	case *ast.MappingNode:
		return n.Values, true
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{n}, true
	}
	return nil, false
}

// entries returns the entries of a mapping with YAML merge keys (<<) applied:
// merged entries come first, an explicit key overrides a merged one, and of
// two merged mappings the earlier wins. If node is not a mapping it reports
// a type error and returns false.
//
// Results are kept per mapping node: an anchored mapping merged into many
// others is worked out once, and a chain of merges costs no more than the
// mappings in it.
func (d *decoder) entries(node ast.Node, pos Pos, name string) ([]entry, bool) {
	values, ok := mappingValues(node)
	if !ok {
		s, isScalar := d.scalar(node, "")
		d.errorf(pos, name, "want a mapping, got %s", gotKind(node, s, isScalar))
		return nil, false
	}
	mn, _ := node.(*ast.MappingNode)
	if mn != nil {
		if ents, ok := d.merged[mn]; ok {
			return ents, true
		}
	}
	var merged, explicit []entry
	for _, mv := range values {
		keyNode, tag := d.resolve(mv.Key)
		keyPos := d.nodePos(mv.Key)
		if _, isMerge := keyNode.(*ast.MergeKeyNode); isMerge && tag != token.StringTag {
			merged = append(merged, d.mergeSources(mv.Value)...)
			continue
		}
		s, isScalar := d.scalar(keyNode, tag)
		if !isScalar || keyNode == nil {
			d.add(keyPos, "want a name as key, got "+gotKind(keyNode, s, isScalar))
			continue
		}
		explicit = append(explicit, entry{key: s.Text, keyPos: keyPos, value: mv.Value})
	}
	ents := explicit
	if len(merged) > 0 {
		seen := make(map[string]bool, len(explicit)+len(merged))
		for _, e := range explicit {
			seen[e.key] = true
		}
		ents = make([]entry, 0, len(merged)+len(explicit))
		for _, e := range merged {
			if !seen[e.key] {
				seen[e.key] = true
				ents = append(ents, e)
			}
		}
		ents = append(ents, explicit...)
	}
	if mn != nil {
		d.merged[mn] = ents
	}
	return ents, true
}

// mergeSources returns the entries a merge key brings in: from one mapping,
// or from each mapping of a list in turn.
func (d *decoder) mergeSources(raw ast.Node) []entry {
	const what = "want a mapping or a list of mappings to merge, got %s"
	pos := d.nodePos(raw)
	node, _ := d.resolve(raw)
	switch n := node.(type) {
	case *ast.SequenceNode:
		var out []entry
		for _, elem := range n.Values {
			ep := d.nodePos(elem)
			en, _ := d.resolve(elem)
			if _, ok := mappingValues(en); !ok {
				s, isScalar := d.scalar(en, "")
				d.errorf(ep, "<<", what, gotKind(en, s, isScalar))
				continue
			}
			ents, _ := d.entries(en, ep, "<<")
			out = append(out, ents...)
		}
		return markMerged(out)
	case *ast.MappingNode, *ast.MappingValueNode:
		ents, _ := d.entries(n, pos, "<<")
		return markMerged(ents)
	}
	s, isScalar := d.scalar(node, "")
	d.errorf(pos, "<<", what, gotKind(node, s, isScalar))
	return nil
}

// markMerged returns a copy of ents marked as brought in by a merge key;
// the originals may be memoized entries of the merged mapping itself.
func markMerged(ents []entry) []entry {
	out := make([]entry, len(ents))
	for i, e := range ents {
		e.merged = true
		out[i] = e
	}
	return out
}

// field is one key a struct accepts.
type field struct {
	name     string
	index    []int // for reflect.Value.FieldByIndex
	required bool
	depth    int // embedding depth; shallower fields hide deeper ones
}

// structInfo is what decoding needs to know about a struct type.
type structInfo struct {
	fields  []field
	byName  map[string]int
	names   []string // for suggestions, in declaration order
	inlined [][]int  // indexes of embedded structs, to give them positions
}

var structInfos sync.Map // reflect.Type → *structInfo

// fieldsOf returns the fields of struct type t. A field's key is its yaml
// tag's name, or its Go name in lower case; a tag of "-" hides it, and the tag
// option "required" makes it required. An anonymous struct field without a
// tag name is inlined: its fields are keys of the parent mapping. If two
// fields claim one key, the less deeply embedded wins, then the first.
func fieldsOf(t reflect.Type) *structInfo {
	if info, ok := structInfos.Load(t); ok {
		return info.(*structInfo)
	}
	info := &structInfo{byName: make(map[string]int)}
	var all []field
	var walk func(t reflect.Type, index []int, depth int)
	walk = func(t reflect.Type, index []int, depth int) {
		for i := range t.NumField() {
			sf := t.Field(i)
			tag := sf.Tag.Get("yaml")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			idx := append(slices.Clip(index), i)
			if sf.Anonymous && name == "" && sf.Type.Kind() == reflect.Struct {
				info.inlined = append(info.inlined, idx)
				walk(sf.Type, idx, depth+1)
				continue
			}
			if !sf.IsExported() {
				continue
			}
			if name == "" {
				name = strings.ToLower(sf.Name)
			}
			required := slices.Contains(strings.Split(opts, ","), "required")
			all = append(all, field{name: name, index: idx, required: required, depth: depth})
		}
	}
	walk(t, nil, 0)
	slices.SortStableFunc(all, func(a, b field) int { return cmp.Compare(a.depth, b.depth) })
	for _, f := range all {
		if _, dup := info.byName[f.name]; dup {
			continue
		}
		info.byName[f.name] = len(info.fields)
		info.fields = append(info.fields, f)
		info.names = append(info.names, f.name)
	}
	actual, _ := structInfos.LoadOrStore(t, info)
	return actual.(*structInfo)
}

// maxSuggestDistance is how many edits a misspelt key may be from a field's
// name for "did you mean" to suggest it: enough for a swapped or doubled
// letter, few enough that the suggestion is usually right.
const maxSuggestDistance = 2

// nearest returns the name closest to key within maxSuggestDistance edits,
// or "" if there is none or the key is too short for a guess to mean much.
func nearest(key string, names []string) string {
	best, bestDist := "", maxSuggestDistance+1
	k := []rune(key)
	for _, n := range names {
		if dist := editDistance(k, []rune(n)); dist < bestDist && dist < len(k) {
			best, bestDist = n, dist
		}
	}
	return best
}

// editDistance counts the insertions, deletions, substitutions and swaps of
// neighbouring letters that turn a into b (optimal string alignment). Swaps
// count as one edit because "rnage" for "range" is the commonest typo.
func editDistance(a, b []rune) int {
	// d[i][j] is the distance between a[:i] and b[:j]; three rows suffice.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// DidYouMean returns the known name closest to word, for "did you mean" hints in
// errors about names a scenario refers to (unit types, weapons, targets), or "" when
// none is close enough to be a likely typo.
func DidYouMean(word string, known []string) string { return nearest(word, known) }
