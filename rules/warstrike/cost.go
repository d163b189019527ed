package warstrike

import "github.com/volley-wargames/volley"

// Costs of one action, in volley.MaxWork's steps.
const (
	// lookWork is what one look costs beyond its rays: the rules of obstacles and area
	// terrain, the aim.
	lookWork = 200
	// passes is how many times an action's looks are worked out at most: Odds works out
	// the plan for its aims and again for its distributions.
	passes = 2
)

// Cost bounds the work of an action's aim, odds or resolution: every firing model (and
// the leader once more) looks at every model of every target (lookCost); then each
// target's convolutions add its dice.
func (b *Battle) Cost(a volley.Action) int64 {
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
	for _, t := range s.Targets {
		if tu, ok := b.Unit(t.Unit); ok {
			targets += int64(len(tu.Models))
		}
	}
	for i := range u.Models {
		if w := b.tables.Weapons[u.Models[i].Weapon]; w != nil {
			shots += int64(w.Shots)
		}
	}
	looks := firing * targets
	return passes*looks*b.lookCost() + 3*shots*shots + targets*shots
}

// lookCost is what one model's look at another costs: its silhouette's rays and the
// centre line tested against every edge of every piece of terrain, and the rules of
// obstacles and area terrain.
func (b *Battle) lookCost() int64 {
	edges := int64(1)
	for i := range b.terrain {
		edges += int64(len(b.terrain[i].Poly)) + 1
	}
	rays := int64(b.opts.cols * b.opts.rows)
	return (rays+2)*edges + lookWork
}
