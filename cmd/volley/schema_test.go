package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/rulestest"
	"github.com/volley-wargames/volley/scenario"
)

// generateSchemas writes the JSON Schema of every rule system's scenarios, and of all of
// them, from the Go types the systems decode and the doc comments of their source: the
// files `go generate ./cmd/volley` writes into schema/.
func generateSchemas(t *testing.T) map[string][]byte {
	t.Helper()
	docs := newSourceDocs(filepath.Join("..", ".."))
	out := map[string][]byte{}
	schemas := map[string]*scenario.Schema{}
	for _, name := range rules.Names() {
		r, _ := rules.Lookup(name)
		s, err := volley.ScenarioSchema(r, docs)
		if err != nil {
			t.Fatal(err)
		}
		schemas[name] = s
		out[name] = marshalSchema(t, s)
	}
	all, err := volley.SchemaOfAll(schemas)
	if err != nil {
		t.Fatal(err)
	}
	out[allSchema] = marshalSchema(t, all)
	if len(docs.problems) > 0 {
		t.Fatalf("the source does not say all the schemas need:\n%s", strings.Join(docs.problems, "\n"))
	}
	return out
}

func marshalSchema(t *testing.T, s *scenario.Schema) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestSchemaFiles holds the embedded schemas to what the source says now: a field added,
// renamed or documented anew changes them, and the test fails until they are written
// again (go generate ./cmd/volley, which runs this test with -update).
func TestSchemaFiles(t *testing.T) {
	want := generateSchemas(t)
	for name, b := range want {
		path := filepath.Join("schema", name+".json")
		if *rulestest.Update {
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := fs.ReadFile(Schemas, "schema/"+name+".json")
		if err != nil || !bytes.Equal(got, b) {
			t.Errorf("%s is not what the source says now: run go generate ./cmd/volley", path)
		}
	}
	entries, _ := fs.ReadDir(Schemas, "schema")
	if len(entries) != len(want) {
		t.Errorf("schema/ holds %d files, and there are %d schemas: remove the stale ones", len(entries), len(want))
	}
}

// compileSchema compiles one of the embedded schemas with a kept validator of JSON
// Schema (santhosh-tekuri/jsonschema, draft 2020-12).
func compileSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	raw, err := fs.ReadFile(Schemas, "schema/"+name+".json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	url := "https://volley.invalid/schema/" + name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

// instance reads a scenario file as the JSON value a YAML language server checks.
func instance(t *testing.T, name string, src []byte) any {
	t.Helper()
	js, err := scenario.JSON(name, src)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// scenarioFiles are every example and starter, by path, with its rule system.
func scenarioFiles(t *testing.T) map[string]string {
	t.Helper()
	files := map[string]string{}
	for _, dir := range []string{filepath.Join("..", "..", "examples"), "new"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(path) != ".yaml" {
				return err
			}
			doc, err := scenario.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			name, err := doc.Ruleset()
			if err != nil {
				// A file of tables or charts that a scenario names: not a scenario.
				return nil
			}
			files[path] = name
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// TestSchemaValidatesExamples checks every example scenario, and every starter of volley
// new, against its system's schema and against the schema of all systems: what volley
// reads, an editor must not mark wrong.
func TestSchemaValidatesExamples(t *testing.T) {
	all := compileSchema(t, allSchema)
	systems := map[string]*jsonschema.Schema{}
	files := scenarioFiles(t)
	if len(files) < 40 {
		t.Fatalf("found %d scenarios: the examples moved?", len(files))
	}
	for path, system := range files {
		if systems[system] == nil {
			systems[system] = compileSchema(t, system)
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		v := instance(t, path, src)
		if err := systems[system].Validate(v); err != nil {
			t.Errorf("%s against the %s schema: %v", path, system, err)
		}
		if err := all.Validate(v); err != nil {
			t.Errorf("%s against the schema of every system: %v", path, err)
		}
	}
}

// TestSchemaRejectsTypos changes one thing in a valid example and checks that both the
// schema and volley refuse the file: a misspelt key, a value outside an enum, a scalar
// not in its form. An editor marks what volley would refuse.
func TestSchemaRejectsTypos(t *testing.T) {
	all := compileSchema(t, allSchema)
	for _, tc := range []struct {
		file, from, to string
		what           string // a word the schema's error names
	}{
		{"dropzone/battle.yaml", "    armour: 10\n", "    armor: 10\n", "armor"},
		{"dropzone/battle.yaml", "ruleset: dropzone\n", "ruleset: dropzon\n", "ruleset"},
		{"dropzone/battle.yaml", "distances: in\n", "distances: inch\n", "distances"},
		{"dropzone/battle.yaml", "arc: F/S/R,", "arc: F/X,", "arc"},
		{"dropzone/battle.yaml", "accuracy: 2+,", "accuracy: 13+,", "accuracy"},
		{"dropzone/battle.yaml", "ruleset: dropzone\n", "ruleset: dropzone\ndice: dealer\n", "dice"},
		{"warengine/battle.yaml", "    arc: 90\n", "    arc: 100\n", "arc"},
		{"warstrike/battle.yaml", "kind: wall,", "kind: walls,", "kind"},
		{"warfare/battle.yaml", "system: alternate\n", "system: modern\n", "system"},
		{"republique/battle.yaml", "kind: infantry,", "kind: infantery,", "kind"},
		{"republique/battle.yaml", "kind: infantry,", "kind: infantry, formaton: line,", "formaton"},
	} {
		t.Run(tc.file+":"+tc.what, func(t *testing.T) {
			path := filepath.Join("..", "..", "examples", filepath.FromSlash(tc.file))
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(src, []byte(tc.from)) {
				t.Fatalf("%s no longer has %q", tc.file, tc.from)
			}
			bad := bytes.Replace(src, []byte(tc.from), []byte(tc.to), 1)
			system := strings.Split(tc.file, "/")[0]
			v := instance(t, tc.file, bad)
			for _, s := range []*jsonschema.Schema{compileSchema(t, system), all} {
				err := s.Validate(v)
				if err == nil {
					t.Fatalf("the schema takes %q for %q", tc.to, tc.from)
				}
				if !strings.Contains(err.Error(), tc.what) {
					t.Errorf("the schema's error does not name %s: %v", tc.what, err)
				}
			}
			// volley refuses it too: the schema is no stricter than volley here.
			doc, err := scenario.Parse(tc.file, bad)
			if err == nil {
				_, _, _, err = rules.Check(t.Context(), doc)
			}
			if err == nil {
				t.Errorf("volley takes %q for %q", tc.to, tc.from)
			}
		})
	}
}

// TestNewChecks is `volley new X > x.yaml && volley check x.yaml` for every system.
func TestNewChecks(t *testing.T) {
	for _, name := range rules.Names() {
		t.Run(name, func(t *testing.T) {
			status, out, errOut := runCLI("new", name)
			if status != exitOK || out == "" {
				t.Fatalf("volley new %s: status %d: %s", name, status, errOut)
			}
			path := filepath.Join(t.TempDir(), "x.yaml")
			if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			if status, out, errOut := runCLI("check", path); status != exitOK {
				t.Fatalf("volley check of volley new %s: status %d\n%s%s", name, status, out, errOut)
			}
			if !strings.Contains(out, "yaml-language-server: $schema=") {
				t.Errorf("volley new %s does not name its schema for editors", name)
			}
		})
	}
	if status, _, errOut := runCLI("new", "dropzon"); status != exitUsage || !strings.Contains(errOut, `did you mean "dropzone"`) {
		t.Errorf("volley new dropzon: status %d, %s", status, errOut)
	}
}

// TestSchemaCommand is `volley schema [SYSTEM]`: JSON with its draft in "$schema".
func TestSchemaCommand(t *testing.T) {
	for _, name := range append([]string{""}, rules.Names()...) {
		args := []string{"schema"}
		if name != "" {
			args = append(args, name)
		}
		status, out, errOut := runCLI(args...)
		if status != exitOK {
			t.Fatalf("volley %s: status %d: %s", strings.Join(args, " "), status, errOut)
		}
		var s struct {
			Schema string `json:"$schema"`
			Title  string `json:"title"`
		}
		if err := json.Unmarshal([]byte(out), &s); err != nil || s.Schema != scenario.SchemaDraft || !strings.Contains(s.Title, name) {
			t.Errorf("volley %s: %q, %v", strings.Join(args, " "), s, err)
		}
	}
	if status, _, _ := runCLI("schema", "chess"); status != exitUsage {
		t.Errorf("volley schema chess: status %d", status)
	}
}

// TestSchemaOptionsAgree sets every value the schema allows of each system's options,
// and one it does not, in the system's starter, and checks that volley agrees: each
// listed value loads, the other is refused at its key.
func TestSchemaOptionsAgree(t *testing.T) {
	for _, name := range rules.Names() {
		raw, err := fs.ReadFile(Schemas, "schema/"+name+".json")
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			Defs map[string]struct {
				Enum       []any `json:"enum"`
				Properties map[string]struct {
					Enum []any  `json:"enum"`
					Ref  string `json:"$ref"`
				} `json:"properties"`
			} `json:"$defs"`
		}
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		starter, err := fs.ReadFile(Starters, "new/"+name+".yaml")
		if err != nil {
			t.Fatal(err)
		}
		opts, ok := s.Defs[name+".Options"]
		if !ok {
			continue
		}
		tried := 0
		for key, p := range opts.Properties {
			enum := p.Enum
			if def, ok := strings.CutPrefix(p.Ref, "#/$defs/"); ok {
				enum = s.Defs[def].Enum
			}
			if len(enum) == 0 {
				continue
			}
			for _, v := range append(enum, "nonsense") {
				src := append(bytes.Clone(starter), []byte(fmt.Sprintf("options: {%s: %v}\n", key, v))...)
				doc, err := scenario.Parse("new.yaml", src)
				if err != nil {
					t.Fatal(err)
				}
				_, _, _, err = rules.Check(t.Context(), doc)
				switch {
				case v == "nonsense" && (err == nil || !strings.Contains(err.Error(), key)):
					t.Errorf("%s: options: %s: nonsense is taken, or refused elsewhere: %v", name, key, err)
				case v != "nonsense" && err != nil:
					t.Errorf("%s: options: %s: %v is in the schema, and refused: %v", name, key, v, err)
				}
				tried++
			}
		}
		t.Logf("%s: %d option values", name, tried)
	}
}
