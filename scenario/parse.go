package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"sync"
	"unsafe"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// Doc is a parsed scenario document, or a section of one, ready to decode.
// Docs are made by Parse, ParseFile and Section. Positions of the values
// Decode fills in are remembered for Pos and KeyPos. A Doc may be used from
// several goroutines.
type Doc struct {
	// File is the name given to Parse, used in every position.
	File string
	// Refereed is set by a server for documents a player sends it. The rules then
	// decide all they can: a document may not state a die, nor claim a fact that the
	// scenario lets the rules work out (a range from the units' positions) or check (a
	// modifier's condition) otherwise than they find it. The command line leaves it off,
	// so that a player may ask "what if I rolled a 6?".
	Refereed bool
	// Edition is the edition of volley's rules the document is read under (volley.Edition
	// lists them); 0 means the current one. A server replaying a battle begun under an
	// older edition sets it, so that the battle goes on as it began.
	Edition int
	// Accepted is set for a document volley accepted before: a stored battle's scenario,
	// a log's. What applies to new input only (the names a scenario may use) is then not
	// checked again, so that a battle stored before a check began still loads.
	Accepted bool

	node    ast.Node // the document's body, or a section's value
	src     []byte   // the whole file, for positions inside block scalars
	dir     string   // the folder of a file read with ParseFile; "" for bytes
	unit    Unit
	values  int64                       // the whole document's, with aliases expanded (Values)
	aliases map[*ast.AliasNode]ast.Node // each alias to the node it names
	table   *posTable                   // shared by a Doc and its sections
}

// posTable remembers where decoded values came from.
type posTable struct {
	mu     sync.Mutex
	pos    map[posKey]Pos
	failed map[posKey]bool
	keys   map[unsafe.Pointer]map[string]Pos
}

// Parse parses src, a scenario in YAML or JSON (which goccy reads as YAML's
// flow style), as the file named file. Syntax errors come back as an
// ErrorList of one error, as goccy stops at the first; the checks Parse makes
// itself (one non-empty document, nesting depth, aliases naming anchors
// defined before them) report all they find.
//
// Parse bounds its own cost before each step (see the limits in limits.go):
// a document over a limit is refused with an error naming the limit, having
// cost little more than reading it.
func Parse(file string, src []byte) (*Doc, error) {
	start := Pos{File: file, Line: 1, Col: 1}
	if len(src) > maxSize {
		return nil, ErrorList{{Pos: start, Msg: fmt.Sprintf("file is larger than %d MiB", maxSize>>20)}}
	}
	if n := bytes.Count(src, []byte("\n")); n > maxLines {
		return nil, ErrorList{{Pos: start, Msg: fmt.Sprintf("file has %d lines; a scenario may have at most %d", n, maxLines)}}
	}
	if pos, msg, ok := checkText(file, src); !ok {
		return nil, ErrorList{{Pos: pos, Msg: msg}}
	}
	// goccy keeps a byte order mark as part of the first key.
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	if n := estimateTokens(src); n > MaxTokens {
		return nil, ErrorList{{Pos: start, Msg: fmt.Sprintf("file has too many values and indicators for a scenario (up to %d tokens; at most %d)", n, MaxTokens)}}
	}
	f, err := parseYAML(file, src)
	if err != nil {
		return nil, err
	}
	var docs []*ast.DocumentNode
	for _, doc := range f.Docs {
		if doc == nil || doc.Body == nil {
			continue
		}
		if _, comment := doc.Body.(*ast.CommentGroupNode); comment {
			continue
		}
		docs = append(docs, doc)
	}
	switch {
	case len(docs) == 0:
		return nil, ErrorList{{Pos: start, Msg: "empty document"}}
	case len(docs) > 1:
		pos := nodePos(file, docs[1].Body)
		if docs[1].Start != nil {
			pos = tokenPos(file, docs[1].Start)
		}
		return nil, ErrorList{{Pos: pos, Msg: "a file holds one document; this is a second"}}
	}
	d := &Doc{
		File:    file,
		node:    docs[0].Body,
		src:     src,
		aliases: make(map[*ast.AliasNode]ast.Node),
		table:   &posTable{pos: make(map[posKey]Pos), failed: make(map[posKey]bool), keys: make(map[unsafe.Pointer]map[string]Pos)},
	}
	c := &checker{file: file, anchors: make(map[string]ast.Node), sizes: make(map[string]int64), aliases: d.aliases}
	values := c.walk(d.node, 0)
	if err := c.errs.Err(); err != nil {
		return nil, err
	}
	if values > MaxValues {
		return nil, ErrorList{{Pos: d.Root(), Msg: fmt.Sprintf("the document stands for %s values once its aliases and merge keys are expanded; a scenario may have at most %d", countText(values), MaxValues)}}
	}
	d.values = values
	d.unit = Inch
	if v := d.lookup("distances"); v != nil {
		if n, _ := newDecoder(d).resolve(v); n != nil {
			if s, ok := scalarOf(n, Inch); ok && Unit(s.Text) == Centimetre {
				d.unit = Centimetre
			}
		}
	}
	return d, nil
}

