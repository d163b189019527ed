// Package storetest checks that a volley.Store keeps its contract: the suite that
// every implementation (sqlite, postgres) runs from its own tests, as testing/fstest
// does for file systems.
package storetest

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/postgres"
)

// PostgresURL is the URL of the test PostgreSQL server, from VOLLEY_TEST_POSTGRES (a
// user that may create databases; scripts/test starts the server and sets it). Without
// one the test is skipped, unless VOLLEY_REQUIRE_POSTGRES says the suite needs it.
func PostgresURL(tb testing.TB) string {
	tb.Helper()
	u := os.Getenv("VOLLEY_TEST_POSTGRES")
	if u == "" {
		if os.Getenv("VOLLEY_REQUIRE_POSTGRES") != "" {
			tb.Fatal("VOLLEY_REQUIRE_POSTGRES is set but VOLLEY_TEST_POSTGRES is not: the PostgreSQL server did not start")
		}
		tb.Skip("VOLLEY_TEST_POSTGRES not set: scripts/test starts a PostgreSQL server and sets it")
	}
	return u
}

// Postgres opens a store on the PostgreSQL database at url (PostgresURL's, or one made for
// the test), closed when the test ends.
func Postgres(tb testing.TB, url string) *postgres.DB {
	tb.Helper()
	db, err := postgres.Open(context.Background(), url)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// Edition1Battle checks the battle id of s, written before editions (with the first
// migration's schema, the largest PCG seed in decimal, no spectator, ended) and migrated
// since, for the edition 1 battle it was: its seed, edition and end as written, and its
// commitment still the seed's.
func Edition1Battle(t *testing.T, s volley.Store, id string) {
	t.Helper()
	b, err := s.Battle(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := b.Seed.Uint64(); !ok || n != 1<<64-1 || volley.EditionOf(b.Edition) != 1 || b.SpectatorHash != "" || !b.Ended {
		t.Errorf("the old battle reads back as %+v", b)
	}
	if volley.Commitment(b) != b.Commitment {
		t.Error("the old battle's commitment no longer matches its seed")
	}
}

// Run runs the conformance suite, each test in a subtest of t. open returns a new,
// empty store for the test it is given, and closes it (with t.Cleanup) when that
// test ends.
func Run(t *testing.T, open func(t *testing.T) volley.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s volley.Store)
	}{
		{"CreateAndRead", testCreateAndRead},
		{"SeedRoundTrip", testSeedRoundTrip},
		{"DuplicateID", testDuplicateID},
		{"NotFound", testNotFound},
		{"AppendInOrder", testAppendInOrder},
		{"WrongSeq", testWrongSeq},
		{"Idempotency", testIdempotency},
		{"EndedBattle", testEndedBattle},
		{"Battles", testBattles},
		{"LargeBody", testLargeBody},
		{"RaceForOneSeq", testRaceForOneSeq},
		{"RaceWithOneKey", testRaceWithOneKey},
		{"RetryLoop", testRetryLoop},
		{"EndWhileAppending", testEndWhileAppending},
		{"Tickets", testTickets},
		{"Pages", testPages},
		{"Demos", testDemos},
		{"SigningKey", testSigningKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.fn(t, open(t))
		})
	}
}

// NewBattle returns an edition 2 battle record with every field set, a ChaCha8 seed
// made from n, the tokens of two sides and a spectator's.
func NewBattle(id string, n uint64) *volley.BattleRecord {
	key := make([]byte, 32)
	binary.BigEndian.PutUint64(key[24:], n)
	b := &volley.BattleRecord{
		ID:       id,
		Ruleset:  "seed-rules",
		Scenario: "name: " + id + "\nsides: [red, blue]\n",
		Edition:  volley.Edition,
		Seed:     dice.Seed{Generator: dice.GeneratorChaCha8, Bytes: key},
		TokenHashes: map[string]string{
			"red":  strings.Repeat("a1", 32),
			"blue": strings.Repeat("b2", 32),
		},
		SpectatorHash: strings.Repeat("c3", 32),
	}
	b.Commitment = volley.Commitment(b)
	return b
}

