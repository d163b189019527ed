// Package http is volley's JSON API: battles created from scenario files, actions
// posted by the side they belong to, the exact odds and aims of any action, and a log
// of every die that anyone can check once the battle ends and its seed is revealed.
//
// A battle is an event log (see volley.Store): the server keeps no state that another
// server could not rebuild. It keeps folded battles in memory only as a cache, checked
// against the store's sequence numbers on every request, so several servers can share
// one PostgreSQL database and behave as one.
//
// The server is built to face the internet: every request's work is bounded before it
// starts (Limits), obeys the request's deadline, and is shared fairly between clients;
// the server rolls every die; and a battle is read only with one of its tokens.
package http

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/semaphore"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/scenario"
)

// Server serves the API over a Store.
type Server struct {
	store  volley.Store
	logger *slog.Logger
	limits Limits
	// NewSeed and NewToken make a battle's secrets. They default to crypto/rand; tests
	// may fix them.
	NewSeed  func() (dice.Seed, error)
	NewToken func() string
	// Now is the clock the rate limits run on; time.Now unless a test sets it.
	Now func() time.Time
	// Examples, if set, holds example scenarios (*.yaml) that the page offers as a start
	// for a new battle.
	Examples fs.FS
	// Schemas, if set, holds the JSON Schema of the scenario format: <system>.json for
	// each rule system and volley.json for all (GET /api/schema/{system}).
	Schemas fs.FS
	// Starters, if set, holds a small scenario of each rule system to start a table from,
	// <system>.yaml (`volley new`, GET /api/new/{system}).
	Starters fs.FS
	// PublishDemos makes GET /api/demos list the demo battles the store keeps, tokens
	// and all, for the home page (`volley serve` keeps them, KeepDemos).
	PublishDemos bool

	examplesOnce sync.Once
	examples     []string
	wholeBattles []WholeBattle

	// key signs the heads of battles' chains: the store's, read once (chain.go).
	keyMu sync.Mutex
	key   ed25519.PrivateKey

	cache *cache
	// inFlight admits Limits.InFlight requests' work at a time, heavy the Limits.Heavy
	// requests whose work is above Limits.LightWork (see admission.go), and rebuilds
	// Limits.Rebuilds battles' rebuilds (live.go).
	inFlight, heavy, rebuilds *semaphore.Weighted
	heavyMu                   sync.Mutex
	heavyWaiting              int
	// clients holds each client address's rates and what it has in flight.
	clients *clients
	mux     *http.ServeMux
	// hub holds the battles' event streams; base ends them, and the store's listener,
	// when the server closes.
	hub    *hub
	base   context.Context
	cancel context.CancelFunc
	// bots are the battles whose opponent is acting (opponent.go), and thinkers admits
	// Limits.Opponents of them to think at once.
	botMu    sync.Mutex
	bots     map[string]bool
	botWG    sync.WaitGroup
	thinkers *semaphore.Weighted
}

// NewServer returns a server over store that logs each request to logger, within
// limits (see DefaultLimits; zero fields take their defaults).
func NewServer(store volley.Store, logger *slog.Logger, limits Limits) *Server {
	l := limits.withDefaults()
	s := &Server{
		store: store, logger: logger, limits: l,
		NewSeed: func() (dice.Seed, error) { return dice.NewSeed(rand.Reader) }, NewToken: randomToken, Now: time.Now,
		cache:    newCache(l.CacheBytes),
		inFlight: semaphore.NewWeighted(int64(l.InFlight)),
		heavy:    semaphore.NewWeighted(int64(l.Heavy)),
		rebuilds: semaphore.NewWeighted(int64(l.Rebuilds)),
		thinkers: semaphore.NewWeighted(int64(l.Opponents)),
	}
	s.base, s.cancel = context.WithCancel(context.Background())
	s.hub = newHub()
	s.hub.load = s.load
	if ln, ok := store.(listener); ok {
		// Actions stored through other servers wake this server's streams.
		go func() {
			if err := ln.Listen(s.base, s.hub.wake); err != nil {
				s.logger.Error("listening for other servers' actions", "error", err)
			}
		}()
	}
	s.clients = newClients(l, func() time.Time { return s.Now() })
	m := http.NewServeMux()
	pg := page()
	m.Handle("GET /{$}", pg)
	m.Handle("GET /web/", pg)
	m.HandleFunc("GET /api/examples", s.exampleList)
	m.HandleFunc("GET /api/demos", s.demoList)
	m.HandleFunc("GET /api/examples/{name...}", s.example)
	m.HandleFunc("GET /api/rulesets", s.rulesets)
	m.HandleFunc("GET /api/schema", s.schema)
	m.HandleFunc("GET /api/schema/{system}", s.schema)
	m.HandleFunc("GET /api/new/{system}", s.starter)
	m.HandleFunc("POST /api/check", s.check)
	m.HandleFunc("GET /api/key", s.publicKey)
	m.HandleFunc("GET /api/battles", s.listBattles)
	m.HandleFunc("POST /api/battles", s.createBattle)
	m.HandleFunc("GET /api/battles/{id}", s.getBattle)
	m.HandleFunc("GET /api/battles/{id}/aim", s.aim)
	m.HandleFunc("POST /api/battles/{id}/aim", s.aim)
	m.HandleFunc("GET /api/battles/{id}/odds", s.odds)
	m.HandleFunc("POST /api/battles/{id}/odds", s.odds)
	m.HandleFunc("GET /api/battles/{id}/advice", s.advice)
	m.HandleFunc("GET /api/battles/{id}/danger", s.danger)
	m.HandleFunc("GET /api/battles/{id}/position", s.position)
	m.HandleFunc("POST /api/battles/{id}/actions", s.postAction)
	m.HandleFunc("GET /api/battles/{id}/log", s.log)
	m.HandleFunc("POST /api/battles/{id}/end", s.end)
	m.HandleFunc("POST /api/battles/{id}/tickets", s.tickets)
	m.HandleFunc("GET /api/battles/{id}/events", s.events)
	m.HandleFunc("GET /api/battles/{id}/verify", s.verify)
	m.HandleFunc("POST /api/battles/{id}/preview", s.preview)
	m.HandleFunc("GET /api/battles/{id}/scenario", s.scenarioOf)
	m.HandleFunc("GET /api/battles/{id}/replay", s.replayAt)
	m.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, volley.Errorf(volley.ENOTFOUND, "no such API path: %s %s", r.Method, r.URL.Path))
	})
	s.mux = m
	return s
}

