package http_test

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/servertest"
)

// TestPageFiles: the page and its modules are served from the binary, each with the
// type a browser needs for a module, and with a policy that keeps the page to its own
// files (no CDN, no other host).
func TestPageFiles(t *testing.T) {
	ts := serve(t, servertest.SQLite(t))
	for _, tc := range []struct {
		path, typ, contains string
	}{
		{"/", "text/html", `<script type="module" src="/web/app.js">`},
		{"/web/app.js", "javascript", "import"},
		{"/web/grid.js", "javascript", "export function mount"},
		{"/web/table.js", "javascript", "export function mount"},
		{"/web/style.css", "text/css", "@media"},
	} {
		resp, err := http.Get(ts.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(resp.Header.Get("Content-Type"), tc.typ) || !strings.Contains(string(body), tc.contains) {
			t.Errorf("GET %s: %d %q, body lacks %q", tc.path, resp.StatusCode, resp.Header.Get("Content-Type"), tc.contains)
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
			t.Errorf("GET %s: Content-Security-Policy %q", tc.path, csp)
		}
	}
	// Nothing in the page names another host: every file it serves.
	files, err := os.ReadDir("web")
	if err != nil || len(files) < 20 {
		t.Fatalf("the page's files: %d, %v", len(files), err)
	}
	for _, f := range files {
		name := f.Name()
		b, err := os.ReadFile(filepath.Join("web", name))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "http://") && !strings.Contains(string(b), "http://www.w3.org/2000/svg") || strings.Contains(string(b), "https://") {
			t.Errorf("web/%s names another host", name)
		}
	}
	resp, err := http.Get(ts.URL + "/web/nope.js")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("a missing file: %d", resp.StatusCode)
	}
}

// TestExamples: the page's examples are the scenarios that load from a posted body;
// one that reads a tables file is left out, and no path escapes the examples.
func TestExamples(t *testing.T) {
	srv := servertest.New(servertest.SQLite(t), servertest.Limits())
	srv.Examples = os.DirFS(filepath.Join("..", "examples"))
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	_, v := call(t, "GET", ts.URL+"/api/examples", "", "", nil)
	var names []string
	for _, n := range v["examples"].([]any) {
		names = append(names, n.(string))
	}
	for _, want := range []string{"warengine/murphy.yaml", "dropzone/sabres.yaml", "warfare/demo.yaml"} {
		if !slices.Contains(names, want) {
			t.Errorf("examples lack %s: %v", want, names)
		}
	}
	for _, not := range []string{"warfare/longbowmen.yaml", "warfare/sample-tables.yaml"} {
		if slices.Contains(names, not) {
			t.Errorf("examples offer %s, which cannot be posted", not)
		}
	}
	resp, err := http.Get(ts.URL + "/api/examples/warengine/murphy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "ruleset: warengine") {
		t.Errorf("murphy.yaml: %d %.80s", resp.StatusCode, body)
	}
	for _, bad := range []string{"warfare/longbowmen.yaml", "../go.mod", "%2e%2e/go.mod", "warengine"} {
		if status, _ := call(t, "GET", ts.URL+"/api/examples/"+bad, "", "", nil); status != http.StatusNotFound {
			t.Errorf("example %q: %d, want 404", bad, status)
		}
	}
	// A server given no examples offers none.
	plain := serve(t, servertest.SQLite(t))
	if _, v := call(t, "GET", plain.URL+"/api/examples", "", "", nil); len(v["examples"].([]any)) != 0 {
		t.Errorf("examples without any: %v", v)
	}
}

