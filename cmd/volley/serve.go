package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
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
	"github.com/volley-wargames/volley/dice"
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
	names := slices.Sorted(mapsKeys(examples.Demos))
	for _, system := range names {
		if _, ok := rules.Lookup(system); !ok {
			continue
		}
		body, err := fs.ReadFile(examples.FS, examples.Demos[system])
		if err != nil {
			return err
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
		c, err := srv.CreateBattle(req, body)
		if err != nil {
			return fmt.Errorf("demo %s: %w", system, err)
		}
		var tokens []string
		for _, side := range slices.Sorted(mapsKeys(c.Tokens)) {
			tokens = append(tokens, side+"="+c.Tokens[side])
		}
		fmt.Fprintf(e.stdout, "  demo %-10s %s/api/battles/%s  tokens: %s\n", system, url, c.ID, strings.Join(tokens, " "))
	}
	return nil
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
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
	_, battle, _, err := rules.Open(doc)
	if err != nil {
		return err
	}
	var problems []string
	for i, a := range lg.Actions {
		if a.Seq != i {
			problems = append(problems, fmt.Sprintf("action %d is numbered %d: the log has a gap or is out of order", i, a.Seq))
			break
		}
		if p := verifyAction(battle, seed, a); p != "" {
			problems = append(problems, p)
			break // later actions build on this one
		}
	}
	if len(problems) > 0 {
		return volley.Errorf(volley.EINVALID, "REJECTED: %s", strings.Join(problems, "; "))
	}
	dice := 0
	for _, a := range lg.Actions {
		var out volley.Outcome
		_ = json.Unmarshal(a.Outcome, &out)
		dice += len(out.Rolls)
	}
	fmt.Fprintf(e.stdout, "VERIFIED: %d actions and %d dice replay exactly from the seed\n", len(lg.Actions), dice)
	return nil
}

// verifyAction replays one logged action and says how it differs, or "".
func verifyAction(b volley.Battle, seed uint64, a vhttp.LogEntry) string {
	doc, err := scenario.Parse("action", []byte(a.Action))
	if err != nil {
		return fmt.Sprintf("action %d: %v", a.Seq, err)
	}
	act, err := b.DecodeAction(doc)
	if err != nil {
		return fmt.Sprintf("action %d: %v", a.Seq, err)
	}
	out, err := b.Resolve(act, dice.ForAction(seed, a.Seq))
	if err != nil {
		return fmt.Sprintf("action %d no longer resolves: %v", a.Seq, err)
	}
	var logged volley.Outcome
	if err := json.Unmarshal(a.Outcome, &logged); err != nil {
		return fmt.Sprintf("action %d: the logged outcome is not JSON: %v", a.Seq, err)
	}
	for i := range max(len(out.Rolls), len(logged.Rolls)) {
		switch {
		case i >= len(logged.Rolls):
			return fmt.Sprintf("action %d: the seed rolls a die the log lacks (%s)", a.Seq, out.Rolls[i].Purpose)
		case i >= len(out.Rolls):
			return fmt.Sprintf("action %d: the log has a die the seed never rolls (%s)", a.Seq, logged.Rolls[i].Purpose)
		case out.Rolls[i] != logged.Rolls[i]:
			return fmt.Sprintf("action %d, die %d (%s): the log says %d, the seed rolls %d",
				a.Seq, i+1, logged.Rolls[i].Purpose, logged.Rolls[i].Value, out.Rolls[i].Value)
		}
	}
	mine, _ := json.Marshal(out)
	var theirs []byte
	if compact, err := compactJSON(a.Outcome); err == nil {
		theirs = compact
	}
	if string(mine) != string(theirs) {
		return fmt.Sprintf("action %d: the dice match but the logged result differs from the replay", a.Seq)
	}
	return ""
}

// compactJSON undoes the indentation a downloaded log adds, leaving the bytes the
// server stored.
func compactJSON(raw []byte) ([]byte, error) {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
