package republique

import (
	"fmt"
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
)

// Offers are what the sides may do now (volley.Offers), step by step of the player
// turn: while the sides deploy, the deploying side's deployments; in the maneuver step
// the phasing side's moves (a path for the unit's centre, a facing, a formation for
// infantry and cavalry, limbering or unlimbering for a battery); while play waits on a
// passing fire, the answering side's passing fire for each battery offered, and its
// decline; in the skirmish fire step the phasing side's pairing of opposed markers and
// both sides' unopposed markers' fire (the text's fire is the phase's, both players'
// markers firing: volley lets either side send its own); in the artillery fire segment
// both sides' batteries' fire and saved fire; and the phasing side's end of the step.
// The sides acting are the phasing side and, in the fire steps, the other side while it
// has a marker or a battery that may fire.
func (b *Battle) Offers() volley.Offers {
	o, deploying := b.table.OpenOffers(b.moves, b.deployOffers)
	if deploying {
		b.spent(&o)
		return o
	}
	if !b.table.Deploys(b.moves) {
		o.Offers = []volley.Offer{} // a view lists no offers as [], not null
	}
	k := b.perCm()
	phasing := b.phasing()
	if phasing == "" {
		return o
	}
	other := ""
	for _, s := range b.phase.order {
		if s != phasing {
			other = s
			break
		}
	}
	if w := b.phase.window; w != nil {
		o.Act(w.side)
		var actors []volley.Actor
		for _, id := range w.offered {
			bat := b.Unit(id)
			a := volley.Actor{ID: id, Label: fmt.Sprintf("%s at %s", name(bat), w.mover), Action: map[string]any{"batteries": []string{id}, "target": w.mover}}
			if len(w.offered) == 1 {
				a.Ends = volley.EndsPause
			}
			actors = append(actors, a)
		}
		o.Offers = append(o.Offers,
			volley.Offer{Side: w.side, Type: KindPassing, Label: "Passing fire at " + w.mover, Action: map[string]any{"type": KindPassing}, Key: "batteries", Actors: actors,
				Help: fmt.Sprintf("%s moved across the front of these batteries: each may fire at it (−2), and then may not fire in the following artillery segment.", w.mover)},
			volley.EndOffer(w.side, KindDecline, "Let "+w.mover+" pass", volley.EndsPause))
		b.spent(&o)
		return o
	}
	switch b.phase.step {
	case Maneuver:
		o.Act(phasing)
		if b.moves {
			if actors := b.moveActors(phasing, k); len(actors) > 0 {
				move := volley.MoveOffer(phasing, actors, "A unit's centre moves along a path, it may turn (about its centre, or wheeling on a front corner, with no path), re-form, and a battery may limber first or unlimber at the end; enemy batteries may answer a move across their front with passing fire.")
				move.Fields = []volley.Field{volley.FacingField(0), {Key: "pivot", Label: "pivot of a change of facing", Kind: volley.FieldSelect, Optional: true,
					Options: []volley.Option{{Value: PivotLeft, Label: "wheel on the left front corner"}, {Value: PivotRight, Label: "wheel on the right front corner"}},
					Needs:   []string{"facing"}, Excludes: []string{"path"}}}
				move.AnyOf = []string{"path", "facing", "formation", "limber", "unlimber"}
				o.Offers = append(o.Offers, move)
			}
		}
	case Skirmish:
		o.Act(phasing)
		if pairs := b.candidatePairs(); len(pairs) > 0 && !b.markerFired() {
			f := volley.Field{Key: "pairs", Label: "opposed pairs", Kind: volley.FieldChecks}
			for _, p := range pairs {
				f.Options = append(f.Options, volley.Option{Value: []string{p[0], p[1]}, Label: p[0] + " opposes " + p[1]})
			}
			o.Offers = append(o.Offers, volley.Offer{Side: phasing, Type: KindOppose, Label: "Pair opposed skirmishers", Action: map[string]any{"type": KindOppose},
				Fields: []volley.Field{f}, Help: fmt.Sprintf("Markers within %gcm of an enemy marker are opposed and may not fire; every marker that can be paired is, the phasing player choosing which when the numbers are uneven (by default the closest first).", OpposeWithin)})
		}
		for _, side := range []string{phasing, other} {
			if actors := b.skirmishActors(side); len(actors) > 0 {
				o.Act(side)
				o.Offers = append(o.Offers, volley.Offer{Side: side, Type: KindSkirmish, Label: "Skirmish fire", Action: map[string]any{"type": KindSkirmish}, Key: "marker", Actors: actors,
					Ends: volley.EndsActivation, Help: "An unopposed skirmish marker fires once a turn at a unit; its morale hits take effect when the step ends."})
			}
		}
	case ArtillerySegment:
		o.Act(phasing)
		for _, side := range []string{phasing, other} {
			fires, saves := b.batteryActors(side)
			if len(fires)+len(saves) > 0 {
				o.Act(side)
			}
			if len(fires) > 0 {
				o.Offers = append(o.Offers, volley.Offer{Side: side, Type: KindFire, Label: "Artillery fire", Action: map[string]any{"type": KindFire}, Key: "batteries", Actors: fires,
					Ends: volley.EndsActivation, Help: "A battery fires once a player turn, at its main target unless the rules let it choose (leave the target out for the main target); its hits take effect when the segment ends."})
			}
			if len(saves) > 0 {
				o.Offers = append(o.Offers, volley.Offer{Side: side, Type: KindSave, Label: "Save fire", Action: map[string]any{"type": KindSave}, Key: "batteries", Actors: saves,
					Ends: volley.EndsActivation, Help: "A stationary, ordered battery in action saves its fire: its next fire has its fire points doubled."})
			}
		}
	}
	ends := volley.EndsStep
	if b.phase.step == ArtillerySegment {
		ends = volley.EndsTurn
	}
	o.Offers = append(o.Offers, volley.EndOffer(phasing, KindEndStep, fmt.Sprintf("End the %s step", b.phase.step), ends))
	b.spent(&o)
	return o
}

