package republique

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/volley-wargames/volley/scenario"
)

// The Combat Chart's Artillery, Skirmishers and Leader Injury sections are referred to
// by the phase's text but not printed in it, so they are data: a scenario names a charts
// file beside it (examples/republique/sample-charts.yaml is a labelled sample) or writes
// the charts in place, as a scenario posted to the server must.

// Hits is one cell of the artillery chart: the morale hits and base hits a target
// suffers. Written "M/B" ("1/0", "2/1") or "-" for no effect.
type Hits struct{ Morale, Bases int }

// DecodeScalar reads "M/B" or "-".
func (h *Hits) DecodeScalar(s scenario.Scalar) error {
	t := strings.TrimSpace(s.Text)
	if t == "-" || t == "0" {
		*h = Hits{}
		return nil
	}
	m, b, ok := strings.Cut(t, "/")
	mi, err1 := strconv.Atoi(strings.TrimSpace(m))
	bi, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || mi < 0 || bi < 0 || mi > MaxHits || bi > MaxHits {
		return fmt.Errorf(`want "morale/bases" such as "1/0", or "-" for no effect, got %q`, s.Text)
	}
	*h = Hits{mi, bi}
	return nil
}

// String writes h as it is read.
func (h Hits) String() string {
	if h == (Hits{}) {
		return "-"
	}
	return fmt.Sprintf("%d/%d", h.Morale, h.Bases)
}

// Any reports whether the cell does anything.
func (h Hits) Any() bool { return h.Morale > 0 || h.Bases > 0 }

// Charts are the combat chart's sections this phase reads.
type Charts struct {
	// Sample says the charts are sample data, and why; tools show it.
	Sample string `yaml:"sample"`
	// Distances is the unit of the charts' own distances when they are in a file of
	// their own ("cm"); in place they take the scenario's.
	Distances scenario.Unit `yaml:"distances"`
	// Ranges are the range lines: per gun type, the brackets from nearest to furthest,
	// each reaching To and giving Points fire points.
	Ranges map[string][]Bracket `yaml:"ranges"`
	// Artillery is the artillery fire chart.
	Artillery ArtilleryChart `yaml:"artillery"`
	// Skirmish is the skirmishers' chart.
	Skirmish SkirmishChart `yaml:"skirmish"`
	// LeaderInjury is the leader injury chart: the modified d10 gives killed, injured or
	// unhurt.
	LeaderInjury []InjuryRow `yaml:"leader_injury"`
	// GoodArtilleryLeader is the die modifier of a good artillery leader attached to the
	// firing batteries, which the text names without a value.
	GoodArtilleryLeader *int `yaml:"good_artillery_leader"`
}

// Bracket is one range bracket of a gun's range line.
type Bracket struct {
	Name   string          `yaml:"name"`
	To     scenario.Length `yaml:"to,required"`
	Points float64         `yaml:"points,required"`
}

// ArtilleryChart cross-indexes fire points with the modified d10. Columns are the
// lowest fire points of each column, ascending; a total below the first has no column
// and cannot hit. Rows give each modified die result's cells, one per column; a result
// below the lowest row reads the lowest, above the highest reads the highest.
type ArtilleryChart struct {
	Columns []float64      `yaml:"columns,required"`
	Rows    []ArtilleryRow `yaml:"rows,required"`
}

// ArtilleryRow is one modified die result's line of the artillery chart.
type ArtilleryRow struct {
	Die  int    `yaml:"die,required"`
	Hits []Hits `yaml:"hits,required"`
}

// SkirmishChart gives the skirmishers' range limits and, per range and d10, the morale
// hits scored.
type SkirmishChart struct {
	Ranges []SkirmishRange `yaml:"ranges"`
	Rows   []SkirmishRow   `yaml:"rows,required"`
}

// SkirmishRange is one range column: up to To.
type SkirmishRange struct {
	Name string          `yaml:"name,required"`
	To   scenario.Length `yaml:"to,required"`
}

// SkirmishRow is one d10 result: the morale hits per range column.
type SkirmishRow struct {
	Die    int   `yaml:"die,required"`
	Morale []int `yaml:"morale,required"`
}

// InjuryRow is one modified d10 result of the leader injury chart.
type InjuryRow struct {
	Die    int    `yaml:"die,required"`
	Result Injury `yaml:"result,required"`
}

