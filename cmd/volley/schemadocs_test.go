package main

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// module is volley's module path: a type's package path below it is its folder.
const module = "github.com/volley-wargames/volley"

// sourceDocs reads what the Go source says of a scenario's types with go/doc: their doc
// comments and the values of their constants (scenario.SchemaDocs). It is how
// TestSchemaFiles writes the schemas' descriptions and enums from the code itself.
type sourceDocs struct {
	root string // the module's folder
	fset *token.FileSet

	mu   sync.Mutex
	pkgs map[string]*doc.Package
	// problems are what could not be read: a constant whose value is not written as a
	// literal, a package that does not parse.
	problems []string
}

func newSourceDocs(root string) *sourceDocs {
	return &sourceDocs{root: root, fset: token.NewFileSet(), pkgs: map[string]*doc.Package{}}
}

func (d *sourceDocs) problem(format string, args ...any) {
	d.problems = append(d.problems, fmt.Sprintf(format, args...))
}

// pkg is the documentation of the package at path, with its unexported declarations.
func (d *sourceDocs) pkg(path string) *doc.Package {
	d.mu.Lock()
	defer d.mu.Unlock()
	if p, ok := d.pkgs[path]; ok {
		return p
	}
	d.pkgs[path] = nil
	rel, ok := strings.CutPrefix(path, module)
	if !ok {
		return nil // not volley's: the standard library has no scenario types
	}
	dir := filepath.Join(d.root, filepath.FromSlash(strings.TrimPrefix(rel, "/")))
	entries, err := os.ReadDir(dir)
	if err != nil {
		d.problem("%s: %v", path, err)
		return nil
	}
	var files []*ast.File
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(d.fset, filepath.Join(dir, name), nil, parser.ParseComments)
		if err != nil {
			d.problem("%v", err)
			return nil
		}
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(d.fset, files, path, doc.AllDecls|doc.PreserveAST)
	if err != nil {
		d.problem("%s: %v", path, err)
		return nil
	}
	d.pkgs[path] = p
	return p
}

// typeOf is the documentation of named type t, or nil.
func (d *sourceDocs) typeOf(t reflect.Type) *doc.Type {
	p := d.pkg(t.PkgPath())
	if p == nil {
		return nil
	}
	for _, dt := range p.Types {
		if dt.Name == t.Name() {
			return dt
		}
	}
	return nil
}

// TypeDoc is t's doc comment, as one paragraph of text.
func (d *sourceDocs) TypeDoc(t reflect.Type) string {
	if dt := d.typeOf(t); dt != nil {
		doc := dt.Doc
		// A type declared alone in its group may carry its comment on the spec.
		if doc == "" {
			for _, s := range dt.Decl.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.Name == t.Name() && ts.Doc != nil {
					doc = ts.Doc.Text()
				}
			}
		}
		return text(doc)
	}
	return ""
}

// FieldDoc is the doc comment of t's field, or its line comment.
func (d *sourceDocs) FieldDoc(t reflect.Type, field string) string {
	dt := d.typeOf(t)
	if dt == nil {
		return ""
	}
	for _, s := range dt.Decl.Specs {
		ts, ok := s.(*ast.TypeSpec)
		if !ok || ts.Name.Name != t.Name() {
			continue
		}
		st, ok := ts.Type.(*ast.StructType)
		if !ok {
			return ""
		}
		for _, f := range st.Fields.List {
			for _, n := range f.Names {
				if n.Name != field {
					continue
				}
				switch {
				case f.Doc != nil:
					return text(f.Doc.Text())
				case f.Comment != nil:
					return text(f.Comment.Text())
				}
				return ""
			}
		}
	}
	return ""
}

// Consts are the values of the constants declared with type t, in the order written.
func (d *sourceDocs) Consts(t reflect.Type) []any {
	dt := d.typeOf(t)
	if dt == nil {
		return nil
	}
	var out []any
	for _, v := range dt.Consts {
		for _, s := range v.Decl.Specs {
			vs, ok := s.(*ast.ValueSpec)
			if !ok {
				continue
			}
			for i, n := range vs.Names {
				if i >= len(vs.Values) {
					d.problem("%s: constant %s has no value written (iota): give %s a Schemer", t, n.Name, t)
					return nil
				}
				lit, ok := vs.Values[i].(*ast.BasicLit)
				if !ok {
					d.problem("%s: constant %s is not written as a literal", t, n.Name)
					return nil
				}
				switch lit.Kind {
				case token.STRING:
					s, _ := strconv.Unquote(lit.Value)
					out = append(out, s)
				case token.INT:
					x, _ := strconv.Atoi(lit.Value)
					out = append(out, x)
				default:
					d.problem("%s: constant %s is a %s", t, n.Name, lit.Kind)
					return nil
				}
			}
		}
	}
	return out
}

// text joins a doc comment's lines into paragraphs, as an editor shows a description.
func text(doc string) string {
	paras := strings.Split(strings.TrimSpace(doc), "\n\n")
	for i, p := range paras {
		lines := strings.Split(p, "\n")
		// A paragraph indented (code, a picture) keeps its lines.
		if slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "  ") }) {
			continue
		}
		paras[i] = strings.Join(strings.Fields(p), " ")
	}
	return strings.Join(paras, "\n\n")
}
