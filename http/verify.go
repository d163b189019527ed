package http

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

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
}

// Log is a battle's whole record: what `volley verify` checks once the seed is known.
// Logs written before editions were recorded have no edition, generator or title: they
// are edition 1 logs of PCG dice.
type Log struct {
	ID         string     `json:"id"`
	Ruleset    string     `json:"ruleset"`
	Title      string     `json:"title,omitempty"`
	Edition    int        `json:"edition,omitempty"`
	Generator  string     `json:"generator,omitempty"`
	Scenario   string     `json:"scenario"`
	Commitment string     `json:"commitment"`
	Ended      bool       `json:"ended"`
	Seed       *string    `json:"seed,omitempty"`
	Actions    []LogEntry `json:"actions"`
}

// Verified is what checking an ended battle's log found: how much of it replays from the
// revealed seed.
type Verified struct {
	Actions int `json:"actions"`
	Dice    int `json:"dice"`
}

// Verify checks an ended battle's log against its revealed seed. Everything the log
// says the battle was must hold:
//
//   - the log is of an ended battle (a seed is only ever revealed by ending it);
//   - the seed is a seed of the generator the log names, which is the one its edition
//     uses;
//   - the commitment is the one the seed and the battle give (volley.Commitment): from
//     edition 2 it binds the id, rule system, edition, generator and scenario, so none
//     of them can be changed without changing it, and a player holding the commitment
//     they were given at the start can tell;
//   - the scenario is of the log's rule system, and its title is the log's;
//   - replaying every action from the scenario under the log's edition gives, for the
//     side the log names, exactly the outcome the log records: every die, every step of
//     the trace, every result.
//
// It stops at the first difference, since later actions build on earlier ones; the
// error's message starts "REJECTED:". A log that has not ended cannot be checked.
func Verify(ctx context.Context, lg Log) (Verified, error) {
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
	if rs.Name() != lg.Ruleset {
		return rejected("the log says %s, but its scenario is a %s battle", lg.Ruleset, rs.Name())
	}
	if title := titleOf(doc); lg.Title != "" && lg.Title != title || edition >= 2 && lg.Title != title {
		return rejected("the log's title is %q, but its scenario's is %q", lg.Title, title)
	}
	v := Verified{}
	for i, a := range lg.Actions {
		if a.Seq != i {
			return rejected("action %d is numbered %d: the log has a gap or is out of order", i, a.Seq)
		}
		n, p, err := verifyAction(ctx, game, seed, a)
		if err != nil {
			return v, err
		}
		if p != "" {
			return rejected("%s", p)
		}
		v.Actions++
		v.Dice += n
	}
	return v, nil
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
func verifyAction(ctx context.Context, g *volley.Game, seed dice.Seed, a LogEntry) (int, string, error) {
	_, actor, out, err := g.Replay(ctx, a.Action, seed.ForAction(a.Seq))
	if err != nil {
		if volley.ErrorCode(err) == volley.EUNAVAILABLE {
			return 0, "", err
		}
		return 0, fmt.Sprintf("action %d no longer resolves: %v", a.Seq, err), nil
	}
	if actor != a.Side {
		return 0, fmt.Sprintf("action %d is %s's, but the log says %s took it", a.Seq, actor, a.Side), nil
	}
	var logged volley.Outcome
	if err := json.Unmarshal(a.Outcome, &logged); err != nil {
		return 0, fmt.Sprintf("action %d: the logged outcome is not JSON: %v", a.Seq, err), nil
	}
	for i := range max(len(out.Rolls), len(logged.Rolls)) {
		switch {
		case i >= len(logged.Rolls):
			return 0, fmt.Sprintf("action %d: the seed rolls a die the log lacks (%s)", a.Seq, out.Rolls[i].Purpose), nil
		case i >= len(out.Rolls):
			return 0, fmt.Sprintf("action %d: the log has a die the seed never rolls (%s)", a.Seq, logged.Rolls[i].Purpose), nil
		case out.Rolls[i] != logged.Rolls[i]:
			return 0, fmt.Sprintf("action %d, die %d: the log says %s rolled %d on a d%d, the seed rolls %s: %d on a d%d",
				a.Seq, i+1, logged.Rolls[i].Purpose, logged.Rolls[i].Value, logged.Rolls[i].Sides, out.Rolls[i].Purpose, out.Rolls[i].Value, out.Rolls[i].Sides), nil
		}
	}
	if same, err := sameOutcome(out, a.Outcome); err != nil || !same {
		return 0, fmt.Sprintf("action %d: the dice match but the logged outcome differs from the replay (its trace, its results or its landings)", a.Seq), nil
	}
	return len(out.Rolls), "", nil
}

// verification is the answer of GET /api/battles/{id}/verify. A log that fails to
// verify is an answer, not an error of the request: Verified is false and Problem says
// where it fails.
type verification struct {
	Verified   bool   `json:"verified"`
	Actions    int    `json:"actions"`
	Dice       int    `json:"dice"`
	Seed       string `json:"seed"`
	Commitment string `json:"commitment"`
	Problem    string `json:"problem,omitempty"`
}

// verify replays an ended battle's stored log, as `volley verify` does with a downloaded
// one. It is a convenience for the page: a player who does not trust the server runs
// `volley verify` on the log themselves.
func (s *Server) verify(w http.ResponseWriter, r *http.Request) {
	rec, err := s.readRecord(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.heavyTurn(r.Context()); err != nil {
		s.fail(w, r, err)
		return
	}
	lg, err := s.readLog(r.Context(), rec)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v, err := Verify(r.Context(), lg)
	if code := volley.ErrorCode(err); code == volley.ECONFLICT || code == volley.EUNAVAILABLE {
		s.fail(w, r, err)
		return
	}
	ans := verification{Verified: err == nil, Actions: v.Actions, Dice: v.Dice, Seed: *lg.Seed, Commitment: lg.Commitment}
	if err != nil {
		ans.Problem = volley.ErrorMessage(err)
	}
	writeJSON(w, http.StatusOK, ans)
}
