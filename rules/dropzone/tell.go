package dropzone

import (
	"fmt"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
)

// Tell tells what an action did, a line for each thing a player follows (volley.Teller):
// a move and the weapons it keeps from firing, a deployment, each declaration's shot from
// its need to its damage, each target's loss, a unit destroyed, the end of a turn. It
// reads the outcome's trace alone, as the log stores it.
func (Ruleset) Tell(out volley.Outcome) []string {
	t := teller{}
	for i := 0; i < len(out.Trace); i++ {
		s := out.Trace[i]
		switch s.Rule {
		case "move (Check Movement)":
			t.move(s)
		case "M&F":
			t.add("%s may not fire its %s this activation: it moved more than its M&F of %s", s.Text("unit"), s.Text("weapon"), inchMarks(s.Text("mf")))
		case "deploy":
			t.deploy(s)
		case "Check Movement":
			t.movement(s)
		case "to-hit":
			t.shot(s)
		case "to-hit modifier":
			if d := t.current(); d != nil {
				d.need = s.Sentence()
				d.modifiers = append(d.modifiers, fmt.Sprintf("%+g %s", penalty(s), s.Text("modifier")))
			}
		case "to-hit roll":
			if d := t.current(); d != nil {
				d.rolls = append(d.rolls, s.Text("roll"))
				if strings.HasPrefix(s.Sentence(), "hit") {
					d.hits++
				}
			}
		case "damage roll":
			t.damage(s)
		case "devastator":
			if d := t.last; d != nil && len(d.damage) > 0 {
				d.damage[len(d.damage)-1] += fmt.Sprintf(", devastator: %s", s.Sentence())
			}
		case "passive countermeasures":
			t.flush()
			t.passive(s)
		case "resolve damage":
			t.flush()
			t.loss(s)
		case "destroyed":
			t.add("%s is destroyed", s.Text("target"))
		default:
			t.flush()
			if line := volley.TellStep(s); line != "" {
				t.add("%s", line)
			}
		}
	}
	t.flush()
	return t.lines
}

// teller gathers a shooting action's declarations: their dice come to-hit first, all of
// them, then damage, one die a hit, declaration by declaration (see Resolve).
type teller struct {
	lines []string
	decls []*declared
	// dealt counts the damage dice told; they fall to the declarations in order.
	dealt int
	// last is the declaration of the last damage die told.
	last *declared
}

// declared is one declaration's shot as the trace tells it.
type declared struct {
	unit, weapon, target string
	shots                int
	need                 string
	modifiers            []string
	rolls                []string
	hits                 int
	auto                 string
	damage               []string
}

func (t *teller) add(format string, args ...any) {
	t.lines = append(t.lines, fmt.Sprintf(format, args...))
}

func (t *teller) current() *declared {
	if len(t.decls) == 0 {
		return nil
	}
	return t.decls[len(t.decls)-1]
}

// damaging is the declaration the next damage die belongs to, and counts it.
func (t *teller) damaging() *declared {
	n := t.dealt
	for _, d := range t.decls {
		if n < d.hits {
			return d
		}
		n -= d.hits
	}
	return nil
}

func (t *teller) move(s volley.Step) {
	line := rules.TellMove(s, "this activation")
	if _, rest, ok := strings.Cut(s.Sentence(), "this activation)"); ok {
		line += inchMarks(rest)
	}
	t.lines = append(t.lines, line)
}

func (t *teller) deploy(s volley.Step) {
	line := s.Text("unit") + " deployed"
	if at, ok := s.Inputs["at"].([]any); ok && len(at) == 2 {
		x, _ := at[0].(float64)
		y, _ := at[1].(float64)
		line += fmt.Sprintf(" at (%s, %s)", volley.FormatNumber(x), volley.FormatNumber(y))
	} else if at, ok := s.Inputs["at"].([]float64); ok && len(at) == 2 {
		line += fmt.Sprintf(" at (%s, %s)", volley.FormatNumber(at[0]), volley.FormatNumber(at[1]))
	}
	if f, ok := s.Number("facing"); ok {
		line += fmt.Sprintf(", facing %s°", volley.FormatNumber(f))
	}
	t.lines = append(t.lines, line)
}

// movement tells the facts of movement a squad's shot reads, when they change its dice.
func (t *teller) movement(s volley.Step) {
	for _, fact := range strings.Split(s.Sentence(), "; ") {
		if strings.HasPrefix(fact, "out of coherency") || strings.HasPrefix(fact, "disembarked") {
			fact = strings.Replace(strings.Replace(fact, " (+", ": +", 1), " to hit)", " to hit", 1)
			t.add("the %s squad is %s", s.Text("squad"), fact)
		}
	}
}

