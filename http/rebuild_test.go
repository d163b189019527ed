package http_test

// The third round of the hostile client (issue 34), break 7: what a request that is never
// read leaves in the log, and battles read again while heavy work floods the server.

import (
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	vhttp "github.com/volley-wargames/volley/http"
	"github.com/volley-wargames/volley/servertest"
)

// TestUnreadLogIsLogged (7): a `/log` answer its client never read left no access-log line
// (the answer, cut off at its deadline, was dropped by panicking with
// http.ErrAbortHandler, before the line), only a warning naming no client. Every request
// has its line, this one with delivered=false.
func TestUnreadLogIsLogged(t *testing.T) {
	limits := servertest.Limits()
	limits.RequestTimeout = time.Second
	// The log is sent a page of two actions at a time, each page at the client's byte
	// rate: it takes seconds, past the deadline.
	limits.ReadBytes = vhttp.Rate{PerSecond: 64 << 10, Burst: 64 << 10}
	limits.PageBytes = 128 << 10
	_, ts, logs := logServer(t, limits)
	id := bigLog(t, ts.URL, 12)
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.77")}}
	c, err := d.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.(*net.TCPConn).SetReadBuffer(4 << 10)
	fmt.Fprintf(c, "GET /api/battles/%s/log HTTP/1.1\r\nHost: volley\r\nAuthorization: Bearer %s\r\n\r\n", id, watch(id))
	path := "path=/api/battles/" + id + "/log"
	deadline := time.Now().Add(10 * time.Second)
	for {
		var line string
		for _, l := range strings.Split(logs.String(), "\n") {
			if strings.Contains(l, "msg=request") && strings.Contains(l, path) && strings.Contains(l, "client=127.0.0.77") {
				line = l
			}
		}
		if line != "" {
			if !strings.Contains(line, "delivered=false") {
				t.Errorf("the unread log is logged as delivered: %s", line)
			}
			t.Logf("%s", line)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no access-log line for the unread log after 10 s:\n%s", logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, l := range strings.Split(logs.String(), "\n") {
		if strings.Contains(l, "level=WARN") && !strings.Contains(l, "client=") {
			t.Errorf("a warning names no client: %s", l)
		}
	}
}

// TestRebuildNotStarvedByHeavyWork (7): during a flood of position maps from twenty
// addresses, battles of 1,200 actions read again after a restart answered 503 until 18 s
// after the flood: their rebuilds queued for a heavy place behind the maps. A rebuild has
// places of its own (Limits.Rebuilds): with every heavy place taken, the battle is read.
func TestRebuildNotStarvedByHeavyWork(t *testing.T) {
	store := servertest.SQLite(t)
	first := servertest.Serve(t, store, servertest.Limits())
	id, tokens := battle(t, first.URL, example(t, "dropzone/equalizer-vs-hunter.yaml"))
	const actions = 300 // well past the 32 a request folds itself: a rebuild
	for i := range actions {
		side := []string{"UCM", "Scourge"}[i%2]
		if status, v := call(t, "POST", first.URL+"/api/battles/"+id+"/actions", tokens[side], "", []byte("type: end_turn\n")); status != 200 {
			t.Fatalf("action %d: %d %v", i, status, v)
		}
	}
	// A restart, under a flood that holds every heavy place for the whole test.
	limits := servertest.Limits()
	limits.RequestTimeout = 2 * time.Second
	limits.Heavy = 1
	srv := servertest.New(store, limits)
	restarted := servertest.Start(t, srv)
	release := srv.HoldHeavy()
	defer release()
	t0 := time.Now()
	for try := 1; ; try++ {
		a := send(t, "GET", restarted.URL+"/api/battles/"+id, watch(id), nil)
		if a.status == 200 {
			if n := a.json(t)["actions"]; n != float64(actions) {
				t.Errorf("the rebuilt battle has %v actions; want %d", n, actions)
			}
			t.Logf("read again with every heavy place taken, in %v (%d tries)", time.Since(t0).Round(time.Millisecond), try)
			break
		}
		if a.status != 503 || try == 5 {
			t.Fatalf("read %d of a battle of %d actions after a restart, every heavy place taken: %d %.200s", try, actions, a.status, a.body)
		}
	}
}
