package volley

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/volley-wargames/volley/dice"
)

// A battle is stored as an event log: the scenario it began from, its secret seed, and
// the actions taken, in order. Its state is never stored; it is the fold of the actions
// over the scenario, so that replaying the log is the only way a battle is ever rebuilt,
// and an audit is the same computation as a restart.

// Edition numbers the editions of volley's rules whose battles play differently from the
// same scenario and dice. A battle is played, replayed and verified under the edition it
// began with, which its record and its log name:
//
//   - 1: battles begun before server-rolled seeds were secret: 64-bit PCG dice
//     (dice.GeneratorPCG), a commitment to the seed alone (Commit), and Dropzone and
//     Warfare without turns.
//   - 2: a 256-bit secret seed drawing ChaCha8 dice (dice.GeneratorChaCha8), a
//     commitment that binds the seed to the whole battle (Commitment), and turns in
//     every rule system.
//   - 3: as 2, with rulings that change what a fire does — Republique's compound
//     targets through the deep target rule, no deep target against a main target in
//     cover, one meaning of "combat base", adjacent targets beside the main target; the
//     War Engine's corrected shot decided at declaration and twin weapon names refused
//     (docs/rules/republique.md, docs/rules/warengine.md).
//   - 4: as 3, and units move (EditionMoves): a move is an action,
//     and the facts the rules read from movement are measured from the log, never taken
//     from the player over the API; sight is measured exactly, as an area (los.View),
//     where earlier editions counted sample rays (Dropzone's hull down, WarStrike's true
//     line of sight), with WarStrike's corrected readings of which side of area terrain a
//     model is on, what "partly visible" counts, who the casualty order measures from
//     and how ties in distance are broken (docs/rules/warstrike.md).
//   - 5 (the current one): as 4, with the rulings of the fifth round of independent checks;
//     each rule system names what it changes beside the constant that gates it, and its
//     docs/rules page lists them.
const Edition = 5

// BattleRecord is a stored battle, without its actions.
type BattleRecord struct {
	ID      string
	Ruleset string
	// Scenario is the document the battle began from, exactly as it was posted.
	Scenario string
	// Edition is the edition of the rules the battle is played under (see Edition); 0
	// in a record made before editions were recorded means 1.
	Edition int
	// Seed is the battle's secret: the stream for action n is Seed.ForAction(n). It is
	// revealed when the battle ends.
	Seed dice.Seed
	// Commitment is the hex SHA-256 published when the battle begins, which the revealed
	// seed must match (see Commitment).
	Commitment string
	// TokenHashes holds, for each side, the hex SHA-256 of the side's secret token.
	// The tokens themselves are shown once, when the battle is created.
	TokenHashes map[string]string
	// SpectatorHash is the hex SHA-256 of the token that reads the battle without acting
	// in it; "" for battles made before spectators.
	SpectatorHash string
	Ended         bool
}

// EditionOf is the edition a record or log names: 1 when it names none.
func EditionOf(n int) int { return max(n, 1) }

// ActionRecord is one action of a battle's log with its outcome.
type ActionRecord struct {
	BattleID string
	// Seq numbers the actions of a battle from 0; action Seq used the dice stream for
	// (seed, Seq).
	Seq int
	// Side is the side that acted.
	Side string
	// Body is the action as it was posted (YAML or JSON), so that a replay decodes
	// exactly what the player sent.
	Body string
	// Outcome is the JSON of the resolution: rolls, trace, targets.
	Outcome string
	// Chain is the head of the battle's chain after this action (ChainNext), as the
	// server worked it out when it stored the action; "" for an action stored before
	// chains were. It is kept so that a head can be given without reading the log from
	// its start; the log itself is what it is checked against.
	Chain string
	// IdempotencyKey, if not empty, makes a retried request return this record instead
	// of acting twice.
	IdempotencyKey string
}

// TicketRecord is a short-lived ticket to a battle's event stream. A browser's
// EventSource sends no headers, so a page trades its token for a ticket and puts the
// ticket, never the token, in the stream's URL. Only the ticket's hash is stored, as for
// tokens, so a copy of the database opens no stream.
type TicketRecord struct {
	Hash     string
	BattleID string
	// Role is the side the ticket was issued to, or "spectator".
	Role    string
	Expires time.Time
}

// DemoRecord is the demo battle `volley serve` keeps for a rule system, with its tokens:
// a demo is public (the home page links to it), so its tokens are kept, unlike any other
// battle's.
type DemoRecord struct {
	Ruleset  string
	BattleID string
	// Tokens are each side's token and, under "spectator", the spectator's.
	Tokens map[string]string
}

// SigningKeySize is the size of the seed of a store's signing key: an Ed25519 seed.
const SigningKeySize = ed25519.SeedSize

// AllActions asks Store.Actions for every action from a place on, in one answer.
const AllActions = 0

// Size is what an action counts against a page of Store.Actions, and a battle's log
// against its limit: the bytes of its body and of its outcome.
func (a *ActionRecord) Size() int { return len(a.Body) + len(a.Outcome) }

