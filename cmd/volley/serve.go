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
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/examples"
	vhttp "github.com/volley-wargames/volley/http"
	"github.com/volley-wargames/volley/postgres"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
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
		var tokens []string
		for _, side := range slices.Sorted(maps.Keys(c.Tokens)) {
			tokens = append(tokens, side+"="+c.Tokens[side])
		}
		fmt.Fprintf(e.stdout, "  demo %-10s %s/api/battles/%s  tokens: %s\n", system, url, c.ID, strings.Join(tokens, " "))
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
	seed, err := strconv.ParseUint(*lg.Seed, 10, 64)
	if err != nil {
		return volley.Errorf(volley.EINVALID, "%s: seed %q is not a number", c.Log, *lg.Seed)
	}
	if volley.Commit(seed) != lg.Commitment {
		return volley.Errorf(volley.EINVALID, "REJECTED: the revealed seed does not match the commitment published when the battle began (%s)", lg.Commitment)
	}
	fmt.Fprintf(e.stdout, "commitment %s… matches the seed\n", lg.Commitment[:16])
	doc, err := scenario.Parse("scenario", []byte(lg.Scenario))
	if err != nil {
		return err
	}
	rs, battle, _, err := rules.Open(doc)
	if err != nil {
		return err
	}
	if rs.Name() != lg.Ruleset {
		return volley.Errorf(volley.EINVALID, "REJECTED: the log says %s, but its scenario is a %s battle", lg.Ruleset, rs.Name())
	}
	rolled := 0
	for i, a := range lg.Actions {
		if a.Seq != i {
			return volley.Errorf(volley.EINVALID, "REJECTED: action %d is numbered %d: the log has a gap or is out of order", i, a.Seq)
		}
		n, p := verifyAction(battle, seed, a)
		if p != "" {
			return volley.Errorf(volley.EINVALID, "REJECTED: %s", p) // later actions build on this one
		}
		rolled += n
	}
	fmt.Fprintf(e.stdout, "VERIFIED: %d actions and %d dice replay exactly from the seed\n", len(lg.Actions), rolled)
	fmt.Fprintln(e.stdout, "(a log proves its dice, not that nothing was left off its end: compare its length with the answers you received)")
	return nil
}

// verifyAction replays one logged action and returns the dice it rolled, or says how
// it differs from the log.
func verifyAction(b volley.Battle, seed uint64, a vhttp.LogEntry) (int, string) {
	act, out, err := volley.ReplayAction(b, seed, a.Seq, a.Action)
	if err != nil {
		return 0, fmt.Sprintf("action %d no longer resolves: %v", a.Seq, err)
	}
	if actor := b.Actor(act); actor != a.Side {
		return 0, fmt.Sprintf("action %d is %s's, but the log says %s took it", a.Seq, actor, a.Side)
	}
	var logged volley.Outcome
	if err := json.Unmarshal(a.Outcome, &logged); err != nil {
		return 0, fmt.Sprintf("action %d: the logged outcome is not JSON: %v", a.Seq, err)
	}
	for i := range max(len(out.Rolls), len(logged.Rolls)) {
		switch {
		case i >= len(logged.Rolls):
			return 0, fmt.Sprintf("action %d: the seed rolls a die the log lacks (%s)", a.Seq, out.Rolls[i].Purpose)
		case i >= len(out.Rolls):
			return 0, fmt.Sprintf("action %d: the log has a die the seed never rolls (%s)", a.Seq, logged.Rolls[i].Purpose)
		case out.Rolls[i] != logged.Rolls[i]:
			return 0, fmt.Sprintf("action %d, die %d: the log says %s rolled %d on a d%d, the seed rolls %s: %d on a d%d",
				a.Seq, i+1, logged.Rolls[i].Purpose, logged.Rolls[i].Value, logged.Rolls[i].Sides, out.Rolls[i].Purpose, out.Rolls[i].Value, out.Rolls[i].Sides)
		}
	}
	if !volley.SameResult(out, logged) {
		return 0, fmt.Sprintf("action %d: the dice match but the logged result differs from the replay", a.Seq)
	}
	return len(out.Rolls), ""
}
