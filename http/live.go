package http

import (
	"container/list"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	"golang.org/x/sync/semaphore"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/opponent"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// live is a battle folded in memory: its record, the battle after its first next
// actions, and the idempotency keys seen so far. It is a cache: every use first reads
// the store for actions appended since (by this server or another) and applies them.
//
// Its lock is a weighted semaphore, so that waiting for it obeys the request's
// deadline: a reader (aim, odds, state) takes one unit and many read at once; a writer
// (folding new actions, resolving an action) takes them all.
type live struct {
	lock *semaphore.Weighted
	fold
	// size is the footprint the cache last counted for the fold, elem its place in the
	// cache's order of use, and tokens the battle's record as first folded (its token
	// hashes never change), to authenticate a request without reading the store; all
	// three belong to the cache's lock.
	size   int64
	elem   *list.Element
	tokens *volley.BattleRecord
	id     string
	// mu guards rebuilt, which is closed when the rebuild under way ends (nil when none
	// is), and failed, the error of a rebuild that found the log does not fold.
	mu      sync.Mutex
	rebuilt chan struct{}
	failed  error
}

// writeWeight is the lock's whole weight: what a writer takes, excluding every reader.
const writeWeight = 1 << 30

// fold is what a live battle knows, apart from its lock.
type fold struct {
	record *volley.BattleRecord
	title  string
	// values is how many values its scenario stands for (scenario.Doc.Values), and
	// viewBytes and stateBytes the size of its view and of its state as JSON when it was
	// built: what the work they cost is priced by (price.go).
	values                int64
	viewBytes, stateBytes int64
	ruleset               volley.Ruleset
	// game plays the log: the battle, its end and take-backs. battle is game.Battle(),
	// kept in step after every action (a take-back replaces it).
	game   *volley.Game
	battle volley.Battle
	next   int
	keys   map[string]volley.ActionRecord
	// logBytes is the size of the actions folded so far, bodies and outcomes.
	logBytes int64
	// head is the head of the battle's chain after its first next actions.
	head string
	// turns is whose turn it was after each of the last actions folded, and the chain's
	// head then, for the event stream: at most keptTurns of them, oldest first.
	turns []turnAfter
	// seat is the side volley plays (the scenario's opponent: section), nil when people
	// play every side, and bot plays it. The player's memory of the phase (what it has
	// tried, a fire plan under way) lives as long as the fold: a fold built again starts
	// a fresh one, which plans the phase again from the battle as it stands.
	seat *opponent.Seat
	bot  *opponent.Player
	// botPassed is the count of actions folded when the opponent last found nothing to
	// do in another side's turn (-1 when it has not): it is not asked again until an
	// action is appended.
	botPassed int
	// awaiting is the die a battle rolled by hand last asked for, while no action has
	// been taken since: nil when there is none.
	awaiting *awaiting
}

// awaiting is the die a battle rolled by hand waits for: an action of Side's was sent
// with Given faces, and volley needs Die's next. It is this server's memory of the last
// answer needs_roll, shown in the battle's view so that every side's page can say who is
// rolling what; the action itself, sent again with all its dice, is the only truth.
type awaiting struct {
	Side   string      `json:"side"`
	Action string      `json:"action"` // the action's kind: shoot, fire…
	Given  []int       `json:"given"`
	Die    dice.Wanted `json:"die"`
	seq    int         // the actions folded when it was asked
}

// turnAfter is whose turn it was after action Seq, and the chain's head.
type turnAfter struct {
	Seq  int
	Turn *volley.Turn
	Head string
}

// keptTurns bounds a fold's turns: a stream further behind reads its turns as unknown.
const keptTurns = 256

// folded records the turn and the chain's head after action seq, just folded.
func (f *fold) folded(seq int, turn *volley.Turn, head string) {
	if len(f.turns) == keptTurns {
		f.turns = append(f.turns[:0], f.turns[1:]...)
	}
	f.turns = append(f.turns, turnAfter{seq, turn, head})
	f.head = head
}

// turnAfter is the turn after action seq, or nil if it is no longer kept.
func (f *fold) turnAfter(seq int) *volley.Turn {
	for _, t := range f.turns {
		if t.Seq == seq {
			return t.Turn
		}
	}
	return nil
}

// headAfter is the chain's head after action seq: as the store keeps it, else as the
// fold worked it out if it still keeps it, else "".
func (f *fold) headAfter(a *volley.ActionRecord) string {
	if a.Chain != "" {
		return a.Chain
	}
	for _, t := range f.turns {
		if t.Seq == a.Seq {
			return t.Head
		}
	}
	return ""
}

// cache holds the live battles, bounded by the estimated bytes of their folds.
type cache struct {
	mu      sync.Mutex
	battles map[string]*live
	order   *list.List // of *live, most recently used at the front
	bytes   int64
	limit   int64
}

func newCache(limit int64) *cache {
	return &cache{battles: map[string]*live{}, order: list.New(), limit: limit}
}

// entry returns the live battle for id, made empty if there is none.
func (c *cache) entry(id string) *live {
	c.mu.Lock()
	defer c.mu.Unlock()
	l, ok := c.battles[id]
	if !ok {
		l = &live{lock: semaphore.NewWeighted(writeWeight), id: id}
		c.battles[id] = l
		l.elem = c.order.PushFront(l)
		return l
	}
	c.order.MoveToFront(l.elem)
	return l
}

// tokens returns the record of a folded battle, for its token hashes, or nil when the
// cache has not folded it.
func (c *cache) tokens(id string) *volley.BattleRecord {
	c.mu.Lock()
	defer c.mu.Unlock()
	if l := c.battles[id]; l != nil {
		return l.tokens
	}
	return nil
}

// lookup returns the live battle for id, or nil if the cache has none.
func (c *cache) lookup(id string) *live {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.battles[id]
}

// resize records the footprint of a fold that changed, and drops the least recently used
// battles while the cache holds more than its limit (never the one just resized). A
// dropped battle may still be in use; it is freed when its last user is done.
func (c *cache) resize(l *live, size int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.battles[l.id] != l {
		return // dropped while it was folded
	}
	c.bytes += size - l.size
	l.size = size
	if l.tokens == nil && l.record != nil {
		l.tokens = l.record
	}
	for c.bytes > c.limit {
		oldest := c.order.Back().Value.(*live)
		if oldest == l {
			break
		}
		c.remove(oldest)
	}
}

// drop removes l from the cache, if it is still there, so that the next use folds the
// log again from the start.
func (c *cache) drop(l *live) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.battles[l.id] == l {
		c.remove(l)
	}
}

