package http

import (
	"bytes"
	"cmp"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/volley-wargames/volley"
)

// A battle's event stream is Server-Sent Events: every action appended to its log (its
// seq as the event's id, its side, body, outcome and whose turn it is after it), then the
// end of the battle with its revealed seed. The log is the truth: an event is read from
// the store, never made up from a notification, so a client that comes back with
// Last-Event-ID gets the next seq on, and sees nothing twice.
//
// One server's streams of a battle share a feed: when the battle changes, one read of
// the store serves them all. The battle changes when this server stores an action or
// ends it, or, with PostgreSQL, when any server does (LISTEN/NOTIFY: see listener). With
// SQLite one process serves the battle, and its own changes are all there are.

// listener is implemented by stores that tell every server of the changes made through
// any of them (postgres.DB). notify("") means anything may have changed.
type listener interface {
	Listen(ctx context.Context, notify func(battleID string)) error
}

// feedEvents bounds the events a feed keeps for its streams, beside its bytes
// (Limits.FeedBytes, Limits.FeedMemory); a stream further behind reads the store itself,
// a page at a time.
const feedEvents = 1024

// maxEventID is the largest last event id a client may claim: a seq no log reaches.
const maxEventID = math.MaxInt32

// event is one server-sent event, written out once and shared by every stream.
type event struct {
	seq  int
	text []byte // "id: …\nevent: …\ndata: …\n\n"
}

// feed is one battle's events on this server, for its streams.
type feed struct {
	id string
	// subs counts the streams open on it, spectators its spectators' and sides each
	// side's; the hub's lock guards all three.
	subs, spectators int
	sides            map[string]int

	mu sync.Mutex
	// events are consecutive: events[i].seq == first+i. next is the seq the feed reads
	// next from the store.
	events      []event
	first, next int
	bytes       int    // of events' texts
	end         []byte // the end event, once the battle has ended
	// changed is closed, and replaced, whenever events or end change.
	changed chan struct{}
	// loading is true while a read of the store runs; again asks it to read once more.
	loading, again bool
	started        bool // next has been set
}

// hub holds the feeds of the battles with open streams, and counts the streams: in all,
// by role (spectators and players draw on separate pools), by client address and by
// ticket.
type hub struct {
	mu                  sync.Mutex
	feeds               map[string]*feed
	clients, tickets    map[string]int
	total               int
	spectators, players int
	// load reads a feed's new events from the store (Server.load).
	load func(f *feed)
}

func newHub() *hub {
	return &hub{feeds: map[string]*feed{}, clients: map[string]int{}, tickets: map[string]int{}}
}

// stream is who opens a stream: from which address, with which ticket (its hash), in
// which role (a side, or spectatorRole).
type stream struct {
	client, ticket, role string
}

// join opens a stream of battle id, within the limits, and returns its feed; leave
// closes it. A player's stream draws on the players' pool and its side's places in the
// battle, a spectator's on the spectators' pool and the battle's spectator places, so
// that no number of spectators can keep a battle's players from following it.
func (h *hub) join(id string, st stream, l Limits) (*feed, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	f := h.feeds[id]
	player := st.role != spectatorRole
	switch {
	case player && h.players >= l.PlayerStreams:
		return nil, busy(fmt.Sprintf("the server has as many players' event streams open as it takes (%d)", l.PlayerStreams))
	case !player && h.spectators >= l.Streams:
		return nil, busy(fmt.Sprintf("the server has as many spectators' event streams open as it takes (%d)", l.Streams))
	case player && f != nil && f.sides[st.role] >= l.StreamsPerSide:
		return nil, volley.Errorf(volley.ETOOMANY, "%s has as many event streams open on this battle as a side may (%d): close one", st.role, l.StreamsPerSide)
	case !player && f != nil && f.spectators >= l.StreamsPerBattle:
		return nil, volley.Errorf(volley.ETOOMANY, "this battle has as many spectators' event streams open as it takes (%d)", l.StreamsPerBattle)
	case h.clients[st.client] >= l.StreamsPerClient:
		return nil, volley.Errorf(volley.ETOOMANY, "your address has as many event streams open as it may (%d): close one", l.StreamsPerClient)
	case h.tickets[st.ticket] >= l.StreamsPerTicket:
		return nil, volley.Errorf(volley.ETOOMANY, "this ticket has as many event streams open as one may (%d): close one, or ask for another ticket", l.StreamsPerTicket)
	}
	if f == nil {
		f = &feed{id: id, changed: make(chan struct{}), sides: map[string]int{}}
		h.feeds[id] = f
	}
	f.subs++
	if player {
		f.sides[st.role]++
		h.players++
	} else {
		f.spectators++
		h.spectators++
	}
	h.clients[st.client]++
	h.tickets[st.ticket]++
	h.total++
	return f, nil
}

