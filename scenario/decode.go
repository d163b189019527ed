package scenario

import (
	"encoding"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"unsafe"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// posKey identifies a decoded value by address and type, so that a struct
// and its first field, which share an address, have separate positions.
// The pointer is kept as a pointer so that the value cannot be freed and its
// address reused while the Doc remembers it.
type posKey struct {
	p unsafe.Pointer
	t reflect.Type
}

// decoder is the state of one strict decode: the errors found so far and the
// positions of the values filled in.
//
// Its cost is bounded by the document's: Parse has refused any document that
// stands for more than MaxValues values with its aliases expanded, and a
// decoder visits each of those values at most once.
type decoder struct {
	doc  *Doc
	errs ErrorList
	seen map[Error]bool // errors already reported: an alias repeats its target's
	pos  map[posKey]Pos
	// failed holds the values whose decoding reported an error, in them or anywhere
	// inside them (see Doc.Failed).
	failed map[posKey]bool
	// reported counts every error met, repeats included, so that a value knows whether
	// decoding it found one.
	reported int
	keys     map[unsafe.Pointer]map[string]Pos
	merged   map[*ast.MappingNode][]entry
	// free is what is left of MaxFreeForm in the free-form value being decoded, or -1
	// outside one.
	free int
}

func newDecoder(d *Doc) *decoder {
	return &decoder{
		doc:    d,
		seen:   make(map[Error]bool),
		pos:    make(map[posKey]Pos),
		failed: make(map[posKey]bool),
		keys:   make(map[unsafe.Pointer]map[string]Pos),
		merged: make(map[*ast.MappingNode][]entry),
		free:   -1,
	}
}

// errorf records an error, prefixed with the name of the value it concerns.
func (d *decoder) errorf(pos Pos, name, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if name != "" {
		msg = name + ": " + msg
	}
	d.add(pos, msg)
}

// add records an error once: a mistake inside an anchored value is met again
// for every alias of it, and one report is enough.
func (d *decoder) add(pos Pos, msg string) {
	d.reported++
	e := Error{Pos: pos, Msg: msg}
	if d.seen[e] {
		return
	}
	d.seen[e] = true
	d.errs = append(d.errs, &e)
}

// resolve strips what stands between a node and its value: documents,
// anchors, aliases, tags and explicit-key markers. tag is the last of YAML's
// standard tags met on the way (the checker has refused any other tag), which
// may change how a scalar reads: !!str makes it a string, !!float a number
// that is not a whole number.
func (d *decoder) resolve(n ast.Node) (node ast.Node, tag token.ReservedTagKeyword) {
	for {
		switch x := n.(type) {
		case *ast.DocumentNode:
			n = x.Body
		case *ast.AnchorNode:
			n = x.Value
		case *ast.AliasNode:
			n = d.doc.aliases[x] // Parse has reported an unknown alias.
		case *ast.TagNode:
			if x.Start != nil {
				tag = token.ReservedTagKeyword(x.Start.Value)
			}
			n = x.Value
		case *ast.MappingKeyNode:
			n = x.Value
		case *ast.CommentGroupNode, *ast.CommentNode:
			return nil, tag
		default:
			return n, tag
		}
	}
}

// scalar returns the scalar a resolved node stands for, as its tag reads it.
func (d *decoder) scalar(node ast.Node, tag token.ReservedTagKeyword) (Scalar, bool) {
	s, ok := scalarOf(node, d.doc.unit)
	if !ok || s.Kind == KindNull {
		return s, ok
	}
	switch tag {
	case token.StringTag:
		s.Kind = KindString
	case token.FloatTag:
		if s.Kind == KindInt {
			s.Kind = KindFloat
		}
	}
	return s, ok
}

func (d *decoder) nodePos(n ast.Node) Pos { return nodePos(d.doc.File, n) }

// gotKind describes a node for "want a list, got …": its kind, not its text,
// except for true and false, which say it better themselves.
func gotKind(node ast.Node, s Scalar, isScalar bool) string {
	switch node.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	}
	if !isScalar {
		return "something else"
	}
	switch s.Kind {
	case KindString:
		return "a string"
	case KindBool:
		return s.Text
	}
	return "a number"
}

