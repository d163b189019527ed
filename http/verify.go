package http

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// LogEntry is one action of a battle's log.
type LogEntry struct {
	Seq     int             `json:"seq"`
	Side    string          `json:"side"`
	Action  string          `json:"action"`
	Outcome json.RawMessage `json:"outcome"`
	// Words tell the outcome for people, a line for each thing that happened
	// (volley.Tell). The server writes them when it answers the log; nothing checks
	// them, and verifying leaves them out.
	Words []string `json:"words,omitempty"`
	// Why is what volley, playing a side, said of its reasons for the action (the
	// comment its body begins with); nothing checks it either.
	Why string `json:"why,omitempty"`
}

// Head is the head of a battle's chain after its first Actions actions
// (volley.ChainNext), with the server's Ed25519 signature of it (of volley.HeadText, in
// hex). Every answer that appends or reads actions gives one, and every live event: a
// player who keeps the last one given holds the history they were shown, and can check
// any log against it (VerifyWith, `volley verify --head`).
type Head struct {
	Actions   int    `json:"actions"`
	Hash      string `json:"hash"`
	Signature string `json:"signature,omitempty"`
}

// Log is a battle's whole record: what `volley verify` checks once the seed is known.
// Logs written before editions were recorded have no edition, generator or title: they
// are edition 1 logs of PCG dice. Logs written before chains have no head; their chain
// is worked out from their actions all the same.
type Log struct {
	ID        string `json:"id"`
	Ruleset   string `json:"ruleset"`
	Title     string `json:"title,omitempty"`
	Edition   int    `json:"edition,omitempty"`
	Generator string `json:"generator,omitempty"`
	// Dice says who rolled the battle's dice: "players" when its scenario says so (each
	// roll then names the side that gave it), else "server". Read from the scenario: it is
	// for people, and verifying reads the scenario itself.
	Dice       string     `json:"dice,omitempty"`
	Scenario   string     `json:"scenario"`
	Commitment string     `json:"commitment"`
	Ended      bool       `json:"ended"`
	Seed       *string    `json:"seed,omitempty"`
	Actions    []LogEntry `json:"actions"`
	// Head is the chain's head after every action of the log, signed. It comes after
	// the actions, which the server writes as it reads them.
	Head *Head `json:"head,omitempty"`
}

// Verified is what checking an ended battle's log found: how much of it replays from the
// revealed seed, its chain's head, and how it stands with what it was checked against.
type Verified struct {
	Actions int `json:"actions"`
	Dice    int `json:"dice"`
	// Hand says the dice were rolled by hand by the players (the scenario's dice:
	// players): each action was worked out again from the faces its player gave, and the
	// seed decided none of them.
	Hand bool `json:"hand,omitempty"`
	// Head is the head of the log's chain after all its actions.
	Head string `json:"head"`
	// Kept is where the head the player kept lies on the chain (after this many
	// actions), or -1 when none was given.
	Kept int `json:"kept"`
	// Signed says the key given signed a head of this chain (the log's or the kept one).
	Signed bool `json:"signed"`
	// Fairness tests each roller's dice, size by size, against fair dice
	// (dice.FairnessOf): in a battle rolled by hand, how each player's dice fell. It is
	// a reading of the verified dice, not part of the check.
	Fairness []dice.Fairness `json:"fairness,omitempty"`
}

// Trust is what a log is checked against beside its own seed and commitment, which
// anyone holds once the battle has ended and anyone can write a log for.
type Trust struct {
	// Head is a head a player was given while the battle went on. The log must pass
	// through it: its chain after Head.Actions actions (any number of them when
	// Actions is negative, for a bare hash) must be Head.Hash. A log that differs from
	// the history the player was shown anywhere before that point, or stops short of
	// it, fails.
	Head *Head
	// Key is the public key the server signs heads with (GET /api/key). The log's
	// head, or Head, must carry the key's signature of a head of the log's chain: no one
	// but the server can sign a history.
	Key ed25519.PublicKey
}