// NewEdition1Battle returns a battle record as volley stored them before editions: a
// PCG seed n, a commitment to the seed alone, no spectator.
func NewEdition1Battle(id string, n uint64) *volley.BattleRecord {
	b := NewBattle(id, n)
	b.Edition, b.Seed, b.SpectatorHash = 1, dice.PCGSeed(n), ""
	b.Commitment = volley.Commitment(b)
	return b
}

// MustCreate stores b, failing the test if it cannot.
func MustCreate(tb testing.TB, s volley.Store, b *volley.BattleRecord) {
	tb.Helper()
	if err := s.CreateBattle(context.Background(), b); err != nil {
		tb.Fatalf("CreateBattle(%q) = %v", b.ID, err)
	}
}

// action returns action seq of battle id, with a body, an outcome and a chain head
// naming it.
func action(id string, seq int, key string) *volley.ActionRecord {
	side := "red"
	if seq%2 == 1 {
		side = "blue"
	}
	return &volley.ActionRecord{
		BattleID:       id,
		Seq:            seq,
		Side:           side,
		Body:           fmt.Sprintf("fire:\n  unit: u%d\n  at: t%d\n", seq, seq),
		Outcome:        fmt.Sprintf(`{"seq":%d,"rolls":[6,1,3],"trace":"hit"}`, seq),
		IdempotencyKey: key,
		Chain:          fmt.Sprintf("%064x", seq+1),
	}
}

// mustAppend appends a, failing the test if it cannot, and checks that the stored
// record is a.
func mustAppend(tb testing.TB, s volley.Store, a *volley.ActionRecord) {
	tb.Helper()
	got, err := s.AppendAction(context.Background(), a)
	if err != nil {
		tb.Fatalf("AppendAction(%q, seq %d) = %v", a.BattleID, a.Seq, err)
	}
	if !reflect.DeepEqual(got, a) {
		tb.Fatalf("AppendAction(%q, seq %d) = %+v; want %+v", a.BattleID, a.Seq, got, a)
	}
}

// mustActions returns the actions of battle id from seq from on.
func mustActions(tb testing.TB, s volley.Store, id string, from int) []volley.ActionRecord {
	tb.Helper()
	list, err := s.Actions(context.Background(), id, from, volley.AllActions)
	if err != nil {
		tb.Fatalf("Actions(%q, %d) = %v", id, from, err)
	}
	return list
}

// wantCode fails the test unless err carries code.
func wantCode(tb testing.TB, what string, err error, code string) {
	tb.Helper()
	if got := volley.ErrorCode(err); got != code {
		tb.Errorf("%s: error %v (code %q); want code %q", what, err, got, code)
	}
}

func testCreateAndRead(t *testing.T, s volley.Store) {
	ctx := context.Background()
	want := NewBattle("b1", 42)
	want.Scenario = "name: «Hill 112»\n# ünïcödé, quotes ' \" and a tab\t\n"
	MustCreate(t, s, want)
	got, err := s.Battle(ctx, "b1")
	if err != nil {
		t.Fatalf("Battle(b1) = %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Battle(b1) = %+v; want %+v", got, want)
	}

	// A battle with no tokens reads back with none.
	bare := NewBattle("b2", 7)
	bare.TokenHashes = nil
	MustCreate(t, s, bare)
	got, err = s.Battle(ctx, "b2")
	if err != nil {
		t.Fatalf("Battle(b2) = %v", err)
	}
	if len(got.TokenHashes) != 0 {
		t.Errorf("Battle(b2).TokenHashes = %v; want none", got.TokenHashes)
	}

	// A battle created ended reads back ended.
	done := NewBattle("b3", 8)
	done.Ended = true
	MustCreate(t, s, done)
	if got, err := s.Battle(ctx, "b3"); err != nil || !got.Ended {
		t.Errorf("Battle(b3) = %+v, %v; want ended", got, err)
	}
}

