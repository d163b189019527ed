package warstrike

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

// Deployment, and the battle copied or written back as a scenario.

// Deploy places a model, or a whole unit in its formation centred on At, before the
// battle's first action: in its side's deployment zone, or anywhere on the table without
// one.
type Deploy struct {
	Unit string
	// Models are the models placed, and At where each goes.
	Models []string
	At     []geom.Vec
}

// Kind returns "deploy".
func (*Deploy) Kind() string { return volley.DeployAction }

// ActingUnit is the unit, or the model, placed.
func (d *Deploy) ActingUnit() string { return d.Unit }

// deploySpec is a deployment as written: unit names a model, or a unit placed in its
// formation.
type deploySpec struct {
	Type string         `yaml:"type"`
	Unit string         `yaml:"unit,required"`
	At   scenario.Point `yaml:"at,required"`
}

func (b *Battle) decodeDeploy(doc *scenario.Doc) (volley.Action, error) {
	doc = doc.WithUnit(b.unit) // sent on its own, it is written in the battle's unit
	return volley.ReadAction(doc, func(spec *deploySpec, errs *scenario.ErrorList) volley.Action {
		if b.table.RefuseDeploy(errs, doc, &spec.Type, "models", b.moves) {
			return nil
		}
		if !checkPoint(doc, &spec.At, "deploy: at", errs) {
			return nil
		}
		at := geom.V(spec.At.X, spec.At.Y)
		if m, _, ok := b.Model(spec.Unit); ok {
			return &Deploy{Unit: spec.Unit, Models: []string{m.ID}, At: []geom.Vec{at}}
		}
		u, ok := b.Unit(spec.Unit)
		if !ok {
			volley.RefuseUnknown(errs, doc, &spec.Unit, "deploy: unknown unit or model", b.unitIDs)
			return nil
		}
		// A unit keeps its formation: each living model as far from the unit's centre
		// as it stands now.
		var alive []*Model
		centre := geom.Vec{}
		for i := range u.Models {
			if m := &u.Models[i]; m.Alive() {
				alive = append(alive, m)
				centre = centre.Add(m.At)
			}
		}
		if len(alive) == 0 {
			errs.Add(doc.At(&spec.Unit), "deploy: %s has no models left", u.ID)
			return nil
		}
		centre = centre.Scale(1 / float64(len(alive)))
		d := &Deploy{Unit: u.ID}
		for _, m := range alive {
			d.Models = append(d.Models, m.ID)
			d.At = append(d.At, at.Add(m.At.Sub(centre)))
		}
		return d
	})
}

// resolveDeploy places a model, or a unit, before the battle begins (from edition 5, in
// its side's deployment; before, until the battle's first other action). A unit counts as
// deployed once every one of its living models is placed.
func (b *Battle) resolveDeploy(d *Deploy) (volley.Outcome, error) {
	placing := map[*Model]geom.Vec{}
	var models []*Model
	var unit *Unit
	for i, id := range d.Models {
		m, u, _ := b.Model(id)
		placing[m] = d.At[i]
		models = append(models, m)
		unit = u
	}
	if err := b.table.CheckDeploy(unit.Side, d.Models, "models"); err != nil {
		return volley.Outcome{}, fmt.Errorf("warstrike: %w", err)
	}
	for i, m := range models {
		if why := b.deployBlocked(m, d.At[i], placing); why != "" {
			return volley.Outcome{}, volley.Errorf(volley.EINVALID, "warstrike: %s cannot be deployed there: %s", m.ID, why)
		}
	}
	var placed []string
	for i, m := range models {
		m.At = d.At[i]
		m.Elevation = b.groundAt(m.At)
		w := m.ID + " at " + b.pointWords(m.At)
		if m.Elevation > 0 {
			w += fmt.Sprintf(", %s up on %s", b.length(m.Elevation), b.groundName(m.At))
		}
		placed = append(placed, w)
	}
	step := volley.Step{Rule: "deploy", Inputs: map[string]any{"unit": d.Unit, "models": len(models)}, Result: "placed " + strings.Join(placed, "; ")}
	whole := unit.ID
	if dep := b.table.Deployment; dep != nil {
		for i := range unit.Models {
			if m := &unit.Models[i]; m.Alive() && !slices.Contains(d.Models, m.ID) && !slices.Contains(dep.Placed, m.ID) {
				whole = "" // a model of it waits to be placed
			}
		}
	}
	return b.table.DeployOutcome(step, d.Models, whole), nil
}

// deployBlocked says why model m may not stand at p (the models being placed going to
// theirs), or "".
func (b *Battle) deployBlocked(m *Model, p geom.Vec, placing map[*Model]geom.Vec) string {
	_, u, _ := b.Model(m.ID)
	r := m.Base / 2
	if why := b.table.DeployBlocked(u.Side, p, r); why != "" {
		return why
	}
	for ui := range b.units {
		for mi := range b.units[ui].Models {
			o := &b.units[ui].Models[mi]
			if o == m || o.Dead {
				continue
			}
			at, ok := placing[o]
			if !ok {
				at = o.At
			}
			if geom.SweepHitsCircle(geom.Segment{A: p, B: p}, r, geom.Circle{C: at, R: o.Base / 2}) {
				return "its base would overlap " + o.ID + "'s"
			}
		}
	}
	stand := *m
	stand.At, stand.Elevation = p, b.groundAt(p)
	for j := range b.terrain {
		if t := &b.terrain[j]; blocksMove(t, &stand) && geom.SweepHitsPolygon(geom.Segment{A: p, B: p}, r, t.Poly) {
			return fmt.Sprintf("its base would stand in %s (%s)", t.label(), t.Kind)
		}
	}
	return ""
}

// pointWords is a point as a player reads it: (x, y) in the scenario's unit.
func (b *Battle) pointWords(p geom.Vec) string {
	return fmt.Sprintf("(%g, %g)", b.inUnit(p.X), b.inUnit(p.Y))
}

// Fork is a copy of the battle for a "what if": its units and their models, turn,
// activation and moves are its own; what no action changes (tables, terrain, the scene)
// is shared.
func (b *Battle) Fork() volley.Battle {
	c := *b
	c.units = slices.Clone(b.units)
	for i := range c.units {
		c.units[i].Models = slices.Clone(b.units[i].Models)
	}
	c.turns = b.turns.Clone()
	c.table = b.table.Clone()
	c.moved = maps.Clone(b.moved)
	return &c
}

// Placements are where the models stand now, as a scenario writes them: at (in the
// scenario's unit), and elevation only where the model does not stand on the ground
// there (a ruin's floor given in the scenario). A model written without an id is
// placed by its place in its unit's models.
func (b *Battle) Placements() []volley.Placement {
	var out []volley.Placement
	for i := range b.units {
		u := &b.units[i]
		for j := range u.Models {
			m := &u.Models[j]
			p := volley.Placement{ID: m.ID, Set: map[string]any{"at": b.point(m.At)}}
			if !m.named {
				p.ID, p.List, p.Item = u.ID, "models", m.item
			}
			if math.Abs(m.Elevation-b.groundAt(m.At)) > 1e-9 {
				p.Set["elevation"] = b.inUnit(m.Elevation)
			} else {
				p.Drop = []string{"elevation"}
			}
			out = append(out, p)
		}
	}
	return append(out, b.floorPlacements()...)
}