// Close ends the server's event streams and stops listening to the store. Call it before
// shutting the HTTP server down, which waits for open requests (streams among them).
func (s *Server) Close() {
	s.cancel()
	s.botWG.Wait() // an opponent mid-action stops at its context's end
}

// Streams is the number of event streams open.
func (s *Server) Streams() int { return s.hub.streams() }

// Limits returns the limits the server runs with, defaults filled in.
func (s *Server) Limits() Limits { return s.limits }

// Handler is the server with its safety nets: a request's deadline and size limits, its
// client's share of the requests in flight, a recovered panic answered as 500 (a bug,
// never the client's input), and an access log of what each client actually received.
// How a request then waits for its turn to work is in admission.go.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &recorder{ResponseWriter: w, status: http.StatusOK}
		// An event stream has no deadline and takes no request slot: it has bounds of its
		// own (Limits.Streams…) and mostly waits.
		api := strings.HasPrefix(r.URL.Path, "/api/")
		stream := r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/events")
		ctx, cancel := context.WithTimeout(r.Context(), s.limits.RequestTimeout)
		if stream {
			ctx, cancel = context.WithCancel(r.Context())
		}
		defer cancel()
		client := clientKey(r)
		adm := &admission{s: s, client: client}
		rec.started = adm.answered // the work is done once the answer starts, but for a progress stream's
		defer adm.release()
		r = r.WithContext(context.WithValue(ctx, admissionKey{}, adm))
		body := &bodyWatch{ReadCloser: http.MaxBytesReader(rec, r.Body, s.limits.MaxBodyBytes), eof: r.ContentLength == 0}
		r.Body = body
		rec.body = body
		defer func() {
			p := recover()
			aborted := p == http.ErrAbortHandler // the standard way to drop a connection
			if p != nil && !aborted {
				s.logger.Error("panic", "method", r.Method, "path", r.URL.Path, "client", client, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				if !rec.wrote {
					s.fail(rec, r, volley.Errorf(volley.EINTERNAL, "internal error"))
				}
			}
			// What the client received: nothing at all if it had gone, or if writing the
			// answer failed, or if the answer was cut off (aborted). The answer is flushed
			// here, so that a write the connection's deadline refuses (the server's write
			// timeout) is seen, not left to fail unseen after the handler returns.
			if rec.wrote && rec.writeErr == nil && !aborted {
				if err := http.NewResponseController(w).Flush(); err != nil {
					rec.writeErr = err
				}
			}
			delivered := rec.wrote && rec.writeErr == nil && r.Context().Err() != context.Canceled && !aborted
			// Every request has its line, a cut-off answer too (issue 34, break 7).
			s.logger.Info("request", "method", r.Method, "path", r.URL.Path, "client", client,
				"status", rec.status, "bytes", rec.bytes, "delivered", delivered,
				"duration", time.Since(start).Round(time.Microsecond))
			if aborted {
				panic(p) // net/http drops the connection, and logs nothing of it
			}
		}()
		// The page's files cost nothing; every API request counts against its client's
		// requests in flight while it is read, worked on and answered.
		if api && !stream {
			if err := s.clients.enter(client); err != nil {
				s.fail(rec, r, err)
				return
			}
			defer s.clients.leave(client)
		}
		s.mux.ServeHTTP(rec, r)
	})
}

