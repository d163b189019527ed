package http

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/scenario"
)

// A preview answers "what if I stand here?" while a player drags a unit, before the move
// is sent: is the move legal (and if not, why), and from where it ends, the aims and
// exact odds of a shot, and the danger there. It works on a copy of the battle
// (volley.Forker) and changes nothing; the page asks once a frame, keeping one request
// in flight.

// previewRequest is the body of POST /api/battles/{id}/preview.
type previewRequest struct {
	// Move is the move, as it would be sent to …/actions.
	Move scenario.Skip `yaml:"move,required"`
	// Then is an action to aim and count from where the move ends (a shot), optional.
	Then scenario.Skip `yaml:"then"`
	// Danger asks for the danger at the moved unit's new place: the danger map's side
	// and as (a unit type, or a WarStrike unit).
	Danger *struct {
		Side      string `yaml:"side,required"`
		As        string `yaml:"as,required"`
		Objective string `yaml:"objective"`
	} `yaml:"danger"`
}

// previewAnswer is its answer.
type previewAnswer struct {
	Ruleset string `json:"ruleset"`
	// Legal says whether the battle would take the move now; Reason says why not.
	Legal  bool   `json:"legal"`
	Reason string `json:"reason,omitempty"`
	// Trace is the move's trace, as the action's outcome would have it: what it
	// measured and what it means for the unit's weapons.
	Trace []volley.Step     `json:"trace,omitempty"`
	State *volley.State     `json:"state,omitempty"`
	Aims  []volley.Aim      `json:"aims,omitempty"`
	Odds  *volley.Odds      `json:"odds,omitempty"`
	Table *volley.TableView `json:"table,omitempty"`
	Board *volley.BoardView `json:"board,omitempty"`
	// Danger is the danger map's value at the place the move ends (the chance the unit
	// is destroyed, or what it is expected to lose), and what it scores.
	Danger *previewDanger `json:"danger,omitempty"`
}

type previewDanger struct {
	Value  float64  `json:"value"`
	Scores string   `json:"scores"`
	Firers []string `json:"firers"`
}

