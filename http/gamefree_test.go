package http_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/servertest"
)

// A client that knows no game. It reads only what docs/api.md and docs/json.md
// document: the battle's view (its offers, state.turn, table.edge or the board's size),
// …/aim and …/preview to ask whether the server would take an action, and …/actions to
// take it. It knows no rule system's name, action or field: every body it sends is built
// from an offer (its action, an actor's action, a value for each field within what the
// field allows), and it sends only what the aim (legal) or the preview (legal) says the
// server would take. Its choices are a seeded generator's, so a run is the same every
// time.

// freeClient plays one battle from both sides.
type freeClient struct {
	t        *testing.T
	base, id string
	tokens   map[string]string
	rng      *rand.Rand
	// tried counts, for each moment of the battle (round, phase, side) and actor, the
	// actions tried, so that every moment ends.
	tried map[string]int
	// taken counts the actions taken by their offer's type; refused the posts refused
	// (which must stay 0).
	taken   map[string]int
	refused int
	posted  int
	// offered counts the offers seen by their type; asked the aims and previews asked;
	// notLegal the bodies built from an offer that the aim or the preview said the server
	// would not take, by the kind of reason docs/json.md gives for it (documented), and
	// reasons the same by the reason itself (its last line, without numbers).
	offered  map[string]int
	asked    int
	notLegal map[string]int
	reasons  map[string]int
	// pauses counts the pauses met by the client's battles, to answer them and let them go
	// in turn.
	pauses *int
	// offeredEnd is set once a side has offered to end the battle (and play went on).
	offeredEnd bool
}

// freeView is the part of the battle's view the client reads.
type freeView struct {
	Ended  bool        `json:"ended"`
	Result *freeResult `json:"result"`
	State  freeState   `json:"state"`
	Offers []freeOffer `json:"offers"`
	Table  *freeTable  `json:"table"`
	Board  *freeBoard  `json:"board"`
}

type freeResult struct {
	Over   bool   `json:"over"`
	Reason string `json:"reason"`
}

type freeState struct {
	Turn  *freeTurn `json:"turn"`
	Units []struct {
		ID     string `json:"id"`
		MayAct *bool  `json:"may_act"`
		WhyNot string `json:"why_not"`
	} `json:"units"`
}

type freeTurn struct {
	Side   string   `json:"side"`
	Phase  string   `json:"phase"`
	Number int      `json:"number"`
	Acting []string `json:"acting"`
}

type freeTable struct {
	Edge  *[4]float64 `json:"edge"`
	Units []freeUnit  `json:"units"`
}

type freeBoard struct {
	Width  int        `json:"width"`
	Height int        `json:"height"`
	Units  []freeUnit `json:"units"`
}

// freeUnit is where a unit stands on the table or the board.
type freeUnit struct {
	Side      string  `json:"side"`
	X         float64 `json:"x"`
	Y         float64 `json:"y"`
	Placed    *bool   `json:"placed"`
	Destroyed bool    `json:"destroyed"`
}

// enemies are where side's enemies stand.
func (v freeView) enemies(side string) [][2]float64 {
	var units []freeUnit
	switch {
	case v.Table != nil:
		units = v.Table.Units
	case v.Board != nil:
		units = v.Board.Units
	}
	var out [][2]float64
	for _, u := range units {
		if u.Side != side && !u.Destroyed && (u.Placed == nil || *u.Placed) {
			out = append(out, [2]float64{u.X, u.Y})
		}
	}
	return out
}

type freeOffer struct {
	Side   string         `json:"side"`
	Type   string         `json:"type"`
	Action map[string]any `json:"action"`
	Actors []freeActor    `json:"actors"`
	Fields []freeField    `json:"fields"`
	AnyOf  []string       `json:"any_of"`
	Ends   string         `json:"ends"`
}

type freeActor struct {
	ID     string         `json:"id"`
	Action map[string]any `json:"action"`
	Fields []freeField    `json:"fields"`
	Ends   string         `json:"ends"`
}

type freeField struct {
	Key      string           `json:"key"`
	Kind     string           `json:"kind"`
	Optional bool             `json:"optional"`
	Options  []freeOption     `json:"options"`
	Min      *float64         `json:"min"`
	Max      *float64         `json:"max"`
	Step     float64          `json:"step"`
	From     *[2]float64      `json:"from"`
	Grid     bool             `json:"grid"`
	Within   [][2]float64     `json:"within"`
	Rows     []map[string]any `json:"rows"`
	Row      []freeField      `json:"row"`
	MaxRows  int              `json:"max_rows"`
	Needs    []string         `json:"needs"`
	Excludes []string         `json:"excludes"`
}

