package dice

import "fmt"

// A battle's dice may be rolled by hand at the table rather than drawn from a seed: the
// players give each die's face, and volley resolves the action with them. Given makes the
// stream of such faces; a die is then a value, not a word, and volley's mapping from
// words to dice is not used.

// hand is the faces a stream of Given gives, and how they met the dice asked.
type hand struct {
	faces []int
	by    string
	used  int // dice asked so far
	// need is the first die asked for beyond the faces given; wrong the first face that
	// is not a face of the die it was given for.
	need  *Wanted
	wrong *WrongFace
}

// Wanted is a die volley asks for: its place among the action's dice (from 0), its sides,
// and what it decides, in the rule system's words.
type Wanted struct {
	Index   int    `json:"index"`
	Sides   int    `json:"sides"`
	Purpose string `json:"purpose"`
}

// String names the die for a player: "d6 for to-hit: sabre-1, shot 1".
func (d Wanted) String() string {
	if d.Purpose == "" {
		return fmt.Sprintf("d%d", d.Sides)
	}
	return fmt.Sprintf("d%d for %s", d.Sides, d.Purpose)
}

// NeedDie is the error of faces that ran out before the action's dice did: Die is the
// next one volley needs. Nothing was decided: the action is to be sent again with that
// die's face added.
type NeedDie struct {
	Die Wanted
}

func (e *NeedDie) Error() string {
	return fmt.Sprintf("dice: roll die %d, a %s", e.Die.Index+1, e.Die)
}

// WrongFace is the error of a face given that is not a face of its die: a 7 for a d6.
type WrongFace struct {
	Die  Wanted
	Face int
}

func (e *WrongFace) Error() string {
	return fmt.Sprintf("dice[%d]: %d is not a face of die %d, a %s (1 to %d)", e.Die.Index, e.Face, e.Die.Index+1, e.Die, e.Die.Sides)
}

// ExtraDice is the error of faces given beyond the dice the action rolls: Given were
// given and only Used were asked for. The first extra face was rolled out of turn.
type ExtraDice struct {
	Used, Given int
}

func (e *ExtraDice) Error() string {
	if e.Used == 0 {
		return fmt.Sprintf("dice[0]: a roll out of turn: this action rolls no die, and %d %s given", e.Given, plural(e.Given, "was", "were"))
	}
	return fmt.Sprintf("dice[%d]: a roll out of turn: this action rolls %d %s, and %d were given", e.Used, e.Used, plural(e.Used, "die", "dice"), e.Given)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Given returns a recording stream whose dice are faces, in order, rolled by hand by
// side by (recorded on each Roll). Each die volley asks for takes the next face; it is
// the player's roll, so nothing maps it from a word. A face that is not a face of its die
// (a 7 for a d6), or a die asked for after the last face, makes the computation go on
// with the die's first face, so that it ends as any other would; Check then says what
// was wrong, and the computation's result must be thrown away. Its raw words (Uint64)
// are not dice: asking for one panics.
func Given(faces []int, by string) *Stream {
	return &Stream{record: true, hand: &hand{faces: faces, by: by}}
}

// face is the 0-based face of the next die of sides sides, from the faces given.
func (h *hand) face(sides int, purpose string) int {
	k := h.used
	h.used++
	die := Wanted{Index: k, Sides: sides, Purpose: purpose}
	if k >= len(h.faces) {
		if h.need == nil {
			h.need = &die
		}
		return 0
	}
	v := h.faces[k]
	if v < 1 || v > sides {
		if h.wrong == nil {
			h.wrong = &WrongFace{Die: die, Face: v}
		}
		return 0
	}
	return v - 1
}

// Check says, for a stream of Given faces once the computation has thrown its dice,
// whether the faces were exactly the dice it asked for: the first face that is not a face
// of its die (*WrongFace), else the first die asked for beyond the faces (*NeedDie), else
// the faces given beyond those asked for (*ExtraDice); nil when they were. A stream of
// any other kind has nothing to check.
func (s *Stream) Check() error {
	h := s.hand
	switch {
	case h == nil:
		return nil
	case h.wrong != nil:
		return h.wrong
	case h.need != nil:
		return h.need.needed()
	case h.used < len(h.faces):
		return &ExtraDice{Used: h.used, Given: len(h.faces)}
	}
	return nil
}

func (d *Wanted) needed() error { return &NeedDie{Die: *d} }

// Hand reports whether the stream's dice are faces given by hand (Given).
func (s *Stream) Hand() bool { return s.hand != nil }
