package postgres

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/volley-wargames/volley"
)

// nullKey is an idempotency key as stored: NULL when there is none, so that the
// unique index on keys ignores actions without one.
func nullKey(key string) any {
	if key == "" {
		return nil
	}
	return key
}

// CreateBattle stores a new battle and the hashes of its sides' tokens. A battle
// whose ID is taken is refused with ECONFLICT.
func (db *DB) CreateBattle(ctx context.Context, b *volley.BattleRecord) error {
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO battles (id, ruleset, scenario, seed, commitment, ended, edition, generator, spectator_hash)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING`,
			b.ID, b.Ruleset, b.Scenario, b.Seed.String(), b.Commitment, b.Ended,
			volley.EditionOf(b.Edition), string(b.Seed.Generator), nullKey(b.SpectatorHash))
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return volley.BattleTaken(b.ID)
		}
		for _, side := range b.TokenSides() {
			if _, err := tx.Exec(ctx, `INSERT INTO battle_tokens (battle_id, side, token_hash)
				VALUES ($1, $2, $3)`, b.ID, side, b.TokenHashes[side]); err != nil {
				return err
			}
		}
		return nil
	})
	var ve *volley.Error
	if errors.As(err, &ve) {
		return err
	}
	if err != nil {
		return fmt.Errorf("postgres: create battle: %w", err)
	}
	return nil
}

// Battle is volley.Store's: the battle's query and its tokens' go in one round trip and
// one implicit transaction.
func (db *DB) Battle(ctx context.Context, id string) (*volley.BattleRecord, error) {
	var batch pgx.Batch
	batch.Queue(`SELECT id, ruleset, scenario, seed, commitment, ended, edition, generator, COALESCE(spectator_hash, '')
		FROM battles WHERE id = $1`, id)
	batch.Queue(`SELECT side, token_hash FROM battle_tokens WHERE battle_id = $1`, id)
	br := db.pool.SendBatch(ctx, &batch)
	defer br.Close()

	b := volley.BattleRecord{TokenHashes: map[string]string{}}
	var seed, generator string
	err := br.QueryRow().Scan(&b.ID, &b.Ruleset, &b.Scenario, &seed, &b.Commitment, &b.Ended,
		&b.Edition, &generator, &b.SpectatorHash)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, volley.NoBattle(id)
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: battle: %w", err)
	}
	if b.Seed, err = volley.StoredSeed(id, generator, seed); err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	rows, err := br.Query()
	if err != nil {
		return nil, fmt.Errorf("postgres: battle: %w", err)
	}
	var side, hash string
	_, err = pgx.ForEachRow(rows, []any{&side, &hash}, func() error {
		b.TokenHashes[side] = hash
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: battle: %w", err)
	}
	if err := br.Close(); err != nil {
		return nil, fmt.Errorf("postgres: battle: %w", err)
	}
	return &b, nil
}

// Battles is volley.Store's: the hashes are bound as one array, matched with ANY.
func (db *DB) Battles(ctx context.Context, tokenHashes []string, limit int) ([]volley.BattleSummary, error) {
	list := []volley.BattleSummary{}
	if volley.ListsNone(tokenHashes, limit) {
		return list, nil
	}
	// The log has no gaps, so the number of actions is the largest seq plus one: a
	// look-up in the primary key's index rather than a count.
	rows, err := db.pool.Query(ctx, `SELECT id, ruleset, ended,
		(SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE battle_id = battles.id)
		FROM battles
		WHERE spectator_hash = ANY($1)
			OR id IN (SELECT battle_id FROM battle_tokens WHERE token_hash = ANY($1))
		ORDER BY created DESC LIMIT $2`, tokenHashes, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: battles: %w", err)
	}
	var s volley.BattleSummary
	_, err = pgx.ForEachRow(rows, []any{&s.ID, &s.Ruleset, &s.Ended, &s.Actions}, func() error {
		list = append(list, s)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: battles: %w", err)
	}
	return list, nil
}

// Empty reports whether the database holds no battle.
func (db *DB) Empty(ctx context.Context) (bool, error) {
	var some bool
	if err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM battles)`).Scan(&some); err != nil {
		return false, fmt.Errorf("postgres: empty: %w", err)
	}
	return !some, nil
}

// actionColumns are the columns scanAction reads, in its order.
const actionColumns = `battle_id, seq, side, body, outcome, COALESCE(idempotency_key, ''), chain`

