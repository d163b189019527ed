package dropzone

import (
	"fmt"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/los"
)

// sight is line of sight over the table as it stands, for one action: the terrain (and,
// with units_block_los, the models) as prisms, and what has been traced already. A
// firer's weapons that share an eye point and a target share one trace, so a squad whose
// units each fire six weapons at one target costs no more than one weapon each.
type sight struct {
	b      *Battle
	scene  *los.Scene
	owners []owner
	// occ and view measure sight exactly (from edition 4): occ are the scene's prisms
	// made ready for it, in the same order.
	occ  []los.Occluder
	view los.View
	// The traces done: in a slice while there are few (most actions), then in a map.
	few  []sightSeen
	seen map[sightKey]float64
}

type sightSeen struct {
	key     sightKey
	visible float64
}

// fewTraces is how many traces are kept in a slice before a map: below it a search is
// cheaper than hashing.
const fewTraces = 32

// lookup returns a trace done already.
func (v *sight) lookup(k sightKey) (float64, bool) {
	if v.seen != nil {
		f, ok := v.seen[k]
		return f, ok
	}
	for _, s := range v.few {
		if s.key == k {
			return s.visible, true
		}
	}
	return 0, false
}

// remember keeps a trace.
func (v *sight) remember(k sightKey, f float64) {
	if v.seen == nil && len(v.few) < fewTraces {
		v.few = append(v.few, sightSeen{k, f})
		return
	}
	if v.seen == nil {
		v.seen = make(map[sightKey]float64, 2*fewTraces)
		for _, s := range v.few {
			v.seen[s.key] = s.visible
		}
	}
	v.seen[k] = f
}

// sightKey is one trace: from one eye point of a firer to one target. Units are named by
// their place in the battle, which does not change during an action.
type sightKey struct {
	shooter, target *Unit
	eye             los.Point3
}

// owner is what a prism of the scene stands for: a terrain piece or a model.
type owner struct {
	unit bool
	id   string
}

func (b *Battle) newSight(declarations int) *sight {
	scene, owners := b.buildScene()
	v := &sight{b: b, scene: scene, owners: owners, few: make([]sightSeen, 0, min(declarations, fewTraces))}
	if b.exact {
		v.occ = b.occluders(scene)
	}
	return v
}

// ignore says which prisms may not block a trace from sh to tg: the firer and the target
// never hide themselves, and a garrison's own building never blocks the view out of it
// or into it.
func (v *sight) ignore(sh, tg *Unit) func(i int) bool {
	return func(i int) bool {
		o := v.owners[i]
		if o.unit {
			return o.id == sh.ID || o.id == tg.ID
		}
		return o.id == sh.Garrison || o.id == tg.Garrison
	}
}

// visibleFraction is the largest fraction of the target any of the weapon's eye points
// sees, and the ids of what hides it when nothing is seen. From edition 4 the fraction is
// exact (los.View) and the pieces named are every one that hides part of the target from
// the first eye point; battles begun before count the silhouette_samples rays and name
// what blocks the ray to the target's centre.
func (v *sight) visibleFraction(s *shot) (float64, []string) {
	b, sh, tg := v.b, s.shooter, s.target
	ignore := v.ignore(sh, tg)
	sil := silhouette(tg)
	cols, rows := b.options.SilhouetteSamples[0], b.options.SilhouetteSamples[1]
	best := 0.0
	for _, eye := range b.eyes(sh, s.weapon) {
		key := sightKey{sh, tg, eye}
		f, ok := v.lookup(key)
		if !ok {
			if v.occ != nil {
				v.view.Look(eye, sil)
				v.view.Hide(v.occ, ignore)
				f = v.view.Visibility().Fraction()
			} else {
				f = v.scene.VisibleFraction(eye, sil, cols, rows, ignore)
			}
			v.remember(key, f)
		}
		best = max(best, f)
	}
	if best > 0 {
		return best, nil
	}
	// Name what stands in the way.
	eye := b.eyes(sh, s.weapon)[0]
	var names []string
	if v.occ != nil {
		v.view.Look(eye, sil)
		v.view.Hide(v.occ, ignore)
		for _, i := range v.view.Hiders() {
			names = append(names, v.owners[i].id)
		}
	} else {
		centre := los.P3(tg.At, tg.Elevation+tg.Type.Height.Inches()/2)
		for i, p := range v.scene.Prisms {
			if !ignore(i) && p.Blocks(eye, centre) {
				names = append(names, v.owners[i].id)
			}
		}
	}
	if len(names) == 0 {
		names = []string{"terrain"}
	}
	return 0, names
}