// recorder remembers what a handler wrote, for the access log, and calls started when
// the answer begins.
type recorder struct {
	http.ResponseWriter
	status   int
	bytes    int
	wrote    bool
	writeErr error
	started  func()
	body     *bodyWatch
}

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
		if r.started != nil {
			r.started()
		}
		if r.body != nil && !r.body.eof {
			// An answer given before its body was read (a refused token, a body too slow):
			// the connection closes after it, rather than net/http reading the rest of the
			// body first to keep it open, which a client trickling a body would drag out.
			r.Header().Set("Connection", "close")
		}
		r.ResponseWriter.WriteHeader(code)
	}
}

// Unwrap gives http.ResponseController the writer underneath, to flush an event stream
// and lift its write deadline.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

func (r *recorder) Write(b []byte) (int, error) {
	if !r.wrote {
		r.WriteHeader(http.StatusOK)
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	if err != nil && r.writeErr == nil {
		r.writeErr = err
	}
	return n, err
}

// bodyWatch notes when a request's body has been read to its end.
type bodyWatch struct {
	io.ReadCloser
	eof bool
}

func (b *bodyWatch) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.eof = true
	}
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
	// RetryAfter is, for a busy server or a client over its rate, the seconds to wait
	// before sending the request again (also in the Retry-After header).
	RetryAfter int `json:"retry_after,omitempty"`
	// Need is, for an action of a battle rolled by hand sent without a die it needs
	// (needs_roll), the next die: its place, sides and purpose.
	Need *dice.Wanted `json:"need,omitempty"`
}

// retryError is an error that says when to try again.
type retryError struct {
	err   *volley.Error
	after time.Duration
}

func (e *retryError) Error() string { return e.err.Error() }
func (e *retryError) Unwrap() error { return e.err }

// busy is the error of work that could not be done in time: 503, try again in a second.
func busy(why string) error {
	return &retryError{volley.Errorf(volley.EUNAVAILABLE, "%s; try again shortly", why), time.Second}
}

// statusOfCode maps error codes to HTTP statuses, in this one place.
var statusOfCode = map[string]int{
	volley.EINVALID:      http.StatusBadRequest,
	volley.ENOTSUPPORTED: http.StatusBadRequest,
	volley.EUNAUTHORIZED: http.StatusUnauthorized,
	volley.EFORBIDDEN:    http.StatusForbidden,
	volley.ENOTFOUND:     http.StatusNotFound,
	volley.ECONFLICT:     http.StatusConflict,
	volley.ETOOLARGE:     http.StatusRequestEntityTooLarge,
	volley.ETOOMANY:      http.StatusTooManyRequests,
	volley.ETOOSLOW:      http.StatusRequestTimeout,
	volley.EUNAVAILABLE:  http.StatusServiceUnavailable,
	volley.ENEEDROLL:     http.StatusUnprocessableEntity,
}

// statusOf is the HTTP status of an error code: 500 for a code statusOfCode does not
// name (EINTERNAL, or none).
func statusOf(code string) int {
	if status, ok := statusOfCode[code]; ok {
		return status
	}
	return http.StatusInternalServerError
}

// fail answers with err as JSON. An internal error says nothing of the machine to the
// client, and is logged in full for the operator. Work stopped by the request's deadline
// is a 503 with a Retry-After, never a 500: the same request may well succeed later.
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
	var need *volley.NeedRoll
	if errors.As(err, &need) {
		e.Field, e.Need = volley.DiceKey, &need.Die
	}
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		e = apiError{Code: volley.ETOOLARGE, Message: fmt.Sprintf("the body is larger than %d bytes", tooBig.Limit), Field: "body"}
	}
	if e.Code == volley.EUNAVAILABLE && ve == nil {
		e.Message = "the request ran out of time before its work was done; try again shortly"
	}
	var retry *retryError
	switch {
	case errors.As(err, &retry):
		e.RetryAfter = max(1, int((retry.after+time.Second-1)/time.Second))
	case e.Code == volley.EUNAVAILABLE:
		e.RetryAfter = 1
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	if e.Code == volley.EINTERNAL {
		s.logger.Error("internal error", "method", r.Method, "path", r.URL.Path, "error", err.Error())
	}
	if e.Code == volley.EUNAUTHORIZED {
		w.Header().Set("WWW-Authenticate", `Bearer realm="volley"`)
	}
	writeJSON(w, statusOf(e.Code), e)
}

// writeJSON answers with v as indented JSON. v is encoded whole before anything is sent,
// so that a value JSON cannot hold (a NaN or an infinity a computation let through) is
// never an empty or cut-off answer under a 200: it is a bug, and panics before the answer
// starts, which Handler logs and answers with a 500.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(fmt.Errorf("http: the answer cannot be written as JSON: %w", err))
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes()) // the client has gone if this fails; the access log says so
}

func randomToken() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("http: no randomness for a token: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}