// Actions returns the actions of battleID from seq from on, in order, or ENOTFOUND: all
// of them for volley.AllActions, else a page that ends with the action whose bytes reach
// maxBytes. The page is cut in the database (a running sum over the rows' lengths, which
// PostgreSQL reads without fetching the texts), so no more than a page crosses the wire.
func (db *DB) Actions(ctx context.Context, battleID string, from int, maxBytes int) ([]volley.ActionRecord, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+actionColumns+` FROM (
		SELECT *, SUM(octet_length(body) + octet_length(outcome)) OVER (ORDER BY seq ROWS UNBOUNDED PRECEDING)
			- (octet_length(body) + octet_length(outcome)) AS before
		FROM actions WHERE battle_id = $1 AND seq >= $2) page
		WHERE $3 <= 0 OR before < $3 ORDER BY seq`, battleID, from, maxBytes)
	if err != nil {
		return nil, fmt.Errorf("postgres: actions: %w", err)
	}
	list := []volley.ActionRecord{}
	var a volley.ActionRecord
	_, err = pgx.ForEachRow(rows, []any{&a.BattleID, &a.Seq, &a.Side, &a.Body, &a.Outcome, &a.IdempotencyKey, &a.Chain}, func() error {
		list = append(list, a)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: actions: %w", err)
	}
	if len(list) == 0 {
		// No actions from there on: an empty answer, unless there is no such battle.
		// Battles are never deleted, so a second statement sees the same answer.
		var exists bool
		if err := db.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM battles WHERE id = $1)`,
			battleID).Scan(&exists); err != nil {
			return nil, fmt.Errorf("postgres: actions: %w", err)
		}
		if !exists {
			return nil, volley.NoBattle(battleID)
		}
	}
	return list, nil
}

// AppendAction adds a to its battle's log and returns the stored record; or returns
// the action already stored under a.IdempotencyKey; or refuses with ENOTFOUND for an
// unknown battle, ECONFLICT for an ended battle or a seq that is not the next.
//
// The usual case is one statement, so one round trip and one transaction: an insert
// that takes place only if the battle exists, has not ended (read under a share lock
// on its row, which EndBattle must wait for) and a.Seq is the next. The database's
// unique constraints settle races the check cannot see: a second append at the same
// seq, or with the same key, fails with a unique violation. Whenever nothing was
// inserted, a second statement finds out why, looking for the key first, so that a
// retry gets its record however it lost.
func (db *DB) AppendAction(ctx context.Context, a *volley.ActionRecord) (*volley.ActionRecord, error) {
	// The notification goes out when the insert commits, in the same statement: a
	// server listening is told of every action stored, and of no other.
	tag, err := db.pool.Exec(ctx, `WITH ins AS (
		INSERT INTO actions (battle_id, seq, side, body, outcome, idempotency_key, chain)
		SELECT b.id, $2::bigint, $3::text, $4::text, $5::text, $6::text, $7::text FROM battles b
		WHERE b.id = $1::text AND NOT b.ended
			AND $2::bigint = (SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE battle_id = $1)
		FOR SHARE OF b
		RETURNING battle_id, seq)
		SELECT pg_notify('`+EventChannel+`', battle_id || ' ' || seq) FROM ins`,
		a.BattleID, a.Seq, a.Side, a.Body, a.Outcome, nullKey(a.IdempotencyKey), a.Chain)
	if err != nil && !isUnique(err) {
		return nil, fmt.Errorf("postgres: append action: %w", err)
	}
	if err == nil && tag.RowsAffected() == 1 {
		stored := *a
		return &stored, nil
	}
	return db.whyNotAppended(ctx, a)
}

// whyNotAppended is the rest of AppendAction when its insert took no place: the
// stored action if a's key has one, else the error that says why.
func (db *DB) whyNotAppended(ctx context.Context, a *volley.ActionRecord) (*volley.ActionRecord, error) {
	var ended bool
	var next int
	var prior struct {
		seq                        *int
		side, body, outcome, chain string
	}
	err := db.pool.QueryRow(ctx, `SELECT b.ended,
			(SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE battle_id = b.id),
			p.seq, COALESCE(p.side, ''), COALESCE(p.body, ''), COALESCE(p.outcome, ''), COALESCE(p.chain, '')
		FROM battles b
		LEFT JOIN actions p ON p.battle_id = b.id AND p.idempotency_key = $2
		WHERE b.id = $1`, a.BattleID, nullKey(a.IdempotencyKey)).
		Scan(&ended, &next, &prior.seq, &prior.side, &prior.body, &prior.outcome, &prior.chain)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, volley.NoBattle(a.BattleID)
	case err != nil:
		return nil, fmt.Errorf("postgres: append action: %w", err)
	case prior.seq != nil:
		return &volley.ActionRecord{BattleID: a.BattleID, Seq: *prior.seq, Side: prior.side,
			Body: prior.body, Outcome: prior.outcome, IdempotencyKey: a.IdempotencyKey, Chain: prior.chain}, nil
	case ended:
		return nil, volley.BattleEnded(a.BattleID)
	default:
		return nil, volley.NotNextAction(a, next)
	}
}

// EndBattle marks the battle id ended, or returns ENOTFOUND. Ending it again does
// nothing. It waits for the appends in flight on the battle.
func (db *DB) EndBattle(ctx context.Context, id string) error {
	tag, err := db.pool.Exec(ctx, `WITH up AS (UPDATE battles SET ended = true WHERE id = $1 RETURNING id)
		SELECT pg_notify('`+EventChannel+`', id || ' end') FROM up`, id)
	if err != nil {
		return fmt.Errorf("postgres: end battle: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return volley.NoBattle(id)
	}
	return nil
}

// CreateTicket is volley.Store's: one transaction deletes the expired tickets and stores
// t's hash.
func (db *DB) CreateTicket(ctx context.Context, t *volley.TicketRecord, now time.Time) error {
	var stored bool
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM tickets WHERE expires < $1`, now.Unix()); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO tickets (hash, battle_id, role, expires)
			SELECT $1, id, $2, $3 FROM battles WHERE id = $4`, t.Hash, t.Role, t.Expires.Unix(), t.BattleID)
		stored = tag.RowsAffected() == 1
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: create ticket: %w", err)
	}
	if !stored {
		return volley.NoBattle(t.BattleID)
	}
	return nil
}

// Ticket is volley.Store's; its expiry is kept in Unix seconds.
func (db *DB) Ticket(ctx context.Context, hash string) (*volley.TicketRecord, error) {
	t := volley.TicketRecord{Hash: hash}
	var expires int64
	err := db.pool.QueryRow(ctx, `SELECT battle_id, role, expires FROM tickets WHERE hash = $1`, hash).
		Scan(&t.BattleID, &t.Role, &expires)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, volley.NoTicket()
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: ticket: %w", err)
	}
	t.Expires = time.Unix(expires, 0)
	return &t, nil
}

// EventChannel is the PostgreSQL channel on which every action stored and every battle
// ended is announced, as "<battle id> <seq>" or "<battle id> end". The log stays the
// truth: a listener reads the actions from the store.
const EventChannel = "volley_events"

// listenRetry is how long Listen waits before connecting again after losing its
// connection.
const listenRetry = time.Second

// Listen calls notify with the battle's id for every action stored and every battle
// ended through any server sharing the database, until ctx ends (LISTEN/NOTIFY, on a
// connection of its own taken out of the pool). Each time it (re)connects it calls
// notify("") first: while it was not listening anything may have happened, so every
// listener should read the log again.
func (db *DB) Listen(ctx context.Context, notify func(battleID string)) error {
	for {
		err := db.listen(ctx, notify)
		if ctx.Err() != nil {
			return nil
		}
		db.logListen(err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(listenRetry):
		}
	}
}

func (db *DB) listen(ctx context.Context, notify func(battleID string)) error {
	pc, err := db.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	conn := pc.Hijack() // a connection that listens is not handed to other queries
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, `LISTEN `+EventChannel); err != nil {
		return err
	}
	notify("")
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		id, _, _ := strings.Cut(n.Payload, " ")
		notify(id)
	}
}

// Demos lists the demo battles, by rule system.
func (db *DB) Demos(ctx context.Context) ([]volley.DemoRecord, error) {
	rows, err := db.pool.Query(ctx, `SELECT ruleset, battle_id, tokens FROM demos ORDER BY ruleset`)
	if err != nil {
		return nil, fmt.Errorf("postgres: demos: %w", err)
	}
	defer rows.Close()
	out, err := volley.ScanDemos(rows)
	if err != nil {
		return nil, fmt.Errorf("postgres: demos: %w", err)
	}
	return out, nil
}

// SetDemo makes d's battle its rule system's demo, unless another server took the place
// first.
func (db *DB) SetDemo(ctx context.Context, d *volley.DemoRecord, replaces string) (*volley.DemoRecord, error) {
	tokens, err := volley.DemoTokens(d)
	if err != nil {
		return nil, fmt.Errorf("postgres: set demo: %w", err)
	}
	if replaces == "" {
		_, err = db.pool.Exec(ctx, `INSERT INTO demos (ruleset, battle_id, tokens) SELECT $1, id, $2 FROM battles WHERE id = $3
			ON CONFLICT (ruleset) DO NOTHING`, d.Ruleset, tokens, d.BattleID)
	} else {
		_, err = db.pool.Exec(ctx, `UPDATE demos SET battle_id = $1, tokens = $2 WHERE ruleset = $3 AND battle_id = $4
			AND EXISTS (SELECT 1 FROM battles WHERE id = $1)`, d.BattleID, tokens, d.Ruleset, replaces)
	}
	if err != nil {
		return nil, fmt.Errorf("postgres: set demo: %w", err)
	}
	all, err := db.Demos(ctx)
	if err != nil {
		return nil, err
	}
	return volley.DemoAfter(all, d)
}

// SigningKey returns the seed of the database's signing key, storing fresh first if it
// holds none. The insert and the read are two statements, each seeing what was committed
// before it began: of servers racing to store a key one insert wins, the others' wait for
// it and do nothing, and every one of them then reads the winner's.
func (db *DB) SigningKey(ctx context.Context, fresh []byte) ([]byte, error) {
	if _, err := db.pool.Exec(ctx, `INSERT INTO signing_key (id, seed) VALUES (1, $1) ON CONFLICT (id) DO NOTHING`,
		hex.EncodeToString(fresh)); err != nil {
		return nil, fmt.Errorf("postgres: signing key: %w", err)
	}
	var seed string
	if err := db.pool.QueryRow(ctx, `SELECT seed FROM signing_key WHERE id = 1`).Scan(&seed); err != nil {
		return nil, fmt.Errorf("postgres: signing key: %w", err)
	}
	key, err := volley.SigningKeySeed(seed)
	if err != nil {
		return nil, fmt.Errorf("postgres: signing key: %w", err)
	}
	return key, nil
}