// hullDown reports whether a target of which the firer sees the share visible is hull
// down: it sees less than HullDownVisibleFraction of it, from edition 4 by more than
// los.AreaTolerance (a target seen exactly half, which float64 may put a hair under, is
// not hull down).
func (b *Battle) hullDown(visible float64) bool {
	if b.exact {
		return visible < HullDownVisibleFraction-los.AreaTolerance
	}
	return visible < HullDownVisibleFraction
}

// percentOf writes a share as a whole percentage for a note, without rounding a sliver
// to nothing or nearly all to all.
func percentOf(f float64) string {
	switch p := 100 * f; {
	case p > 0 && p < 0.5:
		return "less than 1%"
	case p < 100 && p >= 99.5:
		return "more than 99%"
	default:
		return fmt.Sprintf("%.0f%%", p)
	}
}

// silhouette is a unit as a target of line of sight.
func silhouette(u *Unit) los.Silhouette {
	return los.Silhouette{Base: u.Circle(), Bottom: u.Elevation, Height: u.Type.Height.Inches()}
}

// Costs of one action, in volley.MaxWork's steps.
const (
	// declarationWork is what one declaration costs apart from its line of sight and its
	// share of the odds: the checks, the modifiers, the aim.
	declarationWork = 100
	// convolutionWork is a term of the convolutions that add a declaration's hits and
	// damage to its target's.
	convolutionWork = 1
)

// solidEdges counts the edges of solid terrain.
func (b *Battle) solidEdges() int64 {
	n := int64(0)
	for _, t := range b.terrain {
		if t.BlocksLOS {
			n += int64(len(t.Footprint)) + 1
		}
	}
	return n
}

// traceWork is what one trace of line of sight costs, wherever the firer and the target
// stand, for pricing work that traces from and to every place (danger maps). By rays
// (before edition 4): the silhouette's rays each tested against every edge of every prism
// of the scene, then the blockers of one ray. Exactly, twice (the second names the
// blockers): every corner brought into the eye's frame, and every convex piece's shadow
// cut out of a few polygons in sight (shadowWork), which is what honest tables cost; the
// cubic worst case (Cost) is left to the request's deadline, which a danger map checks at
// every point.
func (b *Battle) traceWork() int64 {
	if b.exact {
		corners, pieces := los.AllPieces(b.terrainOcc)
		if b.options.UnitsBlockLOS {
			corners += int64(len(b.units)) * basePolygonSides
			pieces += int64(len(b.units))
		}
		return 2 * (viewWork + projectWork*corners + shadowWork*pieces)
	}
	edges := int64(0)
	for _, t := range b.terrain {
		if t.BlocksLOS {
			edges += int64(len(t.Footprint)) + 1
		}
	}
	if b.options.UnitsBlockLOS {
		edges += int64(len(b.units)) * (basePolygonSides + 1)
	}
	rays := int64(b.options.SilhouetteSamples[0]) * int64(b.options.SilhouetteSamples[1])
	return (rays + 1) * edges
}

// Cost bounds the work of an action's aim, odds or resolution: for every distinct trace
// (firer, eye point, target) its line of sight, then for every declaration its checks,
// and the convolutions that add its hits and damage to its target's. A trace by rays
// (before edition 4) costs traceWork. An exact trace projects the corners of the prisms
// whose box meets the box of the firer and the target, and cuts their shadows out of the
// silhouette: for P convex pieces at most P³ steps (their edges can cut what is in sight
// into some P² parts, each met by every shadow); twice, to name the blockers
// (exactTraceCost).
func (b *Battle) Cost(a volley.Action) int64 {
	switch a := a.(type) {
	case *TurnEnd, *Deploy, *volley.DeploymentEnd:
		return 1
	case *Move:
		// Each leg swept against every base and every edge of solid terrain.
		return int64(len(a.Path)) * (int64(len(b.units)) + b.solidEdges() + 1)
	}
	trace := b.traceWork()
	traces := map[sightKey]bool{}
	work := int64(0)
	// The largest outcome of each target's hits and damage so far; damage is capped at
	// the target's damage points as Odds caps it.
	hits, damage := map[string]int64{}, map[string]int64{}
	for _, d := range mustShooting(a).Declarations {
		sh, ok1 := b.Unit(d.Shooter)
		tg, ok2 := b.Unit(d.Target)
		if !ok1 || !ok2 {
			continue
		}
		w := sh.Type.weapon(d.Weapon)
		if w == nil {
			continue
		}
		for _, eye := range b.eyes(sh, w) {
			key := sightKey{sh, tg, eye}
			if !traces[key] {
				traces[key] = true
				if b.exact {
					work += 2 * b.exactTraceCost(sh, tg)
				} else {
					work += trace
				}
			}
		}
		shots := int64(w.Shots.Max())
		most := shots * int64(CriticalDamage+min(w.Devastator(), MaxDevastator))
		work += declarationWork + convolutionWork*((hits[d.Target]+1)*(shots+1)+(damage[d.Target]+1)*(most+1))
		hits[d.Target] += shots
		damage[d.Target] = min(damage[d.Target]+most, int64(max(tg.DamagePoints, 0)))
	}
	return work
}

