package warstrike

import (
	"fmt"
	"strings"

	"github.com/volley-wargames/volley"
)

// Tell tells what an action did, a line for each thing a player follows (volley.Teller):
// the action a unit chose and what it allows, each model's move, a deployment, who may
// shoot and why, each firing model's dice to hit, to penetrate and to kill, the wounds and
// the dead on each target, the suppression markers it gained, a unit wiped out, the end
// of a turn. It reads the outcome alone, as the log stores it.
func (Ruleset) Tell(out volley.Outcome) []string {
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	// The dice each model rolled to penetrate and to kill, told with its target's wounds.
	var after []*modelDice
	diceOf := func(model, target string) *modelDice {
		for _, d := range after {
			if d.model == model && d.target == target {
				return d
			}
		}
		d := &modelDice{model: model, target: target}
		after = append(after, d)
		return d
	}
	for _, s := range out.Trace {
		switch s.Rule {
		case "choose an action (Actions That Allow Shooting)":
			add("%s", strings.Replace(words(s.Sentence()), "each of its models may move 0″ this turn, and it", "it stands still, and", 1))
		case "move":
			add("%s", words(s.Sentence()))
		case "deploy":
			add("%s deployed: %s", s.Text("unit"), words(strings.TrimPrefix(s.Sentence(), "placed ")))
		case "who can shoot":
			add("%s", whoWords(s))
		case "roll to hit":
			got := s.Sentence()
			if got == "1 hits" {
				got = "1 hit"
			} else if got == "0 hits" {
				got = "no hit"
			}
			add("%s's %s → %s: needs %s, rolled %s: %s", s.Text("model"), weaponName(s.Text("weapon")), s.Text("target"), s.Text("need"), strings.ReplaceAll(s.Text("rolls"), " ", ", "), got)
		case "roll to penetrate", "roll to kill":
			d := diceOf(s.Text("model"), s.Text("target"))
			what := strings.TrimPrefix(s.Rule, "roll to ")
			d.add(what, s)
		case "wounds":
			target := s.Text("target")
			for _, d := range after {
				if d.target == target {
					lines = append(lines, d.String())
				}
			}
			after = slicesDeleteTarget(after, target)
			hits, _ := s.Number("hits")
			pens, _ := s.Number("penetrations")
			wounds, _ := s.Number("wounds")
			add("%s: %s, %s, %s: %s", target, count(hits, "hit"), count(pens, "penetration"), count(wounds, "wound"), killWords(s.Sentence()))
		case "suppression":
			n := strings.TrimSuffix(s.Sentence(), " markers")
			if n == "0" {
				continue
			}
			line := fmt.Sprintf("%s gains %s", s.Text("target"), plural(n, "suppression marker"))
			for _, t := range out.Targets {
				if t.Target == s.Text("target") {
					all := volley.FormatNumber(t.Measures["suppression_markers"])
					line += fmt.Sprintf(" (%s in all", all)
					if t.Measures["suppression_markers"] >= SuppressedAt {
						line += ": enough to pin it down when its turn begins"
					}
					line += ")"
				}
			}
			lines = append(lines, line)
		case "remove marked dead models":
			add("the models marked dead leave the table: %s", s.Sentence())
		default:
			if l := volley.TellTurnEnd(s); l != "" {
				lines = append(lines, l)
			} else if l := s.Sentence(); l != "" {
				lines = append(lines, words(l))
			}
		}
	}
	for _, t := range out.Targets {
		if t.Destroyed {
			add("%s is wiped out", t.Target)
		}
	}
	return lines
}

// modelDice are one model's dice to penetrate and to kill one target.
type modelDice struct {
	model, target string
	parts         []string
	last          string
	rolls         []string
	need          string
	successes     int
}

// add counts a die to penetrate or to kill.
func (d *modelDice) add(what string, s volley.Step) {
	if what != d.last {
		d.close()
		d.last = what
	}
	if r, ok := s.Number("roll"); ok {
		d.rolls = append(d.rolls, volley.FormatNumber(r))
		d.need = s.Text("need")
		if s.Result == true {
			d.successes++
		}
		return
	}
	d.parts = append(d.parts, fmt.Sprintf("no %s is possible (armour or toughness above the table)", what))
}

// close tells the dice of one kind gathered.
func (d *modelDice) close() {
	if len(d.rolls) == 0 {
		return
	}
	n := fmt.Sprint(d.successes)
	result := map[string]string{"penetrate": n + " through", "kill": plural(n, "kill")}[d.last]
	if d.last == "penetrate" && d.successes == 0 {
		result = "none through"
	}
	d.parts = append(d.parts, fmt.Sprintf("to %s needs %s, rolled %s: %s", d.last, d.need, strings.Join(d.rolls, ", "), result))
	d.rolls, d.successes = nil, 0
}

func (d *modelDice) String() string {
	d.close()
	return fmt.Sprintf("%s's hits on %s: %s", d.model, d.target, strings.Join(d.parts, "; "))
}

// slicesDeleteTarget drops the dice told for target.
func slicesDeleteTarget(ds []*modelDice, target string) []*modelDice {
	out := ds[:0]
	for _, d := range ds {
		if d.target != target {
			out = append(out, d)
		}
	}
	return out
}

// whoWords tells who may shoot, with the action it shoots as.
func whoWords(s volley.Step) string {
	line := fmt.Sprintf("%s shoots with %s", s.Text("unit"), s.Text("action"))
	chosen := s.Text("chosen")
	switch {
	case strings.HasPrefix(chosen, "by default"):
		line += ", chosen by default: it stood still (not in the source)"
	case chosen != "":
		line += ", chosen " + chosen
	}
	if n, _ := s.Number("suppression at start"); n > 0 {
		line += fmt.Sprintf(", %s at the start of its turn", plural(volley.FormatNumber(n), "suppression marker"))
	}
	return line
}

// killWords rewrites the dead and the wounded as a player says it.
func killWords(s string) string {
	s = strings.Replace(s, "1 killed (removed): ", "killed: ", 1)
	s = strings.Replace(s, "1 killed (marked dead): ", "marked dead: ", 1)
	s = strings.Replace(s, " killed (removed): ", " killed: ", 1)
	s = strings.Replace(s, " killed (marked dead): ", " marked dead: ", 1)
	return strings.Replace(s, " takes 1 wounds ", " takes 1 wound ", 1)
}

// words are a step's own words, their inch marks as the log writes them.
func words(s string) string { return strings.ReplaceAll(s, `"`, "″") }

// weaponName is a weapon's profile name in words: sniper_rifle is a sniper rifle.
func weaponName(name string) string { return strings.ReplaceAll(name, "_", " ") }

func count(n float64, what string) string { return plural(volley.FormatNumber(n), what) }

// plural writes "1 hit", "2 hits", "no hits".
func plural(n, what string) string {
	switch n {
	case "0":
		return "no " + what + "s"
	case "1":
		return "1 " + what
	}
	return n + " " + what + "s"
}