// countText writes a count that may have saturated.
func countText(n int64) string {
	if n == math.MaxInt64 {
		return "more than 9 quintillion"
	}
	return strconv.FormatInt(n, 10)
}

// scan is goccy's scanner, and parseTokens its parser, in variables so that a
// test can make them panic.
var (
	scan        = lexer.Tokenize
	parseTokens = func(toks token.Tokens) (*ast.File, error) { return parser.Parse(toks, 0) }
)

// parseYAML runs goccy's scanner, checks its tokens, and runs its parser,
// turning an error, or a panic, into an ErrorList with a position.
func parseYAML(file string, src []byte) (f *ast.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, ErrorList{{Pos: Pos{File: file, Line: 1, Col: 1}, Msg: fmt.Sprintf("yaml: cannot parse: %v", r)}}
		}
	}()
	toks := scan(string(src))
	if len(toks) > MaxTokens {
		// estimateTokens is an upper bound (FuzzEstimateTokens); this is the backstop.
		return nil, ErrorList{{Pos: Pos{File: file, Line: 1, Col: 1}, Msg: fmt.Sprintf("file has %d tokens; a scenario may have at most %d", len(toks), MaxTokens)}}
	}
	if pos, msg, ok := checkTokens(file, toks); !ok {
		return nil, ErrorList{{Pos: pos, Msg: msg}}
	}
	f, err = parseTokens(toks)
	if err != nil {
		pos := Pos{File: file, Line: 1, Col: 1}
		var ye yaml.Error
		if !errors.As(err, &ye) {
			return nil, ErrorList{{Pos: pos, Msg: err.Error()}}
		}
		// Not ye.Error(), which appends a picture of the source.
		if tk := ye.GetToken(); tk != nil && tk.Position != nil {
			pos = tokenPos(file, tk)
		}
		return nil, ErrorList{{Pos: pos, Msg: ye.GetMessage()}}
	}
	return f, nil
}

// ParseFile reads and parses the scenario file at path.
func ParseFile(path string) (*Doc, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	defer f.Close()
	// Read one byte past the limit so that Parse can tell the file is too big.
	src, err := io.ReadAll(io.LimitReader(f, maxSize+1))
	if err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	d, err := Parse(path, src)
	if err != nil {
		return nil, err
	}
	d.dir = filepath.Dir(path)
	return d, nil
}

// Open parses another file a document refers to (a rule system's tables, say), named
// relative to the folder of the document's own file. Only a document read with
// ParseFile may refer to files, and only to regular files inside its folder or below:
// no absolute paths, no "..". A document parsed from bytes (an API request) cannot
// refer to files at all, so a server never reads its own disk on a player's say-so.
func (d *Doc) Open(name string) (*Doc, error) {
	switch {
	case d.dir == "":
		return nil, fmt.Errorf("this scenario was not read from a file, so it cannot refer to the file %q: write its contents in place", name)
	case !fs.ValidPath(name):
		return nil, fmt.Errorf("%q must be a path inside the scenario's folder (no leading /, no ..)", name)
	}
	// os.Root keeps the read inside the folder, symbolic links included.
	root, err := os.OpenRoot(d.dir)
	if err != nil {
		return nil, fmt.Errorf("cannot open the scenario's folder: %w", errors.Unwrap(err))
	}
	defer root.Close()
	st, err := root.Stat(name)
	if err != nil {
		return nil, fmt.Errorf("cannot read %q next to the scenario: %w", name, errors.Unwrap(err))
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%q is not a regular file", name)
	}
	if st.Size() > maxSize {
		return nil, fmt.Errorf("%q is larger than %d MiB", name, maxSize>>20)
	}
	src, err := root.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("cannot read %q: %w", name, errors.Unwrap(err))
	}
	sub, err := Parse(filepath.Join(d.dir, name), src)
	if err != nil {
		return nil, err
	}
	sub.dir = filepath.Dir(filepath.Join(d.dir, name))
	return sub, nil
}

