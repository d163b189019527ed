package volley

import (
	"slices"

	"github.com/volley-wargames/volley/scenario"
)

// Deployment in turns. Until EditionDeployTurns a battle that moves let either side
// deploy at any time before the battle's first other action, and that action ended the
// deployment for both: the side that acted first could deny the other any deployment.
// From EditionDeployTurns a battle that deploys (its scenario gives deployment zones or a
// deployment_order) begins with its deployment, in turns: the sides deploy in the order
// they play, beginning with the side that plays first, each deploying its units in its own
// deployment and then passing; with deployment_order: alternate they place one unit each
// in turn. A side's deployment ends when it has deployed every unit or says it is done
// ({type: end_deployment}); the battle begins, and takes an action other than a
// deployment, only when every side's has ended. None of the five rule systems' texts says
// how its sides deploy: the order is volley's, and each system's docs/rules page says so.

// EditionDeployTurns is the first edition whose battles deploy in turns and begin only
// when every side has deployed (see above); a battle begun before deploys as it did.
const EditionDeployTurns = 5

// EndDeployment is the type of the action by which the side deploying now says it is
// done, as the page sends it: {type: end_deployment}.
const EndDeployment = "end_deployment"

// The deployment orders a scenario's deployment_order may name.
const (
	// DeploySides: each side deploys all the units it will, then passes (the default,
	// unless the battle's activations alternate).
	DeploySides = scenario.DeploySides
	// DeployAlternate: the sides place one unit each in turn (the default where the
	// battle's activations alternate).
	DeployAlternate = scenario.DeployAlternate
)

// DeploymentEnd is the action that ends the deploying side's deployment.
type DeploymentEnd struct{}

// Kind returns "end_deployment".
func (*DeploymentEnd) Kind() string { return EndDeployment }

// Deployment is a deployment in turns. Every slice is the battle's own: Clone copies it.
type Deployment struct {
	// Order lists the sides in the order they deploy: the battle's turn order, from the
	// side that plays first. Side is the index in it of the side deploying now.
	Order []string
	Side  int
	// Alternate passes the deployment to the next side after each unit placed whole.
	Alternate bool
	// Units are each side's units that its deployment places: when all of them are
	// deployed, its deployment ends by itself.
	Units map[string][]string
	// Deployed lists the units placed whole, in the order they were; Placed every unit
	// or model a deployment has placed (alternating, none is placed twice).
	Deployed, Placed []string
	// Over lists the sides whose deployment has ended.
	Over []string
}

// deployPlan is what a Tabletop keeps of its scenario's deployment until the rule system
// plans it (PlanDeployment): whether the battle deploys in turns, and in which order.
type deployPlan struct {
	turns bool
	order string
}

// loadDeployment reads whether a scenario's battle deploys in turns, and in which order
// (its deployment_order), into t.
func (t *Tabletop) loadDeployment(doc *scenario.Doc, h *scenario.Header, errs *scenario.ErrorList) {
	given := doc.Pos(&h.DeploymentOrder).IsValid()
	if DocEdition(doc) < EditionDeployTurns {
		if given {
			errs.Add(doc.At(&h.DeploymentOrder), "deployment_order: a battle begun under edition %d deploys without turns (from edition %d)", DocEdition(doc), EditionDeployTurns)
		}
		return
	}
	switch h.DeploymentOrder {
	case "", DeploySides, DeployAlternate:
	default:
		errs.Add(doc.At(&h.DeploymentOrder), "deployment_order: want %q or %q, got %q", DeploySides, DeployAlternate, h.DeploymentOrder)
	}
	t.plan = deployPlan{turns: true, order: h.DeploymentOrder}
	// A battle deploys when its scenario gives zones or an order; without either, its
	// units begin where the scenario places them.
	t.Deploying = len(h.Deployment) > 0 || given
}

// PlanDeployment sets the turns of the deployment of a battle that deploys in turns
// (from EditionDeployTurns; before, and in a battle that does not deploy, it does
// nothing): order lists the sides in the order they play, from the side that plays
// first; units are each side's units that deploy; alternating says the battle's
// activations alternate, so that by default its deployment alternates too. A side with
// no unit to deploy has none.
func (t *Tabletop) PlanDeployment(order []string, units map[string][]string, alternating bool) {
	if !t.plan.turns || !t.Deploying {
		return
	}
	d := &Deployment{Order: slices.Clone(order), Units: map[string][]string{}}
	switch t.plan.order {
	case DeployAlternate:
		d.Alternate = true
	case "":
		d.Alternate = alternating
	}
	for _, side := range order {
		d.Units[side] = slices.Clone(units[side])
		if len(units[side]) == 0 {
			d.Over = append(d.Over, side)
		}
	}
	t.Deployment = d
	if len(d.Order) == 0 || slices.Contains(d.Over, d.Order[0]) {
		t.passDeployment()
	}
}