func (c *cache) remove(l *live) {
	delete(c.battles, l.id)
	c.order.Remove(l.elem)
	c.bytes -= l.size
}

// CacheBytes is the estimated memory of the battles the server keeps folded: at most
// Limits.CacheBytes, or the one battle in use when it alone is larger.
func (s *Server) CacheBytes() int64 { return s.cache.Bytes() }

// Bytes is the estimated memory of the battles the cache holds.
func (c *cache) Bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

// Footprint factors: a folded battle costs about this many bytes for each byte of its
// scenario (the parsed document, positions, and the rule system's own structures: a
// 512×512 War Engine map holds three numbers a square), and for each byte of its log
// (idempotency keys keep their actions). TestFootprint measures the real cost of the
// largest scenarios against this estimate.
const (
	footprintPerScenarioByte = 40
	footprintPerLogByte      = 2
	footprintBase            = 64 << 10
)

// footprint estimates the memory of a fold.
func footprint(f *fold) int64 {
	if f.record == nil {
		return 0
	}
	return footprintBase + footprintPerScenarioByte*int64(len(f.record.Scenario)) + footprintPerLogByte*f.logBytes
}

// openRead returns the live battle for id, up to date with the store and locked for
// reading: the caller calls done when it has finished. Several readers of one battle run
// at once; only folding new actions needs the battle to itself.
func (s *Server) openRead(ctx context.Context, id string) (l *live, done func(), err error) {
	for {
		l = s.cache.entry(id)
		if err := s.awaitRebuild(ctx, l); err != nil {
			return nil, nil, err
		}
		if err := l.lock.Acquire(ctx, 1); err != nil {
			return nil, nil, busy("the battle is busy")
		}
		if l.battle != nil {
			acts, err := s.store.Actions(ctx, id, l.next, 1)
			if err != nil {
				l.lock.Release(1)
				return nil, nil, err
			}
			if len(acts) == 0 {
				return l, func() { l.lock.Release(1) }, nil
			}
		}
		l.lock.Release(1)
		// Something to fold: take the battle for writing, fold, and read again.
		if err := s.lockWrite(ctx, l); err != nil {
			return nil, nil, err
		}
		_, err := s.sync(ctx, l)
		l.lock.Release(writeWeight)
		if err != nil {
			return nil, nil, err
		}
	}
}