// TestVerifyEndpoint: the page's check of an ended battle replays its log; before the end
// the seed is secret and the check is refused.
func TestVerifyEndpoint(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "dropzone/sabres.yaml")
	if status, _ := call(t, "POST", ts.URL+"/api/battles/"+id+"/actions", tokens["UCM"], "", []byte(sabresAction)); status != http.StatusOK {
		t.Fatalf("action: %d", status)
	}
	if status, v := call(t, "GET", ts.URL+"/api/battles/"+id+"/verify", watch(id), "", nil); status != http.StatusConflict {
		t.Errorf("verify before the end: %d %v", status, v)
	}
	call(t, "POST", ts.URL+"/api/battles/"+id+"/end", tokens["UCM"], "", nil)
	status, v := call(t, "GET", ts.URL+"/api/battles/"+id+"/verify", watch(id), "", nil)
	if status != http.StatusOK || v["verified"] != true || v["actions"] != 1.0 || v["dice"].(float64) < 3 {
		t.Errorf("verify after the end: %d %v", status, v)
	}
	if status, _ := call(t, "GET", ts.URL+"/api/battles/0123456789abcdef/verify", watch(id), "", nil); status != http.StatusNotFound {
		t.Errorf("verify of no battle: %d", status)
	}
}

// TestTableViews: a tabletop battle answers its table (bases, facings, arcs and range
// bands in the scenario's unit), and a grid battle its weapons by group.
func TestTableViews(t *testing.T) {
	ts := serve(t, servertest.SQLite(t))
	id, _ := battle(t, ts.URL, example(t, "dropzone/sabres.yaml"))
	_, v := call(t, "GET", ts.URL+"/api/battles/"+id, watch(id), "", nil)
	table := v["table"].(map[string]any)
	if table["unit"] != "in" || table["measured"] != "edge" {
		t.Errorf("table unit %v, measured %v", table["unit"], table["measured"])
	}
	sabre := table["units"].([]any)[0].(map[string]any)
	rail := sabre["weapons"].([]any)[0].(map[string]any)
	if sabre["id"] != "sabre-1" || sabre["base"] != 1.25 || sabre["facing"] != 0.0 || sabre["squad"] != "sabres" {
		t.Errorf("sabre-1: %v", sabre)
	}
	// F/S/R: the front, both flanks and the rear, each a quadrant around its direction.
	if got := rail["arcs"].([]any); len(got) != 4 {
		t.Errorf("Avenger Railgun F/S/R arcs: %v", got)
	}
	ranges := rail["ranges"].([]any)
	if c, f := ranges[0].(map[string]any), ranges[1].(map[string]any); c["reach"] != 24.0 || f["unlimited"] != true {
		t.Errorf("Avenger Railgun ranges: %v", ranges)
	}
	mg := sabre["weapons"].([]any)[1].(map[string]any)
	if got := mg["arcs"].([]any); len(got) != 3 {
		t.Errorf("Equalizer F/S arcs: %v", got)
	}
	// The declaration the page builds: a squad, a row per weapon, the squad's movement.
	decl := table["declare"].(map[string]any)
	sabres := decl["choices"].([]any)[0].(map[string]any)
	if decl["rows"] != "weapons" || decl["rows_key"] != "declarations" || decl["target_key"] != "target" || decl["verb"] != "Shoot" ||
		!reflect.DeepEqual(sabres["action"], map[string]any{"squad": "sabres"}) || !reflect.DeepEqual(sabres["units"], []any{"sabre-1", "sabre-2", "sabre-3"}) {
		t.Errorf("Dropzone's declare: %v", decl)
	}

	id, _ = battle(t, ts.URL, example(t, "warfare/demo.yaml"))
	_, v = call(t, "GET", ts.URL+"/api/battles/"+id, watch(id), "", nil)
	table = v["table"].(map[string]any)
	bows := table["units"].([]any)[0].(map[string]any)
	band := bows["weapons"].([]any)[0].(map[string]any)["ranges"].([]any)
	if bows["placed"] != true || bows["base"] != 0.0 || bows["facing"] != nil || len(band) != 3 || band[2].(map[string]any)["reach"] != 12.0 {
		t.Errorf("longbowmen: %v", bows)
	}
	if mods := table["modifiers"].([]any); !slices.Contains(mods, any("target in cover")) || slices.Contains(mods, any("target is charging")) {
		t.Errorf("claimable modifiers: %v", mods)
	}
	// The declaration: a unit, targets added with stands shared out, a range band and
	// the claimable modifiers; ammo's levels named.
	decl = table["declare"].(map[string]any)
	fields := decl["row_fields"].([]any)
	first := decl["choices"].([]any)[0].(map[string]any)
	if decl["rows"] != "targets" || decl["rows_key"] != "targets" || decl["target_key"] != "unit" || len(fields) != 3 ||
		fields[0].(map[string]any)["share"] != true || !reflect.DeepEqual(fields[2].(map[string]any)["options"], table["modifiers"]) ||
		!reflect.DeepEqual(decl["values"], map[string]any{"ammo": []any{"ok", "low", "out"}}) ||
		!reflect.DeepEqual(first["action"], map[string]any{"unit": "longbowmen"}) || first["count"] == nil || first["note"] == nil {
		t.Errorf("Warfare's declare: %v", decl)
	}

	id, _ = battle(t, ts.URL, example(t, "warengine/murphy.yaml"))
	_, v = call(t, "GET", ts.URL+"/api/battles/"+id, watch(id), "", nil)
	if v["table"] != nil {
		t.Error("a grid battle answers a table")
	}
	murphy := v["board"].(map[string]any)["units"].([]any)[0].(map[string]any)
	hmg := murphy["weapons"].([]any)[0].(map[string]any)
	if murphy["name"] != "Sgt Billy Bob Murphy" || murphy["group"] != 1.0 || hmg["group"] != 1.0 || hmg["arcs"].([]any)[0].([]any)[1] != 45.0 {
		t.Errorf("murphy on the board: %v", murphy)
	}
}

