package main

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
)

// Grid maps are drawn in the terminal for aim and odds, and as a picture for --plot.

// boardMarks places units and the line of fire on a copy of the map's rows: the
// shooter '@', the aimed-at unit 'X', other units 'A', 'B', … in their order, and '*'
// along the line of fire where it crosses open ground.
func boardMarks(b volley.BoardView, aim *volley.Aim) (rows [][]rune, legend []string) {
	rows = make([][]rune, len(b.Rows))
	for y, r := range b.Rows {
		rows[y] = []rune(r)
	}
	if aim != nil {
		// The line of fire is drawn over open ground only, so that the terrain it
		// crosses, the wall that blocks it say, stays visible.
		open := background(b)
		for _, q := range aim.Line {
			if q.Y >= 0 && q.Y < len(rows) && q.X >= 0 && q.X < len(rows[q.Y]) && rows[q.Y][q.X] == open {
				rows[q.Y][q.X] = '*'
			}
		}
	}
	next := 'A'
	for _, u := range b.Units {
		mark := next
		switch {
		case aim != nil && u.ID == aim.Shooter:
			mark = '@'
		case aim != nil && u.ID == aim.Target:
			mark = 'X'
		default:
			if next < 'Z' {
				next++
			}
		}
		for dy := range u.Size {
			for dx := range u.Size {
				if y, x := u.Y+dy, u.X+dx; y < len(rows) && x < len(rows[y]) {
					rows[y][x] = mark
				}
			}
		}
		legend = append(legend, fmt.Sprintf("%c %s (%s)", mark, u.ID, u.Side))
	}
	return rows, legend
}

// background is the commonest symbol of the map: its open ground.
func background(b volley.BoardView) rune {
	count := map[rune]int{}
	best, n := '.', 0
	for _, row := range b.Rows {
		for _, r := range row {
			if count[r]++; count[r] > n || count[r] == n && r < best {
				best, n = r, count[r]
			}
		}
	}
	return best
}

// writeBoard draws the map with column and row numbers, the units and the line of fire.
func writeBoard(w io.Writer, b volley.BoardView, aim *volley.Aim) {
	rows, legend := boardMarks(b, aim)
	fmt.Fprintln(w, "\nMap (columns → x, rows ↓ y; * is the line of fire over open ground)")
	writeColumnNumbers(w, b.Width)
	for y, r := range rows {
		fmt.Fprintf(w, "  %3d %s\n", y, string(r))
	}
	fmt.Fprintf(w, "  units: %s\n", strings.Join(legend, ", "))
	syms := sortedKeys(b.Legend)
	var terrain []string
	for _, s := range syms {
		terrain = append(terrain, s+" "+b.Legend[s])
	}
	fmt.Fprintf(w, "  terrain: %s\n", strings.Join(terrain, ", "))
}

func writeColumnNumbers(w io.Writer, width int) {
	var tens, ones strings.Builder
	for x := range width {
		if x%10 == 0 {
			fmt.Fprintf(&tens, "%d", (x/10)%10)
		} else {
			tens.WriteByte(' ')
		}
		fmt.Fprintf(&ones, "%d", x%10)
	}
	fmt.Fprintf(w, "      %s\n      %s\n", tens.String(), ones.String())
}

// heatRamp shades landing probabilities from least to most likely.
const heatRamp = ".:-=+*%#@"

// writeHeat draws where the shot may land, shaded relative to the likeliest square, and
// lists the likeliest squares.
func writeHeat(w io.Writer, b volley.BoardView, squares []volley.SquareOdds) {
	if len(squares) == 0 {
		return
	}
	top := 0.0
	for _, s := range squares {
		top = math.Max(top, s.P)
	}
	rows := make([][]rune, b.Height)
	for y := range rows {
		rows[y] = []rune(strings.Repeat(" ", b.Width))
	}
	for _, s := range squares {
		i := int(math.Ceil(s.P/top*float64(len(heatRamp)))) - 1
		rows[s.Y][s.X] = rune(heatRamp[max(0, min(i, len(heatRamp)-1))])
	}
	fmt.Fprintf(w, "\nWhere the shot lands (%s, from least to most likely)\n", heatRamp)
	writeColumnNumbers(w, b.Width)
	for y, r := range rows {
		if strings.TrimSpace(string(r)) != "" {
			fmt.Fprintf(w, "  %3d %s\n", y, string(r))
		}
	}
	sorted := append([]volley.SquareOdds(nil), squares...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].P > sorted[j].P })
	var top5 []string
	for _, s := range sorted[:min(5, len(sorted))] {
		top5 = append(top5, fmt.Sprintf("%d,%d %s", s.X, s.Y, pct(s.P)))
	}
	fmt.Fprintf(w, "  likeliest: %s\n", strings.Join(top5, ", "))
}