// lookup returns the unresolved value of key in d's mapping, or nil.
func (d *Doc) lookup(key string) ast.Node {
	dec := newDecoder(d)
	node, _ := dec.resolve(d.node)
	if _, ok := mappingValues(node); !ok {
		return nil
	}
	ents, _ := dec.entries(node, Pos{}, "")
	for _, e := range ents {
		if e.key == key {
			return e.value
		}
	}
	return nil
}

// Peek returns the text of key's value in d's mapping when it is a scalar, and "" when
// there is no such key or its value is not a scalar: a look at a field (an action's type,
// say) that decides how to decode the rest, without reporting anything.
func (d *Doc) Peek(key string) string {
	raw := d.lookup(key)
	if raw == nil {
		return ""
	}
	dec := newDecoder(d)
	node, tag := dec.resolve(raw)
	if s, ok := dec.scalar(node, tag); ok && s.Kind != KindNull {
		return s.Text
	}
	return ""
}

// Ruleset returns the top-level ruleset: string, which says which rule
// system reads the rest of the document. It is read before decoding because
// the rule system chooses the type to decode into. The error is an *Error.
func (d *Doc) Ruleset() (string, error) {
	dec := newDecoder(d)
	root, _ := dec.resolve(d.node)
	if _, ok := mappingValues(root); !ok {
		s, isScalar := dec.scalar(root, "")
		return "", &Error{Pos: d.Root(), Msg: "want a mapping, got " + gotKind(root, s, isScalar)}
	}
	raw := d.lookup("ruleset")
	if raw == nil {
		return "", &Error{Pos: d.Root(), Msg: `missing field "ruleset"`}
	}
	pos := nodePos(d.File, raw)
	node, tag := dec.resolve(raw)
	s, isScalar := dec.scalar(node, tag)
	switch {
	case node == nil || isScalar && s.Kind == KindNull:
		return "", &Error{Pos: pos, Msg: "ruleset: missing value"}
	case !isScalar:
		return "", &Error{Pos: pos, Msg: "ruleset: want a string, got " + gotKind(node, s, false)}
	}
	return s.Text, nil
}

// Unit returns the document's length unit, from its top-level distances:
// key: Inch unless that says "cm". A section has its document's unit.
// An invalid value counts as Inch here; decoding a Header reports it.
func (d *Doc) Unit() Unit { return d.unit }

// WithUnit returns d read with u as its unit, unless d names its own (distances:): an
// action sent on its own, without a scenario around it, writes its numbers in the unit
// of the battle it is sent to.
func (d *Doc) WithUnit(u Unit) *Doc {
	if d.unit == u || d.lookup("distances") != nil {
		return d
	}
	c := *d
	c.unit = u
	return &c
}

// Decode decodes the document strictly into the value v points to,
// reporting every error (unknown keys, missing required fields, values of the
// wrong type, bad lengths) as one sorted ErrorList. What decoded without error
// is filled in even when there are errors.
func (d *Doc) Decode(v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("scenario: Decode needs a non-nil pointer, not %T", v)
	}
	dec := newDecoder(d)
	dec.value(rv.Elem(), d.node, "", false, true)
	d.table.mu.Lock()
	for k, p := range dec.pos {
		d.table.pos[k] = p
	}
	for k := range dec.failed {
		d.table.failed[k] = true
	}
	for k, m := range dec.keys {
		d.table.keys[k] = m
	}
	d.table.mu.Unlock()
	return dec.errs.Err()
}

// Values is how many values (scalars, lists, mappings, keys) the whole document stands
// for with every alias and merge key expanded: at most MaxValues. Whatever is decoded from
// it (units, models, corners) holds no more, so it bounds the work of writing any of that
// out again, however few bytes the document has.
func (d *Doc) Values() int64 { return d.values }

