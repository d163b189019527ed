package warengine

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
)

// Tell tells what an order did, a line for each thing a player follows (volley.Teller):
// a move or a turn in Phase I and whether the unit still aims, a declared target and
// where it was corrected to, each pick of a shot (what the d100 needed and rolled, how far
// it may miss by, the square it went to), where the shot landed, each victim's chance to
// damage, hits and save, what each lost, a unit destroyed or a wall knocked down, the end
// of a phase. It reads the outcome alone, as the log stores it.
func (Ruleset) Tell(out volley.Outcome) []string {
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	// The damage check of the victim under way, built up step by step.
	var check *damageWords
	flush := func() {
		if check != nil {
			lines = append(lines, check.String())
			check = nil
		}
	}
	// victim is the check under way; a step that names its victim names the check, and
	// one that names another begins the next.
	victim := func(s volley.Step) *damageWords {
		name := s.Text("target")
		switch {
		case check == nil:
			check = &damageWords{victim: name}
		case name != "" && check.victim == "":
			check.victim = name
		case name != "" && check.victim != name:
			flush()
			check = &damageWords{victim: name}
		}
		return check
	}
	var pick []string // the pick under way: its ChanceToHit's terms, how far it may miss
	for _, s := range out.Trace {
		switch s.Rule {
		case "move (Phase I)":
			add("%s", moveWords(s))
		case "deploy":
			add("%s deployed at %s, facing %s", s.Text("unit"), s.Text("at"), s.Text("facing"))
		case "declare":
			line := fmt.Sprintf("%s's %s targets %s", s.Text("unit"), s.Text("weapon"), s.Text("target"))
			if r := s.Sentence(); strings.HasPrefix(r, "outside") {
				line += ": " + r
			}
			if s.Inputs["friendly"] == true {
				line += " (a friend's square, declared so)"
			}
			lines = append(lines, line)
		case "clear":
			add("%s's %s: target cleared", s.Text("unit"), s.Text("weapon"))
		case "change group":
			add("%s fires group %s this turn%s", s.Text("unit"), s.Text("group"), groupCleared(s.Sentence()))
		case "aiming (Phase I)":
			add("%s", s.Sentence())
		case "declared target":
			add("%s's %s: %s", s.Text("unit"), s.Text("weapon"), s.Sentence())
		case "chance to hit":
			pick = []string{fmt.Sprintf("ChanceToHit %s (%s)", rules.ValueText(s.Result), hitTerms(s))}
		case "max distance missed by":
			r, area, _ := strings.Cut(s.Sentence(), ": ")
			area = strings.Replace(strings.TrimPrefix(area, "a "), "(1 squares", "(1 square", 1)
			pick = append(pick, fmt.Sprintf("it may miss by up to %s square%s, %s", r, plural(r), area))
		case "pick":
			add("%s", pickWords(s, pick))
			pick = nil
		case "line of fire":
			if why, where, ok := strings.Cut(s.Sentence(), ": lands on "); ok {
				add("the shot lands on %s: %s", where, why)
			} else {
				add("the shot %s", s.Sentence())
			}
		case "strike":
			add("nothing on %s can be damaged", s.Text("square"))
		case "damage strength":
			add("the %s has strength 0: it can never damage", s.Text("weapon"))
		case "courage":
			// Each victim's check begins with the firer's courage or panic.
			flush()
			check = &damageWords{}
			if r := s.Sentence(); !strings.HasPrefix(r, "+0%") {
				check.terms = append(check.terms, "courage or panic "+r)
			}
		case "aimed and within range":
			if r := s.Sentence(); !strings.HasPrefix(r, "+0%") {
				check := victim(volley.Step{})
				check.terms = append(check.terms, "aimed "+r)
			}
		case "range band strength":
			if r := s.Sentence(); !strings.HasPrefix(r, "+0%") {
				check := victim(volley.Step{})
				check.terms = append(check.terms, fmt.Sprintf("%s range %s", s.Text("band"), r))
			}
		case "adjusted strength", "strength based", "obstacle modifier":
			check := victim(volley.Step{})
			check.strength = rules.ValueText(s.Result)
			if s.Rule == "obstacle modifier" {
				if f, _ := s.Number("firepower"); f > 0 {
					check.terms = append(check.terms, fmt.Sprintf("obstacles −%s%%", volley.FormatNumber(f)))
				}
			}
		case "base damage roll":
			check := victim(volley.Step{})
			check.base = s.Text("base")
		case "toughness":
			check := victim(s)
			check.toughness = s.Text("toughness")
			if d := s.Text("direction"); d != "" {
				check.toughness += " (" + d + ")"
			}
		case "cover":
			if f, _ := s.Number("firepower"); f > 0 {
				check := victim(volley.Step{})
				check.cover = fmt.Sprintf("cover %s (%s)", volley.FormatNumber(f), s.Text("square"))
			}
		case "chance to damage":
			check := victim(s)
			check.chance = s.Text("chance")
			check.roll = s.Text("roll")
			check.verdict = s.Sentence()
		case "hits":
			check := victim(s)
			check.hits = rules.ValueText(s.Result)
		case "save":
			check := victim(s)
			check.save = saveWords(s)
		case "stun":
			flush()
			add("%s is struck by the %s (strength 0) and stunned: it may not fire in its side's next fire phase", s.Text("target"), s.Text("weapon"))
		case "healing":
			flush()
			add("%s regains %s hit%s (rolled %s, %s to %s)", s.Text("target"), rules.ValueText(s.Result), plural(rules.ValueText(s.Result)), s.Text("rolled"), s.Text("min"), s.Text("max"))
		case "destroyed", "knocked down":
			// Told with what each target lost, below.
		case "stunned":
			add("%s is stunned: it may not fire this phase", s.Text("unit"))
		case "end phase":
			flush()
			lines = append(lines, possessive(fmt.Sprintf("%s's %s phase ends: %s", s.Text("side"), s.Text("phase"), s.Sentence())))
		default:
			flush()
			if l := s.Sentence(); l != "" {
				lines = append(lines, l)
			}
		}
	}
	flush()
	knocked := map[string]string{}
	for _, s := range out.Trace {
		if s.Rule == "knocked down" {
			knocked[s.Text("square")] = fmt.Sprintf("the %s on %s is knocked down: %s", s.Text("was"), s.Text("square"), s.Sentence())
		}
	}
	for _, t := range out.Targets {
		switch {
		case t.Measures[MeasureStunned] > 0, t.Measures[MeasureHealed] > 0:
		case knocked[t.Target] != "":
			lines = append(lines, knocked[t.Target])
		case t.Destroyed:
			add("%s is destroyed and leaves the map", t.Target)
		case t.Measures[MeasureHits] > 0:
			n := t.Measures[MeasureHits]
			add("%s loses %s hit%s: %s left", square(t.Target), volley.FormatNumber(n), plural(volley.FormatNumber(n)), volley.FormatNumber(t.Measures["hits_left"]))
		}
	}
	return lines
}

