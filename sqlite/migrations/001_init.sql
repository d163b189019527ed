-- The event log of battles: a battle row, the hashes of its sides' tokens, and its
-- actions in order. A battle's state is never stored; it is replayed from the actions.

CREATE TABLE battles (
	id         TEXT PRIMARY KEY,
	ruleset    TEXT NOT NULL,
	scenario   TEXT NOT NULL,
	-- The seed is a uint64; SQLite integers are signed 64-bit, so it is kept as its
	-- decimal text, which round-trips every value exactly.
	seed       TEXT NOT NULL,
	commitment TEXT NOT NULL,
	ended      INTEGER NOT NULL DEFAULT 0 CHECK (ended IN (0, 1)),
	-- created orders the battle list, newest first: a counter, never a clock, so that
	-- the order cannot change with the time of the machine. CreateBattle sets it to
	-- one more than the largest so far; writers are serialized, and UNIQUE backs it.
	created    INTEGER NOT NULL UNIQUE
);

CREATE TABLE battle_tokens (
	battle_id  TEXT NOT NULL REFERENCES battles (id),
	side       TEXT NOT NULL,
	token_hash TEXT NOT NULL,
	PRIMARY KEY (battle_id, side)
);

CREATE TABLE actions (
	battle_id       TEXT NOT NULL REFERENCES battles (id),
	seq             INTEGER NOT NULL CHECK (seq >= 0),
	side            TEXT NOT NULL,
	body            TEXT NOT NULL,
	outcome         TEXT NOT NULL,
	idempotency_key TEXT,
	PRIMARY KEY (battle_id, seq)
);

CREATE UNIQUE INDEX actions_idempotency_key ON actions (battle_id, idempotency_key)
	WHERE idempotency_key IS NOT NULL;
