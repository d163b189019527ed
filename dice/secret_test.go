package dice

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// testSecret is the secret 00 01 02 … 1f.
func testSecret() Seed {
	b := make([]byte, 32)
	for i := range b {
		b[i] = byte(i)
	}
	return Seed{Generator: GeneratorChaCha8, Bytes: b}
}

// TestChaCha8Golden pins the first words and dice of two actions of a ChaCha8 seed. They
// are fixed by the C2SP chacha8rand specification and volley's HMAC derivation of each
// action's key, and must never change: every logged battle's dice depend on them.
func TestChaCha8Golden(t *testing.T) {
	for _, tc := range []struct {
		n     int
		words []uint64
		d6    []int
	}{
		{0, []uint64{0xc1e9f812710d2bea, 0x5d33525454040b73, 0x9503b73b3fb82a25, 0xfb1b41657d3af5c7},
			[]int{5, 3, 4, 6, 3, 1, 6, 1, 2, 3, 5, 2, 5, 5, 1, 1, 5, 1, 2, 5}},
		{7, []uint64{0xa388e4b121176e24, 0xb6f2123c52155dba, 0x8c307238062cbebe, 0xb5fa2971664c2815},
			[]int{4, 5, 4, 5, 3, 3, 6, 3, 4, 2, 4, 5, 1, 4, 3, 5, 6, 1, 6, 2}},
	} {
		s := testSecret().ForAction(tc.n)
		for i, want := range tc.words {
			if got := s.Uint64(); got != want {
				t.Errorf("action %d word %d = %#x; want %#x", tc.n, i, got, want)
			}
		}
		s = testSecret().ForAction(tc.n)
		var got []int
		for range tc.d6 {
			got = append(got, s.Roll(6, "d6"))
		}
		if !slices.Equal(got, tc.d6) {
			t.Errorf("action %d d6s = %v; want %v", tc.n, got, tc.d6)
		}
		if s.Len() != len(tc.d6) {
			t.Errorf("action %d recorded %d rolls; want %d", tc.n, s.Len(), len(tc.d6))
		}
	}
}

// TestChaCha8Derivation recomputes an action's key by hand: HMAC-SHA256 of "volley action
// n" under the secret, fed straight to the standard library's ChaCha8.
func TestChaCha8Derivation(t *testing.T) {
	secret := testSecret()
	for _, n := range []int{0, 1, 42, -3, 1 << 40} {
		mac := hmac.New(sha256.New, secret.Bytes)
		fmt.Fprintf(mac, "volley action %d", n)
		var key [32]byte
		copy(key[:], mac.Sum(nil))
		want := rand.NewChaCha8(key)
		got := secret.ForAction(n)
		for i := range 64 {
			if g, w := got.Uint64(), want.Uint64(); g != w {
				t.Fatalf("action %d word %d = %#x; ChaCha8 of the HMAC gives %#x", n, i, g, w)
			}
		}
	}
}

// TestPCGSeedIsForAction: a PCG seed gives exactly what ForAction gave before seeds had
// generators, so that older battles replay.
func TestPCGSeedIsForAction(t *testing.T) {
	for _, x := range []uint64{0, 1, 12345, 1<<64 - 1} {
		for _, n := range []int{0, 3} {
			a, b := PCGSeed(x).ForAction(n), ForAction(x, n)
			for i := range 16 {
				if a.Uint64() != b.Uint64() {
					t.Fatalf("PCGSeed(%d).ForAction(%d) differs from ForAction at word %d", x, n, i)
				}
			}
		}
	}
}

func TestSeedsDiffer(t *testing.T) {
	first := func(s *Stream) [4]uint64 { return [4]uint64{s.Uint64(), s.Uint64(), s.Uint64(), s.Uint64()} }
	a := testSecret()
	b := testSecret()
	b.Bytes = bytes.Clone(b.Bytes)
	b.Bytes[31] ^= 1
	seen := map[[4]uint64]string{}
	for _, s := range []Seed{a, b} {
		for n := range 50 {
			w := first(s.ForAction(n))
			name := fmt.Sprintf("%s/%d", s, n)
			if prev, dup := seen[w]; dup {
				t.Errorf("%s and %s start alike", prev, name)
			}
			seen[w] = name
			if first(s.ForAction(n)) != w {
				t.Errorf("%s twice gave different words", name)
			}
		}
	}
}