// preview answers POST /api/battles/{id}/preview.
func (s *Server) preview(w http.ResponseWriter, r *http.Request) {
	rec, err := s.readRecord(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	body, err := s.readBody(w, r, s.limits.MaxActionBytes)
	if err == nil {
		err = s.work(r.Context())
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	// The view it writes is priced first: a big table's preview waits for heavy work
	// before any of it is done (the rest is priced below, once the move is decoded).
	l, fk, done, err := openPricedAs[volley.Forker](s, r.Context(), rec.ID, viewPrice, "battles have no preview")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	// The preview works on its own copy: the battle is let go at once, so that a
	// preview waiting for heavy work holds nothing of it.
	fork := fk.Fork()
	edition, ruleset, view := volley.EditionOf(l.record.Edition), l.record.Ruleset, viewWork(l)
	done()
	// A large body is heavy work before it is parsed (parsing it is the price).
	if err := s.admitBody(r.Context(), body); err != nil {
		s.fail(w, r, err)
		return
	}
	doc, err := scenario.Parse("body", body)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var req previewRequest
	if err := doc.Decode(&req); err != nil {
		s.fail(w, r, err)
		return
	}
	moveDoc := doc.Section("move")
	moveDoc.Refereed, moveDoc.Edition = true, edition // the move as the server would take it
	move, err := fork.DecodeAction(moveDoc)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var then volley.Action
	if sec := doc.Section("then"); sec != nil {
		sec.Edition = edition
		if then, err = fork.DecodeAction(sec); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	// Priced as its parts: the move and the action after it as the actions are, the
	// danger at one point as a danger map, and the battle's view it writes
	// (viewWork); over the light limit, it waits for heavy work.
	if err := s.admit(r.Context(), advise.AddWork(fork.Cost(move), costOf(fork, then), dangerPrice(fork, move, &req), view), len(body)); err != nil {
		s.fail(w, r, err)
		return
	}
	ans, err := s.previewOn(r.Context(), fork, move, then, &req, ruleset)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, ans)
}

// costOf is an action's Cost, 0 for none.
func costOf(b volley.Battle, a volley.Action) int64 {
	if a == nil {
		return 0
	}
	return b.Cost(a)
}

// previewOn makes the move on the fork, and asks the rest of the preview there.
func (s *Server) previewOn(ctx context.Context, fork volley.Battle, move, then volley.Action, req *previewRequest, ruleset string) (*previewAnswer, error) {
	ans := &previewAnswer{Ruleset: ruleset}
	// A move rolls no die; a preview must not touch the battle's secret dice anyway.
	out, err := fork.Resolve(ctx, move, dice.ForAction(0, 0))
	if code := volley.ErrorCode(err); code == volley.EUNAVAILABLE || code == volley.EINTERNAL {
		return nil, err
	}
	if err != nil {
		ans.Reason = strings.TrimPrefix(volley.ErrorMessage(err), ruleset+": ")
		return ans, nil
	}
	ans.Legal, ans.Trace = true, out.Trace
	state := fork.State()
	ans.State = &state
	if t, ok := fork.(volley.Table); ok {
		v := t.Table()
		ans.Table = &v
	}
	if b, ok := fork.(volley.Board); ok {
		v := b.Board()
		ans.Board = &v
	}
	if then != nil {
		o, err := fork.Odds(ctx, then)
		if err != nil {
			return nil, err
		}
		ans.Aims, ans.Odds = o.Aims, &o
	}
	if req.Danger != nil {
		d, err := s.dangerAt(ctx, fork, move, req)
		if err != nil {
			return nil, err
		}
		ans.Danger = d
	}
	return ans, nil
}

// dangerPrice is the price of a preview's danger at one point (DangerWork), asked where
// the moved unit stands before it moves: a map of one point costs the same wherever the
// point is. 0 when there is none to price, or the query is refused (dangerAt says why).
func dangerPrice(fork volley.Battle, move volley.Action, req *previewRequest) int64 {
	dg, ok := fork.(advise.Dangerer)
	if req.Danger == nil || !ok {
		return 0
	}
	obj, err := advise.ParseDangerObjective(req.Danger.Objective)
	if err != nil {
		return 0
	}
	at, _ := movedTo(fork, move)
	w, err := dg.DangerWork(onePoint(req, obj, at))
	if err != nil {
		return 0
	}
	return w
}

// onePoint is the danger query of a preview at the point at: a map of one point, a
// square of side step centred there.
func onePoint(req *previewRequest, obj advise.ObjectiveKind, at [2]float64) advise.DangerQuery {
	const step = 0.01
	return advise.DangerQuery{Side: req.Danger.Side, As: req.Danger.As, Objective: obj, Step: step,
		Area: [4]float64{at[0] - step/2, at[1] - step/2, at[0] + step/2, at[1] + step/2}}
}

// dangerAt is the danger map's value at one point: where the moved unit now stands.
func (s *Server) dangerAt(ctx context.Context, fork volley.Battle, move volley.Action, req *previewRequest) (*previewDanger, error) {
	dg, ok := fork.(advise.Dangerer)
	if !ok {
		return nil, volley.Errorf(volley.ENOTSUPPORTED, "this rule system has no danger map")
	}
	obj, err := advise.ParseDangerObjective(req.Danger.Objective)
	if err != nil {
		return nil, fieldFor(err, "danger.objective")
	}
	at, ok := movedTo(fork, move)
	if !ok {
		return nil, volley.Errorf(volley.EINVALID, "danger: the moved unit is not on the table")
	}
	q := onePoint(req, obj, at) // where the unit stands now
	if _, err := dg.DangerWork(q); err != nil {
		return nil, dangerField(err)
	}
	m, err := dg.Danger(advise.WithCores(ctx, 1), q)
	if err != nil {
		return nil, dangerField(err)
	}
	if len(m.Values) == 0 {
		return nil, fmt.Errorf("http: a one-point danger map has no point")
	}
	if math.IsNaN(m.Values[0]) { // no value, and JSON has no NaN
		return nil, volley.Errorf(volley.EINVALID, "danger: %s cannot stand where the move ends (on a grid, a copy of a type cannot stand on the moved unit's squares: ask as the unit itself)", m.Placed)
	}
	return &previewDanger{Value: m.Values[0], Scores: m.Scores, Firers: m.Firers}, nil
}

// movedTo is where the unit a move names stands on the fork, in the table's unit.
func movedTo(b volley.Battle, move volley.Action) ([2]float64, bool) {
	id := ""
	if u, ok := move.(volley.Moving); ok {
		id = u.MovedUnit()
	}
	if t, ok := b.(volley.Table); ok {
		for _, u := range t.Table().Units {
			if u.ID == id || u.Squad == id {
				return [2]float64{u.X, u.Y}, u.Placed
			}
		}
	}
	if bd, ok := b.(volley.Board); ok {
		for _, u := range bd.Board().Units {
			if u.ID == id {
				return [2]float64{float64(u.X), float64(u.Y)}, true
			}
		}
	}
	return [2]float64{}, false
}

// scenarioOf answers GET /api/battles/{id}/scenario: the battle as it stands, written as
// a scenario (volley.Placer): every unit where it is now, the actions it played dropped.
// A deployed battle exported this way starts a new one from the same table.
func (s *Server) scenarioOf(w http.ResponseWriter, r *http.Request) {
	rec, err := s.readRecord(r)
	if err == nil {
		err = s.work(r.Context())
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	l, pl, done, err := openPricedAs[volley.Placer](s, r.Context(), rec.ID, exportPrice, "battles cannot be written back as a scenario")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	// What the export writes is taken now, and the battle let go: the rest is the
	// stored scenario's. Its price is whole now: the placements are counted.
	placements, src, values := pl.Placements(), l.record.Scenario, l.values
	done()
	if err := s.admit(r.Context(), placeWork(len(placements), values), 2*len(src)); err != nil {
		s.fail(w, r, err)
		return
	}
	doc, err := scenario.Parse("scenario", []byte(src))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out, err := doc.Place(placements, "action", "actions", "turn")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/yaml; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Disposition", `attachment; filename="battle-`+rec.ID+`.yaml"`)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(out)
}

// twice prices the work of an action done twice: an aim, and the resolution on a copy
// that says whether the server would take it (legality).
type twice struct{ b volley.Battle }

func (t twice) Cost(a volley.Action) int64 { return 2 * t.b.Cost(a) }

// legality says whether the server would take an action now, as a player would send it
// (refereed), and why not: the action is resolved on a copy of the battle (volley.Forker)
// with dice that are not the battle's, and nothing is kept. Only work stopped by ctx,
// or a fault, is an error.
func legality(ctx context.Context, l *live, body []byte) (bool, string, error) {
	if l.record.Ended || l.game.Over() {
		return false, "the battle has ended: it takes no more actions", nil
	}
	fk, ok := l.battle.(volley.Forker)
	if !ok {
		return false, l.record.Ruleset + " battles cannot say whether they would take an action", nil
	}
	fork := fk.Fork()
	doc, err := scenario.Parse("body", body)
	if err != nil {
		return false, volley.ErrorMessage(err), nil
	}
	doc.Refereed, doc.Edition = true, volley.EditionOf(l.record.Edition)
	a, err := fork.DecodeAction(doc)
	if err == nil {
		_, err = fork.Resolve(ctx, a, dice.ForAction(0, 0))
	}
	switch volley.ErrorCode(err) {
	case "":
		return true, "", nil
	case volley.EUNAVAILABLE, volley.EINTERNAL:
		return false, "", err
	}
	return false, strings.TrimPrefix(volley.ErrorMessage(err), l.record.Ruleset+": "), nil
}
