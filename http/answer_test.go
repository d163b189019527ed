package http

import (
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestNoNonFiniteAnswer (issue 34, 6): an answer holding a number JSON cannot hold (+Inf,
// NaN) was a 200 with an empty body, the encoder failing after the status was sent. Every
// answer is encoded whole before it starts: such a value, a bug, is a 500 with the error
// JSON, never a broken 200.
func TestNoNonFiniteAnswer(t *testing.T) {
	s := NewServer(nil, slog.New(slog.NewTextHandler(io.Discard, nil)), DefaultLimits())
	defer s.Close()
	s.mux.HandleFunc("GET /api/infinite", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"step": 1e-320, "x0": math.Inf(1)})
	})
	s.mux.HandleFunc("GET /api/nan", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, []float64{math.NaN()})
	})
	for _, path := range []string{"/api/infinite", "/api/nan"} {
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		var v map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &v); rec.Code != http.StatusInternalServerError || err != nil || v["code"] != "internal" {
			t.Errorf("%s: %d %q; want a 500 with the internal error's JSON", path, rec.Code, rec.Body.String())
		}
	}
}