// projectWork is what an exact trace spends on each corner of a prism in its box:
// bringing it into the eye's frame and clipping it to the lines of sight.
const projectWork = 4

// exactTraceCost is the most an exact trace from sh to tg costs: the corners and convex
// pieces of the terrain (and, with units_block_los, the models) in the box of the two.
func (b *Battle) exactTraceCost(sh, tg *Unit) int64 {
	r := tg.Type.Base.Inches() / 2
	lo := geom.V(min(sh.At.X, tg.At.X-r), min(sh.At.Y, tg.At.Y-r))
	hi := geom.V(max(sh.At.X, tg.At.X+r), max(sh.At.Y, tg.At.Y+r))
	corners, pieces := los.PiecesIn(b.terrainOcc, lo, hi)
	if b.options.UnitsBlockLOS {
		for i := range b.units {
			u := &b.units[i]
			ur := u.Type.Base.Inches() / 2
			if u.Destroyed() || u.At.X+ur < lo.X || u.At.X-ur > hi.X || u.At.Y+ur < lo.Y || u.At.Y-ur > hi.Y {
				continue
			}
			corners += basePolygonSides
			pieces++
		}
	}
	return exactCost(corners, pieces)
}

// exactCost is what an exact trace costs among prisms with so many corners and convex
// pieces: setting up the view, each corner brought into the eye's frame and clipped, each
// shadow cut out of what is in sight, P³ at worst (see Cost).
func exactCost(corners, pieces int64) int64 {
	return viewWork + projectWork*corners + pieces*pieces*pieces
}

// viewWork is what an exact trace costs beyond its prisms: setting up the view.
// shadowWork is what a piece's shadow typically costs it: built, and cut out of the few
// polygons in sight it meets.
const (
	viewWork   = 50
	shadowWork = 50
)

// buildScene gathers what blocks line of sight: solid terrain and, when the option is
// on, the models still on the table.
func (b *Battle) buildScene() (*los.Scene, []owner) {
	scene := &los.Scene{}
	var owners []owner
	for _, t := range b.terrain {
		if t.BlocksLOS {
			scene.Prisms = append(scene.Prisms, los.Prism{Footprint: t.Footprint, Bottom: 0, Top: t.Height})
			owners = append(owners, owner{id: t.ID})
		}
	}
	if b.options.UnitsBlockLOS {
		for i := range b.units {
			u := &b.units[i]
			if u.Destroyed() {
				continue
			}
			scene.Prisms = append(scene.Prisms, los.Prism{
				Footprint: circlePolygon(u.Circle(), basePolygonSides),
				Bottom:    u.Elevation,
				Top:       u.Elevation + u.Type.Height.Inches(),
			})
			owners = append(owners, owner{unit: true, id: u.ID})
		}
	}
	return scene, owners
}

// occluders makes the scene's prisms ready for exact sight: the terrain's were made once,
// when the battle was loaded; the models' (units_block_los) are convex and cheap.
func (b *Battle) occluders(scene *los.Scene) []los.Occluder {
	occ := make([]los.Occluder, 0, len(scene.Prisms))
	occ = append(occ, b.terrainOcc...)
	for _, p := range scene.Prisms[len(b.terrainOcc):] {
		occ = append(occ, los.NewOccluder(p))
	}
	return occ
}