// got describes a node for "want a number, got …": a scalar as written,
// anything else by kind.
func got(node ast.Node, s Scalar, isScalar bool) string {
	if isScalar {
		return s.got()
	}
	return gotKind(node, s, false)
}

// value decodes raw into v, which is addressable unless it is a temporary
// (a map value), in which case record is false and no position is kept for v
// itself. name prefixes messages; required makes a null an error.
func (d *decoder) value(v reflect.Value, raw ast.Node, name string, required, record bool) {
	pos := d.nodePos(raw)
	if d.free == 0 {
		return // reported by generic
	}
	if d.free > 0 {
		d.free--
	}
	before := d.reported
	if record && v.CanAddr() {
		key := posKey{v.Addr().UnsafePointer(), v.Type()}
		d.pos[key] = pos
		defer func() {
			if d.reported > before {
				d.failed[key] = true
			}
		}()
	}
	node, tag := d.resolve(raw)
	_, isNull := node.(*ast.NullNode)
	if node == nil || isNull {
		switch {
		case required:
			d.errorf(pos, name, "missing value")
		case v.Kind() == reflect.Struct:
			// A null struct (an empty list entry "-", say) still lacks its required
			// fields; without this a zero value would slip through unreported.
			d.missingFields(v.Type(), pos)
		}
		return
	}
	d.into(v, node, tag, pos, name)
	// A required name written as "" is as missing as one left out: an empty id or
	// weapon name would only surface later as a confusing reference error. A value that
	// failed to decode (a kind that is not one of the system's) is left empty too, and
	// its own error says all: "must not be empty" beside it would be a second error
	// for one mistake.
	if required && v.Kind() == reflect.String && v.String() == "" && d.reported == before {
		d.errorf(pos, name, "must not be empty")
	}
}

// missingFields reports every required field of a struct given as null.
func (d *decoder) missingFields(t reflect.Type, pos Pos) {
	for _, f := range fieldsOf(t).fields {
		if f.required {
			d.add(pos, fmt.Sprintf("missing field %q", f.name))
		}
	}
}

var (
	scalarDecoderType   = reflect.TypeFor[ScalarDecoder]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	pointType           = reflect.TypeFor[Point]()
	skipType            = reflect.TypeFor[Skip]()
	lengthType          = reflect.TypeFor[Length]()
	unitType            = reflect.TypeFor[Unit]()
	mapAnyType          = reflect.TypeFor[map[string]any]()
	sliceAnyType        = reflect.TypeFor[[]any]()
)

// into decodes a resolved, non-null node into v.
func (d *decoder) into(v reflect.Value, node ast.Node, tag token.ReservedTagKeyword, pos Pos, name string) {
	t := v.Type()
	if t.Kind() == reflect.Pointer {
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		key := posKey{v.UnsafePointer(), t.Elem()}
		d.pos[key] = pos
		before := d.reported
		d.into(v.Elem(), node, tag, pos, name)
		if d.reported > before { // so that Failed knows a map's pointer values too
			d.failed[key] = true
		}
		return
	}
	if t == pointType {
		d.point(v, node, pos, name)
		return
	}
	if t == skipType {
		return
	}
	s, isScalar := d.scalar(node, tag)
	if pt := reflect.PointerTo(t); pt.Implements(scalarDecoderType) || pt.Implements(textUnmarshalerType) {
		if !isScalar {
			d.errorf(pos, name, "want %s, got %s", scalarWant(t), gotKind(node, s, false))
			return
		}
		var err error
		if sd, ok := v.Addr().Interface().(ScalarDecoder); ok {
			err = sd.DecodeScalar(s)
		} else {
			err = v.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s.Text))
		}
		if err != nil {
			d.errorf(pos, name, "%s", err.Error())
		}
		return
	}
	switch t.Kind() {
	case reflect.Interface:
		if t.NumMethod() != 0 {
			d.errorf(pos, name, "cannot decode into Go type %s", t)
			return
		}
		d.generic(v, node, s, isScalar, pos, name)
	case reflect.Struct:
		d.structValue(v, node, pos, name)
	case reflect.Map:
		d.mapValue(v, node, pos, name)
	case reflect.Slice:
		d.sliceValue(v, node, pos, name)
	case reflect.Array:
		d.arrayValue(v, node, pos, name)
	case reflect.String:
		if !isScalar {
			d.errorf(pos, name, "want a string, got %s", gotKind(node, s, false))
			return
		}
		v.SetString(s.Text)
	case reflect.Bool:
		b, err := strconv.ParseBool(s.Text)
		if !isScalar || s.Kind != KindBool || err != nil {
			d.errorf(pos, name, "want true or false, got %s", got(node, s, isScalar))
			return
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		d.intValue(v, node, s, isScalar, pos, name)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		d.intValue(v, node, s, isScalar, pos, name)
	case reflect.Float32, reflect.Float64:
		d.floatValue(v, node, s, isScalar, pos, name)
	default:
		d.errorf(pos, name, "cannot decode into Go type %s", t)
	}
}

