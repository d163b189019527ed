package http_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/volley-wargames/volley/servertest"
	"github.com/volley-wargames/volley/storetest"
)

// sseEvent is one server-sent event as a client reads it.
type sseEvent struct {
	ID, Name string
	Data     map[string]any
}

// sseStream is a client's open event stream.
type sseStream struct {
	resp   *http.Response
	events chan sseEvent
	cancel context.CancelFunc
}

// ticket asks for a stream ticket with a token.
func ticket(tb testing.TB, base, id, token string) string {
	tb.Helper()
	status, v := call(tb, "POST", base+"/api/battles/"+id+"/tickets", token, "", nil)
	if status != http.StatusCreated {
		tb.Fatalf("ticket: %d %v", status, v)
	}
	return v["ticket"].(string)
}

// openStream opens a battle's event stream with a ticket; lastID, if not "", is sent as
// Last-Event-ID, as a browser reconnecting sends it.
func openStream(tb testing.TB, base, id, tk, lastID string) *sseStream {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/battles/"+id+"/events?ticket="+tk, nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		tb.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		cancel()
		tb.Fatalf("stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	s := &sseStream{resp: resp, events: make(chan sseEvent, 64), cancel: cancel}
	go func() {
		defer close(s.events)
		sc := bufio.NewScanner(resp.Body)
		var e sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if e.Name != "" {
					s.events <- e
				}
				e = sseEvent{}
			case strings.HasPrefix(line, "id: "):
				e.ID = line[4:]
			case strings.HasPrefix(line, "event: "):
				e.Name = line[7:]
			case strings.HasPrefix(line, "data: "):
				_ = json.Unmarshal([]byte(line[6:]), &e.Data)
			}
		}
	}()
	tb.Cleanup(s.close)
	return s
}

func (s *sseStream) close() { s.cancel(); s.resp.Body.Close() }

// next waits up to 5 s for the stream's next event other than hello.
func (s *sseStream) next(tb testing.TB) sseEvent {
	tb.Helper()
	for {
		select {
		case e, ok := <-s.events:
			if !ok {
				tb.Fatal("the stream ended")
			}
			if e.Name != "hello" {
				return e
			}
		case <-time.After(5 * time.Second):
			tb.Fatal("no event within 5 s")
		}
	}
}

// TestEventStream follows a battle on its stream: each action as it is stored, with its
// side, outcome and the turn after it; a stream killed mid-battle and opened again with
// Last-Event-ID misses nothing and repeats nothing; the end brings the seed and closes
// the stream.
func TestEventStream(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "dropzone/sabres.yaml")
	act := func(side, body string) {
		t.Helper()
		if status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/actions", tokens[side], "", []byte(body)); status != http.StatusOK {
			t.Fatalf("%s: %d %v", body, status, v)
		}
	}
	s := openStream(t, ts.URL, id, ticket(t, ts.URL, id, watch(id)), "")
	select {
	case hello := <-s.events:
		if hello.Name != "hello" || hello.Data["next"] != float64(0) || hello.Data["role"] != "spectator" {
			t.Fatalf("first event %+v", hello)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no hello")
	}
	act("UCM", sabresAction)
	e := s.next(t)
	if e.Name != "action" || e.ID != "0" || e.Data["side"] != "UCM" || e.Data["outcome"].(map[string]any)["rolls"] == nil {
		t.Fatalf("action event %+v", e)
	}
	if turn := e.Data["turn"].(map[string]any); turn["side"] != "UCM" || len(turn["done"].([]any)) != 1 {
		t.Errorf("turn after the shot: %v", turn)
	}
	// The stream dies; two more actions are stored meanwhile.
	s.close()
	act("UCM", `{type: end_turn}`)
	act("Scourge", `{type: end_turn}`)
	r := openStream(t, ts.URL, id, ticket(t, ts.URL, id, tokens["UCM"]), e.ID)
	for want := 1; want <= 2; want++ {
		e := r.next(t)
		if e.Name != "action" || e.ID != strconv.Itoa(want) {
			t.Fatalf("after reconnecting: %+v, want action %d", e, want)
		}
		if want == 1 && e.Data["turn"].(map[string]any)["side"] != "Scourge" {
			t.Errorf("turn after UCM's end_turn: %v", e.Data["turn"])
		}
	}
	act("UCM", sabresAction)
	if e := r.next(t); e.ID != "3" {
		t.Fatalf("live again: %+v, want action 3", e)
	}
	if status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/end", tokens["UCM"], "", nil); status != http.StatusOK {
		t.Fatalf("end: %d %v", status, v)
	}
	end := r.next(t)
	if end.Name != "end" || len(end.Data["seed"].(string)) != 64 || end.Data["actions"] != float64(4) {
		t.Fatalf("end event %+v", end)
	}
	select {
	case e, ok := <-r.events:
		if ok {
			t.Fatalf("an event after the end: %+v", e)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the stream stayed open after the end")
	}
	// A stream opened on an ended battle, from the start, replays every action, then the end.
	all := openStream(t, ts.URL, id, ticket(t, ts.URL, id, watch(id)), "-1")
	for want := 0; want < 4; want++ {
		if e := all.next(t); e.ID != strconv.Itoa(want) {
			t.Fatalf("replay: %+v, want %d", e, want)
		}
	}
	if e := all.next(t); e.Name != "end" {
		t.Fatalf("replay's end: %+v", e)
	}
}

