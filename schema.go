package volley

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/volley-wargames/volley/scenario"
)

// Describer is implemented by rule systems that describe their scenario format, so that
// volley can write its JSON Schema (`volley schema`, GET /api/schema/{system}): what an
// editor completes and checks as a scenario is typed, and what a page builds its forms
// from. The schema is the Go types' own: their keys, required fields, scalar forms
// (scenario.Schemer), enums (constants, scenario.Chooser) and doc comments.
type Describer interface {
	// Scenario returns a pointer to a value of the type Load decodes a scenario into.
	Scenario() any
	// Actions returns, by the word of their `type:`, a pointer to a value of the type
	// each action decodes into; the key "" is the action written without a type.
	Actions() map[string]any
}

// BareAction is an action that says nothing but its type: {type: end_turn},
// {type: end_deployment}.
type BareAction struct {
	// Type is what the action is.
	Type string `yaml:"type"`
}

// TurnActions are the actions of a system played in turns on a table (Turns, Tabletop),
// by the word of their type, for its Actions: its own action (own, a pointer to its
// form) under kind and written without a type too, a move and a deployment in the
// system's forms, and the ends of a turn and of a deployment.
func TurnActions(kind string, own, move, deploy any) map[string]any {
	return map[string]any{"": own, kind: own, MoveAction: move, DeployAction: deploy, EndTurn: new(BareAction), EndDeployment: new(BareAction)}
}

// ScenarioSchema is the JSON Schema of the scenarios of rule system r, which must be a
// Describer: its keys, their forms and enums, and the descriptions docs gives (nil for
// none). Its `ruleset` is r's name, and its `action` and each of its `actions` is one of
// r's actions, chosen by its type.
func ScenarioSchema(r Ruleset, docs scenario.SchemaDocs) (*scenario.Schema, error) {
	d, ok := r.(Describer)
	if !ok {
		return nil, fmt.Errorf("volley: %s does not describe its scenarios", r.Name())
	}
	b := &scenario.SchemaBuilder{Docs: docs}
	b.Prime()
	action := actionSchema(b, r.Name()+".action", d.Actions())
	b.Sections = map[string]*scenario.Schema{
		"action": action,
		"actions": {Type: "array", Items: &scenario.Schema{Ref: action.Ref},
			Description: "Actions played in order after the scenario is set up, each in the form of an action: section."},
	}
	root := b.Of(reflect.TypeOf(d.Scenario()))
	if err := b.Err(); err != nil {
		return nil, err
	}
	def := b.Defs[root.Ref[len("#/$defs/"):]]
	def.Properties["ruleset"] = &scenario.Schema{Const: r.Name(), Description: "ruleset names the rule system that reads the rest of the file."}
	s := &scenario.Schema{
		Schema: scenario.SchemaDraft, Title: "volley scenario: " + r.Name(),
		Description: def.Description,
		Ref:         root.Ref,
		Defs:        b.Defs,
	}
	return s, nil
}

// actionSchema is the definition of an action of a system: an object whose type chooses
// its form among actions, added to b's definitions; the reference to it is returned.
func actionSchema(b *scenario.SchemaBuilder, name string, actions map[string]any) *scenario.Schema {
	s := &scenario.Schema{Type: "object", Description: "An action: what its type says, in that type's form."}
	var types []any
	for _, k := range slices.Sorted(maps.Keys(actions)) {
		form := b.Of(reflect.TypeOf(actions[k]))
		if k == "" {
			s.AllOf = append(s.AllOf, &scenario.Schema{If: &scenario.Schema{Not: &scenario.Schema{Required: []string{"type"}}}, Then: form})
			continue
		}
		types = append(types, k)
		s.AllOf = append(s.AllOf, &scenario.Schema{
			If:   &scenario.Schema{Properties: map[string]*scenario.Schema{"type": {Const: k}}, Required: []string{"type"}},
			Then: form,
		})
	}
	s.Properties = map[string]*scenario.Schema{"type": {Type: "string", Enum: types, Description: "type is what the action is."}}
	if _, ok := actions[""]; !ok {
		s.Required = []string{"type"}
	}
	if b.Defs == nil {
		b.Defs = map[string]*scenario.Schema{}
	}
	b.Defs[name] = s
	return &scenario.Schema{Ref: "#/$defs/" + name}
}

// SchemaOfAll is one JSON Schema of the scenarios of every rule system given, each
// schema as ScenarioSchema makes it: its `ruleset` chooses which applies. Definitions are
// named by their Go package, so that the systems' own do not meet; those they share
// (scenario's, volley's) are the same in each.
func SchemaOfAll(schemas map[string]*scenario.Schema) (*scenario.Schema, error) {
	all := &scenario.Schema{
		Schema: scenario.SchemaDraft, Title: "volley scenario",
		Description: "A volley scenario: its ruleset chooses the rule system, and the rest of the file is in that system's form.",
		Type:        "object",
		Required:    []string{"ruleset"},
		Defs:        map[string]*scenario.Schema{},
	}
	var names []any
	for _, name := range slices.Sorted(maps.Keys(schemas)) {
		s := schemas[name]
		names = append(names, name)
		for k, d := range s.Defs {
			if have, ok := all.Defs[k]; ok {
				a, _ := json.Marshal(have)
				b, _ := json.Marshal(d)
				if string(a) != string(b) {
					return nil, fmt.Errorf("volley: two systems define %s differently", k)
				}
			}
			all.Defs[k] = d
		}
		all.AllOf = append(all.AllOf, &scenario.Schema{
			If:   &scenario.Schema{Properties: map[string]*scenario.Schema{"ruleset": {Const: name}}, Required: []string{"ruleset"}},
			Then: &scenario.Schema{Ref: s.Ref},
		})
	}
	all.Properties = map[string]*scenario.Schema{"ruleset": {Type: "string", Enum: names, Description: "ruleset names the rule system that reads the rest of the file."}}
	return all, nil
}