// Verify checks an ended battle's log against its revealed seed. Everything the log
// says the battle was must hold:
//
//   - the log is of an ended battle (a seed is only ever revealed by ending it);
//
//   - the seed is a seed of the generator the log names, which is the one its edition
//     uses;
//
//   - the commitment is the one the seed and the battle give (volley.Commitment): from
//     edition 2 it binds the id, rule system, edition, generator and scenario, so none
//     of them can be changed without changing it, and a player holding the commitment
//     they were given at the start can tell;
//
//   - the scenario is of the log's rule system, and its title is the log's;
//
//   - replaying every action from the scenario under the log's edition gives, for the
//     side the log names, exactly the outcome the log records: every die, every step of
//     the trace, every result.
//
//   - the log's head, if it has one, is the head of its actions' chain.
//
// It stops at the first difference, since later actions build on earlier ones; the
// error's message starts "REJECTED:". A log that has not ended cannot be checked.
//
// The seed proves the dice, not the history: once it is revealed anyone can write other
// actions for the battle and work out their outcomes, and such a log passes Verify.
// VerifyWith checks it against what a player holds besides.
func Verify(ctx context.Context, lg Log) (Verified, error) {
	return VerifyWith(ctx, lg, Trust{})
}

// VerifyWith is Verify, and then checks the log's chain against the head a player kept
// and the server's key, as trust gives them.
func VerifyWith(ctx context.Context, lg Log, trust Trust) (Verified, error) {
	if lg.Seed == nil {
		if lg.Ended {
			return Verified{}, volley.Errorf(volley.EINVALID, "REJECTED: the log says the battle ended but reveals no seed")
		}
		return Verified{}, volley.Errorf(volley.ECONFLICT, "the battle has not ended, so its seed is still secret (POST /api/battles/%s/end reveals it)", lg.ID)
	}
	rejected := func(format string, args ...any) (Verified, error) {
		return Verified{}, volley.Errorf(volley.EINVALID, "REJECTED: "+format, args...)
	}
	if !lg.Ended {
		return rejected("the log reveals a seed but says the battle has not ended: a seed is only revealed by ending the battle")
	}
	edition := volley.EditionOf(lg.Edition)
	if edition > volley.Edition {
		return rejected("the log is of edition %d, newer than this volley's %d: update volley", edition, volley.Edition)
	}
	generator := dice.Generator(lg.Generator)
	if generator == "" {
		generator = dice.GeneratorPCG
	}
	if want := generatorOf(edition); generator != want {
		return rejected("the log names the %s generator, but edition %d battles roll with %s", generator, edition, want)
	}
	seed, err := dice.ParseSeed(generator, *lg.Seed)
	if err != nil {
		return rejected("the seed %q: %v", *lg.Seed, err)
	}
	rec := &volley.BattleRecord{ID: lg.ID, Ruleset: lg.Ruleset, Scenario: lg.Scenario, Edition: edition, Seed: seed}
	if volley.Commitment(rec) != lg.Commitment {
		if edition == 1 {
			return rejected("the revealed seed does not match the commitment published when the battle began (%s)", lg.Commitment)
		}
		return rejected("the commitment %s is not the one this seed, id, rule system, edition, generator and scenario make: one of them is not what the battle began with", lg.Commitment)
	}
	doc, err := scenario.Parse("scenario", []byte(lg.Scenario))
	if err != nil {
		return rejected("the scenario no longer reads: %v", err)
	}
	doc.Edition = edition
	doc.Accepted = true
	rs, battle, _, err := rules.Open(doc)
	if err != nil {
		return rejected("the scenario no longer loads: %v", err)
	}
	end, err := volley.ReadEnd(doc, battle)
	if err != nil {
		return rejected("the scenario's end no longer reads: %v", err)
	}
	game := volley.NewGame(battle, end)
	game.Hand = volley.HandRolled(doc)
	if rs.Name() != lg.Ruleset {
		return rejected("the log says %s, but its scenario is a %s battle", lg.Ruleset, rs.Name())
	}
	if title := titleOf(doc); lg.Title != "" && lg.Title != title || edition >= 2 && lg.Title != title {
		return rejected("the log's title is %q, but its scenario's is %q", lg.Title, title)
	}
	v := Verified{Kept: -1, Hand: game.Hand}
	rec.Commitment = lg.Commitment
	heads := []string{volley.ChainStart(rec)}
	var rolls []dice.Roll
	for i, a := range lg.Actions {
		if a.Seq != i {
			return rejected("action %d is numbered %d: the log has a gap or is out of order", i, a.Seq)
		}
		rolled, p, err := verifyAction(ctx, game, seed, a)
		if err != nil {
			return v, err
		}
		if p != "" {
			return rejected("%s", p)
		}
		v.Actions++
		v.Dice += len(rolled)
		rolls = append(rolls, rolled...)
		heads = append(heads, volley.ChainNext(heads[i], &volley.ActionRecord{Seq: a.Seq, Side: a.Side, Body: a.Action, Outcome: string(a.Outcome)}))
	}
	v.Head = heads[len(lg.Actions)]
	if p := checkChain(lg, heads, trust, &v); p != "" {
		return Verified{}, volley.Errorf(volley.EINVALID, "REJECTED: %s", p)
	}
	v.Fairness = dice.FairnessOf(rolls)
	return v, nil
}

