package http

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/opponent"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

func (s *Server) rulesets(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"rulesets": rules.Names()})
}

// maxList is the most battles one list answers.
const maxList = 200

// listBattles answers the battles the request's tokens open: a battle is read only with
// one of its tokens, so the list shows nothing else.
func (s *Server) listBattles(w http.ResponseWriter, r *http.Request) {
	list := []volley.BattleSummary{}
	if r.Header.Get("Authorization") != "" {
		if err := s.allow(false, r); err != nil {
			s.fail(w, r, err)
			return
		}
		toks, err := bearer(r)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if err := s.work(r.Context()); err != nil {
			s.fail(w, r, err)
			return
		}
		hashes := make([]string, len(toks))
		for i, t := range toks {
			hashes[i] = hashToken(t)
		}
		if list, err = s.store.Battles(r.Context(), hashes, maxList); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"battles": list})
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

// allowBattle takes a read from the request's client (allow) and answers the battle id
// the request names: the first steps of every request about one battle.
func (s *Server) allowBattle(r *http.Request) (string, error) {
	if err := s.allow(false, r); err != nil {
		return "", err
	}
	return battleID(r)
}

// allowBody takes a request of the client's (allow: a new battle when creates) and
// reads its body, of MaxBodyBytes at most: the first steps of a request that posts a
// scenario.
func (s *Server) allowBody(w http.ResponseWriter, r *http.Request, creates bool) ([]byte, error) {
	if err := s.allow(creates, r); err != nil {
		return nil, err
	}
	return s.readBody(w, r, int(s.limits.MaxBodyBytes))
}

// checkBody checks that a body read whole is a document: not empty, and text.
func checkBody(body []byte) ([]byte, error) {
	if len(strings.TrimSpace(string(body))) == 0 {
		return nil, &volley.Error{Code: volley.EINVALID, Message: "the body is empty: send a scenario or an action in YAML or JSON", Field: "body"}
	}
	if !validText(body) {
		return nil, &volley.Error{Code: volley.EINVALID, Message: "the body must be UTF-8 text without NUL bytes", Field: "body"}
	}
	return body, nil
}

// Created is the answer to a new battle: its id, each side's secret token and the
// spectator's (shown only now), and the commitment to its secret seed.
type Created struct {
	ID        string `json:"id"`
	Ruleset   string `json:"ruleset"`
	Edition   int    `json:"edition"`
	Generator string `json:"generator"`
	// Dice is who rolls the battle's dice: "server", or "players" (by hand).
	Dice   string            `json:"dice"`
	Tokens map[string]string `json:"tokens"`
	// Spectator reads the battle, its odds and its log, and cannot act.
	Spectator  string `json:"spectator"`
	Commitment string `json:"commitment"`
	// Opponent is the side volley plays (the scenario's opponent: section), which has no
	// token; nil when people play every side.
	Opponent *opponent.Seat `json:"opponent,omitempty"`
}