// BattleSummary is a line of the battle list.
type BattleSummary struct {
	ID      string `json:"id"`
	Ruleset string `json:"ruleset"`
	Actions int    `json:"actions"`
	Ended   bool   `json:"ended"`
}

// Store keeps battles and their logs. Implementations: sqlite (the default, one file)
// and postgres (several servers sharing one database); storetest holds the suite both
// pass. Errors are *Error with ENOTFOUND, ECONFLICT or EINTERNAL codes.
type Store interface {
	// CreateBattle stores a new battle. Its ID must be new.
	CreateBattle(ctx context.Context, b *BattleRecord) error
	// Battle returns a battle's record, or ENOTFOUND.
	Battle(ctx context.Context, id string) (*BattleRecord, error)
	// Battles lists the battles that any of tokenHashes opens (as a side's token or the
	// spectator's), newest first, at most limit of them.
	Battles(ctx context.Context, tokenHashes []string, limit int) ([]BattleSummary, error)
	// Empty reports whether the store holds no battle at all.
	Empty(ctx context.Context) (bool, error)
	// Actions returns a battle's actions with Seq ≥ from, in order: all of them when
	// maxBytes is AllActions, else one page of them, the first actions whose bodies and
	// outcomes together stay within maxBytes (always at least one, when there is one),
	// so that a log too large to hold at once is read a page at a time.
	Actions(ctx context.Context, battleID string, from int, maxBytes int) ([]ActionRecord, error)
	// AppendAction adds a.Seq to the log. In one transaction it returns the action
	// already stored under a.IdempotencyKey, if there is one (and no error), and
	// otherwise checks that a.Seq is the next number: if another action took that place
	// first the error is ECONFLICT and nothing is written. An ended battle refuses
	// actions with ECONFLICT.
	AppendAction(ctx context.Context, a *ActionRecord) (*ActionRecord, error)
	// EndBattle marks a battle ended: its seed may be revealed and it takes no more
	// actions. Ending an ended battle is not an error.
	EndBattle(ctx context.Context, id string) error
	// CreateTicket stores a ticket to a battle's event stream, by its hash, and forgets
	// every ticket that expired before now. The battle must exist (ENOTFOUND).
	CreateTicket(ctx context.Context, t *TicketRecord, now time.Time) error
	// Ticket returns the ticket stored under a hash, expired or not, or ENOTFOUND.
	Ticket(ctx context.Context, hash string) (*TicketRecord, error)
	// Demos lists the demo battles, one a rule system at most, by rule system.
	Demos(ctx context.Context) ([]DemoRecord, error)
	// SetDemo makes d's battle the demo of its rule system: if the system has none and
	// replaces is "", or its demo is still the battle replaces names. It returns the demo
	// that stands after, which is another's when another server set one first.
	SetDemo(ctx context.Context, d *DemoRecord, replaces string) (*DemoRecord, error)

	// SigningKey returns the seed of the key the servers of this store sign chain heads
	// with (an Ed25519 seed, SigningKeySize bytes): the one stored first. When the store
	// holds none it stores fresh and returns it. Servers racing to store one all get the
	// same key, and it never changes once stored, so that a head signed yesterday, or by
	// another server of the store, checks with the key served today.
	SigningKey(ctx context.Context, fresh []byte) ([]byte, error)
	// Close releases the store.
	Close() error
}

// Commit is the commitment of an edition 1 battle: the hex SHA-256 of the seed's eight
// bytes, most significant first. It proves the seed was chosen before the battle began,
// but not which battle it was chosen for.
func Commit(seed uint64) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], seed)
	sum := sha256.Sum256(b[:])
	return hex.EncodeToString(sum[:])
}

// Commitment is what a battle publishes when it begins, so that once its seed is
// revealed anyone can check that nothing about the battle was changed since. From
// edition 2 it is the hex SHA-256 of a text that binds the seed to the battle's id, rule
// system, edition, generator and the SHA-256 of its scenario (and so its title): a log
// whose id, scenario or title was altered no longer matches the commitment its players
// were given. Edition 1 committed to the seed alone (see Commit).
func Commitment(rec *BattleRecord) string {
	if EditionOf(rec.Edition) == 1 {
		n, _ := rec.Seed.Uint64()
		return Commit(n)
	}
	scen := sha256.Sum256([]byte(rec.Scenario))
	text := fmt.Sprintf("volley battle commitment\nedition: %d\nid: %s\nruleset: %s\ngenerator: %s\nscenario-sha256: %s\nseed: %s\n",
		rec.Edition, rec.ID, rec.Ruleset, rec.Seed.Generator, hex.EncodeToString(scen[:]), rec.Seed)
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// Migration is one numbered schema change of a store: a file NNN_name.sql.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// ReadMigrations reads a store's migration files (dir/NNN_name.sql) in the order of
// their numbers. Two files with one number, or a name without a number, are errors.
func ReadMigrations(fsys fs.FS, dir string) ([]Migration, error) {
	names, err := fs.Glob(fsys, path.Join(dir, "*.sql"))
	if err != nil {
		return nil, err
	}
	var ms []Migration
	for _, name := range names {
		base := path.Base(name)
		num, _, _ := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("volley: migration %s: name does not start with a number and '_'", base)
		}
		text, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		ms = append(ms, Migration{Version: v, Name: base, SQL: string(text)})
	}
	slices.SortFunc(ms, func(a, b Migration) int { return a.Version - b.Version })
	for i := 1; i < len(ms); i++ {
		if ms[i].Version == ms[i-1].Version {
			return nil, fmt.Errorf("volley: migrations %s and %s have the same number", ms[i-1].Name, ms[i].Name)
		}
	}
	return ms, nil
}

