package volley

import (
	"fmt"
	"math"
	"slices"

	"github.com/volley-wargames/volley/scenario"
)

// Offers. A battle's view says every action each side may take now, so that a client that
// knows no rule system (the page, an opponent, any program written from docs/json.md)
// can play any of them: what kinds of action, for which squads, units, batteries or
// markers, with which fields and which values each field allows, and what taking it
// ends. Each rule system fills them from its own rules (Offerer); a Game adds its own
// (taking a move back, offering to end the battle).

// Offerer is implemented by battles that can say what each side may do now.
type Offerer interface {
	Offers() Offers
}

// Offers is what the sides may do now.
type Offers struct {
	// Acting are the sides that may take an action of the rules now, in the order they
	// play.
	Acting []string `json:"acting"`
	// Offers are the kinds of action they may take, each for its side.
	Offers []Offer `json:"offers"`
	// Spent holds, for each unit (by its id in State.Units) that may not act again this
	// turn, why not: destroyed, its activation over, another side's turn… A unit not in
	// it may still act this turn, now or in a later phase or step.
	Spent map[string]string `json:"-"`
}

// Act adds sides to the sides acting, each once, in the order given ("" is no side).
func (o *Offers) Act(sides ...string) {
	for _, s := range sides {
		if s != "" && !slices.Contains(o.Acting, s) {
			o.Acting = append(o.Acting, s)
		}
	}
}

// Fill writes into s what the offers say of it: the sides acting (Turn.Acting) and
// whether each unit may still act this turn (UnitState.MayAct, WhyNot).
func (o Offers) Fill(s *State) {
	if s.Turn != nil {
		t := *s.Turn
		t.Acting = slices.Clone(o.Acting)
		s.Turn = &t
	}
	for i := range s.Units {
		u := &s.Units[i]
		why, spent := o.Spent[u.ID]
		may := !spent
		u.MayAct, u.WhyNot = &may, why
	}
}

// Offer is one kind of action a side may take now. Its body is built as: Action (the
// part every actor's body shares), then the chosen actor's Action, then a value for
// each field the player fills (the actor's Fields in place of the offer's of the same
// key). An offer without actors is sent as Action, with its fields.
type Offer struct {
	Side string `json:"side"`
	// Type is the action's type, as its body's type field names it ("move", "shoot",
	// "end_turn"); a system whose action of this kind needs no type field still says it.
	Type  string `json:"type"`
	Label string `json:"label"`
	// Action is the body's fixed part.
	Action map[string]any `json:"action"`
	// Key is the body's field that names the actor ("unit", "squad", "marker",
	// "batteries"), "" for an action no actor takes (ending a turn).
	Key    string  `json:"key,omitempty"`
	Actors []Actor `json:"actors,omitempty"`
	// Fields are what the player chooses, for every actor (see Actor.Fields).
	Fields []Field `json:"fields,omitempty"`
	// AnyOf are fields of which a body sends one at least (a move's path or its facing):
	// each is optional, but not all of them. A key the chosen actor has no field for is
	// not one of them.
	AnyOf []string `json:"any_of,omitempty"`
	// Ends is what taking the action ends (Ends*), "" for nothing; an actor may say
	// otherwise (Actor.Ends).
	Ends string `json:"ends,omitempty"`
	// Help says what the action is, for people.
	Help string `json:"help,omitempty"`
}

// Actor is one squad, unit, model, battery or marker that may take an offer now.
type Actor struct {
	ID    string `json:"id"`
	Label string `json:"label,omitempty"`
	// Action is the part of the body the actor sets: {Key: ID} at least ({"batteries":
	// ["b1"]}, {"unit": "b1", "target": "ligne"}).
	Action map[string]any `json:"action"`
	// Units are the units or models on the table that act with it (a squad's units),
	// for drawing; empty when it is only ID.
	Units []string `json:"units,omitempty"`
	// Fields are the actor's own fields, in place of the offer's of the same key (a
	// move's path from where this unit stands, as far as it may still go), and any it
	// alone has (a battery's limber).
	Fields []Field `json:"fields,omitempty"`
	// Ends is what this actor's action ends, where it is not the offer's Ends.
	Ends string `json:"ends,omitempty"`
	// Closes is the squad or unit acting now whose activation this actor's action
	// would end (it may not act again this turn), "" for none.
	Closes string `json:"closes,omitempty"`
	// Note is a line about the actor ("6 stands can fire; ammunition low").
	Note string `json:"note,omitempty"`
}

