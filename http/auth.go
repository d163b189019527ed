package http

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"

	"github.com/volley-wargames/volley"
)

// A battle's tokens: one per side, which acts for that side and reads the battle, and a
// spectator's, which only reads. Each is 32 hex digits (128 random bits) and is stored
// only as its SHA-256, so that a copy of the database cannot act or read.

// maxListTokens bounds the tokens one battle-list request may carry.
const maxListTokens = 100

func hashToken(tok string) string {
	sum := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(sum[:])
}

// bearer returns the tokens of a request's Authorization header: "Bearer T", or for the
// battle list "Bearer T1, T2, …".
func bearer(r *http.Request) ([]string, error) {
	scheme, rest, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(rest) == "" {
		return nil, &volley.Error{Code: volley.EUNAUTHORIZED, Message: "send a token of this battle (a side's or the spectator's) as Authorization: Bearer <token>", Field: "Authorization"}
	}
	var toks []string
	for _, t := range strings.FieldsFunc(rest, func(r rune) bool { return r == ',' || r == ' ' }) {
		toks = append(toks, t)
	}
	if len(toks) > maxListTokens {
		return nil, &volley.Error{Code: volley.EINVALID, Message: fmt.Sprintf("at most %d tokens", maxListTokens), Field: "Authorization"}
	}
	return toks, nil
}

// Roles a token gives.
const spectatorRole = ""

// whose returns the side a token acts for, or spectatorRole for the spectator token,
// and false for a token of no role in the battle. It compares hashes in constant time.
func whose(rec *volley.BattleRecord, tok string) (string, bool) {
	h := []byte(hashToken(tok))
	side, found := "", false
	for s, want := range rec.TokenHashes {
		if subtle.ConstantTimeCompare(h, []byte(want)) == 1 {
			side, found = s, true
		}
	}
	if rec.SpectatorHash != "" && subtle.ConstantTimeCompare(h, []byte(rec.SpectatorHash)) == 1 {
		found = true
	}
	return side, found
}

// reader authenticates a request that reads a battle: its token must be one of the
// battle's, a side's or the spectator's.
func reader(r *http.Request, rec *volley.BattleRecord) error {
	toks, err := bearer(r)
	if err != nil {
		return err
	}
	if len(toks) == 1 {
		if _, ok := whose(rec, toks[0]); ok {
			return nil
		}
	}
	return &volley.Error{Code: volley.EFORBIDDEN, Message: "this token is not one of this battle's", Field: "Authorization"}
}

// side authenticates a request that acts in a battle: the bearer token must be one of
// the battle's sides', and the side is returned.
func side(r *http.Request, rec *volley.BattleRecord) (string, error) {
	toks, err := bearer(r)
	if err != nil {
		return "", err
	}
	if len(toks) == 1 {
		if s, ok := whose(rec, toks[0]); ok && s != spectatorRole {
			return s, nil
		}
		if _, ok := whose(rec, toks[0]); ok {
			return "", &volley.Error{Code: volley.EFORBIDDEN, Message: "a spectator's token reads the battle but cannot act in it", Field: "Authorization"}
		}
	}
	return "", &volley.Error{Code: volley.EFORBIDDEN, Message: "this token belongs to no side of this battle", Field: "Authorization"}
}
