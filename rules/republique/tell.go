package republique

import (
	"fmt"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
)

// Tell tells what an action did, a line for each thing a player follows (volley.Teller):
// a move and what it did to a battery (limbered, prolonged, its saved fire lost), the
// passing fire it opens or that answers it, each artillery fire from its points and its
// d10 to the hits on each unit it hurts, each skirmish fire, the hits that take effect at
// a step's end (bases lost, a battery damaged or silenced, morale fallen a step, a unit
// destroyed), the leaders' injury tests, the end of a step or a player turn. It reads the
// outcome alone, as the log stores it.
func (Ruleset) Tell(out volley.Outcome) []string {
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	// A fire in a step's simultaneous fire leaves its hits pending (passing fire takes
	// effect at once, and has none).
	pending := false
	for _, t := range out.Targets {
		if _, ok := t.Measures["pending_morale_hits"]; ok {
			pending = true
		}
	}
	// later says when a fire's hits take effect, if it scored any.
	later := func(hits string) string {
		if pending && !strings.HasPrefix(hits, "no morale hit, no base hit") && hits != "no morale hit" {
			return " (taking effect when the step ends)"
		}
		return ""
	}
	for _, s := range out.Trace {
		switch s.Rule {
		case "deploy":
			lines = append(lines, rules.TellDeploy(s))
		case "move":
			line := strings.Replace(s.Sentence(), " moved: path ", " moved ", 1)
			lines = append(lines, strings.Replace(line, " moved: ", " moved, ", 1))
		case "artillery movement":
			add("%s: %s", s.Text("battery"), s.Sentence())
		case "saved fire":
			add("%s's saved fire: %s", s.Text("battery"), s.Sentence())
		case "movement":
			// The facts of movement a fire reads; told where they change it.
			for _, fact := range strings.Split(s.Sentence(), "; ") {
				if strings.Contains(fact, "limbered,") && !strings.Contains(fact, "unlimbered") || strings.Contains(fact, ", saved fire") {
					lines = append(lines, fact)
				}
			}
		case "artillery fire":
			add("%s", fireWords(s))
		case "main target", "tandem target", "adjacent target":
			hits := hitsWords(s.Sentence())
			add("%s, the %s: %s%s", s.Text("unit"), s.Rule, hits, later(hits))
		case "opposed skirmishers":
			if r := s.Sentence(); r == "no markers opposed" {
				add("no skirmish markers are opposed")
			} else {
				add("opposed skirmish markers: %s", r)
			}
		case "skirmish fire":
			hits := hitsWords(s.Sentence())
			add("%s (skirmishers) → %s at %s range: rolled %s on the d10, %s%s", s.Text("marker"), s.Text("target"), s.Text("range"), s.Text("d10"), hits, later(hits))
		case "base hit":
			add("%s is damaged: a battery's first base hit; with a morale hit it is silenced", s.Text("unit"))
		case "base hits":
			add("%s loses %s", s.Text("unit"), basesWords(s.Sentence()))
		case "morale hits":
			n, _ := s.Number("hits")
			if was, now := s.Text("was"), s.Sentence(); was == now {
				add("%s takes %s: already %s", s.Text("unit"), count(n, "morale hit"), now)
			} else {
				add("%s takes %s: %s → %s", s.Text("unit"), count(n, "morale hit"), was, now)
			}
		case "panic hits":
			n, _ := s.Number("morale_hits")
			add("%s began the phase demoralized: %s pending (the Panic section is not part of this phase)", s.Text("unit"), count(n, "panic hit"))
		case "leader injury":
			mod, _ := s.Number("modifier")
			line := fmt.Sprintf("%s tests for injury (%s): rolled %s on the d10", s.Text("leader"), s.Text("at_risk"), s.Text("d10"))
			if mod != 0 {
				line += fmt.Sprintf(", %+g", mod)
			}
			lines = append(lines, line+": "+s.Sentence())
		case "end of step":
			add("the %s step ends: %s", stepName(s.Text("step")), s.Sentence())
		default:
			if l := volley.TellStep(s); l != "" {
				lines = append(lines, l)
			}
		}
	}
	return lines
}

// fireWords tells an artillery fire: who fires at what, its points, its d10 and what the
// chart gives.
func fireWords(s volley.Step) string {
	bats := strings.ReplaceAll(s.Text("batteries"), "+", " and ")
	pts, _ := s.Number("fire_points")
	line := fmt.Sprintf("%s fire%s at %s: %s, rolled %s on the d10", bats, verbS(bats), s.Text("target"), count(pts, "fire point"), s.Text("d10"))
	chart := s.Sentence()
	if mod, _ := s.Number("die_modifier"); mod != 0 {
		modified, _, _ := strings.Cut(strings.TrimPrefix(chart, "modified "), " ")
		line += fmt.Sprintf(", %+g: %s", mod, modified)
	}
	if _, cell, ok := strings.Cut(chart, ": "); ok {
		if cell == "-" {
			return line + ": no effect"
		}
		morale, bases, _ := strings.Cut(cell, "/")
		return line + fmt.Sprintf(": the chart gives %s and %s", plural(morale, "morale hit"), plural(bases, "base hit"))
	}
	return line
}

// hitsWords rewrites "2 morale hit(s), 1 base hit(s)" as a player says it.
func hitsWords(s string) string {
	s = strings.ReplaceAll(s, "1 morale hit(s)", "1 morale hit")
	s = strings.ReplaceAll(s, "1 base hit(s)", "1 base hit")
	s = strings.ReplaceAll(s, "0 morale hit(s)", "no morale hit")
	s = strings.ReplaceAll(s, "0 base hit(s)", "no base hit")
	return strings.ReplaceAll(s, "hit(s)", "hits")
}

// basesWords rewrites "1 base(s) removed, 0 left: destroyed".
func basesWords(s string) string {
	n, rest, _ := strings.Cut(s, " base(s) removed, ")
	left, destroyed, _ := strings.Cut(rest, " left")
	line := plural(n, "base") + ", " + left + " left"
	if strings.Contains(destroyed, "destroyed") {
		line += ": destroyed"
	}
	return line
}

// stepName is a step as the text names it.
func stepName(step string) string {
	switch Step(step) {
	case Skirmish:
		return "skirmish fire"
	case ArtillerySegment:
		return "artillery fire"
	}
	return step
}

func count(n float64, what string) string { return plural(volley.FormatNumber(n), what) }

// plural writes "1 base hit", "2 base hits".
func plural(n, what string) string {
	if n == "1" {
		return "1 " + what
	}
	return n + " " + what + "s"
}

// verbS agrees a verb with its batteries: "fb1 fires", "fb1 and fb2 fire".
func verbS(bats string) string {
	if strings.Contains(bats, " and ") {
		return ""
	}
	return "s"
}
