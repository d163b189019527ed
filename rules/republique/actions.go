package republique

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// The actions of the phase. A fire is one battery, or a group or massed battery, firing
// at one unit; passing fire is the same during the enemy's movement. Save announces
// saved fire. Skirmish is one marker's fire; oppose is the phasing player's pairing of
// opposed skirmish markers. EndStep ends the current step: its simultaneous results
// take effect, and at the end of the artillery segment the leaders at risk are tested.
const (
	KindFire     = "fire"
	KindPassing  = "passing_fire"
	KindSave     = "save"
	KindSkirmish = "skirmish"
	KindOppose   = "oppose"
	KindEndStep  = "end_step"
)

// Fire is a battery, group of batteries or massed battery firing at one unit. Target
// may be left out: the main target rule then chooses it.
type Fire struct {
	Batteries []string
	Target    string
	// Passing makes it passing fire, during the enemy's movement.
	Passing bool
	// Die fixes the d10, to ask aim or odds what if (never from a player to the server).
	Die int
	// stated is what the action says of its batteries' movement (limbered, saved fire):
	// the command line's "what if", which wins over what the battle measures.
	stated map[string]stated
	// at is where each battery was named in the action: where a refusal is reported.
	at declared
}

// declared is where an action named each of its units and markers, and where it began:
// the place a refusal of that unit's shot is reported (see Refusals). The zero value
// has no places, as for an action built in code.
type declared struct {
	root scenario.Pos
	ids  map[string]scenario.Pos
}

// pos is where id was named, or the action's start.
func (d declared) pos(id string) scenario.Pos {
	if p, ok := d.ids[id]; ok {
		return p
	}
	return d.root
}

// Kind is "fire" or "passing_fire".
func (f *Fire) Kind() string {
	if f.Passing {
		return KindPassing
	}
	return KindFire
}

// Save announces that batteries save their fire.
type Save struct {
	Batteries []string
	// stated is what the action says of its batteries' movement (moved, limbered, saved
	// fire): the command line's "what if".
	stated map[string]stated
	at     declared
}

// Kind is "save".
func (*Save) Kind() string { return KindSave }

// SkirmishFire is one unopposed skirmish marker's fire at a unit.
type SkirmishFire struct {
	Marker, Target string
	Die            int
	at             declared
}

// Kind is "skirmish".
func (*SkirmishFire) Kind() string { return KindSkirmish }

// Oppose is the phasing player's pairing of opposed skirmish markers.
type Oppose struct {
	Pairs [][2]string
	at    declared
}

// Kind is "oppose".
func (*Oppose) Kind() string { return KindOppose }

// EndStep ends the current step.
type EndStep struct{}

// Kind is "end_step".
func (*EndStep) Kind() string { return KindEndStep }

type actionSpec struct {
	Type      string     `yaml:"type"`
	Batteries []string   `yaml:"batteries"`
	Target    string     `yaml:"target"`
	Marker    string     `yaml:"marker"`
	Pairs     [][]string `yaml:"pairs"`
	Die       int        `yaml:"die"`
	// What a fire or a save states of its batteries' movement, for a "what if" on the
	// command line; from edition 4 a server measures them and refuses them stated.
	Moved     map[string]bool `yaml:"moved"`
	Limbered  map[string]bool `yaml:"limbered"`
	SavedFire map[string]bool `yaml:"saved_fire"`
}

// DecodeAction decodes an action in the form of a scenario's `action:` section.
func (b *Battle) DecodeAction(doc *scenario.Doc) (volley.Action, error) {
	return rules.DecodeAction(Name, doc, b.decodeAction)
}

func (b *Battle) decodeAction(doc *scenario.Doc) (volley.Action, error) {
	switch doc.Peek("type") {
	case volley.MoveAction:
		return b.decodeMove(doc)
	case volley.DeployAction:
		return b.decodeDeploy(doc)
	case volley.EndDeployment:
		return b.table.DecodeEndDeployment(doc)
	case KindDecline:
		return b.decodeDecline(doc)
	}
	return volley.ReadAction(doc, func(s *actionSpec, errs *scenario.ErrorList) volley.Action { return b.checkAction(doc, s, errs) })
}

var kinds = []string{KindFire, KindPassing, KindSave, KindSkirmish, KindOppose, KindEndStep, volley.MoveAction, volley.DeployAction, KindDecline}

