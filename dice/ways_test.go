package dice

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"
)

// attack is a small computation whose dice depend on its faces: a d6 to hit, and only on
// a 5 or 6 a d4 of damage, doubled on a 6 by a second d4. Its ways, by hand: faces 1–4
// miss (4 ways of 1/6); a 5 throws one d4 (4 ways of 1/24); a 6 throws two (16 ways of
// 1/96): 24 ways in all.
func attack(s *Stream) int {
	switch s.Roll(6, "to hit") {
	case 5:
		return s.Roll(4, "damage")
	case 6:
		return s.Roll(4, "damage") + s.Roll(4, "more damage")
	}
	return 0
}

func TestWaysEnumerateEveryPathOnce(t *testing.T) {
	w := NewWays()
	seen := map[string]bool{}
	damage := map[int]float64{}
	total := 0.0
	for {
		d := attack(w.Stream())
		key := fmt.Sprint(w.Faces())
		if seen[key] {
			t.Fatalf("way %s taken twice", key)
		}
		seen[key] = true
		damage[d] += w.P()
		total += w.P()
		if !w.Next() {
			break
		}
	}
	if len(seen) != 24 || w.Count() != 24 {
		t.Errorf("%d ways (Count %d); want 24 by hand", len(seen), w.Count())
	}
	if math.Abs(total-1) > 1e-15 {
		t.Errorf("the ways' chances sum to %v", total)
	}
	// By hand: damage 0 on faces 1–4 (4/6); 1–4 each 1/24 from a 5; from a 6 the sum
	// of two d4, 2..8, with (4−|s−5|)/16 of the 1/6.
	want := map[int]float64{0: 4.0 / 6}
	for k := 1; k <= 4; k++ {
		want[k] += 1.0 / 24
	}
	for s := 2; s <= 8; s++ {
		want[s] += float64(4-abs(s-5)) / 16 / 6
	}
	for k, p := range want {
		if math.Abs(damage[k]-p) > 1e-15 {
			t.Errorf("P(damage %d) = %v; want %v", k, damage[k], p)
		}
	}
	if !seen["[1]"] || !seen["[6 4 4]"] || seen["[1 1]"] {
		t.Errorf("ways %v; want [1] and [6 4 4], and no die after a miss", slices.Sorted(maps.Keys(seen)))
	}
	if err := w.Err(); err != nil {
		t.Error(err)
	}
}

func TestWaysNoDice(t *testing.T) {
	w := NewWays()
	_ = w.Stream()
	if w.P() != 1 || w.Next() || w.Count() != 1 {
		t.Errorf("a computation without dice: P %v, Count %d; want one way of chance 1", w.P(), w.Count())
	}
}

// TestWaysSeeUnsteadyComputation: a computation that throws other dice for the same
// faces cannot have its ways counted, and Err says so.
func TestWaysSeeUnsteadyComputation(t *testing.T) {
	w := NewWays()
	runs := 0
	for {
		s := w.Stream()
		s.Roll(2, "first")
		s.Roll(3+runs%2, "second") // its sides change from run to run
		runs++
		if !w.Next() || runs > 10 {
			break
		}
	}
	if err := w.Err(); err == nil || !strings.Contains(err.Error(), "does not throw the same dice") {
		t.Errorf("Err = %v; want the unsteady die named", err)
	}
}

// TestProbeEstimatesTheWays: Knuth's estimate, the mean of 1/P over random paths, is the
// exact count for a tree whose every path throws the same dice, and near it for one whose
// paths differ.
func TestProbeEstimatesTheWays(t *testing.T) {
	w := Probe(New(1))
	for range 5 {
		s := w.Stream()
		for range 3 {
			s.Roll(6, "")
		}
		if got := 1 / w.P(); got != 216 {
			t.Errorf("estimate %v for three d6; want 216", got)
		}
		if w.Next() {
			t.Error("a probe has a next way")
		}
	}
	w = Probe(New(2))
	sum := 0.0
	const n = 20000
	for range n {
		attack(w.Stream())
		sum += 1 / w.P()
	}
	if est := sum / n; math.Abs(est-24) > 1 {
		t.Errorf("estimated %v ways of attack; want about 24", est)
	}
}

func TestWaysStreamHasNoWords(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Uint64 on a stream of chosen faces did not panic")
		}
	}()
	NewWays().Stream().Uint64()
}