// Injury is what the leader injury test does to a leader.
type Injury string

// The leader injury results. Killed and injured leaders leave the table.
const (
	Unhurt  Injury = "unhurt"
	Injured Injury = "injured"
	Killed  Injury = "killed"
)

// DecodeScalar reads unhurt, injured or killed.
func (r *Injury) DecodeScalar(s scenario.Scalar) error {
	return scenario.DecodeWord(r, s, Unhurt, Injured, Killed)
}

// chartsSpec is the charts as written: a file, or the charts in place.
type chartsSpec struct {
	File   string `yaml:"file"`
	Charts `yaml:",inline"`
}

// loadCharts reads the charts, from their file if one is named. The errors of a charts
// file point into it.
func loadCharts(doc *scenario.Doc, c *chartsSpec, errs *scenario.ErrorList) *Charts {
	inPlace := c.Ranges != nil || c.Artillery.Rows != nil || c.Skirmish.Rows != nil || c.LeaderInjury != nil
	return scenario.InPlaceOrBeside(doc, &c.File, &c.Charts, inPlace, "charts", errs, checkCharts)
}

// checkCharts orders and bounds the charts. It reports whether they can be used.
func checkCharts(doc *scenario.Doc, c *Charts, errs *scenario.ErrorList) bool {
	before := len(*errs)
	for _, g := range slices.Sorted(maps.Keys(c.Ranges)) {
		line := c.Ranges[g]
		if len(line) == 0 || len(line) > MaxBrackets {
			errs.Add(doc.KeyPos(&c.Ranges, g), "ranges: %q needs 1 to %d brackets", g, MaxBrackets)
			continue
		}
		for i := range line {
			b := &line[i]
			if b.Name == "" {
				b.Name = fmt.Sprintf("bracket %d", i+1)
			}
			if b.To.In(scenario.Centimetre) > MaxDistance || b.To <= 0 {
				errs.Add(doc.At(&b.To), "ranges: %q: a bracket reaches between 0 and %gcm", g, MaxDistance)
			}
			if i > 0 && b.To <= line[i-1].To {
				errs.Add(doc.At(&b.To), "ranges: %q: brackets go from nearest to furthest", g)
			}
			if b.Points < 0 || b.Points > 1000 {
				errs.Add(doc.At(&b.Points), "ranges: %q: fire points lie between 0 and 1000", g)
			}
		}
	}
	a := &c.Artillery
	if a.Rows != nil && len(a.Columns) == 0 || len(a.Columns) > 40 {
		errs.Add(doc.At(&a.Columns), "artillery: columns: 1 to 40 columns")
	}
	for i := range a.Columns {
		if a.Columns[i] <= 0 || i > 0 && a.Columns[i] <= a.Columns[i-1] {
			errs.Add(doc.At(&a.Columns[i]), "artillery: columns: the fire points of each column are above 0 and rise")
		}
	}
	checkRows(doc, &a.Rows, len(a.Rows), func(i int) (*int, int) { return &a.Rows[i].Die, len(a.Rows[i].Hits) }, len(a.Columns), "artillery", errs)
	s := &c.Skirmish
	if s.Rows != nil && len(s.Ranges) == 0 || len(s.Ranges) > MaxBrackets {
		errs.Add(doc.At(&s.Ranges), "skirmish: ranges: 1 to %d", MaxBrackets)
	}
	for i := range s.Ranges {
		if s.Ranges[i].To <= 0 || i > 0 && s.Ranges[i].To <= s.Ranges[i-1].To || s.Ranges[i].To.In(scenario.Centimetre) > MaxDistance {
			errs.Add(doc.At(&s.Ranges[i].To), "skirmish: ranges go from nearest to furthest, within %gcm", MaxDistance)
		}
	}
	checkRows(doc, &s.Rows, len(s.Rows), func(i int) (*int, int) { return &s.Rows[i].Die, len(s.Rows[i].Morale) }, len(s.Ranges), "skirmish", errs)
	for i := range s.Rows {
		for j, m := range s.Rows[i].Morale {
			if m < 0 || m > MaxHits {
				errs.Add(doc.At(&s.Rows[i].Morale[j]), "skirmish: morale hits lie between 0 and %d", MaxHits)
			}
		}
	}
	checkRows(doc, &c.LeaderInjury, len(c.LeaderInjury), func(i int) (*int, int) { return &c.LeaderInjury[i].Die, -1 }, -1, "leader_injury", errs)
	if c.GoodArtilleryLeader != nil && (*c.GoodArtilleryLeader < -D10 || *c.GoodArtilleryLeader > D10) {
		errs.Add(doc.At(c.GoodArtilleryLeader), "good_artillery_leader: a die modifier within ±%d", D10)
	}
	var missing []string
	for _, m := range []struct {
		name string
		ok   bool
	}{{"ranges", c.Ranges != nil}, {"artillery", c.Artillery.Rows != nil}, {"skirmish", c.Skirmish.Rows != nil},
		{"leader_injury", c.LeaderInjury != nil}, {"good_artillery_leader", c.GoodArtilleryLeader != nil}} {
		if !m.ok {
			missing = append(missing, m.name)
		}
	}
	if len(missing) > 0 {
		errs.Add(doc.At(c), "charts: missing %s (see examples/republique/sample-charts.yaml)", strings.Join(missing, ", "))
	}
	return len(*errs) == before
}

