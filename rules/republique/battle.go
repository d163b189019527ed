package republique

import (
	"maps"
	"slices"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// Name is the value of `ruleset:` that selects this system.
const Name = "republique"

func init() { rules.Register(Ruleset{}) }

// Ruleset is Republique's Artillery/Skirmish phase.
type Ruleset struct{}

// What the engine may ask of the system: what it asks of every battle (rules.Battle), and
// the interfaces its Ruleset, Battle or actions answer beyond it, where a reader looks first.
var (
	_ volley.Describer = Ruleset{}
	_ rules.Battle     = (*Battle)(nil)
	_ volley.Table     = (*Battle)(nil)
	_ volley.Moving    = (*Move)(nil)
	_ volley.Moving    = (*Deploy)(nil)
)

// Name returns "republique".
func (Ruleset) Name() string { return Name }

// Load decodes a Republique scenario and the action of its `action:` section, if any.
func (Ruleset) Load(doc *scenario.Doc) (volley.Battle, volley.Action, error) {
	var f file
	return rules.Load(doc, &f, load, (*Battle).decodeAction)
}

// Battle is a Republique battle: units of bases, batteries, skirmish markers, leaders
// and where the player turn stands.
type Battle struct {
	opts    options
	charts  *Charts
	unit    scenario.Unit
	ladder  []string
	terrain []Piece
	units   []Unit
	markers []Marker
	leaders []Leader
	phase   phase
	// moves is true from volley.EditionMoves: units move, and the facts of movement are
	// measured. movement are the scenario's rates, table its edge and deployment zones.
	moves    bool
	movement movement
	table    volley.Tabletop
	// ghost is set in a copy made to work out passing fire: the mover, standing where it
	// was when the battery's distance was reached (fireView).
	ghost string
	// broken holds the ids of units, markers and leaders written in the scenario that
	// failed to load, with their errors reported where they are written: a reference
	// to one says nothing more. Empty in a battle that loaded.
	broken map[string]bool
}

// lostBase is a combat base lost this player turn, where it stood.
type lostBase struct {
	Unit, Side string
	R          Rect
}

// pendingHits are hits scored in the current step that take effect at its end
// (simultaneous fire).
type pendingHits struct {
	Unit   string
	Morale int
	Bases  int
	// From is where the first fire that scored base hits came from: bases are removed
	// nearest to it first.
	From *Rect
}

// phase is where the player turn stands and what has happened in it.
type phase struct {
	order  []string
	side   int
	number int
	step   Step
	// done: batteries that fired or saved fire, markers that fired, this player turn.
	done []string
	// passed: batteries that passed fire this player turn (they may not fire in its
	// artillery segment).
	passed []string
	// pairs are the opposed skirmish markers, once the phasing player has declared them
	// (or the first skirmish fire has fixed the default pairing).
	pairs      [][2]string
	paired     bool
	pending    []pendingHits
	firedUpon  []string
	skirmished []string
	lost       []lostBase
	// demoralized are the units that began the phase demoralized: their morale hits are
	// panic hits.
	demoralized []string
	// panic counts each unit's pending panic tests (the Panic section is not part of the
	// phase's text).
	panic map[string]int
	// began is each battery's morale when the artillery fire segment began, which decides
	// Disordered+ from edition 5 (Edition5); nil outside the segment.
	began map[string]int
	// Movement this player turn, from edition 4: how far each unit has moved of its rate
	// and each battery by prolonge (cm), how far each mover has moved across each enemy
	// battery's front within its arc, and the pause for passing fire after a move.
	moved     map[string]float64
	prolonged map[string]float64
	inArc     map[arcKey]float64
	window    *passWindow
}

// clone copies the phase so that a resolution can work on it and keep it only if
// nothing fails.
func (p phase) clone() phase {
	p.order = slices.Clone(p.order)
	p.done = slices.Clone(p.done)
	p.passed = slices.Clone(p.passed)
	p.pairs = slices.Clone(p.pairs)
	p.pending = slices.Clone(p.pending)
	p.firedUpon = slices.Clone(p.firedUpon)
	p.skirmished = slices.Clone(p.skirmished)
	p.lost = slices.Clone(p.lost)
	p.demoralized = slices.Clone(p.demoralized)
	m := make(map[string]int, len(p.panic))
	for k, v := range p.panic {
		m[k] = v
	}
	p.panic = m
	p.began = maps.Clone(p.began)
	p.moved = cloneMap(p.moved)
	p.prolonged = cloneMap(p.prolonged)
	p.inArc = cloneMap(p.inArc)
	p.window = p.window.clone()
	return p
}

// newMovement empties what the phase records of movement, for a new player turn.
func (p *phase) newMovement() {
	p.moved, p.prolonged, p.inArc, p.window = map[string]float64{}, map[string]float64{}, map[arcKey]float64{}, nil
}

// phasing is the side whose player turn it is.
func (b *Battle) phasing() string {
	if len(b.phase.order) == 0 {
		return ""
	}
	return b.phase.order[b.phase.side]
}

// Unit returns the unit (or battery) with the given id, or nil.
func (b *Battle) Unit(id string) *Unit {
	for i := range b.units {
		if b.units[i].ID == id {
			return &b.units[i]
		}
	}
	return nil
}

func (b *Battle) marker(id string) *Marker {
	for i := range b.markers {
		if b.markers[i].ID == id {
			return &b.markers[i]
		}
	}
	return nil
}

func (b *Battle) unitIDs() []string { return rules.IDs(b.units, func(u *Unit) string { return u.ID }) }

func (b *Battle) markerIDs() []string {
	return rules.IDs(b.markers, func(m *Marker) string { return m.ID })
}

// ladder positions of the text's named states.
func (b *Battle) stepOf(name string) int { return slices.Index(b.ladder, name) }
func (b *Battle) disordered() int        { return b.stepOf("disordered") }
func (b *Battle) rattled() int           { return b.stepOf("rattled") }
func (b *Battle) shaken() int            { return b.stepOf("shaken") }
func (b *Battle) demoralized() int       { return b.stepOf("demoralized") }

// moraleName is the name of a ladder step.
func (b *Battle) moraleName(i int) string { return b.ladder[min(max(i, 0), len(b.ladder)-1)] }

// beginSegment records each battery's morale as the artillery fire segment begins: what
// Disordered+ reads from edition 5 ("batteries which begin the artillery fire step in
// disordered or rattled status").
func (b *Battle) beginSegment() {
	if !b.opts.segmentStart {
		return
	}
	b.phase.began = map[string]int{}
	for i := range b.units {
		if u := &b.units[i]; u.Battery() {
			b.phase.began[u.ID] = u.Morale
		}
	}
}

// disorderRead is the morale Disordered+ reads for a battery's fire, and when it was
// read: from edition 5, in the artillery fire segment, the morale it began the segment
// with; otherwise (passing fire, earlier editions) its morale as it fires, when "".
func (b *Battle) disorderRead(bat *Unit, passing bool) (int, string) {
	if m, ok := b.phase.began[bat.ID]; ok && !passing && b.phase.step == ArtillerySegment {
		return m, "when the artillery fire segment began"
	}
	return bat.Morale, ""
}

// pendingFor is the hits pending against a unit in the current step.
func (b *Battle) pendingFor(id string) pendingHits {
	for _, p := range b.phase.pending {
		if p.Unit == id {
			return p
		}
	}
	return pendingHits{Unit: id}
}