func (b *Battle) checkAction(doc *scenario.Doc, s *actionSpec, errs *scenario.ErrorList) volley.Action {
	typ := s.Type
	if typ == "" {
		typ = KindFire
	}
	if !slices.Contains(kinds, typ) {
		errs.Add(doc.At(&s.Type), "action type %q is not one of this system's: %s%s", s.Type, strings.Join(kinds, ", "), scenario.Hint(s.Type, kinds))
		return nil
	}
	only := func(allowed ...string) {
		fields := map[string]any{"batteries": &s.Batteries, "target": &s.Target, "marker": &s.Marker, "pairs": &s.Pairs, "die": &s.Die,
			"moved": &s.Moved, "limbered": &s.Limbered, "saved_fire": &s.SavedFire}
		for _, name := range []string{"batteries", "target", "marker", "pairs", "die", "moved", "limbered", "saved_fire"} {
			if !slices.Contains(allowed, name) && doc.Pos(fields[name]).IsValid() {
				errs.Add(doc.At(fields[name]), "%s: a %s action has no %s", name, typ, name)
			}
		}
	}
	if s.Die != 0 || doc.Pos(&s.Die).IsValid() {
		if doc.Refereed {
			errs.Add(doc.At(&s.Die), "die: the server rolls every die; a player may fix one only to ask aim or odds what if")
		} else if s.Die < 1 || s.Die > D10 {
			errs.Add(doc.At(&s.Die), "die: a d10 shows 1 to 10, got %d", s.Die)
		}
	}
	at := declared{root: doc.Root(), ids: map[string]scenario.Pos{}}
	switch typ {
	case KindFire, KindPassing, KindSave:
		if typ == KindSave {
			only("batteries", "moved", "limbered", "saved_fire")
		} else {
			only("batteries", "target", "die", "limbered", "saved_fire")
		}
		bats := b.checkBatteries(doc, &s.Batteries, errs)
		for i, id := range s.Batteries {
			if _, seen := at.ids[id]; !seen {
				at.ids[id] = doc.At(&s.Batteries[i])
			}
		}
		facts := b.checkStated(doc, s, bats, errs)
		if typ == KindSave {
			return &Save{Batteries: bats, stated: facts, at: at}
		}
		if s.Target != "" && b.Unit(s.Target) == nil && !b.broken[s.Target] {
			hint := scenario.Hint(s.Target, b.unitIDs())
			if b.marker(s.Target) != nil {
				hint = ": skirmish markers are not artillery targets here (see docs/rules/republique.md)"
			}
			errs.Add(doc.At(&s.Target), "no unit %q%s", s.Target, hint)
		}
		if typ == KindPassing && s.Target == "" && !doc.Pos(&s.Target).IsValid() {
			errs.Add(doc.At(s), "passing_fire: name the moving unit fired at (target)")
		}
		return &Fire{Batteries: bats, Target: s.Target, Passing: typ == KindPassing, Die: s.Die, stated: facts, at: at}
	case KindSkirmish:
		only("marker", "target", "die")
		if b.marker(s.Marker) == nil && !b.broken[s.Marker] {
			errs.Add(doc.At(&s.Marker), "no skirmish marker %q%s", s.Marker, scenario.Hint(s.Marker, b.markerIDs()))
		}
		at.ids[s.Marker] = doc.At(&s.Marker)
		if b.Unit(s.Target) == nil && !b.broken[s.Target] {
			hint := scenario.Hint(s.Target, b.unitIDs())
			if b.marker(s.Target) != nil {
				hint = ": skirmish markers cannot fire at other skirmish markers"
			}
			errs.Add(doc.At(&s.Target), "no unit %q%s", s.Target, hint)
		}
		return &SkirmishFire{Marker: s.Marker, Target: s.Target, Die: s.Die, at: at}
	case KindOppose:
		only("pairs")
		at.root = doc.At(&s.Pairs)
		o := &Oppose{at: at}
		for i := range s.Pairs {
			p := s.Pairs[i]
			if len(p) != 2 {
				errs.Add(doc.At(&s.Pairs[i]), "pairs: each pair is [marker, enemy marker]")
				continue
			}
			for j := range p {
				if b.marker(p[j]) == nil && !b.broken[p[j]] {
					errs.Add(doc.At(&s.Pairs[i][j]), "pairs: no skirmish marker %q%s", p[j], scenario.Hint(p[j], b.markerIDs()))
				}
			}
			o.Pairs = append(o.Pairs, [2]string{p[0], p[1]})
		}
		return o
	default:
		only()
		return &EndStep{}
	}
}

