package sqlite_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/sqlite"
	"github.com/volley-wargames/volley/storetest"
)

// MustOpen opens a new database file in a temporary directory and closes it when
// the test ends.
func MustOpen(tb testing.TB) *sqlite.DB {
	tb.Helper()
	db, err := sqlite.Open(filepath.Join(tb.TempDir(), "volley.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := db.Close(); err != nil {
			tb.Error(err)
		}
	})
	return db
}

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) volley.Store { return MustOpen(t) })
}

func BenchmarkAppendAction(b *testing.B) {
	storetest.BenchmarkAppendAction(b, func(b *testing.B) volley.Store { return MustOpen(b) })
}

// TestReopen checks that what was written is in the file: closed and opened again
// (which also runs the migrations a second time, finding nothing to do), the store
// has the battle, its actions and its end.
func TestReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "volley.db")
	db, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	battle := storetest.NewBattle("b", 1<<63+5)
	storetest.MustCreate(t, db, battle)
	var actions []volley.ActionRecord
	for seq := range 3 {
		a := volley.ActionRecord{BattleID: "b", Seq: seq, Side: "red", Body: "fire", Outcome: "{}", IdempotencyKey: fmt.Sprintf("k%d", seq), Chain: fmt.Sprintf("%064x", seq)}
		if _, err := db.AppendAction(ctx, &a); err != nil {
			t.Fatal(err)
		}
		actions = append(actions, a)
	}
	if err := db.EndBattle(ctx, "b"); err != nil {
		t.Fatal(err)
	}
	key, err := db.SigningKey(ctx, bytes.Repeat([]byte{7}, volley.SigningKeySize))
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	for range 2 {
		db, err = sqlite.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := db.Battle(ctx, "b")
		if err != nil {
			t.Fatal(err)
		}
		battle.Ended = true
		if !reflect.DeepEqual(got, battle) {
			t.Errorf("after reopening, Battle(b) = %+v; want %+v", got, battle)
		}
		list, err := db.Actions(ctx, "b", 0, volley.AllActions)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(list, actions) {
			t.Errorf("after reopening, Actions(b, 0) = %+v; want %+v", list, actions)
		}
		if again, err := db.SigningKey(ctx, bytes.Repeat([]byte{8}, volley.SigningKeySize)); err != nil || !bytes.Equal(again, key) {
			t.Errorf("after reopening, SigningKey = %x, %v; want %x", again, err, key)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOpenBadPath checks that Open refuses names that are not files.
func TestOpenBadPath(t *testing.T) {
	for _, path := range []string{"", ":memory:", "file:x.db?mode=memory", filepath.Join(t.TempDir(), "no", "such", "dir", "x.db")} {
		if db, err := sqlite.Open(path); err == nil {
			db.Close()
			t.Errorf("Open(%q) = nil error; want an error", path)
		}
	}
}

// twoHandles is one file opened twice, as by two processes: each call goes to the
// next handle in turn, so that every write meets the other handle's connections.
type twoHandles struct {
	dbs  [2]*sqlite.DB
	next atomic.Uint32
}

func (h *twoHandles) db() *sqlite.DB { return h.dbs[h.next.Add(1)%2] }

func (h *twoHandles) CreateBattle(ctx context.Context, b *volley.BattleRecord) error {
	return h.db().CreateBattle(ctx, b)
}
func (h *twoHandles) Battle(ctx context.Context, id string) (*volley.BattleRecord, error) {
	return h.db().Battle(ctx, id)
}
func (h *twoHandles) Battles(ctx context.Context, hashes []string, limit int) ([]volley.BattleSummary, error) {
	return h.db().Battles(ctx, hashes, limit)
}

func (h *twoHandles) Empty(ctx context.Context) (bool, error) {
	return h.db().Empty(ctx)
}
func (h *twoHandles) Actions(ctx context.Context, id string, from, maxBytes int) ([]volley.ActionRecord, error) {
	return h.db().Actions(ctx, id, from, maxBytes)
}
func (h *twoHandles) AppendAction(ctx context.Context, a *volley.ActionRecord) (*volley.ActionRecord, error) {
	return h.db().AppendAction(ctx, a)
}
func (h *twoHandles) EndBattle(ctx context.Context, id string) error {
	return h.db().EndBattle(ctx, id)
}
func (h *twoHandles) CreateTicket(ctx context.Context, t *volley.TicketRecord, now time.Time) error {
	return h.db().CreateTicket(ctx, t, now)
}
func (h *twoHandles) Ticket(ctx context.Context, hash string) (*volley.TicketRecord, error) {
	return h.db().Ticket(ctx, hash)
}
func (h *twoHandles) Demos(ctx context.Context) ([]volley.DemoRecord, error) {
	return h.db().Demos(ctx)
}
func (h *twoHandles) SetDemo(ctx context.Context, d *volley.DemoRecord, replaces string) (*volley.DemoRecord, error) {
	return h.db().SetDemo(ctx, d, replaces)
}
func (h *twoHandles) SigningKey(ctx context.Context, fresh []byte) ([]byte, error) {
	return h.db().SigningKey(ctx, fresh)
}
func (h *twoHandles) Close() error { return nil }

// TestTwoHandles runs the suite on a file opened twice: BEGIN IMMEDIATE and the busy
// timeout keep writers of different handles (processes) from failing each other.
func TestTwoHandles(t *testing.T) {
	storetest.Run(t, func(t *testing.T) volley.Store {
		path := filepath.Join(t.TempDir(), "volley.db")
		h := &twoHandles{}
		for i := range h.dbs {
			db, err := sqlite.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			h.dbs[i] = db
		}
		return h
	})
}

// TestUpgradeFromEdition1: a file written before editions (schema 1, a decimal PCG
// seed, no spectator) opens, migrates, and reads back as the edition 1 battle it was.
func TestUpgradeFromEdition1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := os.ReadFile(filepath.Join("migrations", "001_init.sql"))
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		string(schema),
		`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY); INSERT INTO schema_migrations VALUES (1)`,
		`INSERT INTO battles (id, ruleset, scenario, seed, commitment, ended, created)
			VALUES ('0123456789abcdef', 'dropzone', 'ruleset: dropzone', '18446744073709551615', '` + volley.Commit(1<<64-1) + `', 1, 1)`,
		`INSERT INTO battle_tokens VALUES ('0123456789abcdef', 'red', '` + strings.Repeat("a1", 32) + `')`,
	} {
		if _, err := raw.ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	db, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	storetest.Edition1Battle(t, db, "0123456789abcdef")
	if list, err := db.Battles(ctx, []string{strings.Repeat("a1", 32)}, 10); err != nil || len(list) != 1 {
		t.Errorf("the old battle's token lists %v, %v", list, err)
	}
}
