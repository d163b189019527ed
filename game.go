package volley

import (
	"context"
	"fmt"
	"slices"

	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/scenario"
)

// Game is a battle played from a log, with what no rulebook defines around it: the
// battle's end (its scenario's `end:`, see End), a move taken back, and the sides
// agreeing to end the battle. The server's fold, `volley verify` and `volley play` all
// play a log through a Game, so that each of them reads the same battle from it.
//
// The actions a Game takes itself are in the log like any other, so that a replay
// comes out the same:
//
//   - {type: take_back}: the last action is undone, when it was a move or a deployment
//     that rolled no die; its side takes it back, and may take back the one before in
//     the same way, up to MaxTakeBacks of them. Any other action (a shot, a turn's end,
//     the other side's move) makes those before it final.
//   - {type: offer_end, side: S}: S offers to end the battle as it stands; once every
//     side has offered, with no other action between, the battle is over. Only a battle
//     with an end has a result to end on.
type Game struct {
	battle Battle
	end    *End
	// undo holds, oldest first, the battle as it was before each of the last actions
	// that may still be taken back.
	undo []undoPoint
	// offers are the sides that have offered to end the battle since the last action.
	offers []string
	// Luck, when set, makes Resolve work out each action's odds before rolling it, and
	// say in its outcome where the result fell (Outcome.Luck).
	Luck bool
	// Hand says the battle's dice are rolled by hand (its scenario's `dice: players`,
	// HandRolled): each action carries its dice's faces, and Resolve rolls none.
	Hand bool
}

// undoPoint is an action that may still be taken back: the battle before it, whose it
// was, and what it was, in words.
type undoPoint struct {
	before Battle
	side   string
	what   string
}

// MaxTakeBacks is how many moves in a row a side may take back: the battle as it was
// before each is kept in memory until the moves are final.
const MaxTakeBacks = 8

// The types of the actions a Game takes itself.
const (
	TakeBack = "take_back"
	OfferEnd = "offer_end"
)

// NewGame starts a game of b, whose scenario's end is e (nil for none).
func NewGame(b Battle, e *End) *Game { return &Game{battle: b, end: e} }

// Battle is the battle as it stands: after a take-back, another value than before.
func (g *Game) Battle() Battle { return g.battle }

// End is the battle's end, nil for none.
func (g *Game) End() *End { return g.end }

// Result says how the battle stands: the scores, and whether it is over. Without an end
// it is the zero Result.
func (g *Game) Result() Result {
	if g.end == nil {
		return Result{}
	}
	return g.end.Score(g.battle, g.offers)
}

// Over reports whether the battle has ended by its scenario's end or by agreement.
func (g *Game) Over() bool { return g.end != nil && g.Result().Over }

// CanTakeBack says who may take back an action now, and what ("sabre-1's move"): "" when
// nothing may be taken back.
func (g *Game) CanTakeBack() (side, what string) {
	if len(g.undo) == 0 {
		return "", ""
	}
	u := g.undo[len(g.undo)-1]
	return u.side, u.what
}

// takeBack is the action {type: take_back}.
type takeBack struct {
	Type string `yaml:"type,required"`
}

func (*takeBack) Kind() string { return TakeBack }

// offerEnd is the action {type: offer_end, side: S}.
type offerEnd struct {
	Type string `yaml:"type,required"`
	Side string `yaml:"side,required"`
}

func (*offerEnd) Kind() string { return OfferEnd }

