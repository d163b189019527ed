package rules

import (
	"errors"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/scenario"
)

// Load is how every rule system's Ruleset.Load reads a scenario: it decodes doc into f,
// builds the battle from it with load, and decodes the action of its `action:` section,
// if it has one, with decode. The action is checked whatever else is wrong, so that its
// mistakes are reported with the rest of the file's, as one scenario.ErrorList (no text
// says how a scenario is written: this is volley's). The battle is nil when there is an
// error.
func Load[F any, B volley.Battle](doc *scenario.Doc, f *F,
	load func(*scenario.Doc, *F, *scenario.ErrorList) B,
	decode func(B, *scenario.Doc) (volley.Action, error),
) (volley.Battle, volley.Action, error) {
	var b B
	var a volley.Action
	err := doc.DecodeChecked(f, func(errs *scenario.ErrorList) {
		b = load(doc, f, errs)
		sec := doc.Section("action")
		if sec == nil {
			return
		}
		var err error
		if a, err = decode(b, sec); err != nil {
			var list scenario.ErrorList
			if errors.As(err, &list) {
				*errs = append(*errs, list...)
			} else {
				errs.Add(sec.Root(), "action: %v", err)
			}
		}
	})
	if err != nil {
		return nil, nil, err
	}
	return b, a, nil
}

// DecodeAction is a Battle's DecodeAction in every system: decode's action, or an error
// when there is no document to decode at all.
func DecodeAction(system string, doc *scenario.Doc, decode func(*scenario.Doc) (volley.Action, error)) (volley.Action, error) {
	if doc == nil {
		return nil, volley.Errorf(volley.EINVALID, "%s: no action", system)
	}
	return decode(doc)
}

// LoadPlay reads what a battle played in turns on a table keeps alike in every system:
// whose turn it is (`turn:`, for the battle's sides and its actors, the squads or units
// that act) and the table's edge and deployment zones (`table:`, `deployment:`). From
// volley.EditionDeployTurns the sides then deploy in the order they play, each the units
// deploys gives it. Errors are added to errs.
func LoadPlay(doc *scenario.Doc, turn *volley.TurnSpec, h *scenario.Header, sides, actors []string,
	deploys map[string][]string, errs *scenario.ErrorList,
) (volley.Turns, volley.Tabletop) {
	turns := volley.LoadTurns(doc, turn, sides, actors, errs)
	table := volley.LoadTable(doc, h, sides, errs)
	table.PlanDeployment(volley.FromFirst(turns.Order, turns.Side), deploys, turns.Alternate)
	return turns, table
}
