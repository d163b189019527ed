package sqlite

import (
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/volley-wargames/volley"
)

// actionColumns are the columns scanAction reads, in its order.
const actionColumns = `battle_id, seq, side, body, outcome, COALESCE(idempotency_key, ''), chain`

// scanAction reads a row of actionColumns.
func scanAction(row interface{ Scan(...any) error }) (*volley.ActionRecord, error) {
	var a volley.ActionRecord
	if err := row.Scan(&a.BattleID, &a.Seq, &a.Side, &a.Body, &a.Outcome, &a.IdempotencyKey, &a.Chain); err != nil {
		return nil, err
	}
	return &a, nil
}

// nullKey is an idempotency key as stored: NULL when there is none, so that the
// unique index on keys ignores actions without one.
func nullKey(key string) sql.NullString {
	return sql.NullString{String: key, Valid: key != ""}
}

// CreateBattle stores a new battle and the hashes of its sides' tokens. A battle
// whose ID is taken is refused with ECONFLICT.
func (db *DB) CreateBattle(ctx context.Context, b *volley.BattleRecord) error {
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: create battle: %w", err)
	}
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, `INSERT INTO battles
		(id, ruleset, scenario, seed, commitment, ended, edition, generator, spectator_hash, created)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(created), 0) + 1 FROM battles))`,
		b.ID, b.Ruleset, b.Scenario, b.Seed.String(), b.Commitment, b.Ended,
		volley.EditionOf(b.Edition), string(b.Seed.Generator), nullKey(b.SpectatorHash))
	if isPrimaryKey(err) {
		return volley.BattleTaken(b.ID)
	}
	if err != nil {
		return fmt.Errorf("sqlite: create battle: %w", err)
	}
	for _, side := range b.TokenSides() {
		if _, err := tx.ExecContext(ctx, `INSERT INTO battle_tokens (battle_id, side, token_hash)
			VALUES (?, ?, ?)`, b.ID, side, b.TokenHashes[side]); err != nil {
			return fmt.Errorf("sqlite: create battle: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: create battle: %w", err)
	}
	return nil
}

// Battle is volley.Store's: the battle and its tokens are read in one read transaction,
// so that they are of one moment.
func (db *DB) Battle(ctx context.Context, id string) (*volley.BattleRecord, error) {
	tx, err := db.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("sqlite: battle: %w", err)
	}
	defer tx.Rollback()
	b := volley.BattleRecord{TokenHashes: map[string]string{}}
	var seed, generator string
	var spectator sql.NullString
	err = tx.QueryRowContext(ctx, `SELECT id, ruleset, scenario, seed, commitment, ended, edition, generator, spectator_hash
		FROM battles WHERE id = ?`, id).Scan(&b.ID, &b.Ruleset, &b.Scenario, &seed, &b.Commitment, &b.Ended,
		&b.Edition, &generator, &spectator)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, volley.NoBattle(id)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: battle: %w", err)
	}
	if b.Seed, err = volley.StoredSeed(id, generator, seed); err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	b.SpectatorHash = spectator.String
	rows, err := tx.QueryContext(ctx, `SELECT side, token_hash FROM battle_tokens WHERE battle_id = ?`, id)
	if err != nil {
		return nil, fmt.Errorf("sqlite: battle: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var side, hash string
		if err := rows.Scan(&side, &hash); err != nil {
			return nil, fmt.Errorf("sqlite: battle: %w", err)
		}
		b.TokenHashes[side] = hash
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: battle: %w", err)
	}
	return &b, nil
}