// What an action ends (Offer.Ends, Actor.Ends).
const (
	// EndsActivation: the actor may not act again this turn.
	EndsActivation = "activation"
	// EndsPhase, EndsStep: the phase or step under way (the side's turn goes on).
	EndsPhase = "phase"
	EndsStep  = "step"
	// EndsTurn: the side's turn; the next side's begins.
	EndsTurn = "turn"
	// EndsPause: the pause in play that waits on the side's answer (Republique's passing
	// fire); the side that was moving goes on.
	EndsPause = "pause"
	// EndsDeployment: the side's deployment, or its place in a deployment that
	// alternates (the next side places a unit).
	EndsDeployment = "deployment"
	// EndsBattle: the battle (every other side has offered to end it).
	EndsBattle = "battle"
)

// Field is one value the player chooses for an action. Lengths and points are in the
// view's unit (table.unit, or squares on a grid map), with y growing north.
type Field struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	// Kind says what the value is (Field*).
	Kind string `json:"kind"`
	// Optional: the field may be left out (the rules then choose, or nothing changes).
	Optional bool `json:"optional,omitempty"`
	// Options are the values allowed (select, unit, checks); on a flag, what choosing
	// true does to the other fields (its Limits), where it does anything.
	Options []Option `json:"options,omitempty"`
	// Squares: a unit field also takes any square [column, row] of the map (a War
	// Engine target).
	Squares bool `json:"squares,omitempty"`
	// Min, Max and Step bound a number; Max bounds a path's length.
	Min  *float64 `json:"min,omitempty"`
	Max  *float64 `json:"max,omitempty"`
	Step float64  `json:"step,omitempty"`
	// Unit is the unit of a number or a length: "in", "cm", "squares", "degrees".
	Unit string `json:"unit,omitempty"`
	// From is where a path starts (it is not sent: the path's points follow it).
	From *[2]float64 `json:"from,omitempty"`
	// Grid: a path of squares [column, row], each next to the last.
	Grid bool `json:"grid,omitempty"`
	// Within is the polygon a point must lie in (a deployment zone); nil for anywhere on
	// the table (within its edge, table.edge).
	Within [][2]float64 `json:"within,omitempty"`
	// Rows are the fixed part of each row of a rows field (a weapon of the squad's: {unit,
	// weapon}), each sent with the Row fields chosen for it, or left out; nil for rows
	// the player adds, up to MaxRows. Row are the fields of each row.
	Rows    []map[string]any `json:"rows,omitempty"`
	Row     []Field          `json:"row,omitempty"`
	MaxRows int              `json:"max_rows,omitempty"`
	// Needs are the fields this one is sent with, when it is sent (a wheel's pivot needs
	// the facing wheeled to); Excludes those it is never sent with (a wheel is a move of
	// its own: no path).
	Needs    []string `json:"needs,omitempty"`
	Excludes []string `json:"excludes,omitempty"`
}

// The kinds of Field.
const (
	// FieldSelect is one of Options' values.
	FieldSelect = "select"
	// FieldUnit is one of Options' values, each a unit, squad, model or marker on the
	// table (a target): a page picks it by clicking.
	FieldUnit = "unit"
	// FieldChecks is a list of some of Options' values.
	FieldChecks = "checks"
	// FieldNumber is a number from Min to Max, a multiple of Step where Step is set.
	FieldNumber = "number"
	// FieldFlag is true or false.
	FieldFlag = "flag"
	// FieldPoint is a point [x, y] on the table (a square [column, row] on a grid),
	// within Within where it is set.
	FieldPoint = "point"
	// FieldPath is the points [[x, y], …] a unit moves through from From, ending where it
	// stops, at most Max long in all (squares [column, row] one step at a time, Grid).
	FieldPath = "path"
	// FieldRows is a list of objects, each a row of Rows with its Row fields.
	FieldRows = "rows"
)

// Option is one value a field allows.
type Option struct {
	Value any    `json:"value"`
	Label string `json:"label,omitempty"`
	Note  string `json:"note,omitempty"`
	// Limits are what choosing this value bounds among the action's other fields: the
	// field's key and its Max once this value is chosen, in place of the field's own
	// (a WarStrike action's move: {"path": 4}; a Republique battery that limbers first:
	// {"path": 20}). Where several chosen values bound one field, the least holds.
	Limits map[string]float64 `json:"limits,omitempty"`
	// Allows names the offers (their Type) the actor may still take this turn after
	// choosing it: a WarStrike action that allows a shot allows ["shoot"]; empty for
	// none.
	Allows []string `json:"allows,omitempty"`
}

// The ends of the game's own actions, and of the rule systems', for offers.

// EndOffer is the offer of an action that ends something and says nothing else, such
// as {type: end_turn}: side's, labelled label, ending ends.
func EndOffer(side, typ, label, ends string) Offer {
	return Offer{Side: side, Type: typ, Label: label, Action: map[string]any{"type": typ}, Ends: ends}
}

// EndTurn adds to o side's offer to end its turn ({type: end_turn}), which ends the
// turn; none when no side has a turn under way (side "").
func (o *Offers) EndTurn(side string) {
	if side != "" {
		o.Offers = append(o.Offers, EndOffer(side, EndTurn, "End turn", EndsTurn))
	}
}