// checkChain checks a log's chain (heads[k] is its head after k actions) against the
// log's own head and what trust gives, and says how it fails, or "".
func checkChain(lg Log, heads []string, trust Trust, v *Verified) string {
	n := len(lg.Actions)
	if h := lg.Head; h != nil && (h.Actions != n || h.Hash != heads[n]) {
		return fmt.Sprintf("the log's head (%s after %d actions) is not the chain of its %d actions (%s): an action was changed, added or left out after the head was given",
			short(h.Hash), h.Actions, n, short(heads[n]))
	}
	if k := trust.Head; k != nil {
		switch {
		case k.Actions > n:
			return fmt.Sprintf("you were given the head after %d actions, and the log has %d: actions you were shown are left off its end", k.Actions, n)
		case k.Actions >= 0 && heads[k.Actions] != k.Hash:
			return fmt.Sprintf("after %d actions the log's chain is %s, and the head you were given then is %s: the log's history is not the one you were shown",
				k.Actions, short(heads[k.Actions]), short(k.Hash))
		case k.Actions >= 0:
			v.Kept = k.Actions
		default:
			if v.Kept = slices.Index(heads, k.Hash); v.Kept < 0 {
				return fmt.Sprintf("the head you kept (%s) is nowhere on the log's chain: the log's history is not the one you were shown", short(k.Hash))
			}
		}
	}
	if trust.Key != nil {
		for _, h := range []*Head{lg.Head, trust.Head} {
			if h == nil || h.Signature == "" {
				continue
			}
			if !SignedBy(trust.Key, lg.ID, h) {
				return fmt.Sprintf("the signature of the head %s after %d actions is not the server's (by the key given)", short(h.Hash), h.Actions)
			}
			if h.Actions < 0 || h.Actions > n || heads[h.Actions] != h.Hash {
				return fmt.Sprintf("the server signed the head %s after %d actions, which is not on the log's chain: the log's history is not the one the server vouched for", short(h.Hash), h.Actions)
			}
			v.Signed = true
		}
		if !v.Signed {
			return "neither the log nor the head you kept carries a signature to check with the key: download the log again from the server, or check it against a head you kept (--head)"
		}
	}
	return ""
}

// short is the start of a hash, enough to tell two apart in a message.
func short(h string) string {
	if len(h) > 16 {
		return h[:16] + "…"
	}
	return h
}

