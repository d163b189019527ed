package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/rules"
)

type positionCmd struct {
	File      string `arg:"" help:"Scenario file (its actions: are played first: the map is of the battle they leave)."`
	Unit      string `required:"" help:"The unit that moves (in Dropzone, or a squad: its units move as a formation)."`
	Objective string `default:"expected" help:"How offence is scored: expected, destroyed, destroy:UNIT or at_least:K."`
	Danger    string `default:"destroyed" help:"How danger is scored: destroyed (the chance the unit is destroyed) or expected (what it is expected to lose)."`
	Step      string `help:"Distance between points: a number in the table's unit, or with its own (0.5in, 1cm). Default 0.5\" on an open table (1\" in WarStrike, as its danger map; in Republique the finest of 1, 2, 3, 5… cm the budget allows); every square on a grid map."`
	Plot      string `help:"Draw the two layers into this file (.png or .svg)." placeholder:"FILE"`
	output
}

func (c positionCmd) Run(e *env) error {
	if err := checkPlotName(c.Plot); err != nil {
		return err
	}
	obj, err := advise.ParseObjective(c.Objective)
	if err != nil {
		return volley.Errorf(volley.EINVALID, "--objective: %s", strings.TrimPrefix(err.Error(), "advise: "))
	}
	dobj, err := advise.ParseDangerObjective(c.Danger)
	if err != nil {
		return volley.Errorf(volley.EINVALID, "--danger: %s", strings.TrimPrefix(err.Error(), "advise: "))
	}
	l, err := openPlayed(c.File)
	if err != nil {
		return err
	}
	ps, ok := l.battle.(advise.Positioner)
	if !ok {
		return volley.Errorf(volley.ENOTSUPPORTED, "%s has no position map (docs/advise.md says which systems have one, and why not)", l.ruleset.Name())
	}
	q := advise.PositionQuery{Unit: c.Unit, Objective: obj, Danger: dobj}
	if q.Step, err = stepFlag(l.battle, c.Step); err != nil {
		return err
	}
	m, err := ps.Position(e.context(), q)
	if err != nil {
		return err
	}
	return answerMap(e, l, c.output, c.Plot, func() error { return plotPosition(c.Plot, l, m) },
		struct {
			Ruleset  string              `json:"ruleset"`
			Position *advise.PositionMap `json:"position"`
		}{l.ruleset.Name(), m},
		func(w io.Writer) { writePosition(w, m) })
}

// openPlayed opens a scenario and plays every action of its script: the battle they
// leave (a map's question is where to go next, not about an action).
func openPlayed(path string) (*loaded, error) {
	l, err := load(path, false, rules.Open)
	if err != nil {
		return nil, err
	}
	if _, err := l.script.Play(context.Background(), l.battle, 0, l.script.Len()); err != nil {
		return nil, err
	}
	return l, nil
}

// writePosition prints a map for people: the front, the best points with their plans,
// and the two layers as characters.
func writePosition(w io.Writer, m *advise.PositionMap) {
	if m.Grid {
		fmt.Fprintf(w, "\nWhere %s (%s) may stand: %s it can reach with its %s left\n", m.Unit, m.Side, plural(int64(m.Reachable), "square"), plural(int64(m.Left), "square"))
	} else {
		fmt.Fprintf(w, "\nWhere %s (%s) may stand: %s within its %g%s left, %g%s apart\n", m.Unit, m.Side, plural(int64(m.Reachable), "point"), m.Left, unitMark(m.Length), m.Step, unitMark(m.Length))
	}
	fmt.Fprintf(w, "  offence: %s; danger: %s\n", m.Offence, m.Danger)
	for _, n := range m.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	groups := frontGroups(m.Pareto)
	fmt.Fprintf(w, "\nThe front (most offence for the least danger): %s, %s\n", plural(int64(len(m.Pareto)), "point"), pairsOfScores(len(groups)))
	for _, g := range groups {
		p := g[0]
		also := ""
		if len(g) > 1 {
			also = fmt.Sprintf(" (and %s as good, further away)", plural(int64(len(g)-1), "more point"))
		}
		fmt.Fprintf(w, "  offence %.4f  danger %.4f  nearest (%g, %g), %s away%s\n", p.Offence, p.Danger, p.X, p.Y, fmtReach(p.Reach, m.Length), also)
	}
	fmt.Fprintf(w, "\nThe best %d by offence:\n", len(m.Top))
	for _, p := range m.Top {
		fmt.Fprintf(w, "  (%g, %g)  %s away  offence %.4f  danger %.4f\n", p.X, p.Y, fmtReach(p.Reach, m.Length), p.Offence, p.Danger)
		if p.Move == nil && len(p.Moves) == 0 && p.Reach == 0 {
			fmt.Fprintln(w, "    move: none, where it stands")
		}
		if p.Move != nil {
			mv, _ := json.Marshal(p.Move)
			fmt.Fprintf(w, "    move: %s\n", mv)
		}
		for _, m := range p.Moves { // a formation's moves, one a unit, in turn
			mv, _ := json.Marshal(m)
			fmt.Fprintf(w, "    move: %s\n", mv)
		}
		if p.Plan != nil {
			pl, _ := json.Marshal(p.Plan)
			fmt.Fprintf(w, "    then: %s\n", pl)
		}
	}
}

