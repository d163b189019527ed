package toy

import (
	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// The toy's actions: its own shot, and the engine's move, deployment and ends of a turn
// and of a deployment (rules.DecodeOpenTurnAction: a volley.PathMove, a volley.Placing).

// Shot is a token's shot at an enemy token.
type Shot struct{ Unit, Target string }

// Kind returns "shoot".
func (*Shot) Kind() string { return "shoot" }

// ActingUnit is the token that shoots.
func (s *Shot) ActingUnit() string { return s.Unit }

type shotSpec struct {
	Type   string `yaml:"type"`
	Unit   string `yaml:"unit,required"`
	Target string `yaml:"target,required"`
}

// DecodeAction decodes an action in the form of a scenario's `action:` section.
func (b *Battle) DecodeAction(doc *scenario.Doc) (volley.Action, error) {
	return rules.DecodeAction(Name, doc, b.decodeAction)
}

func (b *Battle) decodeAction(doc *scenario.Doc) (volley.Action, error) {
	if a, ok, err := rules.DecodeOpenTurnAction(doc, &b.turns, &b.table, scenario.Inch, b.ids()); ok {
		return a, err
	}
	return volley.ReadAction(doc, func(s *shotSpec, errs *scenario.ErrorList) volley.Action {
		rules.CheckKind(doc, &s.Type, "shoot", errs)
		if ok, okT := volley.KnownUnit(errs, doc, &s.Unit, "unknown unit", b.ids()), volley.KnownUnit(errs, doc, &s.Target, "unknown target", b.ids()); !ok || !okT {
			return nil
		}
		return &Shot{Unit: s.Unit, Target: s.Target}
	})
}

// Actor is the side of the token that acts; the engine says whose an end of a turn or of
// a deployment is (rules.UnitActor).
func (b *Battle) Actor(a volley.Action) string {
	side, _ := rules.UnitActor(&b.turns, &b.table, a, func(id string) string { u, _ := b.Unit(id); return u.Side })
	return side
}

// Cost is tiny: a shot is two dice, a move a few legs past each token.
func (b *Battle) Cost(volley.Action) int64 { return int64(len(b.units)) * 100 }
