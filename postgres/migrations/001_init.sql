-- The event log of battles: a battle row, the hashes of its sides' tokens, and its
-- actions in order. A battle's state is never stored; it is replayed from the actions.

CREATE TABLE battles (
	id         text PRIMARY KEY,
	ruleset    text NOT NULL,
	scenario   text NOT NULL,
	-- The seed is a uint64: numeric holds all of it, where bigint would stop at 2^63-1.
	seed       numeric(20, 0) NOT NULL CHECK (seed >= 0 AND seed <= 18446744073709551615),
	commitment text NOT NULL,
	ended      boolean NOT NULL DEFAULT false,
	-- created orders the battle list, newest first: a counter, never a clock, so that
	-- the order cannot change with the clocks of the servers.
	created    bigint GENERATED ALWAYS AS IDENTITY UNIQUE
);

CREATE TABLE battle_tokens (
	battle_id  text NOT NULL REFERENCES battles (id),
	side       text NOT NULL,
	token_hash text NOT NULL,
	PRIMARY KEY (battle_id, side)
);

-- Two appends racing for one place in a log cannot both succeed: the primary key
-- refuses the second. Nor can two with one idempotency key: the unique index does.
CREATE TABLE actions (
	battle_id       text NOT NULL REFERENCES battles (id),
	seq             bigint NOT NULL CHECK (seq >= 0),
	side            text NOT NULL,
	body            text NOT NULL,
	outcome         text NOT NULL,
	idempotency_key text,
	CONSTRAINT actions_pkey PRIMARY KEY (battle_id, seq)
);

CREATE UNIQUE INDEX actions_idempotency_key ON actions (battle_id, idempotency_key)
	WHERE idempotency_key IS NOT NULL;
