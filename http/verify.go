package http

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// Verified is what checking an ended battle's log found: how much of it replays from the
// revealed seed.
type Verified struct {
	Actions int `json:"actions"`
	Dice    int `json:"dice"`
}

// Verify checks an ended battle's log against its revealed seed: the seed must be the one
// committed to when the battle began, and replaying every action from the scenario must
// roll exactly the logged dice, for the side the rules give it, with the logged result.
// It stops at the first difference, since later actions build on earlier ones; the
// error's message starts "REJECTED:". A log that has not ended cannot be checked.
func Verify(lg Log) (Verified, error) {
	if lg.Seed == nil {
		return Verified{}, volley.Errorf(volley.ECONFLICT, "the battle has not ended, so its seed is still secret (POST /api/battles/%s/end reveals it)", lg.ID)
	}
	seed, err := strconv.ParseUint(*lg.Seed, 10, 64)
	if err != nil {
		return Verified{}, volley.Errorf(volley.EINVALID, "REJECTED: seed %q is not a number", *lg.Seed)
	}
	if volley.Commit(seed) != lg.Commitment {
		return Verified{}, volley.Errorf(volley.EINVALID, "REJECTED: the revealed seed does not match the commitment published when the battle began (%s)", lg.Commitment)
	}
	doc, err := scenario.Parse("scenario", []byte(lg.Scenario))
	if err != nil {
		return Verified{}, err
	}
	rs, battle, _, err := rules.Open(doc)
	if err != nil {
		return Verified{}, err
	}
	if rs.Name() != lg.Ruleset {
		return Verified{}, volley.Errorf(volley.EINVALID, "REJECTED: the log says %s, but its scenario is a %s battle", lg.Ruleset, rs.Name())
	}
	v := Verified{}
	for i, a := range lg.Actions {
		if a.Seq != i {
			return v, volley.Errorf(volley.EINVALID, "REJECTED: action %d is numbered %d: the log has a gap or is out of order", i, a.Seq)
		}
		n, p := verifyAction(battle, seed, a)
		if p != "" {
			return v, volley.Errorf(volley.EINVALID, "REJECTED: %s", p)
		}
		v.Actions++
		v.Dice += n
	}
	return v, nil
}

// verifyAction replays one logged action and returns the dice it rolled, or says how
// it differs from the log.
func verifyAction(b volley.Battle, seed uint64, a LogEntry) (int, string) {
	act, out, err := volley.ReplayAction(b, seed, a.Seq, a.Action)
	if err != nil {
		return 0, fmt.Sprintf("action %d no longer resolves: %v", a.Seq, err)
	}
	if actor := b.Actor(act); actor != a.Side {
		return 0, fmt.Sprintf("action %d is %s's, but the log says %s took it", a.Seq, actor, a.Side)
	}
	var logged volley.Outcome
	if err := json.Unmarshal(a.Outcome, &logged); err != nil {
		return 0, fmt.Sprintf("action %d: the logged outcome is not JSON: %v", a.Seq, err)
	}
	for i := range max(len(out.Rolls), len(logged.Rolls)) {
		switch {
		case i >= len(logged.Rolls):
			return 0, fmt.Sprintf("action %d: the seed rolls a die the log lacks (%s)", a.Seq, out.Rolls[i].Purpose)
		case i >= len(out.Rolls):
			return 0, fmt.Sprintf("action %d: the log has a die the seed never rolls (%s)", a.Seq, logged.Rolls[i].Purpose)
		case out.Rolls[i] != logged.Rolls[i]:
			return 0, fmt.Sprintf("action %d, die %d: the log says %s rolled %d on a d%d, the seed rolls %s: %d on a d%d",
				a.Seq, i+1, logged.Rolls[i].Purpose, logged.Rolls[i].Value, logged.Rolls[i].Sides, out.Rolls[i].Purpose, out.Rolls[i].Value, out.Rolls[i].Sides)
		}
	}
	if !volley.SameResult(out, logged) {
		return 0, fmt.Sprintf("action %d: the dice match but the logged result differs from the replay", a.Seq)
	}
	return len(out.Rolls), ""
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
	lg, err := s.readLog(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v, err := Verify(lg)
	if volley.ErrorCode(err) == volley.ECONFLICT {
		s.fail(w, r, err)
		return
	}
	ans := verification{Verified: err == nil, Actions: v.Actions, Dice: v.Dice, Seed: *lg.Seed, Commitment: lg.Commitment}
	if err != nil {
		ans.Problem = volley.ErrorMessage(err)
	}
	writeJSON(w, http.StatusOK, ans)
}