func testSeedRoundTrip(t *testing.T, s volley.Store) {
	ctx := context.Background()
	for i, n := range []uint64{0, 1, 1<<63 - 1, 1 << 63, 1<<63 + 1, math.MaxUint64 - 1, math.MaxUint64} {
		for _, b := range []*volley.BattleRecord{NewBattle(fmt.Sprintf("seed%d", i), n), NewEdition1Battle(fmt.Sprintf("old%d", i), n)} {
			MustCreate(t, s, b)
			got, err := s.Battle(ctx, b.ID)
			if err != nil {
				t.Fatalf("Battle(%q) = %v", b.ID, err)
			}
			if !reflect.DeepEqual(got, b) {
				t.Errorf("Battle(%q) = %+v; want %+v", b.ID, got, b)
			}
		}
	}
}

func testDuplicateID(t *testing.T, s volley.Store) {
	ctx := context.Background()
	first := NewBattle("dup", 1)
	MustCreate(t, s, first)
	second := NewBattle("dup", 2)
	second.Ruleset = "other"
	second.TokenHashes = map[string]string{"green": "cc"}
	wantCode(t, "CreateBattle(dup) again", s.CreateBattle(ctx, second), volley.ECONFLICT)
	got, err := s.Battle(ctx, "dup")
	if err != nil {
		t.Fatalf("Battle(dup) = %v", err)
	}
	if !reflect.DeepEqual(got, first) {
		t.Errorf("after a refused duplicate, Battle(dup) = %+v; want the first %+v", got, first)
	}
}

func testNotFound(t *testing.T, s volley.Store) {
	ctx := context.Background()
	MustCreate(t, s, NewBattle("known", 1))
	_, err := s.Battle(ctx, "nope")
	wantCode(t, "Battle(nope)", err, volley.ENOTFOUND)
	_, err = s.Actions(ctx, "nope", 0, volley.AllActions)
	wantCode(t, "Actions(nope, 0)", err, volley.ENOTFOUND)
	_, err = s.AppendAction(ctx, action("nope", 0, ""))
	wantCode(t, "AppendAction(nope)", err, volley.ENOTFOUND)
	_, err = s.AppendAction(ctx, action("nope", 0, "key"))
	wantCode(t, "AppendAction(nope) with a key", err, volley.ENOTFOUND)
	wantCode(t, "EndBattle(nope)", s.EndBattle(ctx, "nope"), volley.ENOTFOUND)

	// A battle without actions is not a missing one.
	if list, err := s.Actions(ctx, "known", 0, volley.AllActions); err != nil || len(list) != 0 {
		t.Errorf("Actions(known, 0) = %v, %v; want none, no error", list, err)
	}
}

func testAppendInOrder(t *testing.T, s volley.Store) {
	MustCreate(t, s, NewBattle("b", 1))
	want := []volley.ActionRecord{*action("b", 0, ""), *action("b", 1, "k1"), *action("b", 2, "")}
	for i := range want {
		mustAppend(t, s, &want[i])
	}
	for from := -1; from <= 4; from++ {
		got := mustActions(t, s, "b", from)
		w := want[min(max(from, 0), len(want)):]
		if len(got) != len(w) || (len(w) > 0 && !reflect.DeepEqual(got, w)) {
			t.Errorf("Actions(b, %d) = %+v; want %+v", from, got, w)
		}
	}
}

func testWrongSeq(t *testing.T, s volley.Store) {
	ctx := context.Background()
	MustCreate(t, s, NewBattle("b", 1))
	first := action("b", 0, "")
	mustAppend(t, s, first)
	for _, seq := range []int{0, 2, 5, -1} { // a repeat, gaps, nonsense
		for _, key := range []string{"", "fresh"} {
			_, err := s.AppendAction(ctx, action("b", seq, key))
			wantCode(t, fmt.Sprintf("AppendAction(b, seq %d, key %q) when the next is 1", seq, key), err, volley.ECONFLICT)
		}
	}
	if got := mustActions(t, s, "b", 0); !reflect.DeepEqual(got, []volley.ActionRecord{*first}) {
		t.Errorf("after refused appends, Actions(b, 0) = %+v; want only %+v", got, first)
	}
	// The refused keys were not stored: the key works for the real next action.
	mustAppend(t, s, action("b", 1, "fresh"))
}

