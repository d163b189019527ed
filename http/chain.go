package http

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"

	"github.com/volley-wargames/volley"
)

// The server signs the heads of battles' chains (volley.ChainNext) with one Ed25519 key,
// kept in the store (Store.SigningKey) so that it survives restarts and every server of
// one database signs with it. Its public half is served at GET /api/key.

// signingKey returns the store's signing key, storing a new one the first time any server
// of the store needs one. It is read from the store once, then kept.
func (s *Server) signingKey(ctx context.Context) (ed25519.PrivateKey, error) {
	s.keyMu.Lock()
	defer s.keyMu.Unlock()
	if s.key != nil {
		return s.key, nil
	}
	fresh := make([]byte, ed25519.SeedSize)
	if _, err := rand.Read(fresh); err != nil {
		return nil, fmt.Errorf("http: a new signing key: %w", err)
	}
	seed, err := s.store.SigningKey(ctx, fresh)
	if err != nil {
		return nil, err
	}
	if len(seed) != ed25519.SeedSize {
		return nil, fmt.Errorf("http: the store's signing key has %d bytes, not %d", len(seed), ed25519.SeedSize)
	}
	s.key = ed25519.NewKeyFromSeed(seed)
	return s.key, nil
}

// signed is battle id's head after its first actions actions, hash, with key's signature.
func signed(key ed25519.PrivateKey, id string, actions int, hash string) *Head {
	return &Head{Actions: actions, Hash: hash, Signature: hex.EncodeToString(ed25519.Sign(key, volley.HeadText(id, actions, hash)))}
}

// publicKey answers GET /api/key: the key that checks the server's signatures of heads,
// and the text it signs.
func (s *Server) publicKey(w http.ResponseWriter, r *http.Request) {
	if err := s.allow(false, r); err != nil {
		s.fail(w, r, err)
		return
	}
	key, err := s.signingKey(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{
		"algorithm": "Ed25519",
		"key":       hex.EncodeToString(key.Public().(ed25519.PublicKey)),
		"signs":     "volley chain head\nid: {id}\nactions: {actions}\nhead: {hash}\n", // volley.HeadText
	})
}
