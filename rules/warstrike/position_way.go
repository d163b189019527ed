package warstrike

import (
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
)

// way is how the unit goes to a point as its position map scores it: the action it moves
// with, each model's path from where it stands (by its index in the formation), the
// order the models move in, and the farthest any goes.
type way struct {
	act   Action
	reach float64
	paths []geom.Path
	order []int
}

// stillWithin is how near the unit's centre a point may be and the unit stand still
// there: the points are laid out from the centre, which they meet to within rounding.
const stillWithin = 1e-9

// wayTo is the unit's way to stand centred on p, its formation translated, or nil where
// it cannot go this turn: a model's place is out of its reach, no action reaches it, no
// order lets the models pass one another, or the move's rules refuse it.
func (s *positionSetup) wayTo(b *Battle, p geom.Vec) *way {
	v := p.Sub(s.centre)
	n := len(s.models)
	w := &way{paths: make([]geom.Path, n)}
	need := 0.0
	if v.Len() > stillWithin {
		for i, m := range s.models {
			path := s.ways[i].Reach.Path(m.At.Add(v))
			if path == nil {
				return nil
			}
			d := path.Length()
			w.paths[i], w.reach, need = path, max(w.reach, d), max(need, s.moved[i]+d)
		}
	} else {
		for i := range s.models {
			need = max(need, s.moved[i])
		}
	}
	act, ok := s.action(b, need)
	if !ok {
		return nil
	}
	w.act = act
	if w.order, ok = s.orderOf(w.paths, v); !ok {
		return nil
	}
	if b.checkMove(s.moveOf(w, nil)) != nil {
		return nil
	}
	return w
}

// orderOf is an order in which the models may move along paths (geom.FormationOrder):
// front first, a model whose path crosses a fellow's place moving after the fellow has
// left it, or before it arrives. False when the two conditions cross.
func (s *positionSetup) orderOf(paths []geom.Path, v geom.Vec) ([]int, bool) {
	bases := make([]geom.Circle, len(s.models))
	for i, m := range s.models {
		bases[i] = m.circle()
	}
	return geom.FormationOrder(bases, paths, v)
}

// moveOf is the move action of w: the action (when the unit chooses it now) and each
// model's path in order, each point passed through round (nil: as it is).
func (s *positionSetup) moveOf(w *way, round func(geom.Vec) geom.Vec) *Move {
	mv := &Move{Unit: s.u.ID}
	if s.u.Action == "" {
		mv.Action = w.act
	}
	for _, i := range w.order {
		pts := slices.Clone(w.paths[i][1:])
		if round != nil {
			for k := range pts {
				pts[k] = round(pts[k])
			}
		}
		mv.Paths = append(mv.Paths, ModelPath{Model: s.models[i].ID, Points: pts})
	}
	return mv
}

// moveJSON is w as a player writes the move, in the scenario's unit: each point to a
// thousandth, as the battle writes points, unless that rounding makes a move the rules
// refuse (a base brought to touch another), then as computed. Nil for a unit that stays
// with the action it chose.
func (s *positionSetup) moveJSON(b *Battle, w *way) map[string]any {
	if w == nil {
		return nil
	}
	mv := s.moveOf(w, func(p geom.Vec) geom.Vec {
		return geom.V(roundMilli(p.X*s.perInch)/s.perInch, roundMilli(p.Y*s.perInch)/s.perInch)
	})
	exact := b.checkMove(mv) != nil
	if exact {
		mv = s.moveOf(w, nil)
	}
	out := map[string]any{"type": volley.MoveAction, "unit": s.u.ID}
	if mv.Action != "" {
		out["action"] = string(mv.Action)
	}
	var models []any
	for _, p := range mv.Paths {
		pts := make([]any, 0, len(p.Points))
		for _, q := range p.Points {
			x, y := q.X*s.perInch, q.Y*s.perInch
			if !exact {
				x, y = roundMilli(x), roundMilli(y)
			}
			pts = append(pts, []float64{x, y})
		}
		models = append(models, map[string]any{"id": p.Model, "path": pts})
	}
	if models != nil {
		out["models"] = models
	}
	if len(out) == 2 {
		return nil
	}
	return out
}
