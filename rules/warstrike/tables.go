package warstrike

import (
	"fmt"
	"maps"
	"slices"

	"github.com/volley-wargames/volley/scenario"
)

// tablesSpec is the tables: written inline, or in a file named by file (relative to the
// scenario), such as examples/warstrike/sample-tables.yaml.
type tablesSpec struct {
	File   string `yaml:"file"`
	Tables `yaml:",inline"`
}

// Tables are what the text's shooting sequence refers to without printing: the weapon
// profiles, the concealment and long range modifiers, and how a weapon's penetration and
// kill values meet a target's armour and toughness. A roll succeeds on its need or more
// on one die of Die faces.
type Tables struct {
	Sample string `yaml:"sample"`
	// Die is the number of faces of every die rolled; 6 by default.
	Die int `yaml:"die"`
	// TopAlwaysSucceeds makes the die's highest face succeed whatever the need (true by
	// default), so a modified need above the die is still possible; OneAlwaysFails makes
	// a 1 fail (true by default). Neither makes possible what a table calls impossible.
	TopAlwaysSucceeds *bool `yaml:"top_always_succeeds"`
	OneAlwaysFails    *bool `yaml:"one_always_fails"`
	// Weapons are the profiles models carry, by name.
	Weapons map[string]*Weapon `yaml:"weapons"`
	// Concealment are modifiers to the to-hit need when a condition holds of the target
	// model (Check For Concealment).
	Concealment Concealment `yaml:"concealment"`
	// LongRange adds to the to-hit need beyond a fraction of the weapon's range (Check
	// Range); nil: no long range.
	LongRange *LongRange `yaml:"long_range"`
	// Penetrate gives the need to penetrate by the weapon's penetration less the target's
	// armour (Roll To Penetrate); Kill by its kill value less the toughness (Roll To Kill).
	Penetrate NeedTable `yaml:"penetrate"`
	Kill      NeedTable `yaml:"kill"`
	// Suppression is the markers a target unit gains from being shot at.
	Suppression Suppression `yaml:"suppression"`
	// Moves is how far each model of a unit may move in a turn with each action, by the
	// action's key (advance: 6). The text names the actions without their distances, so
	// they are data; an action not listed moves nothing. Units may say otherwise
	// (a unit's moves:).
	Moves map[string]scenario.Length `yaml:"moves"`
	// moves is Moves checked, by action, in inches.
	moves map[Action]float64
}

// Weapon is a weapon profile.
type Weapon struct {
	Range scenario.Length `yaml:"range,required"`
	// Shots is the dice to hit one model rolls per shooting action.
	Shots int `yaml:"shots,required"`
	// ToHit is the need to hit before modifiers.
	ToHit       int `yaml:"to_hit,required"`
	Penetration int `yaml:"penetration"`
	Kill        int `yaml:"kill"`
}

// Concealment is the to-hit modifiers of a target model's concealment.
type Concealment struct {
	// Stack adds every modifier that applies; by default only the largest applies.
	Stack     bool                  `yaml:"stack"`
	Modifiers []ConcealmentModifier `yaml:"modifiers"`
}

// ConcealmentModifier adds Modifier to the need when When holds.
type ConcealmentModifier struct {
	When     string `yaml:"when,required"`
	Modifier int    `yaml:"modifier,required"`
}

// The conditions a concealment modifier may name.
const (
	// InAreaTerrain: the target model's base is at least partly within area terrain, or
	// on a roof.
	InAreaTerrain = "in_area_terrain"
	// ThroughAreaTerrain: area terrain would hide the target but for the sight distance.
	ThroughAreaTerrain = "through_area_terrain"
	// PartlyVisible: solid terrain hides some of the target's silhouette samples.
	PartlyVisible = "partly_visible"
)

var conditions = []string{InAreaTerrain, ThroughAreaTerrain, PartlyVisible}