// openWrite returns the live battle for id, up to date with the store and locked for
// writing: the caller calls done when it has finished.
func (s *Server) openWrite(ctx context.Context, id string) (*live, func(), error) {
	for {
		l := s.cache.entry(id)
		if err := s.awaitRebuild(ctx, l); err != nil {
			return nil, nil, err
		}
		if err := s.lockWrite(ctx, l); err != nil {
			return nil, nil, err
		}
		upToDate, err := s.sync(ctx, l)
		if err != nil {
			l.lock.Release(writeWeight)
			return nil, nil, err
		}
		if upToDate {
			return l, func() { l.lock.Release(writeWeight) }, nil
		}
		l.lock.Release(writeWeight) // a rebuild has begun: wait for it, then look again
	}
}

func (s *Server) lockWrite(ctx context.Context, l *live) error {
	if err := l.lock.Acquire(ctx, writeWeight); err != nil {
		return busy("the battle is busy")
	}
	return nil
}

// forget drops a fold after it may have gone wrong (an append refused after the action
// was applied in memory): the caller holds the write lock.
func (s *Server) forget(l *live) {
	l.fold = fold{}
	s.cache.drop(l)
}

// lightFoldActions is the most actions a request folds itself, in its own time; more are
// a rebuild, heavy work done in the background (see rebuild).
const lightFoldActions = 32

// sync brings the fold up to date with the store when that is light work: a scenario of
// at most Limits.LightBytes to build, and at most lightFoldActions actions to fold. It
// reports false when the work is heavy: it has then begun a rebuild in the background,
// which the caller waits for (awaitRebuild) after releasing the lock. The caller holds
// the write lock.
//
// Work stopped by the request's deadline keeps what it did: each action is folded
// whole or not at all (Resolve leaves the battle as it was when it fails), so the fold is
// always the battle after its first next actions. A fold that fails otherwise is
// forgotten: an unknown id, or a log that no longer folds, keeps nothing.
func (s *Server) sync(ctx context.Context, l *live) (upToDate bool, err error) {
	upToDate, err = s.syncLight(ctx, l)
	if err == nil && upToDate {
		err = s.endIfOver(ctx, l)
	}
	switch {
	case err != nil && volley.ErrorCode(err) != volley.EUNAVAILABLE:
		s.forget(l)
		return false, err
	case err == nil && !upToDate:
		s.startRebuild(l)
	}
	s.cache.resize(l, footprint(&l.fold))
	return upToDate, err
}

func (s *Server) syncLight(ctx context.Context, l *live) (bool, error) {
	if l.battle == nil {
		rec, err := s.store.Battle(ctx, l.id)
		if err != nil {
			return false, err
		}
		if len(rec.Scenario) > s.limits.LightBytes {
			return false, nil // building a big scenario is heavy work
		}
		switch err := l.build(rec, lightValues); {
		case err == errHeavyDoc:
			return false, nil // and so is one that stands for many values
		case err != nil:
			return false, err
		}
	}
	acts, err := s.store.Actions(ctx, l.id, l.next, s.limits.PageBytes)
	if err != nil {
		return false, err
	}
	if len(acts) > lightFoldActions || pageFull(acts, s.limits.PageBytes) {
		return false, nil
	}
	return true, l.foldActions(ctx, acts)
}

// pageFull reports whether a page of actions reached its bound, so that more may follow.
func pageFull(acts []volley.ActionRecord, limit int) bool {
	size := 0
	for i := range acts {
		size += acts[i].Size()
	}
	return size >= limit
}

