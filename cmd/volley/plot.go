package main

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
)

// seriesColours tell the measures apart; chosen to stay distinct for colour-blind readers.
var seriesColours = []color.Color{
	color.RGBA{R: 0x00, G: 0x72, B: 0xb2, A: 0xff}, // blue
	color.RGBA{R: 0xe6, G: 0x9f, B: 0x00, A: 0xff}, // orange
	color.RGBA{R: 0x00, G: 0x9e, B: 0x73, A: 0xff}, // green
	color.RGBA{R: 0xcc, G: 0x79, B: 0xa7, A: 0xff}, // purple
}

// plotOdds draws one bar chart per target, each measure a series of bars, and writes
// it as PNG or SVG according to the file's extension.
func plotOdds(path string, l *loaded, odds volley.Odds) error {
	if len(odds.Targets) == 0 {
		return fmt.Errorf("nothing to plot: the action has no target")
	}
	rows := make([][]*plot.Plot, len(odds.Targets))
	for i, t := range odds.Targets {
		p, err := targetPlot(t)
		if err != nil {
			return err
		}
		if i == 0 && l.title != "" {
			p.Title.Text = l.title + "\n" + p.Title.Text
		}
		rows[i] = []*plot.Plot{p}
	}
	width := 16 * vg.Centimeter
	height := vg.Length(len(rows)) * 8 * vg.Centimeter
	canvas := newCanvas(path, width, height)
	dc := draw.New(canvas)
	tiles := draw.Tiles{Rows: len(rows), Cols: 1, PadTop: vg.Centimeter / 2, PadBottom: vg.Centimeter / 2, PadX: vg.Centimeter, PadY: vg.Centimeter}
	cells := plot.Align(rows, tiles, dc)
	for i := range rows {
		rows[i][0].Draw(cells[i][0])
	}
	return writeFile(path, canvas)
}

func targetPlot(t volley.TargetOdds) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s — destroyed %s", t.Target, pct(t.PDestroyed))
	p.Y.Label.Text = "probability"
	p.Y.Min = 0
	measures := sortedKeys(t.Distributions)
	lo, hi := 0, 0
	for _, m := range measures {
		d := t.Distributions[m]
		lo, hi = min(lo, d.Min()), max(hi, d.Max())
	}
	p.X.Label.Text = strings.Join(measures, " / ")
	labels := make([]string, hi-lo+1)
	for i := range labels {
		labels[i] = strconv.Itoa(lo + i)
	}
	p.NominalX(labels...)
	barWidth := vg.Points(40) / vg.Length(max(len(measures), 1))
	if n := len(labels); n > 12 {
		barWidth = vg.Points(240) / vg.Length(n*max(len(measures), 1))
	}
	for i, m := range measures {
		bars, err := plotter.NewBarChart(values(t.Distributions[m], lo, hi), barWidth)
		if err != nil {
			return nil, fmt.Errorf("plot: %w", err)
		}
		bars.LineStyle.Width = 0
		bars.Color = seriesColours[i%len(seriesColours)]
		bars.Offset = barWidth * vg.Length(2*i-len(measures)+1) / 2
		p.Add(bars)
		p.Legend.Add(m, bars)
	}
	p.Legend.Top = true
	top := 0.0
	for _, m := range measures {
		for _, o := range t.Distributions[m].Outcomes() {
			top = math.Max(top, o.P)
		}
	}
	p.Y.Max = top * 1.3 // head room for the legend
	return p, nil
}

func values(d dice.Dist, lo, hi int) plotter.Values {
	v := make(plotter.Values, hi-lo+1)
	for i := range v {
		v[i] = d.P(lo + i)
	}
	return v
}

func writeFile(path string, w io.WriterTo) error {
	f, err := os.Create(path)
	if err != nil {
		return volley.Errorf(volley.EINVALID, "--plot: %v", err)
	}
	if _, err := w.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