func (h *hub) leave(f *feed, st stream) {
	h.mu.Lock()
	defer h.mu.Unlock()
	f.subs--
	if st.role != spectatorRole {
		f.sides[st.role]--
		h.players--
	} else {
		f.spectators--
		h.spectators--
	}
	if f.subs == 0 && h.feeds[f.id] == f {
		delete(h.feeds, f.id)
	}
	if h.clients[st.client]--; h.clients[st.client] <= 0 {
		delete(h.clients, st.client)
	}
	if h.tickets[st.ticket]--; h.tickets[st.ticket] <= 0 {
		delete(h.tickets, st.ticket)
	}
	h.total--
}

// feedBudget is the bytes of events one feed may keep now: Limits.FeedBytes, or its
// share of Limits.FeedMemory among the feeds open.
func (h *hub) feedBudget(l Limits) int {
	h.mu.Lock()
	n := max(1, len(h.feeds))
	h.mu.Unlock()
	return min(l.FeedBytes, l.FeedMemory/n)
}

// wake tells the feed of battle id (every feed, for "") that the battle may have
// changed: it reads the store, once however many wakes come while it reads.
func (h *hub) wake(id string) {
	h.mu.Lock()
	var fs []*feed
	if id == "" {
		for _, f := range h.feeds {
			fs = append(fs, f)
		}
	} else if f := h.feeds[id]; f != nil {
		fs = append(fs, f)
	}
	h.mu.Unlock()
	for _, f := range fs {
		f.mu.Lock()
		if f.loading {
			f.again = true
			f.mu.Unlock()
			continue
		}
		f.loading = true
		f.mu.Unlock()
		go h.load(f)
	}
}

// streams counts the open streams, for tests and the benchmark.
func (h *hub) streams() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.total
}

// load reads a feed's new actions from the store until no wake is pending, and tells
// its streams. A failed read is logged and tried again a second later.
func (s *Server) load(f *feed) {
	for {
		ctx, cancel := context.WithTimeout(s.base, s.limits.RequestTimeout)
		err := s.loadOnce(ctx, f)
		cancel()
		if err != nil && s.base.Err() == nil {
			s.logger.Warn("event stream: reading the battle failed", "battle", f.id, "error", err)
			time.AfterFunc(time.Second, func() { s.hub.wake(f.id) })
		}
		f.mu.Lock()
		if !f.again {
			f.loading = false
			f.mu.Unlock()
			return
		}
		f.again = false
		f.mu.Unlock()
	}
}

// actionEvent is an action's event data.
type actionEvent struct {
	Seq     int             `json:"seq"`
	Side    string          `json:"side"`
	Action  string          `json:"action"`
	Outcome json.RawMessage `json:"outcome"`
	// Turn is whose turn it is after the action, in systems that keep turns.
	Turn *volley.Turn `json:"turn,omitempty"`
	// Head is the chain's head after the action, signed by the server.
	Head *Head `json:"head,omitempty"`
}

// endEvent is the end event's data: the revealed seed, to check the dice with, and the
// chain's last head.
type endEvent struct {
	Actions    int    `json:"actions"`
	Seed       string `json:"seed"`
	Generator  string `json:"generator"`
	Commitment string `json:"commitment"`
	Head       *Head  `json:"head,omitempty"`
}

// loadOnce reads the feed's new actions from the store, a page at a time, and keeps
// the last of their events within the feed's budget.
func (s *Server) loadOnce(ctx context.Context, f *feed) error {
	f.mu.Lock()
	from, started := f.next, f.started
	f.mu.Unlock()
	if !started {
		return nil // no stream has said where it starts yet
	}
	key, err := s.signingKey(ctx)
	if err != nil {
		return err
	}
	for {
		acts, err := s.store.Actions(ctx, f.id, from, s.limits.PageBytes)
		if err != nil {
			return err
		}
		var evs []event
		if len(acts) > 0 {
			// Whose turn it is after each action, and the chain's head if the store
			// keeps none: the folded battle, brought up to date.
			l, done, err := s.openRead(ctx, f.id)
			if err != nil {
				return err
			}
			for _, a := range acts {
				evs = append(evs, actionEventOf(a, l.turnAfter(a.Seq), headOf(key, a, l.headAfter(&a))))
			}
			done()
		}
		var end []byte
		if len(acts) == 0 || !pageFull(acts, s.limits.PageBytes) {
			rec, err := s.store.Battle(ctx, f.id)
			if err != nil {
				return err
			}
			if rec.Ended {
				// The last head: the ended battle's fold holds every action.
				l, done, err := s.openRead(ctx, f.id)
				if err != nil {
					return err
				}
				end = endEventOf(rec, from+len(acts), signed(key, rec.ID, l.next, l.head))
				done()
			}
		}
		f.keep(evs, end, s.hub.feedBudget(s.limits))
		if end != nil || len(acts) == 0 || !pageFull(acts, s.limits.PageBytes) {
			return nil
		}
		from += len(acts)
	}
}