// moveActors are the units of side that may move now, each with its path (its centre's,
// as far as its rate has left: an unlimbered battery's as far as it may still prolong)
// and what it alone may do: re-form (not a battery), limber or unlimber (a battery),
// each option saying how far the path may then go (Limits), what re-forming or
// limbering takes of the rate being taken.
func (b *Battle) moveActors(side string, k float64) []volley.Actor {
	var out []volley.Actor
	upTo := func(cm float64) float64 { return *volley.PathField(nil, max(cm, 0)*k, "").Max }
	for i := range b.units {
		u := &b.units[i]
		if u.Side != side {
			continue
		}
		left, why, _ := b.movable(u)
		if why != "" || !(left > 0) {
			continue
		}
		c := u.centre()
		far := left
		if u.Battery() && !u.Limbered {
			// Unlimbered, a battery moves by prolonge only, within its rate (or limbers
			// first).
			far = min(max(b.movement.prolonge-b.phase.prolonged[u.ID], 0), left)
		}
		path := volley.PathField(volley.Pt(c.X*k, c.Y*k), far*k, b.unitName())
		path.Optional = true
		a := volley.Actor{ID: u.ID, Label: fmt.Sprintf("%s, %s", name(u), u.Kind), Action: map[string]any{"unit": u.ID},
			Fields: []volley.Field{path}}
		if u.Battery() {
			f := volley.Field{Key: "limber", Label: "limber first", Kind: volley.FieldFlag, Optional: true}
			if u.Limbered {
				f.Key, f.Label = "unlimber", "unlimber at the end"
			}
			f.Options = []volley.Option{{Value: true, Note: fmt.Sprintf("takes %s of its move", fmtCm(b.movement.limber)),
				Limits: map[string]float64{"path": upTo(left - b.movement.limber)}}}
			a.Fields = append(a.Fields, f)
		} else {
			f := volley.Field{Key: "formation", Label: "formation", Kind: volley.FieldSelect, Optional: true}
			for _, fm := range []Formation{Line, Column, Square} {
				if fm != u.Formation {
					f.Options = append(f.Options, volley.Option{Value: string(fm), Note: fmt.Sprintf("takes %s of its move", fmtCm(b.movement.reform)),
						Limits: map[string]float64{"path": upTo(left - b.movement.reform)}})
				}
			}
			a.Fields = append(a.Fields, f)
		}
		out = append(out, a)
	}
	return out
}