// SignedBy reports whether h carries key's signature of battle id's head: that the
// server holding the key said the battle's chain after h.Actions actions is h.Hash.
func SignedBy(key ed25519.PublicKey, id string, h *Head) bool {
	sig, err := hex.DecodeString(h.Signature)
	return err == nil && len(key) == ed25519.PublicKeySize && len(sig) == ed25519.SignatureSize &&
		ed25519.Verify(key, volley.HeadText(id, h.Actions, h.Hash), sig)
}

// ParseHead reads a head a player kept: the JSON of a Head as the server gave it
// ({"actions": 4, "hash": "…", "signature": "…"}), or a bare hash of 64 hex digits,
// which may lie after any number of actions (Actions is then -1).
func ParseHead(s string) (*Head, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "{") {
		var h Head
		dec := json.NewDecoder(strings.NewReader(s))
		dec.DisallowUnknownFields()
		err := dec.Decode(&h)
		if err == nil && dec.InputOffset() != int64(len(s)) {
			err = fmt.Errorf("text after the head")
		}
		if err != nil {
			return nil, fmt.Errorf("a head is {\"actions\": N, \"hash\": \"…\", \"signature\": \"…\"} as the server gives it, or a bare hash: %v", err)
		}
		if h.Actions < 0 || !isHash(h.Hash) {
			return nil, fmt.Errorf("a head's actions are a count (0 or more) and its hash 64 hex digits")
		}
		h.Hash = strings.ToLower(h.Hash)
		return &h, nil
	}
	if !isHash(s) {
		return nil, fmt.Errorf("a head is 64 hex digits (or the JSON of a head as the server gives it), not %q", s)
	}
	return &Head{Actions: -1, Hash: strings.ToLower(s)}, nil
}

// isHash reports whether s is 64 hex digits: a SHA-256.
func isHash(s string) bool {
	_, err := hex.DecodeString(s)
	return len(s) == 2*sha256.Size && err == nil
}

