package toy

import (
	"context"
	"fmt"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// The toy's actions: its own shot, and the engine's move, deployment and ends of a turn
// and of a deployment (rules.DecodeTurnAction), read with the engine's decoders
// (volley.ReadAction and its refusals).

// Shot is a token's shot at an enemy token.
type Shot struct {
	Unit, Target string
	at           scenario.Pos
}

// Kind returns "shoot".
func (*Shot) Kind() string { return "shoot" }

// Move is a token's move along a path of straight legs from where it stands.
type Move struct {
	Unit   string
	Points []geom.Vec
	at     scenario.Pos
}

// Kind returns "move".
func (*Move) Kind() string { return volley.MoveAction }

// MovedUnit is the token the move moves.
func (m *Move) MovedUnit() string { return m.Unit }

// Deploy places a token before the first turn.
type Deploy struct {
	Unit string
	At   geom.Vec
}

// Kind returns "deploy".
func (*Deploy) Kind() string { return volley.DeployAction }

type shotSpec struct {
	Type   string `yaml:"type"`
	Unit   string `yaml:"unit,required"`
	Target string `yaml:"target,required"`
}

type moveSpec struct {
	Type string           `yaml:"type"`
	Unit string           `yaml:"unit,required"`
	Path []scenario.Point `yaml:"path,required"`
}

type deploySpec struct {
	Type string         `yaml:"type"`
	Unit string         `yaml:"unit,required"`
	At   scenario.Point `yaml:"at,required"`
}

// DecodeAction decodes an action in the form of a scenario's `action:` section.
func (b *Battle) DecodeAction(doc *scenario.Doc) (volley.Action, error) {
	return rules.DecodeAction(Name, doc, b.decodeAction)
}

func (b *Battle) decodeAction(doc *scenario.Doc) (volley.Action, error) {
	if a, ok, err := rules.DecodeTurnAction(doc, &b.turns, &b.table, b.decodeMove, b.decodeDeploy); ok {
		return a, err
	}
	return volley.ReadAction(doc, func(s *shotSpec, errs *scenario.ErrorList) volley.Action {
		rules.CheckKind(doc, &s.Type, "shoot", errs)
		_, ok := b.Unit(s.Unit)
		_, okT := b.Unit(s.Target)
		if !ok {
			volley.RefuseUnknown(errs, doc, &s.Unit, "unknown unit", b.ids)
		}
		if !okT {
			volley.RefuseUnknown(errs, doc, &s.Target, "unknown target", b.ids)
		}
		if !ok || !okT {
			return nil
		}
		return &Shot{Unit: s.Unit, Target: s.Target, at: doc.Root()}
	})
}

func (b *Battle) decodeMove(doc *scenario.Doc) (*Move, error) {
	return volley.ReadAction(doc, func(s *moveSpec, errs *scenario.ErrorList) *Move {
		if volley.RefuseNoMoves(errs, doc, &s.Type, volley.MoveAction, "units", true) || volley.RefusePath(errs, doc, &s.Path) {
			return nil
		}
		if _, ok := b.Unit(s.Unit); !ok {
			volley.RefuseUnknown(errs, doc, &s.Unit, "move: unknown unit", b.ids)
			return nil
		}
		m := &Move{Unit: s.Unit, at: doc.Root()}
		for _, p := range s.Path {
			m.Points = append(m.Points, geom.V(p.X, p.Y))
		}
		return m
	})
}

func (b *Battle) decodeDeploy(doc *scenario.Doc) (*Deploy, error) {
	return volley.ReadAction(doc, func(s *deploySpec, errs *scenario.ErrorList) *Deploy {
		if b.table.RefuseDeploy(errs, doc, &s.Type, "units", true) {
			return nil
		}
		if _, ok := b.Unit(s.Unit); !ok {
			volley.RefuseUnknown(errs, doc, &s.Unit, "deploy: unknown unit", b.ids)
			return nil
		}
		return &Deploy{Unit: s.Unit, At: geom.V(s.At.X, s.At.Y)}
	})
}

// Actor is the side of the token that acts; the engine says whose an end of a turn or of
// a deployment is (rules.TurnActor).
func (b *Battle) Actor(a volley.Action) string {
	if side, ok := rules.TurnActor(&b.turns, &b.table, a); ok {
		return side
	}
	var id string
	switch a := a.(type) {
	case *Shot:
		id = a.Unit
	case *Move:
		id = a.Unit
	case *Deploy:
		id = a.Unit
	}
	u, _ := b.Unit(id)
	return u.Side
}

// Cost is tiny: a shot is two dice, a move a few legs.
func (b *Battle) Cost(volley.Action) int64 { return int64(len(b.units)) * 100 }

var _ volley.Refuser = (*Battle)(nil)

// Refusals are what Resolve would refuse, at the action's place, for `volley check`.
func (b *Battle) Refusals(ctx context.Context, a volley.Action) (scenario.ErrorList, error) {
	switch a := a.(type) {
	case *Move:
		if list := rules.NotBegun(&b.table, a.at); list != nil {
			return list, nil
		}
		return volley.Refusal(a.at, b.checkMove(a), Name), nil
	case *Shot:
		aim := b.aim(a)
		if aim.Status != volley.StatusOK {
			return rules.Refusal(a.at, fmt.Sprintf("%s cannot shoot at %s: %s", a.Unit, a.Target, aim.Reason)), nil
		}
		if aim.NotNow != "" {
			return rules.Refusal(a.at, aim.NotNow), nil
		}
	}
	return nil, ctx.Err()
}
