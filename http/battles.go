package http

import (
	"bytes"
	"context"
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
	"unicode/utf8"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

func (s *Server) rulesets(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"rulesets": rules.Names()})
}

func (s *Server) listBattles(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.Battles(r.Context(), 200)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if list == nil {
		list = []volley.BattleSummary{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"battles": list})
}

// openRequest opens, locked and up to date, the battle a request's path names. When it
// cannot, it answers the request itself and returns nil.
func (s *Server) openRequest(w http.ResponseWriter, r *http.Request) (*live, string) {
	id, err := battleID(r)
	if err != nil {
		s.fail(w, r, err)
		return nil, ""
	}
	l, err := s.open(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return nil, ""
	}
	return l, id
}

// validText reports whether b is UTF-8 text without NUL bytes: what every store keeps
// as text and every log writes as JSON without loss.
func validText(b []byte) bool { return utf8.Valid(b) && bytes.IndexByte(b, 0) < 0 }

// battleID reads the battle id of a request's path. Ids are 16 hex digits; anything
// else is a battle that does not exist, answered without asking the store.
func battleID(r *http.Request) (string, error) {
	id := r.PathValue("id")
	if len(id) != 16 || strings.Trim(id, "0123456789abcdef") != "" {
		return "", volley.Errorf(volley.ENOTFOUND, "no battle %q", id)
	}
	return id, nil
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
	if !validText(body) {
		return nil, &volley.Error{Code: volley.EINVALID, Message: "the body must be UTF-8 text without NUL bytes", Field: "body"}
	}
	return body, nil
}

// Created is the answer to a new battle: its id, each side's secret token (shown only
// now), and the commitment to its secret seed.
type Created struct {
	ID         string            `json:"id"`
	Ruleset    string            `json:"ruleset"`
	Tokens     map[string]string `json:"tokens"`
	Commitment string            `json:"commitment"`
}

// CreateBattle stores a new battle from a scenario document, as POST /api/battles does.
// It is exported for `volley serve`, which starts demo battles through it.
func (s *Server) CreateBattle(ctx context.Context, body []byte) (*Created, error) {
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
	c := &Created{ID: rec.ID, Ruleset: rs.Name(), Tokens: map[string]string{}, Commitment: rec.Commitment}
	for _, side := range sides {
		tok := s.NewToken()
		c.Tokens[side] = tok
		rec.TokenHashes[side] = hashToken(tok)
	}
	if err := s.store.CreateBattle(ctx, rec); err != nil {
		return nil, err
	}
	return c, nil
}

