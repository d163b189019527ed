package http

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintln(w, "volley: exact odds and auditable dice for wargame shooting.")
	fmt.Fprintln(w, "The JSON API is under /api/: GET /api/battles lists the battles.")
}

func (s *Server) rulesets(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"rulesets": rules.Names()})
}

func (s *Server) listBattles(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.Battles(r.Context(), 200)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if list == nil {
		list = []volley.BattleSummary{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"battles": list})
}

// readBody reads a request body within the size limit.
func readBody(r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, err
		}
		return nil, volley.Errorf(volley.EINVALID, "cannot read the body: %v", err)
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		return nil, &volley.Error{Code: volley.EINVALID, Message: "the body is empty: send a scenario or an action in YAML or JSON", Field: "body"}
	}
	return body, nil
}

// created is the answer to a new battle: its id, each side's secret token (shown only
// now), and the commitment to its secret seed.
type created struct {
	ID         string            `json:"id"`
	Ruleset    string            `json:"ruleset"`
	Tokens     map[string]string `json:"tokens"`
	Commitment string            `json:"commitment"`
}

// CreateBattle stores a new battle from a scenario document, as POST /api/battles does.
// It is exported for `volley serve`, which starts demo battles through it.
func (s *Server) CreateBattle(r *http.Request, body []byte) (*created, error) {
	doc, err := scenario.Parse("body", body)
	if err != nil {
		return nil, err
	}
	rs, battle, _, err := rules.Open(doc)
	if err != nil {
		return nil, err
	}
	var sides []string
	for _, u := range battle.State().Units {
		if !slices.Contains(sides, u.Side) {
			sides = append(sides, u.Side)
		}
	}
	if len(sides) == 0 {
		return nil, volley.Errorf(volley.EINVALID, "the scenario has no units, so no side could act")
	}
	seed := s.NewSeed()
	rec := &volley.BattleRecord{
		ID: s.NewToken()[:16], Ruleset: rs.Name(), Scenario: string(body), Seed: seed,
		Commitment: volley.Commit(seed), TokenHashes: map[string]string{},
	}
	c := &created{ID: rec.ID, Ruleset: rs.Name(), Tokens: map[string]string{}, Commitment: rec.Commitment}
	for _, side := range sides {
		tok := s.NewToken()
		c.Tokens[side] = tok
		rec.TokenHashes[side] = hashToken(tok)
	}
	if err := s.store.CreateBattle(r.Context(), rec); err != nil {
		return nil, err
	}
	return c, nil
}

func (s *Server) createBattle(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	c, err := s.CreateBattle(r, body)
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Location", "/api/battles/"+c.ID)
	writeJSON(w, http.StatusCreated, c)
}

func hashToken(tok string) string {
	sum := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(sum[:])
}

// battleView is a battle as GET /api/battles/{id} shows it.
type battleView struct {
	ID         string            `json:"id"`
	Ruleset    string            `json:"ruleset"`
	Title      string            `json:"title,omitempty"`
	Actions    int               `json:"actions"`
	Ended      bool              `json:"ended"`
	Commitment string            `json:"commitment"`
	Seed       *string           `json:"seed,omitempty"` // revealed once the battle ends
	Sides      []string          `json:"sides"`
	State      volley.State      `json:"state"`
	Board      *volley.BoardView `json:"board,omitempty"`
}

