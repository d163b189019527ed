package opponent

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Level is how well a policy plays.
type Level string

// The levels, weakest first.
const (
	// Random takes, each time, one of the actions it may take, uniformly: a baseline.
	Random Level = "random"
	// Greedy moves each unit, in the order the scenario lists them, towards the nearest
	// enemy until it has a shot, then fires its single best shot: a baseline.
	Greedy Level = "greedy"
	// Teaching plays like a reasonable person who does not count everything: it weighs
	// what Strong weighs, with exact odds, but makes the plausible mistakes of a player
	// at the table, each deterministic from the battle (its random ones drawn from the
	// battle's own stream):
	//   - it takes its units one at a time in the order the scenario lists them (the
	//     first with something worth doing acts), not the one with most to gain first;
	//   - it looks at fewer places: the two best of each unit's map (Strong four);
	//   - it moves at most half the way it could (a cautious step);
	//   - it counts half the danger its style weighs, and steps towards the enemy for
	//     nothing (Strong does not), however short its step, when nothing is in range;
	//   - it thinks of the objectives late: a unit heads for one only from the round in
	//     which, at its half step, it must set off to be within it by the end (a unit of
	//     several models only in the last round), and it does not weigh whether it lives
	//     there to hold it;
	//   - among its three best choices it takes the third 25% of the time and the
	//     second 35% of the time;
	//   - a third of the time it fires at the nearest target it may fire at rather than
	//     at the best.
	// Its slips are actions it takes, never actions it leaves: it does not end a phase
	// while something is still worth doing; and its reasons say them ("its second
	// choice", "at the nearest target, not the best"). It beats Greedy and loses to
	// Strong (docs/opponent.md).
	Teaching Level = "teaching"
	// Strong plans the side's turn with every exact measure volley has.
	Strong Level = "strong"
)

// Levels lists the levels, weakest first.
var Levels = []Level{Random, Greedy, Teaching, Strong}

// Policy is how a side is played: a level and, for the levels that weigh danger, a
// style.
type Policy struct {
	Level Level
	// Style runs from 0 (cautious: the danger of a place counts twice what could be
	// destroyed from it) to 1 (bold: danger does not count). DefaultStyle is between.
	Style float64
}

// DefaultStyle is the style of a policy that names none: danger counts as much as
// offence.
const DefaultStyle = 0.5

// dangerWeight is how much the chance of losing a unit counts, in its points, against
// the points it could destroy: 2 for the most cautious style, 0 for the boldest.
func (p Policy) dangerWeight() float64 { return 2 * (1 - p.Style) }

// The styles by name, as the CLI and the API take them.
var styles = map[string]float64{"cautious": 0, "careful": 0.25, "balanced": 0.5, "bold": 0.75, "reckless": 1}

// Styles names the styles from the most cautious to the boldest.
func Styles() []string { return []string{"cautious", "careful", "balanced", "bold", "reckless"} }

// ParsePolicy reads a policy as the CLI and the API write it: a level, optionally followed
// by ":" and a style by name (cautious, careful, balanced, bold, reckless) or as a number
// from 0 to 1: "strong", "teaching:bold", "strong:0.8".
func ParsePolicy(s string) (Policy, error) {
	level, style, hasStyle := strings.Cut(strings.TrimSpace(s), ":")
	p := Policy{Level: Level(level), Style: DefaultStyle}
	known := false
	for _, l := range Levels {
		known = known || l == p.Level
	}
	if !known {
		return Policy{}, fmt.Errorf("opponent: unknown level %q: want random, greedy, teaching or strong", level)
	}
	if hasStyle {
		if v, ok := styles[style]; ok {
			p.Style = v
		} else if v, err := strconv.ParseFloat(style, 64); err == nil && v >= 0 && v <= 1 {
			p.Style = v
		} else {
			return Policy{}, fmt.Errorf("opponent: style %q: want cautious, careful, balanced, bold, reckless or a number from 0 to 1", style)
		}
	}
	return p, nil
}

// String writes the policy as ParsePolicy reads it.
func (p Policy) String() string {
	if p.Level == Random || p.Level == Greedy || p.Style == DefaultStyle {
		return string(p.Level)
	}
	for name, v := range styles {
		if v == p.Style {
			return string(p.Level) + ":" + name
		}
	}
	return string(p.Level) + ":" + strconv.FormatFloat(p.Style, 'f', -1, 64)
}

// Decision is an action a policy takes, and why.
type Decision struct {
	Action map[string]any
	// Why says in words why this action: where the unit goes and what it expects there,
	// what the fire is likely to destroy, of how many choices weighed.
	Why string
	// Weighed counts the choices weighed for it: points of position maps, fire plans,
	// answers.
	Weighed int
}

// Body is the action as it is sent and logged: its reasons as a comment line, then the
// action as JSON (a YAML document, which every decoder reads, and which keeps the
// reasons in the log beside the action).
func (d *Decision) Body() string {
	raw, _ := json.Marshal(d.Action)
	why := strings.ReplaceAll(d.Why, "\n", " ")
	return "# volley: " + why + "\n" + string(raw) + "\n"
}

// Reason reads back the reasons a body written by Body carries, "" for another body.
func Reason(body string) string {
	line, _, _ := strings.Cut(body, "\n")
	if r, ok := strings.CutPrefix(line, "# volley: "); ok {
		return r
	}
	return ""
}
