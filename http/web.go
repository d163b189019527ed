package http

import (
	"embed"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/opponent"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// web holds the battlefield page: plain ES modules, SVG and CSS, with no build step. It
// loads nothing from any other host, so it works on a machine without a network.
//
//go:embed web
var web embed.FS

// contentPolicy keeps the page to its own files: no script, style, image or connection
// to any other host, and no inline script.
const contentPolicy = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

// page serves the battlefield: index.html at / and its modules under /web/.
func page() http.Handler {
	sub, err := fs.Sub(web, "web")
	if err != nil {
		panic("http: the embedded page is missing: " + err.Error()) // a build defect
	}
	files := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", contentPolicy)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		// The page changes with the binary; a browser revalidates rather than keep an
		// old module beside a new one.
		w.Header().Set("Cache-Control", "no-cache")
		if r.URL.Path == "/" {
			http.ServeFileFS(w, r, sub, "index.html")
			return
		}
		r2 := r.Clone(r.Context())
		r2.URL.Path = strings.TrimPrefix(r.URL.Path, "/web")
		files.ServeHTTP(w, r2)
	})
}

// exampleList answers the names of the example scenarios a new battle may start from.
func (s *Server) exampleList(w http.ResponseWriter, r *http.Request) {
	s.postable()
	levels := make([]string, len(opponent.Levels))
	for i, l := range opponent.Levels {
		levels[i] = string(l)
	}
	writeJSON(w, http.StatusOK, map[string]any{"examples": s.examples, "battles": s.wholeBattles,
		"opponent": map[string]any{"levels": levels, "level": opponent.DefaultLevel, "styles": opponent.Styles()}})
}

// WholeBattle is an example that is a whole battle (it has an end: section), with what a
// player chooses before playing it against volley: its sides.
type WholeBattle struct {
	Name    string   `json:"name"`
	Ruleset string   `json:"ruleset"`
	Title   string   `json:"title,omitempty"`
	Sides   []string `json:"sides"`
}

// postable lists, once, the examples that load as a battle when posted: a scenario sent
// as a body cannot name another file, so an example that reads a tables file is not
// offered (its tables would have to be written in place).
func (s *Server) postable() []string {
	s.examplesOnce.Do(func() {
		s.examples, s.wholeBattles = []string{}, []WholeBattle{}
		if s.Examples == nil {
			return
		}
		_ = fs.WalkDir(s.Examples, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || path.Ext(p) != ".yaml" {
				return nil
			}
			body, err := fs.ReadFile(s.Examples, p)
			if err != nil {
				return nil
			}
			doc, err := scenario.Parse(p, body)
			if err != nil {
				return nil
			}
			rs, b, _, err := rules.Open(doc)
			if err != nil {
				return nil
			}
			s.examples = append(s.examples, p)
			if doc.Section("end") != nil {
				wb := WholeBattle{Name: p, Ruleset: rs.Name(), Title: titleOf(doc)}
				for _, u := range b.State().Units {
					if !slices.Contains(wb.Sides, u.Side) {
						wb.Sides = append(wb.Sides, u.Side)
					}
				}
				s.wholeBattles = append(s.wholeBattles, wb)
			}
			return nil
		})
		slices.Sort(s.examples)
		slices.SortFunc(s.wholeBattles, func(a, b WholeBattle) int { return strings.Compare(a.Name, b.Name) })
	})
	return s.examples
}

// example answers one example scenario's text.
func (s *Server) example(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	s.writeYAML(w, r, s.Examples, name, slices.Contains(s.postable(), name),
		volley.Errorf(volley.ENOTFOUND, "no example %q", name))
}

// writeYAML answers the scenario file name of fsys, which the server offers when offered
// is true; missing is the answer when it does not, or fsys has no such file.
func (s *Server) writeYAML(w http.ResponseWriter, r *http.Request, fsys fs.FS, name string, offered bool, missing error) {
	var body []byte
	err := fs.ErrNotExist
	if offered {
		body, err = fs.ReadFile(fsys, name)
	}
	if err != nil {
		s.fail(w, r, missing)
		return
	}
	w.Header().Set("Content-Type", "text/yaml; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(body)
}
