package storetest_test

import (
	"context"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/storetest"
)

// memStore is the contract of volley.Store at its plainest, under one mutex: the
// suite's check on itself, so that a failure in sqlite or postgres is theirs.
type memStore struct {
	mu      sync.Mutex
	order   []string // battle IDs, oldest first
	battles map[string]*volley.BattleRecord
	actions map[string][]volley.ActionRecord
	tickets map[string]volley.TicketRecord
	demos   map[string]volley.DemoRecord
	key     []byte
}

func newMemStore() *memStore {
	return &memStore{battles: map[string]*volley.BattleRecord{}, actions: map[string][]volley.ActionRecord{}, tickets: map[string]volley.TicketRecord{}, demos: map[string]volley.DemoRecord{}}
}

func (m *memStore) CreateBattle(ctx context.Context, b *volley.BattleRecord) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.battles[b.ID] != nil {
		return volley.Errorf(volley.ECONFLICT, "battle %q already exists", b.ID)
	}
	c := *b
	c.TokenHashes = maps.Clone(b.TokenHashes)
	if c.TokenHashes == nil {
		c.TokenHashes = map[string]string{}
	}
	m.battles[b.ID] = &c
	m.order = append(m.order, b.ID)
	return nil
}

func (m *memStore) Battle(ctx context.Context, id string) (*volley.BattleRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b := m.battles[id]
	if b == nil {
		return nil, volley.Errorf(volley.ENOTFOUND, "no battle %q", id)
	}
	c := *b
	c.TokenHashes = maps.Clone(b.TokenHashes)
	return &c, nil
}

func (m *memStore) Battles(ctx context.Context, hashes []string, limit int) ([]volley.BattleSummary, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	list := []volley.BattleSummary{}
	for _, id := range slices.Backward(m.order) {
		if len(list) >= limit {
			break
		}
		b := m.battles[id]
		opens := slices.Contains(hashes, b.SpectatorHash)
		for _, h := range b.TokenHashes {
			opens = opens || slices.Contains(hashes, h)
		}
		if opens {
			list = append(list, volley.BattleSummary{ID: id, Ruleset: b.Ruleset, Actions: len(m.actions[id]), Ended: b.Ended})
		}
	}
	return list, nil
}

func (m *memStore) Empty(ctx context.Context) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.battles) == 0, nil
}

func (m *memStore) Actions(ctx context.Context, id string, from, maxBytes int) ([]volley.ActionRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.battles[id] == nil {
		return nil, volley.Errorf(volley.ENOTFOUND, "no battle %q", id)
	}
	log := m.actions[id]
	page := []volley.ActionRecord{}
	size := 0
	for _, a := range log[min(max(from, 0), len(log)):] {
		if maxBytes > 0 && size >= maxBytes {
			break
		}
		page = append(page, a)
		size += a.Size()
	}
	return page, nil
}

func (m *memStore) AppendAction(ctx context.Context, a *volley.ActionRecord) (*volley.ActionRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b := m.battles[a.BattleID]
	if b == nil {
		return nil, volley.Errorf(volley.ENOTFOUND, "no battle %q", a.BattleID)
	}
	log := m.actions[a.BattleID]
	if a.IdempotencyKey != "" {
		for _, prior := range log {
			if prior.IdempotencyKey == a.IdempotencyKey {
				return &prior, nil
			}
		}
	}
	if b.Ended || a.Seq != len(log) {
		return nil, volley.Errorf(volley.ECONFLICT, "conflict")
	}
	m.actions[a.BattleID] = append(log, *a)
	c := *a
	return &c, nil
}

func (m *memStore) EndBattle(ctx context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	b := m.battles[id]
	if b == nil {
		return volley.Errorf(volley.ENOTFOUND, "no battle %q", id)
	}
	b.Ended = true
	return nil
}

func (m *memStore) CreateTicket(ctx context.Context, t *volley.TicketRecord, now time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for h, old := range m.tickets {
		if old.Expires.Before(now) {
			delete(m.tickets, h)
		}
	}
	if m.battles[t.BattleID] == nil {
		return volley.Errorf(volley.ENOTFOUND, "no battle %q", t.BattleID)
	}
	m.tickets[t.Hash] = *t
	return nil
}

func (m *memStore) Ticket(ctx context.Context, hash string) (*volley.TicketRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tickets[hash]
	if !ok {
		return nil, volley.Errorf(volley.ENOTFOUND, "no such ticket")
	}
	return &t, nil
}

func (m *memStore) Demos(ctx context.Context) ([]volley.DemoRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []volley.DemoRecord
	for _, k := range slices.Sorted(maps.Keys(m.demos)) {
		out = append(out, m.demos[k])
	}
	return out, nil
}

func (m *memStore) SetDemo(ctx context.Context, d *volley.DemoRecord, replaces string) (*volley.DemoRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.battles[d.BattleID] == nil {
		return nil, volley.Errorf(volley.ENOTFOUND, "no battle %q", d.BattleID)
	}
	if cur, ok := m.demos[d.Ruleset]; !ok && replaces == "" || ok && cur.BattleID == replaces {
		m.demos[d.Ruleset] = volley.DemoRecord{Ruleset: d.Ruleset, BattleID: d.BattleID, Tokens: maps.Clone(d.Tokens)}
	}
	cur := m.demos[d.Ruleset]
	return &cur, nil
}

func (m *memStore) SigningKey(ctx context.Context, fresh []byte) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.key == nil {
		m.key = slices.Clone(fresh)
	}
	return slices.Clone(m.key), nil
}

func (m *memStore) Close() error { return nil }

func TestMemStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) volley.Store { return newMemStore() })
}
