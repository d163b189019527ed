package scenario

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"
)

// SchemaDraft is the JSON Schema dialect of every schema volley writes.
const SchemaDraft = "https://json-schema.org/draft/2020-12/schema"

// Schema is a JSON Schema (draft 2020-12), with only the keywords volley's scenario
// schemas use. A nil *Schema stands for no constraint; Never is the schema false, which
// nothing matches (for additionalProperties).
type Schema struct {
	Schema      string `json:"$schema,omitempty"`
	ID          string `json:"$id,omitempty"`
	Ref         string `json:"$ref,omitempty"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	// Type is a JSON type's name ("string", "integer", …), or a list of them.
	Type    any      `json:"type,omitempty"`
	Const   any      `json:"const,omitempty"`
	Enum    []any    `json:"enum,omitempty"`
	Pattern string   `json:"pattern,omitempty"`
	Minimum *float64 `json:"minimum,omitempty"`
	Maximum *float64 `json:"maximum,omitempty"`
	// Properties are an object's keys; Required those it must have.
	Properties           map[string]*Schema `json:"properties,omitempty"`
	Required             []string           `json:"required,omitempty"`
	AdditionalProperties *Schema            `json:"additionalProperties,omitempty"`
	Items                *Schema            `json:"items,omitempty"`
	MinItems             *int               `json:"minItems,omitempty"`
	MaxItems             *int               `json:"maxItems,omitempty"`
	AnyOf                []*Schema          `json:"anyOf,omitempty"`
	OneOf                []*Schema          `json:"oneOf,omitempty"`
	AllOf                []*Schema          `json:"allOf,omitempty"`
	If                   *Schema            `json:"if,omitempty"`
	Then                 *Schema            `json:"then,omitempty"`
	Not                  *Schema            `json:"not,omitempty"`
	Examples             []any              `json:"examples,omitempty"`
	Defs                 map[string]*Schema `json:"$defs,omitempty"`

	never bool
}

// Never returns the schema false: no value matches it.
func Never() *Schema { return &Schema{never: true} }

// MarshalJSON writes the schema, or false for Never.
func (s *Schema) MarshalJSON() ([]byte, error) {
	if s.never {
		return []byte("false"), nil
	}
	type plain Schema // without the method, so as not to recurse
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode((*plain)(s)); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// Ints returns n as a pointer, for MinItems and MaxItems.
func Ints(n int) *int { return &n }

// Number returns x as a pointer, for Minimum and Maximum.
func Number(x float64) *float64 { return &x }

// Values returns the enum of a schema from a list of Go values.
func Values[T any](vs ...T) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

// Schemer is implemented by the types of a scenario written as one scalar ("3+", "F/S",
// "∞"), which only they can describe: the JSON Schema of what DecodeScalar accepts. A
// type that decodes a scalar and says nothing of its form has no schema, and the
// generator of volley's schemas refuses it (cmd/volley's TestSchemaFiles), so that every
// field a scenario may write is described.
type Schemer interface {
	JSONSchema() *Schema
}

// Chooser is implemented by a scenario's struct types whose fields allow only some values
// though their Go type allows more: a string option read by a switch, an arc of fire in
// steps of 45 degrees. Choices gives those values by the fields' keys, so that the schema
// lists them as an enum.
type Chooser interface {
	Choices() map[string][]any
}

// SchemaDocs says what the Go source says of a scenario's types: their doc comments, and
// the values of the constants of a type, for JSON Schema descriptions and enums. The
// generator of volley's schemas reads them from the source with go/doc.
type SchemaDocs interface {
	// TypeDoc is the doc comment of a named type.
	TypeDoc(t reflect.Type) string
	// FieldDoc is the doc comment of a struct type's field, by its Go name.
	FieldDoc(t reflect.Type, field string) string
	// Consts are the values of the constants declared with named type t, in order.
	Consts(t reflect.Type) []any
}

// SchemaBuilder builds the JSON Schema of the Go types a scenario decodes into, with the
// decoder's own reading of them: a field's key is its yaml tag's name (or its Go name in
// lower case), "required" makes it required, an anonymous struct is inlined, unknown keys
// are refused (additionalProperties: false), Length, Point and Unit are lengths, places
// and units as Decode reads them, and a scalar type (ScalarDecoder) describes itself
// (Schemer) or is an enum of its constants.
//
// Every named struct and scalar type becomes a definition ($defs) named
// "package.Type", referred to where it is used.
type SchemaBuilder struct {
	Docs SchemaDocs
	// Sections are the schemas of the fields of type Skip, which a rule system decodes
	// on its own (an action, whose type decides its form), by their keys.
	Sections map[string]*Schema
	// Defs are the definitions made so far.
	Defs map[string]*Schema
	// errs are the types that could not be described.
	errs []string
}

// Err reports every type that could not be described: a scalar type that is neither a
// Schemer nor a type with constants, or a Go type no scenario can write.
func (b *SchemaBuilder) Err() error {
	if len(b.errs) == 0 {
		return nil
	}
	slices.Sort(b.errs)
	return fmt.Errorf("scenario: schema: %s", strings.Join(slices.Compact(b.errs), "; "))
}

func (b *SchemaBuilder) fail(format string, args ...any) *Schema {
	b.errs = append(b.errs, fmt.Sprintf(format, args...))
	return &Schema{}
}

// DefName is the name of a named type's definition: "package.Type".
func DefName(t reflect.Type) string {
	pkg := t.PkgPath()
	if i := strings.LastIndexByte(pkg, '/'); i >= 0 {
		pkg = pkg[i+1:]
	}
	return pkg + "." + t.Name()
}

// ref returns a reference to the definition of t, building it first with make.
func (b *SchemaBuilder) ref(t reflect.Type, make func() *Schema) *Schema {
	name := DefName(t)
	if b.Defs == nil {
		b.Defs = map[string]*Schema{}
	}
	if _, ok := b.Defs[name]; !ok {
		b.Defs[name] = &Schema{} // a placeholder, so that a type refers to itself safely
		def := make()
		if def.Description == "" && b.Docs != nil {
			def.Description = typeDoc(b.Docs.TypeDoc(t), t.Name())
		}
		b.Defs[name] = def
	}
	return &Schema{Ref: "#/$defs/" + name}
}

var schemerType = reflect.TypeFor[Schemer]()

// Of returns the schema of values of type t.
func (b *SchemaBuilder) Of(t reflect.Type) *Schema {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t {
	case pointType:
		return b.ref(t, pointSchema)
	case lengthType:
		return b.ref(t, lengthSchema)
	case skipType:
		return &Schema{}
	}
	pt := reflect.PointerTo(t)
	if pt.Implements(schemerType) {
		s := reflect.New(t).Interface().(Schemer).JSONSchema()
		b.checkEnums(t, s)
		if t.Name() == "" {
			return s
		}
		return b.ref(t, func() *Schema { return s })
	}
	if pt.Implements(scalarDecoderType) || pt.Implements(textUnmarshalerType) {
		// The constants of a scalar type are its enum, those it reads: a type may have
		// constants that no scenario writes (a band beyond every range).
		vs := slices.DeleteFunc(b.consts(t), func(v any) bool { return decodes(t, v) != nil })
		if len(vs) > 0 {
			return b.ref(t, func() *Schema { return &Schema{Type: jsonType(t), Enum: vs} })
		}
		return b.fail("%s decodes a scalar but says nothing of its form (implement scenario.Schemer)", t)
	}
	switch t.Kind() {
	case reflect.Struct:
		if t.Name() == "" {
			return b.structSchema(t)
		}
		return b.ref(t, func() *Schema { return b.structSchema(t) })
	case reflect.Slice:
		return &Schema{Type: "array", Items: b.Of(t.Elem())}
	case reflect.Array:
		return &Schema{Type: "array", Items: b.Of(t.Elem()), MinItems: Ints(t.Len()), MaxItems: Ints(t.Len())}
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return b.fail("%s: a map's keys must be strings", t)
		}
		return &Schema{Type: "object", AdditionalProperties: b.Of(t.Elem())}
	case reflect.Interface:
		return &Schema{} // free-form
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		s := &Schema{Type: jsonType(t)}
		if t.Name() != "" && t.PkgPath() != "" {
			if vs := b.consts(t); len(vs) > 0 {
				return b.ref(t, func() *Schema { return &Schema{Type: jsonType(t), Enum: vs} })
			}
		}
		if t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uint64 {
			s.Minimum = Number(0)
		}
		return s
	}
	return b.fail("%s: no scenario can write a %s", t, t.Kind())
}

// decodes is the error of decoding v, as a scenario writes it, into a new value of t.
func decodes(t reflect.Type, v any) error {
	p := reflect.New(t).Interface()
	text := fmt.Sprint(v)
	if sd, ok := p.(ScalarDecoder); ok {
		kind := KindString
		switch v.(type) {
		case int, int64, float64:
			kind = KindInt
			if _, isFloat := v.(float64); isFloat {
				kind = KindFloat
			}
		case bool:
			kind = KindBool
		}
		return sd.DecodeScalar(Scalar{Text: text, Kind: kind})
	}
	if tu, ok := p.(encoding.TextUnmarshaler); ok {
		return tu.UnmarshalText([]byte(text))
	}
	return nil
}

// checkEnums checks that the type decodes every value a Schemer's schema lists, in its
// enum or its alternatives': a schema that offers a value volley refuses would lead an
// editor astray.
func (b *SchemaBuilder) checkEnums(t reflect.Type, s *Schema) {
	for _, v := range s.Enum {
		if err := decodes(t, v); err != nil {
			b.fail("%s lists %v, which it does not read: %v", t, v, err)
		}
	}
	for _, alt := range s.AnyOf {
		b.checkEnums(t, alt)
	}
	for _, alt := range s.OneOf {
		b.checkEnums(t, alt)
	}
}

// consts are the values of t's constants, as a scenario writes them.
func (b *SchemaBuilder) consts(t reflect.Type) []any {
	if b.Docs == nil || t.Name() == "" {
		return nil
	}
	return b.Docs.Consts(t)
}

// jsonType is the JSON type of a Go scalar kind.
func jsonType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Float32, reflect.Float64:
		return "number"
	}
	return "integer"
}

// structSchema is the schema of a struct's mapping: its keys as Decode reads them.
func (b *SchemaBuilder) structSchema(t reflect.Type) *Schema {
	s := &Schema{Type: "object", Properties: map[string]*Schema{}, AdditionalProperties: Never()}
	info := fieldsOf(t)
	choices := map[string][]any{}
	collect := func(t reflect.Type) {
		if c, ok := reflect.New(t).Interface().(Chooser); ok {
			for k, v := range c.Choices() {
				choices[k] = v
			}
		}
	}
	collect(t)
	for _, idx := range info.inlined {
		collect(t.FieldByIndex(idx).Type)
	}
	for _, f := range info.fields {
		owner := t
		if len(f.index) > 1 {
			owner = t.FieldByIndex(f.index[:len(f.index)-1]).Type
		}
		sf := t.FieldByIndex(f.index)
		var p *Schema
		skip := sf.Type == skipType || sf.Type.Kind() == reflect.Pointer && sf.Type.Elem() == skipType
		if skip {
			p = &Schema{}
			if sec := b.Sections[f.name]; sec != nil {
				c := *sec
				p = &c
			}
		} else {
			p = b.Of(sf.Type)
		}
		if vs, ok := choices[f.name]; ok {
			if p.Ref == "" && p.Type != nil && p.Type != "array" && p.Type != "object" {
				p = &Schema{Type: p.Type, Enum: vs}
			} else {
				p = &Schema{AllOf: []*Schema{p}, Enum: vs}
			}
			delete(choices, f.name)
		}
		if b.Docs != nil {
			// A section decoded on its own is described by its schema: its field's comment
			// says how the Go code reads it.
			if doc := fieldDoc(b.Docs.FieldDoc(owner, sf.Name), sf.Name, f.name); doc != "" && !(skip && p.Description != "") {
				// A reference keeps its description beside it (draft 2020-12 allows it):
				// the definition's own describes the type, this one the field.
				p.Description = doc
			}
		}
		s.Properties[f.name] = p
		if f.required {
			s.Required = append(s.Required, f.name)
		}
	}
	for k := range choices {
		b.fail("%s: Choices names %q, which is not one of its keys", t, k)
	}
	return s
}

// fieldDoc is a field's doc comment as a scenario's writer reads it: the Go name it
// starts with ("Coherency is the distance …") becomes the key ("coherency is …").
func fieldDoc(doc, goName, key string) string {
	doc = strings.TrimSpace(doc)
	if rest, ok := strings.CutPrefix(doc, goName+" "); ok {
		doc = key + " " + rest
	} else if rest, ok := strings.CutPrefix(doc, goName+":"); ok {
		doc = key + ":" + rest
	} else if rest, ok := strings.CutPrefix(doc, goName+","); ok {
		doc = key + "," + rest
	}
	return doc
}

// typeDoc is a type's doc comment as a scenario's writer reads it: without the Go name
// it starts with ("UnitType is a unit's stat sheet" becomes "A unit's stat sheet").
func typeDoc(doc, name string) string {
	doc = strings.TrimSpace(doc)
	for _, verb := range []string{" is ", " are "} {
		if rest, ok := strings.CutPrefix(doc, name+verb); ok && rest != "" {
			return strings.ToUpper(rest[:1]) + rest[1:]
		}
	}
	return doc
}

// The forms of a number with a unit, as parseSignedLength reads them.
const (
	numberPattern = `([0-9][0-9_]*(\.[0-9_]*)?|\.[0-9][0-9_]*)([eE][-+]?[0-9]+)?`
	unitPattern   = `\s*("|in|cm)?\s*$`
)

// LengthRef refers to the definition of a Length, for a Schemer whose form is a length
// or a word ("-", "∞"). SchemaBuilder.Prime makes the definition.
func LengthRef() *Schema { return &Schema{Ref: "#/$defs/" + DefName(lengthType)} }

// Prime makes the definitions of Length and Point, which Schemers may refer to.
func (b *SchemaBuilder) Prime() {
	b.Of(lengthType)
	b.Of(pointType)
}

// lengthSchema is a Length: a number in the document's unit, or one with its own.
func lengthSchema() *Schema {
	return &Schema{
		Description: `A distance: a number in the scenario's unit (distances:), or with its own: 6", 6in, 15cm. Never negative.`,
		AnyOf: []*Schema{
			{Type: "number", Minimum: Number(0), Maximum: Number(MaxLength)},
			{Type: "string", Pattern: `^\s*\+?` + numberPattern + unitPattern},
		},
		Examples: Values[any](6, `6"`, "15cm"),
	}
}

// coordinateSchema is one coordinate of a Point: a length that may be negative.
func coordinateSchema() *Schema {
	return &Schema{
		AnyOf: []*Schema{
			{Type: "number", Minimum: Number(-MaxLength), Maximum: Number(MaxLength)},
			{Type: "string", Pattern: `^\s*[-+]?` + numberPattern + unitPattern},
		},
	}
}

// pointSchema is a Point: [x, y] or {x: …, y: …}.
func pointSchema() *Schema {
	c := coordinateSchema()
	return &Schema{
		Description: `A place on the table: [x, y] or {x: …, y: …}, each coordinate a number in the scenario's unit or with its own (12, 12", 30cm); x runs to the right, y up the table.`,
		AnyOf: []*Schema{
			{Type: "array", Items: c, MinItems: Ints(2), MaxItems: Ints(2)},
			{Type: "object", Properties: map[string]*Schema{"x": c, "y": c}, Required: []string{"x", "y"}, AdditionalProperties: Never()},
		},
		Examples: []any{[]any{12, 24}},
	}
}

// JSONSchema describes a unit: "in" or "cm".
func (*Unit) JSONSchema() *Schema {
	return &Schema{Type: "string", Enum: Values(Inch, Centimetre)}
}

var _ Schemer = (*Unit)(nil)

// JSON is a scenario document as JSON, the value a YAML language server checks against
// a schema: a plain 6" is a string, 6 a number. It is for checking a document against
// volley's schemas (its tests do); Decode reads documents itself. The document is held
// to Parse's limits first.
func JSON(file string, src []byte) ([]byte, error) {
	if _, err := Parse(file, src); err != nil {
		return nil, err
	}
	out, err := yaml.YAMLToJSON(src)
	if err != nil {
		return nil, fmt.Errorf("scenario: %s as JSON: %w", file, err)
	}
	return out, nil
}
