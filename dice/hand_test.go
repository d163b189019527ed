package dice

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// throw rolls a d6 to hit and, on a 4+, a d6 for damage, as a rule system would.
func throw(s *Stream) []Roll {
	if s.Roll(6, "to hit, needs 4+") >= 4 {
		s.Roll(6, "damage")
	}
	return s.Rolls()
}

func TestGiven(t *testing.T) {
	for _, tc := range []struct {
		faces []int
		rolls []int
		check string // a word of Check's error, "" for none
	}{
		{[]int{5, 2}, []int{5, 2}, ""},
		{[]int{3}, []int{3}, ""},                               // a miss rolls no damage
		{[]int{4}, []int{4, 1}, "roll die 2, a d6 for damage"}, // the next die asked for
		{nil, []int{1}, "roll die 1, a d6 for to hit, needs 4+"},
		{[]int{7, 2}, []int{1}, "dice[0]: 7 is not a face of die 1, a d6 for to hit, needs 4+ (1 to 6)"},
		{[]int{0}, []int{1}, "0 is not a face"},
		{[]int{2, 6}, []int{2}, "dice[1]: a roll out of turn: this action rolls 1 die, and 2 were given"},
		{[]int{5, 9, 1}, []int{5, 1}, "9 is not a face of die 2"}, // a wrong face before a surplus
	} {
		s := Given(tc.faces, "Blue")
		rolls := throw(s)
		var got []int
		for _, r := range rolls {
			got = append(got, r.Value)
			if r.By != "Blue" || r.Sides != 6 {
				t.Errorf("%v: roll %+v is not Blue's d6", tc.faces, r)
			}
		}
		if !slices.Equal(got, tc.rolls) {
			t.Errorf("%v: rolled %v, want %v", tc.faces, got, tc.rolls)
		}
		err := s.Check()
		switch {
		case tc.check == "" && err != nil:
			t.Errorf("%v: %v", tc.faces, err)
		case tc.check != "" && (err == nil || !strings.Contains(err.Error(), tc.check)):
			t.Errorf("%v: Check %v, want %q", tc.faces, err, tc.check)
		}
	}
	var need *NeedDie
	if err := throw2(Given([]int{6}, "Red")); !errors.As(err, &need) || need.Die != (Wanted{Index: 1, Sides: 6, Purpose: "damage"}) {
		t.Errorf("the die needed: %v", err)
	}
	if (&ExtraDice{Used: 0, Given: 1}).Error() != "dice[0]: a roll out of turn: this action rolls no die, and 1 was given" {
		t.Error((&ExtraDice{Used: 0, Given: 1}).Error())
	}
	if New(1).Check() != nil || New(1).Hand() || !Given(nil, "").Hand() {
		t.Error("a seeded stream has nothing to check")
	}
}

func throw2(s *Stream) error {
	throw(s)
	return s.Check()
}

func TestGivenHasNoWords(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Uint64 of faces given did not panic")
		}
	}()
	Given([]int{1}, "").Uint64()
}

// FuzzGiven: whatever the faces, a stream of them gives each die a face of it, records
// every roll, and Check says exactly whether the faces were the dice asked for.
func FuzzGiven(f *testing.F) {
	f.Add([]byte{5, 2}, []byte{6, 6})
	f.Add([]byte{9}, []byte{6})
	f.Add([]byte{}, []byte{100, 10})
	f.Fuzz(func(t *testing.T, faces, sides []byte) {
		given := make([]int, len(faces))
		for i, v := range faces {
			given[i] = int(v) - 8
		}
		s := Given(given, "x")
		for _, n := range sides {
			n := int(n%120) + 1
			if v := s.Roll(n, "die"); v < 1 || v > n {
				t.Fatalf("face %d of a d%d", v, n)
			}
		}
		exact := len(given) == len(sides)
		for i := range min(len(given), len(sides)) {
			if n := int(sides[i]%120) + 1; given[i] < 1 || given[i] > n {
				exact = false
			}
		}
		if err := s.Check(); (err == nil) != exact {
			t.Fatalf("faces %v for dice %v: Check %v", given, sides, err)
		}
		if len(s.Rolls()) != len(sides) {
			t.Fatal("a roll is not recorded")
		}
	})
}
