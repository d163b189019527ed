package warstrike

import (
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// Shoot is one unit's shooting action: the action it chose, and its targets with the
// models that fire at each.
type Shoot struct {
	Unit string
	// As is the action the unit chooses for it, when it has chosen none yet this turn;
	// "" keeps the one it chose, or Open Fire. From edition 4 the action is chosen with
	// the unit's move, and As is the command line's "what if", which wins.
	As      Action
	Targets []Target
	// at is where the action was written: its unit, and each target and firing model
	// by id, where a refusal is reported (see Refusals). Zero for an action built in code.
	at struct {
		unit scenario.Pos
		ids  map[string]scenario.Pos
	}
}

// Target is one target unit and the firing models given to it. With no models given,
// every armed model not given elsewhere fires at the first target it sees.
type Target struct {
	Unit   string
	Models []string
}

// Kind returns "shoot".
func (*Shoot) Kind() string { return "shoot" }

// ActingUnit is the unit that shoots.
func (s *Shoot) ActingUnit() string { return s.Unit }

// TurnEnd is the action that ends the current side's turn.
type TurnEnd = rules.TurnEnd

func mustShoot(a volley.Action) *Shoot { return rules.Must[*Shoot](Name, a) }

// shootSpec is a shooting action as written. Action is the word a move uses for the
// same choice: a player who writes it in a shot means as, and is read so (with the real
// reason where it is refused), rather than told of an unknown field.
type shootSpec struct {
	Type    string       `yaml:"type"`
	Unit    string       `yaml:"unit,required"`
	As      Action       `yaml:"as"`
	Action  Action       `yaml:"action"`
	Targets []targetSpec `yaml:"targets,required"`
}

type targetSpec struct {
	Unit   string   `yaml:"unit,required"`
	Models []string `yaml:"models"`
}

// MaxTargetsWritten is the most targets an action may list at all: a unit with its
// leader may choose two; a third is not a rule's refusal but a mistake in the action.
const MaxTargetsWritten = MaxTargetsWithLeader

// DecodeAction decodes a shooting action, or the end of a turn, in the form of a
// scenario's `action:` section.
func (b *Battle) DecodeAction(doc *scenario.Doc) (volley.Action, error) {
	return rules.DecodeAction(Name, doc, b.decodeAction)
}

func (b *Battle) decodeAction(doc *scenario.Doc) (volley.Action, error) {
	if a, ok, err := rules.DecodeTurnAction(doc, &b.turns, &b.table, b.decodeMove, b.decodeDeploy); ok {
		return a, err
	}
	a, err := volley.ReadAction(doc, func(s *shootSpec, errs *scenario.ErrorList) *Shoot { return b.checkShoot(doc, s, errs) })
	if err != nil {
		return nil, err
	}
	why := "firing models × target models × (terrain corners + convex pieces³ between them)"
	if !b.exact {
		why = "firing models × target models × (silhouette rays × terrain edges)"
	}
	if err := volley.CheckCost(doc, b, a, why); err != nil {
		return nil, err
	}
	return a, nil
}

// checkShoot resolves the names of a shooting action. What the rules refuse (an action
// that does not allow shooting, a second target without a leader) is not a mistake in
// the action: Aim says it and Resolve refuses it, naming the rule.
func (b *Battle) checkShoot(doc *scenario.Doc, s *shootSpec, errs *scenario.ErrorList) *Shoot {
	rules.CheckKind(doc, &s.Type, "shoot", errs)
	as, key := &s.As, "as"
	if doc.Pos(&s.Action).IsValid() {
		if doc.Pos(&s.As).IsValid() {
			errs.Add(doc.At(&s.Action), "action: a shot names the action it is taken as once, with as: (action: is read as as:); give one of them")
		} else {
			as, key = &s.Action, "action"
			s.As = s.Action
		}
	}
	if doc.Refereed && volley.Moves(doc) && doc.Pos(as).IsValid() {
		// The action a unit shoots with is the one it chose with its move (Actions That
		// Allow Shooting); the server reads it from the log.
		volley.RefuseStated(errs, doc, as, key, "the action a unit shoots with (chosen with its move: {type: move, unit, action})")
	}
	a := &Shoot{Unit: s.Unit, As: s.As}
	a.at.unit, a.at.ids = doc.At(&s.Unit), map[string]scenario.Pos{}
	for i := range s.Targets {
		t := &s.Targets[i]
		a.at.ids[t.Unit] = doc.At(&t.Unit)
		for j, m := range t.Models {
			a.at.ids[m] = doc.At(&t.Models[j])
		}
	}
	firer, ok := b.Unit(s.Unit)
	if !ok {
		if s.Unit != "" {
			errs.Add(doc.At(&s.Unit), "unknown unit %q%s", s.Unit, scenario.Hint(s.Unit, b.unitIDs()))
		}
		return a
	}
	if len(s.Targets) == 0 && s.Targets != nil {
		errs.Add(doc.At(&s.Targets), "targets: a shooting action has at least one target")
	}
	if len(s.Targets) > MaxTargetsWritten {
		errs.Add(doc.At(&s.Targets), "targets: a unit chooses at most %d targets (Select Your Targets)", MaxTargetsWritten)
	}
	given := map[string]bool{}
	for i := range s.Targets {
		t := &s.Targets[i]
		tg, ok := b.Unit(t.Unit)
		switch {
		case !ok:
			if t.Unit != "" {
				errs.Add(doc.At(&t.Unit), "unknown target %q%s", t.Unit, scenario.Hint(t.Unit, b.unitIDs()))
			}
			continue
		case tg == firer:
			errs.Add(doc.At(&t.Unit), "%s cannot shoot at itself", t.Unit)
			continue
		case slices.ContainsFunc(a.Targets, func(o Target) bool { return o.Unit == t.Unit }):
			errs.Add(doc.At(&t.Unit), "target %q is listed twice: give all its firing models in one entry", t.Unit)
			continue
		}
		for j, id := range t.Models {
			m, u, ok := b.Model(id)
			switch {
			case !ok || u != firer:
				errs.Add(doc.At(&t.Models[j]), "%s has no model %q%s", firer.ID, id, scenario.Hint(id, modelIDs(firer)))
			case given[id]:
				errs.Add(doc.At(&t.Models[j]), "model %q is given two targets: each model fires at one", id)
			case !m.Alive():
				errs.Add(doc.At(&t.Models[j]), "model %q is dead", id)
			}
			given[id] = true
		}
		if i < MaxTargetsWritten {
			a.Targets = append(a.Targets, Target{Unit: t.Unit, Models: t.Models})
		}
	}
	return a
}

func modelIDs(u *Unit) []string {
	ids := make([]string, len(u.Models))
	for i := range u.Models {
		ids[i] = u.Models[i].ID
	}
	return ids
}