// TestEventStreamRefuses: a missing, unknown, foreign or expired ticket is a 401 at
// "ticket" (the token itself is never accepted in the URL); a bad Last-Event-ID a 400;
// streams over the per-client cap a 429.
func TestEventStreamRefuses(t *testing.T) {
	store := servertest.SQLite(t)
	limits := servertest.Limits()
	limits.StreamsPerClient = 2
	limits.TicketTTL = 2 * time.Second
	ts := servertest.Serve(t, store, limits)
	id, tokens := battle(t, ts.URL, example(t, "dropzone/sabres.yaml"))
	other, otherTokens := battle(t, ts.URL, example(t, "dropzone/sabres.yaml"))
	tk := ticket(t, ts.URL, id, tokens["UCM"])
	foreign := ticket(t, ts.URL, other, otherTokens["UCM"])
	get := func(query string, header map[string]string) (int, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest("GET", ts.URL+"/api/battles/"+id+"/events"+query, nil)
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var v map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&v)
		return resp.StatusCode, v
	}
	for _, tc := range []struct {
		query  string
		header map[string]string
		status int
		field  string
	}{
		{"", nil, 401, "ticket"},
		{"?ticket=" + tokens["UCM"], nil, 401, "ticket"},
		{"?ticket=" + foreign, nil, 401, "ticket"},
		{"?ticket=" + tk + "&last_event_id=x", nil, 400, "last_event_id"},
		{"?ticket=" + tk, map[string]string{"Last-Event-ID": "-5"}, 400, "Last-Event-ID"},
	} {
		if status, v := get(tc.query, tc.header); status != tc.status || v["field"] != tc.field {
			t.Errorf("%s %v: %d %v; want %d at %s", tc.query, tc.header, status, v, tc.status, tc.field)
		}
	}
	if status, _ := call(t, "POST", ts.URL+"/api/battles/"+id+"/tickets", "", "", nil); status != http.StatusUnauthorized {
		t.Errorf("a ticket without a token: %d", status)
	}
	openStream(t, ts.URL, id, tk, "")
	openStream(t, ts.URL, id, tk, "")
	if status, v := get("?ticket="+tk, nil); status != http.StatusTooManyRequests {
		t.Errorf("a third stream from one address: %d %v", status, v)
	}
	time.Sleep(2100 * time.Millisecond)
	if status, v := get("?ticket="+tk, nil); status != http.StatusUnauthorized {
		t.Errorf("an expired ticket: %d %v", status, v)
	}
}

// TestEventStreamAcrossServers: two servers over one PostgreSQL database. An action
// stored through one reaches a stream opened on the other, told by LISTEN/NOTIFY.
func TestEventStreamAcrossServers(t *testing.T) {
	url := storetest.PostgresURL(t)
	a := serve(t, storetest.Postgres(t, url))
	b := serve(t, storetest.Postgres(t, url))
	id, tokens := battle(t, a.URL, example(t, "dropzone/sabres.yaml"))
	s := openStream(t, b.URL, id, ticket(t, b.URL, id, tokens["Scourge"]), "")
	start := time.Now()
	if status, v := call(t, "POST", a.URL+"/api/battles/"+id+"/actions", tokens["UCM"], "", []byte(sabresAction)); status != http.StatusOK {
		t.Fatalf("action: %d %v", status, v)
	}
	e := s.next(t)
	if e.ID != "0" || e.Data["side"] != "UCM" {
		t.Fatalf("on the other server: %+v", e)
	}
	t.Logf("stored through one server, heard on the other in %v", time.Since(start))
	if status, _ := call(t, "POST", a.URL+"/api/battles/"+id+"/end", tokens["UCM"], "", nil); status != http.StatusOK {
		t.Fatal("end")
	}
	if e := s.next(t); e.Name != "end" {
		t.Fatalf("the end on the other server: %+v", e)
	}
}

// TestEventStreamOutlivesTimeouts: behind an http.Server with read and write timeouts far
// shorter than a game (as `volley serve` has), a stream still delivers an action stored
// after they have passed.
func TestEventStreamOutlivesTimeouts(t *testing.T) {
	srv := servertest.New(servertest.SQLite(t), servertest.Limits())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv.Handler(), ReadTimeout: 200 * time.Millisecond, WriteTimeout: 200 * time.Millisecond}
	go hs.Serve(ln)
	t.Cleanup(func() { srv.Close(); hs.Close() })
	base := "http://" + ln.Addr().String()
	id, tokens := battle(t, base, example(t, "dropzone/sabres.yaml"))
	s := openStream(t, base, id, ticket(t, base, id, tokens["Scourge"]), "")
	time.Sleep(700 * time.Millisecond)
	if status, v := call(t, "POST", base+"/api/battles/"+id+"/actions", tokens["UCM"], "", []byte(sabresAction)); status != http.StatusOK {
		t.Fatalf("action: %d %v", status, v)
	}
	if e := s.next(t); e.ID != "0" {
		t.Fatalf("after the timeouts: %+v", e)
	}
}

// TestEventStreamFromTheFuture: a client claiming an action the log does not have yet
// starts at the log's end, and neither it nor a stream opened after it misses the
// actions that then come.
func TestEventStreamFromTheFuture(t *testing.T) {
	ts, id, tokens := exampleBattle(t, "dropzone/sabres.yaml")
	tk := ticket(t, ts.URL, id, watch(id))
	ahead := openStream(t, ts.URL, id, tk, "100")
	select {
	case hello := <-ahead.events:
		if hello.Data["next"] != float64(0) {
			t.Fatalf("a stream claiming action 100 of an empty log starts at %v", hello.Data["next"])
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no hello")
	}
	later := openStream(t, ts.URL, id, tk, "")
	if status, v := call(t, "POST", ts.URL+"/api/battles/"+id+"/actions", tokens["UCM"], "", []byte(sabresAction)); status != http.StatusOK {
		t.Fatalf("action: %d %v", status, v)
	}
	for _, s := range []*sseStream{ahead, later} {
		if e := s.next(t); e.ID != "0" {
			t.Fatalf("%+v, want action 0", e)
		}
	}
}