// damageWords is one victim's damage check in words.
type damageWords struct {
	victim, strength, base, toughness, cover string
	terms                                    []string
	chance, roll, verdict, hits, save        string
}

func (d *damageWords) String() string {
	if d.chance == "" {
		return d.victim + ": no damage check"
	}
	sum := "strength " + d.strength
	if len(d.terms) > 0 {
		sum += " (" + strings.Join(d.terms, ", ") + ")"
	}
	if d.base != "" {
		sum += " + " + d.base
	}
	if d.toughness != "" {
		sum += " − toughness " + d.toughness
	}
	if d.cover != "" {
		sum += " − " + d.cover
	}
	line := fmt.Sprintf("%s: chance to damage %s (%s)", square(d.victim), d.chance, sum)
	switch {
	case d.roll != "":
		line += fmt.Sprintf(", rolled %s: %s", d.roll, d.verdict)
	default:
		line += ": " + d.verdict
	}
	if d.hits != "" {
		line += fmt.Sprintf(", %s hit%s", d.hits, plural(d.hits))
	}
	if d.save != "" {
		line += "; " + d.save
	}
	return line
}

// moveWords tells a move in Phase I: where the unit went and whether it aims.
func moveWords(s volley.Step) string {
	u := s.Text("unit")
	var line string
	if steps, _ := s.Number("steps"); steps > 0 {
		line = fmt.Sprintf("%s moved %s square%s to %s", u, s.Text("steps"), plural(s.Text("steps")), s.Text("to"))
		if cost := s.Text("cost"); cost != s.Text("steps") {
			line += fmt.Sprintf(" (costing %s)", cost)
		}
		line += fmt.Sprintf(", %s of its %s this turn", s.Text("moved_this_turn"), s.Text("move"))
		if f := s.Text("facing"); f != "" {
			line += ", facing " + f
		}
	} else {
		line, _, _ = strings.Cut(s.Sentence(), ":")
	}
	switch r := s.Sentence(); {
	case strings.Contains(r, "still aims"):
		line += ": it still aims"
	case strings.Contains(r, "not aiming"):
		line += ": it will not aim this turn"
	}
	return line
}

