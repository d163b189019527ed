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
// head before, a.Seq in decimal, a.Side, a.Body exactly as it was sent, and a.Outcome
// written canonically (CanonicalJSON).
func ChainNext(prev string, a *ActionRecord) string {
	h := sha256.New()
	h.Write([]byte("volley chain link\n"))
	netstring(h, []byte(prev))
	netstring(h, []byte(strconv.Itoa(a.Seq)))
	netstring(h, []byte(a.Side))
	netstring(h, []byte(a.Body))
	netstring(h, CanonicalJSON(a.Outcome))
	return hex.EncodeToString(h.Sum(nil))
}

// CanonicalJSON writes a JSON text as the chain hashes it: its value read (numbers as
// float64, -0 as 0) and written again compactly, object keys in sorted order, numbers as
// short as they read back (as JavaScript writes them), strings escaping only what JSON
// must (and U+2028, U+2029). A log read and written again by any JSON tool, a browser's
// among them, so chains the same, whatever spacing, key order or escapes it chose. A
// text that is not JSON is taken as it is (verification refuses it anyway).
func CanonicalJSON(text string) []byte {
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return []byte(text)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(withoutNegativeZero(v)); err != nil {
		return []byte(text)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// withoutNegativeZero replaces -0 with 0 in a decoded JSON value: JavaScript writes -0 as
// 0, and a log a browser wrote again must chain as the server's.
func withoutNegativeZero(v any) any {
	switch x := v.(type) {
	case float64:
		if x == 0 {
			return 0.0
		}
	case []any:
		for i := range x {
			x[i] = withoutNegativeZero(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = withoutNegativeZero(x[k])
		}
	}
	return v
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
