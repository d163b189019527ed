package opponent

import (
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/scenario"
)

// Seat is the side volley plays in a served battle and its policy, as a scenario's
// `opponent:` section gives them (scenario.OpponentSpec).
type Seat struct {
	Side   string `json:"side"`
	Level  Level  `json:"level"`
	Style  string `json:"style"`
	Policy Policy `json:"-"`
}

// DefaultLevel is the level of an opponent whose section names none: one that plays
// like a reasonable person, and can be beaten.
const DefaultLevel = Teaching

// ReadSeat reads the `opponent:` section of a document whose battle has loaded (b): nil
// when it has none. The side must be one of the battle's, and not its only one (somebody
// plays the other); every problem is reported at its place.
func ReadSeat(doc *scenario.Doc, b volley.Battle) (*Seat, error) {
	sec := doc.Section("opponent")
	if sec == nil {
		return nil, nil
	}
	var spec scenario.OpponentSpec
	if err := sec.Decode(&spec); err != nil {
		return nil, err
	}
	seat, errs := checkSeat(sec, &spec, b)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return seat, nil
}

// SeatProblems reports what is wrong in the opponent section of a document whose battle
// did not load, as far as it can be told without the battle: a level or a style volley
// does not know. Whether the side is one of the battle's waits until it loads, and errors
// of decoding are the rule system's loader's to report; so a scenario author sees every
// mistake of a file at once.
func SeatProblems(doc *scenario.Doc) scenario.ErrorList {
	sec, spec := scenario.DecodeAnyway[scenario.OpponentSpec](doc, "opponent")
	if sec == nil {
		return nil
	}
	_, errs := checkSeat(sec, spec, nil)
	return errs
}

// checkSeat is ReadSeat's check of a decoded section; with b nil, it checks only what
// needs no battle.
func checkSeat(sec *scenario.Doc, spec *scenario.OpponentSpec, b volley.Battle) (*Seat, scenario.ErrorList) {
	var errs scenario.ErrorList
	if b != nil {
		var sides []string
		for _, u := range b.State().Units {
			if !slices.Contains(sides, u.Side) {
				sides = append(sides, u.Side)
			}
		}
		if !slices.Contains(sides, spec.Side) {
			errs.Add(sec.At(&spec.Side), "opponent: side: no side %q%s", spec.Side, scenario.Hint(spec.Side, sides))
		} else if len(sides) < 2 {
			errs.Add(sec.At(&spec.Side), "opponent: side: %q is the battle's only side, so nobody would play against it", spec.Side)
		}
	}
	level := spec.Level
	if level == "" {
		level = string(DefaultLevel)
	}
	text := level
	if spec.Style != "" {
		text += ":" + spec.Style
	}
	p, err := ParsePolicy(text)
	if err != nil {
		at := sec.At(&spec.Level)
		if _, lerr := ParsePolicy(level); lerr == nil {
			at = sec.At(&spec.Style)
		}
		errs.Add(at, "%v", err)
	}
	return &Seat{Side: spec.Side, Level: p.Level, Style: spec.Style, Policy: p}, errs
}
