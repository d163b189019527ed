package dice

import (
	"math/bits"
	"math/rand/v2"
)

// Roll is one die thrown and recorded.
type Roll struct {
	Purpose string `json:"purpose"` // what the die decided, e.g. "to-hit, Avenger Railgun, shot 1"
	Sides   int    `json:"sides"`
	Value   int    `json:"value"` // 1..Sides
	// By is the side that rolled the die by hand and gave its face (Given); empty for a
	// die volley drew from a seed.
	By string `json:"by,omitempty"`
}

// Stream is a deterministic source of dice throws: 64-bit words from a
// generator seeded explicitly (a PCG from math/rand/v2, or ChaCha8 for a
// battle's secret seed, see Seed), plus volley's own mapping from words to die
// faces, so a seed gives the same throws on every Go version. A recording
// Stream keeps every Roll in order, which is what lets a battle report say why
// each shot hit or missed.
//
// The zero Stream is usable: it does not record and draws from PCG's zero
// state. Use New, ForAction, NewUnrecorded or Seed.ForAction to choose the
// seed. A Stream is not safe for concurrent use.
type Stream struct {
	// src is held by value rather than as *rand.PCG so that a Stream costs
	// one allocation, which matters when Monte Carlo makes one per trial.
	src rand.PCG
	// cc, when not nil, is the ChaCha8 generator the words come from instead.
	cc *rand.ChaCha8
	// ways, when not nil, chooses every die's face instead (Ways.Stream): there are
	// no words then.
	ways *Ways
	// hand, when not nil, gives the faces rolled by hand instead (Given).
	hand   *hand
	record bool
	rolls  []Roll
}

// word returns the next 64-bit word of the stream's generator.
func (s *Stream) word() uint64 {
	if s.ways != nil || s.hand != nil {
		panic("dice: a stream of chosen faces (Ways, Given) has no raw words")
	}
	if s.cc != nil {
		return s.cc.Uint64()
	}
	return s.src.Uint64()
}

// New returns a recording Stream for seed.
func New(seed uint64) *Stream {
	s := NewUnrecorded(seed)
	s.record = true
	return s
}

// NewUnrecorded returns a Stream that gives exactly the values New(seed)
// gives but records nothing, so that throwing a die allocates nothing. It is
// meant for Monte Carlo runs, where nobody reads the record.
func NewUnrecorded(seed uint64) *Stream {
	// PCG wants two seed words; spreading one seed over both with SplitMix64
	// keeps small seeds (0, 1, 2, ...) from starting in similar states.
	sm := splitMix64{state: seed}
	hi := sm.next()
	lo := sm.next()
	return &Stream{src: *rand.NewPCG(hi, lo)}
}

// ForAction returns the recording Stream for action n of a battle played
// with seed. Each action has its own stream, so one action can be replayed
// on its own without replaying everything before it, and inserting or
// removing an action does not shift the dice of the others. Streams for
// different n, or for different seeds, are unrelated. Any n is accepted,
// negative ones included.
func ForAction(seed uint64, n int) *Stream {
	return New(actionSeed(seed, n))
}

// ForActionUnrecorded returns the Stream ForAction(seed, n) would, but not
// recording, for Monte Carlo runs that give each batch of trials its own
// reproducible stream.
func ForActionUnrecorded(seed uint64, n int) *Stream {
	return NewUnrecorded(actionSeed(seed, n))
}

// actionSalt keeps the mixing of action numbers apart from the mixing of
// seeds, so that actionSeed is not symmetric in its two arguments. It is the
// fractional part of the square root of 3, an arbitrary odd constant.
const actionSalt = 0xbb67ae8584caa73b

// actionSeed derives the seed of action n from the battle seed. Each input
// goes through the SplitMix64 finaliser, a bijection, before they are
// combined, so for one battle seed different actions always get different
// seeds, and neighbouring seeds or actions differ in about half their bits.
func actionSeed(seed uint64, n int) uint64 {
	return mix64(seed) ^ mix64(uint64(n)+actionSalt)
}

// splitMixGamma is SplitMix64's increment: the odd integer nearest to
// 2^64 divided by the golden ratio.
const splitMixGamma = 0x9e3779b97f4a7c15

// splitMix64 is Steele, Lea and Flood's SplitMix64 generator, used only to
// turn seeds into PCG seed words.
type splitMix64 struct{ state uint64 }

func (s *splitMix64) next() uint64 {
	s.state += splitMixGamma
	return mix64(s.state)
}

// mix64 is the SplitMix64 finaliser: a bijection on uint64 with good
// avalanche, so nearby inputs give unrelated outputs.
func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Uint64 returns the next raw 64-bit word of the stream.
func (s *Stream) Uint64() uint64 {
	return s.word()
}

// IntN returns a uniform integer in [0, n) without bias. It panics if
// n <= 0.
//
// The mapping is Lemire's multiply-shift with rejection, written here rather
// than taken from math/rand/v2, so the values a seed gives can never change
// with the Go version: only the generator's words are used.
func (s *Stream) IntN(n int) int {
	if n <= 0 {
		panic("dice: IntN: n must be positive")
	}
	if s.ways != nil {
		return s.ways.face(n)
	}
	if s.hand != nil {
		return s.hand.face(n, "")
	}
	bound := uint64(n)
	hi, lo := bits.Mul64(s.word(), bound)
	// The high word of word*bound is uniform in [0, bound) except that the
	// first 2^64 mod bound low words would favour some values; those words
	// are thrown away. The threshold costs a division, so it is only worked
	// out in the rare case that the low word could be under it.
	if lo < bound {
		threshold := -bound % bound // 2^64 mod bound
		for lo < threshold {
			hi, lo = bits.Mul64(s.word(), bound)
		}
	}
	return int(hi)
}

// Roll throws one die with the given number of sides and returns its face,
// 1..sides. A recording Stream keeps it as a Roll with purpose. It panics if
// sides <= 0.
func (s *Stream) Roll(sides int, purpose string) int {
	if s.hand != nil {
		if sides <= 0 {
			panic("dice: IntN: n must be positive")
		}
		v := s.hand.face(sides, purpose) + 1
		s.rolls = append(s.rolls, Roll{Purpose: purpose, Sides: sides, Value: v, By: s.hand.by})
		return v
	}
	v := s.IntN(sides) + 1
	if s.record {
		s.rolls = append(s.rolls, Roll{Purpose: purpose, Sides: sides, Value: v})
	}
	return v
}

// Recording reports whether s keeps its rolls. Callers check it to skip
// building purpose strings that nobody will read.
func (s *Stream) Recording() bool {
	return s.record
}

// Rolls returns a copy of every roll recorded so far, in the order thrown.
func (s *Stream) Rolls() []Roll {
	out := make([]Roll, len(s.rolls))
	copy(out, s.rolls)
	return out
}

// Len returns the number of rolls recorded so far.
func (s *Stream) Len() int {
	return len(s.rolls)
}