// Label is how an offer names a unit: by its name with its id, or by its id alone when
// it has no name.
func Label(name, id string) string {
	if name == "" {
		return id
	}
	return name + " (" + id + ")"
}

// Num is a pointer to x, rounded to a millionth, for a Field's Min or Max.
func Num(x float64) *float64 {
	v := math.Round(x*1e6) / 1e6
	return &v
}

// Pt is a point for a Field, rounded to a millionth.
func Pt(x, y float64) *[2]float64 {
	return &[2]float64{math.Round(x*1e6) / 1e6, math.Round(y*1e6) / 1e6}
}

// PathField is a move's path from from, at most max long, in unit. Max is rounded to a
// millionth, down unless rounding up adds no more than the rules' tolerance, so that a
// path of exactly Max is never refused as too long.
func PathField(from *[2]float64, max float64, unit string) Field {
	m := math.Round(max*1e6) / 1e6
	if m > max+1e-9 {
		m -= 1e-6
	}
	return Field{Key: "path", Label: "path", Kind: FieldPath, From: from, Max: &m, Unit: unit}
}

// FacingField is a facing in compass degrees (0 faces north, growing clockwise), a
// multiple of step (0: any), left out to keep the unit's.
func FacingField(step float64) Field {
	return Field{Key: "facing", Label: "facing", Kind: FieldNumber, Optional: true, Min: Num(0), Max: Num(360), Step: step, Unit: "degrees"}
}

// UnitField is a field whose value is one of ids (a target).
func UnitField(key, label string, ids []string) Field {
	f := Field{Key: key, Label: label, Kind: FieldUnit, Options: []Option{}}
	for _, id := range ids {
		f.Options = append(f.Options, Option{Value: id})
	}
	return f
}

// SelectField is a field whose value is one of values.
func SelectField(key, label string, values ...string) Field {
	f := Field{Key: key, Label: label, Kind: FieldSelect, Options: []Option{}}
	for _, v := range values {
		f.Options = append(f.Options, Option{Value: v})
	}
	return f
}

// MoveOffer is the offer to move actors of side, each a unit (or model) with its path:
// help says, for people, how the system's pieces move.
func MoveOffer(side string, actors []Actor, help string) Offer {
	return Offer{Side: side, Type: MoveAction, Label: "Move", Action: map[string]any{"type": MoveAction}, Key: "unit", Actors: actors, Help: help}
}

// DeployOffer is the offer to deploy actors of side, with fields (where each is placed,
// and how it faces).
func DeployOffer(side string, actors []Actor, fields []Field) Offer {
	return Offer{Side: side, Type: DeployAction, Label: "Deploy", Action: map[string]any{"type": DeployAction}, Key: "unit", Actors: actors, Fields: fields,
		Help: "Place a unit in the side's deployment zone (anywhere on the table without one); it may be placed again while the side deploys, unless the sides place a unit each in turn."}
}

// PointField is a point [x, y] (a square [column, row] on a grid) within within (nil:
// anywhere on the table), in unit.
func PointField(key string, within [][2]float64, unit string) Field {
	return Field{Key: key, Label: key, Kind: FieldPoint, Within: within, Unit: unit}
}

// ZonePoints is a deployment zone as a Field's Within, in the view's unit (k per inch).
func (t *Tabletop) ZonePoints(side string, k float64) [][2]float64 {
	z, ok := t.Zones[side]
	if !ok {
		return nil
	}
	out := make([][2]float64, len(z))
	for i, p := range z {
		out[i] = *Pt(p.X*k, p.Y*k)
	}
	return out
}

// ZoneField is where a unit of side is deployed: a point, "at", within the side's zone
// (anywhere on the table without one), in unit.
func (t *Tabletop) ZoneField(side string, unit scenario.Unit) Field {
	return PointField("at", t.ZonePoints(side, scenario.Inches(1).In(unit)), string(unit))
}

// OpenOffers begins a battle's Offers with the deployments the sides may make now
// (deploy builds them, as DeployOffers does; none when the battle does not deploy now:
// Deploys), and reports whether they are all the battle offers: while the sides deploy
// in turns nothing else is done, and the caller only says why each unit is spent.
func (t *Tabletop) OpenOffers(battleMoves bool, deploy func(o *Offers) []Offer) (Offers, bool) {
	o := Offers{Acting: []string{}, Spent: map[string]string{}}
	if !t.Deploys(battleMoves) {
		return o, false
	}
	o.Offers = deploy(&o)
	return o, t.InTurns()
}