// build makes the battle of a record, with none of its actions folded yet, and measures
// its views for their price (measureViews). A scenario that stands for more than most
// values is not built: errHeavyDoc.
func (l *live) build(rec *volley.BattleRecord, most int64) error {
	rs, game, doc, err := build(rec, most)
	if err != nil {
		return err
	}
	seat, err := opponent.ReadSeat(doc, game.Battle())
	if err != nil {
		return fmt.Errorf("http: stored scenario of %s: %w", rec.ID, err)
	}
	l.fold = fold{record: rec, ruleset: rs, game: game, battle: game.Battle(), title: titleOf(doc), values: doc.Values(), keys: map[string]volley.ActionRecord{}, head: volley.ChainStart(rec), seat: seat, botPassed: -1}
	if seat != nil {
		l.bot = &opponent.Player{Policy: seat.Policy, Side: seat.Side}
	}
	l.measureViews()
	return nil
}

// foldActions replays stored actions onto the fold, in order, keeping each that folds.
func (l *live) foldActions(ctx context.Context, acts []volley.ActionRecord) error {
	for _, a := range acts {
		if a.Seq != l.next {
			continue // folded meanwhile
		}
		err := replay(ctx, l.game, l.record, a)
		l.battle = l.game.Battle()
		if err != nil {
			return err
		}
		// The head is worked out from the log; the one stored beside the action must be it.
		head := volley.ChainNext(l.head, &a)
		if a.Chain != "" && a.Chain != head {
			return fmt.Errorf("http: action %d of %s does not chain to the actions before it: the log was altered in the store", a.Seq, l.record.ID)
		}
		l.next = a.Seq + 1
		l.logBytes += int64(a.Size())
		l.folded(a.Seq, l.battle.State().Turn, head)
		if a.IdempotencyKey != "" {
			l.keys[a.IdempotencyKey] = a
		}
	}
	return nil
}

// startRebuild begins rebuilding l in the background, unless it is under way.
func (s *Server) startRebuild(l *live) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.rebuilt != nil {
		return
	}
	done := make(chan struct{})
	l.rebuilt = done
	go func() {
		defer func() {
			l.mu.Lock()
			l.rebuilt = nil
			l.mu.Unlock()
			close(done)
		}()
		if err := s.rebuild(l); err != nil && s.base.Err() == nil {
			s.logger.Warn("rebuilding a battle failed", "battle", l.id, "error", err)
			l.mu.Lock()
			l.failed = err
			l.mu.Unlock()
		}
	}()
}

// awaitRebuild waits for a rebuild of l under way, if there is one, until ctx ends. A
// request that stops waiting leaves the rebuild running: its work is kept.
func (s *Server) awaitRebuild(ctx context.Context, l *live) error {
	l.mu.Lock()
	done := l.rebuilt
	l.mu.Unlock()
	if done == nil {
		return nil
	}
	// Waiting holds no request slot (as waiting for heavy work holds none): a flood of
	// requests about a battle being rebuilt would otherwise take every slot the light
	// requests need.
	resume := s.pause(ctx)
	select {
	case <-done:
		if err := resume(); err != nil {
			return err
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.failed // the requests waiting learn why; the next one tries again
	case <-ctx.Done():
		return busy("the battle is being rebuilt from its log, which takes a while once after a restart; its work is kept")
	}
}

// rebuild folds l's log, all of it: a slice (Limits.RebuildSlice) at a time in one of
// the rebuilds' places (Limits.Rebuilds), giving it to the next battle waiting between
// slices. Those places are apart from the heavy requests', so that however much heavy
// work is queued (a flood of maps from many addresses), a battle read again after a
// restart waits only for the other rebuilds, each a slice at a time (issue 34, break 7).
// It runs once per battle, in the background: a request waits for it or not, and its
// progress is kept either way. It stops when the server closes or the cache drops l.
func (s *Server) rebuild(l *live) error {
	for {
		if s.cache.lookup(l.id) != l {
			return nil // dropped: whoever asks next starts again
		}
		if err := s.rebuilds.Acquire(s.base, 1); err != nil {
			return err
		}
		done, err := s.rebuildSlice(l)
		s.rebuilds.Release(1)
		if err != nil || done {
			return err
		}
	}
}

// rebuildSlice folds l's log for at most Limits.RebuildSlice, and reports whether it is
// up to date.
func (s *Server) rebuildSlice(l *live) (bool, error) {
	ctx, cancel := context.WithTimeout(s.base, s.limits.RebuildSlice)
	defer cancel()
	if err := l.lock.Acquire(ctx, writeWeight); err != nil {
		return false, nil // readers held it all slice long: try again
	}
	defer l.lock.Release(writeWeight)
	err := s.rebuildFold(ctx, l)
	if err == nil {
		err = s.endIfOver(ctx, l)
	}
	switch {
	case err == nil:
		s.cache.resize(l, footprint(&l.fold))
		return true, nil
	case ctx.Err() != nil && s.base.Err() == nil:
		s.cache.resize(l, footprint(&l.fold))
		return false, nil // the slice is over: what was folded stays
	default:
		s.forget(l)
		return false, err
	}
}

// rebuildFold builds the battle if need be and folds every page of its log.
func (s *Server) rebuildFold(ctx context.Context, l *live) error {
	if l.battle == nil {
		rec, err := s.store.Battle(ctx, l.id)
		if err != nil {
			return err
		}
		if err := l.build(rec, scenario.MaxValues); err != nil {
			return err
		}
	}
	for {
		acts, err := s.store.Actions(ctx, l.id, l.next, s.limits.PageBytes)
		if err != nil || len(acts) == 0 {
			return err
		}
		if err := l.foldActions(ctx, acts); err != nil {
			return err
		}
	}
}

// build loads a stored battle's scenario with its rule system, under the edition of the
// rules it began with, as a game of its scenario's end; the document it was read from
// gives its title and its size. A scenario that stands for more than most values is not
// loaded: errHeavyDoc.
func build(rec *volley.BattleRecord, most int64) (volley.Ruleset, *volley.Game, *scenario.Doc, error) {
	doc, err := scenario.Parse("scenario", []byte(rec.Scenario))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("http: stored scenario of %s: %w", rec.ID, err)
	}
	if doc.Values() > most {
		return nil, nil, nil, errHeavyDoc
	}
	doc.Edition = volley.EditionOf(rec.Edition)
	doc.Accepted = true
	rs, battle, _, err := rules.Open(doc)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("http: stored scenario of %s: %w", rec.ID, err)
	}
	end, err := volley.ReadEnd(doc, battle)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("http: stored scenario of %s: %w", rec.ID, err)
	}
	g := volley.NewGame(battle, end)
	g.Hand = volley.HandRolled(doc)
	return rs, g, doc, nil
}

