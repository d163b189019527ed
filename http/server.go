// Package http is volley's JSON API: battles created from scenario files, actions
// posted by the side they belong to, the exact odds and aims of any action, and a log
// of every die that anyone can check once the battle ends and its seed is revealed.
//
// A battle is an event log (see volley.Store): the server keeps no state that another
// server could not rebuild. It keeps folded battles in memory only as a cache, checked
// against the store's sequence numbers on every request, so several servers can share
// one PostgreSQL database and behave as one.
package http

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"runtime/debug"
	"sync"
	"time"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/scenario"
)

// Limits on what a request may ask. Each keeps a client from tying up the server.
const (
	// MaxBodyBytes bounds a request body: a scenario or an action.
	MaxBodyBytes = 1 << 20
	// RequestTimeout bounds the work of one request.
	RequestTimeout = 15 * time.Second
	// MaxCached bounds the battles kept folded in memory.
	MaxCached = 1024
)

// Server serves the API over a Store.
type Server struct {
	store  volley.Store
	logger *slog.Logger
	// NewSeed and NewToken make a battle's secrets. They default to crypto/rand; tests
	// may fix them.
	NewSeed  func() uint64
	NewToken func() string
	// Examples, if set, holds example scenarios (*.yaml) that the page offers as a start
	// for a new battle.
	Examples fs.FS

	examplesOnce sync.Once
	examples     []string

	mu    sync.Mutex
	cache map[string]*live
	mux   *http.ServeMux
}

// NewServer returns a server over store that logs each request to logger.
func NewServer(store volley.Store, logger *slog.Logger) *Server {
	s := &Server{store: store, logger: logger, NewSeed: randomSeed, NewToken: randomToken, cache: map[string]*live{}}
	m := http.NewServeMux()
	pg := page()
	m.Handle("GET /{$}", pg)
	m.Handle("GET /web/", pg)
	m.HandleFunc("GET /api/examples", s.exampleList)
	m.HandleFunc("GET /api/examples/{name...}", s.example)
	m.HandleFunc("GET /api/rulesets", s.rulesets)
	m.HandleFunc("GET /api/battles", s.listBattles)
	m.HandleFunc("POST /api/battles", s.createBattle)
	m.HandleFunc("GET /api/battles/{id}", s.getBattle)
	m.HandleFunc("GET /api/battles/{id}/aim", s.aim)
	m.HandleFunc("POST /api/battles/{id}/aim", s.aim)
	m.HandleFunc("GET /api/battles/{id}/odds", s.odds)
	m.HandleFunc("POST /api/battles/{id}/odds", s.odds)
	m.HandleFunc("POST /api/battles/{id}/actions", s.postAction)
	m.HandleFunc("GET /api/battles/{id}/log", s.log)
	m.HandleFunc("POST /api/battles/{id}/end", s.end)
	m.HandleFunc("GET /api/battles/{id}/verify", s.verify)
	m.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, volley.Errorf(volley.ENOTFOUND, "no such API path: %s %s", r.Method, r.URL.Path))
	})
	s.mux = m
	return s
}

// Handler is the server with its safety nets: a request's time and size limits, a
// recovered panic answered as 500 (a bug, never the client's input), and an access log.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &recorder{ResponseWriter: w, status: http.StatusOK}
		ctx, cancel := context.WithTimeout(r.Context(), RequestTimeout)
		defer cancel()
		r = r.WithContext(ctx)
		r.Body = http.MaxBytesReader(rec, r.Body, MaxBodyBytes)
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler { // the standard way to drop a connection
					panic(p)
				}
				s.logger.Error("panic", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				if !rec.wrote {
					s.fail(rec, r, volley.Errorf(volley.EINTERNAL, "internal error"))
				}
			}
			s.logger.Info("request", "method", r.Method, "path", r.URL.Path, "status", rec.status,
				"bytes", rec.bytes, "duration", time.Since(start).Round(time.Microsecond))
		}()
		s.mux.ServeHTTP(rec, r)
	})
}

// recorder remembers what a handler wrote, for the access log.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int
	wrote  bool
}

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
		r.ResponseWriter.WriteHeader(code)
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}

// apiError is the JSON of every error answer.
type apiError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Field is where in the request the fault lies: a query parameter, a header, or
	// the line:col of the body.
	Field string `json:"field,omitempty"`
	// Errors lists every problem of a body that has several, as file:line:col lines.
	Errors []string `json:"errors,omitempty"`
}

// statusOf maps error codes to HTTP statuses, in this one place.
func statusOf(code string) int {
	switch code {
	case volley.EINVALID, volley.ENOTSUPPORTED:
		return http.StatusBadRequest
	case volley.EUNAUTHORIZED:
		return http.StatusUnauthorized
	case volley.EFORBIDDEN:
		return http.StatusForbidden
	case volley.ENOTFOUND:
		return http.StatusNotFound
	case volley.ECONFLICT:
		return http.StatusConflict
	case volley.ETOOLARGE:
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusInternalServerError
}

// fail answers with err as JSON. An internal error says nothing of the machine to the
// client, and is logged in full for the operator.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	e := apiError{Code: volley.ErrorCode(err), Message: volley.ErrorMessage(err)}
	var ve *volley.Error
	if errors.As(err, &ve) && e.Code != volley.EINTERNAL {
		e.Message, e.Field = ve.Message, ve.Field
	}
	var list scenario.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		e.Message = list[0].Msg
		e.Field = fmt.Sprintf("%s:%d:%d", list[0].Pos.File, list[0].Pos.Line, list[0].Pos.Col)
		for _, one := range list {
			e.Errors = append(e.Errors, one.Error())
		}
	}
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		e = apiError{Code: volley.ETOOLARGE, Message: fmt.Sprintf("the body is larger than %d bytes", tooBig.Limit), Field: "body"}
	}
	if e.Code == volley.EINTERNAL {
		s.logger.Error("internal error", "method", r.Method, "path", r.URL.Path, "error", err.Error())
	}
	if e.Code == volley.EUNAUTHORIZED {
		w.Header().Set("WWW-Authenticate", `Bearer realm="volley"`)
	}
	writeJSON(w, statusOf(e.Code), e)
}

// writeJSON answers with v as indented JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v) // the client has gone if this fails; nothing to tell it
}

func randomSeed() uint64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("http: no randomness for a seed: " + err.Error())
	}
	return binary.BigEndian.Uint64(b[:])
}

func randomToken() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("http: no randomness for a token: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}