// LongRange is the long range modifier: beyond Beyond times the weapon's range, the
// need to hit goes up by Modifier.
type LongRange struct {
	Beyond   float64 `yaml:"beyond,required"`
	Modifier int     `yaml:"modifier,required"`
}

// NeedTable gives a need by a difference: Needs[0] is the need at Lowest, Needs[1] at
// Lowest+1, and so on; a difference above the last uses the last, and one below Lowest
// cannot succeed.
type NeedTable struct {
	Lowest int   `yaml:"lowest"`
	Needs  []int `yaml:"needs"`
}

// need is the need at difference d, and false when the roll cannot succeed.
func (t *NeedTable) need(d int) (int, bool) {
	if len(t.Needs) == 0 {
		return 0, true // no table: every hit goes through
	}
	if d < t.Lowest {
		return 0, false
	}
	return t.Needs[min(d-t.Lowest, len(t.Needs)-1)], true
}

// Suppression says how many markers a unit gains from a shooting action at it: Markers
// once if it took at least one From (hit, penetration, kill or shot_at, the last for
// being shot at whatever the result), or Markers for each when Each is set.
type Suppression struct {
	From    string `yaml:"from"`
	Markers int    `yaml:"markers"`
	Each    bool   `yaml:"each"`
}

// What a suppression entry counts.
const (
	FromHit         = "hit"
	FromPenetration = "penetration"
	FromKill        = "kill"
	FromShotAt      = "shot_at"
)

// Defaults of the tables.
const DefaultDie = 6

// loadTables reads the tables, from their file if one is named (see scenario.Doc.Open
// for which files a scenario may name). The errors of a tables file point into it.
func loadTables(doc *scenario.Doc, t *tablesSpec, errs *scenario.ErrorList) *Tables {
	inPlace := t.Weapons != nil || t.Die != 0 || t.Penetrate.Needs != nil || t.Kill.Needs != nil || t.Moves != nil
	return scenario.InPlaceOrBeside(doc, &t.File, &t.Tables, inPlace, "tables", errs, func(d *scenario.Doc, tables *Tables, errs *scenario.ErrorList) bool {
		checkTables(d, tables, errs)
		return true
	})
}

// checkTables bounds the tables' numbers and fills in their defaults.
func checkTables(doc *scenario.Doc, t *Tables, errs *scenario.ErrorList) {
	if t.Die == 0 {
		t.Die = DefaultDie
	}
	if t.Die < 2 || t.Die > MaxDie {
		errs.Add(doc.At(&t.Die), "die: want 2 to %d faces", MaxDie)
		t.Die = DefaultDie
	}
	bound := func(v *int, what string) {
		if *v < -MaxDie || *v > 2*MaxDie {
			errs.Add(doc.At(v), "%s: must lie between %d and %d", what, -MaxDie, 2*MaxDie)
			*v = 0
		}
	}
	for _, name := range slices.Sorted(maps.Keys(t.Weapons)) {
		w := t.Weapons[name]
		if w == nil {
			errs.Add(doc.KeyPos(&t.Weapons, name), "weapons: %q needs range, shots and to_hit", name)
			delete(t.Weapons, name)
			continue
		}
		if w.Range <= 0 || w.Range > MaxDistance {
			errs.Add(doc.At(&w.Range), "weapon %q: range must lie above 0 and at most %d", name, MaxDistance)
		}
		if w.Shots < 1 || w.Shots > MaxShots {
			errs.Add(doc.At(&w.Shots), "weapon %q: shots must lie between 1 and %d", name, MaxShots)
			w.Shots = 1
		}
		bound(&w.ToHit, "weapon "+name+": to_hit")
		bound(&w.Penetration, "weapon "+name+": penetration")
		bound(&w.Kill, "weapon "+name+": kill")
	}
	for i := range t.Concealment.Modifiers {
		m := &t.Concealment.Modifiers[i]
		if !slices.Contains(conditions, m.When) && m.When != "" {
			errs.Add(doc.At(&m.When), "concealment: unknown condition %q%s", m.When, scenario.Hint(m.When, conditions))
		}
		bound(&m.Modifier, "concealment: modifier")
	}
	if l := t.LongRange; l != nil {
		if !(l.Beyond > 0 && l.Beyond <= 1) {
			errs.Add(doc.At(&l.Beyond), "long_range: beyond is a fraction of the weapon's range, above 0 and at most 1")
			l.Beyond = 1
		}
		bound(&l.Modifier, "long_range: modifier")
	}
	for _, nt := range []*NeedTable{&t.Penetrate, &t.Kill} {
		bound(&nt.Lowest, "lowest")
		if len(nt.Needs) > 2*MaxDie {
			errs.Add(doc.At(&nt.Needs), "needs: at most %d entries", 2*MaxDie)
			nt.Needs = nil
		}
		for j := range nt.Needs {
			if nt.Needs[j] < 1 || nt.Needs[j] > t.Die+1 {
				errs.Add(doc.At(&nt.Needs[j]), "needs: a need lies between 1 and %d (the die's faces, or one more for a roll only the top face makes)", t.Die+1)
				nt.Needs[j] = t.Die
			}
		}
	}
	t.moves = checkMoves(doc, t.Moves, &t.Moves, "moves", errs)
	s := &t.Suppression
	switch s.From {
	case "":
		s.From = FromHit
	case FromHit, FromPenetration, FromKill, FromShotAt:
	default:
		errs.Add(doc.At(&s.From), "suppression: from: want hit, penetration, kill or shot_at, got %q", s.From)
		s.From = FromHit
	}
	if s.Markers < 0 || s.Markers > MaxMarkers {
		errs.Add(doc.At(&s.Markers), "suppression: markers must lie between 0 and %d", MaxMarkers)
		s.Markers = 0
	}
}