func (s *Server) createBattle(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	c, err := s.CreateBattle(r.Context(), body)
	if err != nil {
		s.fail(w, r, err)
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
	Table      *volley.TableView `json:"table,omitempty"`
}

func (s *Server) getBattle(w http.ResponseWriter, r *http.Request) {
	id, err := battleID(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	// The ended flag is read fresh: another server may have ended the battle.
	rec, err := s.store.Battle(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	l, err := s.open(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
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
	if t, ok := l.battle.(volley.Table); ok {
		table := t.Table()
		v.Table = &table
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
		if !validText([]byte(q)) {
			return nil, "action", &volley.Error{Code: volley.EINVALID, Message: "the action must be UTF-8 text without NUL bytes", Field: "action"}
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
		s.fail(w, r, err)
		return
	}
	l, _ := s.openRequest(w, r)
	if l == nil {
		return
	}
	defer l.mu.Unlock()
	a, err := decodeAction(l, body, name)
	if err != nil {
		s.fail(w, r, err)
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
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Ruleset string `json:"ruleset"`
		volley.Odds
	}{l.record.Ruleset, o})
}

// side authenticates a request: the bearer token must be one of the battle's sides'.
func side(r *http.Request, rec *volley.BattleRecord) (string, error) {
	scheme, tok, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "Bearer") || tok == "" {
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
	// State is the battle now (after a replayed request, it may be later than the
	// action's; it is left out when another server answered first).
	State *volley.State `json:"state,omitempty"`
	// Replayed is true when an Idempotency-Key matched an earlier request: this is that
	// request's answer, and nothing was done again.
	Replayed bool `json:"replayed,omitempty"`
}

// IdempotencyHeader names the header that makes a retried action safe.
const IdempotencyHeader = "Idempotency-Key"

// maxKeyLen bounds an idempotency key.
const maxKeyLen = 200

func (s *Server) postAction(w http.ResponseWriter, r *http.Request) {
	id, err := battleID(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	key := r.Header.Get(IdempotencyHeader)
	if len(key) > maxKeyLen || strings.IndexFunc(key, func(c rune) bool { return c < '!' || c > '~' }) >= 0 {
		s.fail(w, r, &volley.Error{Code: volley.EINVALID, Message: fmt.Sprintf("at most %d printable ASCII characters", maxKeyLen), Field: IdempotencyHeader})
		return
	}
	body, err := readBody(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	l, _ := s.openRequest(w, r)
	if l == nil {
		return
	}
	defer l.mu.Unlock()
	me, err := side(r, l.record)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if prev, ok := l.keys[key]; ok && key != "" {
		s.replayed(w, r, prev, me, body, l)
		return
	}
	if l.record.Ended {
		s.fail(w, r, volley.Errorf(volley.ECONFLICT, "the battle has ended: it takes no more actions"))
		return
	}
	a, err := decodeAction(l, body, "body")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if actor := l.battle.Actor(a); actor != me {
		s.fail(w, r, &volley.Error{Code: volley.EFORBIDDEN, Message: fmt.Sprintf("this action is %s's to take, and your token is %s's", actor, me), Field: "Authorization"})
		return
	}
	// From here the fold in memory runs ahead of the store. Unless the action is stored,
	// drop it (whatever happens, a panic in the rules included), so that the next request
	// folds the log again instead of building on an action nobody recorded.
	stored := false
	defer func() {
		if !stored {
			s.forget(id, l)
		}
	}()
	seq := l.next
	out, err := l.battle.Resolve(a, dice.ForAction(l.record.Seed, seq))
	if err != nil {
		stored = true // refused by the rules: the battle is exactly as it was
		s.fail(w, r, err)
		return
	}
	outcome, err := json.Marshal(out)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	rec := &volley.ActionRecord{BattleID: id, Seq: seq, Side: me, Body: string(body), Outcome: string(outcome), IdempotencyKey: key}
	saved, err := s.store.AppendAction(r.Context(), rec)
	if err != nil {
		if volley.ErrorCode(err) == volley.ECONFLICT {
			err = s.conflict(r, id)
		}
		s.fail(w, r, err)
		return
	}
	if saved.Seq != seq || saved.Outcome != rec.Outcome {
		// Another server stored this idempotency key first: its answer stands.
		s.replayed(w, r, *saved, me, body, nil)
		return
	}
	stored = true
	l.next = seq + 1
	if key != "" {
		l.keys[key] = *saved
	}
	state := l.battle.State()
	writeJSON(w, http.StatusOK, acted{Seq: seq, Side: me, Outcome: outcome, State: &state})
}

// conflict explains a refused append: the battle ended, or another action took the
// place first (then the same request may simply be sent again).
func (s *Server) conflict(r *http.Request, id string) error {
	if rec, err := s.store.Battle(r.Context(), id); err == nil && rec.Ended {
		return volley.Errorf(volley.ECONFLICT, "the battle has ended: it takes no more actions")
	}
	return volley.Errorf(volley.ECONFLICT, "another action took this place in the log first: fetch the battle's state and send the action again")
}

// replayed answers a request whose idempotency key was used before: with the first
// answer, if it is the same request again; with a conflict if the key now comes with
// another action or from another side, which would otherwise be dropped unseen. l, if
// not nil, gives the state to show.
func (s *Server) replayed(w http.ResponseWriter, r *http.Request, prev volley.ActionRecord, me string, body []byte, l *live) {
	if prev.Side != me || prev.Body != string(body) {
		s.fail(w, r, &volley.Error{Code: volley.ECONFLICT, Message: fmt.Sprintf("this key was used for action %d with another body or side: use a new key for a new action", prev.Seq), Field: IdempotencyHeader})
		return
	}
	ans := acted{Seq: prev.Seq, Side: prev.Side, Outcome: json.RawMessage(prev.Outcome), Replayed: true}
	if l != nil && l.battle != nil {
		state := l.battle.State()
		ans.State = &state
	}
	writeJSON(w, http.StatusOK, ans)
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
	lg, err := s.readLog(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, lg)
}

// readLog reads the whole record of the request's battle.
func (s *Server) readLog(r *http.Request) (Log, error) {
	id, err := battleID(r)
	if err != nil {
		return Log{}, err
	}
	rec, err := s.store.Battle(r.Context(), id)
	if err != nil {
		return Log{}, err
	}
	acts, err := s.store.Actions(r.Context(), id, 0)
	if err != nil {
		return Log{}, err
	}
	lg := Log{ID: rec.ID, Ruleset: rec.Ruleset, Scenario: rec.Scenario, Commitment: rec.Commitment, Ended: rec.Ended, Actions: []LogEntry{}}
	if rec.Ended {
		seed := strconv.FormatUint(rec.Seed, 10)
		lg.Seed = &seed
	}
	for _, a := range acts {
		lg.Actions = append(lg.Actions, LogEntry{Seq: a.Seq, Side: a.Side, Action: a.Body, Outcome: json.RawMessage(a.Outcome)})
	}
	return lg, nil
}

func (s *Server) end(w http.ResponseWriter, r *http.Request) {
	id, err := battleID(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	rec, err := s.store.Battle(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if _, err := side(r, rec); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.store.EndBattle(r.Context(), id); err != nil {
		s.fail(w, r, err)
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
