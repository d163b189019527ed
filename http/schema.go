package http

import (
	"io/fs"
	"net/http"
	"strconv"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// schemaAll names the schema of every rule system among Server.Schemas.
const schemaAll = "volley"

// schema answers GET /api/schema and GET /api/schema/{system}: the JSON Schema of the
// scenario format (`volley schema`), of every system or of one, which a YAML editor
// reads through a `# yaml-language-server: $schema=…` comment and a page builds its
// forms from. It needs no token: a schema is the same for everyone.
func (s *Server) schema(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("system")
	if name == "" {
		name = schemaAll
	} else if _, ok := rules.Lookup(name); !ok {
		s.fail(w, r, &volley.Error{Code: volley.ENOTFOUND, Message: "no rule system " + strconv.Quote(name) + " (known: " + strings.Join(rules.Names(), ", ") + ")" + scenario.Hint(name, rules.Names()), Field: "system"})
		return
	}
	var body []byte
	err := fs.ErrNotExist
	if s.Schemas != nil {
		body, err = fs.ReadFile(s.Schemas, name+".json")
	}
	if err != nil {
		s.fail(w, r, volley.Errorf(volley.ENOTFOUND, "this server has no schema of %s", name))
		return
	}
	w.Header().Set("Content-Type", "application/schema+json")
	w.Header().Set("Cache-Control", "no-cache")
	// An editor fetches the schema from another origin than the page's (a local file's).
	w.Header().Set("Access-Control-Allow-Origin", "*")
	_, _ = w.Write(body)
}