// What follows is the part of a Store's work that is the same whatever its SQL: the
// errors its contract names and the reading of rows every store reads alike.

// BattleTaken is the ECONFLICT CreateBattle answers for an id the store holds already.
func BattleTaken(id string) error {
	return Errorf(ECONFLICT, "battle %q already exists", id)
}

// TokenSides are b's sides in the order a store writes their tokens: sorted, so that
// every store, and every run, writes them alike.
func (b *BattleRecord) TokenSides() []string {
	return slices.Sorted(maps.Keys(b.TokenHashes))
}

// StoredSeed is the seed of battle id read back as stores keep it: the name of its
// generator and its text (dice.Seed.String). The caller names its store in the error.
func StoredSeed(id, generator, text string) (dice.Seed, error) {
	seed, err := dice.ParseSeed(dice.Generator(generator), text)
	if err != nil {
		return dice.Seed{}, fmt.Errorf("battle %q: bad seed: %w", id, err)
	}
	return seed, nil
}

// ListsNone reports whether Battles lists no battle whatever the store holds: a limit
// of 0 or less, or no token hashes to look for.
func ListsNone(tokenHashes []string, limit int) bool {
	return limit <= 0 || len(tokenHashes) == 0
}

// NoBattle is the ENOTFOUND a store answers for a battle id it does not hold.
func NoBattle(id string) error {
	return Errorf(ENOTFOUND, "no battle %q", id)
}

// BattleEnded is the ECONFLICT AppendAction answers for a battle that has ended: it
// takes no more actions.
func BattleEnded(id string) error {
	return Errorf(ECONFLICT, "battle %q has ended", id)
}

// NotNextAction is the ECONFLICT AppendAction answers when a.Seq is not next, the
// number of the log's next action: another action took its place first, or a was
// numbered ahead.
func NotNextAction(a *ActionRecord, next int) error {
	return Errorf(ECONFLICT, "battle %q is at action %d, not %d", a.BattleID, next, a.Seq)
}

// AppendRefusal is the error AppendAction answers, once a's key names no stored
// action, for a's battle as it stands (ended, and next the number of its log's next
// action): BattleEnded, NotNextAction, or nil when a may be stored.
func AppendRefusal(a *ActionRecord, ended bool, next int) error {
	switch {
	case ended:
		return BattleEnded(a.BattleID)
	case a.Seq != next:
		return NotNextAction(a, next)
	}
	return nil
}

// NoTicket is the ENOTFOUND Ticket answers for a hash the store does not hold.
func NoTicket() error {
	return Errorf(ENOTFOUND, "no such ticket")
}

// DemoTokens are d's tokens as stores keep them: a JSON object, side to token.
func DemoTokens(d *DemoRecord) (string, error) {
	tokens, err := json.Marshal(d.Tokens)
	return string(tokens), err
}

// Rows is what ScanDemos reads of a query's answer: database/sql's rows and pgx's
// both are.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// ScanDemos reads the rows of a query of demos, each (ruleset, battle id, tokens as
// JSON), in their order. The caller closes rows and names its store in the error.
func ScanDemos(rows Rows) ([]DemoRecord, error) {
	var out []DemoRecord
	for rows.Next() {
		var d DemoRecord
		var tokens string
		if err := rows.Scan(&d.Ruleset, &d.BattleID, &tokens); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(tokens), &d.Tokens); err != nil {
			return nil, fmt.Errorf("%s's tokens: %w", d.Ruleset, err)
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// DemoAfter is what SetDemo answers once it has written, from all the demos as they
// now stand: the demo of d's rule system, which is another battle's when another server
// set one first, or ENOTFOUND when there is none (d's battle does not exist).
func DemoAfter(all []DemoRecord, d *DemoRecord) (*DemoRecord, error) {
	for i := range all {
		if all[i].Ruleset == d.Ruleset {
			return &all[i], nil
		}
	}
	return nil, NoBattle(d.BattleID)
}

// SigningKeySeed decodes a signing key's seed as stores keep it: in hex.
func SigningKeySeed(stored string) ([]byte, error) {
	key, err := hex.DecodeString(stored)
	if err != nil {
		return nil, fmt.Errorf("the stored key is not hex: %w", err)
	}
	return key, nil
}
