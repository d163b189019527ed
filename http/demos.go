package http

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/scenario"
)

// Demo is one of the server's demo battles as the home page offers it: anyone who opens
// the page may play either side or watch, so its tokens are public.
type Demo struct {
	Ruleset string `json:"ruleset"`
	ID      string `json:"id"`
	Title   string `json:"title,omitempty"`
	// Sides are the battle's sides, each with its token.
	Sides map[string]string `json:"sides"`
	// Spectator is the token that watches.
	Spectator string `json:"spectator"`
	Actions   int    `json:"actions"`
	Ended     bool   `json:"ended"`
}

// KeepDemos makes sure each rule system in scenarios (by name: the scenario's text) has
// a demo battle that has not ended, starting one where it has none or its demo has ended,
// and returns every demo, by rule system. A demo is kept in the store with its tokens,
// so that a server restarted on the same store offers the same battles. Two servers
// starting at once on one database agree on one demo each: the first stored stands.
func (s *Server) KeepDemos(ctx context.Context, scenarios map[string][]byte) ([]Demo, error) {
	have, err := s.store.Demos(ctx)
	if err != nil {
		return nil, err
	}
	current := map[string]volley.DemoRecord{}
	for _, d := range have {
		current[d.Ruleset] = d
	}
	for _, system := range slices.Sorted(maps.Keys(scenarios)) {
		replaces := ""
		if d, ok := current[system]; ok {
			rec, err := s.store.Battle(ctx, d.BattleID)
			if err != nil {
				return nil, err
			}
			if !rec.Ended {
				continue
			}
			replaces = d.BattleID
		}
		c, err := s.CreateBattle(ctx, scenarios[system])
		if err != nil {
			return nil, fmt.Errorf("demo %s: %w", system, err)
		}
		tokens := maps.Clone(c.Tokens)
		tokens["spectator"] = c.Spectator
		d, err := s.store.SetDemo(ctx, &volley.DemoRecord{Ruleset: system, BattleID: c.ID, Tokens: tokens}, replaces)
		if err != nil {
			return nil, fmt.Errorf("demo %s: %w", system, err)
		}
		current[system] = *d
	}
	return s.demos(ctx)
}

// demos reads the demo battles the store keeps, with their titles and lengths (the
// lengths from the battle list, whatever the length of their logs).
func (s *Server) demos(ctx context.Context) ([]Demo, error) {
	have, err := s.store.Demos(ctx)
	if err != nil {
		return nil, err
	}
	var hashes []string
	for _, d := range have {
		hashes = append(hashes, hashToken(d.Tokens["spectator"]))
	}
	summary := map[string]volley.BattleSummary{}
	if len(hashes) > 0 {
		list, err := s.store.Battles(ctx, hashes, len(hashes))
		if err != nil {
			return nil, err
		}
		for _, b := range list {
			summary[b.ID] = b
		}
	}
	out := []Demo{}
	for _, d := range have {
		b := summary[d.BattleID]
		rec, err := s.store.Battle(ctx, d.BattleID)
		if err != nil {
			return nil, err
		}
		var title string
		if doc, err := scenario.Parse("scenario", []byte(rec.Scenario)); err == nil {
			title = titleOf(doc)
		}
		demo := Demo{Ruleset: d.Ruleset, ID: d.BattleID, Title: title, Sides: map[string]string{}, Spectator: d.Tokens["spectator"], Actions: b.Actions, Ended: b.Ended}
		for side, tok := range d.Tokens {
			if side != "spectator" {
				demo.Sides[side] = tok
			}
		}
		out = append(out, demo)
	}
	return out, nil
}

// demoList answers GET /api/demos: the server's demo battles with their tokens, for the
// home page's "play as" and "watch" links, when the server publishes them
// (PublishDemos); else none.
func (s *Server) demoList(w http.ResponseWriter, r *http.Request) {
	if err := s.allow(false, r); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.work(r.Context()); err != nil {
		s.fail(w, r, err)
		return
	}
	list := []Demo{}
	if s.PublishDemos {
		var err error
		if list, err = s.demos(r.Context()); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"demos": list})
}
