package main

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// Schemas holds the JSON Schema of each rule system's scenarios (schema/<system>.json)
// and of all of them (schema/volley.json), written from the Go types the systems decode
// and their doc comments by `go generate` (TestSchemaFiles, which also fails when they
// are out of date).
//
//go:generate go test -run ^TestSchemaFiles$ -update .
//go:embed schema/*.json
var Schemas embed.FS

// Starters holds the scenario `volley new` prints for each rule system
// (new/<system>.yaml): small, commented, and checked by the tests.
//
//go:embed new/*.yaml
var Starters embed.FS

// allSchema names the schema of every system in Schemas.
const allSchema = "volley"

// schemaFile reads the schema of system, or of every system for "".
func schemaFile(system string) ([]byte, error) {
	name := allSchema
	if system != "" {
		if _, ok := rules.Lookup(system); !ok {
			return nil, usageError{fmt.Errorf("unknown rule system %q (known: %s)%s", system, strings.Join(rules.Names(), ", "), scenario.Hint(system, rules.Names()))}
		}
		name = system
	}
	b, err := fs.ReadFile(Schemas, "schema/"+name+".json")
	if err != nil {
		return nil, volley.Errorf(volley.EINTERNAL, "no schema of %s was generated: run go generate ./cmd/volley", name)
	}
	return b, nil
}

// schemaCmd prints the JSON Schema of the scenario format.
type schemaCmd struct {
	System string `arg:"" optional:"" help:"A rule system (volley rulesets lists them); without one, the schema of every system, chosen by the file's ruleset."`
}

func (c schemaCmd) Run(e *env) error {
	b, err := schemaFile(c.System)
	if err != nil {
		return err
	}
	_, err = e.stdout.Write(b)
	return err
}

// newCmd prints a small scenario to start from.
type newCmd struct {
	System string `arg:"" help:"The rule system of the new scenario (volley rulesets lists them)."`
}

func (c newCmd) Run(e *env) error {
	if _, ok := rules.Lookup(c.System); !ok {
		return usageError{fmt.Errorf("unknown rule system %q (known: %s)%s", c.System, strings.Join(rules.Names(), ", "), scenario.Hint(c.System, rules.Names()))}
	}
	b, err := fs.ReadFile(Starters, "new/"+c.System+".yaml")
	if err != nil {
		return volley.Errorf(volley.EINTERNAL, "volley has no starting scenario for %s", c.System)
	}
	_, err = e.stdout.Write(b)
	return err
}