func testIdempotency(t *testing.T, s volley.Store) {
	ctx := context.Background()
	MustCreate(t, s, NewBattle("b", 1))
	MustCreate(t, s, NewBattle("other", 2))
	first := action("b", 0, "key-1")
	mustAppend(t, s, first)

	// Retries, whatever else they say, get the first record back and write nothing.
	retries := []*volley.ActionRecord{
		action("b", 0, "key-1"),
		action("b", 1, "key-1"),
		action("b", 7, "key-1"),
		{BattleID: "b", Seq: 1, Side: "blue", Body: "different", Outcome: "{}", IdempotencyKey: "key-1"},
	}
	for _, r := range retries {
		got, err := s.AppendAction(ctx, r)
		if err != nil || !reflect.DeepEqual(got, first) {
			t.Errorf("retry AppendAction(%+v) = %+v, %v; want the first %+v", r, got, err, first)
		}
	}
	if got := mustActions(t, s, "b", 0); len(got) != 1 {
		t.Fatalf("after retries, Actions(b, 0) has %d actions; want 1", len(got))
	}

	// A different key is a different action; so is no key, twice.
	mustAppend(t, s, action("b", 1, "key-2"))
	mustAppend(t, s, action("b", 2, ""))
	mustAppend(t, s, action("b", 3, ""))
	// Keys belong to a battle: another battle may use the same one.
	mustAppend(t, s, action("other", 0, "key-1"))
	if got := mustActions(t, s, "b", 0); len(got) != 4 {
		t.Errorf("Actions(b, 0) has %d actions; want 4", len(got))
	}

	// A retry after the battle ended still gets its record.
	if err := s.EndBattle(ctx, "b"); err != nil {
		t.Fatalf("EndBattle(b) = %v", err)
	}
	if got, err := s.AppendAction(ctx, action("b", 0, "key-1")); err != nil || !reflect.DeepEqual(got, first) {
		t.Errorf("retry after the end = %+v, %v; want the first %+v", got, err, first)
	}
}

func testEndedBattle(t *testing.T, s volley.Store) {
	ctx := context.Background()
	MustCreate(t, s, NewBattle("b", 1))
	mustAppend(t, s, action("b", 0, ""))
	for range 2 { // ending an ended battle is not an error
		if err := s.EndBattle(ctx, "b"); err != nil {
			t.Fatalf("EndBattle(b) = %v", err)
		}
	}
	got, err := s.Battle(ctx, "b")
	if err != nil || !got.Ended {
		t.Fatalf("Battle(b) = %+v, %v; want ended", got, err)
	}
	_, err = s.AppendAction(ctx, action("b", 1, ""))
	wantCode(t, "AppendAction(b) after the end", err, volley.ECONFLICT)
	_, err = s.AppendAction(ctx, action("b", 1, "new-key"))
	wantCode(t, "AppendAction(b) with a new key after the end", err, volley.ECONFLICT)
	if list := mustActions(t, s, "b", 0); len(list) != 1 {
		t.Errorf("Actions(b, 0) after the end has %d actions; want 1", len(list))
	}
}