// DecodeAction decodes an action of the game's own, or else of the battle's rule system.
func (g *Game) DecodeAction(doc *scenario.Doc) (Action, error) {
	var kind string
	if sec := doc.Section("type"); sec != nil {
		_ = sec.Decode(&kind)
	}
	doc, hand, err := g.decodeFaces(doc)
	if err != nil {
		return nil, err
	}
	if hand != nil && len(hand.faces) > 0 && (kind == TakeBack || kind == OfferEnd) {
		return nil, scenario.ErrorList{{Pos: hand.at[0], Msg: (&dice.ExtraDice{Given: len(hand.faces)}).Error()}}
	}
	switch kind {
	case TakeBack:
		var a takeBack
		err := doc.DecodeChecked(&a, func(errs *scenario.ErrorList) {
			if len(g.undo) == 0 {
				errs.Add(doc.At(&a.Type), "take_back: nothing may be taken back now: only a move or a deployment that rolled no die, before any other action")
			}
		})
		if err != nil {
			return nil, err
		}
		return &a, nil
	case OfferEnd:
		var a offerEnd
		err := doc.DecodeChecked(&a, func(errs *scenario.ErrorList) {
			sides := Sides(g.battle.State())
			switch {
			case g.end == nil:
				errs.Add(doc.At(&a.Type), "offer_end: this battle's scenario has no end: section, so there is no result to end on (a player may still end the battle)")
			case a.Side != "" && !slices.Contains(sides, a.Side):
				errs.Add(doc.At(&a.Side), "offer_end: side: no side %q%s", a.Side, scenario.Hint(a.Side, sides))
			}
		})
		if err != nil {
			return nil, err
		}
		return &a, nil
	}
	a, err := g.battle.DecodeAction(doc)
	if err != nil || hand == nil {
		return a, err
	}
	hand.Action = a
	return hand, nil
}

// Actor is the side an action belongs to: a take-back is the side whose move it undoes.
func (g *Game) Actor(a Action) string {
	switch a := a.(type) {
	case *handAction:
		return g.battle.Actor(a.Action)
	case *takeBack:
		side, _ := g.CanTakeBack()
		return side
	case *offerEnd:
		return a.Side
	}
	return g.battle.Actor(a)
}

// Cost is the action's work: the battle's, and twice it when the odds are worked out
// too, and once more when its dice are rolled by hand (it is worked out on a copy first);
// nothing to speak of for the game's own actions.
func (g *Game) Cost(a Action) int64 {
	k := int64(1)
	if h, ok := a.(*handAction); ok {
		a, k = h.Action, 2
	}
	switch a.(type) {
	case *takeBack, *offerEnd:
		return 1
	}
	c := g.battle.Cost(a)
	if g.Luck {
		c *= 2
	}
	return c * k
}

// Own reports whether a is one of the game's own actions, which have no aim or odds.
func Own(a Action) bool {
	if h, ok := a.(*handAction); ok {
		a = h.Action
	}
	switch a.(type) {
	case *takeBack, *offerEnd:
		return true
	}
	return false
}

// Resolve takes an action: one of the game's own, or the rule system's, rolled from d;
// in a battle rolled by hand (Hand), with the faces its player gave instead, once a copy
// of the battle shows they are the dice it needs (see HandRolled). A battle that is over
// takes none. On error nothing has changed.
func (g *Game) Resolve(ctx context.Context, a Action, d *dice.Stream) (Outcome, error) {
	if g.end != nil {
		if r := g.Result(); r.Over {
			return Outcome{}, Errorf(ECONFLICT, "the battle is over (%s): it takes no more actions", r.Reason)
		}
	}
	if h, ok := a.(*handAction); ok {
		side := g.battle.Actor(h.Action)
		if err := g.resolveHand(ctx, h, side); err != nil {
			return Outcome{}, err
		}
		a, d = h.Action, dice.Given(h.faces, side)
	}
	switch a := a.(type) {
	case *takeBack:
		if len(g.undo) == 0 {
			return Outcome{}, Errorf(ECONFLICT, "take_back: nothing may be taken back now")
		}
		u := g.undo[len(g.undo)-1]
		g.undo = g.undo[:len(g.undo)-1]
		g.battle = u.before
		g.offers = nil
		return Outcome{Rolls: []dice.Roll{}, Trace: []Step{{Rule: "take back", Inputs: map[string]any{"side": u.side},
			Result: fmt.Sprintf("%s took back %s", u.side, u.what)}}, Targets: []TargetResult{}}, nil
	case *offerEnd:
		if !slices.Contains(g.offers, a.Side) {
			g.offers = append(g.offers, a.Side)
		}
		result := fmt.Sprintf("%s offers to end the battle as it stands", a.Side)
		if r := g.Result(); r.Over {
			result = "every side has agreed: the battle is over"
		}
		return Outcome{Rolls: []dice.Roll{}, Trace: []Step{{Rule: "offer to end", Inputs: map[string]any{"side": a.Side}, Result: result}},
			Targets: []TargetResult{}}, nil
	}
	side := g.battle.Actor(a)
	var before Battle
	if undoable(a) {
		if f, ok := g.battle.(Forker); ok {
			before = f.Fork()
		}
	}
	var odds *Odds
	if g.Luck && !undoable(a) {
		if o, err := g.battle.Odds(ctx, a); err == nil {
			odds = &o
		} else if ErrorCode(err) == EUNAVAILABLE {
			return Outcome{}, err
		}
	}
	out, err := g.battle.Resolve(ctx, a, d)
	if err != nil {
		return out, err
	}
	g.offers = nil
	if before != nil && len(out.Rolls) == 0 {
		g.undo = append(g.undo, undoPoint{before: before, side: side, what: describe(a)})
		if len(g.undo) > MaxTakeBacks {
			g.undo = slices.Delete(g.undo, 0, 1)
		}
	} else {
		g.undo = nil
	}
	if odds != nil {
		out.Luck = LuckOf(*odds, out)
	}
	return out, nil
}

