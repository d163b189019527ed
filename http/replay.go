package http

import (
	"net/http"
	"strconv"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/scenario"
)

// replayAt answers GET /api/battles/{id}/replay?at=N: the battle as it stood after its
// first N actions (0: as it began), in the shape of GET /api/battles/{id}, so that a page
// steps through a battle with the board as it was at each step. The board is rebuilt
// from the scenario and the first N actions of the log, as a restart would: heavy work,
// queued as such, its price the N actions it folds (each already priced when it was
// taken). Spectators may ask, as for the log; nothing secret is in a past board.
func (s *Server) replayAt(w http.ResponseWriter, r *http.Request) {
	rec, err := s.readRecord(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	at, err := strconv.Atoi(r.URL.Query().Get("at"))
	if err != nil || at < 0 {
		s.fail(w, r, &volley.Error{Code: volley.EINVALID, Message: "at is the number of actions to replay, from 0", Field: "at"})
		return
	}
	if err := s.heavyTurn(r.Context()); err != nil {
		s.fail(w, r, err)
		return
	}
	ctx := r.Context()
	// The board as it was is of a battle that had not ended, unless nothing follows.
	past := *rec
	past.Ended = false
	l := &live{id: rec.ID}
	if err := l.build(&past, scenario.MaxValues); err != nil {
		s.fail(w, r, err)
		return
	}
	for l.next < at {
		acts, err := s.store.Actions(ctx, rec.ID, l.next, s.limits.PageBytes)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if len(acts) == 0 {
			break
		}
		if len(acts) > at-l.next {
			acts = acts[:at-l.next]
		}
		if err := l.foldActions(ctx, acts); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	if l.next < at {
		s.fail(w, r, &volley.Error{Code: volley.EINVALID, Message: "the battle has only " + strconv.Itoa(l.next) + " actions", Field: "at"})
		return
	}
	if rec.Ended {
		more, err := s.store.Actions(ctx, rec.ID, at, 1)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		past.Ended = len(more) == 0
	}
	writeJSON(w, http.StatusOK, view(l, past.Ended))
}