// InTurns reports whether the battle is deploying in turns now: its first action other
// than a deployment must wait.
func (t *Tabletop) InTurns() bool { return t.Deployment != nil && t.Deploying }

// DeployingSide is the side deploying now, or "" when no side deploys in turns.
func (t *Tabletop) DeployingSide() string {
	if !t.InTurns() {
		return ""
	}
	return t.Deployment.Order[t.Deployment.Side]
}

// CheckBegun returns the error that keeps an action other than a deployment from being
// taken now: the battle's deployment goes on (ECONFLICT, naming whose it is). Before
// EditionDeployTurns there is none: the first other action ends the deployment.
func (t *Tabletop) CheckBegun() error {
	if !t.InTurns() {
		return nil
	}
	return Errorf(ECONFLICT, "the battle has not begun: it is %s's deployment; it begins when every side has deployed its units or ended its deployment ({type: %s})", t.DeployingSide(), EndDeployment)
}

// CheckDeploy returns the error that keeps side from deploying ids (a unit, or models of
// one) now: the battle has begun (what names what the system deploys, "units" or
// "models"), or it is another side's deployment, or, alternating, one of them is placed
// already. Before EditionDeployTurns only the first holds.
func (t *Tabletop) CheckDeploy(side string, ids []string, what string) error {
	if !t.Deploying {
		if t.Deployment != nil {
			return Errorf(ECONFLICT, "the battle has begun: every side's deployment has ended, and %s are deployed only before it begins", what)
		}
		return Errorf(ECONFLICT, "the battle has begun: %s are deployed only before its first action", what)
	}
	if !t.InTurns() {
		return nil
	}
	d := t.Deployment
	if now := t.DeployingSide(); side != now {
		if slices.Contains(d.Over, side) {
			return Errorf(ECONFLICT, "it is %s's deployment, and %s's has ended", now, side)
		}
		if d.Alternate {
			return Errorf(ECONFLICT, "it is %s's deployment: the sides place a unit each in turn, and %s's comes after %s has placed one or ended its deployment ({type: %s})", now, side, now, EndDeployment)
		}
		return Errorf(ECONFLICT, "it is %s's deployment: %s deploys when %s has deployed all its units or ended its deployment ({type: %s})", now, side, now, EndDeployment)
	}
	if d.Alternate {
		for _, id := range ids {
			if slices.Contains(d.Placed, id) {
				return Errorf(ECONFLICT, "%s is deployed already: the sides place a unit each in turn, and a unit placed stays where it is", id)
			}
		}
	}
	return nil
}

// Deployed records that the deploying side placed ids, and that unit is now deployed
// whole ("" when it is not yet: some of its models wait). It returns the trace's steps
// for what follows: the side's deployment ending (every unit deployed), the next side's
// beginning (alternating, after each unit), the battle beginning. Before
// EditionDeployTurns it does nothing.
func (t *Tabletop) Deployed(ids []string, unit string) []Step {
	if !t.InTurns() {
		return nil
	}
	d := t.Deployment
	side := t.DeployingSide()
	for _, id := range ids {
		if !slices.Contains(d.Placed, id) {
			d.Placed = append(d.Placed, id)
		}
	}
	if unit == "" {
		return nil
	}
	if !slices.Contains(d.Deployed, unit) {
		d.Deployed = append(d.Deployed, unit)
	}
	if !slices.ContainsFunc(d.Units[side], func(u string) bool { return !slices.Contains(d.Deployed, u) }) {
		d.Over = append(d.Over, side)
		return append([]Step{{Rule: "end of deployment", Inputs: map[string]any{"side": side}, Result: side + " has deployed all its units"}}, t.passDeployment()...)
	}
	if d.Alternate {
		return t.passDeployment()
	}
	return nil
}