// scalarWant says in a player's words what a scalar type wants.
func scalarWant(t reflect.Type) string {
	switch t {
	case lengthType:
		return "a length"
	case unitType:
		return fmt.Sprintf("%q or %q", Inch, Centimetre)
	}
	return "a single value"
}

// intValue decodes a whole number into a signed or unsigned integer,
// reporting values that do not fit the field as overflows.
func (d *decoder) intValue(v reflect.Value, node ast.Node, s Scalar, isScalar bool, pos Pos, name string) {
	if !isScalar || s.Kind != KindInt {
		d.errorf(pos, name, "want a whole number, got %s", got(node, s, isScalar))
		return
	}
	if !plainDecimal(s.Text) {
		d.errorf(pos, name, "want a whole number in plain decimal (no leading zeros, 0x, 0o, 0b or _), got %s", s.got())
		return
	}
	neg, mag, ok, overflow := parseInt(s.Text)
	if !ok {
		d.errorf(pos, name, "want a whole number, got %s", s.got())
		return
	}
	bits := v.Type().Bits()
	if v.CanInt() {
		limit := uint64(1) << (bits - 1) // magnitude of the most negative value
		if overflow || (!neg && mag >= limit) || (neg && mag > limit) {
			d.errorf(pos, name, "value %s overflows %s", s.Text, v.Kind())
			return
		}
		x := int64(mag)
		if neg {
			x = -x // Wraps correctly for the most negative value.
		}
		v.SetInt(x)
		return
	}
	if overflow || (neg && mag != 0) || (bits < 64 && mag >= uint64(1)<<bits) {
		d.errorf(pos, name, "value %s overflows %s", s.Text, v.Kind())
		return
	}
	v.SetUint(mag)
}

// floatValue decodes any number, including .inf but not .nan, into a float.
func (d *decoder) floatValue(v reflect.Value, node ast.Node, s Scalar, isScalar bool, pos Pos, name string) {
	if !isScalar {
		d.errorf(pos, name, "want a number, got %s", gotKind(node, s, false))
		return
	}
	x, ok := parseNumber(s)
	if !ok || math.IsNaN(x) {
		d.errorf(pos, name, "want a number, got %s", s.got())
		return
	}
	if s.Kind != KindInf && (math.IsInf(x, 0) || v.Kind() == reflect.Float32 && math.Abs(x) > math.MaxFloat32) {
		d.errorf(pos, name, "value %s overflows %s", s.Text, v.Kind())
		return
	}
	v.SetFloat(x)
}