// hitTerms are a pick's ChanceToHit terms, in the step's inputs beside the pick's own.
func hitTerms(s volley.Step) string {
	var terms []string
	for _, k := range slices.Sorted(maps.Keys(s.Inputs)) {
		switch k {
		case "pick", "from", "to":
			continue
		}
		v, ok := s.Number(k)
		if !ok {
			continue
		}
		if k == "weapon skill" {
			terms = append([]string{fmt.Sprintf("weapon skill %s", volley.FormatNumber(v))}, terms...)
			continue
		}
		if v == 0 {
			continue
		}
		terms = append(terms, fmt.Sprintf("%s %+g", k, v))
	}
	return strings.Join(terms, ", ")
}

// pickWords tells one pick: the d100 against ChanceToHit, and the square it went to.
func pickWords(s volley.Step, pick []string) string {
	n := s.Text("pick")
	verdict, to, _ := strings.Cut(s.Sentence(), " → ")
	passed := strings.HasPrefix(verdict, "passes")
	_, kind, _ := strings.Cut(verdict, ": ")
	line := "pick " + n + ": "
	if len(pick) > 0 {
		line += pick[0]
	}
	switch r, rolled := s.Number("roll"); {
	case rolled && passed:
		line += fmt.Sprintf(", the d100 rolled %s (%s or less passes): on target", volley.FormatNumber(r), s.Text("need"))
	case rolled:
		line += fmt.Sprintf(", the d100 rolled %s (%s or less passes): off target", volley.FormatNumber(r), s.Text("need"))
	case passed:
		line += ": it cannot fail, on target"
	default:
		line += ": it cannot pass, off target"
	}
	if len(pick) > 1 {
		line += "; " + pick[1]
	}
	line += fmt.Sprintf("; it goes to %s, %s", kind, to)
	if pr, ok := s.Number("pick_roll"); ok {
		line += fmt.Sprintf(" (rolled %s of %s)", volley.FormatNumber(pr), s.Text("candidates"))
	}
	return line
}

// saveWords tells a victim's save.
func saveWords(s volley.Step) string {
	switch r := s.Sentence(); {
	case r == "no save":
		return "no save"
	case strings.HasPrefix(r, "certain"):
		return "saved without a roll"
	case strings.HasPrefix(r, "saved"):
		return fmt.Sprintf("save %s or less: rolled %s, saved", s.Text("save"), s.Text("roll"))
	default:
		return fmt.Sprintf("save %s or less: rolled %s, failed", s.Text("save"), s.Text("roll"))
	}
}

// groupCleared tells the targets a change of group cleared.
func groupCleared(result string) string {
	if _, cleared, ok := strings.Cut(result, "; "); ok && !strings.HasPrefix(cleared, "0 ") {
		return "; " + strings.ReplaceAll(cleared, "target(s)", "targets")
	}
	return ""
}

// square names a victim: a square's name reads as a square.
func square(name string) string {
	if strings.Contains(name, ",") {
		return "the terrain on " + name
	}
	return name
}

// possessive writes "raiders's" as a player would, "raiders'".
func possessive(s string) string { return strings.ReplaceAll(s, "s's ", "s' ") }

func plural(n string) string {
	if n == "1" {
		return ""
	}
	return "s"
}
