package warstrike

import (
	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/los"
)

// Costs of one action, in volley.MaxWork's steps.
const (
	// lookWork is what one look costs beyond its rays or shadows: the rules of obstacles
	// and area terrain, the aim.
	lookWork = 200
	// projectWork is what an exact look spends on each corner of a piece of terrain in
	// its box: bringing it into the eye's frame and clipping it to the lines of sight.
	projectWork = 4
	// shadowWork is what a piece's shadow typically costs an exact look: built, and cut
	// out of the few polygons in sight it meets.
	shadowWork = 50
	// passes is how many times an action's looks are worked out at most: Odds works out
	// the plan for its aims and again for its distributions.
	passes = 2
)

// Cost bounds the work of an action's aim, odds or resolution: every firing model (and
// the leader once more) looks at every model of every target; then each target's
// convolutions add its dice. A look by rays (before edition 4) costs lookCost: its
// silhouette's rays and the centre line tested against every edge of every piece of
// terrain. An exact look projects the corners of the pieces whose box meets the box of
// the firer and the target unit, and cuts their shadows out of the body: for P convex
// pieces at most P³ steps, as their edges can cut what is in sight into some P² parts and
// each shadow meets each part (exactLookCost). A move costs each leg of each model's path
// swept against every base and every edge of the terrain (sweepWork); a deployment, each
// model placed.
func (b *Battle) Cost(a volley.Action) int64 {
	switch a := a.(type) {
	case *Move:
		// Each leg swept against every base and every corner of the terrain.
		legs := int64(1)
		for _, p := range a.Paths {
			legs += int64(len(p.Points))
		}
		// From edition 5, whether each model stands on a floor, once a move and again
		// for each that moves: its floors' corners.
		return legs*b.sweepWork() + int64(len(b.modelAt)+len(a.Paths))*b.floorWork()
	case *Deploy:
		return int64(len(a.Models)+1) * b.sweepWork()
	}
	s, ok := a.(*Shoot)
	if !ok {
		return 1
	}
	u, ok := b.Unit(s.Unit)
	if !ok {
		return 1
	}
	firing := int64(len(u.Models)) + 1
	targets, shots := int64(0), int64(0)
	looks := int64(0)
	for _, t := range s.Targets {
		tu, ok := b.Unit(t.Unit)
		if !ok {
			continue
		}
		targets += int64(len(tu.Models))
		if !b.exact {
			continue
		}
		for i := range u.Models {
			looks += int64(len(tu.Models)) * b.exactLookCost(u.Models[i].At, tu)
		}
		if l := u.Leader(); l != nil {
			looks += int64(len(tu.Models)) * b.exactLookCost(l.At, tu)
		}
	}
	for i := range u.Models {
		if w := b.tables.Weapons[u.Models[i].Weapon]; w != nil {
			shots += int64(w.Shots)
		}
	}
	if !b.exact {
		looks = firing * targets * b.lookCost()
	}
	return passes*looks + 3*shots*shots + targets*shots
}

// lookCost is what one model's look at another costs, wherever the two stand, for
// pricing work that looks from and at every place (advice, danger maps). By rays (before
// edition 4): its silhouette's rays and the centre line tested against every edge of every
// piece of terrain. Exactly: every corner of the terrain brought into the eye's frame, and
// every convex piece's shadow cut out of a few polygons in sight (shadowWork), which is
// what honest tables cost; the cubic worst case (Cost) is left to the request's deadline,
// which those checks at every point. Then the rules of obstacles and area terrain.
func (b *Battle) lookCost() int64 {
	if b.exact {
		corners, pieces := los.AllPieces(b.occ)
		return lookWork + projectWork*corners + shadowWork*pieces
	}
	edges := int64(1)
	for i := range b.terrain {
		edges += int64(len(b.terrain[i].Poly)) + 1
	}
	rays := int64(b.opts.cols * b.opts.rows)
	return (rays+2)*edges + lookWork
}

// exactCost is what an exact look costs among pieces of terrain with so many corners and
// convex pieces: each corner brought into the eye's frame and clipped, each shadow cut out
// of what is in sight, P³ at worst (see Cost).
func exactCost(corners, pieces int64) int64 {
	return lookWork + projectWork*corners + pieces*pieces*pieces
}

// exactLookCost is the most an exact look from a model at from costs at a model of unit
// t: the corners and convex pieces of the terrain in the box of from and t's bases.
func (b *Battle) exactLookCost(from geom.Vec, t *Unit) int64 {
	lo, hi := from, from
	for i := range t.Models {
		m := &t.Models[i]
		r := geom.V(m.Base/2, m.Base/2)
		lo = geom.V(min(lo.X, m.At.X-r.X), min(lo.Y, m.At.Y-r.Y))
		hi = geom.V(max(hi.X, m.At.X+r.X), max(hi.Y, m.At.Y+r.Y))
	}
	corners, pieces := los.PiecesIn(b.occ, lo, hi)
	return exactCost(corners, pieces)
}

// floorWork is what finding the floor under a point costs: every floor's corners.
func (b *Battle) floorWork() int64 {
	n := int64(0)
	for i := range b.terrain {
		for _, f := range b.terrain[i].Floors {
			n += int64(len(f.Poly)) + 1
		}
	}
	return n
}

// sweepWork is what one leg of a move costs: a base swept against every model's base
// and every edge of the terrain.
func (b *Battle) sweepWork() int64 {
	n := int64(len(b.modelAt)) + 1
	for i := range b.terrain {
		n += int64(len(b.terrain[i].Poly)) + 1
	}
	return n + b.floorWork()
}