// DeploymentOffers are the offers of a deployment in turns, for the side deploying
// now: deploy (the actors and the fields, built by the caller) and end_deployment.
// Ends of a deployment: alternating, each unit placed passes the deployment; else the
// side's last unit placed ends its deployment. It returns nil when no side deploys in
// turns.
func (t *Tabletop) DeploymentOffers(actors []Actor, fields []Field) []Offer {
	side := t.DeployingSide()
	if side == "" {
		return nil
	}
	d := t.Deployment
	left := 0
	for _, u := range d.Units[side] {
		if !slices.Contains(d.Deployed, u) {
			left++
		}
	}
	for i := range actors {
		a := &actors[i]
		switch {
		case d.Alternate:
			a.Ends = EndsDeployment
		case left == 1 && !slices.Contains(d.Deployed, a.ID) && slices.Contains(d.Units[side], a.ID):
			a.Ends = EndsDeployment
		}
	}
	var out []Offer
	if len(actors) > 0 {
		out = append(out, DeployOffer(side, actors, fields))
	}
	return append(out, EndOffer(side, EndDeployment, "End deployment", EndsDeployment))
}

// Deploys reports whether the battle offers deployments now: while the sides deploy in
// turns, or in a battle that moves (battleMoves) before its first action other than a
// deployment (edition 4, when either side could deploy).
func (t *Tabletop) Deploys(battleMoves bool) bool {
	return t.InTurns() || battleMoves && t.Deploying && t.Deployment == nil
}

// Deployer is a unit that may be deployed now, offered to its side as Actor.
type Deployer struct {
	Side  string
	Actor Actor
}

// DeployOffers are the deployments the sides may make now, and it adds the sides that
// make them to o.Acting: the deploying side's in a deployment in turns
// (DeploymentOffers), else each side's with a unit in deployers, in their order (edition
// 4: every side deploys until the battle's first other action). fields are a side's
// fields of a deployment: where its unit goes (within its zone), and how it faces.
func (t *Tabletop) DeployOffers(o *Offers, deployers []Deployer, fields func(side string) []Field) []Offer {
	var sides []string
	bySide := map[string][]Actor{}
	for _, d := range deployers {
		if !slices.Contains(sides, d.Side) {
			sides = append(sides, d.Side)
		}
		bySide[d.Side] = append(bySide[d.Side], d.Actor)
	}
	if side := t.DeployingSide(); side != "" {
		o.Acting = append(o.Acting, side)
		return t.DeploymentOffers(bySide[side], fields(side))
	}
	var out []Offer
	for _, s := range sides {
		o.Acting = append(o.Acting, s)
		out = append(out, DeployOffer(s, bySide[s], fields(s)))
	}
	return out
}

// DeploymentSpent says, while the sides deploy in turns, why a unit of side may not act
// now: the battle has not begun (a unit of the side deploying may still be placed).
func (t *Tabletop) DeploymentSpent(side string) string {
	if !t.InTurns() {
		return ""
	}
	return "the battle has not begun: it is " + t.DeployingSide() + "'s deployment"
}

// SpentDeploying records in o.Spent, while the sides deploy in turns, why piece id of
// side (placing ids: it, or its models; what: "units", "models") may not act now: it is
// another side's deployment, or the piece may not be placed again (alternating).
func (t *Tabletop) SpentDeploying(o *Offers, id, side string, ids []string, what string) {
	if side != t.DeployingSide() || t.CheckDeploy(side, ids, what) != nil {
		o.Spent[id] = t.DeploymentSpent(side)
	}
}

// SpentNow records in o.Spent why piece id of side may not act now for a reason no
// rulebook gives, and reports whether it did: while the sides deploy in turns, as
// SpentDeploying says (ids, what); else, side not among the sides acting, that it is
// current's turn. The rules say the rest.
func (t *Tabletop) SpentNow(o *Offers, id, side string, ids []string, what string, acting []string, current string) bool {
	switch {
	case t.InTurns():
		t.SpentDeploying(o, id, side, ids, what)
	case !slices.Contains(acting, side):
		o.Spent[id] = fmt.Sprintf("it is %s's turn", current)
	default:
		return false
	}
	return true
}

// Wait marks an aim whose shot the rules would take as aimed, but not now (another
// side's turn, another phase or step, the shooter's activation over): NotNow says why,
// and a note "not now: …" says it to people.
func (a *Aim) Wait(why string) {
	a.NotNow = why
	a.Notes = append(slices.Clip(a.Notes), "not now: "+why)
}

// EditionHopeless is the first edition whose battles refuse, in every rule system, a
// shot at a target it can do nothing to: every aim at it impossible (out of range, out of
// arc, unseen, not eligible). Such a shot is refused (EINVALID) naming the target, and the
// battle is as it was. Dropzone and Warfare always refused it; WarStrike took it and
// rolled nothing for it before, and its battles begun before this edition replay so. The
// War Engine's shots are never hopeless: a declaration out of range or arc is corrected
// into the weapon's reach, and a square out of sight may still be targeted.
const EditionHopeless = 5