// checkMoves checks a table of move distances by action (at ptr, for errors) and returns
// it by action, in inches.
func checkMoves(doc *scenario.Doc, m map[string]scenario.Length, ptr any, what string, errs *scenario.ErrorList) map[Action]float64 {
	out := map[Action]float64{}
	for _, key := range slices.Sorted(maps.Keys(m)) {
		var a Action
		if err := a.DecodeScalar(scenario.Scalar{Text: key}); err != nil {
			errs.Add(doc.KeyPos(ptr, key), "%s: %v", what, err)
			continue
		}
		if d := m[key]; d < 0 || d > MaxDistance {
			errs.Add(doc.KeyPos(ptr, key), "%s: %s: a distance from 0 to %d", what, key, MaxDistance)
			continue
		}
		out[a] = m[key].Inches()
	}
	return out
}

// topSucceeds and oneFails are the natural-roll rules in force.
func (t *Tables) topSucceeds() bool { return t.TopAlwaysSucceeds == nil || *t.TopAlwaysSucceeds }
func (t *Tables) oneFails() bool    { return t.OneAlwaysFails == nil || *t.OneAlwaysFails }

// chance is the probability that one die makes need, with the natural-roll rules.
func (t *Tables) chance(need int) float64 {
	return float64(t.faces(need)) / float64(t.Die)
}

// faces is how many faces of the die make need.
func (t *Tables) faces(need int) int {
	n := 0
	for f := 1; f <= t.Die; f++ {
		if t.succeeds(f, need) {
			n++
		}
	}
	return n
}

// succeeds reports whether a roll of face makes need.
func (t *Tables) succeeds(face, need int) bool {
	switch {
	case face == t.Die && t.topSucceeds():
		return true
	case face == 1 && t.oneFails():
		return false
	}
	return face >= need
}

// needWords is a need as a player says it: "4+", or "6 (only a natural 6)".
func (t *Tables) needWords(need int) string {
	if need > t.Die {
		if t.topSucceeds() {
			return fmt.Sprintf("%d+ (only a natural %d)", need, t.Die)
		}
		return fmt.Sprintf("%d+ (impossible)", need)
	}
	return fmt.Sprintf("%d+", max(need, 1))
}