// ParseKey reads a server's public key as GET /api/key gives it: 64 hex digits.
func ParseKey(s string) (ed25519.PublicKey, error) {
	b, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("a server's key is %d hex digits, as GET /api/key gives it", 2*ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(b), nil
}

// generatorOf is the generator an edition's battles roll with.
func generatorOf(edition int) dice.Generator {
	if edition == 1 {
		return dice.GeneratorPCG
	}
	return dice.GeneratorChaCha8
}

// verifyAction replays one logged action and returns the dice it rolled, or says how
// it differs from the log. err is set only when ctx ended.
func verifyAction(ctx context.Context, g *volley.Game, seed dice.Seed, a LogEntry) ([]dice.Roll, string, error) {
	_, actor, out, err := g.Replay(ctx, a.Action, seed.ForAction(a.Seq))
	if err != nil {
		if volley.ErrorCode(err) == volley.EUNAVAILABLE {
			return nil, "", err
		}
		return nil, fmt.Sprintf("action %d no longer resolves: %v", a.Seq, err), nil
	}
	if actor != a.Side {
		return nil, fmt.Sprintf("action %d is %s's, but the log says %s took it", a.Seq, actor, a.Side), nil
	}
	var logged volley.Outcome
	if err := json.Unmarshal(a.Outcome, &logged); err != nil {
		return nil, fmt.Sprintf("action %d: the logged outcome is not JSON: %v", a.Seq, err), nil
	}
	// The dice of a battle rolled by hand are the faces its action gives, not the seed's.
	source, never := "the seed rolls", "the seed never rolls"
	if g.Hand {
		source, never = "the action's dice give", "the action's dice never give"
	}
	for i := range max(len(out.Rolls), len(logged.Rolls)) {
		switch {
		case i >= len(logged.Rolls):
			return nil, fmt.Sprintf("action %d: %s a die the log lacks (%s)", a.Seq, source, out.Rolls[i].Purpose), nil
		case i >= len(out.Rolls):
			return nil, fmt.Sprintf("action %d: the log has a die %s (%s)", a.Seq, never, logged.Rolls[i].Purpose), nil
		case out.Rolls[i] != logged.Rolls[i]:
			return nil, fmt.Sprintf("action %d, die %d: the log says %s rolled %d on a d%d, %s %s: %d on a d%d",
				a.Seq, i+1, logged.Rolls[i].Purpose, logged.Rolls[i].Value, logged.Rolls[i].Sides, source, out.Rolls[i].Purpose, out.Rolls[i].Value, out.Rolls[i].Sides), nil
		}
	}
	if same, err := sameOutcome(out, a.Outcome); err != nil || !same {
		return nil, fmt.Sprintf("action %d: the dice match but the logged outcome differs from the replay (its trace, its results or its landings)", a.Seq), nil
	}
	return out.Rolls, "", nil
}

// verification is the answer of GET /api/battles/{id}/verify. A log that fails to
// verify is an answer, not an error of the request: Verified is false and Problem says
// where it fails.
type verification struct {
	Verified bool `json:"verified"`
	Actions  int  `json:"actions"`
	Dice     int  `json:"dice"`
	// RolledBy is who rolled the dice: "players" (by hand, the seed decided none) or
	// "server".
	RolledBy   string `json:"rolled_by"`
	Seed       string `json:"seed"`
	Commitment string `json:"commitment"`
	// Head is the log's head, signed.
	Head *Head `json:"head,omitempty"`
	// Kept is where the head given in the query lies on the log's chain (after this
	// many actions), when one was given and it does.
	Kept    *int   `json:"kept,omitempty"`
	Problem string `json:"problem,omitempty"`
	// Fairness is how each roller's dice fell against fair dice (Verified.Fairness),
	// when the log verified.
	Fairness []dice.Fairness `json:"fairness,omitempty"`
}

// verify replays an ended battle's stored log, as `volley verify` does with a downloaded
// one, and checks that its chain passes through the head the page kept (the head query
// parameter: a hash, or a head's JSON; with actions, the count it was given after). It is
// a convenience for the page: a player who does not trust the server runs `volley
// verify` on the log themselves, with the head they kept.
func (s *Server) verify(w http.ResponseWriter, r *http.Request) {
	rec, err := s.readRecord(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var trust Trust
	if q := r.URL.Query().Get("head"); q != "" {
		if trust.Head, err = ParseHead(q); err != nil {
			s.fail(w, r, &volley.Error{Code: volley.EINVALID, Message: err.Error(), Field: "head"})
			return
		}
		if q := r.URL.Query().Get("actions"); q != "" {
			n, err := strconv.Atoi(q)
			if err != nil || n < 0 || n > maxEventID {
				s.fail(w, r, &volley.Error{Code: volley.EINVALID, Message: "the count of actions the head was given after: 0 or more", Field: "actions"})
				return
			}
			trust.Head.Actions = n
		}
	}
	if err := s.heavyTurn(r.Context()); err != nil {
		s.fail(w, r, err)
		return
	}
	key, err := s.signingKey(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	lg, err := s.readLog(r.Context(), rec, key)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v, err := VerifyWith(r.Context(), lg, trust)
	if code := volley.ErrorCode(err); code == volley.ECONFLICT || code == volley.EUNAVAILABLE {
		s.fail(w, r, err)
		return
	}
	ans := verification{Verified: err == nil, Actions: v.Actions, Dice: v.Dice, RolledBy: lg.Dice, Seed: *lg.Seed, Commitment: lg.Commitment, Head: lg.Head}
	if err == nil && v.Kept >= 0 {
		ans.Kept = &v.Kept
	}
	if err == nil {
		ans.Fairness = v.Fairness
	}
	if err != nil {
		ans.Problem = volley.ErrorMessage(err)
	}
	writeJSON(w, http.StatusOK, ans)
}