// centre is the middle of the unit's bases.
func (u *Unit) centre() geom.Vec {
	var c geom.Vec
	for _, r := range u.Bases {
		c = c.Add(r.C)
	}
	if len(u.Bases) > 0 {
		c = c.Scale(1 / float64(len(u.Bases)))
	}
	return c
}

// unitName is the scenario's unit of length.
func (b *Battle) unitName() string { return string(b.unit.OrInch()) }

// candidatePairs are the pairs of a phasing marker and an enemy marker within
// OpposeWithin of each other, closest first.
func (b *Battle) candidatePairs() [][2]string {
	var out [][2]string
	for i := range b.markers {
		m := &b.markers[i]
		if m.Side != b.phasing() {
			continue
		}
		for j := range b.markers {
			if e := &b.markers[j]; e.Side != m.Side && markerGap(m, e) <= OpposeWithin+geom.Tolerance {
				out = append(out, [2]string{m.ID, e.ID})
			}
		}
	}
	return out
}

// markerFired reports whether a skirmish marker has fired this step: pairs are declared
// before any fire.
func (b *Battle) markerFired() bool {
	return slices.ContainsFunc(b.phase.done, func(id string) bool { return b.marker(id) != nil })
}

// enemiesOf are the units of the other sides with bases left.
func (b *Battle) enemiesOf(side string) []string {
	var out []string
	for i := range b.units {
		if u := &b.units[i]; u.Side != side && !u.Destroyed() {
			out = append(out, u.ID)
		}
	}
	return out
}

// skirmishActors are side's markers that may fire now, each at a unit of the enemy's.
func (b *Battle) skirmishActors(side string) []volley.Actor {
	var out []volley.Actor
	for i := range b.markers {
		m := &b.markers[i]
		if m.Side != side || slices.Contains(b.phase.done, m.ID) || b.opposedBy(m.ID) != "" {
			continue
		}
		// The targets it may fire at: enemy units within the skirmishers' range.
		var targets []string
		for _, id := range b.enemiesOf(side) {
			if b.planSkirmish(&SkirmishFire{Marker: m.ID, Target: id}).aim.Status == volley.StatusOK {
				targets = append(targets, id)
			}
		}
		if len(targets) == 0 {
			continue // a fire that could do nothing
		}
		out = append(out, volley.Actor{ID: m.ID, Label: "skirmishers of " + m.Parent, Action: map[string]any{"marker": m.ID},
			Fields: []volley.Field{volley.UnitField("target", "target", targets)}})
	}
	return out
}

// batteryActors are side's batteries that may fire now (each at a unit of the enemy's,
// or at its main target), and those that may save their fire.
func (b *Battle) batteryActors(side string) (fires, saves []volley.Actor) {
	for i := range b.units {
		u := &b.units[i]
		if u.Side != side || !u.Battery() || u.Destroyed() {
			continue
		}
		a := volley.Actor{ID: u.ID, Label: name(u), Action: map[string]any{"batteries": []string{u.ID}}}
		if b.mayFire(u, false) == "" && b.whenFire(u, false) == "" {
			// The targets it may choose (the main target rule): its main target, and with a
			// good artillery leader attached any other unit of the main target's bracket.
			// A battery with none in its arc and range is not offered a fire that could
			// do nothing.
			if cs := b.candidates(u); len(cs) > 0 {
				ids := []string{cs[0].u.ID}
				if b.qualifiedLeader([]*Unit{u}) != nil {
					for _, c := range cs[1:] {
						if c.bracket == cs[0].bracket {
							ids = append(ids, c.u.ID)
						}
					}
				}
				t := volley.UnitField("target", "target", ids)
				t.Optional = true
				fa := a
				fa.Fields = []volley.Field{t}
				fa.Note = "main target: " + cs[0].u.ID + " (left out, the target is the main target)"
				fires = append(fires, fa)
			}
		}
		if b.maySave(u) == "" {
			saves = append(saves, a)
		}
	}
	return fires, saves
}