// titleOf reads a scenario's optional title.
func titleOf(doc *scenario.Doc) string {
	var title string
	if sec := doc.Section("title"); sec != nil {
		_ = sec.Decode(&title)
	}
	return title
}

// replay applies one stored action and checks that it comes out exactly as it did when
// it was first resolved: the same side, the same dice, the same outcome in every field.
// A log that replays otherwise was written by a different version of the rules, or has
// been altered; no battle is served from it.
func replay(ctx context.Context, g *volley.Game, rec *volley.BattleRecord, a volley.ActionRecord) error {
	_, actor, out, err := g.Replay(ctx, a.Body, rec.Seed.ForAction(a.Seq))
	if err != nil {
		if volley.ErrorCode(err) == volley.EUNAVAILABLE {
			return err
		}
		return fmt.Errorf("http: action %d of %s no longer resolves: %w", a.Seq, rec.ID, err)
	}
	if actor != a.Side {
		return fmt.Errorf("http: action %d of %s is %s's, but the log says %s took it", a.Seq, rec.ID, actor, a.Side)
	}
	if same, err := sameOutcome(out, []byte(a.Outcome)); err != nil || !same {
		return fmt.Errorf("http: action %d of %s replays to another outcome than the log records (written by another version of volley, or altered)", a.Seq, rec.ID)
	}
	return nil
}

// sameOutcome reports whether the outcome a replay gives is, field for field, the
// outcome a log records as JSON: the same dice, trace, results and landings, with
// nothing added or left out. Spacing and the order of keys do not matter. The luck the
// server wrote beside the result is a reading of it, not part of it: it is left out.
func sameOutcome(out volley.Outcome, logged []byte) (bool, error) {
	out.Luck = nil
	got, err := json.Marshal(out)
	if err != nil {
		return false, err
	}
	var a, b any
	if err := json.Unmarshal(got, &a); err != nil {
		return false, err
	}
	if err := json.Unmarshal(logged, &b); err != nil {
		return false, fmt.Errorf("the logged outcome is not JSON: %w", err)
	}
	if m, ok := b.(map[string]any); ok {
		delete(m, "luck")
	}
	return reflect.DeepEqual(a, b), nil
}