func (t *teller) shot(s volley.Step) {
	shots, _ := s.Number("shots")
	d := &declared{unit: s.Text("unit"), weapon: s.Text("weapon"), target: s.Text("target"), shots: int(shots), need: s.Sentence()}
	if strings.Contains(d.need, "automatic") {
		d.auto, d.need, d.hits = d.need, "", int(shots)
	}
	t.decls = append(t.decls, d)
}

func (t *teller) damage(s volley.Step) {
	d := t.damaging()
	t.dealt++
	t.last = d
	if d == nil {
		return
	}
	roll, energy, armour := s.Text("roll"), s.Text("energy"), s.Text("armour")
	result := s.Sentence()
	switch {
	case strings.HasPrefix(result, "a natural 1"):
		d.damage = append(d.damage, "rolled 1 for damage: a natural 1 never damages")
	case strings.HasPrefix(result, "below armour"):
		d.damage = append(d.damage, fmt.Sprintf("%s + %s vs armour %s: no damage", roll, energy, armour))
	case strings.HasPrefix(result, "critical: "):
		d.damage = append(d.damage, fmt.Sprintf("%s + %s vs armour %s: %s (critical)", roll, energy, armour, strings.TrimPrefix(result, "critical: ")))
	default:
		d.damage = append(d.damage, fmt.Sprintf("%s + %s vs armour %s: %s", roll, energy, armour, result))
	}
}

// flush tells the declarations gathered so far, a line each.
func (t *teller) flush() {
	for _, d := range t.decls {
		line := fmt.Sprintf("%s's %s → %s: ", d.unit, d.weapon, d.target)
		switch {
		case d.auto != "":
			line += d.auto
		default:
			line += d.need
			if len(d.modifiers) > 0 {
				line += " (" + strings.Join(d.modifiers, ", ") + ")"
			}
			line += ", rolled " + strings.Join(d.rolls, ", ")
			switch {
			case len(d.rolls) == 1 && d.hits == 1:
				line += ", hit"
			case len(d.rolls) == 1:
				line += ", miss"
			case d.hits == 0:
				line += ": no hits"
			case d.hits == 1:
				line += ": 1 hit"
			default:
				line += fmt.Sprintf(": %d hits", d.hits)
			}
		}
		if len(d.damage) > 0 {
			line += "; " + strings.Join(d.damage, "; ")
		}
		t.lines = append(t.lines, line)
	}
	t.decls, t.dealt, t.last = nil, 0, nil
}

func (t *teller) passive(s volley.Step) {
	if _, rolled := s.Number("roll"); !rolled {
		t.add("%s's passive countermeasures: %s", s.Text("target"), s.Sentence())
		return
	}
	what := "the damage point stands"
	if s.Sentence() == "discarded" {
		what = "a damage point discarded"
	}
	t.add("%s's passive countermeasures against the %s: rolled %s, needs %s+: %s", s.Text("target"), s.Text("weapon"), s.Text("roll"), s.Text("need"), what)
}

// loss tells what a target lost: "hunter-2 loses 2 damage points: 1 left".
func (t *teller) loss(s volley.Step) {
	target := s.Text("target")
	damage, _ := s.Number("damage")
	before, _ := s.Number("damage_points")
	left := before
	switch r := s.Result.(type) {
	case float64:
		left = r
	case int:
		left = float64(r)
	}
	lost := before - left
	switch {
	case damage == 0:
		t.add("%s takes no damage: %s left", target, points(left))
	case left == 0:
		line := fmt.Sprintf("%s loses its last %s", target, points(lost))
		if lost == 1 {
			line = target + " loses its last damage point"
		}
		if d, ok := s.Number("discarded"); ok && d > 0 {
			line += fmt.Sprintf(" (%s more discarded)", volley.FormatNumber(d))
		}
		t.lines = append(t.lines, line)
	default:
		t.add("%s loses %s: %s left", target, points(lost), volley.FormatNumber(left))
	}
}

// points is a count of damage points in words.
func points(n float64) string {
	if n == 1 {
		return "1 damage point"
	}
	return volley.FormatNumber(n) + " damage points"
}

// penalty is a to-hit modifier's value.
func penalty(s volley.Step) float64 {
	v, _ := s.Number("penalty")
	return v
}

// inchMarks writes a length's inch mark as the log's words do (4″).
func inchMarks(s string) string { return strings.ReplaceAll(s, `"`, "″") }