// generic decodes into an empty interface: mappings become map[string]any,
// lists []any, and scalars int64, float64, string or bool. A free-form value holds at
// most MaxFreeForm values.
func (d *decoder) generic(v reflect.Value, node ast.Node, s Scalar, isScalar bool, pos Pos, name string) {
	if d.free < 0 {
		d.free = MaxFreeForm
		defer func() {
			if d.free == 0 {
				d.errorf(pos, name, "a free-form value holds at most %d values", MaxFreeForm)
			}
			d.free = -1
		}()
	}
	var x reflect.Value
	switch node.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		x = reflect.New(mapAnyType).Elem()
		d.mapValue(x, node, pos, name)
	case *ast.SequenceNode:
		x = reflect.New(sliceAnyType).Elem()
		d.sliceValue(x, node, pos, name)
	default:
		if !isScalar {
			d.errorf(pos, name, "cannot decode %s", gotKind(node, s, false))
			return
		}
		if s.Kind == KindInt && !plainDecimal(s.Text) {
			d.errorf(pos, name, "want a whole number in plain decimal (no leading zeros, 0x, 0o, 0b or _), got %s", s.got())
			return
		}
		x = reflect.ValueOf(genericScalar(s))
	}
	v.Set(x)
}

func genericScalar(s Scalar) any {
	switch s.Kind {
	case KindBool:
		b, _ := strconv.ParseBool(s.Text)
		return b
	case KindInt:
		neg, mag, ok, overflow := parseInt(s.Text)
		if ok && !overflow && (mag < 1<<63 || neg && mag == 1<<63) {
			if neg {
				return -int64(mag)
			}
			return int64(mag)
		}
		// Too big for int64: keep the number, approximately.
		if f, ok := parseNumber(s); ok {
			return f
		}
		return s.Text
	case KindFloat, KindInf:
		if f, ok := parseNumber(s); ok {
			return f
		}
	}
	return s.Text
}

// sliceValue decodes a list. The slice is made at its final length before
// its elements are decoded, so that the positions kept for their addresses
// stay true.
func (d *decoder) sliceValue(v reflect.Value, node ast.Node, pos Pos, name string) {
	seq, ok := node.(*ast.SequenceNode)
	if !ok {
		s, isScalar := d.scalar(node, "")
		d.errorf(pos, name, "want a list, got %s", gotKind(node, s, isScalar))
		return
	}
	n := len(seq.Values)
	s := reflect.MakeSlice(v.Type(), n, n)
	v.Set(s)
	for i, raw := range seq.Values {
		d.value(s.Index(i), raw, index(name, i), false, true)
	}
}

// arrayValue decodes a list of exactly the array's length.
func (d *decoder) arrayValue(v reflect.Value, node ast.Node, pos Pos, name string) {
	seq, ok := node.(*ast.SequenceNode)
	if !ok {
		s, isScalar := d.scalar(node, "")
		d.errorf(pos, name, "want a list of %d values, got %s", v.Len(), gotKind(node, s, isScalar))
		return
	}
	if len(seq.Values) != v.Len() {
		d.errorf(pos, name, "want %d values, got %d", v.Len(), len(seq.Values))
		return
	}
	v.SetZero()
	for i, raw := range seq.Values {
		d.value(v.Index(i), raw, index(name, i), false, true)
	}
}

func index(name string, i int) string { return name + "[" + strconv.Itoa(i) + "]" }

// mapValue decodes a mapping into a map with string keys, keeping each
// entry's position for Doc.KeyPos since map values have no address.
func (d *decoder) mapValue(v reflect.Value, node ast.Node, pos Pos, name string) {
	t := v.Type()
	if t.Key().Kind() != reflect.String {
		d.errorf(pos, name, "cannot decode into Go type %s", t)
		return
	}
	ents, ok := d.entries(node, pos, name)
	if !ok {
		return
	}
	if v.IsNil() {
		v.Set(reflect.MakeMapWithSize(t, len(ents)))
	}
	kp := d.keys[v.UnsafePointer()]
	if kp == nil {
		kp = make(map[string]Pos, len(ents))
		d.keys[v.UnsafePointer()] = kp
	}
	for _, e := range ents {
		x := reflect.New(t.Elem()).Elem()
		d.entryValue(x, e, e.key, false, false)
		v.SetMapIndex(reflect.ValueOf(e.key).Convert(t.Key()), x)
		kp[e.key] = d.nodePos(e.value)
	}
}

