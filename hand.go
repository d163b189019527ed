package volley

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/scenario"
)

// Dice rolled by hand. A battle whose scenario says `dice: players` is played at a table
// where the players roll their own dice: the server rolls none. Each action a player
// sends carries the faces of the dice it needs, in the order volley asks for them, in a
// list beside the action:
//
//	{type: shoot, squad: sabres, declarations: [...], dice: [4, 6]}
//
// The action is worked out with those faces (dice.Given) on a copy of the battle first.
// When they run out before the action's dice do, nothing is done and the answer names
// the next die it needs (NeedRoll): its sides and what it decides. The player rolls it
// and sends the action again with one more face. A face that is not one of its die's, or
// faces beyond those the action rolls, are refused at their place. The faces are part of
// the action's body, so the log keeps them and its chain binds them; every roll of the
// outcome names the side that gave it (dice.Roll.By), and a replay (the server's fold,
// `volley verify`) works each action out again from its faces.

// HandRolled reports whether a scenario's battle is rolled by hand: its `dice:` is
// "players", read as the scenario's decoder reads it (spaces around it trimmed).
func HandRolled(doc *scenario.Doc) bool {
	return scenario.DiceSource(strings.TrimSpace(doc.Peek("dice"))) == scenario.DicePlayers
}

// DiceKey is the key of the faces given beside an action of a battle rolled by hand.
const DiceKey = "dice"

// ENEEDROLL is the code of NeedRoll: an action that needs a die its player has not given.
const ENEEDROLL = "needs_roll"

// NeedRoll is the answer to an action of a battle rolled by hand that needs one more die
// than its player gave: Die is the next die, Given the faces given. Nothing was done; the
// action is to be sent again with that die's face added to its dice.
type NeedRoll struct {
	Die   dice.Wanted
	Given []int
}

func (e *NeedRoll) Error() string {
	return fmt.Sprintf("dice: roll die %d, a %s, and send the action again with its face added to its dice (%d given)", e.Die.Index+1, e.Die, len(e.Given))
}

// handAction is an action of a battle rolled by hand: the rule system's action, and the
// faces its player gave, each with where it was written.
type handAction struct {
	Action
	faces []int
	at    []scenario.Pos
	list  scenario.Pos // where the list of faces is, or the action's start
}

// decodeFaces reads the faces given beside an action, and returns the action's document
// without them. A battle not rolled by hand takes none.
func (g *Game) decodeFaces(doc *scenario.Doc) (*scenario.Doc, *handAction, error) {
	sec := doc.Section(DiceKey)
	if sec == nil {
		if !g.Hand {
			return doc, nil, nil
		}
		return doc, &handAction{list: doc.Root()}, nil
	}
	if !g.Hand {
		return nil, nil, scenario.ErrorList{{Pos: sec.Root(), Msg: "dice: this battle's dice are the server's: an action gives none (a battle whose scenario says dice: players takes its players' rolls)"}}
	}
	h := &handAction{list: sec.Root()}
	if err := sec.Decode(&h.faces); err != nil {
		return nil, nil, err
	}
	for i := range h.faces {
		h.at = append(h.at, sec.At(&h.faces[i]))
	}
	return doc.Without(DiceKey), h, nil
}

// resolveHand works an action of a battle rolled by hand out on a copy of the battle with
// the faces given, and says whether they were the dice it needs: nil when the action may
// be resolved with them, else why not (NeedRoll, a face refused at its place, or the
// rules' refusal). The battle is not changed.
func (g *Game) resolveHand(ctx context.Context, h *handAction, side string) error {
	f, ok := g.battle.(Forker)
	if !ok {
		return Errorf(ENOTSUPPORTED, "this rule system cannot take dice rolled by hand")
	}
	s := dice.Given(h.faces, side)
	if _, err := f.Fork().Resolve(ctx, h.Action, s); err != nil {
		if ErrorCode(err) == ECONFLICT && len(h.faces) > 0 {
			// Rolled for an action that may not be taken now.
			return scenario.ErrorList{{Pos: h.list, Msg: "dice: a roll out of turn: " + err.Error()}}
		}
		return err
	}
	err := s.Check()
	var need *dice.NeedDie
	var wrong *dice.WrongFace
	var extra *dice.ExtraDice
	switch {
	case errors.As(err, &need):
		return &NeedRoll{Die: need.Die, Given: append([]int{}, h.faces...)}
	case errors.As(err, &wrong):
		return scenario.ErrorList{{Pos: h.at[wrong.Die.Index], Msg: wrong.Error()}}
	case errors.As(err, &extra):
		return scenario.ErrorList{{Pos: h.at[extra.Used], Msg: extra.Error()}}
	}
	return err
}
