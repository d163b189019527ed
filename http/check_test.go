package http_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/servertest"
)

// TestCheckEndpoint: POST /api/check answers what a scenario holds, and its document as
// JSON, for one that loads; every error with its place for one that does not; and
// stores nothing. GET /api/new/{system} gives each system's starter, and every starter
// checks.
func TestCheckEndpoint(t *testing.T) {
	store := servertest.SQLite(t)
	srv := servertest.New(store, servertest.Limits())
	srv.Starters = os.DirFS(filepath.Join("..", "cmd", "volley", "new"))
	ts := servertest.Start(t, srv)

	status, v := call(t, "POST", ts.URL+"/api/check", "", "", handScenario(t))
	doc, _ := v["document"].(map[string]any)
	if status != http.StatusOK || v["ruleset"] != "dropzone" || v["dice"] != "players" || v["units"] != 8.0 ||
		strings.Join(anyStrings(v["sides"]), ",") != "UCM,Scourge" || doc == nil || len(doc["units"].([]any)) != 8 || doc["dice"] != "players" {
		t.Fatalf("check sabres.yaml: %d %v", status, v)
	}
	// Two mistakes, both reported at their lines.
	bad := strings.Replace(strings.Replace(string(example(t, "dropzone/sabres.yaml")), "armour: 13", "armor: 13", 1),
		"facing: 180}", "facing: north}", 1)
	status, v = call(t, "POST", ts.URL+"/api/check", "", "", []byte(bad))
	errs := anyStrings(v["errors"])
	if status != http.StatusBadRequest || len(errs) < 2 || !strings.Contains(strings.Join(errs, "\n"), `"armor"`) || !strings.Contains(strings.Join(errs, "\n"), "north") {
		t.Errorf("check a scenario with two mistakes: %d %v", status, v)
	}
	if status, v := call(t, "POST", ts.URL+"/api/check", "", "", []byte("ruleset: dropzone\ntypes: []\nunits: []\n")); status != http.StatusBadRequest || !strings.Contains(v["message"].(string), "no units") {
		t.Errorf("check a scenario without units: %d %v", status, v)
	}
	if empty, err := store.Empty(t.Context()); err != nil || !empty {
		t.Errorf("checking stored a battle: empty %v, %v", empty, err)
	}

	for _, system := range []string{"dropzone", "warfare", "republique", "warstrike", "warengine"} {
		resp, err := http.Get(ts.URL + "/api/new/" + system)
		if err != nil {
			t.Fatal(err)
		}
		text, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(text), "ruleset: "+system) {
			t.Fatalf("GET /api/new/%s: %d %s", system, resp.StatusCode, text)
		}
		if status, v := call(t, "POST", ts.URL+"/api/check", "", "", text); status != http.StatusOK || v["ruleset"] != system {
			t.Errorf("the %s starter does not check: %d %v", system, status, v)
		}
	}
	if status, v := call(t, "GET", ts.URL+"/api/new/dropzon", "", "", nil); status != http.StatusNotFound || v["field"] != "system" || !strings.Contains(v["message"].(string), "dropzone") {
		t.Errorf("GET /api/new/dropzon: %d %v", status, v)
	}
}

func anyStrings(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, x := range list {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}