type freeOption struct {
	Value  any                `json:"value"`
	Limits map[string]float64 `json:"limits"`
	Allows []string           `json:"allows"`
}

// enders are what an offer's ends names when taking it moves the battle on: the client
// takes one when it has nothing else left to try.
var enders = []string{"turn", "phase", "step", "deployment", "pause"}

func (c *freeClient) view() freeView {
	c.t.Helper()
	status, raw, v := c.get("/api/battles/" + c.id)
	if status != 200 {
		c.t.Fatalf("the view: %d %s", status, raw)
	}
	return v
}

func (c *freeClient) get(path string) (int, []byte, freeView) {
	c.t.Helper()
	status, raw := c.do("GET", path, watch(c.id), nil)
	var v freeView
	if status == 200 {
		if err := json.Unmarshal(raw, &v); err != nil {
			c.t.Fatal(err)
		}
	}
	return status, raw, v
}

// do sends a request and returns its status and body.
func (c *freeClient) do(method, path, token string, body []byte) (int, []byte) {
	c.t.Helper()
	return sendRaw(c.t, method, c.base+path, token, body)
}

// legal asks the server whether it would take body now: the preview for an action that
// places or moves a unit (a path or a point), the aim for any other. A body it would not
// take is counted by the reason given.
func (c *freeClient) legal(body []byte, moves bool) bool {
	c.t.Helper()
	c.asked++
	path, req := "/aim", body
	if moves {
		path, req = "/preview", mustJSON(c.t, map[string]json.RawMessage{"move": body})
	}
	status, raw := c.do("POST", "/api/battles/"+c.id+path, watch(c.id), req)
	var ans struct {
		Legal  bool   `json:"legal"`
		Reason string `json:"reason"`
		Error  string `json:"error"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		c.t.Fatalf("%s of %s: %d %s", path, body, status, raw)
	}
	if status != 200 {
		// An aim or a preview of a body built from an offer is never refused.
		c.t.Errorf("%s of %s: %d %s", path, body, status, raw)
		return false
	}
	if !ans.Legal {
		kind := documented(path[1:], ans.Reason)
		if kind == "" {
			c.t.Errorf("%s of %s, built from the offers: not legal, for a reason docs/json.md does not give (\"What the offers leave to the aim and the preview\"): %s", path, body, ans.Reason)
			kind = "undocumented"
		}
		c.notLegal[kind]++
		c.reasons[path[1:]+": "+reasonKind(ans.Reason)]++
	}
	return ans.Legal
}

// The reasons docs/json.md gives ("What the offers leave to the aim and the preview")
// for which a body built within what the offers allow may still be refused, each with
// words of the reasons the systems give for it.
var documentedReasons = []struct {
	kind, endpoint string
	words          []string
}{
	{"where: ground, units, the zone, the edge", "preview", []string{"would pass over", "would pass through", "leave the table", "is off the", "blocks it", "stands on", "stand on", "would overlap", "deployment zone", "cannot turn there"}},
	{"a move's parts together cost more than it may move", "preview", []string{"move takes", "climbing"}},
	{"a target out of range, arc or sight", "aim", []string{"out_of_range", "out_of_arc", "is blocked", "can hit it", "sees no", "holds friendly"}},
}

// documented is the kind of a reason docs/json.md gives for it, "" for none.
func documented(endpoint, why string) string {
	for _, d := range documentedReasons {
		if d.endpoint == endpoint && slices.ContainsFunc(d.words, func(w string) bool { return strings.Contains(why, w) }) {
			return d.kind
		}
	}
	return ""
}

// reasonKind is a reason's first line with the numbers and the names in it left out, to
// count reasons alike.
func reasonKind(why string) string {
	lines := strings.Split(why, "\n")
	why = strings.TrimSpace(lines[len(lines)-1])
	words := strings.Fields(why)
	for i, w := range words {
		if strings.ContainsAny(w, "0123456789") {
			words[i] = "#"
		}
	}
	return strings.Join(words, " ")
}

// act posts side's action, which the server must take.
func (c *freeClient) act(side string, body []byte, typ string) {
	c.t.Helper()
	c.posted++
	status, raw := c.do("POST", "/api/battles/"+c.id+"/actions", c.tokens[side], body)
	if status != 200 {
		c.refused++
		c.t.Fatalf("refused: %s sent %s: %d %s", side, body, status, raw)
	}
	c.taken[typ]++
}

// play plays the battle to its end (its last round, or a side destroyed), checking at
// each view that the offers agree with the state.
func (c *freeClient) play() {
	c.t.Helper()
	for step := 0; ; step++ {
		if step > 5000 {
			c.t.Fatalf("no end after %d actions", c.posted)
		}
		v := c.view()
		if v.Ended || v.Result != nil && v.Result.Over {
			return
		}
		c.check(v)
		if !c.step(v) {
			c.t.Fatalf("nothing to do: offers %+v", v.Offers)
		}
	}
}

// check asserts what the view says of its offers: the sides acting (state.turn.acting)
// are those the rules' offers are for, each has one at least, and no unit that may not
// act (may_act false) is offered an action.
func (c *freeClient) check(v freeView) {
	c.t.Helper()
	acting := map[string]bool{}
	if v.State.Turn != nil {
		for _, s := range v.State.Turn.Acting {
			acting[s] = true
		}
	}
	spent := map[string]string{}
	for _, u := range v.State.Units {
		if u.MayAct == nil {
			c.t.Fatalf("unit %s: no may_act in the view", u.ID)
		}
		if !*u.MayAct {
			if u.WhyNot == "" {
				c.t.Errorf("unit %s may not act, and the view does not say why", u.ID)
			}
			spent[u.ID] = u.WhyNot
		}
	}
	has := map[string]bool{}
	for _, o := range v.Offers {
		c.offered[o.Type]++
		if o.Type == "take_back" || o.Type == "offer_end" {
			continue // the game's own, not the rules'
		}
		has[o.Side] = true
		if v.State.Turn != nil && !acting[o.Side] {
			c.t.Errorf("%s is offered %s, but state.turn.acting is %v", o.Side, o.Type, v.State.Turn.Acting)
		}
		for _, a := range o.Actors {
			if why, ok := spent[a.ID]; ok && o.Type != "deploy" {
				c.t.Errorf("%s is offered %s, but may not act: %s", a.ID, o.Type, why)
			}
		}
	}
	for s := range acting {
		if !has[s] {
			c.t.Errorf("%s acts now (state.turn.acting), but is offered nothing", s)
		}
	}
}

// moment names where the battle stands, for counting what was tried there.
func moment(v freeView) string {
	t := v.State.Turn
	if t == nil {
		return ""
	}
	return fmt.Sprintf("%d/%s/%s/%v", t.Number, t.Phase, t.Side, t.Acting)
}

// step takes one action: an action that moves the battle on only when nothing else
// offered can be taken.
func (c *freeClient) step(v freeView) bool {
	c.t.Helper()
	at := moment(v)
	var doers, ends []freeOffer
	for _, o := range v.Offers {
		switch {
		case o.Type == "offer_end":
			// Once in the battle, in its second round, a side offers to end it; the battle
			// goes on with the next action.
			if !c.offeredEnd && o.Ends == "" && v.State.Turn != nil && v.State.Turn.Number == 2 {
				c.offeredEnd = true
				c.act(o.Side, mustJSON(c.t, o.Action), o.Type)
				return true
			}
		case o.Type == "take_back":
			if c.rng.IntN(8) == 0 && c.tried[at+"/take_back"] == 0 {
				c.tried[at+"/take_back"]++
				c.act(o.Side, mustJSON(c.t, o.Action), o.Type)
				return true
			}
		case slices.Contains(enders, o.Ends):
			ends = append(ends, o)
		default:
			doers = append(doers, o)
		}
	}
	// Now and then the client ends what is under way early (a deployment, a pause, a
	// phase, a turn), as the first offer that ends something says.
	// Play that waits on the side's answer (ends: pause) is answered and let go in turn,
	// across the client's battles.
	letGo := false
	if len(ends) > 0 && ends[0].Ends == "pause" {
		*c.pauses++
		letGo = *c.pauses%2 == 0
	}
	if len(ends) > 0 && (letGo || c.rng.IntN(40) == 0) {
		o := ends[c.rng.IntN(len(ends))]
		c.act(o.Side, mustJSON(c.t, o.Action), o.Type)
		return true
	}
	// The offers, and the actors of each, in an order of the generator's (every kind gets
	// its turn to be first). Each actor takes one action at each moment besides its moves,
	// now and then more, and each offer is tried twice at most for each actor.
	type pick struct {
		o freeOffer
		a *freeActor
	}
	doers = slices.Clone(doers)
	c.rng.Shuffle(len(doers), func(i, j int) { doers[i], doers[j] = doers[j], doers[i] })
	var picks []pick
	for _, o := range doers {
		var these []pick
		if len(o.Actors) == 0 {
			these = append(these, pick{o, nil})
		}
		for i := range o.Actors {
			these = append(these, pick{o, &o.Actors[i]})
		}
		c.rng.Shuffle(len(these), func(i, j int) { these[i], these[j] = these[j], these[i] })
		picks = append(picks, these...)
	}
	for _, p := range picks {
		id := ""
		if p.a != nil {
			id = p.a.ID
		}
		moving := p.o.Type == "move" || p.o.Type == "deploy"
		key := at + "/" + p.o.Type + "/" + id
		// An actor that acted at this moment acts again (another weapon's target, a
		// target cleared) now and then, up to three times.
		if n := c.tried[at+"/acted/"+id]; c.tried[key] >= 2 || !moving && n > 0 && (n >= 3 || c.rng.IntN(3) != 0) {
			continue
		}
		c.tried[key]++
		if body, ok := c.build(v, p.o, p.a); ok {
			c.act(p.o.Side, body, p.o.Type)
			if !moving {
				c.tried[at+"/acted/"+id]++
			}
			return true
		}
	}
	if len(ends) == 0 {
		return false
	}
	o := ends[0]
	c.act(o.Side, mustJSON(c.t, o.Action), o.Type)
	return true
}

// build makes a body for an offer and an actor that the server says it would take, or
// reports that none of the few it tried would be.
func (c *freeClient) build(v freeView, o freeOffer, a *freeActor) ([]byte, bool) {
	c.t.Helper()
	base := map[string]any{}
	for k, x := range o.Action {
		base[k] = x
	}
	fields := slices.Clone(o.Fields)
	if a != nil {
		for k, x := range a.Action {
			base[k] = x
		}
		for _, f := range a.Fields {
			if i := slices.IndexFunc(fields, func(g freeField) bool { return g.Key == f.Key }); i >= 0 {
				fields[i] = f
			} else {
				fields = append(fields, f)
			}
		}
	}
	moves := slices.ContainsFunc(fields, func(f freeField) bool { return f.Kind == "path" || f.Kind == "point" })
	for try := 0; try < 6; try++ {
		body := map[string]any{}
		for k, x := range base {
			body[k] = x
		}
		limits := map[string]float64{}
		ok := true
		// Fields with options first: an option may bound another field (limits).
		order := slices.Clone(fields)
		slices.SortStableFunc(order, func(x, y freeField) int { return boolInt(len(x.Options) == 0) - boolInt(len(y.Options) == 0) })
		byKey := map[string]freeField{}
		for _, f := range order {
			byKey[f.Key] = f
			val, set := c.value(v, o.Side, f, limits, body, false)
			if !set {
				if !f.Optional {
					ok = false
				}
				continue
			}
			body[f.Key] = val
		}
		// What a field needs and excludes, then one of any_of at least (among the
		// actor's fields).
		for _, f := range order {
			if _, set := body[f.Key]; !set {
				continue
			}
			for _, k := range f.Excludes {
				delete(body, k)
			}
			for _, k := range f.Needs {
				if _, set := body[k]; !set {
					if val, set := c.value(v, o.Side, byKey[k], limits, body, true); set {
						body[k] = val
					} else {
						ok = false
					}
				}
			}
		}
		var anyOf []string
		for _, k := range o.AnyOf {
			if _, has := byKey[k]; has {
				anyOf = append(anyOf, k)
			}
		}
		if len(anyOf) > 0 && !slices.ContainsFunc(anyOf, func(k string) bool { _, set := body[k]; return set }) {
			k := anyOf[c.rng.IntN(len(anyOf))]
			if val, set := c.value(v, o.Side, byKey[k], limits, body, true); set {
				body[k] = val
			} else {
				ok = false
			}
		}
		if !ok {
			return nil, false
		}
		raw := mustJSON(c.t, body)
		if c.legal(raw, moves) {
			return raw, true
		}
		if !moves && !hasChoice(fields) {
			return nil, false // nothing else to try
		}
	}
	return nil, false
}

// hasChoice reports whether another try might build another body.
func hasChoice(fields []freeField) bool {
	return slices.ContainsFunc(fields, func(f freeField) bool { return f.Kind != "flag" })
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// value chooses a value for a field, within what it allows; set is false to leave an
// optional field out, or when no value fits.
func (c *freeClient) value(v freeView, side string, f freeField, limits map[string]float64, body map[string]any, must bool) (any, bool) {
	if f.Optional && !must && f.Kind != "rows" && c.rng.IntN(3) != 0 {
		return nil, false
	}
	// limit records what a chosen value bounds: the least bound of a field holds.
	limit := func(o freeOption) {
		for k, x := range o.Limits {
			if old, ok := limits[k]; !ok || x < old {
				limits[k] = x
			}
		}
	}
	switch f.Kind {
	case "select", "unit":
		if len(f.Options) == 0 {
			return nil, false
		}
		// An option that leaves more to do (allows) is likelier.
		opts := f.Options
		var allowing []freeOption
		for _, o := range opts {
			if len(o.Allows) > 0 {
				allowing = append(allowing, o)
			}
		}
		if len(allowing) > 0 && c.rng.IntN(4) != 0 {
			opts = allowing
		}
		o := opts[c.rng.IntN(len(opts))]
		limit(o)
		return o.Value, true
	case "checks":
		var out []any
		for _, o := range f.Options {
			if c.rng.IntN(2) == 0 {
				out = append(out, o.Value)
			}
		}
		return out, len(out) > 0
	case "number":
		lo, hi := 0.0, 1.0
		if f.Min != nil {
			lo = *f.Min
		}
		if f.Max != nil {
			hi = *f.Max
		}
		x := lo + c.rng.Float64()*(hi-lo)
		if f.Step > 0 {
			x = lo + math.Floor((x-lo)/f.Step)*f.Step
		}
		return x, true
	case "flag":
		if c.rng.IntN(2) == 0 && !must {
			return false, !f.Optional // an optional flag left out is false
		}
		for _, o := range f.Options {
			if o.Value == true {
				limit(o)
			}
		}
		return true, true
	case "point":
		// Most points are the nearest to an enemy of a few tried.
		best, bestD, found := any(nil), math.Inf(1), false
		es := v.enemies(side)
		tries := 1
		if len(es) > 0 && c.rng.IntN(4) != 0 {
			tries = 8
		}
		for range tries {
			p, ok := c.point(v, f)
			if !ok {
				continue
			}
			d := 0.0
			if q, isF := p.([2]float64); isF {
				d = math.Inf(1)
				for _, e := range es {
					d = min(d, math.Hypot(e[0]-q[0], e[1]-q[1]))
				}
			}
			if !found || d < bestD {
				best, bestD, found = p, d, true
			}
		}
		return best, found
	case "path":
		most := *f.Max
		if l, ok := limits[f.Key]; ok {
			most = l // the chosen value's bound, in place of the field's
		}
		if most <= 0 || f.From == nil {
			return nil, false
		}
		// Most moves go towards an enemy (where the view says it stands), the rest
		// anywhere.
		angle := c.rng.Float64() * 2 * math.Pi
		if es := v.enemies(side); len(es) > 0 && c.rng.IntN(4) != 0 {
			e := es[c.rng.IntN(len(es))]
			angle = math.Atan2(e[0]-f.From[0], e[1]-f.From[1])
		}
		if f.Grid {
			steps := 1 + c.rng.IntN(int(most))
			// A board's rows grow down the map.
			dx, dy := int(math.Round(math.Sin(angle))), int(math.Round(math.Cos(angle)))
			if dx == 0 && dy == 0 {
				dy = 1
			}
			var path [][2]int
			x, y := int(f.From[0]), int(f.From[1])
			for range steps {
				x, y = x+dx, y+dy
				path = append(path, [2]int{x, y})
			}
			return path, true
		}
		d := most * (0.3 + 0.7*c.rng.Float64())
		end := [2]float64{round3(f.From[0] + d*math.Sin(angle)), round3(f.From[1] + d*math.Cos(angle))}
		if math.Hypot(end[0]-f.From[0], end[1]-f.From[1]) > most {
			return nil, false
		}
		return [][2]float64{end}, true
	case "rows":
		return c.rows(f, body)
	}
	return nil, false
}

// point is a point [x, y] (a square on a grid) within the field's polygon, or on the
// table (its edge) or the board.
func (c *freeClient) point(v freeView, f freeField) (any, bool) {
	lo, hi := [2]float64{0, 0}, [2]float64{1, 1}
	switch {
	case len(f.Within) > 0:
		lo, hi = f.Within[0], f.Within[0]
		for _, p := range f.Within {
			lo = [2]float64{min(lo[0], p[0]), min(lo[1], p[1])}
			hi = [2]float64{max(hi[0], p[0]), max(hi[1], p[1])}
		}
	case v.Board != nil:
		hi = [2]float64{float64(v.Board.Width), float64(v.Board.Height)}
	case v.Table != nil && v.Table.Edge != nil:
		lo, hi = [2]float64{v.Table.Edge[0], v.Table.Edge[1]}, [2]float64{v.Table.Edge[2], v.Table.Edge[3]}
	default:
		return nil, false
	}
	for range 50 {
		p := [2]float64{lo[0] + c.rng.Float64()*(hi[0]-lo[0]), lo[1] + c.rng.Float64()*(hi[1]-lo[1])}
		if f.Grid {
			sq := [2]int{int(p[0]), int(p[1])}
			if len(f.Within) == 0 || inside([2]float64{float64(sq[0]) + 0.5, float64(sq[1]) + 0.5}, f.Within) {
				return sq, true
			}
			continue
		}
		p = [2]float64{round3(p[0]), round3(p[1])}
		if len(f.Within) == 0 || inside(p, f.Within) {
			return p, true
		}
	}
	return nil, false
}

// inside reports whether p lies inside the polygon (crossing number).
func inside(p [2]float64, poly [][2]float64) bool {
	in := false
	for i, j := 0, len(poly)-1; i < len(poly); j, i = i, i+1 {
		a, b := poly[i], poly[j]
		if (a[1] > p[1]) != (b[1] > p[1]) && p[0] < (b[0]-a[0])*(p[1]-a[1])/(b[1]-a[1])+a[0] {
			in = !in
		}
	}
	return in
}

// rows fills a rows field: each fixed row (or one row the client adds) with a value for
// each of its fields, a row kept only when the server would take the action with it
// alone (asked with the aim), up to MaxRows.
func (c *freeClient) rows(f freeField, body map[string]any) (any, bool) {
	fixed := f.Rows
	if fixed == nil {
		fixed = []map[string]any{{}}
	}
	var out []map[string]any
	for _, fr := range fixed {
		if f.MaxRows > 0 && len(out) >= f.MaxRows {
			break
		}
		// Each unit option in turn (in the generator's order), the rest at random.
		var unitField *freeField
		for i := range f.Row {
			if f.Row[i].Kind == "unit" {
				unitField = &f.Row[i]
			}
		}
		var tries []any
		if unitField != nil {
			for _, o := range unitField.Options {
				tries = append(tries, o.Value)
			}
			c.rng.Shuffle(len(tries), func(i, j int) { tries[i], tries[j] = tries[j], tries[i] })
		} else {
			tries = []any{nil}
		}
		for _, target := range tries {
			row := map[string]any{}
			for k, x := range fr {
				row[k] = x
			}
			for _, rf := range f.Row {
				if unitField != nil && rf.Key == unitField.Key {
					row[rf.Key] = target
					continue
				}
				if val, set := c.value(freeView{}, "", rf, map[string]float64{}, row, false); set {
					row[rf.Key] = val
				}
			}
			one := map[string]any{}
			for k, x := range body {
				one[k] = x
			}
			one[f.Key] = []map[string]any{row}
			if c.legal(mustJSON(c.t, one), false) {
				out = append(out, row)
				break
			}
		}
	}
	return out, len(out) > 0
}

func total(m map[string]int) int {
	n := 0
	for _, x := range m {
		n += x
	}
	return n
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// sendRaw sends a request and returns its status and raw answer.
func sendRaw(tb testing.TB, method, u, token string, body []byte) (int, []byte) {
	tb.Helper()
	resp, err := http.DefaultClient.Do(servertest.Request(tb, method, u, token, body))
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	return resp.StatusCode, raw
}

// TestGameFreeClient plays every system's examples/<system>/battle.yaml from both sides
// to its end, as a client that knows no game would: from the offers alone, asking the
// aim or the preview before it sends a body it built, and sending only what they say the
// server would take. At each view the offers agree with the state (check). A body built
// within what the offers allow that the aim or the preview says is not legal is counted
// by the kind of reason docs/json.md gives for it, and a reason of no documented kind
// fails the test (the offers should have said). No action is refused; the battle ends by its own end, not by the sides' agreement, and its log
// verifies; each system's client moved, acted otherwise and ended turns; and every kind
// of action offered in any system was taken in some system.
func TestGameFreeClient(t *testing.T) {
	offered, taken, pauses := map[string]int{}, map[string]int{}, 0
	// Two seeds of the client's choices for each system: between them the client meets a
	// Republique battery's passing fire, takes it once and lets it go once.
	type run struct {
		system string
		seed   uint64
	}
	var runs []run
	for _, system := range []string{"dropzone", "warfare", "warengine", "republique", "warstrike"} {
		for _, seed := range []uint64{1, 3} {
			runs = append(runs, run{system, seed})
		}
	}
	for _, r := range runs {
		system := r.system
		t.Run(fmt.Sprintf("%s/%d", system, r.seed), func(t *testing.T) {
			doc := example(t, system+"/battle.yaml")
			srv := servertest.New(servertest.SQLite(t), servertest.Limits())
			sum := sha256.Sum256([]byte("volley game-free client " + system))
			srv.NewSeed = func() (dice.Seed, error) { return dice.NewSeed(bytes.NewReader(sum[:])) }
			ts := servertest.Start(t, srv)
			id, tokens := battle(t, ts.URL, doc)
			c := &freeClient{t: t, base: ts.URL, id: id, tokens: tokens, rng: rand.New(rand.NewPCG(r.seed, uint64(len(system)))),
				tried: map[string]int{}, taken: map[string]int{}, offered: map[string]int{}, notLegal: map[string]int{}, reasons: map[string]int{}, pauses: &pauses}
			c.play()
			v := c.view()
			if v.Result == nil || !v.Result.Over || !v.Ended {
				t.Fatalf("the battle is not over: %+v, ended %v", v.Result, v.Ended)
			}
			if strings.Contains(v.Result.Reason, "agreed") {
				t.Errorf("the battle ended by agreement, not by its own end: %s", v.Result.Reason)
			}
			if len(v.Offers) != 0 {
				t.Errorf("the battle is over, and the view offers %+v", v.Offers)
			}
			if c.refused != 0 {
				t.Errorf("%d actions refused", c.refused)
			}
			if status, vv := call(t, "GET", ts.URL+"/api/battles/"+id+"/verify", watch(id), "", nil); status != 200 || vv["verified"] != true {
				t.Errorf("verify: %d %v", status, vv)
			}
			var moved, shot, ended int
			for typ, n := range c.taken {
				taken[typ] += n
				switch {
				case typ == "move":
					moved += n
				case strings.HasPrefix(typ, "end_"):
					ended += n
				case typ != "deploy" && typ != "take_back" && typ != "offer_end" && typ != "decline":
					shot += n
				}
			}
			for typ, n := range c.offered {
				offered[typ] += n
			}
			if moved == 0 || shot == 0 || ended == 0 {
				t.Errorf("moved %d times, acted otherwise %d, ended %d: %v", moved, shot, ended, c.taken)
			}
			t.Logf("%s: %d actions taken %v; %d aims and previews asked; %s", system, c.posted, c.taken, c.asked, v.Result.Reason)
			t.Logf("%s: %d bodies built from the offers not legal: %v", system, total(c.notLegal), c.notLegal)
			if testing.Verbose() {
				var why []string
				for k, n := range c.reasons {
					why = append(why, fmt.Sprintf("%4d %s", n, k))
				}
				slices.Sort(why)
				t.Logf("%s: by reason:\n%s", system, strings.Join(why, "\n"))
			}
		})
	}
	if t.Failed() {
		return
	}
	for typ := range offered {
		if taken[typ] == 0 {
			t.Errorf("%s was offered %d times, and never taken", typ, offered[typ])
		}
	}
	t.Logf("offered %v; taken %v", offered, taken)
}
