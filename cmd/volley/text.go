package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
)

// The text views are for people: percentages, aligned columns and bars. Programs use
// --json, which carries full precision.

func writeHeading(w io.Writer, l *loaded) {
	title := l.title
	if title == "" {
		title = l.path
	}
	fmt.Fprintf(w, "%s — %s\n", l.ruleset.Name(), title)
}

func pct(p float64) string {
	switch {
	case p == 0:
		return "0%"
	case p == 1:
		return "100%"
	case p < 0.0001:
		return fmt.Sprintf("%.2g%%", p*100)
	}
	return fmt.Sprintf("%.1f%%", p*100)
}

func writeAims(w io.Writer, aims []volley.Aim) { writeAimsTitled(w, "Shots", aims) }

// writeAimsTitled writes aims under a title of their own.
func writeAimsTitled(w io.Writer, title string, aims []volley.Aim) {
	fmt.Fprintf(w, "\n%s\n", title)
	for _, a := range aims {
		fmt.Fprintf(w, "  %s  %s → %s", a.Shooter, a.Weapon, a.Target)
		switch {
		case a.Status == volley.StatusOK || a.Status == volley.StatusBlocked && a.Need != 0:
			if a.Status != volley.StatusOK {
				fmt.Fprintf(w, "   BLOCKED\n      %s\n     ", a.Reason)
			}
			switch {
			case a.Auto:
				fmt.Fprintf(w, "   hits automatically")
			case a.Die != 0 && a.PHit == 0:
				// No face succeeds: "needs 0+" would name a roll that does not exist.
				fmt.Fprintf(w, "   cannot hit: %s", a.Reason)
			case a.Die == 0: // no roll to hit: a factor system
				fmt.Fprintf(w, "   %s chance to inflict a casualty or more (%s)", pct(a.PHit), a.Reason)
			case a.Die == 100:
				fmt.Fprintf(w, "   %g%% on the d100, a true %s chance of striking %s", a.Need, pct(a.PHit), a.Target)
			default:
				fmt.Fprintf(w, "   needs %g+, %s to hit per shot", a.Need, pct(a.PHit))
			}
			if a.Shots > 1 || a.Shots != math.Trunc(a.Shots) {
				fmt.Fprintf(w, ", %g shots", a.Shots)
			}
			if a.RangeUnit != "" {
				fmt.Fprintf(w, ", range %g%s", a.Range, unitMark(a.RangeUnit))
			}
			fmt.Fprintln(w)
			for _, m := range a.Modifiers {
				fmt.Fprintf(w, "      %+g  %s\n", m.Value, m.Rule)
			}
		default:
			fmt.Fprintf(w, "   %s\n      %s\n", strings.ToUpper(strings.ReplaceAll(string(a.Status), "_", " ")), a.Reason)
		}
		for _, n := range a.Notes {
			fmt.Fprintf(w, "      note: %s\n", n)
		}
	}
}

func unitMark(u string) string {
	switch u {
	case "in", "":
		return `"`
	case "cm":
		return "cm"
	}
	return " " + u
}

func writeTargets(w io.Writer, targets []volley.TargetOdds) {
	for _, t := range targets {
		fmt.Fprintf(w, "\n%s   destroyed %s\n", t.Target, pct(t.PDestroyed))
		for _, m := range sortedKeys(t.Distributions) {
			fmt.Fprintf(w, "  %s (mean %.3g)\n", m, t.Mean[m])
			writeDist(w, "    ", t.Distributions[m])
		}
	}
}

// writeDist prints one line per outcome with a bar scaled to the likeliest outcome.
func writeDist(w io.Writer, indent string, d dice.Dist) {
	outs := d.Outcomes()
	top := 0.0
	for _, o := range outs {
		top = math.Max(top, o.P)
	}
	const barWidth = 40
	for _, o := range outs {
		n := 0
		if top > 0 {
			n = int(math.Round(o.P / top * barWidth))
		}
		fmt.Fprintf(w, "%s%4d  %7s  %s\n", indent, o.Value, pct(o.P), strings.Repeat("█", n))
	}
}