// plotBoard draws the map with the landing heat-map, the units and the line of fire,
// as PNG or SVG by the file's extension.
func plotBoard(path string, l *loaded, b volley.BoardView, odds volley.Odds) error {
	cell := vg.Length(max(4, min(24, 1600/max(b.Width, b.Height, 1))))
	margin := vg.Length(24)
	width := cell*vg.Length(b.Width) + 2*margin
	height := cell*vg.Length(b.Height) + 2*margin
	canvas, dc := newPage(path, width, height)
	// Square (x, y) has its top-left corner at (margin + x·cell, top − y·cell).
	top := height - margin
	rect := func(x, y float64, w, h vg.Length) vg.Path {
		return box(margin+vg.Length(x)*cell, top-vg.Length(y)*cell-h, w, h)
	}
	for y, row := range b.Rows {
		for x, r := range []rune(row) {
			dc.SetColor(terrainColour(b.Legend[string(r)], r))
			dc.Fill(rect(float64(x), float64(y), cell, cell))
		}
	}
	peak := 0.0
	for _, s := range odds.Squares {
		peak = math.Max(peak, s.P)
	}
	for _, s := range odds.Squares {
		a := uint8(40 + 215*s.P/peak)
		dc.SetColor(color.NRGBA{R: 0xd7, G: 0x19, B: 0x1c, A: a})
		dc.Fill(rect(float64(s.X), float64(s.Y), cell, cell))
	}
	sides := map[string]color.Color{}
	sideColours := []color.Color{color.RGBA{0, 0x72, 0xb2, 0xff}, color.RGBA{0xe6, 0x9f, 0, 0xff}, color.RGBA{0, 0x9e, 0x73, 0xff}, color.RGBA{0xcc, 0x79, 0xa7, 0xff}}
	for _, u := range b.Units {
		c, ok := sides[u.Side]
		if !ok {
			c = sideColours[len(sides)%len(sideColours)]
			sides[u.Side] = c
		}
		size := cell * vg.Length(u.Size)
		dc.SetLineStyle(draw.LineStyle{Color: c, Width: vg.Points(2)})
		dc.Stroke(rect(float64(u.X), float64(u.Y), size, size))
		// The facing: a tick from the centre towards the front.
		cx := margin + (vg.Length(u.X)+vg.Length(u.Size)/2)*cell
		cy := top - (vg.Length(u.Y)+vg.Length(u.Size)/2)*cell
		rad := u.Facing * math.Pi / 180
		var p vg.Path
		p.Move(vg.Point{X: cx, Y: cy})
		p.Line(vg.Point{X: cx + size/2*vg.Length(math.Sin(rad)), Y: cy + size/2*vg.Length(math.Cos(rad))})
		dc.Stroke(p)
	}
	if len(odds.Aims) > 0 && len(odds.Aims[0].Line) > 1 {
		line := odds.Aims[0].Line
		centre := func(q geom.Square) vg.Point {
			return vg.Point{X: margin + (vg.Length(q.X)+0.5)*cell, Y: top - (vg.Length(q.Y)+0.5)*cell}
		}
		var p vg.Path
		p.Move(centre(line[0]))
		p.Line(centre(line[len(line)-1]))
		dc.SetLineStyle(draw.LineStyle{Color: color.RGBA{0xd7, 0x19, 0x1c, 0xff}, Width: vg.Points(1.5), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}})
		dc.Stroke(p)
	}
	dc.FillText(textStyle(11), vg.Point{X: margin, Y: height - margin*0.75}, cmp.Or(l.title, l.path)+" — where the shot lands")
	return writeFile(path, canvas)
}

// terrainColour shades terrain by name for the common kinds, grey otherwise.
func terrainColour(name string, r rune) color.Color {
	n := strings.ToLower(name)
	switch {
	case strings.Contains(n, "open") || strings.Contains(n, "floor") || r == '.':
		return color.RGBA{0xf4, 0xf1, 0xe8, 0xff}
	case strings.Contains(n, "bush") || strings.Contains(n, "brush") || strings.Contains(n, "grass"):
		return color.RGBA{0xc7, 0xe3, 0xa8, 0xff}
	case strings.Contains(n, "tree") || strings.Contains(n, "wood") || strings.Contains(n, "forest"):
		return color.RGBA{0x7f, 0xb8, 0x6a, 0xff}
	case strings.Contains(n, "water") || strings.Contains(n, "river"):
		return color.RGBA{0x9e, 0xc9, 0xe2, 0xff}
	case strings.Contains(n, "rubble"):
		return color.RGBA{0xc9, 0xbb, 0xa6, 0xff}
	}
	return color.RGBA{0x9a, 0x9a, 0x9a, 0xff}
}
