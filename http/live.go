package http

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// live is a battle folded in memory: its record, the battle after its first next
// actions, and the idempotency keys seen so far. It is a cache: every use first reads
// the store for actions appended since (by this server or another) and applies them.
type live struct {
	mu sync.Mutex
	fold
}

// fold is what a live battle knows, apart from its lock.
type fold struct {
	record  *volley.BattleRecord
	title   string
	ruleset volley.Ruleset
	battle  volley.Battle
	next    int
	keys    map[string]volley.ActionRecord
}

// open returns the live battle for id, locked and brought up to date with the store.
// The caller must unlock it.
func (s *Server) open(ctx context.Context, id string) (*live, error) {
	s.mu.Lock()
	l, ok := s.cache[id]
	if !ok {
		if len(s.cache) >= MaxCached {
			for k := range s.cache { // evict any one: the cache only saves folding time
				delete(s.cache, k)
				break
			}
		}
		l = &live{}
		s.cache[id] = l
	}
	s.mu.Unlock()
	l.mu.Lock()
	if err := s.sync(ctx, id, l); err != nil {
		s.forget(id, l) // an unknown id, or a log that no longer folds: keep nothing
		l.mu.Unlock()
		return nil, err
	}
	return l, nil
}

// reset forgets the fold, so that the next use folds the log again from the start. The
// lock is left alone: its holder unlocks it.
func (l *live) reset() { l.fold = fold{} }

// forget drops a battle from the cache after its fold may have gone wrong (an append
// refused after the action was applied in memory).
func (s *Server) forget(id string, l *live) {
	l.reset()
	s.mu.Lock()
	if s.cache[id] == l { // not a newer entry made after this one was evicted
		delete(s.cache, id)
	}
	s.mu.Unlock()
}

// sync folds the actions the store has and the cache has not.
func (s *Server) sync(ctx context.Context, id string, l *live) error {
	if l.battle == nil {
		rec, err := s.store.Battle(ctx, id)
		if err != nil {
			return err
		}
		rs, battle, title, err := build(rec)
		if err != nil {
			return err
		}
		l.fold = fold{record: rec, ruleset: rs, battle: battle, title: title, keys: map[string]volley.ActionRecord{}}
	}
	acts, err := s.store.Actions(ctx, id, l.next)
	if err != nil {
		return err
	}
	for _, a := range acts {
		if err := replay(l.battle, l.record, a); err != nil {
			return err
		}
		l.next = a.Seq + 1
		if a.IdempotencyKey != "" {
			l.keys[a.IdempotencyKey] = a
		}
	}
	return nil
}

// build loads a stored battle's scenario with its rule system.
func build(rec *volley.BattleRecord) (volley.Ruleset, volley.Battle, string, error) {
	doc, err := scenario.Parse("scenario", []byte(rec.Scenario))
	if err != nil {
		return nil, nil, "", fmt.Errorf("http: stored scenario of %s: %w", rec.ID, err)
	}
	rs, battle, _, err := rules.Open(doc)
	if err != nil {
		return nil, nil, "", fmt.Errorf("http: stored scenario of %s: %w", rec.ID, err)
	}
	var h struct {
		Title string `yaml:"title"`
	}
	if sec := doc.Section("title"); sec != nil {
		_ = sec.Decode(&h.Title)
	}
	return rs, battle, h.Title, nil
}

// replay applies one stored action and checks that it comes out as it did when it was
// first resolved: the same dice, the same result for every target. A log that replays
// otherwise was written by a different version of the rules, or has been altered; no
// battle is served from it.
func replay(b volley.Battle, rec *volley.BattleRecord, a volley.ActionRecord) error {
	_, out, err := volley.ReplayAction(b, rec.Seed, a.Seq, a.Body)
	if err != nil {
		return fmt.Errorf("http: action %d of %s no longer resolves: %w", a.Seq, rec.ID, err)
	}
	var logged volley.Outcome
	if err := json.Unmarshal([]byte(a.Outcome), &logged); err != nil {
		return fmt.Errorf("http: action %d of %s: the stored outcome is not JSON: %w", a.Seq, rec.ID, err)
	}
	if !volley.SameResult(out, logged) {
		return fmt.Errorf("http: action %d of %s replays to other dice or another result than the log records (written by another version of volley, or altered)", a.Seq, rec.ID)
	}
	return nil
}