// Section returns the value of key in d's mapping (for a document, a
// top-level key such as "action") as a Doc of its own, sharing d's file,
// unit and remembered positions; or nil if there is no such key.
func (d *Doc) Section(key string) *Doc {
	v := d.lookup(key)
	if v == nil {
		return nil
	}
	sec := *d
	sec.node = v
	return &sec
}

// DecodeAnyway decodes the section key of d into a new T, and returns the section with it
// (nil, nil where d has none), whatever its decoding errors: the parts that decoded are
// set. It is for checks of a section in a document whose rule system failed to load it,
// where the loader has reported those errors already, and the section's other mistakes
// are reported with them.
func DecodeAnyway[T any](d *Doc, key string) (*Doc, *T) {
	sec := d.Section(key)
	if sec == nil {
		return nil, nil
	}
	v := new(T)
	_ = sec.Decode(v) // the loader's to report
	return sec, v
}

// Items returns the items of d's value when it is a list, each a Doc of its own as
// Section makes them, and false when it is not a list.
func (d *Doc) Items() ([]*Doc, bool) {
	dec := newDecoder(d)
	node, _ := dec.resolve(d.node)
	seq, ok := node.(*ast.SequenceNode)
	if !ok {
		return nil, false
	}
	items := make([]*Doc, len(seq.Values))
	for i, v := range seq.Values {
		item := *d
		item.node = v
		items[i] = &item
	}
	return items, true
}

// Pos returns where the value ptr points to was decoded from: the position
// of its node (for a struct, of its mapping, which for a block mapping is its
// first key). ptr must point into a value filled in by Decode, as &unit or
// &unit.Weapons[2]; for anything else Pos returns the zero Pos. A value
// given as null has the null's position.
func (d *Doc) Pos(ptr any) Pos {
	rv := reflect.ValueOf(ptr)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return Pos{}
	}
	d.table.mu.Lock()
	defer d.table.mu.Unlock()
	return d.table.pos[posKey{rv.UnsafePointer(), rv.Type().Elem()}]
}

// Failed reports whether decoding the value ptr points to reported an error, in the
// value itself or anywhere inside it (a struct with a misspelt field, a list with a bad
// element). A rule system asks it to say nothing that follows only from a failure the
// decoder has already reported: a unit whose frontage failed is not also "too narrow",
// and its side still counts. ptr is as for Pos; for anything else Failed is false.
func (d *Doc) Failed(ptr any) bool {
	rv := reflect.ValueOf(ptr)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return false
	}
	d.table.mu.Lock()
	defer d.table.mu.Unlock()
	return d.table.failed[posKey{rv.UnsafePointer(), rv.Type().Elem()}]
}

// KeyPos returns the position of the value of key in a map filled in by
// Decode, since map values have no address to give Pos. m is the map or a
// pointer to it.
func (d *Doc) KeyPos(m any, key string) Pos {
	rv := reflect.ValueOf(m)
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Map || rv.IsNil() {
		return Pos{}
	}
	d.table.mu.Lock()
	defer d.table.mu.Unlock()
	return d.table.keys[rv.UnsafePointer()][key]
}

// Errorf returns an error at the position of the value ptr points to, for
// rules that find a problem after decoding ("range exceeds the table").
func (d *Doc) Errorf(ptr any, format string, args ...any) *Error {
	return &Error{Pos: d.Pos(ptr), Msg: fmt.Sprintf(format, args...)}
}

// Root returns the position of the document's (or section's) first node.
func (d *Doc) Root() Pos { return nodePos(d.File, d.node) }

// BlockPos is the position of a character inside a literal block scalar (a | value,
// such as an ASCII map): p is the block's position as Pos reports it (its indicator),
// row counts the block's lines from 0 and col the runes of that line from 0. Block
// content lines are indented; the indentation is read from the file. It returns p itself
// when p is not a | block (a string written in quotes or on one line, whose characters
// may be escapes or folded) or the file has no such line or column, so that every
// position it gives lies in the file.
func (d *Doc) BlockPos(p Pos, row, col int) Pos {
	lines := bytes.Split(d.src, []byte("\n"))
	if p.Line < 1 || p.Line > len(lines) || row < 0 || col < 0 {
		return p
	}
	head := []rune(string(lines[p.Line-1]))
	if p.Col < 1 || p.Col > len(head) || head[p.Col-1] != '|' {
		return p
	}
	line := p.Line + 1 + row
	if line > len(lines) {
		return p
	}
	text := lines[line-1]
	indent := len(text) - len(bytes.TrimLeft(text, " "))
	if indent+col >= len([]rune(string(text))) {
		return p
	}
	return Pos{File: p.File, Line: line, Col: indent + col + 1}
}