func testBattles(t *testing.T, s volley.Store) {
	ctx := context.Background()
	everyone := []string{strings.Repeat("a1", 32)}
	if list, err := s.Battles(ctx, everyone, 10); err != nil || len(list) != 0 {
		t.Fatalf("Battles(10) of an empty store = %v, %v; want none", list, err)
	}
	if empty, err := s.Empty(ctx); err != nil || !empty {
		t.Fatalf("Empty() of an empty store = %v, %v; want true", empty, err)
	}
	// IDs out of alphabetical order, so that the order must be the order of creation.
	// Every battle has the same red token (a1…) but its own blue and spectator tokens.
	spectator := map[string]string{}
	for i, id := range []string{"m", "z", "a", "q"} {
		b := NewBattle(id, uint64(i))
		b.Ruleset = "rules-" + id
		b.TokenHashes["blue"] = fmt.Sprintf("%064x", i+100)
		b.SpectatorHash = fmt.Sprintf("%064x", i+200)
		spectator[id] = b.SpectatorHash
		MustCreate(t, s, b)
	}
	if empty, err := s.Empty(ctx); err != nil || empty {
		t.Fatalf("Empty() = %v, %v; want false", empty, err)
	}
	for i := range 3 {
		mustAppend(t, s, action("z", i, ""))
	}
	mustAppend(t, s, action("a", 0, ""))
	if err := s.EndBattle(ctx, "z"); err != nil {
		t.Fatalf("EndBattle(z) = %v", err)
	}
	all := []volley.BattleSummary{
		{ID: "q", Ruleset: "rules-q"},
		{ID: "a", Ruleset: "rules-a", Actions: 1},
		{ID: "z", Ruleset: "rules-z", Actions: 3, Ended: true},
		{ID: "m", Ruleset: "rules-m"},
	}
	for _, limit := range []int{1, 2, 4, 100} {
		got, err := s.Battles(ctx, everyone, limit)
		if err != nil {
			t.Fatalf("Battles(%d) = %v", limit, err)
		}
		if want := all[:min(limit, len(all))]; !reflect.DeepEqual(got, want) {
			t.Errorf("Battles(%d) = %+v; want %+v", limit, got, want)
		}
	}
	// Each battle's own tokens open it alone; tokens of no battle open nothing.
	for _, tc := range []struct {
		hashes []string
		want   []volley.BattleSummary
	}{
		{[]string{fmt.Sprintf("%064x", 101)}, all[2:3]},
		{[]string{spectator["a"]}, all[1:2]},
		{[]string{spectator["q"], fmt.Sprintf("%064x", 100), strings.Repeat("ff", 32)}, []volley.BattleSummary{all[0], all[3]}},
		{[]string{strings.Repeat("ff", 32)}, []volley.BattleSummary{}},
		{nil, []volley.BattleSummary{}},
	} {
		got, err := s.Battles(ctx, tc.hashes, 100)
		if err != nil {
			t.Fatalf("Battles(%v) = %v", tc.hashes, err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Battles(%v) = %+v; want %+v", tc.hashes, got, tc.want)
		}
	}
}

func testLargeBody(t *testing.T, s volley.Store) {
	MustCreate(t, s, NewBattle("b", 1))
	const size = 100 << 10
	line := "- fire: {unit: «Tiger», at: 'Sherman', dice: [6, 6, 1]}\n"
	a := action("b", 0, "big")
	a.Body = strings.Repeat(line, size/len(line)+1)[:size]
	a.Outcome = strings.Repeat(`{"roll":6,"trace":"ü"},`, size/24+1)
	mustAppend(t, s, a)
	got := mustActions(t, s, "b", 0)
	if len(got) != 1 || got[0].Body != a.Body || got[0].Outcome != a.Outcome {
		t.Errorf("a %d-byte body and %d-byte outcome did not round-trip", len(a.Body), len(a.Outcome))
	}
}

// writers is how many goroutines race in the concurrency tests.
const writers = 8

// raceRounds is how many times the race tests race: the first round may find the
// store's connections still opening, one by one, and the writers not racing at all.
const raceRounds = 10

// race starts writers goroutines at once, each calling fn with its number, and
// waits for them.
func race(fn func(g int)) {
	start := make(chan struct{})
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			<-start
			fn(g)
		})
	}
	close(start)
	wg.Wait()
}

func testRaceForOneSeq(t *testing.T, s volley.Store) {
	ctx := context.Background()
	MustCreate(t, s, NewBattle("b", 1))
	for seq := range raceRounds {
		errs := make([]error, writers)
		race(func(g int) {
			a := action("b", seq, "")
			a.Side = fmt.Sprintf("g%d", g)
			_, errs[g] = s.AppendAction(ctx, a)
		})
		won := 0
		for g, err := range errs {
			switch volley.ErrorCode(err) {
			case "":
				won++
			case volley.ECONFLICT:
			default:
				t.Errorf("seq %d, writer %d: %v; want success or a conflict", seq, g, err)
			}
		}
		if won != 1 {
			t.Errorf("%d writers appended seq %d; want exactly 1", won, seq)
		}
	}
	if list := mustActions(t, s, "b", 0); len(list) != raceRounds {
		t.Errorf("Actions(b, 0) has %d actions; want %d", len(list), raceRounds)
	}
}