func writeValues(w io.Writer, values map[string]float64) {
	if len(values) == 0 {
		return
	}
	fmt.Fprintln(w, "\nValues")
	for _, k := range sortedKeys(values) {
		if strings.HasPrefix(k, "p_") { // a probability
			fmt.Fprintf(w, "  %-26s %s\n", k, pct(values[k]))
			continue
		}
		fmt.Fprintf(w, "  %-26s %.4g\n", k, values[k])
	}
}

// writeJoint lists the joint outcomes of several targets, likeliest first.
func writeJoint(w io.Writer, joint []volley.JointOutcome) {
	if len(joint) == 0 {
		return
	}
	sorted := append([]volley.JointOutcome(nil), joint...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].P > sorted[j].P })
	fmt.Fprintln(w, "\nTogether (the targets' outcomes are not independent)")
	for _, j := range sorted {
		var parts []string
		for _, k := range sortedKeys(j.Outcome) {
			parts = append(parts, fmt.Sprintf("%s %d", k, j.Outcome[k]))
		}
		fmt.Fprintf(w, "  %7s  %s\n", pct(j.P), strings.Join(parts, ", "))
	}
}

func writeOutcome(w io.Writer, out volley.Outcome) {
	fmt.Fprintln(w, "\nTrace")
	for _, s := range out.Trace {
		var in []string
		for _, k := range traceKeys(s.Inputs) {
			in = append(in, fmt.Sprintf("%s=%v", k, s.Inputs[k]))
		}
		fmt.Fprintf(w, "  %-24s %s → %v\n", s.Rule, strings.Join(in, " "), s.Result)
	}
	if len(out.Rolls) == 0 && len(out.Targets) == 0 {
		return // a move, a turn's end: nothing rolled, nothing struck
	}
	fmt.Fprintf(w, "\nDice (%d)\n", len(out.Rolls))
	for _, r := range out.Rolls {
		fmt.Fprintf(w, "  d%-3d %3d  %s\n", r.Sides, r.Value, r.Purpose)
	}
	fmt.Fprintln(w, "\nResult")
	for _, t := range out.Targets {
		var ms []string
		for _, k := range sortedKeys(t.Measures) {
			ms = append(ms, fmt.Sprintf("%s %g", k, t.Measures[k]))
		}
		state := ""
		if t.Destroyed {
			state = "   DESTROYED"
		}
		fmt.Fprintf(w, "  %s: %s%s\n", t.Target, strings.Join(ms, ", "), state)
	}
}

func writeSim(w io.Writer, res volley.SimResult, exact []volley.TargetOdds) {
	fmt.Fprintf(w, "\n%d trials, seed %d: simulated against exact\n", res.Trials, res.Seed)
	byID := map[string]volley.TargetOdds{}
	for _, t := range exact {
		byID[t.Target] = t
	}
	for _, t := range res.Targets {
		x := byID[t.Target]
		fmt.Fprintf(w, "\n%s   destroyed %s (exact %s)\n", t.Target, pct(t.PDestroyed), pct(x.PDestroyed))
		for _, m := range sortedKeys(x.Distributions) {
			sd, xd := t.Distributions[m], x.Distributions[m]
			fmt.Fprintf(w, "  %s   mean %.4g (exact %.4g)\n", m, t.Mean[m], x.Mean[m])
			lo, hi := min(sd.Min(), xd.Min()), max(sd.Max(), xd.Max())
			worst := 0.0
			for v := lo; v <= hi; v++ {
				ps, px := sd.P(v), xd.P(v)
				if ps == 0 && px == 0 {
					continue
				}
				worst = math.Max(worst, math.Abs(ps-px))
				fmt.Fprintf(w, "    %4d  %8s  %8s\n", v, pct(ps), pct(px))
			}
			fmt.Fprintf(w, "    largest difference %.2g (one standard error at p=0.5 is %.2g)\n", worst, 0.5/math.Sqrt(float64(res.Trials)))
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// leadingKeys come first in a trace line, in this order, because they say who acts on
// whom; the other inputs follow alphabetically.
var leadingKeys = []string{"unit", "weapon", "target", "shot", "hit"}

func traceKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for _, k := range leadingKeys {
		if _, ok := m[k]; ok {
			keys = append(keys, k)
		}
	}
	for _, k := range sortedKeys(m) {
		if !slices.Contains(leadingKeys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}
