package main

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
)

// compareCmd sets two scenarios side by side: the distribution of one measure on one
// target of each, with the statistics a rules designer asks for.
type compareCmd struct {
	A       string `arg:"" name:"a" help:"First scenario file."`
	B       string `arg:"" name:"b" help:"Second scenario file."`
	Target  string `help:"The target to compare, by id in both scenarios (default: each scenario's first target that can be shot at)."`
	TargetA string `name:"target-a" help:"The target to compare in the first scenario, when the ids differ."`
	TargetB string `name:"target-b" help:"The target to compare in the second scenario, when the ids differ."`
	Measure string `help:"The measure to compare, such as casualties, damage or hits (default: the one both have)."`
	output
	Plot string `help:"Also draw both distributions overlaid into this file (.png or .svg)." placeholder:"FILE"`
}

// side is one scenario's column of a comparison.
type side struct {
	Scenario     string    `json:"scenario"`
	Title        string    `json:"title"`
	Ruleset      string    `json:"ruleset"`
	Target       string    `json:"target"`
	Distribution dice.Dist `json:"distribution"`
	Mean         float64   `json:"mean"`
	StdDev       float64   `json:"stddev"`
	// CV is the coefficient of variation, stddev / mean: spread relative to the mean,
	// which compares fairly when the means differ.
	CV         float64   `json:"cv"`
	P0         float64   `json:"p_0"`
	AtLeast    []atLeast `json:"p_at_least"`
	P5         int       `json:"p5"`
	P50        int       `json:"p50"`
	P95        int       `json:"p95"`
	PDestroyed float64   `json:"p_destroyed"`
	// PLow and POut are the chances the firer ends Low or Out, from the scenario's values
	// where its system tracks ammunition.
	PLow *float64 `json:"p_low,omitempty"`
	POut *float64 `json:"p_out,omitempty"`
}

// atLeast is P(X ≥ K).
type atLeast struct {
	K int     `json:"k"`
	P float64 `json:"p"`
}

// preferredMeasures break a tie when two scenarios share several measures.
var preferredMeasures = []string{"casualties", "damage", "hits"}

func (c compareCmd) Run(e *env) error {
	if err := checkPlotName(c.Plot); err != nil {
		return err
	}
	ta, la, err := c.target(e, c.A, cmp.Or(c.TargetA, c.Target))
	if err != nil {
		return err
	}
	tb, lb, err := c.target(e, c.B, cmp.Or(c.TargetB, c.Target))
	if err != nil {
		return err
	}
	measure, err := c.measure(ta.TargetOdds, tb.TargetOdds)
	if err != nil {
		return err
	}
	sa, sb := stats(c.A, la, ta, measure), stats(c.B, lb, tb, measure)
	if c.Plot != "" {
		if err := plotCompare(c.Plot, measure, sa, sb); err != nil {
			return err
		}
	}
	if c.JSON {
		return writeJSON(e.stdout, struct {
			Measure string `json:"measure"`
			A       side   `json:"a"`
			B       side   `json:"b"`
		}{measure, sa, sb})
	}
	writeCompare(e.stdout, measure, sa, sb)
	if c.Plot != "" {
		fmt.Fprintf(e.stdout, "\nplot written to %s\n", c.Plot)
	}
	return nil
}

// targetOdds is one target's odds with the scenario values it came with.
type targetOdds struct {
	volley.TargetOdds
	values map[string]float64
}

// target loads a scenario and picks the target to compare: id, or else the first the
// action can shoot at.
func (c compareCmd) target(e *env, path, id string) (targetOdds, *loaded, error) {
	l, err := open(path, true)
	if err != nil {
		return targetOdds{}, nil, err
	}
	odds, err := l.battle.Odds(e.context(), l.action)
	if err != nil {
		return targetOdds{}, nil, err
	}
	if len(odds.Targets) == 0 {
		return targetOdds{}, nil, volley.Errorf(volley.EINVALID, "%s: the action has no target that can be shot at", path)
	}
	if id == "" {
		return targetOdds{odds.Targets[0], odds.Values}, l, nil
	}
	var ids []string
	for _, t := range odds.Targets {
		if t.Target == id {
			return targetOdds{t, odds.Values}, l, nil
		}
		ids = append(ids, t.Target)
	}
	return targetOdds{}, nil, usageError{fmt.Errorf("target %s: %s has no such target (it has %s)", id, path, strings.Join(ids, ", "))}
}

// measure picks the measure both targets have.
func (c compareCmd) measure(a, b volley.TargetOdds) (string, error) {
	var common []string
	for _, m := range sortedKeys(a.Distributions) {
		if _, ok := b.Distributions[m]; ok {
			common = append(common, m)
		}
	}
	if c.Measure != "" {
		if !slices.Contains(common, c.Measure) {
			return "", usageError{fmt.Errorf("--measure %s: the two targets share only %s", c.Measure, strings.Join(common, ", "))}
		}
		return c.Measure, nil
	}
	if len(common) == 0 {
		return "", volley.Errorf(volley.EINVALID, "the two scenarios measure different things: A measures %s, B measures %s; nothing to compare",
			strings.Join(sortedKeys(a.Distributions), " and "), strings.Join(sortedKeys(b.Distributions), " and "))
	}
	for _, m := range preferredMeasures {
		if slices.Contains(common, m) {
			return m, nil
		}
	}
	return common[0], nil
}

