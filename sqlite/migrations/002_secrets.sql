-- Edition 2 battles (see volley.Edition): a 256-bit seed for ChaCha8 dice, kept in the
-- seed column as 64 hex digits and told apart from older battles' decimal PCG seeds by
-- the generator column; the rules edition the battle is played under; and the hash of
-- a spectator token that reads a battle without acting in it.

ALTER TABLE battles ADD COLUMN edition INTEGER NOT NULL DEFAULT 1 CHECK (edition >= 1);
ALTER TABLE battles ADD COLUMN generator TEXT NOT NULL DEFAULT 'pcg';
ALTER TABLE battles ADD COLUMN spectator_hash TEXT;

-- The battle list shows the battles a caller's tokens open: looked up by hash.
CREATE INDEX battle_tokens_hash ON battle_tokens (token_hash);
CREATE INDEX battles_spectator_hash ON battles (spectator_hash) WHERE spectator_hash IS NOT NULL;