// Battles is volley.Store's: the hashes are bound as one JSON array, read by json_each.
func (db *DB) Battles(ctx context.Context, tokenHashes []string, limit int) ([]volley.BattleSummary, error) {
	list := []volley.BattleSummary{}
	if volley.ListsNone(tokenHashes, limit) {
		return list, nil
	}
	hashes, err := json.Marshal(tokenHashes)
	if err != nil {
		return nil, fmt.Errorf("sqlite: battles: %w", err)
	}
	// The log has no gaps, so the number of actions is the largest seq plus one: a
	// look-up in the primary key's index rather than a count.
	rows, err := db.read.QueryContext(ctx, `WITH wanted(hash) AS (SELECT value FROM json_each(?))
		SELECT id, ruleset, ended,
			(SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE battle_id = battles.id)
		FROM battles
		WHERE spectator_hash IN (SELECT hash FROM wanted)
			OR id IN (SELECT battle_id FROM battle_tokens WHERE token_hash IN (SELECT hash FROM wanted))
		ORDER BY created DESC LIMIT ?`, string(hashes), limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: battles: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var s volley.BattleSummary
		if err := rows.Scan(&s.ID, &s.Ruleset, &s.Ended, &s.Actions); err != nil {
			return nil, fmt.Errorf("sqlite: battles: %w", err)
		}
		list = append(list, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: battles: %w", err)
	}
	return list, nil
}

// Empty reports whether the file holds no battle.
func (db *DB) Empty(ctx context.Context) (bool, error) {
	var some bool
	if err := db.read.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM battles)`).Scan(&some); err != nil {
		return false, fmt.Errorf("sqlite: empty: %w", err)
	}
	return !some, nil
}

// Actions returns the actions of battleID from seq from on, in order, or ENOTFOUND: all
// of them for volley.AllActions, else a page that ends with the action whose bytes reach
// maxBytes. Rows are read one by one, so the rest of a long log is never loaded.
func (db *DB) Actions(ctx context.Context, battleID string, from int, maxBytes int) ([]volley.ActionRecord, error) {
	tx, err := db.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("sqlite: actions: %w", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT `+actionColumns+` FROM actions
		WHERE battle_id = ? AND seq >= ? ORDER BY seq`, battleID, from)
	if err != nil {
		return nil, fmt.Errorf("sqlite: actions: %w", err)
	}
	defer rows.Close()
	list := []volley.ActionRecord{}
	size := 0
	for (maxBytes <= 0 || size < maxBytes) && rows.Next() {
		a, err := scanAction(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: actions: %w", err)
		}
		list = append(list, *a)
		size += a.Size()
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: actions: %w", err)
	}
	if len(list) == 0 {
		// No actions from there on: an empty answer, unless there is no such battle.
		var exists bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM battles WHERE id = ?)`,
			battleID).Scan(&exists); err != nil {
			return nil, fmt.Errorf("sqlite: actions: %w", err)
		}
		if !exists {
			return nil, volley.NoBattle(battleID)
		}
	}
	return list, nil
}

// AppendAction adds a to its battle's log, in one transaction: the action already
// stored under a.IdempotencyKey if there is one, else ENOTFOUND for an unknown
// battle, ECONFLICT for an ended battle or a seq that is not the next, else the
// insert. It returns the stored record.
func (db *DB) AppendAction(ctx context.Context, a *volley.ActionRecord) (*volley.ActionRecord, error) {
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("sqlite: append action: %w", err)
	}
	defer tx.Rollback()
	if a.IdempotencyKey != "" {
		prior, err := scanAction(tx.StmtContext(ctx, db.actionByKey).QueryRowContext(ctx, a.BattleID, a.IdempotencyKey))
		if err == nil {
			return prior, nil // a retry: nothing to write
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("sqlite: append action: %w", err)
		}
	}
	var ended bool
	var next int
	err = tx.StmtContext(ctx, db.nextSeq).QueryRowContext(ctx, a.BattleID).Scan(&ended, &next)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, volley.NoBattle(a.BattleID)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: append action: %w", err)
	}
	if err := volley.AppendRefusal(a, ended, next); err != nil {
		return nil, err
	}
	if _, err := tx.StmtContext(ctx, db.insertAct).ExecContext(ctx,
		a.BattleID, a.Seq, a.Side, a.Body, a.Outcome, nullKey(a.IdempotencyKey), a.Chain); err != nil {
		return nil, fmt.Errorf("sqlite: append action: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("sqlite: append action: %w", err)
	}
	stored := *a
	return &stored, nil
}

// EndBattle marks the battle id ended, or returns ENOTFOUND. Ending it again does
// nothing.
func (db *DB) EndBattle(ctx context.Context, id string) error {
	res, err := db.write.ExecContext(ctx, `UPDATE battles SET ended = 1 WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("sqlite: end battle: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("sqlite: end battle: %w", err)
	}
	if n == 0 {
		return volley.NoBattle(id)
	}
	return nil
}

