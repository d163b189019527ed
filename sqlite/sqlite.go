// Package sqlite keeps volley's battles in one SQLite file: the default store, for a
// server alone on its machine. It uses modernc.org/sqlite, a translation of SQLite to
// Go, so that volley builds without a C compiler.
//
// The file is in WAL mode. Writes go through one connection, each in a transaction
// begun with BEGIN IMMEDIATE, so that writers queue in Go rather than meet SQLITE_BUSY;
// reads use a pool of their own and run beside the writer, each seeing the last
// committed state.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	driver "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/volley-wargames/volley"
)

// busyTimeout is how long, in milliseconds, a connection waits for a lock held by
// another process sharing the file (another server, or a CLI reading it) before it
// gives up with SQLITE_BUSY. Connections of one DB never wait for each other.
const busyTimeout = 5000

// minReaders is the least number of read connections; more are opened on a machine
// with more cores, one per core.
const minReaders = 4

// DB is a volley.Store in one SQLite file.
type DB struct {
	// Path is the file, made absolute.
	Path string

	write *sql.DB // one connection: writes are serialized here
	read  *sql.DB // a pool for reads

	// Statements of AppendAction, the hot path, prepared once on the write connection.
	actionByKey *sql.Stmt
	nextSeq     *sql.Stmt
	insertAct   *sql.Stmt
}

var _ volley.Store = (*DB)(nil)

// Open opens the SQLite file at path, creating it if it does not exist, and brings
// its schema up to date. The file must be on a local disk: WAL mode needs shared
// memory between the processes that open it.
//
// Durability: the file uses synchronous=NORMAL in WAL mode. A committed transaction
// is in the WAL before the commit returns, so it survives the process crashing or
// being killed (kill -9); only a power cut or an operating-system crash can lose
// the last commits before a checkpoint, and even then the file is never corrupt.
func Open(path string) (*DB, error) {
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return nil, fmt.Errorf("sqlite: open %q: need the path of a file", path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %q: %w", path, err)
	}
	db := &DB{Path: abs}

	// The writer: one connection, BEGIN IMMEDIATE so that a transaction takes the
	// write lock when it starts, not halfway through when it could no longer retry.
	db.write, err = sql.Open("sqlite", dsn(abs, url.Values{
		"_busy_timeout": {strconv.Itoa(busyTimeout)},
		"_foreign_keys": {"1"},
		"_journal_mode": {"WAL"},
		"_synchronous":  {"NORMAL"},
		"_txlock":       {"immediate"},
	}))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %q: %w", path, err)
	}
	db.write.SetMaxOpenConns(1)
	db.write.SetMaxIdleConns(1)
	db.write.SetConnMaxLifetime(0)
	db.write.SetConnMaxIdleTime(0)

	if err := db.setUp(context.Background()); err != nil {
		db.write.Close()
		return nil, fmt.Errorf("sqlite: open %q: %w", path, err)
	}

	// The readers: WAL mode is a property of the file, set by the writer above.
	// query_only makes a write sent here by mistake fail instead of racing the writer.
	db.read, err = sql.Open("sqlite", dsn(abs, url.Values{
		"_busy_timeout": {strconv.Itoa(busyTimeout)},
		"_foreign_keys": {"1"},
		"_query_only":   {"1"},
	}))
	if err != nil {
		db.write.Close()
		return nil, fmt.Errorf("sqlite: open %q: %w", path, err)
	}
	readers := max(minReaders, runtime.GOMAXPROCS(0))
	db.read.SetMaxOpenConns(readers)
	db.read.SetMaxIdleConns(readers)
	db.read.SetConnMaxIdleTime(0)
	db.read.SetConnMaxLifetime(0)
	return db, nil
}

// dsn is the modernc.org/sqlite name of the file at the absolute path abs with the
// driver's parameters q. A file: URI escapes whatever the path holds ('?', '#', '%').
func dsn(abs string, q url.Values) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: q.Encode()}
	return u.String()
}

// setUp checks the journal mode, migrates the schema and prepares the statements of
// the write connection.
func (db *DB) setUp(ctx context.Context) error {
	var mode string
	if err := db.write.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return err
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("journal mode is %q, not WAL", mode)
	}
	if err := db.migrate(ctx); err != nil {
		return err
	}
	var err error
	if db.actionByKey, err = db.write.PrepareContext(ctx, `SELECT `+actionColumns+`
		FROM actions WHERE battle_id = ? AND idempotency_key = ?`); err != nil {
		return err
	}
	// The next seq is one more than the largest: the log has no gaps, so it is also
	// the number of actions, found from the primary key's index without counting.
	if db.nextSeq, err = db.write.PrepareContext(ctx, `SELECT ended,
		(SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE battle_id = battles.id)
		FROM battles WHERE id = ?`); err != nil {
		return err
	}
	if db.insertAct, err = db.write.PrepareContext(ctx, `INSERT INTO actions
		(battle_id, seq, side, body, outcome, idempotency_key, chain) VALUES (?, ?, ?, ?, ?, ?, ?)`); err != nil {
		return err
	}
	return nil
}

// Close closes the file. Pending writes are committed already: nothing is lost.
func (db *DB) Close() error {
	var errs []error
	for _, s := range []*sql.Stmt{db.actionByKey, db.nextSeq, db.insertAct} {
		if s != nil {
			errs = append(errs, s.Close())
		}
	}
	errs = append(errs, db.read.Close(), db.write.Close())
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("sqlite: close: %w", err)
	}
	return nil
}

// migrationFiles holds the schema, one numbered file per change: NNN_name.sql, applied
// in the order of their numbers (volley.ReadMigrations).
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrate applies, in one transaction, the migrations not yet recorded in
// schema_migrations. The transaction begins IMMEDIATE, so two processes opening the
// file at once take turns.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := volley.ReadMigrations(migrationFiles, "migrations")
	if err != nil {
		return err
	}
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY)`); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	var newest int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&newest); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if len(ms) > 0 && newest > ms[len(ms)-1].Version {
		return fmt.Errorf("migrate: the file's schema is version %d, newer than this volley knows (%d)",
			newest, ms[len(ms)-1].Version)
	}
	for _, m := range ms {
		var done bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = ?)`,
			m.Version).Scan(&done); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		if done {
			continue
		}
		if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
			return fmt.Errorf("migrate: %s: %w", m.Name, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version) VALUES (?)`, m.Version); err != nil {
			return fmt.Errorf("migrate: %s: %w", m.Name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// isConstraint reports whether err is SQLite's refusal of a row for the extended
// result code code, such as SQLITE_CONSTRAINT_PRIMARYKEY.
func isConstraint(err error, code int) bool {
	var e *driver.Error
	return errors.As(err, &e) && e.Code() == code
}

// isPrimaryKey reports whether err is a primary-key violation.
func isPrimaryKey(err error) bool {
	return isConstraint(err, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY)
}