// keep appends new events (and the end, once it comes) to the feed, drops the oldest
// beyond its budget of events and bytes, and tells its streams.
func (f *feed) keep(evs []event, end []byte, budget int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, e := range evs {
		if e.seq == f.next { // a second reader may have got here first
			f.events = append(f.events, e)
			f.bytes += len(e.text)
			f.next++
		}
	}
	n := 0
	for n < len(f.events) && (len(f.events)-n > feedEvents || f.bytes > budget) {
		f.bytes -= len(f.events[n].text)
		n++
	}
	if n > 0 {
		f.events = append(f.events[:0], f.events[n:]...)
		f.first += n
	}
	if end != nil && f.end == nil {
		f.end = end
	}
	if len(evs) > 0 || end != nil {
		close(f.changed)
		f.changed = make(chan struct{})
	}
}

// actionEventOf writes an action's event. Its JSON keeps <, > and & as they are: an
// action's body may hold any text, and escaping it would multiply its bytes.
func actionEventOf(a volley.ActionRecord, turn *volley.Turn, head *Head) event {
	data, _ := marshalJSON(actionEvent{Seq: a.Seq, Side: a.Side, Action: a.Body, Outcome: json.RawMessage(a.Outcome), Turn: turn, Head: head})
	return event{seq: a.Seq, text: fmt.Appendf(nil, "id: %d\nevent: action\ndata: %s\n\n", a.Seq, bytes.TrimRight(data, "\n"))}
}

// headOf is the signed head after action a, whose chain is hash; nil when it is not
// known (an action stored before chains, which the fold no longer keeps).
func headOf(key ed25519.PrivateKey, a volley.ActionRecord, hash string) *Head {
	if hash == "" {
		return nil
	}
	return signed(key, a.BattleID, a.Seq+1, hash)
}

func endEventOf(rec *volley.BattleRecord, actions int, head *Head) []byte {
	data, _ := marshalJSON(endEvent{Actions: actions, Seed: rec.Seed.String(), Generator: string(rec.Seed.Generator), Commitment: rec.Commitment, Head: head})
	return fmt.Appendf(nil, "event: end\ndata: %s\n\n", bytes.TrimRight(data, "\n"))
}

// ticketBytes is the size of a stream ticket's secret: 128 bits, as for tokens.
const ticketBytes = 16

// tickets answers POST /api/battles/{id}/tickets: a short-lived ticket to the battle's
// event stream, for the holder of any of its tokens. EventSource sends no headers, so the
// ticket goes in the stream's URL instead of the token, which never does.
func (s *Server) tickets(w http.ResponseWriter, r *http.Request) {
	rec, err := s.readRecord(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.work(r.Context()); err != nil {
		s.fail(w, r, err)
		return
	}
	toks, _ := bearer(r)
	role, _ := whose(rec, toks[0])
	if role == spectatorRole {
		role = "spectator"
	}
	ticket := s.NewToken()
	now := s.Now()
	t := &volley.TicketRecord{Hash: hashToken(ticket), BattleID: rec.ID, Role: role, Expires: now.Add(s.limits.TicketTTL)}
	if err := s.store.CreateTicket(r.Context(), t, now); err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"ticket": ticket, "role": role,
		"expires_in": int(s.limits.TicketTTL / time.Second),
		"events":     "/api/battles/" + rec.ID + "/events?ticket=" + ticket})
}