// DeployOutcome is the outcome of a deployment that placed ids, unit deployed whole by it
// ("" when some of its models wait): its step, then what follows in a deployment in turns
// (Deployed).
func (t *Tabletop) DeployOutcome(step Step, ids []string, unit string) Outcome {
	return Outcome{Trace: append([]Step{step}, t.Deployed(ids, unit)...), Targets: []TargetResult{}}
}

// EndDeployment ends the deploying side's deployment, as {type: end_deployment} asks:
// the next side's begins, or the battle. An error (ECONFLICT) when no side deploys now.
func (t *Tabletop) EndDeployment() ([]Step, error) {
	if !t.InTurns() {
		return nil, Errorf(ECONFLICT, "the battle has begun: every side's deployment has ended")
	}
	side := t.DeployingSide()
	t.Deployment.Over = append(t.Deployment.Over, side)
	return append([]Step{{Rule: "end of deployment", Inputs: map[string]any{"side": side}, Result: side + " is done deploying"}}, t.passDeployment()...), nil
}

// passDeployment passes the deployment to the next side whose deployment has not ended,
// in order, or begins the battle when there is none.
func (t *Tabletop) passDeployment() []Step {
	d := t.Deployment
	for i := 1; i <= len(d.Order); i++ {
		next := (d.Side + i) % len(d.Order)
		if !slices.Contains(d.Over, d.Order[next]) {
			d.Side = next
			return []Step{{Rule: "deployment", Inputs: map[string]any{"side": d.Order[next]}, Result: d.Order[next] + "'s deployment"}}
		}
	}
	t.Deploying = false
	return []Step{{Rule: "the battle begins", Inputs: map[string]any{"deployed": slices.Clone(d.Deployed)}, Result: "every side has deployed"}}
}

// DeployTurn is the turn as State shows it while the sides deploy in turns: the side
// deploying now, the phase "deployment", the units deployed so far, and the action that
// ends the side's deployment. Nil when no side deploys in turns.
func (t *Tabletop) DeployTurn() *Turn {
	if !t.InTurns() {
		return nil
	}
	return &Turn{Side: t.DeployingSide(), Phase: "deployment", Done: slices.Clone(t.Deployment.Deployed), End: map[string]any{"type": EndDeployment}}
}

// DecodeEndDeployment decodes an action whose type is end_deployment, which says nothing
// else, for a battle whose table is t.
func (t *Tabletop) DecodeEndDeployment(doc *scenario.Doc) (Action, error) {
	var spec BareAction
	err := doc.DecodeChecked(&spec, func(errs *scenario.ErrorList) {
		if !t.plan.turns {
			errs.Add(doc.At(&spec.Type), "end_deployment: a battle begun under edition %d deploys without turns (from edition %d)", DocEdition(doc), EditionDeployTurns)
		} else if t.Deployment == nil {
			errs.Add(doc.At(&spec.Type), "end_deployment: this battle has no deployment: its scenario gives neither deployment zones (deployment:) nor a deployment_order, so its units begin where it places them")
		}
	})
	if err != nil {
		return nil, err
	}
	return &DeploymentEnd{}, nil
}

// Clone returns a copy of t that shares nothing an action changes, for a battle's fork.
func (t Tabletop) Clone() Tabletop {
	if d := t.Deployment; d != nil {
		c := *d
		c.Order, c.Deployed, c.Placed, c.Over = slices.Clone(d.Order), slices.Clone(d.Deployed), slices.Clone(d.Placed), slices.Clone(d.Over)
		c.Units = make(map[string][]string, len(d.Units))
		for k, v := range d.Units {
			c.Units[k] = slices.Clone(v)
		}
		t.Deployment = &c
	}
	return t
}

// NoDeployment says why a deploy action cannot be decoded for a battle whose table is t:
// the battle has no deployment (from EditionDeployTurns, a scenario without zones or a
// deployment_order), or "".
func (t *Tabletop) NoDeployment() string {
	if t.plan.turns && t.Deployment == nil && !t.Deploying {
		return "this battle has no deployment: its scenario gives neither deployment zones (deployment:) nor a deployment_order, so its units begin where it places them"
	}
	return ""
}

// FromFirst is order turned round to begin with its side at index first: the order in
// which the sides deploy.
func FromFirst(order []string, first int) []string {
	if first <= 0 || first >= len(order) {
		return slices.Clone(order)
	}
	return append(slices.Clone(order[first:]), order[:first]...)
}
