package dice

import "fmt"

// Ways enumerates every way the dice of one computation can fall, so that its outcomes
// are counted exactly rather than sampled: each way is a sequence of faces, one for each
// die the computation throws, and its probability is the product of 1/sides over them.
//
// The computation is run once per way with the Stream of that way. Its k-th die falls on
// the face the way chooses for it; a die beyond those chosen falls on its first face and
// becomes a new place to branch. Next then moves to the next way in the order of an
// odometer, the last die thrown turning first. Because a computation throws the same dice
// given the same faces so far (it is deterministic, rule 4), the ways found this way are
// every path of its tree of dice, each once, and their probabilities sum to 1, however
// the number and kind of later dice depend on earlier faces.
//
//	w := dice.NewWays()
//	for {
//		run(w.Stream())     // the computation, drawing from this way
//		use(w.P())
//		if !w.Next() {
//			break
//		}
//	}
//
// The number of ways is the product of the sides of the dice along each path, summed
// over the paths: the caller bounds it (Count says how many have been run).
type Ways struct {
	faces  []int // 0-based face of each die of the current way
	sides  []int // sides of each die of the current way
	thrown int   // dice thrown by the current way's run so far
	count  int64 // ways run so far, the current one included
	err    error // the first inconsistency seen: a run that asked a different die
	// pick, for a probe (Probe), chooses each die's face at random instead.
	pick *Stream
}

// NewWays starts an enumeration at its first way: every die on its first face.
func NewWays() *Ways { return &Ways{count: 1} }

// Probe returns ways that are not enumerated but drawn: each run of the computation
// (each Stream) follows one path of its tree of dice, every die falling at random from
// pick's dice. 1/P of a run is then an unbiased estimate of how many ways there are
// (Knuth's estimator for the size of a search tree: the product of the branchings along
// a random path), so that a caller can price an enumeration before doing it.
func Probe(pick *Stream) *Ways { return &Ways{pick: pick, count: 1} }

// Stream is the stream of the current way, for one run of the computation. It records
// nothing. Its raw words (Uint64) are not dice and cannot be enumerated: asking for one
// panics, since a computation that uses them has no tree of dice to count.
func (w *Ways) Stream() *Stream {
	w.thrown = 0
	if w.pick != nil {
		w.faces, w.sides = w.faces[:0], w.sides[:0]
	}
	return &Stream{ways: w}
}

// face is the 0-based face of the next die of sides sides thrown by the current way.
func (w *Ways) face(sides int) int {
	k := w.thrown
	w.thrown++
	if k < len(w.faces) {
		if w.sides[k] != sides && w.err == nil {
			// The same faces so far gave a different die: the computation is not
			// deterministic, and its ways cannot be counted.
			w.err = fmt.Errorf("dice: die %d of a way had %d sides and then %d: the computation does not throw the same dice for the same faces", k+1, w.sides[k], sides)
		}
		return w.faces[k] % sides
	}
	f := 0
	if w.pick != nil {
		f = w.pick.IntN(sides)
	}
	w.faces = append(w.faces, f)
	w.sides = append(w.sides, sides)
	return f
}

// P is the probability of the current way: 1 over the product of the sides of the dice
// its run threw.
func (w *Ways) P() float64 {
	p := 1.0
	for _, s := range w.sides[:w.thrown] {
		p /= float64(s)
	}
	return p
}

// Faces are the faces (1 to sides) of the dice the current way's run threw, in order.
func (w *Ways) Faces() []int {
	out := make([]int, w.thrown)
	for i := range out {
		out[i] = w.faces[i] + 1
	}
	return out
}

// Next moves to the next way and reports whether there is one. The faces of the dice
// the last run did not throw are forgotten.
func (w *Ways) Next() bool {
	if w.pick != nil {
		return false
	}
	w.faces, w.sides = w.faces[:w.thrown], w.sides[:w.thrown]
	for k := len(w.faces) - 1; k >= 0; k-- {
		if w.faces[k]+1 < w.sides[k] {
			w.faces[k]++
			w.faces, w.sides = w.faces[:k+1], w.sides[:k+1]
			w.thrown = 0
			w.count++
			return true
		}
	}
	return false
}

// Count is how many ways have been taken, the current one included.
func (w *Ways) Count() int64 { return w.count }

// Err is the first inconsistency seen: a run that threw a die of other sides than an
// earlier run with the same faces before it. The ways are not a true count then.
func (w *Ways) Err() error { return w.err }