// frontGroups gathers the front's points by their pair of scores, each group nearest
// first: a flat stretch of table where every point scores alike is one line.
func frontGroups(front []advise.PositionPoint) [][]advise.PositionPoint {
	var groups [][]advise.PositionPoint
	for _, p := range front {
		if n := len(groups); n > 0 && math.Abs(groups[n-1][0].Offence-p.Offence) <= 1e-12 && math.Abs(groups[n-1][0].Danger-p.Danger) <= 1e-12 {
			groups[n-1] = append(groups[n-1], p)
			continue
		}
		groups = append(groups, []advise.PositionPoint{p})
	}
	for _, g := range groups {
		slices.SortStableFunc(g, func(a, b advise.PositionPoint) int { return cmp.Compare(a.Reach, b.Reach) })
	}
	return groups
}

// pairsOfScores counts the front's groups: "pair" takes the plural, not "scores".
func pairsOfScores(n int) string {
	if n == 1 {
		return "1 pair of scores"
	}
	return fmt.Sprintf("%d pairs of scores", n)
}

func fmtReach(v float64, unit string) string {
	if unit == "square" {
		return plural(int64(v), "square")
	}
	return fmt.Sprintf("%.2f%s", v, unitMark(unit))
}

// offenceColour is an offence value's colour: white for nothing, through greens, to dark
// green for the map's most; pale grey where the unit cannot go.
func offenceColour(v, peak float64) color.Color {
	return rampColour([]color.RGBA{{0xf7, 0xfc, 0xf5, 0xff}, {0xa1, 0xd9, 0x9b, 0xff}, {0x41, 0xab, 0x5d, 0xff}, {0x00, 0x6d, 0x2c, 0xff}, {0x00, 0x3c, 0x18, 0xff}},
		color.RGBA{0xee, 0xee, 0xee, 0xff}, v, peak)
}

// plotPosition draws the two layers side by side, offence then danger, over the whole
// table (pale where the unit cannot go), with the table over them and the front's best
// point of each pair of scores ringed.
func plotPosition(path string, l *loaded, m *advise.PositionMap) error {
	// The page's grid: the table's drawn area at the map's step, the map's points on it.
	x0, y0, cols, rows := m.X0, m.Y0, m.Cols, m.Rows
	if bd, ok := l.battle.(volley.Board); ok && m.Grid {
		v := bd.Board()
		x0, y0, cols, rows = 0, 0, v.Width, v.Height
	}
	if t, ok := l.battle.(volley.Table); ok && !m.Grid {
		b := t.Table().Bounds
		// The map's own points too: a unit near the table's edge reaches past the units'
		// bounds the view fits.
		h := m.Step / 2
		b = [4]float64{min(b[0], m.X0-h), min(b[1], m.Y0-h), max(b[2], m.X0+float64(m.Cols)*m.Step-h), max(b[3], m.Y0+float64(m.Rows)*m.Step-h)}
		c0 := math.Floor((b[0] - m.X0) / m.Step)
		r0 := math.Floor((b[1] - m.Y0) / m.Step)
		x0, y0 = m.X0+c0*m.Step, m.Y0+r0*m.Step
		cols, rows = int(math.Ceil((b[2]-x0)/m.Step))+1, int(math.Ceil((b[3]-y0)/m.Step))+1
	}
	index := func(c, r int) int { // the map's point under page cell (c, r), or -1
		mc := c + int(math.Round((x0-m.X0)/m.Step))
		mr := r + int(math.Round((y0-m.Y0)/m.Step))
		if mc < 0 || mr < 0 || mc >= m.Cols || mr >= m.Rows {
			return -1
		}
		return m.At(mc, mr)
	}
	g := newGridPlot(cols, rows, m.Step, x0, y0, m.Grid, 560)
	width, height := g.width(2), g.height()
	canvas, dc := newPage(path, width, height)
	maxOf := func(vs []float64) float64 {
		top := 0.0
		for _, v := range vs {
			if !math.IsNaN(v) {
				top = max(top, v)
			}
		}
		return top
	}
	topO, topD := maxOf(m.OffenceValues), maxOf(m.DangerValues)
	out := color.RGBA{0xee, 0xee, 0xee, 0xff}
	g.cells(dc, 0, func(c, r int) color.Color {
		if i := index(c, r); i >= 0 && !math.IsNaN(m.OffenceValues[i]) {
			return offenceColour(m.OffenceValues[i], topO)
		}
		return out
	})
	g.cells(dc, 1, func(c, r int) color.Color {
		if i := index(c, r); i >= 0 && !math.IsNaN(m.DangerValues[i]) {
			return dangerColour(m.DangerValues[i], topD)
		}
		return out
	})
	for k := range 2 {
		g.table(dc, k, l, m.Side)
		for _, grp := range frontGroups(m.Pareto) {
			p := grp[0]
			ctr := g.toPage(k, p.X, p.Y)
			rad := max(g.cell*0.8, 3)
			if m.Grid {
				ctr, rad = g.squareCentre(k, int(p.X), int(p.Y)), g.cell*0.4
			}
			dc.SetLineStyle(draw.LineStyle{Color: color.RGBA{0x30, 0x30, 0x90, 0xff}, Width: vg.Points(1.2)})
			dc.Stroke(circle(ctr, rad))
		}
	}
	g.legend(dc, 0, g.panelWidth()+g.margin, func(t float64) color.Color { return offenceColour(t*topO, topO) },
		fmt.Sprintf("offence 0 to %.3f: %s", topO, m.Offence))
	g.legend(dc, 1, g.panelWidth()+g.margin, func(t float64) color.Color { return dangerColour(t*topD, topD) },
		fmt.Sprintf("danger 0 to %.3f: %s", topD, m.Danger))
	g.title(dc, l)
	return writeFile(path, canvas)
}