// checkRows checks that a chart's rows run one die result at a time, upward, with one
// cell per column (cells < 0: the rows have no columns).
func checkRows(doc *scenario.Doc, list any, n int, row func(i int) (*int, int), cols int, name string, errs *scenario.ErrorList) {
	if n > MaxChartRows {
		errs.Add(doc.At(list), "%s: at most %d rows", name, MaxChartRows)
		return
	}
	if n == 0 && doc.Pos(list).IsValid() {
		errs.Add(doc.At(list), "%s: a chart has rows", name)
	}
	for i := range n {
		die, cells := row(i)
		if *die < -50 || *die > 50 {
			errs.Add(doc.At(die), "%s: a row's die result lies within ±50", name)
		}
		if i > 0 {
			prev, _ := row(i - 1)
			if *die != *prev+1 {
				errs.Add(doc.At(die), "%s: rows go up one die result at a time (after %d comes %d)", name, *prev, *prev+1)
			}
		}
		if cols >= 0 && cells != cols {
			errs.Add(doc.At(die), "%s: the row for %d has %d cells, one per column (%d)", name, *die, cells, cols)
		}
	}
}

// rowIndex finds the row a modified die reads: clamped to the chart's first and last.
func rowIndex(first, n, die int) int { return min(max(die-first, 0), n-1) }

// column is the artillery chart's column for a fire point total, or -1 below the first.
func (a *ArtilleryChart) column(points float64) int {
	c := -1
	for i, lo := range a.Columns {
		if points >= lo {
			c = i
		}
	}
	return c
}

// cell reads the artillery chart.
func (a *ArtilleryChart) cell(points float64, die int) Hits {
	c := a.column(points)
	if c < 0 {
		return Hits{}
	}
	return a.Rows[rowIndex(a.Rows[0].Die, len(a.Rows), die)].Hits[c]
}

// bracket is the skirmish chart's range column for a distance in cm, or -1 beyond.
func (s *SkirmishChart) bracket(cm float64) int {
	for i, r := range s.Ranges {
		if cm <= r.To.In(scenario.Centimetre)+1e-9 {
			return i
		}
	}
	return -1
}

// morale reads the skirmish chart.
func (s *SkirmishChart) morale(bracket, die int) int {
	return s.Rows[rowIndex(s.Rows[0].Die, len(s.Rows), die)].Morale[bracket]
}

// injury reads the leader injury chart.
func (c *Charts) injury(die int) Injury {
	return c.LeaderInjury[rowIndex(c.LeaderInjury[0].Die, len(c.LeaderInjury), die)].Result
}

// bracketOf is a gun's range bracket for a distance in cm, or -1 beyond its range line.
func (c *Charts) bracketOf(gun string, cm float64) int {
	for i, b := range c.Ranges[gun] {
		if cm <= b.To.In(scenario.Centimetre)+1e-9 {
			return i
		}
	}
	return -1
}

// maxRange is how far a gun's range line reaches, in cm.
func (c *Charts) maxRange(gun string) float64 {
	line := c.Ranges[gun]
	if len(line) == 0 {
		return 0
	}
	return line[len(line)-1].To.In(scenario.Centimetre)
}