// TestPageKnowsNoGame: the page's code never names a rule system nor compares the
// battle's ruleset, and holds no rule system's action forms: no action type, phase or step
// a rule system gives, and no action built with a type of its own. What differs between
// systems comes from the battle's view (the offers, the table's declare description, the
// board), so that a new system needs no page branch.
//
// The words the rule systems give are found, not listed: each system's examples are
// played through the API, taking what the offers allow and ending each
// phase, step and turn in turn, and every offer's type and every phase met is kept. The
// game's own words stay the page's: volley's actions (move, deploy, end_turn, …) and its
// phases (turn, deployment), the JSON keys of the view's own types (a target, a group),
// and the web's (a button's type). A word a rule system gives may still name the page's
// own markup (an id, a class, a role: #shoot, .clear), but never a type or a phase compared.
func TestPageKnowsNoGame(t *testing.T) {
	// A name, or the ruleset compared, switched on or looked up in a list.
	names := regexp.MustCompile(`(?i)dropzone|warengine|war engine|warfare|republique|warstrike|ruleset\s*[!=]==?|[!=]==?\s*\S*ruleset|switch\s*\([^)]*ruleset|includes\([^)]*ruleset|\bsys\(\)`)
	types, phases := rulesWords(t)
	// The walk must have met what this test was written against: the War Engine's
	// declarations and its phases, Republique's steps and skirmish pairing, a shot by
	// another name.
	for _, w := range []string{"declare", "clear", "group", "fire", "end_phase", "end_step", "oppose", "shoot"} {
		if _, ok := types[w]; !ok {
			t.Errorf("the walk through the examples met no offer of type %q (it met %v): it no longer finds what the page must not hold", w, slices.Sorted(maps.Keys(types)))
		}
	}
	for _, w := range []string{"target", "fire", "maneuver"} {
		if _, ok := phases[w]; !ok {
			t.Errorf("the walk through the examples met no phase %q (it met %v)", w, slices.Sorted(maps.Keys(phases)))
		}
	}
	gameTypes, gamePhases, viewKeys := gameWords(t)
	t.Logf("the rule systems' words met: types %v; phases and steps %v", slices.Sorted(maps.Keys(types)), slices.Sorted(maps.Keys(phases)))
	// A literal, a type set or compared, a phase compared or switched on.
	literal := regexp.MustCompile("'(?:[^'\\\\]|\\\\.)*'|\"(?:[^\"\\\\]|\\\\.)*\"|`(?:[^`\\\\]|\\\\.)*`")
	typeSet := regexp.MustCompile(`\btype\s*:\s*['"\x60]([^'"\x60]*)['"\x60]|\.type\s*[!=]==?\s*['"\x60]([^'"\x60]*)['"\x60]|['"\x60]([^'"\x60]*)['"\x60]\s*[!=]==?\s*[\w.?]*\.type\b`)
	phaseCompared := regexp.MustCompile(`phase\b(?:\(\))?\s*[!=]==?\s*['"\x60]([^'"\x60]*)['"\x60]|['"\x60]([^'"\x60]*)['"\x60]\s*[!=]==?\s*[\w.?]*phase\b|switch\s*\([^)]*phase`)
	markup := regexp.MustCompile(`\b(id|class|role)\s*:|classList|querySelector|closest\(`)
	css, err := os.ReadFile(filepath.Join("web", "style.css"))
	if err != nil {
		t.Fatal(err)
	}
	styled := func(w string) bool { // a class or an id of the page's stylesheet
		return regexp.MustCompile(`[.#]` + regexp.QuoteMeta(w) + `(?:[^\w-]|$)`).Match(css)
	}
	files, err := filepath.Glob(filepath.Join("web", "*.js"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no page modules: %v", err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			// Comments may say which system a feature was made for; code may not ask.
			if c := strings.Index(line, "//"); c >= 0 && !strings.ContainsAny(line[:c], "'\"`") {
				line = line[:c]
			}
			at := fmt.Sprintf("%s:%d", f, i+1)
			if m := names.FindString(line); m != "" {
				t.Errorf("%s: the page names a rule system (%q): describe the difference in the battle's view instead", at, m)
			}
			for _, m := range typeSet.FindAllStringSubmatch(line, -1) {
				if w := m[1] + m[2] + m[3]; !gameTypes[w] && !webType(w) {
					t.Errorf("%s: the page builds or tests an action of type %q: build it from the view's offers instead", at, w)
				}
			}
			for _, m := range phaseCompared.FindAllStringSubmatch(line, -1) {
				if w := m[1] + m[2]; !gamePhases[w] {
					t.Errorf("%s: the page asks which phase or step it is (%q): say what differs in the view instead", at, m[0])
				}
			}
			for _, loc := range literal.FindAllStringIndex(line, -1) {
				lit := line[loc[0]+1 : loc[1]-1]
				if line[loc[0]] == '`' {
					lit = regexp.MustCompile(`\$\{[^}]*\}`).ReplaceAllString(lit, " ")
				}
				if gameTypes[lit] || gamePhases[lit] || viewKeys[lit] {
					continue
				}
				// The page's own markup may share a word with a rule system.
				own := markup.MatchString(line[:loc[0]]) || styled(lit)
				if sys, ok := types[lit]; ok && !own {
					t.Errorf("%s: the page holds %s's action type %q: take it from the view's offers instead", at, sys, lit)
				}
				if sys, ok := phases[lit]; ok && !own {
					t.Errorf("%s: the page holds %s's phase or step %q: read it from state.turn instead", at, sys, lit)
				}
				for p, sys := range phases {
					if gamePhases[p] {
						continue
					}
					if regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(p) + ` (phase|step|segment)\b`).MatchString(lit) {
						t.Errorf("%s: the page's text names %s's %q phase or step: take the words from the view's offers or state.turn instead", at, sys, p)
					}
				}
			}
		}
	}
}

