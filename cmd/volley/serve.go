package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"net"
	"net/http"
	neturl "net/url"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"golang.org/x/net/netutil"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/examples"
	vhttp "github.com/volley-wargames/volley/http"
	"github.com/volley-wargames/volley/postgres"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/sqlite"
)

// serveCmd runs the API: battles that persist, in a SQLite file by default or in a
// PostgreSQL database that several servers share.
type serveCmd struct {
	Addr string `default:"127.0.0.1:8080" help:"Address to listen on."`
	DB   string `default:"volley.db" help:"The store: a SQLite file, or a postgres:// URL shared by several servers."`
	Demo bool   `default:"true" negatable:"" help:"Keep a demo battle of each rule system, public: the home page offers its sides to anyone who opens it."`

	// The limits of docs/api.md's "Limits and abuse"; 0 takes the default.
	Timeout  time.Duration `default:"15s" help:"Deadline of every request: work still running then stops and is answered 503."`
	InFlight int           `name:"in-flight" default:"64" help:"API requests worked on at once; more wait for a place until their deadline."`
	Client   int           `name:"client-in-flight" default:"16" help:"API requests one client address may have in flight at once (read, worked on, answered); more get 429."`
	Heavy    int           `default:"0" help:"Requests doing heavy work at once (odds and views above the light limit, big scenarios, advice, danger and position maps, verifying); 0: one less than the cores, at least 1."`
	HeavyPer int           `name:"heavy-per-client" default:"2" help:"Heavy requests one client address may have waiting or working; more get 429."`
	Rebuilds int           `default:"1" help:"Battles rebuilt from their logs at once (after a restart), in places apart from the heavy requests'."`
	Upload   int           `name:"min-upload-rate" default:"4096" help:"Slowest a request body may arrive, in bytes a second, after its first 2 s; slower gets 408."`
	MaxConns int           `name:"max-conns" default:"20000" help:"Connections open at once (event streams included); more wait to be accepted."`
	CacheMiB int64         `name:"cache-mib" default:"256" help:"Memory for battles kept folded, in MiB; the least recently used are dropped first."`
	Creates  string        `default:"30/min,burst=10" help:"New battles a client (an IP address, or an IPv6 /64) may start: N/s or N/min, then ,burst=B."`
	Reads    string        `default:"50/s,burst=100" help:"Other requests about battles a client may send: N/s or N/min, then ,burst=B."`
	// The event streams' bounds.
	Streams          int           `default:"10000" help:"Spectators' event streams open on the server at once."`
	PlayerStreams    int           `name:"player-streams" default:"5000" help:"Players' event streams open on the server at once, beside the spectators'."`
	StreamsPerBattle int           `name:"streams-per-battle" default:"2000" help:"Spectators' event streams open on one battle at once."`
	StreamsPerSide   int           `name:"streams-per-side" default:"8" help:"Event streams each side of a battle may hold open, beside its spectators'."`
	StreamsPerClient int           `name:"streams-per-client" default:"32" help:"Event streams one client address may hold open."`
	StreamIdle       time.Duration `name:"stream-idle" default:"10m" help:"Close a stream that has sent no event for this long; the page comes back by itself."`
	StreamWrite      time.Duration `name:"stream-write-timeout" default:"10s" help:"Close a stream whose client takes longer than this to read what it is sent; it comes back with Last-Event-ID."`
}

