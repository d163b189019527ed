// Package scenario reads volley's scenario files: the battlefield, units,
// weapons, options and the action to resolve, written in YAML or JSON.
//
// A scenario is written by a player, so reading one must be strict and
// helpful at once. Strict: an unknown key is an error, never silently
// ignored, because a misspelt "armor" that is ignored makes a wrong battle.
// Helpful: every error in the file is reported in one go, sorted by
// position, each as file:line:col: message, in words a player understands
// ("shots: want a whole number, got "two"").
//
// goccy/go-yaml's decoder cannot do the second part: even with yaml.Strict()
// it stops at the first error. So this package uses only goccy's parser
// (parser.ParseBytes; JSON parses too, as YAML's flow style) and walks the
// syntax tree with a decoder of its own, reflection-based like
// encoding/json, that records an error and moves on to the next value.
//
// # Use
//
// Parse a file, read its ruleset to choose the rule system, then Decode into
// that rule system's scenario type, which embeds Header:
//
//	doc, err := scenario.ParseFile("duel.yaml")
//	name, err := doc.Ruleset()
//	var s MyScenario // struct { scenario.Header; Units []Unit `yaml:"units"` … }
//	err = doc.Decode(&s)
//
// After a successful Decode, doc.Pos(&s.Units[2]) says where the third
// unit was written, so rules can report their own errors at a place in the
// file (doc.Errorf).
//
// # Decoding rules
//
// Struct fields are keyed by their yaml tag's name, or their Go name in
// lower case; a tag of "-" skips the field, the option "required" makes it
// required (and, for a string, non-empty), and an anonymous struct field is
// inlined. Strings accept any
// scalar as written; whole numbers are range checked; floats take any number
// and .inf; slices and arrays come from lists (an array needs exactly its
// length); maps with string keys and structs come from mappings; pointers are
// allocated; an empty interface gets map[string]any, []any, int64, float64,
// string, bool or nil. A null (~, null, or nothing) leaves a value as it was.
// Anchors, aliases and merge keys (<<) work as in YAML.
//
// A type written as one scalar ("3+", "F/S") implements ScalarDecoder, or
// else encoding.TextUnmarshaler. Length and Point, distances and places on
// the table, are decoded in the document's unit (see Header.Distances) and
// stored in inches.
//
// Messages name the innermost key the value is under, followed by [i] for
// each list index below it: "weapons[1]: want a mapping, got a string".
package scenario
