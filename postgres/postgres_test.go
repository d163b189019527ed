package postgres_test

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/postgres"
	"github.com/volley-wargames/volley/storetest"
)

// databases numbers the databases of this test process.
var databases atomic.Int64

// MustCreateDatabase creates an empty database, drops it when the test ends, and
// returns its URL.
func MustCreateDatabase(tb testing.TB) string {
	tb.Helper()
	admin := storetest.PostgresURL(tb)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		tb.Fatalf("connect to VOLLEY_TEST_POSTGRES: %v", err)
	}
	defer conn.Close(ctx)
	name := fmt.Sprintf("volley_test_%d_%d", os.Getpid(), databases.Add(1))
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		tb.Fatalf("create database: %v", err)
	}
	// Registered before the stores' own cleanups, so run after them (last in, first out).
	tb.Cleanup(func() {
		conn, err := pgx.Connect(ctx, admin)
		if err != nil {
			tb.Errorf("drop database %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			tb.Errorf("drop database %s: %v", name, err)
		}
	})
	u, err := url.Parse(admin)
	if err != nil {
		tb.Fatalf("VOLLEY_TEST_POSTGRES: %v", err)
	}
	u.Path = "/" + name
	return u.String()
}

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) volley.Store { return storetest.Postgres(t, MustCreateDatabase(t)) })
}

func BenchmarkAppendAction(b *testing.B) {
	storetest.BenchmarkAppendAction(b, func(b *testing.B) volley.Store { return storetest.Postgres(b, MustCreateDatabase(b)) })
}

// TestSigningKeyShared: the signing key is the database's: a second server of it, and a
// server started again, sign with the key the first one stored.
func TestSigningKeyShared(t *testing.T) {
	ctx := context.Background()
	url := MustCreateDatabase(t)
	first := storetest.Postgres(t, url)
	key, err := first.SigningKey(ctx, bytes.Repeat([]byte{1}, volley.SigningKeySize))
	if err != nil {
		t.Fatal(err)
	}
	second := storetest.Postgres(t, url)
	if got, err := second.SigningKey(ctx, bytes.Repeat([]byte{2}, volley.SigningKeySize)); err != nil || !bytes.Equal(got, key) {
		t.Errorf("another server's key: %x, %v; want %x", got, err, key)
	}
	first.Close()
	again := storetest.Postgres(t, url)
	if got, err := again.SigningKey(ctx, bytes.Repeat([]byte{3}, volley.SigningKeySize)); err != nil || !bytes.Equal(got, key) {
		t.Errorf("the key after a restart: %x, %v; want %x", got, err, key)
	}
}

// TestConcurrentOpen starts several servers at once on one new database: the
// advisory lock lets one migrate while the others wait, and then all of them work.
func TestConcurrentOpen(t *testing.T) {
	const servers = 6
	url := MustCreateDatabase(t)
	dbs := make([]*postgres.DB, servers)
	errs := make([]error, servers)
	var wg sync.WaitGroup
	for i := range servers {
		wg.Go(func() { dbs[i], errs[i] = postgres.Open(context.Background(), url) })
	}
	wg.Wait()
	for i := range servers {
		if errs[i] != nil {
			t.Errorf("server %d: Open = %v", i, errs[i])
			continue
		}
		defer dbs[i].Close()
	}
	if t.Failed() {
		return
	}
	ctx := context.Background()
	storetest.MustCreate(t, dbs[0], storetest.NewBattle("b", 1))
	for i, db := range dbs {
		a := &volley.ActionRecord{BattleID: "b", Seq: i, Side: "red", Body: "fire", Outcome: "{}"}
		if _, err := db.AppendAction(ctx, a); err != nil {
			t.Errorf("server %d: AppendAction = %v", i, err)
		}
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var versions int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&versions); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join("migrations", "*.sql"))
	if versions != len(files) {
		t.Errorf("schema_migrations has %d rows; want one per migration, %d", versions, len(files))
	}
}

// TestOpenBadURL checks that a URL that cannot be parsed is refused without its
// text, which may hold a password, in the error.
func TestOpenBadURL(t *testing.T) {
	const bad = "postgres://user:secret@host:notaport/db"
	_, err := postgres.Open(context.Background(), bad)
	if err == nil {
		t.Fatalf("Open(%q) = nil error", bad)
	}
	if s := err.Error(); strings.Contains(s, "secret") {
		t.Errorf("Open(%q) = %q, which shows the password", bad, s)
	}
}

// TestUpgradeFromEdition1: a database written before editions (schema 1, a numeric PCG
// seed, no spectator) migrates, and reads back as the edition 1 battle it was.
func TestUpgradeFromEdition1(t *testing.T) {
	ctx := context.Background()
	u := MustCreateDatabase(t)
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := os.ReadFile("migrations/001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		string(schema),
		`CREATE TABLE schema_migrations (version integer PRIMARY KEY); INSERT INTO schema_migrations VALUES (1)`,
		`INSERT INTO battles (id, ruleset, scenario, seed, commitment, ended)
			VALUES ('0123456789abcdef', 'dropzone', 'ruleset: dropzone', 18446744073709551615, '` + volley.Commit(1<<64-1) + `', true)`,
	} {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			t.Fatalf("%.60s: %v", stmt, err)
		}
	}
	conn.Close(ctx)
	db := storetest.Postgres(t, u)
	storetest.Edition1Battle(t, db, "0123456789abcdef")
}

// TestListen: two handles on one database, as two servers would hold. An action appended
// and a battle ended through one are announced to the other's listener, after the
// "read everything" call of its connecting; a refused append announces nothing.
func TestListen(t *testing.T) {
	url := MustCreateDatabase(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	heard := make(chan string, 16)
	done := make(chan error, 1)
	go func() { done <- b.Listen(ctx, func(id string) { heard <- id }) }()
	if got := <-heard; got != "" {
		t.Fatalf("first call %q, want the empty id of a (re)connection", got)
	}
	storetest.MustCreate(t, a, storetest.NewBattle("heard", 1))
	rec := &volley.ActionRecord{BattleID: "heard", Seq: 0, Side: "red", Body: "{}", Outcome: "{}"}
	if _, err := a.AppendAction(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if _, err := a.AppendAction(ctx, rec); err == nil { // seq 0 again: refused
		t.Fatal("a second action 0 was stored")
	}
	if err := a.EndBattle(ctx, "heard"); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"heard", "heard"} {
		select {
		case got := <-heard:
			if got != want {
				t.Errorf("notification %d: %q, want %q", i, got, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("notification %d never came", i)
		}
	}
	select {
	case got := <-heard:
		t.Errorf("an extra notification %q (the refused append?)", got)
	case <-time.After(200 * time.Millisecond):
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Listen: %v", err)
	}
}