func (s *Server) getBattle(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	// The ended flag is read fresh: another server may have ended the battle.
	rec, err := s.store.Battle(r.Context(), id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	l, err := s.open(r.Context(), id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	defer l.mu.Unlock()
	l.record.Ended = rec.Ended
	writeJSON(w, http.StatusOK, view(l))
}

func view(l *live) battleView {
	v := battleView{
		ID: l.record.ID, Ruleset: l.record.Ruleset, Title: l.title, Actions: l.next, Ended: l.record.Ended,
		Commitment: l.record.Commitment, State: l.battle.State(),
	}
	for side := range l.record.TokenHashes {
		v.Sides = append(v.Sides, side)
	}
	slices.Sort(v.Sides)
	if l.record.Ended {
		seed := strconv.FormatUint(l.record.Seed, 10)
		v.Seed = &seed
	}
	if b, ok := l.battle.(volley.Board); ok {
		board := b.Board()
		v.Board = &board
	}
	return v
}

// actionBody is the action an aim or odds request asks about: the `action` query
// parameter, or the body of a POST.
func actionBody(r *http.Request) ([]byte, string, error) {
	if r.Method == http.MethodGet {
		q := r.URL.Query().Get("action")
		if q == "" {
			return nil, "action", &volley.Error{Code: volley.EINVALID, Message: "give the action to aim as the action query parameter (YAML or JSON), or POST it", Field: "action"}
		}
		return []byte(q), "action", nil
	}
	body, err := readBody(r)
	return body, "body", err
}

// decodeAction decodes an action against a live battle.
func decodeAction(l *live, body []byte, name string) (volley.Action, error) {
	doc, err := scenario.Parse(name, body)
	if err != nil {
		return nil, err
	}
	return l.battle.DecodeAction(doc)
}

func (s *Server) aim(w http.ResponseWriter, r *http.Request) {
	s.evaluate(w, r, false)
}

func (s *Server) odds(w http.ResponseWriter, r *http.Request) {
	s.evaluate(w, r, true)
}

// evaluate answers aim and odds requests in the one JSON shape of the CLI.
func (s *Server) evaluate(w http.ResponseWriter, r *http.Request, odds bool) {
	body, name, err := actionBody(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	l, err := s.open(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	defer l.mu.Unlock()
	a, err := decodeAction(l, body, name)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if !odds {
		aims := l.battle.Aim(a)
		if aims == nil {
			aims = []volley.Aim{}
		}
		writeJSON(w, http.StatusOK, map[string]any{"ruleset": l.record.Ruleset, "aims": aims})
		return
	}
	o, err := l.battle.Odds(a)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Ruleset string `json:"ruleset"`
		volley.Odds
	}{l.record.Ruleset, o})
}

// side authenticates a request: the bearer token must be one of the battle's sides'.
func side(r *http.Request, rec *volley.BattleRecord) (string, error) {
	auth := r.Header.Get("Authorization")
	tok, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok || tok == "" {
		return "", &volley.Error{Code: volley.EUNAUTHORIZED, Message: "send your side's token as Authorization: Bearer <token>", Field: "Authorization"}
	}
	h := hashToken(tok)
	for side, want := range rec.TokenHashes {
		if subtle.ConstantTimeCompare([]byte(h), []byte(want)) == 1 {
			return side, nil
		}
	}
	return "", &volley.Error{Code: volley.EFORBIDDEN, Message: "this token belongs to no side of this battle", Field: "Authorization"}
}

// acted is the answer to a posted action: its place in the log, who took it, and what
// it did, with the battle's state after it.
type acted struct {
	Seq     int             `json:"seq"`
	Side    string          `json:"side"`
	Outcome json.RawMessage `json:"outcome"`
	State   volley.State    `json:"state"`
	// Replayed is true when an Idempotency-Key matched an earlier request: this is that
	// request's answer, and nothing was done again.
	Replayed bool `json:"replayed,omitempty"`
}

// IdempotencyHeader names the header that makes a retried action safe.
const IdempotencyHeader = "Idempotency-Key"

// maxKeyLen bounds an idempotency key.
const maxKeyLen = 200

func (s *Server) postAction(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	key := r.Header.Get(IdempotencyHeader)
	if len(key) > maxKeyLen {
		writeError(w, r, &volley.Error{Code: volley.EINVALID, Message: fmt.Sprintf("at most %d characters", maxKeyLen), Field: IdempotencyHeader})
		return
	}
	body, err := readBody(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	l, err := s.open(r.Context(), id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	defer l.mu.Unlock()
	me, err := side(r, l.record)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if prev, ok := l.keys[key]; ok && key != "" {
		writeJSON(w, http.StatusOK, acted{Seq: prev.Seq, Side: prev.Side, Outcome: json.RawMessage(prev.Outcome), State: l.battle.State(), Replayed: true})
		return
	}
	a, err := decodeAction(l, body, "body")
	if err != nil {
		writeError(w, r, err)
		return
	}
	if actor := l.battle.Actor(a); actor != me {
		writeError(w, r, &volley.Error{Code: volley.EFORBIDDEN, Message: fmt.Sprintf("this action is %s's to take, and your token is %s's", actor, me), Field: "Authorization"})
		return
	}
	seq := l.next
	out, err := l.battle.Resolve(a, dice.ForAction(l.record.Seed, seq))
	if err != nil {
		writeError(w, r, err) // the rules refused it; the battle is as it was
		return
	}
	outcome, err := json.Marshal(out)
	if err != nil {
		s.forget(id, l)
		writeError(w, r, err)
		return
	}
	rec := &volley.ActionRecord{BattleID: id, Seq: seq, Side: me, Body: string(body), Outcome: string(outcome), IdempotencyKey: key}
	stored, err := s.store.AppendAction(r.Context(), rec)
	if err != nil {
		// The action was applied in memory but not stored: fold again next time.
		s.forget(id, l)
		if volley.ErrorCode(err) == volley.ECONFLICT {
			err = volley.Errorf(volley.ECONFLICT, "the battle moved on while this action was resolved (or it has ended): fetch its state and send the action again")
		}
		writeError(w, r, err)
		return
	}
	if stored.Seq != seq || stored.Outcome != rec.Outcome {
		// Another server stored this idempotency key first: its answer stands.
		s.forget(id, l)
		writeJSON(w, http.StatusOK, acted{Seq: stored.Seq, Side: stored.Side, Outcome: json.RawMessage(stored.Outcome), Replayed: true})
		return
	}
	l.next = seq + 1
	if key != "" {
		l.keys[key] = *stored
	}
	writeJSON(w, http.StatusOK, acted{Seq: seq, Side: me, Outcome: outcome, State: l.battle.State()})
}

// LogEntry is one action of a battle's log.
type LogEntry struct {
	Seq     int             `json:"seq"`
	Side    string          `json:"side"`
	Action  string          `json:"action"`
	Outcome json.RawMessage `json:"outcome"`
}

// Log is a battle's whole record: what `volley verify` checks once the seed is known.
type Log struct {
	ID         string     `json:"id"`
	Ruleset    string     `json:"ruleset"`
	Scenario   string     `json:"scenario"`
	Commitment string     `json:"commitment"`
	Ended      bool       `json:"ended"`
	Seed       *string    `json:"seed,omitempty"`
	Actions    []LogEntry `json:"actions"`
}

func (s *Server) log(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	rec, err := s.store.Battle(r.Context(), id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	acts, err := s.store.Actions(r.Context(), id, 0)
	if err != nil {
		writeError(w, r, err)
		return
	}
	lg := Log{ID: rec.ID, Ruleset: rec.Ruleset, Scenario: rec.Scenario, Commitment: rec.Commitment, Ended: rec.Ended, Actions: []LogEntry{}}
	if rec.Ended {
		seed := strconv.FormatUint(rec.Seed, 10)
		lg.Seed = &seed
	}
	for _, a := range acts {
		lg.Actions = append(lg.Actions, LogEntry{Seq: a.Seq, Side: a.Side, Action: a.Body, Outcome: json.RawMessage(a.Outcome)})
	}
	writeJSON(w, http.StatusOK, lg)
}

func (s *Server) end(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	rec, err := s.store.Battle(r.Context(), id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if _, err := side(r, rec); err != nil {
		writeError(w, r, err)
		return
	}
	if err := s.store.EndBattle(r.Context(), id); err != nil {
		writeError(w, r, err)
		return
	}
	// Never hold the cache's lock while waiting for a battle's: postAction takes them the
	// other way round.
	s.mu.Lock()
	l, ok := s.cache[id]
	s.mu.Unlock()
	if ok {
		l.mu.Lock()
		if l.record != nil {
			l.record.Ended = true
		}
		l.mu.Unlock()
	}
	writeJSON(w, http.StatusOK, map[string]string{
		"id": id, "seed": strconv.FormatUint(rec.Seed, 10), "commitment": rec.Commitment,
	})
}