func TestParseSeed(t *testing.T) {
	hex := strings.Repeat("0f", 32)
	for _, tc := range []struct {
		g    Generator
		text string
		err  string // "" parses and writes back as text
	}{
		{GeneratorPCG, "0", ""},
		{GeneratorPCG, "18446744073709551615", ""},
		{GeneratorChaCha8, hex, ""},
		{GeneratorPCG, "", "want a decimal number"},
		{GeneratorPCG, "-1", "want a decimal number"},
		{GeneratorPCG, "+1", "want a decimal number"},
		{GeneratorPCG, "007", "without leading zeros"},
		{GeneratorPCG, "18446744073709551616", "want a decimal number"},
		{GeneratorPCG, "0x10", "want a decimal number"},
		{GeneratorChaCha8, hex[:62], "want 64 hex digits, got 62"},
		{GeneratorChaCha8, hex + "00", "want 64 hex digits, got 66"},
		{GeneratorChaCha8, strings.ToUpper(hex), "want lowercase hex digits"},
		{GeneratorChaCha8, strings.Repeat("g", 64), "want lowercase hex digits"},
		{"mt19937", "1", `unknown generator "mt19937"`},
		{"", "1", `unknown generator ""`},
	} {
		s, err := ParseSeed(tc.g, tc.text)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("ParseSeed(%q, %q) = %v", tc.g, tc.text, err)
		case tc.err == "" && (s.String() != tc.text || s.Valid() != nil):
			t.Errorf("ParseSeed(%q, %q).String() = %q, Valid %v", tc.g, tc.text, s, s.Valid())
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ParseSeed(%q, %q) = %v; want an error containing %q", tc.g, tc.text, err, tc.err)
		}
	}
}

func TestNewSeed(t *testing.T) {
	s, err := NewSeed(bytes.NewReader(testSecret().Bytes))
	if err != nil || s.Generator != GeneratorChaCha8 || !bytes.Equal(s.Bytes, testSecret().Bytes) {
		t.Errorf("NewSeed = %v, %v", s, err)
	}
	if _, err := NewSeed(bytes.NewReader(make([]byte, 31))); err == nil {
		t.Error("NewSeed from 31 bytes of randomness succeeded")
	}
	for _, bad := range []Seed{{}, {Generator: GeneratorChaCha8, Bytes: make([]byte, 8)}, {Generator: GeneratorPCG, Bytes: make([]byte, 32)}} {
		if bad.Valid() == nil {
			t.Errorf("%+v is valid", bad)
		}
	}
}

func ExampleSeed_ForAction() {
	secret := make([]byte, 32) // a server reads 32 bytes from crypto/rand
	seed := Seed{Generator: GeneratorChaCha8, Bytes: secret}
	d := seed.ForAction(0)
	fmt.Println(d.Roll(6, "to-hit"), d.Roll(6, "to-hit"), d.Roll(10, "fraction"))
	// Same seed, same action: the same dice, on every machine.
	again := seed.ForAction(0)
	fmt.Println(again.Roll(6, "to-hit"), again.Roll(6, "to-hit"), again.Roll(10, "fraction"))
	// Output:
	// 2 2 3
	// 2 2 3
}

func FuzzParseSeed(f *testing.F) {
	f.Add("pcg", "12345")
	f.Add("chacha8", strings.Repeat("ab", 32))
	f.Add("chacha8", "zz")
	f.Fuzz(func(t *testing.T, g, text string) {
		s, err := ParseSeed(Generator(g), text)
		if err != nil {
			return
		}
		if s.String() != text || s.Valid() != nil {
			t.Errorf("ParseSeed(%q, %q) = %v; writes back as %q", g, text, s, s.String())
		}
		s.ForAction(0).Roll(6, "fuzz")
	})
}

// BenchmarkRollD6 is the cost of one unrecorded d6 from each generator, for
// docs/benchmarks.md.
func BenchmarkRollD6(b *testing.B) {
	b.Run("pcg", func(b *testing.B) {
		s := NewUnrecorded(1)
		for b.Loop() {
			s.Roll(6, "")
		}
	})
	b.Run("chacha8", func(b *testing.B) {
		s := testSecret().ForAction(0)
		s.record = false
		for b.Loop() {
			s.Roll(6, "")
		}
	})
}
