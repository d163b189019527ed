package dropzone

import (
	"github.com/volley-wargames/volley"
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
	return &sight{b: b, scene: scene, owners: owners, few: make([]sightSeen, 0, min(declarations, fewTraces))}
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
// sees, and the ids of what blocks the target's centre line when nothing is seen.
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
			f = v.scene.VisibleFraction(eye, sil, cols, rows, ignore)
			v.remember(key, f)
		}
		best = max(best, f)
	}
	if best > 0 {
		return best, nil
	}
	// Name what stands in the way: every blocker of the ray to the target's centre.
	eye := b.eyes(sh, s.weapon)[0]
	centre := los.P3(tg.At, tg.Elevation+tg.Type.Height.Inches()/2)
	var names []string
	for i, p := range v.scene.Prisms {
		if !ignore(i) && p.Blocks(eye, centre) {
			names = append(names, v.owners[i].id)
		}
	}
	if len(names) == 0 {
		names = []string{"terrain"}
	}
	return 0, names
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

// traceWork is what one trace of line of sight costs: the silhouette's rays each tested
// against every edge of every prism of the scene, then the blockers of one ray.
func (b *Battle) traceWork() int64 {
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
// (firer, eye point, target) the silhouette's rays each tested against every edge of
// every prism of the scene, then the blockers of one ray; for every declaration its
// checks, and the convolutions that add its hits and damage to its target's.
func (b *Battle) Cost(a volley.Action) int64 {
	switch a := a.(type) {
	case *TurnEnd, *Deploy:
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
				work += trace
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