// CreateBattle stores a new battle from a scenario document, as POST /api/battles does.
// It is exported for `volley serve`, which starts demo battles through it.
func (s *Server) CreateBattle(ctx context.Context, body []byte) (*Created, error) {
	doc, err := scenario.Parse("body", body)
	if err != nil {
		return nil, err
	}
	// Decoding costs by the values the document stands for, which a few bytes may
	// multiply: past lightValues, it is heavy work.
	if err := s.admitValues(ctx, doc.Values()); err != nil {
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
	seat, err := opponent.ReadSeat(doc, battle)
	if err != nil {
		return nil, err
	}
	if seat != nil && volley.HandRolled(doc) {
		return nil, &volley.Error{Code: volley.EINVALID, Field: "opponent",
			Message: "volley's opponent cannot play a battle whose dice the players roll by hand (dice: players): nobody would roll its dice"}
	}
	seed, err := s.NewSeed()
	if err != nil {
		return nil, fmt.Errorf("http: a new seed: %w", err)
	}
	rec := &volley.BattleRecord{
		ID: s.NewToken()[:16], Ruleset: rs.Name(), Scenario: string(body), Edition: volley.Edition, Seed: seed,
		TokenHashes: map[string]string{},
	}
	rec.Commitment = volley.Commitment(rec)
	c := &Created{ID: rec.ID, Ruleset: rs.Name(), Edition: rec.Edition, Generator: string(seed.Generator),
		Dice: rolledBy(volley.HandRolled(doc)), Tokens: map[string]string{}, Commitment: rec.Commitment}
	c.Opponent = seat
	for _, side := range sides {
		if seat != nil && side == seat.Side {
			continue // volley plays it: nobody holds its token
		}
		tok := s.NewToken()
		c.Tokens[side] = tok
		rec.TokenHashes[side] = hashToken(tok)
	}
	c.Spectator = s.NewToken()
	rec.SpectatorHash = hashToken(c.Spectator)
	if err := s.store.CreateBattle(ctx, rec); err != nil {
		return nil, err
	}
	return c, nil
}

func (s *Server) createBattle(w http.ResponseWriter, r *http.Request) {
	body, err := s.allowBody(w, r, true)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if err = s.admitBody(r.Context(), body); err == nil {
		err = s.work(r.Context())
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	c, err := s.CreateBattle(r.Context(), body)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.wakeOpponent(c.ID) // it may deploy first
	w.Header().Set("Location", "/api/battles/"+c.ID)
	writeJSON(w, http.StatusCreated, c)
}

// readRecord reads the record of the battle a request names and checks that the
// request's token may read it: before any work is done for the request, and before its
// body is read. It takes no request slot: the caller takes one (work) when its body, if
// it has one, has arrived.
func (s *Server) readRecord(r *http.Request) (*volley.BattleRecord, error) {
	id, err := s.allowBattle(r)
	if err != nil {
		return nil, err
	}
	if _, err := bearer(r); err != nil {
		return nil, err // no token: nothing to look up
	}
	rec, err := s.store.Battle(r.Context(), id)
	if err != nil {
		return nil, err
	}
	if err := reader(r, rec); err != nil {
		return nil, err
	}
	return rec, nil
}

// readSigned reads the record of the battle a request names (readRecord), takes a
// request slot (work), and gets the key that signs the battle's head: the first steps
// of a request that answers a signed head.
func (s *Server) readSigned(r *http.Request) (*volley.BattleRecord, ed25519.PrivateKey, error) {
	rec, err := s.readRecord(r)
	if err != nil {
		return nil, nil, err
	}
	if err := s.work(r.Context()); err != nil {
		return nil, nil, err
	}
	key, err := s.signingKey(r.Context())
	if err != nil {
		return nil, nil, err
	}
	return rec, key, nil
}

// battleView is a battle as GET /api/battles/{id} shows it.
type battleView struct {
	ID        string `json:"id"`
	Ruleset   string `json:"ruleset"`
	Title     string `json:"title,omitempty"`
	Edition   int    `json:"edition"`
	Generator string `json:"generator"`
	// Dice is who rolls the battle's dice: "server", or "players", who roll them by
	// hand and give each one with their actions (the seed then decides none).
	Dice string `json:"dice"`
	// Awaiting is, in a battle rolled by hand, the die an action sent to this server
	// waits for (the answer needs_roll), while no action has been taken since: who is
	// rolling it, for what, and the faces given so far.
	Awaiting   *awaiting         `json:"awaiting,omitempty"`
	Actions    int               `json:"actions"`
	Ended      bool              `json:"ended"`
	Commitment string            `json:"commitment"`
	Seed       *string           `json:"seed,omitempty"` // revealed once the battle ends
	Sides      []string          `json:"sides"`
	State      volley.State      `json:"state"`
	Board      *volley.BoardView `json:"board,omitempty"`
	Table      *volley.TableView `json:"table,omitempty"`
	// Advisor says what the advisor offers on this battle (advise.go).
	Advisor advisorView `json:"advisor"`
	// Result is how the battle stands by its scenario's end: the scores, and once it is
	// over why and who won. Nil for a battle whose scenario has no end.
	Result *volley.Result `json:"result,omitempty"`
	// TakeBack says who may take back which action now ({type: take_back}); nil when
	// nothing may be taken back.
	TakeBack *takeBackView `json:"take_back,omitempty"`
	// Offers are every action each side may take now (docs/json.md, "Offers"); none once
	// the battle has ended.
	Offers []volley.Offer `json:"offers"`
	// Head is the chain's head after the actions counted, signed by the server.
	Head *Head `json:"head,omitempty"`
	// Opponent is the side volley plays, nil when people play every side.
	Opponent *opponent.Seat `json:"opponent,omitempty"`
}

// takeBackView is the action that may be taken back now, and whose it is.
type takeBackView struct {
	Side string `json:"side"`
	What string `json:"what"`
}

func (s *Server) getBattle(w http.ResponseWriter, r *http.Request) {
	// The record is read fresh: another server may have ended the battle.
	rec, key, err := s.readSigned(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	l, done, err := s.openPriced(r.Context(), rec.ID, viewPrice)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	defer done()
	v := view(l, rec.Ended)
	v.Head = signed(key, rec.ID, l.next, l.head)
	if opponentWaits(l) {
		s.wakeOpponent(rec.ID) // after a restart, or a worker that gave up
	}
	writeJSON(w, http.StatusOK, v)
}

func view(l *live, ended bool) battleView {
	v := battleView{
		ID: l.record.ID, Ruleset: l.record.Ruleset, Title: l.title, Edition: volley.EditionOf(l.record.Edition),
		Generator: string(l.record.Seed.Generator), Dice: rolledBy(l.game.Hand), Actions: l.next, Ended: ended || l.record.Ended,
		Commitment: l.record.Commitment, State: l.battle.State(),
	}
	for side := range l.record.TokenHashes {
		v.Sides = append(v.Sides, side)
	}
	if l.seat != nil {
		v.Sides = append(v.Sides, l.seat.Side)
		v.Opponent = l.seat
	}
	slices.Sort(v.Sides)
	if v.Ended {
		seed := l.record.Seed.String()
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
	v.Advisor = advisorOf(l.battle, l.record.Ruleset)
	if l.game.End() != nil {
		r := l.game.Result()
		v.Result = &r
	}
	if aw := l.awaiting; aw != nil && aw.seq == l.next && !v.Ended {
		v.Awaiting = aw
	}
	if side, what := l.game.CanTakeBack(); side != "" && !v.Ended {
		v.TakeBack = &takeBackView{Side: side, What: what}
	}
	offers := offersOf(l.game, v.Ended)
	offers.Fill(&v.State)
	v.Offers = offers.Offers
	return v
}

// offersOf are what the sides may do now: the game's offers, or none once the battle
// has ended.
func offersOf(g *volley.Game, ended bool) volley.Offers {
	if !ended {
		return g.Offers()
	}
	o := volley.Offers{Acting: []string{}, Offers: []volley.Offer{}, Spent: map[string]string{}}
	for _, u := range g.Battle().State().Units {
		o.Spent[u.ID] = "the battle has ended"
	}
	return o
}

// actionBody is the action an aim or odds request asks about: the `action` query
// parameter, or the body of a POST.
func (s *Server) actionBody(w http.ResponseWriter, r *http.Request) ([]byte, string, error) {
	if r.Method == http.MethodGet {
		q := r.URL.Query().Get("action")
		switch {
		case q == "":
			return nil, "action", &volley.Error{Code: volley.EINVALID, Message: "give the action to aim as the action query parameter (YAML or JSON), or POST it", Field: "action"}
		case len(q) > s.limits.MaxActionBytes:
			return nil, "action", &volley.Error{Code: volley.ETOOLARGE, Message: fmt.Sprintf("an action is at most %d bytes", s.limits.MaxActionBytes), Field: "action"}
		case !validText([]byte(q)):
			return nil, "action", &volley.Error{Code: volley.EINVALID, Message: "the action must be UTF-8 text without NUL bytes", Field: "action"}
		}
		return []byte(q), "action", nil
	}
	body, err := s.readBody(w, r, s.limits.MaxActionBytes)
	return body, "body", err
}

// decodeAction decodes an action against a live battle. A refereed action is one a
// player sends to be resolved: the rules decide every die and every fact they can.
func decodeAction(l *live, body []byte, name string, refereed bool) (volley.Action, error) {
	doc, err := scenario.Parse(name, body)
	if err != nil {
		return nil, err
	}
	doc.Refereed = refereed
	doc.Edition = volley.EditionOf(l.record.Edition)
	return l.battle.DecodeAction(doc)
}

// decodeGameAction decodes an action a player sends to be resolved: one of the game's
// own (a take-back, an offer to end) or the rule system's, refereed.
func decodeGameAction(l *live, body []byte) (volley.Action, error) {
	doc, err := scenario.Parse("body", body)
	if err != nil {
		return nil, err
	}
	doc.Refereed = true
	doc.Edition = volley.EditionOf(l.record.Edition)
	return l.game.DecodeAction(doc)
}

// coster prices an action's work: a battle, or a game.
type coster interface{ Cost(volley.Action) int64 }

// workTurn moves the request to the queue for heavy work when an action's work is
// above the light limit; light work keeps its request slot.
func (s *Server) workTurn(ctx context.Context, b coster, a volley.Action, bodyLen int) error {
	if b.Cost(a) <= s.limits.LightWork && bodyLen <= s.limits.LightBytes {
		return nil
	}
	return s.heavyTurn(ctx)
}

func (s *Server) aim(w http.ResponseWriter, r *http.Request) {
	s.evaluate(w, r, false)
}

func (s *Server) odds(w http.ResponseWriter, r *http.Request) {
	s.evaluate(w, r, true)
}

// evaluate answers aim and odds requests in the one JSON shape of the CLI. They read the
// battle without changing it, so they share it with other readers. They roll nothing, so
// an action asked about may state what a resolved one may not (a die, a range): "what
// if?" is a fair question.
func (s *Server) evaluate(w http.ResponseWriter, r *http.Request, odds bool) {
	rec, err := s.readRecord(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	body, name, err := s.actionBody(w, r)
	if err == nil {
		err = s.work(r.Context())
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	l, done, err := s.openRead(r.Context(), rec.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	defer done()
	// A large body is heavy work before it is parsed (parsing it is the price).
	if err := s.admitBody(r.Context(), body); err != nil {
		s.fail(w, r, err)
		return
	}
	a, err := decodeAction(l, body, name, false)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var work coster = l.battle
	if !odds {
		work = twice{l.battle} // the aims, and whether the server would take the action
	}
	if err := s.workTurn(r.Context(), work, a, len(body)); err != nil {
		s.fail(w, r, err)
		return
	}
	if !odds {
		aims, err := l.battle.Aim(r.Context(), a)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if aims == nil {
			aims = []volley.Aim{}
		}
		legal, reason, err := legality(r.Context(), l, body)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		ans := map[string]any{"ruleset": l.record.Ruleset, "aims": aims, "legal": legal}
		if reason != "" {
			ans["reason"] = reason
		}
		writeJSON(w, http.StatusOK, ans)
		return
	}
	o, err := l.battle.Odds(r.Context(), a)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Ruleset string `json:"ruleset"`
		volley.Odds
	}{l.record.Ruleset, o})
}

// acted is the answer to a posted action: its place in the log, who took it, and what
// it did, with the battle's state after it.
type acted struct {
	Seq     int             `json:"seq"`
	Side    string          `json:"side"`
	Outcome json.RawMessage `json:"outcome"`
	// Head is the chain's head after the action, signed by the server: keep it.
	Head *Head `json:"head,omitempty"`
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
	id, err := s.allowBattle(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	key := r.Header.Get(IdempotencyHeader)
	if len(key) > maxKeyLen || strings.IndexFunc(key, func(c rune) bool { return c < '!' || c > '~' }) >= 0 {
		s.fail(w, r, &volley.Error{Code: volley.EINVALID, Message: fmt.Sprintf("at most %d printable ASCII characters", maxKeyLen), Field: IdempotencyHeader})
		return
	}
	if _, err := bearer(r); err != nil {
		s.fail(w, r, err)
		return
	}
	// The token is checked before the body is read and the battle folded, so that a
	// request without the right to act costs one look-up (in the cache, or else in the
	// store) and no upload.
	rec := s.cache.tokens(id)
	if rec == nil {
		if rec, err = s.store.Battle(r.Context(), id); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	if _, err := side(r, rec); err != nil {
		s.fail(w, r, err)
		return
	}
	body, err := s.readBody(w, r, s.limits.MaxActionBytes)
	if err == nil {
		err = s.work(r.Context())
	}
	var signer ed25519.PrivateKey
	if err == nil {
		signer, err = s.signingKey(r.Context())
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	l, done, err := s.openWritePriced(r.Context(), id, body)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	defer done()
	me, err := side(r, l.record)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if prev, ok := l.keys[key]; ok && key != "" {
		s.replayed(w, r, signer, prev, me, body, l)
		return
	}
	if l.record.Ended {
		s.fail(w, r, volley.Errorf(volley.ECONFLICT, "the battle has ended: it takes no more actions"))
		return
	}
	if l.logBytes > s.limits.MaxLogBytes {
		s.fail(w, r, volley.Errorf(volley.ECONFLICT, "the battle's log is full (%d bytes): end the battle and start another", s.limits.MaxLogBytes))
		return
	}
	// A large body is heavy work before it is parsed (parsing it is the price).
	if err := s.admitBody(r.Context(), body); err != nil {
		s.fail(w, r, err)
		return
	}
	a, err := decodeGameAction(l, body)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if actor := l.game.Actor(a); actor != me {
		s.fail(w, r, &volley.Error{Code: volley.EFORBIDDEN, Message: fmt.Sprintf("this action is %s's to take, and your token is %s's", actor, me), Field: "Authorization"})
		return
	}
	ans, prev, err := s.append(r.Context(), l, signer, me, a, body, key)
	switch {
	case err != nil:
		s.fail(w, r, err)
	case prev != nil:
		// Another server stored this idempotency key first: its answer stands.
		s.replayed(w, r, signer, *prev, me, body, nil)
	default:
		s.wakeOpponent(id)
		writeJSON(w, http.StatusOK, ans)
	}
}

// append resolves a (sent as body, with idempotency key) as side me's next action in l,
// whose write lock the caller holds, and stores it. When another server stored the same
// key first, it returns that action instead (prev), and nothing of its own. A failed
// action leaves the battle as it was.
func (s *Server) append(ctx context.Context, l *live, signer ed25519.PrivateKey, me string, a volley.Action, body []byte, key string) (ans *acted, prev *volley.ActionRecord, err error) {
	// The server works out the odds of every action it rolls, so that the log can say
	// where each result fell (volley.Luck): the work is priced with it, as the action
	// and the state its answer writes.
	g := l.game // the fold may be forgotten below (forget), the game with it
	g.Luck = true
	defer func() { g.Luck = false }()
	if err := s.admit(ctx, advise.AddWork(g.Cost(a), stateWork(l)), len(body)); err != nil {
		return nil, nil, err
	}
	// From here the fold in memory runs ahead of the store. Unless the action is stored,
	// drop it (whatever happens, a panic in the rules included), so that the next request
	// folds the log again instead of building on an action nobody recorded.
	stored := false
	defer func() {
		if !stored {
			s.forget(l)
		}
	}()
	seq := l.next
	out, err := l.game.Resolve(ctx, a, l.record.Seed.ForAction(seq))
	l.battle = l.game.Battle()
	var need *volley.NeedRoll
	if errors.As(err, &need) {
		l.awaiting = &awaiting{Side: me, Action: string(a.Kind()), Given: need.Given, Die: need.Die, seq: seq}
	}
	if err != nil {
		stored = true                          // refused by the rules, or out of time: the battle is exactly as it was
		return nil, nil, fieldFor(err, "body") // the rules refuse the action as a whole
	}
	outcome, err := json.Marshal(out)
	if err != nil {
		return nil, nil, err
	}
	id := l.record.ID
	ar := &volley.ActionRecord{BattleID: id, Seq: seq, Side: me, Body: string(body), Outcome: string(outcome), IdempotencyKey: key}
	ar.Chain = volley.ChainNext(l.head, ar)
	saved, err := s.store.AppendAction(ctx, ar)
	if err != nil {
		if volley.ErrorCode(err) == volley.ECONFLICT {
			err = s.conflictOf(ctx, id)
		}
		return nil, nil, err
	}
	if saved.Seq != seq || saved.Outcome != ar.Outcome {
		return nil, saved, nil
	}
	stored = true
	l.next = seq + 1
	l.logBytes += int64(len(ar.Body) + len(ar.Outcome))
	if key != "" {
		l.keys[key] = *saved
	}
	s.cache.resize(l, footprint(&l.fold))
	state := l.battle.State()
	l.folded(seq, state.Turn, ar.Chain)
	if err := s.endIfOver(ctx, l); err != nil {
		s.logger.Warn("ending a battle that is over failed; the next request ends it", "battle", id, "error", err)
	}
	s.hub.wake(id) // this server's streams; PostgreSQL tells the others
	return &acted{Seq: seq, Side: me, Outcome: outcome, Head: signed(signer, id, seq+1, ar.Chain), State: &state}, nil, nil
}

// conflict explains a refused append: the battle ended, or another action took the
// place first (then the same request may simply be sent again).
func (s *Server) conflictOf(ctx context.Context, id string) error {
	if rec, err := s.store.Battle(ctx, id); err == nil && rec.Ended {
		return volley.Errorf(volley.ECONFLICT, "the battle has ended: it takes no more actions")
	}
	return volley.Errorf(volley.ECONFLICT, "another action took this place in the log first: fetch the battle's state and send the action again")
}

// replayed answers a request whose idempotency key was used before: with the first
// answer, if it is the same request again; with a conflict if the key now comes with
// another action or from another side, which would otherwise be dropped unseen. l, if
// not nil, gives the state to show and the head after prev if the store keeps none.
func (s *Server) replayed(w http.ResponseWriter, r *http.Request, key ed25519.PrivateKey, prev volley.ActionRecord, me string, body []byte, l *live) {
	if prev.Side != me || prev.Body != string(body) {
		s.fail(w, r, &volley.Error{Code: volley.ECONFLICT, Message: fmt.Sprintf("this key was used for action %d with another body or side: use a new key for a new action", prev.Seq), Field: IdempotencyHeader})
		return
	}
	ans := acted{Seq: prev.Seq, Side: prev.Side, Outcome: json.RawMessage(prev.Outcome), Replayed: true}
	head := prev.Chain
	if l != nil && l.battle != nil {
		state := l.battle.State()
		ans.State = &state
		head = l.headAfter(&prev)
	}
	if head != "" {
		ans.Head = signed(key, prev.BattleID, prev.Seq+1, head)
	}
	writeJSON(w, http.StatusOK, ans)
}

// log answers GET /api/battles/{id}/log: the battle's whole record, written a page of
// actions at a time as it is read from the store, so that a long log costs the server a
// page of memory however many read it at once.
func (s *Server) log(w http.ResponseWriter, r *http.Request) {
	rec, key, err := s.readSigned(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ctx := r.Context()
	// The log's head names the scenario's title, which is parsed for it: priced as a
	// document.
	if err := s.admit(ctx, 0, len(rec.Scenario)); err != nil {
		s.fail(w, r, err)
		return
	}
	// The first page is read before the answer starts, so that a failed read is an
	// error answer rather than a cut-off log.
	page, err := s.store.Actions(ctx, rec.ID, 0, s.limits.PageBytes)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	start, err := marshalJSON(logOf(rec))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	// The log's start ends with its empty list of actions and no head, the last fields:
	// the entries go there, and the head after them.
	start = bytes.TrimSuffix(bytes.TrimRight(start, "\n"), []byte(`"actions":[]}`))
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	rs, _ := rules.Lookup(rec.Ruleset)
	out := bufio.NewWriterSize(w, 32<<10)
	out.Write(start)
	out.WriteString(`"actions":[`)
	client := clientKey(r)
	// The head covers exactly the actions this answer holds, however many were appended
	// while it was read: the last one's, as the store keeps it (the fold checked it
	// against the log), or worked out here for actions stored before chains.
	prev := volley.ChainStart(rec)
	chain := prev
	n := 0
	for len(page) > 0 {
		// Each page waits for the client's byte rate: a long log read again and again
		// is sent more slowly, never refused.
		size := 0
		for i := range page {
			size += page[i].Size()
		}
		if err := s.clients.pace(ctx, client, size); err != nil {
			panic(http.ErrAbortHandler) // out of time mid-answer: cut it off
		}
		for _, a := range page {
			if n > 0 {
				out.WriteString(",")
			}
			n++
			entry, _ := marshalJSON(LogEntry{Seq: a.Seq, Side: a.Side, Action: a.Body, Outcome: json.RawMessage(a.Outcome), Words: words(rs, a.Outcome), Why: opponent.Reason(a.Body)})
			out.Write(bytes.TrimRight(entry, "\n"))
			if chain = a.Chain; chain == "" { // stored before chains: worked out here
				chain = volley.ChainNext(prev, &a)
			}
			prev = chain
		}
		next := page[len(page)-1].Seq + 1
		if page, err = s.store.Actions(ctx, rec.ID, next, s.limits.PageBytes); err != nil {
			// The answer has begun: cut it off, so that the client sees a broken log
			// rather than a short one.
			s.logger.Warn("log: reading a page failed", "battle", rec.ID, "client", client, "error", err)
			panic(http.ErrAbortHandler)
		}
	}
	head, _ := marshalJSON(signed(key, rec.ID, n, chain))
	out.WriteString(`],"head":`)
	out.Write(bytes.TrimRight(head, "\n"))
	out.WriteString("}\n")
	_ = out.Flush() // the access log says whether it reached the client
}

// logOf is a battle's log without its actions.
func logOf(rec *volley.BattleRecord) Log {
	lg := Log{
		ID: rec.ID, Ruleset: rec.Ruleset, Edition: volley.EditionOf(rec.Edition), Generator: string(rec.Seed.Generator),
		Scenario: rec.Scenario, Commitment: rec.Commitment, Ended: rec.Ended, Actions: []LogEntry{},
	}
	lg.Dice = rolledBy(false)
	if doc, err := scenario.Parse("scenario", []byte(rec.Scenario)); err == nil {
		lg.Title = titleOf(doc)
		lg.Dice = rolledBy(volley.HandRolled(doc))
	}
	if rec.Ended {
		seed := rec.Seed.String()
		lg.Seed = &seed
	}
	return lg
}

// rolledBy says who rolls a battle's dice, as its view and log say it: "players" for a
// battle rolled by hand, else "server".
func rolledBy(hand bool) string {
	if hand {
		return string(scenario.DicePlayers)
	}
	return string(scenario.DiceServer)
}

// marshalJSON is JSON as every answer writes it: compact, with <, > and & as they are.
func marshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return b.Bytes(), err
}

// readLog reads the whole record of a battle, to verify it, with its head signed by key.
func (s *Server) readLog(ctx context.Context, rec *volley.BattleRecord, key ed25519.PrivateKey) (Log, error) {
	acts, err := s.store.Actions(ctx, rec.ID, 0, volley.AllActions)
	if err != nil {
		return Log{}, err
	}
	lg := logOf(rec)
	chain := volley.ChainStart(rec)
	for _, a := range acts {
		lg.Actions = append(lg.Actions, LogEntry{Seq: a.Seq, Side: a.Side, Action: a.Body, Outcome: json.RawMessage(a.Outcome)})
		chain = volley.ChainNext(chain, &a)
	}
	lg.Head = signed(key, rec.ID, len(acts), chain)
	return lg, nil
}

func (s *Server) end(w http.ResponseWriter, r *http.Request) {
	id, err := s.allowBattle(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if _, err := bearer(r); err != nil {
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
	if err := s.work(r.Context()); err != nil {
		s.fail(w, r, err)
		return
	}
	key, err := s.signingKey(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.store.EndBattle(r.Context(), id); err != nil {
		s.fail(w, r, err)
		return
	}
	// A folded battle learns it has ended here; readers and writers also read the ended
	// flag from the store, since another server may end it.
	if l := s.cache.lookup(id); l != nil && s.lockWrite(r.Context(), l) == nil {
		if l.record != nil {
			l.record.Ended = true
		}
		l.lock.Release(writeWeight)
	}
	s.hub.wake(id)
	ans := map[string]any{
		"id": id, "seed": rec.Seed.String(), "generator": string(rec.Seed.Generator), "commitment": rec.Commitment,
	}
	// The final head, when the battle is folded here (as it is when it is being played):
	// a battle not in the cache is not rebuilt to answer this. The battle has ended either
	// way, and its log and end event give the head too.
	if s.cache.lookup(id) != nil {
		if l, done, err := s.openRead(r.Context(), id); err == nil {
			ans["head"] = signed(key, id, l.next, l.head)
			done()
		}
	}
	writeJSON(w, http.StatusOK, ans)
}

// endIfOver ends a battle whose scenario's end has come (its last round is over, a side
// has no unit left, or every side has agreed): the store marks it ended, and its seed is
// revealed. A battle that is over is ended by the first request that finds it so, since
// it is a fact of its log (after a crash between the last action and its end, the next
// fold ends it). The caller holds l's write lock.
func (s *Server) endIfOver(ctx context.Context, l *live) error {
	if l.record == nil || l.record.Ended || !l.game.Over() {
		return nil
	}
	if err := s.store.EndBattle(ctx, l.id); err != nil {
		return err
	}
	l.record.Ended = true
	return nil
}

// words tells a logged outcome for people (volley.Tell); none when its JSON does not read.
func words(rs volley.Ruleset, outcome string) []string {
	var out volley.Outcome
	if rs == nil || json.Unmarshal([]byte(outcome), &out) != nil {
		return nil
	}
	return volley.Tell(rs, out)
}
