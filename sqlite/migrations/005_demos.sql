-- The demo battle of each rule system that `volley serve` keeps, with its tokens written
-- out: a demo is a public battle, whose links the home page offers to anyone (and serve
-- prints at every start), so its tokens are no secret. No other battle's tokens are kept.
CREATE TABLE demos (
    ruleset   TEXT PRIMARY KEY,
    battle_id TEXT NOT NULL REFERENCES battles (id),
    tokens    TEXT NOT NULL
);