func testRaceWithOneKey(t *testing.T, s volley.Store) {
	ctx := context.Background()
	MustCreate(t, s, NewBattle("b", 1))
	for seq := range raceRounds {
		got := make([]*volley.ActionRecord, writers)
		errs := make([]error, writers)
		race(func(g int) {
			a := action("b", seq, fmt.Sprintf("key-%d", seq))
			a.Side = fmt.Sprintf("g%d", g) // whoever wins, all must get the winner's record
			a.Chain = fmt.Sprintf("%064x", g)
			got[g], errs[g] = s.AppendAction(ctx, a)
		})
		for g := range writers {
			if errs[g] != nil {
				t.Errorf("seq %d, writer %d: %v; want the stored record", seq, g, errs[g])
			} else if !reflect.DeepEqual(got[g], got[0]) {
				t.Errorf("seq %d: writer %d got %+v; writer 0 got %+v", seq, g, got[g], got[0])
			}
		}
	}
	if list := mustActions(t, s, "b", 0); len(list) != raceRounds {
		t.Errorf("Actions(b, 0) has %d actions; want %d", len(list), raceRounds)
	}
}

func testRetryLoop(t *testing.T, s volley.Store) {
	const each = 25
	ctx := context.Background()
	MustCreate(t, s, NewBattle("b", 1))
	race(func(g int) {
		seq := 0
		for i := 0; i < each; {
			a := &volley.ActionRecord{BattleID: "b", Seq: seq, Side: fmt.Sprintf("g%d", g),
				Body: fmt.Sprintf("g%d-%d", g, i), Outcome: "{}"}
			_, err := s.AppendAction(ctx, a)
			switch volley.ErrorCode(err) {
			case "":
				i++
				seq++
			case volley.ECONFLICT:
				// Someone else took seq: catch up with the log and try again.
				list, err := s.Actions(ctx, "b", seq, volley.AllActions)
				if err != nil {
					t.Errorf("writer %d: Actions: %v", g, err)
					return
				}
				seq += len(list)
			default:
				t.Errorf("writer %d: AppendAction(seq %d): %v", g, seq, err)
				return
			}
		}
	})
	list := mustActions(t, s, "b", 0)
	if len(list) != writers*each {
		t.Fatalf("Actions(b, 0) has %d actions; want %d", len(list), writers*each)
	}
	seen := map[string]bool{}
	for i, a := range list {
		if a.Seq != i {
			t.Fatalf("action %d has seq %d", i, a.Seq)
		}
		if seen[a.Body] {
			t.Errorf("%s appended twice", a.Body)
		}
		seen[a.Body] = true
	}
}

// testEndWhileAppending ends a battle while writers append to it: no append may
// land after EndBattle returns, and every append that succeeded is in the log.
func testEndWhileAppending(t *testing.T, s volley.Store) {
	ctx := context.Background()
	MustCreate(t, s, NewBattle("b", 1))
	var mu sync.Mutex
	appended := map[int]bool{} // seqs whose AppendAction succeeded
	var wg sync.WaitGroup
	wg.Go(func() {
		race(func(g int) {
			seq := 0
			for range 10000 {
				_, err := s.AppendAction(ctx, action("b", seq, ""))
				switch volley.ErrorCode(err) {
				case "":
					mu.Lock()
					appended[seq] = true
					mu.Unlock()
					seq++
					continue
				case volley.ECONFLICT:
				default:
					t.Errorf("writer %d: AppendAction(seq %d): %v", g, seq, err)
					return
				}
				if b, err := s.Battle(ctx, "b"); err != nil || b.Ended {
					return
				}
				list, err := s.Actions(ctx, "b", seq, volley.AllActions)
				if err != nil {
					t.Errorf("writer %d: Actions: %v", g, err)
					return
				}
				seq += len(list)
			}
			t.Errorf("writer %d: the battle never ended", g)
		})
	})
	// Let the writers get going, then end the battle under them.
	for deadline := time.Now().Add(10 * time.Second); len(mustActions(t, s, "b", 0)) < 20; {
		if time.Now().After(deadline) {
			t.Fatal("the writers appended nothing for 10s")
		}
		time.Sleep(time.Millisecond)
	}
	if err := s.EndBattle(ctx, "b"); err != nil {
		t.Fatalf("EndBattle(b) = %v", err)
	}
	atEnd := len(mustActions(t, s, "b", 0))
	wg.Wait()
	list := mustActions(t, s, "b", 0)
	if len(list) != atEnd {
		t.Errorf("the log had %d actions when EndBattle returned and %d later", atEnd, len(list))
	}
	for seq := range appended {
		if seq >= len(list) {
			t.Errorf("AppendAction(seq %d) succeeded but the log has %d actions", seq, len(list))
		}
	}
}

