package main

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
)

type dangerCmd struct {
	File      string `arg:"" help:"Scenario file."`
	Side      string `required:"" help:"The side of the unit placed; every other side fires at it."`
	As        string `required:"" name:"as" help:"The unit type placed on every point (WarStrike, which has no types: a unit of the battle, copied)."`
	Step      string `help:"Distance between points: a number in the table's unit, or with its own (0.5in, 1cm). Default 0.5\" on an open table; every square on a grid map."`
	Area      string `help:"The part of the table to map: minX,minY,maxX,maxY in the table's unit. Default: every unit and piece of terrain, with a margin."`
	Objective string `default:"destroyed" help:"destroyed (the chance the unit is destroyed) or expected (the damage, hits or casualties it is expected to take)."`
	Plot      string `help:"Draw the map into this file (.png or .svg)." placeholder:"FILE"`
	output
}

func (c dangerCmd) Run(e *env) error {
	if err := checkPlotName(c.Plot); err != nil {
		return err
	}
	obj, err := advise.ParseDangerObjective(c.Objective)
	if err != nil {
		return err
	}
	l, err := open(c.File, false)
	if err != nil {
		return err
	}
	dg, ok := l.battle.(advise.Dangerer)
	if !ok {
		return volley.Errorf(volley.ENOTSUPPORTED, "%s has no danger map", l.ruleset.Name())
	}
	q := advise.DangerQuery{Side: c.Side, As: c.As, Objective: obj}
	if q.Step, err = stepFlag(l.battle, c.Step); err != nil {
		return err
	}
	if c.Area != "" {
		parts := strings.Split(c.Area, ",")
		if len(parts) != 4 {
			return volley.Errorf(volley.EINVALID, "--area: want minX,minY,maxX,maxY")
		}
		for i, p := range parts {
			v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return volley.Errorf(volley.EINVALID, "--area: %q is not a number", p)
			}
			q.Area[i] = v
		}
	}
	m, err := dg.Danger(e.context(), q)
	if err != nil {
		return err
	}
	return answerMap(e, l, c.output, c.Plot, func() error { return plotDanger(c.Plot, l, m) },
		struct {
			Ruleset string            `json:"ruleset"`
			Danger  *advise.DangerMap `json:"danger"`
		}{l.ruleset.Name(), m},
		func(w io.Writer) { writeDanger(w, m) })
}

// dangerShades are the text map's steps, lightest first: a value's share of the map's
// maximum picks one.
const dangerShades = ".:-=+*%@"

