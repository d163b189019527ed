package http

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
	"github.com/volley-wargames/volley/scenario"
)

// AdviceBudget is what one advice request may search: at most this many steps of the
// branch and bound (about a second on this machine's slowest problems), and at most
// advise.MaxRanked plans scored one by one, all within the request's deadline. A search
// cut short answers with the best plans it saw and says how far it got.
var AdviceBudget = advise.Budget{Nodes: 5_000_000}

// maxAdviceTop bounds top: every plan listed is written out in full.
const maxAdviceTop = 20

// queryError is a 400 naming the query parameter at fault.
func queryError(field, format string, args ...any) error {
	e := volley.Errorf(volley.EINVALID, format, args...)
	e.Field = field
	return e
}

// advice answers GET /api/battles/{id}/advice?side=…&objective=…&actor=…&top=…: the best
// fire plans of the side's squads, units or batteries that may act now, by exact odds.
func (s *Server) advice(w http.ResponseWriter, r *http.Request) {
	rec, err := s.readRecord(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	q := r.URL.Query()
	obj, err := advise.ParseObjective(q.Get("objective"))
	if err != nil {
		s.fail(w, r, queryError("objective", "%s", strings.TrimPrefix(err.Error(), "advise: ")))
		return
	}
	top := 3
	if t := q.Get("top"); t != "" {
		top, err = strconv.Atoi(t)
		if err != nil || top < 1 || top > maxAdviceTop {
			s.fail(w, r, queryError("top", "top must be a whole number from 1 to %d", maxAdviceTop))
			return
		}
	}
	l, _, done, ok := openToAsk[advise.Planner](s, w, r, rec.ID, "has no advisor")
	if !ok {
		return
	}
	defer done()
	side := q.Get("side")
	if side != "" && !hasSide(l.battle, side) {
		s.fail(w, r, queryError("side", "no unit is on side %q", side))
		return
	}
	aq := advise.Query{Side: side, Actor: q.Get("actor")}
	if err := advise.CheckAdviceWork(l.battle, aq); err != nil {
		s.fail(w, r, fieldFor(err, "actor"))
		return
	}
	if err := s.heavyTurn(r.Context()); err != nil {
		s.fail(w, r, err)
		return
	}
	adv, err := advise.Advise(r.Context(), l.battle, aq, obj, top, AdviceBudget)
	if none := (*advise.NothingMayFire)(nil); errors.As(err, &none) {
		// A sound question whose answer is that nothing may fire now (a side whose units
		// have all fired, a step in which it fires nothing): no plans, and why.
		writeJSON(w, http.StatusOK, map[string]any{"ruleset": l.record.Ruleset, "advice": []*advise.Advice{}, "why": volley.ErrorMessage(err)})
		return
	}
	if err != nil {
		s.fail(w, r, fieldFor(err, "actor"))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ruleset": l.record.Ruleset, "advice": adv})
}

// openToAsk takes a slot for the request's work and opens battle id for reading (done
// lets it go), as every advice, danger and position request does before its battle is
// asked anything, and answers the battle as the T that is asked (an advise.Planner,
// Dangerer or Positioner); false when it cannot, the request answered with why: a battle
// that is no T with ENOTSUPPORTED, its ruleset followed by lacks.
func openToAsk[T any](s *Server, w http.ResponseWriter, r *http.Request, id, lacks string) (l *live, t T, done func(), ok bool) {
	if err := s.work(r.Context()); err != nil {
		s.fail(w, r, err)
		return nil, t, nil, false
	}
	l, done, err := s.openRead(r.Context(), id)
	if err != nil {
		s.fail(w, r, err)
		return nil, t, nil, false
	}
	if t, ok = l.battle.(T); !ok {
		s.fail(w, r, volley.Errorf(volley.ENOTSUPPORTED, "%s %s", l.record.Ruleset, lacks))
		done()
		return nil, t, nil, false
	}
	return l, t, done, true
}

// advisorView is what the advisor offers on a battle, so that a client offers only
// that: best plans, a danger map and the values of its `as`, or why not.
type advisorView struct {
	Plans    bool   `json:"plans"`
	NoPlans  string `json:"no_plans,omitempty"`
	Danger   bool   `json:"danger"`
	NoDanger string `json:"no_danger,omitempty"`
	// Places are the values a danger map's `as` takes, each with its label and side.
	Places []advise.DangerPlace `json:"places,omitempty"`
}

func advisorOf(b volley.Battle, ruleset string) advisorView {
	var v advisorView
	if _, ok := b.(advise.Planner); ok {
		v.Plans = true
	} else {
		v.NoPlans = ruleset + " has no advisor"
	}
	if _, ok := b.(advise.Dangerer); ok {
		v.Danger = true
	} else {
		v.NoDanger = ruleset + " has no danger map"
	}
	if p, ok := b.(advise.DangerPlacer); ok && v.Danger {
		v.Places = p.DangerPlaces()
	}
	return v
}

// fieldFor names a query parameter on an input error that has no field of its own.
func fieldFor(err error, field string) error {
	if e, ok := err.(*volley.Error); ok && e.Code == volley.EINVALID && e.Field == "" {
		c := *e
		c.Field = field
		return &c
	}
	return err
}

func hasSide(b volley.Battle, side string) bool {
	for _, u := range b.State().Units {
		if u.Side == side {
			return true
		}
	}
	return false
}

// danger answers GET /api/battles/{id}/danger?side=…&as=…&step=…&objective=…&progress=…:
// where a unit of that type, of that side, would be in danger from the other sides' next
// fire. Its work is priced before it starts (advise.MaxDangerPoints,
// volley.MaxHeavyWork), and it stops within a point's work of the request's deadline, or
// of the client going away. With progress=true it reports its progress as it works
// (dangerProgress).
func (s *Server) danger(w http.ResponseWriter, r *http.Request) {
	rec, err := s.readRecord(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	q := r.URL.Query()
	obj, err := advise.ParseDangerObjective(q.Get("objective"))
	if err != nil {
		s.fail(w, r, queryError("objective", "%s", strings.TrimPrefix(volley.ErrorMessage(err), "advise: ")))
		return
	}
	dq := advise.DangerQuery{Side: q.Get("side"), As: q.Get("as"), Objective: obj}
	progress, err := progressParam(q.Get("progress"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if dq.Side == "" {
		s.fail(w, r, queryError("side", "side: the side of the unit placed is required"))
		return
	}
	if dq.As == "" {
		s.fail(w, r, queryError("as", "as: the unit type placed is required"))
		return
	}
	l, dg, done, ok := openToAsk[advise.Dangerer](s, w, r, rec.ID, "has no danger map")
	if !ok {
		return
	}
	defer done()
	if dq.Step, err = s.stepOf(l.battle, q.Get("step")); err != nil {
		s.fail(w, r, err)
		return
	}
	s.answerMap(w, r, l.record.Ruleset, "danger", progress, dangerField,
		func() (int64, error) { return dg.DangerWork(dq) },
		func(ctx context.Context) (any, error) { return dg.Danger(ctx, dq) })
}

// answerMap answers a map (key "danger" or "position") once its query is read: priced
// before it queues, so that a map over the budget is refused at once and waits for
// nothing; then worked out in its heavy turn, on one core (each heavy place is one, and
// light requests keep the others), with its progress as it works when progress is asked
// (answerWithProgress). fieldOf names the parameter an input error is about.
func (s *Server) answerMap(w http.ResponseWriter, r *http.Request, ruleset, key string, progress bool, fieldOf func(error) error,
	price func() (int64, error), work func(context.Context) (any, error)) {
	if _, err := price(); err != nil {
		s.fail(w, r, fieldOf(err))
		return
	}
	if err := s.heavyTurn(r.Context()); err != nil {
		s.fail(w, r, err)
		return
	}
	if progress {
		s.answerWithProgress(w, r, ruleset, key, fieldOf, work)
		return
	}
	m, err := work(advise.WithCores(r.Context(), 1))
	if err != nil {
		s.fail(w, r, fieldOf(err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ruleset": ruleset, key: m})
}

// progressEvery is how often a map's progress stream reports (a test shortens it).
var progressEvery = 200 * time.Millisecond

// answerWithProgress works out a map (a danger or a position map: work, on one core)
// while it answers with its progress, as lines of JSON (application/x-ndjson):
// {"progress": {"done": rows, "rows": rows}} as rows are done (and the last count once
// more before the map, if the clock did not report it), then the answer
// {"ruleset", key: the map}, or {"error": …} with the code, message and field (fieldOf
// names it) an error answer would have. The request keeps its heavy place until the map
// is done, and gives it back before the map is written; a client that goes away stops
// the work.
func (s *Server) answerWithProgress(w http.ResponseWriter, r *http.Request, ruleset, key string, fieldOf func(error) error, work func(context.Context) (any, error)) {
	adm := admissionOf(r.Context())
	adm.workWhileAnswering()
	defer adm.release()
	w.Header().Set("Content-Type", "application/x-ndjson; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	enc := json.NewEncoder(w)
	var done, rows atomic.Int64
	ctx := advise.WithProgress(r.Context(), func(d, n int) {
		done.Store(int64(d))
		rows.Store(int64(n))
	})
	last := int64(-1) // the done last reported; the reporter's own until it stops
	gone := false     // the client went away; the reporter's own until it stops
	report := func() {
		d, n := done.Load(), rows.Load()
		if d == last || n == 0 || gone {
			return
		}
		last = d
		type report struct {
			Done int64 `json:"done"`
			Rows int64 `json:"rows"`
		}
		if enc.Encode(map[string]report{"progress": {d, n}}) != nil || rc.Flush() != nil {
			gone = true // the client is gone: its context ends the work
		}
	}
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		for !gone {
			select {
			case <-stop:
				return
			case <-t.C:
				report()
			}
		}
	}()
	m, err := work(advise.WithCores(ctx, 1))
	close(stop)
	<-stopped
	adm.release()
	if err == nil {
		// The last count is reported before the map, whatever the clock did: a client
		// sees its bar reach the end, however fast the map was or busy the machine.
		report()
	}
	if err != nil {
		e := apiError{Code: volley.ErrorCode(err), Message: volley.ErrorMessage(err)}
		if ve, ok := fieldOf(err).(*volley.Error); ok && e.Code != volley.EINTERNAL {
			e.Message, e.Field = ve.Message, ve.Field
		}
		if e.Code == volley.EINTERNAL {
			s.logger.Error("internal error", "method", r.Method, "path", r.URL.Path, "error", err.Error())
			e.Message = "internal error"
		}
		_ = enc.Encode(map[string]apiError{"error": e})
		return
	}
	// Encoded whole before it is sent: a map JSON cannot hold (a bug) is an error line,
	// never a cut-off one.
	out, err := marshalJSON(map[string]any{"ruleset": ruleset, key: m})
	if err != nil {
		s.logger.Error("internal error", "method", r.Method, "path", r.URL.Path, "error", err.Error())
		_ = enc.Encode(map[string]apiError{"error": {Code: volley.EINTERNAL, Message: "internal error"}})
		return
	}
	_, _ = w.Write(out)
}

// progressParam reads a map's progress parameter: whether to answer with the map's
// progress as lines of JSON (answerWithProgress).
func progressParam(v string) (bool, error) {
	switch v {
	case "", "0", "false":
		return false, nil
	case "1", "true":
		return true, nil
	}
	return false, queryError("progress", "progress is true (report the map's progress as lines of JSON) or false")
}

// dangerField names the parameter a danger map's input error is about.
func dangerField(err error) error {
	msg := volley.ErrorMessage(err)
	switch {
	case strings.Contains(msg, "as: "):
		return fieldFor(err, "as")
	case strings.Contains(msg, "side: "):
		return fieldFor(err, "side")
	case strings.Contains(msg, "step") || strings.Contains(msg, "points"):
		return fieldFor(err, "step")
	}
	return err
}

// position answers GET /api/battles/{id}/position?unit=…&objective=…&danger=…&step=…&progress=…: every
// point the unit can reach now, each with the best plan's value from there and the danger
// there; the Pareto front and the best points with their moves and plans. Its work is
// priced before it queues (volley.MaxHeavyWork), and it stops within a point's work of
// the request's deadline, or of the client going away. With progress=true it reports its
// progress as it works (answerWithProgress): the danger layer's rows, then the offence's.
func (s *Server) position(w http.ResponseWriter, r *http.Request) {
	rec, err := s.readRecord(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	q := r.URL.Query()
	pq := advise.PositionQuery{Unit: q.Get("unit")}
	progress, err := progressParam(q.Get("progress"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if pq.Unit == "" {
		s.fail(w, r, queryError("unit", "unit: the unit that moves is required"))
		return
	}
	if pq.Objective, err = advise.ParseObjective(cmp.Or(q.Get("objective"), "expected")); err != nil {
		s.fail(w, r, queryError("objective", "%s", strings.TrimPrefix(err.Error(), "advise: ")))
		return
	}
	if pq.Danger, err = advise.ParseDangerObjective(q.Get("danger")); err != nil {
		s.fail(w, r, queryError("danger", "%s", strings.TrimPrefix(volley.ErrorMessage(err), "advise: ")))
		return
	}
	l, ps, done, ok := openToAsk[advise.Positioner](s, w, r, rec.ID, "has no position map (docs/advise.md says which systems have one, and why not)")
	if !ok {
		return
	}
	defer done()
	if pq.Step, err = s.stepOf(l.battle, q.Get("step")); err != nil {
		s.fail(w, r, err)
		return
	}
	positionField := func(err error) error { return fieldFor(dangerField(err), "unit") }
	s.answerMap(w, r, l.record.Ruleset, "position", progress, positionField,
		func() (int64, error) { return ps.PositionWork(pq) },
		func(ctx context.Context) (any, error) { return ps.Position(ctx, pq) })
}

// stepOf reads a map's step parameter: a distance in the table's unit, or with its own; 0
// (the system's default) when it is not given.
func (s *Server) stepOf(b volley.Battle, st string) (float64, error) {
	if st == "" {
		return 0, nil // the system's default
	}
	unit := scenario.Inch
	if t, ok := b.(volley.Table); ok && t.Table().Unit != "" {
		unit = scenario.Unit(t.Table().Unit)
	}
	v, err := scenario.ParseLength(st, unit)
	if err != nil || !(v > 0) || math.IsInf(float64(v), 0) {
		return 0, queryError("step", "step must be a positive distance such as 0.5 or 1cm")
	}
	return v.In(unit), nil
}