// deployOffers are the deployments the sides may make now (volley.Tabletop.DeployOffers):
// each unit's centre placed at a point, facing as the player chooses. It adds the sides to
// o.Acting.
func (b *Battle) deployOffers(o *volley.Offers) []volley.Offer {
	k := b.perCm()
	var ds []volley.Deployer
	for i := range b.units {
		if u := &b.units[i]; !u.Destroyed() && b.table.CheckDeploy(u.Side, []string{u.ID}, "units") == nil {
			ds = append(ds, volley.Deployer{Side: u.Side, Actor: volley.Actor{ID: u.ID, Label: fmt.Sprintf("%s, %s", name(u), u.Kind), Action: map[string]any{"unit": u.ID},
				Note: "at is where the unit's centre stands"}})
		}
	}
	inches := k * 2.54 // the zones are kept in inches
	return b.table.DeployOffers(o, ds, func(side string) []volley.Field {
		return []volley.Field{volley.PointField("at", b.table.ZonePoints(side, inches), b.unitName()), volley.FacingField(0)}
	})
}

// spent says, for each unit, battery, marker and leader that may not act again this
// player turn, why not.
func (b *Battle) spent(o *volley.Offers) {
	step := b.phase.step
	for i := range b.units {
		u := &b.units[i]
		switch {
		case u.Destroyed():
			o.Spent[u.ID] = u.ID + " is destroyed"
		case b.table.InTurns():
			b.table.SpentDeploying(o, u.ID, u.Side, []string{u.ID}, "units")
		case u.Battery():
			left, why, _ := b.movable(u)
			switch {
			case step == Maneuver && b.moves && u.Side == b.phasing() && why == "" && left > 0:
			case b.mayFire(u, false) == "" || b.maySave(u) == "":
			default:
				o.Spent[u.ID] = b.mayFire(u, false)
			}
		case step == Maneuver && b.moves && u.Side == b.phasing():
			if left, why, _ := b.movable(u); why != "" || !(left > 0) {
				o.Spent[u.ID] = why
			}
		case step == Maneuver && b.moves:
			o.Spent[u.ID] = fmt.Sprintf("it is %s's player turn: only its units move in its maneuver step", b.phasing())
		default:
			o.Spent[u.ID] = fmt.Sprintf("only batteries and skirmish markers act in the %s step", step)
		}
	}
	for i := range b.markers {
		m := &b.markers[i]
		switch {
		case b.table.InTurns():
			o.Spent[m.ID] = b.table.DeploymentSpent(m.Side)
		case step == ArtillerySegment:
			o.Spent[m.ID] = "skirmish markers fire in the skirmish fire step, which has passed"
		case slices.Contains(b.phase.done, m.ID):
			o.Spent[m.ID] = m.ID + " has fired this turn: each marker fires once per turn"
		case step == Skirmish && b.opposedBy(m.ID) != "":
			o.Spent[m.ID] = fmt.Sprintf("%s is opposed by %s: opposed skirmishers may not fire this turn", m.ID, b.opposedBy(m.ID))
		}
	}
	for i := range b.leaders {
		l := &b.leaders[i]
		if l.Gone != "" {
			o.Spent[l.ID] = fmt.Sprintf("%s is %s", l.ID, l.Gone)
		} else {
			o.Spent[l.ID] = "a leader takes no action in this phase: it is tested for injury when the artillery segment ends"
		}
	}
}