// writeDanger prints a map for people: at most 72 columns, each character the worst
// point it covers; # where a unit cannot stand.
func writeDanger(w io.Writer, m *advise.DangerMap) {
	fmt.Fprintf(w, "\nDanger to %s of %s: %s, %d × %d points %g%s apart\n", m.Placed, m.Side, m.Scores, m.Cols, m.Rows, m.Step, unitMark(m.Unit))
	fmt.Fprintf(w, "  worst point %s; firers: %s\n", dangerValue(m, m.Max), strings.Join(m.Firers, ", "))
	for _, n := range m.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	k := max(1, (m.Cols+71)/72)
	fmt.Fprintf(w, "  each character is %d × %d points; %q from nothing to the worst, # solid\n\n", k, k, dangerShades)
	rows := make([]int, 0, m.Rows/k+1)
	for r := 0; r < m.Rows; r += k {
		rows = append(rows, r)
	}
	if !m.Grid { // north up: the last row first
		for i, j := 0, len(rows)-1; i < j; i, j = i+1, j-1 {
			rows[i], rows[j] = rows[j], rows[i]
		}
	}
	for _, r := range rows {
		var b strings.Builder
		b.WriteString("  ")
		for c := 0; c < m.Cols; c += k {
			worst, solid := -1.0, true
			for dr := 0; dr < k && r+dr < m.Rows; dr++ {
				for dc := 0; dc < k && c+dc < m.Cols; dc++ {
					if v := m.At(c+dc, r+dr); !math.IsNaN(v) {
						worst, solid = max(worst, v), false
					}
				}
			}
			switch {
			case solid:
				b.WriteByte('#')
			case worst <= 0 || m.Max == 0:
				b.WriteByte(' ')
			default:
				b.WriteByte(dangerShades[min(len(dangerShades)-1, int(worst/m.Max*float64(len(dangerShades))))])
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

func dangerValue(m *advise.DangerMap, v float64) string {
	if m.Objective == advise.Expected {
		return fmt.Sprintf("%.3f", v)
	}
	return pct(v)
}

// dangerColour is a value's colour: pale yellow for safe, through orange, to dark red
// for the map's worst; grey where a unit cannot stand.
func dangerColour(v, peak float64) color.Color {
	return rampColour([]color.RGBA{{0xff, 0xff, 0xe5, 0xff}, {0xfe, 0xc4, 0x4f, 0xff}, {0xec, 0x70, 0x14, 0xff}, {0x99, 0x34, 0x04, 0xff}, {0x4a, 0x14, 0x04, 0xff}},
		color.RGBA{0x9a, 0x9a, 0x9a, 0xff}, v, peak)
}

// plotDanger draws the map as coloured cells, the terrain's outlines and the units over
// it, with a legend strip, as PNG or SVG.
func plotDanger(path string, l *loaded, m *advise.DangerMap) error {
	g := newGridPlot(m.Cols, m.Rows, m.Step, m.X0, m.Y0, m.Grid, 960)
	width, height := g.width(1), g.height()
	canvas, dc := newPage(path, width, height)
	g.cells(dc, 0, func(c, r int) color.Color { return dangerColour(m.At(c, r), m.Max) })
	g.table(dc, 0, l, m.Side)
	g.legend(dc, 0, width-g.margin, func(t float64) color.Color { return dangerColour(t*m.Max, m.Max) },
		fmt.Sprintf("0 to %s: %s of %s of %s", dangerValue(m, m.Max), m.Scores, m.Placed, m.Side))
	g.title(dc, l)
	return writeFile(path, canvas)
}

// gridPlot lays a map's points out on a page: a cell per point, in one or more panels
// side by side, with the table drawn over them.
type gridPlot struct {
	cols, rows   int
	step, x0, y0 float64
	grid         bool
	cell, margin vg.Length
}

func newGridPlot(cols, rows int, step, x0, y0 float64, grid bool, size int) *gridPlot {
	return &gridPlot{cols: cols, rows: rows, step: step, x0: x0, y0: y0, grid: grid,
		cell: vg.Length(max(2, min(16, size/max(cols, rows, 1)))), margin: 28}
}

// bottom is the y of the panels' lowest row, above the legend.
func (g *gridPlot) bottom() vg.Length { return g.margin + 24 }

func (g *gridPlot) panelWidth() vg.Length { return g.cell * vg.Length(g.cols) }

func (g *gridPlot) width(panels int) vg.Length {
	return vg.Length(panels)*g.panelWidth() + vg.Length(panels-1)*g.margin + 2*g.margin
}

func (g *gridPlot) height() vg.Length { return g.cell*vg.Length(g.rows) + 2*g.margin + 24 }

// left is the x of panel k's first column.
func (g *gridPlot) left(k int) vg.Length { return g.margin + vg.Length(k)*(g.panelWidth()+g.margin) }

// cellAt is where point (c, r) of panel k is drawn: its row counts up the page on an
// open table (y is north) and down it on a grid map (rows as written).
func (g *gridPlot) cellAt(k, c, r int) (vg.Length, vg.Length) {
	if g.grid {
		return g.left(k) + vg.Length(c)*g.cell, g.bottom() + vg.Length(g.rows-1-r)*g.cell
	}
	return g.left(k) + vg.Length(c)*g.cell, g.bottom() + vg.Length(r)*g.cell
}

// squareCentre is the centre of square (c, r) of a grid map in panel k.
func (g *gridPlot) squareCentre(k, c, r int) vg.Point {
	x, y := g.cellAt(k, c-int(g.x0), r-int(g.y0))
	return vg.Point{X: x + g.cell/2, Y: y + g.cell/2}
}

// toPage is where table coordinates fall in panel k: x0 is the first cell's centre.
func (g *gridPlot) toPage(k int, x, y float64) vg.Point {
	return vg.Point{X: g.left(k) + vg.Length((x-g.x0)/g.step+0.5)*g.cell, Y: g.bottom() + vg.Length((y-g.y0)/g.step+0.5)*g.cell}
}

func box(x, y, w, h vg.Length) vg.Path {
	var p vg.Path
	p.Move(vg.Point{X: x, Y: y})
	p.Line(vg.Point{X: x + w, Y: y})
	p.Line(vg.Point{X: x + w, Y: y + h})
	p.Line(vg.Point{X: x, Y: y + h})
	p.Close()
	return p
}

// circle is the outline of the circle round ctr, rad from it.
func circle(ctr vg.Point, rad vg.Length) vg.Path {
	var p vg.Path
	p.Move(vg.Point{X: ctr.X + rad, Y: ctr.Y})
	p.Arc(ctr, rad, 0, 2*math.Pi)
	p.Close()
	return p
}

// cells fills panel k's cells with colour's colours.
func (g *gridPlot) cells(dc draw.Canvas, k int, colour func(c, r int) color.Color) {
	for r := range g.rows {
		for c := range g.cols {
			x, y := g.cellAt(k, c, r)
			dc.SetColor(colour(c, r))
			dc.Fill(box(x, y, g.cell+0.3, g.cell+0.3))
		}
	}
}

// table draws the terrain's outlines and the units over panel k, side's in blue and the
// others' in magenta.
func (g *gridPlot) table(dc draw.Canvas, k int, l *loaded, side string) {
	colourOf := func(s string) color.Color {
		if s == side {
			return color.RGBA{0x00, 0x72, 0xb2, 0xff}
		}
		return color.RGBA{0xcc, 0x00, 0x66, 0xff}
	}
	if t, ok := l.battle.(volley.Table); ok && !g.grid {
		view := t.Table()
		for _, piece := range view.Terrain {
			var p vg.Path
			for i, q := range piece.Polygon {
				if i == 0 {
					p.Move(g.toPage(k, q[0], q[1]))
				} else {
					p.Line(g.toPage(k, q[0], q[1]))
				}
			}
			p.Close()
			dc.SetLineStyle(draw.LineStyle{Color: color.Black, Width: vg.Points(1.2)})
			dc.Stroke(p)
		}
		for _, u := range view.Units {
			if !u.Placed || u.Destroyed {
				continue
			}
			dc.SetLineStyle(draw.LineStyle{Color: colourOf(u.Side), Width: vg.Points(2)})
			ctr := g.toPage(k, u.X, u.Y)
			dc.Stroke(circle(ctr, vg.Length(max(u.Base, g.step)/2/g.step)*g.cell))
		}
	}
	if b, ok := l.battle.(volley.Board); ok && g.grid {
		view := b.Board()
		// The map's terrain: every square not of its commonest symbol (the open ground)
		// is outlined, so walls and woods show through both layers.
		count := map[rune]int{}
		for _, row := range view.Rows {
			for _, sym := range row {
				count[sym]++
			}
		}
		var ground rune
		for sym, n := range count {
			if n > count[ground] || (n == count[ground] && sym < ground) {
				ground = sym
			}
		}
		dc.SetLineStyle(draw.LineStyle{Color: color.RGBA{0x33, 0x33, 0x33, 0xff}, Width: vg.Points(1)})
		for r, row := range view.Rows {
			for c, sym := range []rune(row) {
				if sym == ground {
					continue
				}
				x, y := g.cellAt(k, c-int(g.x0), r-int(g.y0))
				dc.Stroke(box(x+1, y+1, g.cell-2, g.cell-2))
			}
		}
		for _, u := range view.Units {
			dc.SetLineStyle(draw.LineStyle{Color: colourOf(u.Side), Width: vg.Points(2)})
			x, y := g.cellAt(k, u.X-int(g.x0), u.Y-int(g.y0)+u.Size-1)
			dc.Stroke(box(x, y, g.cell*vg.Length(u.Size), g.cell*vg.Length(u.Size)))
		}
	}
}

// legend draws a strip from nothing to the worst under panel k, width wide, and its words.
func (g *gridPlot) legend(dc draw.Canvas, k int, width vg.Length, colour func(t float64) color.Color, words string) {
	steps := 40
	w := (width - g.margin) / vg.Length(steps) / 2
	for i := range steps {
		dc.SetColor(colour(float64(i) / float64(steps-1)))
		dc.Fill(box(g.left(k)+vg.Length(i)*w, 6, w+0.3, 10))
	}
	dc.FillText(textStyle(10), vg.Point{X: g.left(k) + vg.Length(steps)*w + 8, Y: 7}, words)
}

// title writes the scenario's title above the panels.
func (g *gridPlot) title(dc draw.Canvas, l *loaded) {
	dc.FillText(textStyle(10), vg.Point{X: g.margin, Y: g.height() - g.margin + 8}, cmp.Or(l.title, l.path))
}

// newCanvas is a PNG or SVG canvas, as the file's name says.
func newCanvas(path string, width, height vg.Length) vg.CanvasWriterTo {
	if strings.EqualFold(filepath.Ext(path), ".svg") {
		return vgsvg.New(width, height)
	}
	return vgimg.PngCanvas{Canvas: vgimg.New(width, height)}
}

// newPage is newCanvas painted white, and the surface to draw on it: every map's page.
func newPage(path string, width, height vg.Length) (vg.CanvasWriterTo, draw.Canvas) {
	canvas := newCanvas(path, width, height)
	dc := draw.New(canvas)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	return canvas, dc
}

// textStyle is the plots' words: black, size points high.
func textStyle(size vg.Length) draw.TextStyle {
	return draw.TextStyle{Color: color.Black, Font: font.From(plot.DefaultFont, size), Handler: plot.DefaultTextHandler}
}
