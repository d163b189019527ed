package http

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/advise"
)

// What a request's work costs, found before any of it is done, in volley.MaxWork's steps
// (about a nanosecond each): the price that admits it (admit) as light, in its request
// slot, or as heavy, through the heavy queue (admission.go). The rule systems price what
// they compute (Battle.Cost, DangerWork, PositionWork); what the server itself does for a
// request is priced here, by the size of what it reads and writes:
//
//   - a document it parses (a body, a stored scenario built, exported or read for a log's
//     title) is light up to Limits.LightBytes and lightValues values (aliases expanded:
//     decoding costs by the values, and a few bytes may stand for many);
//   - a battle's view (its state, table and board, as GET /api/battles/{id} and a preview
//     write them) and its state alone (an action's answer) by the bytes they took as
//     JSON when the battle was built (measureViews): writing JSON costs by the byte,
//     and a battle's size changes little as it is played;
//   - an export's placements each by a walk of the document, by its values.
//
// The rates are measured in steps (BenchmarkViewWork times the work beside a danger map
// whose price is known; docs/benchmarks.md) and rounded up.
const (
	// jsonStepsPerByte is the work of writing a battle's view or state as indented JSON,
	// per byte written: the values gathered, encoded and copied.
	jsonStepsPerByte = 25
	// placeStepsPerValue is an export's work per placement per value of the scenario:
	// each placement finds its unit's entry by a walk of the document.
	placeStepsPerValue = 20
	// lightValues is the most values a light document may stand for, aliases expanded:
	// an ordinary document of Limits.LightBytes stands for a few thousand.
	lightValues = 4096
)

// errHeavyDoc is build's answer for a scenario that stands for more values than it may
// load as light work.
var errHeavyDoc = errors.New("http: the scenario stands for too many values for light work")

// viewWork is the price of writing l's view.
func viewWork(l *live) int64 { return l.viewBytes * jsonStepsPerByte }

// viewPrice is viewWork as openPriced takes it.
func viewPrice(l *live) (int64, int) { return viewWork(l), 0 }

// exportPrice is the first part of an export's price: its scenario parsed twice (read,
// then again to place the units and write it out). Each placement's walk of it is priced
// once they are counted (placeWork).
func exportPrice(l *live) (int64, int) { return 0, 2 * len(l.record.Scenario) }

// placeWork is the price of placing n units or models in a document of values values.
func placeWork(n int, values int64) int64 {
	if values > 0 && int64(n) > (1<<62)/(values*placeStepsPerValue) {
		return 1 << 62
	}
	return int64(n) * values * placeStepsPerValue
}

// stateWork is the price of writing l's state.
func stateWork(l *live) int64 { return l.stateBytes * jsonStepsPerByte }

// measureViews measures the battle's view and state as JSON, for their price: once, when
// it is built, as part of building it.
func (l *live) measureViews() {
	size := func(v any) int64 {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		_ = enc.Encode(v)
		return int64(b.Len())
	}
	l.viewBytes = size(view(l, false))
	l.stateBytes = size(l.battle.State())
}

// admit admits a request priced at work, parsing a document of doc bytes, as what it
// costs: within Limits.LightWork and Limits.LightBytes it keeps its request slot, else
// it waits for a heavy place.
func (s *Server) admit(ctx context.Context, work int64, doc int) error {
	if work <= s.limits.LightWork && doc <= s.limits.LightBytes {
		return nil
	}
	return s.heavyTurn(ctx)
}

// admitBody admits a request whose body is larger than Limits.LightBytes as heavy work
// before the body is parsed: parsing it is the price.
func (s *Server) admitBody(ctx context.Context, body []byte) error {
	return s.admit(ctx, 0, len(body))
}

// admitValues admits a request whose document, parsed, stands for more than lightValues
// values as heavy work before it is decoded.
func (s *Server) admitValues(ctx context.Context, values int64) error {
	if values <= lightValues || admissionOf(ctx) == nil {
		return nil // light, or not a request (volley serve's demo battles)
	}
	return s.heavyTurn(ctx)
}

// openWritePriced opens battle id for writing (openWrite), admitted first at the price
// of the action body would be: its work and the state its answer writes, as append
// prices it. The price is found under the read lock and the heavy place, if it is heavy
// work, taken before the write lock: a request never waits for a heavy place while it
// holds a battle that the heavy request before it may be waiting to read.
func (s *Server) openWritePriced(ctx context.Context, id string, body []byte) (*live, func(), error) {
	l, done, err := s.openRead(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	work := stateWork(l)
	if a, err := decodeGameAction(l, body); err == nil {
		l.game.Luck = true
		work = advise.AddWork(l.game.Cost(a), work)
		l.game.Luck = false
	}
	done()
	if err := s.admit(ctx, work, len(body)); err != nil {
		return nil, nil, err
	}
	return s.openWrite(ctx, id)
}

// openPriced opens battle id for reading (openRead) and admits the request at price(l):
// its work, and the bytes of a document it parses. When that is heavy work, the battle is
// let go while the request waits for its heavy place, so that a request in the queue
// holds no battle, and opened again once it has one. A request turned away (429, 503)
// has cost a look-up, before any of its work.
func (s *Server) openPriced(ctx context.Context, id string, price func(*live) (work int64, doc int)) (*live, func(), error) {
	l, done, err := s.openRead(ctx, id)
	if err != nil {
		return l, done, err
	}
	if work, doc := price(l); work <= s.limits.LightWork && doc <= s.limits.LightBytes {
		return l, done, nil
	}
	done()
	if err := s.heavyTurn(ctx); err != nil {
		return nil, nil, err
	}
	return s.openRead(ctx, id)
}

// openPricedAs is openPriced for a request that only a battle that is a T answers (a
// volley.Forker, a volley.Placer): the battle as a T, or, when it is no T, the battle let
// go and an ENOTSUPPORTED error, its ruleset followed by lacks.
func openPricedAs[T any](s *Server, ctx context.Context, id string, price func(*live) (work int64, doc int), lacks string) (l *live, t T, done func(), err error) {
	if l, done, err = s.openPriced(ctx, id, price); err != nil {
		return nil, t, nil, err
	}
	t, ok := l.battle.(T)
	if !ok {
		done()
		return nil, t, nil, volley.Errorf(volley.ENOTSUPPORTED, "%s %s", l.record.Ruleset, lacks)
	}
	return l, t, done, nil
}
