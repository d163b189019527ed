package http_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/volley-wargames/volley/servertest"
)

// TestSchemaEndpoint serves the schemas it is given: of every system, of one, and a 404
// naming the system for one it does not know. (cmd/volley's tests hold the schemas
// themselves; `volley serve` gives the server the embedded ones.)
func TestSchemaEndpoint(t *testing.T) {
	srv := servertest.New(servertest.SQLite(t), servertest.Limits())
	srv.Schemas = fstest.MapFS{
		"volley.json":   {Data: []byte(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "volley scenario"}`)},
		"dropzone.json": {Data: []byte(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "volley scenario: dropzone"}`)},
	}
	ts := servertest.Start(t, srv)
	for path, title := range map[string]string{"/api/schema": "volley scenario", "/api/schema/dropzone": "volley scenario: dropzone"} {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/schema+json" || !strings.Contains(string(body), `"title": "`+title+`"`) {
			t.Errorf("GET %s: %d %s %s", path, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	}
	status, ans := call(t, "GET", ts.URL+"/api/schema/dropzon", "", "", nil)
	if status != 404 || ans["field"] != "system" || !strings.Contains(ans["message"].(string), `did you mean "dropzone"`) {
		t.Errorf("GET /api/schema/dropzon: %d %v", status, ans)
	}
	// A system volley knows whose schema this server was not given.
	if status, _ := call(t, "GET", ts.URL+"/api/schema/warstrike", "", "", nil); status != 404 {
		t.Errorf("GET /api/schema/warstrike: %d", status)
	}
}