// testTickets: a ticket is found by its hash with its battle, role and expiry (to the
// second); a ticket for an unknown battle is refused; making a ticket forgets those
// expired before its clock, and keeps the others.
func testTickets(t *testing.T, s volley.Store) {
	ctx := context.Background()
	MustCreate(t, s, NewBattle("tickets", 1))
	now := time.Unix(1_800_000_000, 0)
	old := &volley.TicketRecord{Hash: strings.Repeat("a", 64), BattleID: "tickets", Role: "red", Expires: now.Add(30 * time.Second)}
	if err := s.CreateTicket(ctx, old, now); err != nil {
		t.Fatal(err)
	}
	got, err := s.Ticket(ctx, old.Hash)
	if err != nil {
		t.Fatal(err)
	}
	if got.BattleID != "tickets" || got.Role != "red" || !got.Expires.Equal(old.Expires) {
		t.Errorf("ticket %+v, want %+v", got, old)
	}
	_, err = s.Ticket(ctx, strings.Repeat("b", 64))
	wantCode(t, "unknown ticket", err, volley.ENOTFOUND)
	err = s.CreateTicket(ctx, &volley.TicketRecord{Hash: strings.Repeat("c", 64), BattleID: "nowhere", Role: "red", Expires: now}, now)
	wantCode(t, "ticket for no battle", err, volley.ENOTFOUND)
	// A minute later the first has expired: a new ticket sweeps it away.
	later := now.Add(time.Minute)
	fresh := &volley.TicketRecord{Hash: strings.Repeat("d", 64), BattleID: "tickets", Role: "spectator", Expires: later.Add(time.Minute)}
	if err := s.CreateTicket(ctx, fresh, later); err != nil {
		t.Fatal(err)
	}
	_, err = s.Ticket(ctx, old.Hash)
	wantCode(t, "expired ticket after a sweep", err, volley.ENOTFOUND)
	if got, err := s.Ticket(ctx, fresh.Hash); err != nil || got.Role != "spectator" {
		t.Errorf("fresh ticket: %+v, %v", got, err)
	}
}

// testPages reads a log a page at a time: each page ends with the action whose bytes
// reach the bound (so it holds at least one), pages read in turn give the whole log, and
// a page past the end is empty for a battle that exists and ENOTFOUND for one that does
// not.
func testPages(t *testing.T, s volley.Store) {
	ctx := context.Background()
	MustCreate(t, s, NewBattle("paged", 1))
	var all []volley.ActionRecord
	for seq := range 9 {
		a := action("paged", seq, "")
		a.Body += strings.Repeat("x", 100*seq) // actions of different sizes
		mustAppend(t, s, a)
		all = append(all, *a)
	}
	for _, limit := range []int{1, 50, 300, 700, 1 << 20} {
		var got []volley.ActionRecord
		for from := 0; ; {
			page, err := s.Actions(ctx, "paged", from, limit)
			if err != nil {
				t.Fatalf("Actions(paged, %d, %d) = %v", from, limit, err)
			}
			if len(page) == 0 {
				break
			}
			size := 0
			for i, a := range page {
				if i > 0 && size >= limit {
					t.Fatalf("Actions(paged, %d, %d): action %d follows %d bytes, past the page's bound", from, limit, a.Seq, size)
				}
				size += a.Size()
			}
			if next := from + len(page); next < len(all) && size < limit {
				t.Fatalf("Actions(paged, %d, %d) stopped at %d bytes, before the bound, with more to come", from, limit, size)
			}
			got = append(got, page...)
			from += len(page)
		}
		if !reflect.DeepEqual(got, all) {
			t.Errorf("pages of %d bytes give %d actions; want the log's %d in order", limit, len(got), len(all))
		}
	}
	if page, err := s.Actions(ctx, "paged", 9, 10); err != nil || len(page) != 0 {
		t.Errorf("Actions(paged, 9, 10) = %v, %v; want none", page, err)
	}
	_, err := s.Actions(ctx, "nope", 0, 10)
	wantCode(t, "Actions(nope, 0, 10)", err, volley.ENOTFOUND)
}

