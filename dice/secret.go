package dice

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
)

// Generator names the algorithm that turns a battle's seed into dice. A battle's log
// names it, so that any later volley replays the log with the dice it was played with.
type Generator string

// The generators.
const (
	// GeneratorPCG is volley's first generator: a 64-bit seed spread by SplitMix64 into
	// a PCG (what ForAction does). Enough observed dice could give its seed away, so
	// servers no longer use it; it remains to verify the logs of older battles, and for
	// what-if seeds on the command line and Monte Carlo, where nothing is secret.
	GeneratorPCG Generator = "pcg"
	// GeneratorChaCha8 draws from ChaCha8, a cryptographic generator whose output is
	// fixed by its specification (C2SP chacha8rand), keyed for action n with
	// HMAC-SHA256(secret, "volley action " + n in decimal). Seeing any number of dice
	// tells nothing of the secret, nor of any die not yet rolled.
	GeneratorChaCha8 Generator = "chacha8"
)

// Seed sizes, in bytes.
const (
	pcgSeedBytes     = 8
	chacha8SeedBytes = 32
)

// Seed is a battle's secret: the generator it drives and its bytes, 8 (a big-endian
// uint64) for PCG and 32 for ChaCha8. The zero Seed is not valid.
type Seed struct {
	Generator Generator
	Bytes     []byte
}

// NewSeed returns a fresh ChaCha8 seed of 32 bytes read from r; a server passes
// crypto/rand.Reader.
func NewSeed(r io.Reader) (Seed, error) {
	b := make([]byte, chacha8SeedBytes)
	if _, err := io.ReadFull(r, b); err != nil {
		return Seed{}, fmt.Errorf("dice: no randomness for a seed: %w", err)
	}
	return Seed{Generator: GeneratorChaCha8, Bytes: b}, nil
}

// PCGSeed returns the PCG seed n.
func PCGSeed(n uint64) Seed {
	b := make([]byte, pcgSeedBytes)
	binary.BigEndian.PutUint64(b, n)
	return Seed{Generator: GeneratorPCG, Bytes: b}
}

// ParseSeed reads a seed of generator g as String writes it: a PCG seed in decimal (as
// older logs wrote it), a ChaCha8 seed as exactly 64 lowercase hex digits.
func ParseSeed(g Generator, text string) (Seed, error) {
	switch g {
	case GeneratorPCG:
		if text == "" || text[0] == '+' || len(text) > 1 && text[0] == '0' {
			return Seed{}, fmt.Errorf("dice: pcg seed %q: want a decimal number from 0 to %d without leading zeros", text, uint64(1<<64-1))
		}
		n, err := strconv.ParseUint(text, 10, 64)
		if err != nil {
			return Seed{}, fmt.Errorf("dice: pcg seed %q: want a decimal number from 0 to %d", text, uint64(1<<64-1))
		}
		return PCGSeed(n), nil
	case GeneratorChaCha8:
		if len(text) != 2*chacha8SeedBytes {
			return Seed{}, fmt.Errorf("dice: chacha8 seed: want %d hex digits, got %d characters", 2*chacha8SeedBytes, len(text))
		}
		for _, c := range text {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
				return Seed{}, fmt.Errorf("dice: chacha8 seed: want lowercase hex digits, got %q", c)
			}
		}
		b, _ := hex.DecodeString(text)
		return Seed{Generator: GeneratorChaCha8, Bytes: b}, nil
	}
	return Seed{}, fmt.Errorf("dice: unknown generator %q (known: %s, %s)", g, GeneratorPCG, GeneratorChaCha8)
}

// String writes the seed as ParseSeed reads it.
func (s Seed) String() string {
	if n, ok := s.Uint64(); ok {
		return strconv.FormatUint(n, 10)
	}
	return hex.EncodeToString(s.Bytes)
}

// Valid returns an error unless the seed's generator is known and its bytes are as many
// as that generator takes.
func (s Seed) Valid() error {
	want := 0
	switch s.Generator {
	case GeneratorPCG:
		want = pcgSeedBytes
	case GeneratorChaCha8:
		want = chacha8SeedBytes
	default:
		return fmt.Errorf("dice: unknown generator %q", s.Generator)
	}
	if len(s.Bytes) != want {
		return fmt.Errorf("dice: a %s seed has %d bytes, not %d", s.Generator, want, len(s.Bytes))
	}
	return nil
}

// Uint64 returns a PCG seed's number, and false for any other seed.
func (s Seed) Uint64() (uint64, bool) {
	if s.Generator != GeneratorPCG || len(s.Bytes) != pcgSeedBytes {
		return 0, false
	}
	return binary.BigEndian.Uint64(s.Bytes), true
}

// ForAction returns the recording stream of action n of a battle played with s. For a
// PCG seed it is ForAction(number, n); for a ChaCha8 seed, ChaCha8 keyed with the HMAC of
// n under the secret, so that each action's dice can be replayed alone and no action's
// dice say anything of another's. It panics on an invalid seed (see Valid), which a
// store never returns.
func (s Seed) ForAction(n int) *Stream {
	if err := s.Valid(); err != nil {
		panic(err.Error())
	}
	if x, ok := s.Uint64(); ok {
		return ForAction(x, n)
	}
	return &Stream{cc: rand.NewChaCha8(actionKey(s.Bytes, n)), record: true}
}

// actionKey is the ChaCha8 key of action n: HMAC-SHA256 of "volley action n" under the
// battle's secret.
func actionKey(secret []byte, n int) [32]byte {
	return labelKey(secret, "volley action "+strconv.Itoa(n))
}

// labelKey is HMAC-SHA256 of a label under the battle's secret.
func labelKey(secret []byte, label string) [32]byte {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(label))
	var key [32]byte
	copy(key[:], mac.Sum(nil))
	return key
}

// ForChoice returns the stream of the choices volley's opponent makes before action n of
// a battle played with s (its levels that choose at random), unrecorded: ChaCha8 keyed
// with the HMAC of "volley choice n", so that the opponent's choices replay with the
// battle and say nothing of any action's dice. For a PCG seed it is ForActionUnrecorded
// of the number's complement.
func (s Seed) ForChoice(n int) *Stream {
	if err := s.Valid(); err != nil {
		panic(err.Error())
	}
	if x, ok := s.Uint64(); ok {
		return ForActionUnrecorded(^x, n)
	}
	return &Stream{cc: rand.NewChaCha8(labelKey(s.Bytes, "volley choice "+strconv.Itoa(n)))}
}
