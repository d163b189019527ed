package http_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	vhttp "github.com/volley-wargames/volley/http"
)

// TestPageFiles: the page and its modules are served from the binary, each with the
// type a browser needs for a module, and with a policy that keeps the page to its own
// files (no CDN, no other host).
func TestPageFiles(t *testing.T) {
	ts := serve(t, sqliteStore(t))
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
	// Nothing in the page names another host.
	for _, name := range []string{"index.html", "app.js", "api.js", "dom.js", "grid.js", "table.js", "chart.js", "log.js", "style.css"} {
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
	srv := vhttp.NewServer(sqliteStore(t), slog.New(slog.NewTextHandler(io.Discard, nil)), testLimits())
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
	plain := serve(t, sqliteStore(t))
	if _, v := call(t, "GET", plain.URL+"/api/examples", "", "", nil); len(v["examples"].([]any)) != 0 {
		t.Errorf("examples without any: %v", v)
	}
}

// TestVerifyEndpoint: the page's check of an ended battle replays its log; before the end
// the seed is secret and the check is refused.
func TestVerifyEndpoint(t *testing.T) {
	ts := serve(t, sqliteStore(t))
	id, tokens := battle(t, ts.URL, example(t, "dropzone/sabres.yaml"))
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
	ts := serve(t, sqliteStore(t))
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
// battle's ruleset. What differs between systems comes from the battle's view (the
// table's declare description, the board), so that a new system needs no page branch.
func TestPageKnowsNoGame(t *testing.T) {
	// A name, or the ruleset compared, switched on or looked up in a list.
	names := regexp.MustCompile(`(?i)dropzone|warengine|war engine|warfare|republique|warstrike|ruleset\s*[!=]==?|[!=]==?\s*\S*ruleset|switch\s*\([^)]*ruleset|includes\([^)]*ruleset|\bsys\(\)`)
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
			if c := strings.Index(line, "//"); c >= 0 && !strings.Contains(line[:c], "'") {
				line = line[:c]
			}
			if m := names.FindString(line); m != "" {
				t.Errorf("%s:%d: the page names a rule system (%q): describe the difference in the battle's view instead", f, i+1, m)
			}
		}
	}
}