func stats(path string, l *loaded, t targetOdds, measure string) side {
	d := t.Distributions[measure]
	s := side{
		Scenario: path, Title: l.title, Ruleset: l.ruleset.Name(), Target: t.Target, Distribution: d,
		Mean: d.Mean(), StdDev: d.StdDev(), P0: d.P(0), AtLeast: []atLeast{},
		P5: d.Quantile(0.05), P50: d.Quantile(0.5), P95: d.Quantile(0.95), PDestroyed: t.PDestroyed,
	}
	if s.Mean != 0 {
		s.CV = s.StdDev / math.Abs(s.Mean)
	}
	for k := 1; k <= d.Max(); k++ {
		s.AtLeast = append(s.AtLeast, atLeast{k, d.AtLeast(k)})
	}
	if v, ok := t.values["p_low"]; ok {
		s.PLow = &v
	}
	if v, ok := t.values["p_out"]; ok {
		s.POut = &v
	}
	return s
}

func writeCompare(w io.Writer, measure string, a, b side) {
	name := func(s side) string {
		if s.Title != "" {
			return s.Title
		}
		return filepath.Base(s.Scenario)
	}
	rows := [][3]string{
		{"scenario", filepath.Base(a.Scenario), filepath.Base(b.Scenario)},
		{"ruleset", a.Ruleset, b.Ruleset},
		{"target", a.Target, b.Target},
		{"mean " + measure, fmt.Sprintf("%.3f", a.Mean), fmt.Sprintf("%.3f", b.Mean)},
		{"standard deviation", fmt.Sprintf("%.3f", a.StdDev), fmt.Sprintf("%.3f", b.StdDev)},
		{"coefficient of variation", fmt.Sprintf("%.3f", a.CV), fmt.Sprintf("%.3f", b.CV)},
		{"P(0)", pct(a.P0), pct(b.P0)},
	}
	for k := 1; k <= max(a.Distribution.Max(), b.Distribution.Max()); k++ {
		rows = append(rows, [3]string{fmt.Sprintf("P(≥ %d)", k), pct(a.Distribution.AtLeast(k)), pct(b.Distribution.AtLeast(k))})
	}
	rows = append(rows,
		[3]string{"5th percentile", fmt.Sprint(a.P5), fmt.Sprint(b.P5)},
		[3]string{"median (50th)", fmt.Sprint(a.P50), fmt.Sprint(b.P50)},
		[3]string{"95th percentile", fmt.Sprint(a.P95), fmt.Sprint(b.P95)},
		[3]string{"P(destroyed)", pct(a.PDestroyed), pct(b.PDestroyed)},
	)
	opt := func(p *float64) string {
		if p == nil {
			return "—"
		}
		return pct(*p)
	}
	if a.PLow != nil || b.PLow != nil {
		rows = append(rows, [3]string{"P(ends Low on Missiles)", opt(a.PLow), opt(b.PLow)}, [3]string{"P(ends Out of Missiles)", opt(a.POut), opt(b.POut)})
	}
	fmt.Fprintf(w, "A: %s\nB: %s\n\n", name(a), name(b))
	width := [3]int{}
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	for _, r := range rows {
		fmt.Fprintf(w, "  %-*s   %*s   %*s\n", width[0], r[0], width[1], r[1], width[2], r[2])
	}
	fmt.Fprintf(w, "\n  %s\n  (the p-th percentile is the least v with P(X ≤ v) ≥ p)\n", verdict(a, b))
}

// verdict says which scenario is the less swingy: by standard deviation when the means
// are close (within 10%), by the spread relative to the mean when they are not.
func verdict(a, b side) string {
	by, x, y := "standard deviation", a.StdDev, b.StdDev
	if math.Abs(a.Mean-b.Mean) > 0.1*math.Max(math.Abs(a.Mean), math.Abs(b.Mean)) {
		by, x, y = "coefficient of variation, as the means differ", a.CV, b.CV
	}
	switch {
	case x < y-1e-12:
		return "A is the less swingy (smaller " + by + ")"
	case y < x-1e-12:
		return "B is the less swingy (smaller " + by + ")"
	}
	return "A and B are as swingy as each other (" + by + ")"
}

// plotCompare draws both distributions as bars side by side.
func plotCompare(path, measure string, a, b side) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s on %s", measure, a.Target)
	if a.Target != b.Target {
		p.Title.Text = fmt.Sprintf("%s: %s against %s", measure, a.Target, b.Target)
	}
	p.X.Label.Text = measure
	p.Y.Label.Text = "probability"
	lo := min(a.Distribution.Min(), b.Distribution.Min(), 0)
	hi := max(a.Distribution.Max(), b.Distribution.Max())
	labels := make([]string, hi-lo+1)
	for i := range labels {
		labels[i] = fmt.Sprint(lo + i)
	}
	p.NominalX(labels...)
	width := vg.Points(math.Max(4, math.Min(18, 300/float64(len(labels)))))
	for i, s := range []side{a, b} {
		bars, err := plotter.NewBarChart(values(s.Distribution, lo, hi), width)
		if err != nil {
			return fmt.Errorf("plot: %w", err)
		}
		bars.LineStyle.Width = 0
		bars.Color = seriesColours[i]
		bars.Offset = width * vg.Length(2*i-1) / 2
		p.Add(bars)
		label := s.Title
		if label == "" {
			label = filepath.Base(s.Scenario)
		}
		p.Legend.Add(fmt.Sprintf("%s (sd %.2f)", label, s.StdDev), bars)
	}
	p.Legend.Top = true
	// Head room for the legend above the tallest bar.
	top := 0.0
	for _, s := range []side{a, b} {
		for _, o := range s.Distribution.Outcomes() {
			top = math.Max(top, o.P)
		}
	}
	p.Y.Min, p.Y.Max = 0, top*1.3
	return p.Save(16*vg.Centimeter, 10*vg.Centimeter, path)
}
