package main

import (
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
	Demo bool   `default:"true" negatable:"" help:"Start a demo battle of each rule system when the store is empty."`
}

func (c serveCmd) Run(e *env) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	store, kind, err := openStore(ctx, c.DB)
	if err != nil {
		return err
	}
	defer store.Close()
	logger := slog.New(slog.NewTextHandler(e.stderr, nil))
	srv := vhttp.NewServer(store, logger)
	srv.Examples = examples.FS
	ln, err := net.Listen("tcp", c.Addr)
	if err != nil {
		return volley.Errorf(volley.EINVALID, "--addr %s: %v", c.Addr, err)
	}
	url := "http://" + ln.Addr().String()
	fmt.Fprintf(e.stdout, "volley: serving %s (store: %s)\n", url, kind)
	if c.Demo {
		if err := demos(ctx, e, srv, store, url); err != nil {
			ln.Close()
			return err
		}
	}
	hs := &http.Server{
		Handler:           srv.Handler(),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
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

// demos starts one battle of each rule system from the embedded examples, when the
// store holds no battle yet, and prints their ids and tokens.
func demos(ctx context.Context, e *env, srv *vhttp.Server, store volley.Store, url string) error {
	have, err := store.Battles(ctx, 1)
	if err != nil {
		return err
	}
	if len(have) > 0 {
		return nil
	}
	names := slices.Sorted(maps.Keys(examples.Demos))
	for _, system := range names {
		if _, ok := rules.Lookup(system); !ok {
			continue
		}
		body, err := fs.ReadFile(examples.FS, examples.Demos[system])
		if err != nil {
			return err
		}
		c, err := srv.CreateBattle(ctx, body)
		if err != nil {
			return fmt.Errorf("demo %s: %w", system, err)
		}
		// The page link carries every side's token in its fragment (which browsers never
		// send to the server): whoever opens it may play both sides, as at a table.
		var tokens []string
		for _, side := range slices.Sorted(maps.Keys(c.Tokens)) {
			tokens = append(tokens, neturl.QueryEscape(side)+"="+c.Tokens[side])
		}
		fmt.Fprintf(e.stdout, "  demo %-10s %s/#/battles/%s?%s\n", system, url, c.ID, strings.Join(tokens, "&"))
	}
	return nil
}

// verifyCmd checks a battle's log against its revealed seed: the commitment must be the
// seed's, and replaying every action from the scenario must roll every die the log
// records, and come out the same.
type verifyCmd struct {
	Log string `arg:"" help:"A log downloaded from GET /api/battles/{id}/log after the battle ended."`
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
	if lg.Seed == nil {
		return volley.Errorf(volley.EINVALID, "%s: the battle has not ended, so its seed is still secret (POST /api/battles/%s/end reveals it)", c.Log, lg.ID)
	}
	v, err := vhttp.Verify(lg)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "commitment %s… matches the seed\n", lg.Commitment[:16])
	fmt.Fprintf(e.stdout, "VERIFIED: %d actions and %d dice replay exactly from the seed\n", v.Actions, v.Dice)
	fmt.Fprintln(e.stdout, "(a log proves its dice, not that nothing was left off its end: compare its length with the answers you received)")
	return nil
}