// webType says whether a type is the web's own: a button's or an input's (which the page
// sets on its controls), a pointer's, a media type (a Blob's, a request's).
func webType(w string) bool {
	switch w {
	case "button", "submit", "reset", "checkbox", "radio", "number", "text", "range", "file", "color", "search", "hidden", "module",
		"mouse", "touch", "pen":
		return true
	}
	return strings.Contains(w, "/")
}

// gameWords are the words volley itself gives the view, which the page may use: its own
// actions' types, its phases, and the JSON keys of the view's types in the root package.
func gameWords(t *testing.T) (types, phases, keys map[string]bool) {
	t.Helper()
	types, phases, keys = map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, w := range []string{volley.MoveAction, volley.DeployAction, volley.EndDeployment, volley.EndTurn, volley.TakeBack, volley.OfferEnd} {
		types[w] = true
	}
	phases[(&volley.Turns{Order: []string{"a"}}).View().Phase] = true
	d := &volley.Tabletop{Deploying: true, Deployment: &volley.Deployment{Order: []string{"a"}}}
	phases[d.DeployTurn().Phase] = true
	files, err := filepath.Glob(filepath.Join("..", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	tag := regexp.MustCompile("json:\"([a-z_]+)")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tag.FindAllStringSubmatch(string(src), -1) {
			keys[m[1]] = true
		}
	}
	return types, phases, keys
}

// rulesWords plays each system's examples through the API and answers
// the offers' types and the phases met, each with the system that gave it first. At each
// moment it takes one offer it can fill from the offers alone (the first option of each
// field it must fill), then the offer that ends the phase, step or turn, until the battle
// ends or 16 moments have passed. A refused action is no matter here: the walk only looks.
func rulesWords(t *testing.T) (types, phases map[string]string) {
	t.Helper()
	ts := serve(t, servertest.SQLite(t))
	types, phases = map[string]string{}, map[string]string{}
	var skipped []string
	defer func() { t.Logf("examples not walked (the server does not take them as posted): %v", skipped) }()
	dirs, err := filepath.Glob(filepath.Join("..", "examples", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, dir := range dirs {
		sys := filepath.Base(dir)
		files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
		for _, file := range files {
			name := filepath.Base(file)
			doc, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				continue
			}
			// A scenario that refers to files beside it (Republique's charts), or a
			// file of data (sample tables), is not one a client can post.
			status, v := call(t, "POST", ts.URL+"/api/battles", "", "", doc)
			if status != http.StatusCreated {
				skipped = append(skipped, sys+"/"+name)
				continue
			}
			id, tokens := v["id"].(string), map[string]string{}
			for side, tok := range v["tokens"].(map[string]any) {
				tokens[side] = tok.(string)
			}
			tried := map[string]bool{}
			for range 16 {
				_, v := call(t, "GET", ts.URL+"/api/battles/"+id, tokens[slices.Sorted(maps.Keys(tokens))[0]], "", nil)
				if v["ended"] == true {
					break
				}
				if turn, ok := v["state"].(map[string]any)["turn"].(map[string]any); ok {
					if p, ok := turn["phase"].(string); ok && phases[p] == "" {
						phases[p] = sys
					}
				}
				var end, act map[string]any
				for _, o := range v["offers"].([]any) {
					o := o.(map[string]any)
					typ := o["type"].(string)
					if types[typ] == "" {
						types[typ] = sys
					}
					if typ == volley.TakeBack || typ == volley.OfferEnd {
						continue
					}
					if o["key"] == nil && end == nil {
						end = map[string]any{"side": o["side"], "body": o["action"]}
					}
					if b := filled(o); b != nil && act == nil && !tried[fmt.Sprint(b)] {
						tried[fmt.Sprint(b)] = true
						act = map[string]any{"side": o["side"], "body": b}
					}
				}
				next := act
				if next == nil {
					next = end
				}
				if next == nil {
					break
				}
				raw, _ := json.Marshal(next["body"])
				call(t, "POST", ts.URL+"/api/battles/"+id+"/actions", tokens[next["side"].(string)], "", raw)
			}
		}
	}
	return types, phases
}

// filled is the body of offer o's first actor with the first option of each field it must
// fill, or nil where one of them has no options to choose from.
func filled(o map[string]any) map[string]any {
	actors, _ := o["actors"].([]any)
	if len(actors) == 0 {
		return nil
	}
	a := actors[0].(map[string]any)
	b := map[string]any{}
	maps.Copy(b, o["action"].(map[string]any))
	maps.Copy(b, a["action"].(map[string]any))
	fields, _ := o["fields"].([]any)
	own, _ := a["fields"].([]any)
	for _, f := range append(fields, own...) {
		f := f.(map[string]any)
		if f["optional"] == true {
			continue
		}
		opts, _ := f["options"].([]any)
		if len(opts) == 0 {
			return nil
		}
		b[f["key"].(string)] = opts[0].(map[string]any)["value"]
	}
	return b
}