// undoable reports whether an action is of a kind that may be taken back: a move or a
// deployment (so long as it rolls no die).
func undoable(a Action) bool {
	k := a.Kind()
	return k == MoveAction || k == DeployAction
}

// describe names a move for the trace of its take-back: "the move of sabre-1".
func describe(a Action) string {
	if m, ok := a.(Moving); ok && m.MovedUnit() != "" {
		return fmt.Sprintf("the %s of %s", a.Kind(), m.MovedUnit())
	}
	return "the " + a.Kind()
}

// Replay decodes a logged action and takes it with d, the dice of its place in the log,
// as ReplayAction does for a bare battle.
func (g *Game) Replay(ctx context.Context, body string, d *dice.Stream) (a Action, actor string, out Outcome, err error) {
	doc, err := scenario.Parse("action", []byte(body))
	if err != nil {
		return nil, "", Outcome{}, err
	}
	a, err = g.DecodeAction(doc)
	if err != nil {
		return nil, "", Outcome{}, err
	}
	actor = g.Actor(a)
	out, err = g.Resolve(ctx, a, d)
	return a, actor, out, err
}

// Offers are what the sides may do now: the battle's (when it says, Offerer), and the
// game's own: taking back the last move, for the side that made it, and offering to end
// the battle, for each side (a battle with an end). A battle that is over offers
// nothing, and none of its units may act.
func (g *Game) Offers() Offers {
	st := g.battle.State()
	var o Offers
	if g.Over() {
		o.Acting, o.Offers, o.Spent = []string{}, []Offer{}, map[string]string{}
		for _, u := range st.Units {
			o.Spent[u.ID] = "the battle is over"
		}
		return o
	}
	if of, ok := g.battle.(Offerer); ok {
		o = of.Offers()
	}
	if o.Acting == nil {
		o.Acting = []string{}
	}
	if o.Offers == nil {
		o.Offers = []Offer{}
	}
	if side, what := g.CanTakeBack(); side != "" {
		o.Offers = append(o.Offers, Offer{Side: side, Type: TakeBack, Label: "Take back " + what, Action: map[string]any{"type": TakeBack},
			Help: "Undo " + what + ": the battle is as it was before it."})
	}
	if g.end != nil {
		sides := Sides(st)
		for _, side := range sides {
			if slices.Contains(g.offers, side) {
				continue
			}
			ends := ""
			if len(g.offers) == len(sides)-1 {
				ends = EndsBattle
			}
			o.Offers = append(o.Offers, Offer{Side: side, Type: OfferEnd, Label: "Offer to end the battle", Action: map[string]any{"type": OfferEnd, "side": side}, Ends: ends,
				Help: "The battle ends as it stands once every side has offered, with no other action between."})
		}
	}
	return o
}