// At is where an error about the value at ptr belongs: where it was written, as Pos
// says, or the document's start for a value that was not written (a default), so that
// every error a rule system reports carries a position.
func (d *Doc) At(ptr any) Pos {
	if p := d.Pos(ptr); p.IsValid() {
		return p
	}
	return d.Root()
}

// DecodeChecked decodes the document strictly into v, as Decode does, then runs check:
// the rule system's own checks (unknown names, bounds, references), which add to errs.
// check runs even when decoding failed, on what could be decoded, so that a file's
// mistakes of both kinds are reported together; a check error at a place the decoder
// already reported is dropped (see Merge).
func (d *Doc) DecodeChecked(v any, check func(errs *ErrorList)) error {
	var decoded, checked ErrorList
	if err := d.Decode(v); err != nil && !errors.As(err, &decoded) {
		return err
	}
	check(&checked)
	return Merge(decoded, checked).Err()
}

// DecodeBeside decodes the file name, beside the document (see Open), into v and runs
// check on it, as DecodeChecked does: how a rule system reads the tables or charts a
// scenario names with `file:`. Every problem, of opening it or in it, is added to errs,
// those in the file at their place there and the others at at. It reports whether the
// file was read and checked without error.
func (d *Doc) DecodeBeside(name string, at Pos, what string, v any, check func(doc *Doc, errs *ErrorList)) (errs ErrorList) {
	sub, err := d.Open(name)
	if err == nil {
		err = sub.DecodeChecked(v, func(errs *ErrorList) { check(sub, errs) })
	}
	if err != nil {
		var list ErrorList
		if errors.As(err, &list) {
			return list
		}
		errs.Add(at, "%s: %v", what, err)
	}
	return errs
}

// InPlaceOrBeside reads data that a scenario gives in place or in a file beside it
// (named by its `file:`, see Open), as a rule system's tables or charts: what its text
// refers to without printing. inPlace is the data as decoded in place, and inPlaceToo
// says the scenario wrote some of it beside a file, which is refused at the file (what:
// "tables"). check checks and completes the data in the document it is written in, and
// reports whether it can be used. It returns nil when it cannot, or when the file had
// errors; every error is added to errs, a file's at its place in the file.
func InPlaceOrBeside[T any](doc *Doc, file *string, inPlace *T, inPlaceToo bool, what string, errs *ErrorList, check func(doc *Doc, v *T, errs *ErrorList) bool) *T {
	if *file == "" {
		if !check(doc, inPlace, errs) {
			return nil
		}
		return inPlace
	}
	if inPlaceToo {
		errs.Add(doc.At(file), "%s: give a file or the %s themselves, not both", what, what)
	}
	v, ok := new(T), false
	list := doc.DecodeBeside(*file, doc.At(file), what, v, func(d *Doc, errs *ErrorList) { ok = check(d, v, errs) })
	*errs = append(*errs, list...)
	if len(list) > 0 || !ok {
		return nil
	}
	return v
}

// Without returns d without key in its mapping, as if it had not been written: for a
// section read apart from the rest (the dice given with an action, which the rule
// system's decoder does not know). Positions are those of d. A key brought in by a merge
// (<<) stays. d itself is unchanged; if d is not a mapping, or has no such key, Without
// returns d.
func (d *Doc) Without(key string) *Doc {
	dec := newDecoder(d)
	node, _ := dec.resolve(d.node)
	values, ok := mappingValues(node)
	if !ok {
		return d
	}
	kept := make([]*ast.MappingValueNode, 0, len(values))
	for _, mv := range values {
		k, tag := dec.resolve(mv.Key)
		if s, isScalar := dec.scalar(k, tag); isScalar && s.Text == key {
			continue
		}
		kept = append(kept, mv)
	}
	if len(kept) == len(values) {
		return d
	}
	m := &ast.MappingNode{BaseNode: &ast.BaseNode{}, Start: values[0].GetToken()}
	if mn, ok := node.(*ast.MappingNode); ok {
		c := *mn
		m = &c
	}
	m.Values = kept
	c := *d
	c.node = m
	return &c
}
