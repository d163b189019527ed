-- Tickets to a battle's event stream: a page trades its token for one, since a browser's
-- EventSource sends no headers. Only the hash is kept, as for tokens; expires is in Unix
-- seconds, and expired tickets are deleted when new ones are made.
CREATE TABLE tickets (
    hash      text PRIMARY KEY,
    battle_id text NOT NULL REFERENCES battles (id),
    role      text NOT NULL,
    expires   bigint NOT NULL
);
CREATE INDEX tickets_expires ON tickets (expires);
