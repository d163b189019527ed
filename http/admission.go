package http

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/volley-wargames/volley"
)

// How requests share the server. A request passes these gates in order, each bounded:
//
//  1. its client's rate (a token bucket per address, Limits.Reads or Limits.Creates);
//  2. its client's requests in flight (Limits.ClientInFlight), counted from the moment it
//     is read to the moment its answer is written, so that one address holding
//     connections open (slow bodies, slow reads) holds only its own share;
//  3. its token, checked before its body is read, so that a request without the right to
//     act costs a look-up and no upload;
//  4. its body, read no slower than Limits.MinUploadRate after Limits.UploadGrace;
//  5. a request slot (Limits.InFlight) for its work: store reads, folding, light
//     computation. Heavy work gives the slot back and waits in a queue of its own
//     (Limits.HeavyQueue, at most Limits.HeavyPerClient from one client) for one of the
//     Limits.Heavy places, so that heavy requests waiting never hold the slots light ones
//     need. What a request's work costs, light or heavy, is priced before it starts
//     (price.go). A request waiting for a battle being rebuilt holds no slot either;
//  6. its answer: the slot or place is given back as soon as the answer starts, so that a
//     client reading slowly holds neither; a danger map that reports its progress as it
//     works gives its place back when the work ends, before it writes the map.

// admission is what one API request holds of the server's shared places: a request slot
// or a heavy place, never both. It lives in the request's context; release gives back
// whatever it holds, and may be called any number of times.
type admission struct {
	s      *Server
	client string

	mu    sync.Mutex
	slot  bool // holds one of Limits.InFlight
	heavy bool // holds one of Limits.Heavy, and counts in the client's heavy requests
	// working keeps slot and heavy when the answer starts (workWhileAnswering).
	working bool
}

type admissionKey struct{}

func admissionOf(ctx context.Context) *admission {
	a, _ := ctx.Value(admissionKey{}).(*admission)
	return a
}

// answered is called when the answer starts: what the request holds is given back,
// unless its work goes on as it answers (a danger map that reports its progress), which
// gives it back itself when the work ends.
func (a *admission) answered() {
	a.mu.Lock()
	working := a.working
	a.mu.Unlock()
	if !working {
		a.release()
	}
}

// workWhileAnswering keeps what the request holds past the start of its answer, until
// release.
func (a *admission) workWhileAnswering() {
	if a == nil {
		return
	}
	a.mu.Lock()
	a.working = true
	a.mu.Unlock()
}

// release gives back what the request holds.
func (a *admission) release() {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.slot {
		a.s.inFlight.Release(1)
		a.slot = false
	}
	if a.heavy {
		a.s.heavy.Release(1)
		a.s.clients.heavyDone(a.client)
		a.heavy = false
	}
}

// work takes a request slot for the request's work, waiting for one until its deadline
// (then 503). A request that holds a slot or a heavy place already keeps it.
func (s *Server) work(ctx context.Context) error {
	a := admissionOf(ctx)
	if a == nil {
		return nil // not an API request through Handler (a test calling a method directly)
	}
	a.mu.Lock()
	held := a.slot || a.heavy
	a.mu.Unlock()
	if held {
		return nil
	}
	if err := s.inFlight.Acquire(ctx, 1); err != nil {
		return busy("the server is working on as many requests as it takes at once")
	}
	a.mu.Lock()
	a.slot = true
	a.mu.Unlock()
	return nil
}

// pause gives back the request's slot while it waits for something that is not work (a
// battle being rebuilt), and returns what takes a slot again (work) when the wait is over.
// A request holding a heavy place keeps it.
func (s *Server) pause(ctx context.Context) (resume func() error) {
	a := admissionOf(ctx)
	if a == nil {
		return func() error { return nil }
	}
	a.mu.Lock()
	held := a.slot
	if held {
		s.inFlight.Release(1)
		a.slot = false
	}
	a.mu.Unlock()
	if !held {
		return func() error { return nil }
	}
	return func() error { return s.work(ctx) }
}