// CreateTicket is volley.Store's: one write transaction deletes the expired tickets and
// stores t's hash.
func (db *DB) CreateTicket(ctx context.Context, t *volley.TicketRecord, now time.Time) error {
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: create ticket: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM tickets WHERE expires < ?`, now.Unix()); err != nil {
		return fmt.Errorf("sqlite: create ticket: %w", err)
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO tickets (hash, battle_id, role, expires)
		SELECT ?, id, ?, ? FROM battles WHERE id = ?`, t.Hash, t.Role, t.Expires.Unix(), t.BattleID)
	if err != nil {
		return fmt.Errorf("sqlite: create ticket: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return volley.NoBattle(t.BattleID)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: create ticket: %w", err)
	}
	return nil
}

// Ticket is volley.Store's; its expiry is kept in Unix seconds.
func (db *DB) Ticket(ctx context.Context, hash string) (*volley.TicketRecord, error) {
	t := volley.TicketRecord{Hash: hash}
	var expires int64
	err := db.read.QueryRowContext(ctx, `SELECT battle_id, role, expires FROM tickets WHERE hash = ?`, hash).
		Scan(&t.BattleID, &t.Role, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, volley.NoTicket()
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: ticket: %w", err)
	}
	t.Expires = time.Unix(expires, 0)
	return &t, nil
}

// Demos lists the demo battles, by rule system.
func (db *DB) Demos(ctx context.Context) ([]volley.DemoRecord, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT ruleset, battle_id, tokens FROM demos ORDER BY ruleset`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: demos: %w", err)
	}
	defer rows.Close()
	out, err := volley.ScanDemos(rows)
	if err != nil {
		return nil, fmt.Errorf("sqlite: demos: %w", err)
	}
	return out, nil
}

// SetDemo makes d's battle its rule system's demo, unless another took the place first.
func (db *DB) SetDemo(ctx context.Context, d *volley.DemoRecord, replaces string) (*volley.DemoRecord, error) {
	tokens, err := volley.DemoTokens(d)
	if err != nil {
		return nil, fmt.Errorf("sqlite: set demo: %w", err)
	}
	if replaces == "" {
		_, err = db.write.ExecContext(ctx, `INSERT INTO demos (ruleset, battle_id, tokens) SELECT ?, id, ? FROM battles WHERE id = ?
			ON CONFLICT (ruleset) DO NOTHING`, d.Ruleset, tokens, d.BattleID)
	} else {
		_, err = db.write.ExecContext(ctx, `UPDATE demos SET battle_id = ?, tokens = ? WHERE ruleset = ? AND battle_id = ?
			AND EXISTS (SELECT 1 FROM battles WHERE id = ?)`, d.BattleID, tokens, d.Ruleset, replaces, d.BattleID)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: set demo: %w", err)
	}
	all, err := db.Demos(ctx)
	if err != nil {
		return nil, err
	}
	return volley.DemoAfter(all, d)
}

// SigningKey returns the seed of the file's signing key, storing fresh first if it holds
// none. The insert and the read are one write transaction: of two processes sharing the
// file, the second finds the first's key.
func (db *DB) SigningKey(ctx context.Context, fresh []byte) ([]byte, error) {
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("sqlite: signing key: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO signing_key (id, seed) VALUES (1, ?) ON CONFLICT (id) DO NOTHING`,
		hex.EncodeToString(fresh)); err != nil {
		return nil, fmt.Errorf("sqlite: signing key: %w", err)
	}
	var seed string
	if err := tx.QueryRowContext(ctx, `SELECT seed FROM signing_key WHERE id = 1`).Scan(&seed); err != nil {
		return nil, fmt.Errorf("sqlite: signing key: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("sqlite: signing key: %w", err)
	}
	key, err := volley.SigningKeySeed(seed)
	if err != nil {
		return nil, fmt.Errorf("sqlite: signing key: %w", err)
	}
	return key, nil
}
