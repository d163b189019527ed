package volley

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/volley-wargames/volley/scenario"
)

// The end of a battle. None of volley's rule texts says when a battle is over or who won
// it: they describe shooting, and at most a turn. A scenario may give an `end:` section
// (scenario.EndSpec), volley's own and the same in every rule system: a last round, what
// destroying each unit scores, and objectives held at the end. A battle with an end is
// over when its last round has ended, when a side has no unit left, or when every side has
// offered to end it; the server then ends it by itself and reveals its seed.

// DefaultPoints is what destroying a unit, or holding an objective, scores when the
// scenario does not say.
const DefaultPoints = 1

// End is a scenario's end, read and checked against its battle.
type End struct {
	// Turns is the last round, 0 for none.
	Turns int
	// Points is what destroying each unit scores its enemies.
	Points map[string]float64
	// Objectives are in inches on a table, squares on a grid, as the battle measures.
	Objectives []Objective
	// unit is the scenario's unit of length (distances:), in which a Result reports the
	// objectives, as the battle's view reports where its units stand.
	unit scenario.Unit
}

// Objective is a place that scores for the side holding it at the end: its centre and
// radius in inches on a table or squares on a grid (End), in the scenario's own unit in
// a Result (centimetres in a battle measured in them).
type Objective struct {
	Name   string  `json:"name"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Radius float64 `json:"radius"`
	Points float64 `json:"points"`
}

// ReadEnd reads the `end:` section of a document whose battle has loaded (b), checking
// the units it names. It returns nil when the scenario has none: such a battle ends
// only when a player ends it.
func ReadEnd(doc *scenario.Doc, b Battle) (*End, error) {
	sec := doc.Section("end")
	if sec == nil {
		return nil, nil
	}
	var spec scenario.EndSpec
	if err := sec.Decode(&spec); err != nil {
		return nil, err
	}
	return CheckEnd(sec, &spec, b)
}

// CheckEnd checks an end section decoded from doc against the battle's units and sides,
// and returns the End it describes. Every problem is reported, at its place.
func CheckEnd(doc *scenario.Doc, spec *scenario.EndSpec, b Battle) (*End, error) {
	e, errs := checkEnd(doc, spec, b)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return e, nil
}

// EndProblems reports what is wrong in the end section of a document whose battle did
// not load, as far as it can be told without the battle: a negative last round, points
// out of range, an objective named twice or without a radius. What needs the battle (the
// units points name, whether it keeps turns, a grid's squares) waits until it loads.
// Errors of decoding are left out: the rule system's loader reports those. So a scenario
// author sees every mistake of a file at once, not this section's after the others'.
func EndProblems(doc *scenario.Doc) scenario.ErrorList {
	sec, spec := scenario.DecodeAnyway[scenario.EndSpec](doc, "end")
	if sec == nil {
		return nil
	}
	_, errs := checkEnd(sec, spec, nil)
	return errs
}

// checkEnd is CheckEnd's work; with b nil, it checks only what needs no battle.
func checkEnd(doc *scenario.Doc, spec *scenario.EndSpec, b Battle) (*End, scenario.ErrorList) {
	var errs scenario.ErrorList
	var ids []string
	if b != nil {
		st := b.State()
		for _, u := range st.Units {
			ids = append(ids, u.ID)
		}
		if spec.Turns > 0 && st.Turn == nil {
			errs.Add(doc.At(&spec.Turns), "end: turns: this battle keeps no turns, so it has no last round")
		}
	}
	if spec.Turns < 0 {
		errs.Add(doc.At(&spec.Turns), "end: turns: the last round counts from 1 (0 or left out: no last round)")
	}
	e := &End{Turns: spec.Turns, Points: map[string]float64{}, unit: doc.Unit()}
	dflt := float64(DefaultPoints)
	if spec.Destroyed != nil {
		dflt = *spec.Destroyed
		if !finitePoints(dflt) {
			errs.Add(doc.At(spec.Destroyed), "end: destroyed: points are a number from 0 to %g", maxPoints)
		}
	}
	for _, id := range ids {
		e.Points[id] = dflt
	}
	for _, id := range slices.Sorted(maps.Keys(spec.Points)) {
		p := spec.Points[id]
		if b != nil && !slices.Contains(ids, id) {
			errs.Add(doc.KeyPos(&spec.Points, id), "end: points: no unit %q%s", id, scenario.Hint(id, ids))
			continue
		}
		if !finitePoints(p) {
			errs.Add(doc.KeyPos(&spec.Points, id), "end: points: %s: points are a number from 0 to %g", id, maxPoints)
		}
		e.Points[id] = p
	}
	_, grid := b.(Board)
	names := map[string]bool{}
	for i := range spec.Objectives {
		o := &spec.Objectives[i]
		if names[o.Name] {
			errs.Add(doc.At(&o.Name), "end: objectives: %q is named twice", o.Name)
		}
		names[o.Name] = true
		pts := float64(DefaultPoints)
		if o.Points != nil {
			pts = *o.Points
			if !finitePoints(pts) {
				errs.Add(doc.At(o.Points), "end: objectives: %s: points are a number from 0 to %g", o.Name, maxPoints)
			}
		}
		r := o.Radius.Inches()
		if !(r > 0) {
			errs.Add(doc.At(&o.Radius), "end: objectives: %s: radius must be above 0", o.Name)
		}
		if grid && (o.At.X != math.Trunc(o.At.X) || o.At.Y != math.Trunc(o.At.Y) || r != math.Trunc(r)) {
			errs.Add(doc.At(&o.At), "end: objectives: %s: on a grid map an objective is a square [column, row] and its radius counts squares", o.Name)
		}
		e.Objectives = append(e.Objectives, Objective{Name: o.Name, X: o.At.X, Y: o.At.Y, Radius: r, Points: pts})
	}
	return e, errs
}

// inUnit is a length in inches in the scenario's unit, to a millionth: a scenario's 61cm
// is reported as 61, not as the 61.00000000000001 a round trip through inches makes.
func (e *End) inUnit(inches float64) float64 {
	return math.Round(scenario.Length(inches).In(e.unit)*1e6) / 1e6
}

// maxPoints bounds the points a scenario gives, so that every score is a plain number.
const maxPoints = 1e6

func finitePoints(p float64) bool { return p >= 0 && p <= maxPoints }

// Result is how a battle stands, or how it ended: each side's score and, once it is
// over, why and who won.
type Result struct {
	// Over is true once the battle has ended by its scenario's end, or by agreement.
	Over bool `json:"over"`
	// Reason says why it is over, in words: "round 4 has ended", "Scourge has no unit
	// left", "both sides agreed".
	Reason string `json:"reason,omitempty"`
	// Round is the last round played, where the battle keeps count.
	Round int `json:"round,omitempty"`
	// LastRound is the scenario's last round, 0 for none.
	LastRound int `json:"last_round,omitempty"`
	// Scores are each side's points: for enemies destroyed and objectives held now.
	Scores map[string]float64 `json:"scores"`
	// Winner is the side with the highest score once the battle is over; "" for a draw
	// (and while it is not over).
	Winner string `json:"winner,omitempty"`
	// Objectives say who holds each objective now ("" for nobody).
	Objectives []HeldObjective `json:"objectives,omitempty"`
	// Offers are the sides that have offered to end the battle since the last action.
	Offers []string `json:"offers,omitempty"`
}

// HeldObjective is an objective and the side that holds it.
type HeldObjective struct {
	Objective
	Held string `json:"held,omitempty"`
}

// Score says how a battle stands under e: each side's points, the objectives held, and
// whether it is over (then why, and who won). offers are the sides that have offered to
// end the battle.
func (e *End) Score(b Battle, offers []string) Result {
	st := b.State()
	sides := Sides(st)
	r := Result{Scores: map[string]float64{}, LastRound: e.Turns, Offers: slices.Clone(offers)}
	for _, s := range sides {
		r.Scores[s] = 0
	}
	alive := map[string]int{}
	for _, u := range st.Units {
		if !u.Destroyed {
			alive[u.Side]++
			continue
		}
		for _, s := range sides {
			if s != u.Side {
				r.Scores[s] += e.Points[u.ID]
			}
		}
	}
	held := e.held(b, st)
	for i, o := range e.Objectives {
		shown := o
		if _, grid := b.(Board); !grid {
			shown.X, shown.Y, shown.Radius = e.inUnit(o.X), e.inUnit(o.Y), e.inUnit(o.Radius)
		}
		r.Objectives = append(r.Objectives, HeldObjective{Objective: shown, Held: held[i]})
		if held[i] != "" {
			r.Scores[held[i]] += o.Points
		}
	}
	if st.Turn != nil {
		r.Round = st.Turn.Number
	}
	switch {
	case e.Turns > 0 && st.Turn != nil && st.Turn.Number > e.Turns:
		r.Over, r.Round = true, e.Turns
		r.Reason = fmt.Sprintf("round %d, the last, has ended", e.Turns)
	case len(sides) > 1 && len(alive) < len(sides):
		var gone []string
		for _, s := range sides {
			if alive[s] == 0 {
				gone = append(gone, s)
			}
		}
		r.Over = true
		r.Reason = strings.Join(gone, " and ") + " has no unit left"
		if len(gone) > 1 {
			r.Reason = strings.Join(gone, " and ") + " have no unit left"
		}
	case len(sides) > 0 && len(offers) == len(sides):
		r.Over = true
		r.Reason = "every side agreed to end the battle"
	}
	if r.Over {
		r.Winner = winner(r.Scores)
	}
	return r
}

// winner is the side with the highest score, or "" when two share it.
func winner(scores map[string]float64) string {
	best, who, tie := math.Inf(-1), "", false
	for _, s := range slices.Sorted(maps.Keys(scores)) {
		switch p := scores[s]; {
		case p > best:
			best, who, tie = p, s, false
		case p == best:
			tie = true
		}
	}
	if tie {
		return ""
	}
	return who
}

// held says which side holds each objective: the side with the most units not destroyed
// within its radius (a unit of several models or bases is within when any of them is),
// none on a tie.
func (e *End) held(b Battle, st State) []string {
	out := make([]string, len(e.Objectives))
	if len(e.Objectives) == 0 {
		return out
	}
	unitSide := map[string]string{}
	for _, u := range st.Units {
		if !u.Destroyed {
			unitSide[u.ID] = u.Side
		}
	}
	// within[i] holds the units within objective i.
	within := make([]map[string]bool, len(e.Objectives))
	for i := range within {
		within[i] = map[string]bool{}
	}
	mark := func(owner string, near func(o Objective) bool) {
		if _, ok := unitSide[owner]; !ok {
			return
		}
		for i, o := range e.Objectives {
			if near(o) {
				within[i][owner] = true
			}
		}
	}
	if g, ok := b.(Board); ok {
		for _, u := range g.Board().Units {
			mark(u.ID, func(o Objective) bool {
				return math.Max(math.Abs(float64(u.X)-o.X), math.Abs(float64(u.Y)-o.Y)) <= o.Radius
			})
		}
	} else if t, ok := b.(Table); ok {
		tv := t.Table()
		k := scenario.Inches(1).In(scenario.Unit(tv.Unit)) // the view's unit per inch
		for _, u := range tv.Units {
			if !u.Placed || u.Destroyed {
				continue
			}
			owner := u.ID
			if _, ok := unitSide[owner]; !ok {
				owner = u.Squad
			}
			pts := [][2]float64{{u.X, u.Y}}
			for _, base := range u.Bases {
				pts = append(pts, base[:]...)
			}
			mark(owner, func(o Objective) bool {
				for _, p := range pts {
					if math.Hypot(p[0]/k-o.X, p[1]/k-o.Y) <= o.Radius {
						return true
					}
				}
				return false
			})
		}
	}
	for i := range e.Objectives {
		count := map[string]int{}
		for id := range within[i] {
			count[unitSide[id]]++
		}
		best, tie := 0, false
		for _, s := range slices.Sorted(maps.Keys(count)) {
			switch n := count[s]; {
			case n > best:
				best, out[i], tie = n, s, false
			case n == best:
				tie = true
			}
		}
		if tie {
			out[i] = ""
		}
	}
	return out
}

// Sides lists the sides of a state's units, in the order they first appear.
func Sides(st State) []string {
	var sides []string
	for _, u := range st.Units {
		if !slices.Contains(sides, u.Side) {
			sides = append(sides, u.Side)
		}
	}
	return sides
}