// heavyTurn moves the request from its request slot to the queue for heavy work, and
// waits there until a place is free or its deadline passes (503). The queue is bounded
// for the whole server (Limits.HeavyQueue) and per client (Limits.HeavyPerClient); a
// request over either bound is refused at once (503, 429), before it waits at all.
func (s *Server) heavyTurn(ctx context.Context) error {
	a := admissionOf(ctx)
	if a == nil {
		return s.heavy.Acquire(ctx, 1)
	}
	a.mu.Lock()
	if a.heavy {
		a.mu.Unlock()
		return nil
	}
	if a.slot {
		s.inFlight.Release(1)
		a.slot = false
	}
	a.mu.Unlock()
	if err := s.clients.heavyStart(a.client, s.limits); err != nil {
		return err
	}
	if err := s.heavyWait(ctx); err != nil {
		s.clients.heavyDone(a.client)
		return err
	}
	a.mu.Lock()
	a.heavy = true
	a.mu.Unlock()
	return nil
}

// heavyWait waits for a place among the heavy requests, within the bound on those
// waiting.
func (s *Server) heavyWait(ctx context.Context) error {
	s.heavyMu.Lock()
	if s.heavyWaiting >= s.limits.HeavyQueue {
		s.heavyMu.Unlock()
		return busy(fmt.Sprintf("the server has as much heavy work waiting as it queues (%d)", s.limits.HeavyQueue))
	}
	s.heavyWaiting++
	s.heavyMu.Unlock()
	err := s.heavy.Acquire(ctx, 1)
	s.heavyMu.Lock()
	s.heavyWaiting--
	s.heavyMu.Unlock()
	if err != nil {
		return busy("the server is doing as much heavy work as it takes at once")
	}
	return nil
}

// clients keeps, per client address, its rates and what it has in flight. Rates are
// remembered for Limits.Clients clients, the longest idle forgotten first; counts only
// while the client has something in flight.
type clients struct {
	limits Limits
	now    func() time.Time

	mu       sync.Mutex
	buckets  map[string]*list.Element // of *clientRates
	idle     *list.List               // most recently used at the front
	inFlight map[string]int
	heavy    map[string]int
}

// clientRates are one client's token buckets.
type clientRates struct {
	key                   string
	creates, reads, bytes *rate.Limiter
}

func newClients(l Limits, now func() time.Time) *clients {
	return &clients{limits: l, now: now, buckets: map[string]*list.Element{}, idle: list.New(),
		inFlight: map[string]int{}, heavy: map[string]int{}}
}

// rates returns the client's buckets, made full for a client not seen (or forgotten).
func (c *clients) rates(key string) *clientRates {
	if e, ok := c.buckets[key]; ok {
		c.idle.MoveToFront(e)
		return e.Value.(*clientRates)
	}
	if c.idle.Len() >= c.limits.Clients {
		oldest := c.idle.Back()
		delete(c.buckets, oldest.Value.(*clientRates).key)
		c.idle.Remove(oldest)
	}
	r := &clientRates{key: key,
		creates: rate.NewLimiter(rate.Limit(c.limits.Creates.PerSecond), c.limits.Creates.Burst),
		reads:   rate.NewLimiter(rate.Limit(c.limits.Reads.PerSecond), c.limits.Reads.Burst),
		bytes:   rate.NewLimiter(rate.Limit(c.limits.ReadBytes.PerSecond), c.limits.ReadBytes.Burst)}
	c.buckets[key] = c.idle.PushFront(r)
	return r
}

// take spends one token of the client's bucket (creates, or reads). When there is none
// it spends nothing and says how long until there is one.
func (c *clients) take(key string, creates bool) (bool, time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.rates(key)
	lim := r.reads
	if creates {
		lim = r.creates
	}
	now := c.now()
	res := lim.ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return false, d
	}
	return true, 0
}

