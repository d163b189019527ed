package warengine

import (
	"fmt"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// OrderType names a War Engine action.
type OrderType string

// The actions of the target and fire phases, of Phase I and of deployment.
const (
	// Move moves a unit along a path of squares in its side's Phase I, and may turn it
	// (from edition 4; see move.go).
	Move OrderType = volley.MoveAction
	// Deploy places a unit before the battle's first other action, inside its side's
	// deployment zone (from edition 4).
	Deploy OrderType = volley.DeployAction
	// Declare aims a weapon at a square (target phase). A square outside the weapon's
	// range or arc is corrected to the nearest square inside them.
	Declare OrderType = "declare"
	// Clear removes a weapon's declared target (target phase).
	Clear OrderType = "clear"
	// Group chooses the weapon group a unit fires this turn and clears the targets of
	// any other group (target phase).
	Group OrderType = "group"
	// Fire fires a weapon at its declared target (fire phase). Aim and Odds also take a
	// fire order with a target of its own, to ask "what if I fired there"; Resolve fires
	// only declared targets, so every shot goes through the target phase.
	Fire OrderType = "fire"
	// EndPhase moves from the move phase (Phase I) to the target phase, from the target
	// phase to the fire phase, and from the fire phase to the next side's turn, clearing
	// the targets left unfired.
	EndPhase OrderType = "end_phase"
	// EndDeployment ends the deploying side's deployment (from edition 5, when the sides
	// deploy in turns before the battle begins; volley's, not in the source).
	EndDeployment OrderType = volley.EndDeployment
)

// Order is one War Engine action.
type Order struct {
	Type     OrderType
	Unit     string
	Weapon   string
	Target   *geom.Square // nil: the declared target (fire)
	Friendly bool         // the game's shift-click: a friendly unit may be targeted
	Group    int
	// Aiming, when not nil, states whether the unit aims (declare and fire): the
	// command line's "what if", which wins over what the battle measures. A refereed
	// order may not state it.
	Aiming *bool
	// Path is a move's squares after the one the unit stands on, each next to the last:
	// where its top-left square steps. Facing is the facing a move or a deployment ends
	// with, nil to keep it; At is where a deployment puts the unit's top-left square.
	Path   []geom.Square
	Facing *Facing
	At     geom.Square
	// at is where the order was written: its start, its unit, its target (a
	// deployment's at) and each square of its path, where a refusal is reported (see
	// Refusals). Zero for an order built in code.
	at struct {
		root, unit, target scenario.Pos
		path               []scenario.Pos
	}
}

// Kind returns the order's type.
func (o *Order) Kind() string { return string(o.Type) }

// actionSpec is an action as written.
type actionSpec struct {
	Type     string `yaml:"type,required"`
	Unit     string `yaml:"unit"`
	Weapon   string `yaml:"weapon"`
	Target   any    `yaml:"target"`
	Friendly bool   `yaml:"friendly"`
	Group    int    `yaml:"group"`
	Aiming   *bool  `yaml:"aiming"`
}

// DecodeAction decodes an action in the form of a scenario's `action:` section.
func (b *Battle) DecodeAction(doc *scenario.Doc) (volley.Action, error) {
	if doc == nil {
		return nil, volley.Errorf(volley.EINVALID, "warengine: no action")
	}
	o, err := b.decodeOrder(doc)
	if err != nil {
		return nil, err
	}
	if err := volley.CheckCost(doc, b, o, costWhy); err != nil {
		return nil, err
	}
	return o, nil
}

// decodeOrder decodes an action: its type decides its form.
func (b *Battle) decodeOrder(doc *scenario.Doc) (*Order, error) {
	switch OrderType(doc.Peek("type")) {
	case Move:
		return b.decodeMove(doc)
	case Deploy:
		return b.decodeDeploy(doc)
	case EndDeployment:
		if _, err := b.table.DecodeEndDeployment(doc); err != nil {
			return nil, err
		}
		o := &Order{Type: EndDeployment}
		o.at.root, o.at.unit = doc.Root(), doc.Root()
		return o, nil
	}
	return volley.ReadAction(doc, func(s *actionSpec, errs *scenario.ErrorList) *Order { return b.checkAction(doc, s, errs) })
}

// checkAction resolves the names in an action. Whether the action is allowed now (the
// phase, the turn, the group) is the state's business, checked when it is resolved.
func (b *Battle) checkAction(doc *scenario.Doc, s *actionSpec, errs *scenario.ErrorList) *Order {
	o := &Order{Type: OrderType(s.Type), Unit: s.Unit, Weapon: s.Weapon, Friendly: s.Friendly, Group: s.Group}
	o.at.root, o.at.unit, o.at.target = doc.At(s), doc.At(&s.Unit), doc.At(&s.Target)
	need := func(ok bool, field string) {
		if !ok {
			errs.Add(doc.At(s), "a %s action needs %s", s.Type, field)
		}
	}
	switch o.Type {
	case Declare:
		need(s.Unit != "", "a unit")
		need(s.Weapon != "", "a weapon")
		need(s.Target != nil, "a target: [column, row] or a unit id")
	case Fire, Clear:
		need(s.Unit != "", "a unit")
		need(s.Weapon != "", "a weapon")
	case Group:
		need(s.Unit != "", "a unit")
		if s.Group < 1 || s.Group > MaxGroups {
			errs.Add(doc.At(&s.Group), "group must lie between 1 and %d", MaxGroups)
		}
	case EndPhase:
	default:
		if s.Type != "" {
			errs.Add(doc.At(&s.Type), "unknown action type %q: want %sdeclare, clear, group, fire or end_phase", s.Type, b.moveTypes())
		}
		return nil
	}
	if s.Aiming != nil {
		// Whether a unit aims is a fact of its Phase I: the battle's (or the scenario's),
		// never a player's word to a server.
		switch {
		case o.Type != Declare && o.Type != Fire:
			errs.Add(doc.At(s.Aiming), "aiming: only a declare or fire order's shot reads whether the unit aims")
		case doc.Refereed && volley.Moves(doc):
			volley.RefuseStated(errs, doc, s.Aiming, "aiming", "whether a unit aims (it stood still in its side's Phase I)")
		case doc.Refereed:
			errs.Add(doc.At(s.Aiming), "aiming: in a battle begun under edition %d a unit aims as the scenario says (its aiming:); an action sent to the server may not state it", volley.DocEdition(doc))
		default:
			o.Aiming = s.Aiming
		}
	}
	if s.Unit != "" {
		u, ok := b.Unit(s.Unit)
		if !ok {
			errs.Add(doc.At(&s.Unit), "unknown unit %q%s", s.Unit, scenario.Hint(s.Unit, b.unitIDs()))
		} else if s.Weapon != "" && u.loadout(s.Weapon) == nil {
			errs.Add(doc.At(&s.Weapon), "unit %q (%s) has no weapon %q%s", u.ID, u.Type.Name, s.Weapon, scenario.Hint(s.Weapon, loadoutNames(u)))
		}
	}
	if s.Target != nil && b.width > 0 { // without a map (reported) no square can be checked
		sq, err := b.resolveTarget(s.Target)
		if err != nil {
			errs.Add(doc.At(&s.Target), "target: %v", err)
		} else {
			o.Target = &sq
		}
	}
	return o
}

func loadoutNames(u *Unit) []string {
	names := make([]string, len(u.Type.Weapons))
	for i, l := range u.Type.Weapons {
		names[i] = l.Name()
	}
	return names
}

func order(a volley.Action) *Order { return rules.Must[*Order](Name, a) }

// refuse says why an order cannot be carried out in the battle as it stands, or nil.
func (b *Battle) refuse(o *Order) error { return b.refuseAs(o, false) }

// refuseAs is refuse; whatIf takes a fire order with a target of its own as the question
// aim and odds answer ("what if it had been declared there"), not as an order to carry
// out, so neither its target nor a missing declaration refuses it.
func (b *Battle) refuseAs(o *Order, whatIf bool) error {
	if o.Type == Deploy || o.Type == EndDeployment {
		return nil // checkDeploy's and the deployment's: deployments come before the battle's turns
	}
	if err := b.table.CheckBegun(); err != nil && !whatIf {
		return fmt.Errorf("warengine: %w", err) // from edition 5 the battle begins once every side has deployed
	}
	if o.Type == EndPhase {
		if len(b.sides) == 0 {
			return volley.Errorf(volley.EINVALID, "warengine: there are no units, so no side has a turn to end")
		}
		return nil
	}
	u, _ := b.Unit(o.Unit)
	switch {
	case u.Destroyed():
		return volley.Errorf(volley.EINVALID, "warengine: %s is destroyed", u.ID)
	case u.Side != b.side:
		return volley.Errorf(volley.ECONFLICT, "warengine: it is %s's turn, and %s is %s's", b.side, u.ID, u.Side)
	}
	wantPhase := PhaseTarget
	switch o.Type {
	case Fire:
		wantPhase = PhaseFire
	case Move:
		wantPhase = PhaseMove
	}
	if b.phase != wantPhase {
		return volley.Errorf(volley.ECONFLICT, "warengine: a %s action belongs to the %s phase; this is the %s phase", o.Type, wantPhase, b.phase)
	}
	if o.Type == Fire && u.Stunned {
		return volley.Errorf(volley.ECONFLICT, "warengine: %s is stunned: it may not fire this phase", u.ID)
	}
	if o.Type == Declare || o.Type == Fire {
		if l := u.loadout(o.Weapon); u.Group != 0 && l.Group != u.Group {
			return volley.Errorf(volley.EINVALID, "warengine: %s is in group %d, and %s fires group %d this turn: a unit fires one group a turn", o.Weapon, l.Group, u.ID, u.Group)
		}
	}
	if whatIf && o.Type == Fire && o.Target != nil {
		return nil
	}
	switch o.Type {
	case Fire:
		if o.Target != nil {
			return volley.Errorf(volley.EINVALID, "warengine: a fire order fires the target declared in the target phase; a target on a fire order is only for aim and odds")
		}
		fallthrough
	case Clear:
		if u.declared(o.Weapon) == nil {
			return volley.Errorf(volley.EINVALID, "warengine: %s has no target declared for %s (already fired, cleared, or never declared)", u.ID, o.Weapon)
		}
	case Group:
		has := false
		for _, l := range u.Type.Weapons {
			has = has || l.Group == o.Group
		}
		if !has {
			return volley.Errorf(volley.EINVALID, "warengine: %s has no weapon in group %d", u.ID, o.Group)
		}
	}
	return nil
}

// targetOf is the square an order aims at: its own target, else the declared one.
func (b *Battle) targetOf(o *Order) (geom.Square, bool, bool) {
	if o.Target != nil {
		return *o.Target, o.Friendly, true
	}
	u, _ := b.Unit(o.Unit)
	if d := u.declared(o.Weapon); d != nil {
		return d.Target, d.Friendly, true
	}
	return geom.Square{}, false, false
}

// Actor is the side of the unit an order is for; ending a phase is the side whose turn
// it is.
func (b *Battle) Actor(a volley.Action) string {
	o := order(a)
	if o.Type == EndDeployment {
		if side := b.table.DeployingSide(); side != "" {
			return side
		}
		return b.side
	}
	if u, ok := b.Unit(o.Unit); ok {
		return u.Side
	}
	return b.side
}