// limits reads the limit flags.
func (c serveCmd) limits() (vhttp.Limits, error) {
	l := vhttp.Limits{RequestTimeout: c.Timeout, InFlight: c.InFlight, ClientInFlight: c.Client, Heavy: c.Heavy, HeavyPerClient: c.HeavyPer,
		Rebuilds: c.Rebuilds, MinUploadRate: c.Upload, CacheBytes: c.CacheMiB << 20,
		Streams: c.Streams, PlayerStreams: c.PlayerStreams, StreamsPerBattle: c.StreamsPerBattle, StreamsPerSide: c.StreamsPerSide,
		StreamsPerClient: c.StreamsPerClient, StreamIdle: c.StreamIdle, StreamWriteTimeout: c.StreamWrite}
	var err error
	if l.Creates, err = vhttp.ParseRate(c.Creates); err != nil {
		return l, usageError{fmt.Errorf("--creates: %w", err)}
	}
	if l.Reads, err = vhttp.ParseRate(c.Reads); err != nil {
		return l, usageError{fmt.Errorf("--reads: %w", err)}
	}
	for _, v := range []int64{int64(c.Timeout), int64(c.InFlight), int64(c.Client), int64(c.Heavy), int64(c.HeavyPer), int64(c.Rebuilds), int64(c.Upload),
		int64(c.MaxConns), c.CacheMiB, int64(c.Streams), int64(c.PlayerStreams), int64(c.StreamsPerBattle), int64(c.StreamsPerSide),
		int64(c.StreamsPerClient), int64(c.StreamIdle), int64(c.StreamWrite)} {
		if v < 0 {
			return l, usageError{fmt.Errorf("--timeout, --in-flight, --heavy, --rebuilds, --cache-mib, --max-conns, --min-upload-rate and the client and stream limits cannot be negative")}
		}
	}
	return l, nil
}

func (c serveCmd) Run(e *env) error {
	limits, err := c.limits()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	store, kind, err := openStore(ctx, c.DB)
	if err != nil {
		return err
	}
	defer store.Close()
	logger := slog.New(slog.NewTextHandler(e.stderr, nil))
	srv := vhttp.NewServer(store, logger, limits)
	defer srv.Close()
	srv.Examples = examples.FS
	srv.Schemas, _ = fs.Sub(Schemas, "schema")
	srv.Starters, _ = fs.Sub(Starters, "new")
	ln, err := net.Listen("tcp", c.Addr)
	if err != nil {
		return volley.Errorf(volley.EINVALID, "--addr %s: %v", c.Addr, err)
	}
	url := "http://" + ln.Addr().String()
	if c.MaxConns > 0 {
		// A bound on the connections held open, whoever holds them: past it the listener
		// accepts no more until one closes (golang.org/x/net/netutil).
		ln = netutil.LimitListener(ln, c.MaxConns)
	}
	fmt.Fprintf(e.stdout, "volley: serving %s (store: %s)\n", url, kind)
	if c.Demo {
		if err := demos(ctx, e, srv, url); err != nil {
			ln.Close()
			return err
		}
	}
	// The write timeout leaves a request's deadline time to answer 503; headers are
	// bounded, since an action may only ride in a query of MaxActionBytes.
	hs := &http.Server{
		Handler:           srv.Handler(),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      srv.Limits().RequestTimeout + 15*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    4*srv.Limits().MaxActionBytes + 16<<10,
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
		srv.Close() // end the event streams first: Shutdown waits for open requests
		shut, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return hs.Shutdown(shut)
	}
}

// openStore opens the store a --db value names.
func openStore(ctx context.Context, db string) (volley.Store, string, error) {
	if strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://") {
		s, err := postgres.Open(ctx, db)
		if err != nil {
			return nil, "", volley.Errorf(volley.EINVALID, "--db: %v", err)
		}
		return s, "postgresql", nil
	}
	s, err := sqlite.Open(db)
	if err != nil {
		return nil, "", volley.Errorf(volley.EINVALID, "--db %s: %v", db, err)
	}
	return s, "sqlite " + db, nil
}

// demos keeps a demo battle of each rule system, from the embedded examples: at every
// start a system whose demo is missing or has ended gets a new one. It prints each
// demo's links, one a side and one to watch, and has the home page offer them.
func demos(ctx context.Context, e *env, srv *vhttp.Server, url string) error {
	scenarios := map[string][]byte{}
	for system, name := range examples.Demos {
		if _, ok := rules.Lookup(system); !ok {
			continue
		}
		body, err := fs.ReadFile(examples.FS, name)
		if err != nil {
			return err
		}
		scenarios[system] = body
	}
	list, err := srv.KeepDemos(ctx, scenarios)
	if err != nil {
		return err
	}
	srv.PublishDemos = true
	// Each link carries one side's token in its fragment (which browsers never send to
	// the server); the spectator's only watches. The home page offers the same links.
	for _, d := range list {
		fmt.Fprintf(e.stdout, "  demo %s: %s\n", d.Ruleset, d.Title)
		for _, side := range slices.Sorted(maps.Keys(d.Sides)) {
			fmt.Fprintf(e.stdout, "    play %-10s %s/#/battles/%s?%s=%s\n", side, url, d.ID, neturl.QueryEscape(side), d.Sides[side])
		}
		fmt.Fprintf(e.stdout, "    %-15s %s/#/battles/%s?spectator=%s\n", "watch", url, d.ID, d.Spectator)
	}
	return nil
}

