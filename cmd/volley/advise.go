package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
)

type adviseCmd struct {
	File      string `arg:"" help:"Scenario file. Its action: section, if any, names the squad, unit or battery to advise and the facts of its activation."`
	Objective string `default:"expected" help:"What to maximise: expected (damage, hits, casualties or kills, by system), destroyed (expected units destroyed), destroy:UNIT, at_least:K."`
	Top       int    `default:"5" help:"How many plans to show."`
	Side      string `help:"The side that fires; by default the action's, or the side whose turn it is."`
	Actor     string `help:"The squad, unit or battery to advise; by default the action's, or every one that may act."`
	output
}

// adviceOut is advise's JSON: the best plans of each actor, and where the scenario's own
// action stands under the objective and under the two usual ones.
type adviceOut struct {
	Ruleset  string                      `json:"ruleset"`
	Advice   []*advise.Advice            `json:"advice"`
	Standing map[string]*advise.Standing `json:"scenario_action,omitempty"`
}

func (c adviseCmd) Run(e *env) error {
	obj, err := advise.ParseObjective(c.Objective)
	if err != nil {
		return volley.Errorf(volley.EINVALID, "--objective: %v", err)
	}
	if c.Top < 1 || c.Top > maxTop {
		return volley.Errorf(volley.EINVALID, "--top must lie between 1 and %d", maxTop)
	}
	l, err := open(c.File, false)
	if err != nil {
		return err
	}
	ctx := e.context()
	q := advise.Query{Side: c.Side, Actor: c.Actor}
	if l.action != nil && l.action.Kind() != volley.EndTurn {
		q.From = l.action
	}
	adv, err := advise.Advise(ctx, l.battle, q, obj, c.Top, advise.DefaultBudget)
	if err != nil {
		return err
	}
	out := adviceOut{Ruleset: l.ruleset.Name(), Advice: adv}
	if q.From != nil && c.Actor == "" {
		out.Standing = map[string]*advise.Standing{}
		for _, o := range []advise.Objective{obj, {Kind: advise.Expected}, {Kind: advise.Destroyed}} {
			if out.Standing[o.String()] != nil {
				continue
			}
			st, err := advise.Place(ctx, l.battle, q, o, advise.DefaultBudget)
			if err != nil {
				return err
			}
			if st == nil {
				out.Standing = nil
				break
			}
			out.Standing[o.String()] = st
		}
	}
	if c.JSON {
		return writeJSON(e.stdout, out)
	}
	writeHeading(e.stdout, l)
	for _, a := range adv {
		writeAdvice(e.stdout, a)
	}
	if out.Standing != nil {
		fmt.Fprintln(e.stdout, "\nThe scenario's own action")
		for _, o := range []advise.Objective{obj, {Kind: advise.Expected}, {Kind: advise.Destroyed}} {
			st := out.Standing[o.String()]
			if st == nil {
				continue
			}
			delete(out.Standing, o.String()) // each once
			fmt.Fprintf(e.stdout, "  %-28s %s  %s\n", o.Describe(adv[0].Measure), formatValue(o, st.Value), standingWords(st))
		}
	}
	return nil
}

// plural writes a count and its noun: "1 plan", "1000 plans".
func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// maxTop bounds --top: every plan shown is written out in full.
const maxTop = 100

func formatValue(o advise.Objective, v float64) string {
	if o.Kind == advise.Destroy || o.Kind == advise.AtLeast {
		return fmt.Sprintf("%6s", pct(v))
	}
	return fmt.Sprintf("%6.3f", v)
}

func standingWords(st *advise.Standing) string {
	s := fmt.Sprintf("rank %d of %s", st.Rank, plural(st.Total, "plan"))
	switch {
	case st.Tied > 1 && st.Rank == 1:
		s = fmt.Sprintf("the best of %s, tied with %s", plural(st.Total, "plan"), plural(st.Tied-1, "other"))
	case st.Rank == 1:
		s = fmt.Sprintf("the best of %s", plural(st.Total, "plan"))
	case st.Tied > 1:
		s += fmt.Sprintf(", tied with %s", plural(st.Tied-1, "other"))
	}
	if !st.Complete {
		s += " (count cut short)"
	}
	return s
}

func writeAdvice(w io.Writer, a *advise.Advice) {
	o, _ := advise.ParseObjective(a.Objective)
	fmt.Fprintf(w, "\n%s (%s): the best plans by %s\n", a.Actor, a.Side, a.Scores)
	fmt.Fprintf(w, "  %s: %d scored, %d set aside by the upper bound (%s)\n", plural(a.Total, "legal plan"), a.Scored, a.Bounded, a.Method)
	if !a.Complete {
		fmt.Fprintf(w, "  CUT SHORT: %s; the plans below are the best seen\n", a.Stopped)
	}
	for _, n := range a.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	for _, p := range a.Plans {
		variant := ""
		if p.Variant != "" {
			variant = "  [" + p.Variant + "]"
		}
		fmt.Fprintf(w, "\n  #%d  %s   (%s above the next)%s\n", p.Rank, strings.TrimSpace(formatValue(o, p.Value)), strings.TrimSpace(formatGap(o, p.Gap)), variant)
		for _, st := range p.Steps {
			fmt.Fprintf(w, "      step: %s\n", stepWords(st))
		}
		for _, pk := range p.Picks {
			t := pk.Target
			if t == "" {
				t = "holds fire"
			}
			fmt.Fprintf(w, "      %-36s → %s\n", pk.Slot, t)
		}
		for _, t := range p.Targets {
			fmt.Fprintf(w, "      %-18s mean %.3f %s, destroyed %s   %s\n", t.Target, t.Mean, a.Measure, pct(t.PDestroyed), distWords(t.Dist))
		}
	}
}

// stepWords writes one action of a plan of several, as a scenario would.
func stepWords(st map[string]any) string {
	b, _ := json.Marshal(st)
	return string(b)
}

func formatGap(o advise.Objective, g float64) string {
	if o.Kind == advise.Destroy || o.Kind == advise.AtLeast {
		return fmt.Sprintf("%.2f points", g*100)
	}
	return fmt.Sprintf("%.3f", g)
}

// distWords writes a short distribution: each value's chance.
func distWords(d []float64) string {
	var parts []string
	for n, p := range d {
		if p > 0 {
			parts = append(parts, fmt.Sprintf("%d:%s", n, pct(p)))
		}
	}
	return strings.Join(parts, " ")
}
