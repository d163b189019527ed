package volley

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"strconv"
)

// A battle's history is a chain. Each action's link is a hash over the head before it and
// over everything the action was: its place in the log, its side, its body as it was sent
// (so its facing, path and every other field, whether or not the outcome records them) and
// its outcome. Whoever holds the head after action n holds the first n actions: changing
// any of them, in any byte, or leaving one out or adding one, changes every head from
// there on. The first link is bound to the battle, and through its commitment to its seed.
//
// The chain is computed from what the store keeps of each action, the same for every
// edition, so the logs of battles played before chains existed chain too. The server
// signs heads with its key (Ed25519): a head it signed is its word that this was the
// history, which it cannot later deny.

// ChainStart is the head of a battle's chain before its first action: the hex SHA-256 of
// "volley chain start\n" followed by the battle's id, rule system and commitment and the
// hex SHA-256 of its scenario, each written as a netstring ("<length>:<bytes>,"). The
// commitment binds the seed (from edition 2 the whole battle); the scenario's hash is
// there for edition 1, whose commitment is to the seed alone.
func ChainStart(rec *BattleRecord) string {
	scen := sha256.Sum256([]byte(rec.Scenario))
	h := sha256.New()
	h.Write([]byte("volley chain start\n"))
	for _, f := range []string{rec.ID, rec.Ruleset, rec.Commitment, hex.EncodeToString(scen[:])} {
		netstring(h, []byte(f))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ChainNext is the head after action a, given the head before it (ChainStart for action
// 0): the hex SHA-256 of "volley chain link\n" followed by, each as a netstring, the
// head before, a.Seq in decimal, a.Side, a.Body as it was sent, and a.Outcome without the
// whitespace JSON ignores (json.Compact; nothing else of it is changed, so a log
// reformatted by a JSON tool that only changes spacing chains the same).
func ChainNext(prev string, a *ActionRecord) string {
	h := sha256.New()
	h.Write([]byte("volley chain link\n"))
	netstring(h, []byte(prev))
	netstring(h, []byte(strconv.Itoa(a.Seq)))
	netstring(h, []byte(a.Side))
	netstring(h, []byte(a.Body))
	var out bytes.Buffer
	if json.Compact(&out, []byte(a.Outcome)) != nil {
		out.Reset()
		out.WriteString(a.Outcome) // not JSON: verification refuses it anyway
	}
	netstring(h, out.Bytes())
	return hex.EncodeToString(h.Sum(nil))
}

// netstring writes b as "<decimal length>:<b>,": no field can run into the next.
func netstring(h hash.Hash, b []byte) {
	fmt.Fprintf(h, "%d:", len(b))
	h.Write(b)
	h.Write([]byte{','})
}

// HeadText is what a server signs (Ed25519, with its key) to vouch for a head: that
// after its first actions actions, battle battleID's chain head is head.
func HeadText(battleID string, actions int, head string) []byte {
	return fmt.Appendf(nil, "volley chain head\nid: %s\nactions: %d\nhead: %s\n", battleID, actions, head)
}