// events answers GET /api/battles/{id}/events?ticket=…: the battle's Server-Sent Events.
// A stream starts after the last action the client has (Last-Event-ID, or the
// last_event_id parameter for a new EventSource), or from now; it ends when the battle
// ends, after StreamIdle without an event, when the client reads slower than
// StreamWriteTimeout allows, or when the server closes. What it holds at any moment is
// bounded: events shared with the battle's other streams, or one page of the store
// (Limits.PageBytes) when it is catching up.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	id, err := s.allowBattle(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	last, err := lastEventID(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ticket, role, err := s.checkTicket(r, id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	st := stream{client: clientKey(r), ticket: hashToken(ticket), role: role}
	f, err := s.hub.join(id, st, s.limits)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	defer s.hub.leave(f, st)
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	stop := context.AfterFunc(s.base, cancel) // the server closing ends every stream
	defer stop()
	// Where the stream starts: after the client's last event, or at the log's end now. A
	// client cannot start past the log's end, so that a feed it starts waits for no
	// action that will never come.
	l, done, err := s.openRead(ctx, id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	logEnd := l.next
	done()
	next := logEnd
	if last >= -1 {
		next = min(last+1, logEnd)
	}
	f.mu.Lock()
	if !f.started {
		f.started, f.first, f.next = true, next, next
	}
	f.mu.Unlock()
	rc := http.NewResponseController(w)
	// A stream outlives the server's read and write timeouts: lift the read deadline
	// (it also bounds the server's watch for the client going away), and give each
	// write a deadline of its own.
	_ = rc.SetReadDeadline(time.Time{})
	send := func(texts ...[]byte) bool {
		_ = rc.SetWriteDeadline(time.Now().Add(s.limits.StreamWriteTimeout))
		for _, t := range texts {
			if _, err := w.Write(t); err != nil {
				return false
			}
		}
		return rc.Flush() == nil
	}
	role = cmp.Or(role, "spectator")
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // proxies must not hold events back
	hello, _ := json.Marshal(map[string]any{"next": next, "role": role})
	if !send(fmt.Appendf(nil, "retry: %d\nevent: hello\ndata: %s\n\n", streamRetryMillis, hello)) {
		return
	}
	// A wake now reads what was stored between the client's last event and the feed's
	// start (the feed itself may have started later: read below from the store).
	s.hub.wake(id)
	heartbeat := time.NewTicker(s.limits.StreamHeartbeat)
	defer heartbeat.Stop()
	idle := time.NewTimer(s.limits.StreamIdle)
	defer idle.Stop()
	for {
		f.mu.Lock()
		first := f.first
		var out [][]byte
		for i := max(next-f.first, 0); i < len(f.events); i++ {
			out = append(out, f.events[i].text)
		}
		upTo, end, changed := f.next, f.end, f.changed
		f.mu.Unlock()
		if next < first { // behind the feed's memory: catch up from the store, a page at a time
			key, err := s.signingKey(ctx)
			if err != nil {
				return
			}
			acts, err := s.store.Actions(ctx, id, next, s.limits.PageBytes)
			if err != nil {
				return
			}
			size := 0
			for i := range acts {
				size += acts[i].Size()
			}
			if s.clients.pace(ctx, st.client, size) != nil {
				return // at the client's byte rate (Limits.ReadBytes)
			}
			out = nil
			for _, a := range acts {
				if a.Seq >= first {
					break
				}
				out = append(out, actionEventOf(a, nil, headOf(key, a, a.Chain)).text)
			}
			upTo, end = next+len(out), nil
			changed = nil // read the feed again straight away
		}
		if !send(out...) {
			return // gone, or reading slower than StreamWriteTimeout allows
		}
		if len(out) > 0 {
			next = upTo
			idle.Reset(s.limits.StreamIdle)
		}
		if end != nil && next >= upTo {
			send(end)
			return
		}
		if changed == nil {
			continue
		}
		select {
		case <-changed:
		case <-heartbeat.C:
			if !send([]byte(": ping\n\n")) {
				return
			}
		case <-idle.C:
			return // the client reconnects with Last-Event-ID
		case <-ctx.Done():
			return
		}
	}
}

// streamRetryMillis is how long a browser waits before reconnecting a dropped stream.
const streamRetryMillis = 1000

// checkTicket authenticates an event stream by its ticket, and returns the ticket and
// its role: a side, or spectatorRole.
func (s *Server) checkTicket(r *http.Request, id string) (string, string, error) {
	ticket := r.URL.Query().Get("ticket")
	bad := &volley.Error{Code: volley.EUNAUTHORIZED, Field: "ticket",
		Message: "an event stream needs a ticket (POST /api/battles/{id}/tickets with a token), and this one is missing, unknown or expired: ask for a new one"}
	if len(ticket) != 2*ticketBytes {
		return "", "", bad
	}
	t, err := s.store.Ticket(r.Context(), hashToken(ticket))
	if volley.ErrorCode(err) == volley.ENOTFOUND {
		return "", "", bad
	}
	if err != nil {
		return "", "", err
	}
	if t.BattleID != id || s.Now().After(t.Expires) {
		return "", "", bad
	}
	if t.Role == "spectator" {
		return ticket, spectatorRole, nil
	}
	return ticket, t.Role, nil
}

// lastEventID is the seq of the last event a client has: the Last-Event-ID header of a
// browser reconnecting by itself, else the last_event_id parameter of a page opening a
// new stream. -2 when it gives none (start from now). It lies between -1 (none yet) and
// maxEventID.
func lastEventID(r *http.Request) (int, error) {
	v := r.Header.Get("Last-Event-ID")
	field := "Last-Event-ID"
	if v == "" {
		v, field = r.URL.Query().Get("last_event_id"), "last_event_id"
	}
	if v == "" {
		return -2, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < -1 || n > maxEventID {
		return 0, &volley.Error{Code: volley.EINVALID, Field: field, Message: fmt.Sprintf(
			"the last event's id is an action's seq, from 0 to %d (or -1 for none), not %s", maxEventID, strconv.Quote(v))}
	}
	return n, nil
}
