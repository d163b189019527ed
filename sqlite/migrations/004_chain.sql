-- Chained histories (volley.ChainNext): each action keeps the head of its battle's chain
-- after it, as the server worked it out when it stored the action; actions stored before
-- have none (''), and their heads are worked out from the log when it is read. And the
-- key the servers of this file sign heads with: one row, the Ed25519 seed in hex, stored
-- by the first server that needs it and never changed.
ALTER TABLE actions ADD COLUMN chain TEXT NOT NULL DEFAULT '';

CREATE TABLE signing_key (
	id   INTEGER PRIMARY KEY CHECK (id = 1),
	seed TEXT NOT NULL
);