// verifyCmd checks a battle's log against its revealed seed: the commitment must be the
// seed's and the battle's, and replaying every action from the scenario must roll every
// die the log records, and come out the same. The seed proves the dice, not the history:
// with --head or --key it also checks the log's chain against a head the player kept or
// the server's signature.
type verifyCmd struct {
	Log        string `arg:"" help:"A log downloaded from GET /api/battles/{id}/log after the battle ended."`
	Commitment string `help:"The commitment you were given when the battle began: the log must carry the same one." placeholder:"HEX"`
	Head       string `help:"A head you were given while the battle went on (the head of an answer or event: its JSON, or its hash alone): the log's history must pass through it." placeholder:"HEAD"`
	Key        string `help:"The server's public key (GET /api/key): the log's head, or --head, must carry its signature." placeholder:"HEX"`
}

func (c verifyCmd) Run(e *env) error {
	raw, err := os.ReadFile(c.Log)
	if err != nil {
		return volley.Errorf(volley.EINVALID, "%v", err)
	}
	var lg vhttp.Log
	if err := json.Unmarshal(raw, &lg); err != nil {
		return volley.Errorf(volley.EINVALID, "%s is not a volley log: %v", c.Log, err)
	}
	var trust vhttp.Trust
	if c.Head != "" {
		if trust.Head, err = vhttp.ParseHead(c.Head); err != nil {
			return usageError{fmt.Errorf("--head: %w", err)}
		}
	}
	if c.Key != "" {
		if trust.Key, err = vhttp.ParseKey(c.Key); err != nil {
			return usageError{fmt.Errorf("--key: %w", err)}
		}
	}
	if c.Commitment != "" && !strings.EqualFold(strings.TrimSpace(c.Commitment), lg.Commitment) {
		return volley.Errorf(volley.EINVALID, "REJECTED: the log's commitment %s is not the %s you were given when the battle began", lg.Commitment, c.Commitment)
	}
	v, err := vhttp.VerifyWith(e.context(), lg, trust)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "commitment %s… matches the seed and the battle (edition %d, %s dice)\n", lg.Commitment[:16], volley.EditionOf(lg.Edition), cmp.Or(lg.Generator, "pcg"))
	if v.Hand {
		fmt.Fprintf(e.stdout, "VERIFIED: %d actions replay exactly from the %d dice the players rolled by hand, as the log gives them (the seed decided none)\n", v.Actions, v.Dice)
	} else {
		fmt.Fprintf(e.stdout, "VERIFIED: %d actions and %d dice replay exactly from the seed\n", v.Actions, v.Dice)
	}
	fmt.Fprintf(e.stdout, "chain head %s… after %d actions\n", v.Head[:16], v.Actions)
	if v.Kept >= 0 {
		fmt.Fprintf(e.stdout, "the head you kept is the log's after %d of its %d actions: the log is the history you were shown\n", v.Kept, v.Actions)
	}
	if v.Signed {
		fmt.Fprintln(e.stdout, "signed by the server's key: this is the history the server vouched for")
	}
	if v.Hand {
		printFairness(e.stdout, v.Fairness)
	}
	if c.Commitment == "" {
		fmt.Fprintln(e.stdout, "(pass --commitment with the one you were given at the start to check that this is that battle)")
	}
	if c.Head == "" && c.Key == "" {
		fmt.Fprintln(e.stdout, "(the seed proves the dice, not the history: anyone can write other actions for an ended battle; pass --head with the last head you were given, or --key with the server's key)")
	} else if v.Kept >= 0 && v.Kept < v.Actions {
		fmt.Fprintf(e.stdout, "(the %d actions after your head are the server's word alone%s)\n", v.Actions-v.Kept, map[bool]string{true: ", signed by it", false: ""}[v.Signed])
	}
	return nil
}