// pace waits until the client may be sent n more bytes of a log (Limits.ReadBytes), or
// until ctx ends. n above the burst waits for the burst.
func (c *clients) pace(ctx context.Context, key string, n int) error {
	c.mu.Lock()
	lim := c.rates(key).bytes
	c.mu.Unlock()
	return lim.WaitN(ctx, min(n, lim.Burst()))
}

// enter counts a request of the client in flight, or refuses it (429) when the client
// has as many as it may.
func (c *clients) enter(key string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.inFlight[key] >= c.limits.ClientInFlight {
		return &retryError{volley.Errorf(volley.ETOOMANY, "your address has %d requests in flight, as many as it may: wait for an answer", c.limits.ClientInFlight), time.Second}
	}
	c.inFlight[key]++
	return nil
}

func (c *clients) leave(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.inFlight[key]--; c.inFlight[key] <= 0 {
		delete(c.inFlight, key)
	}
}

// heavyStart counts a heavy request of the client, waiting or working, or refuses it
// (429) when the client has as many as it may.
func (c *clients) heavyStart(key string, l Limits) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.heavy[key] >= l.HeavyPerClient {
		return &retryError{volley.Errorf(volley.ETOOMANY, "your address has %d heavy requests (advice, danger maps, large odds) waiting or working, as many as it may: wait for an answer", l.HeavyPerClient), time.Second}
	}
	c.heavy[key]++
	return nil
}

func (c *clients) heavyDone(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.heavy[key]--; c.heavy[key] <= 0 {
		delete(c.heavy, key)
	}
}

// allow spends one token of the request's client, or returns the 429 to answer.
func (s *Server) allow(creates bool, r *http.Request) error {
	ok, wait := s.clients.take(clientKey(r), creates)
	if ok {
		return nil
	}
	what, rt := "requests", s.limits.Reads
	if creates {
		what, rt = "new battles", s.limits.Creates
	}
	return &retryError{volley.Errorf(volley.ETOOMANY, "too many %s from your address: at most %s; try again in %s",
		what, rt, (wait + time.Second - 1).Truncate(time.Second)), wait}
}

// readBody reads a request body of at most limit bytes, no slower than
// Limits.MinUploadRate once Limits.UploadGrace has passed: byte n must have arrived by
// UploadGrace + n/MinUploadRate after the reading began, and the whole body within the
// request's deadline. A slower client is answered 408
// and its connection closed, so that trickling a body holds nothing for long.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, limit int) ([]byte, error) {
	rc := http.NewResponseController(w)
	start := time.Now()
	rateOf := float64(s.limits.MinUploadRate)
	var body []byte
	buf := make([]byte, 0, min(limit+1, 64<<10))
	for len(body) <= limit {
		wait := min(s.limits.UploadGrace+time.Duration(float64(len(body)+1)/rateOf*float64(time.Second)), s.limits.RequestTimeout)
		due := start.Add(wait)
		_ = rc.SetReadDeadline(due)
		n, err := r.Body.Read(buf[:min(cap(buf), limit+1-len(body))])
		body = append(body, buf[:n]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			_ = rc.SetReadDeadline(time.Time{})
			var tooBig *http.MaxBytesError
			switch {
			case errors.As(err, &tooBig):
				return nil, err
			case errors.Is(err, os.ErrDeadlineExceeded):
				w.Header().Set("Connection", "close")
				return nil, &volley.Error{Code: volley.ETOOSLOW, Field: "body", Message: fmt.Sprintf(
					"the body arrived slower than %d bytes a second (after the first %s): send it at once", s.limits.MinUploadRate, s.limits.UploadGrace)}
			}
			return nil, volley.Errorf(volley.EINVALID, "cannot read the body: %v", err)
		}
	}
	// The rest of the connection's life (the answer, the next request) keeps the
	// server's own read timeout.
	_ = rc.SetReadDeadline(time.Time{})
	if len(body) > limit {
		return nil, &http.MaxBytesError{Limit: int64(limit)}
	}
	return checkBody(body)
}