func (b *Battle) checkBatteries(doc *scenario.Doc, list *[]string, errs *scenario.ErrorList) []string {
	if len(*list) == 0 {
		errs.Add(doc.At(list), "batteries: name the battery, or the batteries of a group")
		return nil
	}
	if len(*list) > MaxGroup {
		errs.Add(doc.At(list), "batteries: at most %d in a group", MaxGroup)
		return nil
	}
	var out []string
	for i, id := range *list {
		u := b.Unit(id)
		switch {
		case u == nil && b.broken[id]:
			// Its own errors are reported where it is written.
		case u == nil:
			errs.Add(doc.At(&(*list)[i]), "no battery %q%s", id, scenario.Hint(id, b.unitIDs()))
		case !u.Battery():
			errs.Add(doc.At(&(*list)[i]), "%s is %s, not a battery", id, u.Kind)
		case slices.Contains(out, id):
			errs.Add(doc.At(&(*list)[i]), "battery %q is listed twice", id)
		default:
			out = append(out, id)
		}
	}
	return out
}

// checkStated reads what a fire or a save states of its batteries' movement: each a
// battery the action names. A refereed action of a battle that moves may state none of
// them: the server measures them from the moves in its log.
func (b *Battle) checkStated(doc *scenario.Doc, s *actionSpec, bats []string, errs *scenario.ErrorList) map[string]stated {
	var facts map[string]stated
	for _, f := range []struct {
		m    *map[string]bool
		key  string
		what string
		set  func(*stated, *bool)
	}{
		{&s.Moved, "moved", "whether a battery has moved this player turn (is not stationary)", func(x *stated, v *bool) { x.moved = v }},
		{&s.Limbered, "limbered", "whether a battery is limbered", func(x *stated, v *bool) { x.limbered = v }},
		{&s.SavedFire, "saved_fire", "whether a battery holds saved fire", func(x *stated, v *bool) { x.saved = v }},
	} {
		if !doc.Pos(f.m).IsValid() {
			continue
		}
		if doc.Refereed && volley.Moves(doc) && b.moves {
			volley.RefuseStated(errs, doc, f.m, f.key, f.what)
			continue
		}
		for _, id := range slices.Sorted(maps.Keys(*f.m)) {
			if !slices.Contains(bats, id) {
				if !b.broken[id] {
					errs.Add(doc.KeyPos(f.m, id), "%s: %q is not one of the action's batteries%s", f.key, id, scenario.Hint(id, bats))
				}
				continue
			}
			if facts == nil {
				facts = map[string]stated{}
			}
			v := (*f.m)[id]
			x := facts[id]
			f.set(&x, &v)
			facts[id] = x
		}
	}
	return facts
}

// Actor is the side that acts: the batteries' or marker's side, the moved or deployed
// unit's, the side that declines passing fire, the side deploying for end_deployment, or
// for oppose and end_step the phasing side.
func (b *Battle) Actor(a volley.Action) string {
	switch a := a.(type) {
	case *volley.DeploymentEnd:
		if side := b.table.DeployingSide(); side != "" {
			return side
		}
	case *Move:
		if u := b.Unit(a.Unit); u != nil {
			return u.Side
		}
	case *Deploy:
		if u := b.Unit(a.Unit); u != nil {
			return u.Side
		}
	case *Decline:
		if w := b.phase.window; w != nil {
			return w.side
		}
	case *Fire:
		if len(a.Batteries) > 0 {
			if u := b.Unit(a.Batteries[0]); u != nil {
				return u.Side
			}
		}
	case *Save:
		if len(a.Batteries) > 0 {
			if u := b.Unit(a.Batteries[0]); u != nil {
				return u.Side
			}
		}
	case *SkirmishFire:
		if m := b.marker(a.Marker); m != nil {
			return m.Side
		}
	}
	return b.phasing()
}

// Cost bounds the work of any action: every battery measures every base, marker,
// leader and terrain corner a few times.
func (b *Battle) Cost(a volley.Action) int64 {
	n := int64(len(b.markers) + len(b.leaders) + 1)
	for i := range b.units {
		n += int64(len(b.units[i].Bases))
	}
	for _, t := range b.terrain {
		n += int64(len(t.Poly) + len(t.Line))
	}
	k := int64(1)
	switch a := a.(type) {
	case *Move:
		// Each leg and each step of a turn swept against every base, then a passing fire
		// worked out for each enemy battery the move may give one.
		bats := int64(0)
		for i := range b.units {
			if b.units[i].Battery() {
				bats++
			}
		}
		return int64(len(a.Path)+360/turnStep+2)*n*n + bats*n*n*200
	case *Deploy:
		return n * n
	case *volley.DeploymentEnd:
		return 1
	case *Fire:
		k = int64(len(a.Batteries))
	case *Save:
		k = int64(len(a.Batteries))
	case *EndStep:
		k = int64(len(b.leaders) + 1)
	}
	return k * n * n * 200
}

// fmtCm writes a distance for people.
func fmtCm(x float64) string { return fmt.Sprintf("%gcm", math.Round(x*10)/10) }
