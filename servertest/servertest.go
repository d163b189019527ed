// Package servertest starts volley's API for tests as `volley serve` runs it: a real
// server (http.NewServer) over a real SQLite file in the test's temporary folder, on a
// loopback httptest server, closed when the test ends; and sends it requests as a client
// does. Only tests import it.
package servertest

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	vhttp "github.com/volley-wargames/volley/http"
	"github.com/volley-wargames/volley/scenario"
	"github.com/volley-wargames/volley/sqlite"
)

// SQLite opens a fresh SQLite store in a temporary folder, closed when the test ends.
func SQLite(tb testing.TB) volley.Store {
	tb.Helper()
	s, err := sqlite.Open(filepath.Join(tb.TempDir(), "volley.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// Limits are the default limits with rates no test reaches: tests send many requests
// from one address. Tests of the rates set their own.
func Limits() vhttp.Limits {
	l := vhttp.DefaultLimits()
	l.Creates = vhttp.Rate{PerSecond: 1e6, Burst: 1e6}
	l.Reads = vhttp.Rate{PerSecond: 1e6, Burst: 1e6}
	return l
}

// New is a server over store with limits that logs nowhere, for a test to set up
// further before Start.
func New(store volley.Store, limits vhttp.Limits) *vhttp.Server {
	return vhttp.NewServer(store, slog.New(slog.NewTextHandler(io.Discard, nil)), limits)
}

// Start serves srv on a loopback test server until the test ends.
func Start(tb testing.TB, srv *vhttp.Server) *httptest.Server {
	ts := httptest.NewServer(srv.Handler())
	tb.Cleanup(ts.Close)
	tb.Cleanup(srv.Close) // first: end the event streams, which ts.Close waits for
	return ts
}

// Serve starts a server over store with limits (New, Start).
func Serve(tb testing.TB, store volley.Store, limits vhttp.Limits) *httptest.Server {
	return Start(tb, New(store, limits))
}

// Request is a request to the API with body, and token as its bearer unless "".
func Request(tb testing.TB, method, u, token string, body []byte) *http.Request {
	tb.Helper()
	req, err := http.NewRequest(method, u, bytes.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return req
}

// Do sends req and decodes the JSON answer into a map; an answer that is not JSON fails
// the test.
func Do(tb testing.TB, req *http.Request) (int, map[string]any) {
	tb.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		tb.Fatalf("%s %s: answer is not JSON (%d): %s", req.Method, req.URL, resp.StatusCode, raw)
	}
	return resp.StatusCode, v
}

// Call sends a request with token (Request, Do) and decodes the JSON answer.
func Call(tb testing.TB, method, u, token string, body []byte) (int, map[string]any) {
	tb.Helper()
	return Do(tb, Request(tb, method, u, token, body))
}

// Revealed is what anyone can replay a battle's log with once it has ended and its seed is
// out: the seed, and the scenario the battle began from, parsed.
func Revealed(tb testing.TB, lg vhttp.Log) (dice.Seed, *scenario.Doc) {
	tb.Helper()
	seed, err := dice.ParseSeed(dice.Generator(lg.Generator), *lg.Seed)
	if err != nil {
		tb.Fatal(err)
	}
	doc, err := scenario.Parse("scenario", []byte(lg.Scenario))
	if err != nil {
		tb.Fatal(err)
	}
	return seed, doc
}