// structValue decodes a mapping into a struct strictly: every key must name a
// field, and every required field must be given.
func (d *decoder) structValue(v reflect.Value, node ast.Node, pos Pos, name string) {
	ents, ok := d.entries(node, pos, name)
	if !ok {
		return
	}
	info := fieldsOf(v.Type())
	for _, idx := range info.inlined {
		f := v.FieldByIndex(idx)
		d.pos[posKey{f.Addr().UnsafePointer(), f.Type()}] = pos
	}
	given := make([]bool, len(info.fields))
	for _, e := range ents {
		i, ok := info.byName[e.key]
		if !ok {
			// A misspelt required field is reported once, as the unknown key with its
			// suggestion, not again as missing.
			if near := d.unknownField(e, info.names); near != "" {
				given[info.byName[near]] = true
			}
			continue
		}
		f := info.fields[i]
		given[i] = true
		d.entryValue(v.FieldByIndex(f.index), e, f.name, f.required, true)
	}
	for i, f := range info.fields {
		if f.required && !given[i] {
			d.add(pos, fmt.Sprintf("missing field %q", f.name))
		}
	}
}

// unknownField reports a key that names no field, suggesting the nearest
// field when a typo is the likely cause.
// It returns the suggested field, or "".
func (d *decoder) unknownField(e entry, names []string) string {
	msg := fmt.Sprintf("unknown field %q", e.key)
	near := nearest(e.key, names)
	if near != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", near)
	}
	d.add(e.keyPos, msg)
	return near
}

// point decodes a Point from [x, y] or {x: …, y: …}.
func (d *decoder) point(v reflect.Value, node ast.Node, pos Pos, name string) {
	x, y := v.Field(0), v.Field(1)
	switch n := node.(type) {
	case *ast.SequenceNode:
		if len(n.Values) != 2 {
			d.errorf(pos, name, "want 2 coordinates [x, y], got %d", len(n.Values))
			return
		}
		d.coordinate(x, entry{value: n.Values[0]}, index(name, 0))
		d.coordinate(y, entry{value: n.Values[1]}, index(name, 1))
	case *ast.MappingNode, *ast.MappingValueNode:
		ents, ok := d.entries(node, pos, name)
		if !ok {
			return
		}
		names := []string{"x", "y"}
		var given [2]bool
		for _, e := range ents {
			switch e.key {
			case "x":
				given[0] = true
				d.coordinate(x, e, "x")
			case "y":
				given[1] = true
				d.coordinate(y, e, "y")
			default:
				d.unknownField(e, names)
			}
		}
		for i, ok := range given {
			if !ok {
				d.add(pos, fmt.Sprintf("missing field %q", names[i]))
			}
		}
	default:
		s, isScalar := d.scalar(node, "")
		d.errorf(pos, name, "want a point [x, y] or {x: …, y: …}, got %s", gotKind(node, s, isScalar))
	}
}

// entryValue decodes the value of a mapping entry.
func (d *decoder) entryValue(v reflect.Value, e entry, name string, required, record bool) {
	d.value(v, e.value, name, required, record)
}

// coordinate decodes one coordinate of a Point: a length that may be negative.
func (d *decoder) coordinate(v reflect.Value, e entry, name string) {
	raw := e.value
	pos := d.nodePos(raw)
	d.pos[posKey{v.Addr().UnsafePointer(), v.Type()}] = pos
	node, tag := d.resolve(raw)
	if _, null := node.(*ast.NullNode); node == nil || null {
		d.errorf(pos, name, "missing value")
		return
	}
	s, isScalar := d.scalar(node, tag)
	if !isScalar {
		d.errorf(pos, name, "want a number, got %s", gotKind(node, s, false))
		return
	}
	x, err := lengthOf(s)
	if err != nil {
		d.errorf(pos, name, "%s", err.Error())
		return
	}
	v.SetFloat(x)
}
