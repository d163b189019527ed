// Package postgres keeps volley's battles in PostgreSQL, for several servers sharing
// one database. It uses github.com/jackc/pgx/v5 and its pool.
//
// Correctness under several processes rests on the database, not on locks in Go: the
// primary key (battle_id, seq) lets only one of two racing appends take a place in a
// log, a unique index on (battle_id, idempotency_key) lets only one take a key, and an
// append holds a share lock on its battle's row so that ending a battle waits for the
// appends in flight and every later append sees the end.
package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/volley-wargames/volley"
)

// migrationLock is the key of the transaction-level advisory lock that migrations
// hold, so that servers starting at once against one database take turns: the
// first applies the migrations, the others find them applied. ("volley" in ASCII.)
const migrationLock int64 = 0x766f6c6c6579

// DB is a volley.Store in a PostgreSQL database.
type DB struct {
	pool *pgxpool.Pool
	// ListenErrors, if set, is told why Listen lost its connection before it connects
	// again.
	ListenErrors func(error)
}

var _ volley.Store = (*DB)(nil)

// Open connects to the database at url (postgres://user@host:port/db?sslmode=...;
// pgxpool's pool_* parameters size the pool) and brings its schema up to date.
func Open(ctx context.Context, url string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's message may quote the URL, password included: say only what failed.
		return nil, errors.New("postgres: open: cannot parse the database URL")
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	db := &DB{pool: pool}
	if err := db.migrate(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	return db, nil
}

// Close closes the pool's connections, waiting for those in use.
func (db *DB) Close() error {
	db.pool.Close()
	return nil
}

// migrationFiles holds the schema, one numbered file per change: NNN_name.sql, applied
// in the order of their numbers (volley.ReadMigrations).
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// migrate applies, in one transaction under the advisory lock, the migrations not
// yet recorded in schema_migrations.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := volley.ReadMigrations(migrationFiles, "migrations")
	if err != nil {
		return err
	}
	err = pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrationLock); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version integer PRIMARY KEY)`); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT version FROM schema_migrations`)
		if err != nil {
			return err
		}
		applied, err := pgx.CollectRows(rows, pgx.RowTo[int])
		if err != nil {
			return err
		}
		if len(applied) > 0 && len(ms) > 0 && slices.Max(applied) > ms[len(ms)-1].Version {
			return fmt.Errorf("the database's schema is version %d, newer than this volley knows (%d)",
				slices.Max(applied), ms[len(ms)-1].Version)
		}
		for _, m := range ms {
			if slices.Contains(applied, m.Version) {
				continue
			}
			if _, err := tx.Exec(ctx, m.SQL); err != nil {
				return fmt.Errorf("%s: %w", m.Name, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version) VALUES ($1)`, m.Version); err != nil {
				return fmt.Errorf("%s: %w", m.Name, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// SQLSTATE codes that AppendAction and CreateBattle expect.
const uniqueViolation = "23505"

// isUnique reports whether err is a unique violation (on any constraint or index).
func isUnique(err error) bool {
	var e *pgconn.PgError
	return errors.As(err, &e) && e.Code == uniqueViolation
}

func (db *DB) logListen(err error) {
	if db.ListenErrors != nil && err != nil {
		db.ListenErrors(err)
	}
}