// testDemos keeps a demo per rule system: the first set stands, a second without
// replacing it loses to it, a replacement takes the place only from the demo it names,
// and a battle that does not exist is never a demo.
func testDemos(t *testing.T, s volley.Store) {
	ctx := context.Background()
	if all, err := s.Demos(ctx); err != nil || len(all) != 0 {
		t.Fatalf("demos of a new store: %v, %v", all, err)
	}
	for i, id := range []string{"d000000000000001", "d000000000000002", "d000000000000003"} {
		if err := s.CreateBattle(ctx, NewBattle(id, uint64(i))); err != nil {
			t.Fatal(err)
		}
	}
	first := &volley.DemoRecord{Ruleset: "seed-rules", BattleID: "d000000000000001", Tokens: map[string]string{"red": "r1", "spectator": "s1"}}
	got, err := s.SetDemo(ctx, first, "")
	if err != nil || got.BattleID != first.BattleID || got.Tokens["red"] != "r1" {
		t.Fatalf("the first demo: %+v, %v", got, err)
	}
	second := &volley.DemoRecord{Ruleset: "seed-rules", BattleID: "d000000000000002", Tokens: map[string]string{"red": "r2"}}
	if got, err := s.SetDemo(ctx, second, ""); err != nil || got.BattleID != first.BattleID {
		t.Errorf("a second demo racing the first: %+v, %v; want the first to stand", got, err)
	}
	if got, err := s.SetDemo(ctx, second, "d000000000000003"); err != nil || got.BattleID != first.BattleID {
		t.Errorf("replacing a demo that is not the one standing: %+v, %v; want the first to stand", got, err)
	}
	if got, err := s.SetDemo(ctx, second, first.BattleID); err != nil || got.BattleID != second.BattleID || got.Tokens["red"] != "r2" {
		t.Errorf("replacing the demo: %+v, %v; want the second", got, err)
	}
	ghost := &volley.DemoRecord{Ruleset: "other-rules", BattleID: "d00000000000000f", Tokens: map[string]string{}}
	if got, err := s.SetDemo(ctx, ghost, ""); volley.ErrorCode(err) != volley.ENOTFOUND {
		t.Errorf("a demo of no battle: %+v, %v; want not found", got, err)
	}
	if all, err := s.Demos(ctx); err != nil || len(all) != 1 || all[0].BattleID != second.BattleID {
		t.Errorf("demos: %+v, %v", all, err)
	}
}

// testSigningKey: the first signing key stored is the store's for good. Of writers racing
// to store one in an empty store, every one gets the same key, one of theirs; a later call
// with another key gets it back.
func testSigningKey(t *testing.T, s volley.Store) {
	ctx := context.Background()
	fresh := func(b byte) []byte { return bytes.Repeat([]byte{b}, volley.SigningKeySize) }
	keys := make([][]byte, writers)
	errs := make([]error, writers)
	race(func(g int) {
		keys[g], errs[g] = s.SigningKey(ctx, fresh(byte(g+1)))
	})
	for g := range writers {
		if errs[g] != nil || !bytes.Equal(keys[g], keys[0]) {
			t.Errorf("writer %d: SigningKey = %x, %v; writer 0 got %x", g, keys[g], errs[g], keys[0])
		}
	}
	if len(keys[0]) != volley.SigningKeySize || keys[0][0] == 0 || !bytes.Equal(keys[0], fresh(keys[0][0])) {
		t.Errorf("the key stored is %x; want one of the writers'", keys[0])
	}
	if again, err := s.SigningKey(ctx, fresh(0xee)); err != nil || !bytes.Equal(again, keys[0]) {
		t.Errorf("SigningKey again = %x, %v; want the first %x", again, err, keys[0])
	}
}
