package warfare

import (
	"fmt"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
)

// Tell tells what an action did, a line for each thing a player follows (volley.Teller):
// a move or a deployment, each target's fire from its range to its casualties (the
// missile factor line by line in the alternate system, the stands' dice in the existing
// one), the figures each target lost, a unit destroyed, the firer's ammunition, the end
// of a turn. It reads the outcome alone, as the log stores it.
func (Ruleset) Tell(out volley.Outcome) []string {
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	firer := firerOf(out)
	// The alternate system's factor, built up target by target; its random factor is
	// shared by every target of the fire.
	var random string
	var firerRoll float64
	var line *firing
	flush := func() {
		if line != nil {
			lines = append(lines, line.String())
			line = nil
		}
	}
	for _, s := range out.Trace {
		switch s.Rule {
		case "move":
			lines = append(lines, rules.TellMove(s, "this turn"))
		case "deploy":
			lines = append(lines, rules.TellDeploy(s))
		case "measure range":
			d, _ := s.Number("distance")
			band := s.Sentence()
			if i := strings.LastIndex(band, ": "); i >= 0 {
				band = band[i+2:]
			}
			add("%s is %s from %s: %s", s.Text("target"), rules.UnitOf(s.Sentence()).Format(d), s.Text("unit"), band)
		case "base missile factor":
			flush()
			line = &firing{firer: firer, target: s.Text("target"), band: s.Text("range")}
			line.terms = append(line.terms, fmt.Sprintf("%s for %s range", s.Sentence(), s.Text("range")))
			if random != "" {
				line.terms = append(line.terms, random)
			}
		case "random factor: firer":
			firerRoll, _ = s.Number("roll")
		case "random factor: target":
			targetRoll, _ := s.Number("roll")
			rf := halfUp(int(firerRoll)) - halfUp(int(targetRoll))
			random = fmt.Sprintf("%+d random (the firer rolled %s, the target %s, each halved, rounded up)", rf, volley.FormatNumber(firerRoll), volley.FormatNumber(targetRoll))
			if line != nil {
				line.terms = append(line.terms, random)
			}
		case "modifier":
			if line != nil {
				line.terms = append(line.terms, fmt.Sprintf("%s %s", s.Sentence(), s.Text("modifier")))
			}
		case "modified missile factor":
			if line != nil {
				line.factor = s.Result
			}
		case "final missile factor":
			if line != nil {
				line.stands, line.final = s.Text("stands"), s.Result
			}
		case "casualties":
			if line == nil {
				continue
			}
			if _, ok := s.Number("tenths"); !ok {
				line.outcome = "nothing: a factor of zero or less"
				continue
			}
			line.outcome = fmt.Sprintf("the d10 rolled %s against %s tenths: %s", s.Text("roll"), s.Text("tenths"), casualties(s.Sentence()))
		case "casualty limit":
			if line != nil {
				line.outcome += fmt.Sprintf(", held to %s: no more than the stands firing, nor the figures left", rules.ValueText(s.Result))
			}
		case "to hit":
			flush()
			line = &firing{firer: s.Text("unit"), target: s.Text("target"), band: s.Text("range")}
			line.existing = s.Sentence()
			if m := s.Text("modifiers"); m != "" {
				line.existing += " (" + m + ")"
			}
		case "hits":
			if line != nil {
				line.outcome = fmt.Sprintf("rolled %s: %s", strings.ReplaceAll(s.Text("rolls"), " ", ", "), s.Sentence())
			}
		case "low on missiles":
			flush()
			if tens, ok := s.Number("natural tens"); ok && tens > 0 {
				add("%s natural 10%s among the stands' dice", volley.FormatNumber(tens), plural(tens))
			}
		case "ammunition":
			flush()
			add("%s %s", s.Text("unit"), ammoWords(s.Sentence()))
		default:
			flush()
			if l := volley.TellStep(s); l != "" {
				lines = append(lines, l)
			}
		}
	}
	flush()
	// What each target lost, told after the fire that did it.
	var losses []string
	for _, t := range out.Targets {
		n := t.Measures[MeasureCasualties]
		left := t.Measures["figures_left"]
		switch {
		case t.Destroyed:
			losses = append(losses, fmt.Sprintf("%s loses its last %s: destroyed", t.Target, figures(n)))
		case n == 0:
			losses = append(losses, fmt.Sprintf("%s loses no figure: %s left", t.Target, volley.FormatNumber(left)))
		default:
			losses = append(losses, fmt.Sprintf("%s loses %s: %s left", t.Target, figures(n), volley.FormatNumber(left)))
		}
	}
	// The ammunition's step closes the fire's lines; the losses go before it.
	at := len(lines)
	for at > 0 && (strings.Contains(lines[at-1], "on Missiles") || strings.Contains(lines[at-1], "ends its turn")) {
		at--
	}
	return append(lines[:at], append(losses, lines[at:]...)...)
}

// firing is one target's fire in words.
type firing struct {
	firer, target, band string
	// terms build the alternate system's missile factor; factor, stands and final are
	// the modified factor, the stands firing and the final factor.
	terms         []string
	factor, final any
	stands        string
	// existing is the existing system's need; outcome what the dice did.
	existing, outcome string
}

func (f *firing) String() string {
	head := fmt.Sprintf("%s → %s at %s range: ", f.firer, f.target, f.band)
	if f.existing != "" {
		return head + f.existing + "; " + f.outcome
	}
	return head + fmt.Sprintf("missile factor %s = %s, × %s stands = %s; %s",
		strings.Join(f.terms, ", "), rules.ValueText(f.factor), f.stands, rules.ValueText(f.final), f.outcome)
}

// firerOf finds the unit that fired, from the dice it rolled ("fraction and
// ammunition: longbowmen at knights"); "" when no die names it.
func firerOf(out volley.Outcome) string {
	for _, r := range out.Rolls {
		if rest, ok := strings.CutPrefix(r.Purpose, "fraction and ammunition: "); ok {
			if firer, _, ok := strings.Cut(rest, " at "); ok {
				return firer
			}
		}
	}
	for _, s := range out.Trace {
		if s.Rule == "measure range" || s.Rule == "ammunition" {
			return s.Text("unit")
		}
	}
	return "the firer"
}

// casualties rewrites "1 casualties" as a player says it.
func casualties(result string) string {
	switch result {
	case "0 casualties":
		return "no casualty"
	case "1 casualties":
		return "1 casualty"
	}
	return result
}

func figures(n float64) string {
	if n == 1 {
		return "1 figure"
	}
	return volley.FormatNumber(n) + " figures"
}

func plural(n float64) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// ammoWords says what a unit's ammunition has come to.
func ammoWords(state string) string {
	switch Ammo(state) {
	case AmmoLow:
		return "is Low on Missiles"
	case AmmoOut:
		return "is Out of Missiles: it may not fire again"
	}
	return "has its missiles"
}
