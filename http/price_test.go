package http_test

// The third round of the hostile client (issue 34): work that ran before it was priced, or
// was priced as lighter than it is. Each test sends the attack, bounded in count
// and time.

import (
	"fmt"
	"math"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/volley-wargames/volley/servertest"
)

// corneredTable is a Dropzone table of pieces round solid pieces of corners corners each
// (each grown by a base into more corners still), in rows eight inches apart, and bases
// units standing in the lanes between them, the UCM's and the Scourge's lanes in turn. The
// UCM's runner, in the middle of the table, moves 24": far enough to go round most of it.
func corneredTable(pieces, corners, bases int) []byte {
	const spacing = 8.0
	cols := int(math.Ceil(math.Sqrt(float64(max(pieces, bases/40+1)))))
	size := spacing*float64(cols) + spacing
	var b strings.Builder
	fmt.Fprintf(&b, "ruleset: dropzone\ntitle: A cornered table\ndistances: in\ntable: {width: %g, height: %g}\n", size, size)
	b.WriteString(`types:
  - name: Sabre
    armour: 10
    damage_points: 3
    base: 1
    height: 1
    move: 24"
    weapons:
      - {name: Equalizer Machinegun, mf: 4", arc: F/S, full_range: 24", countered_range: 12", shots: 2, accuracy: 3+, energy: 3}
  - name: Hunter
    armour: 13
    damage_points: 3
    base: 1
    height: 1
    move: 6"
terrain:
`)
	for i := range pieces {
		cx, cy := spacing*float64(i%cols)+spacing, spacing*float64(i/cols)+spacing
		fmt.Fprintf(&b, "  - {id: block-%d, height: 3, polygon: [", i)
		for j := range corners {
			a := 2 * math.Pi * float64(j) / float64(corners)
			r := 2.5
			fmt.Fprintf(&b, "[%.4f, %.4f], ", cx+r*math.Cos(a), cy+r*math.Sin(a))
		}
		b.WriteString("]}\n")
	}
	mid := spacing * math.Floor(float64(cols)/2)
	fmt.Fprintf(&b, "units:\n  - {id: runner, type: Sabre, side: UCM, at: [%g, %g], facing: 0}\n", mid+spacing/2, mid+spacing)
	for i := range bases {
		lane, k := i%cols, i/cols
		x, y := spacing*float64(lane)+spacing/2, 2+1.5*float64(k)
		if lane%2 == 0 {
			fmt.Fprintf(&b, "  - {id: sabre-%d, type: Sabre, side: UCM, at: [%g, %g], facing: 0}\n", i, x, y)
		} else {
			fmt.Fprintf(&b, "  - {id: hunter-%d, type: Hunter, side: Scourge, at: [%g, %g], facing: 180}\n", i, x, y)
		}
	}
	if bases == 0 {
		b.WriteString("  - {id: hunter-0, type: Hunter, side: Scourge, at: [4, 20], facing: 180}\n")
	}
	return []byte(b.String())
}

// TestPositionWaysPricedFirst (2): on a table of forty pieces of 64 corners each
// `…/position` request worked out its ways for two minutes before its price refused it
// (400, delivered to no one). The ways are priced first, from the corners within the
// unit's move, and the map is refused at once, naming the unit: no step makes it cheaper.
func TestPositionWaysPricedFirst(t *testing.T) {
	_, ts := serveServer(t, servertest.Limits())
	id, _ := battle(t, ts.URL, corneredTable(40, 64, 4))
	send(t, "GET", ts.URL+"/api/battles/"+id, watch(id), nil) // folded once: the rebuild of a big scenario is not the map's
	for _, q := range []string{"unit=runner", "unit=runner&step=2", "unit=runner&progress=true"} {
		a := send(t, "GET", ts.URL+"/api/battles/"+id+"/position?"+q, watch(id), nil)
		v := a.json(t)
		if a.status != 400 || v["field"] != "unit" || !strings.Contains(fmt.Sprint(v["message"]), "corners of terrain and bases within runner's move") {
			t.Errorf("%s: %d %.300s; want 400 at unit, naming the corners", q, a.status, fmt.Sprint(v))
		}
		if a.took > 2*time.Second {
			t.Errorf("%s: refused in %v: the price is found without doing the work", q, a.took)
		}
		t.Logf("%s: %d in %v", q, a.status, a.took.Round(time.Millisecond))
	}
}

// TestSquadStepNotFinite (6): a Dropzone squad's map at step=1e-320 answered 200 with an
// empty body (its points' corner was +Inf, which JSON cannot hold). It is refused as a
// unit's map is, and no map of any system at an extreme step writes a number JSON
// cannot hold: each answer is JSON, a map or a 400 naming the step.
func TestSquadStepNotFinite(t *testing.T) {
	ts := serve(t, servertest.SQLite(t))
	for _, tc := range []struct{ file, unit string }{
		{"dropzone/formation.yaml", "sabres"},
		{"dropzone/position.yaml", "sabre-1"},
		{"warengine/position.yaml", "hale"},
		{"warfare/position.yaml", "longbowmen"},
		{"republique/position.yaml", "fb"},
		{"warstrike/position.yaml", "alpha"},
	} {
		id, _ := battle(t, ts.URL, example(t, tc.file))
		for _, step := range []string{"1e-320", "5e-324", "1e-300", "1e308", "1.7976931348623157e308", "-0", "1e-9"} {
			for _, progress := range []string{"", "&progress=true"} {
				a := send(t, "GET", ts.URL+"/api/battles/"+id+"/position?unit="+tc.unit+"&step="+url.QueryEscape(step)+progress, watch(id), nil)
				if a.status == 200 && progress != "" {
					lines := strings.Split(strings.TrimSpace(string(a.body)), "\n")
					a.body = []byte(lines[len(lines)-1])
				}
				v := a.json(t)
				if e, ok := v["error"].(map[string]any); ok {
					v, a.status = e, 400
				}
				switch {
				case a.status == 200 && v["position"] != nil:
				case a.status == 400 && v["field"] == "step":
				default:
					t.Errorf("%s, %s at step %s%s: %d %.300s; want a map or 400 at step", tc.file, tc.unit, step, progress, a.status, fmt.Sprint(v))
				}
			}
		}
	}
}

// TestDestroyNobody (8): a position map's objective destroy:nobody was answered 200, every
// point scoring nothing, in four systems (Warfare refused it); advice named the actor. It
// is a 400 naming the objective in every system, for a map and for advice.
func TestDestroyNobody(t *testing.T) {
	ts := serve(t, servertest.SQLite(t))
	for _, tc := range []struct{ file, unit, ally string }{
		{"dropzone/position.yaml", "sabre-1", ""},
		{"dropzone/formation.yaml", "sabres", "sabre-2"},
		{"warengine/position.yaml", "hale", ""},
		{"warfare/position.yaml", "longbowmen", ""},
		{"republique/position.yaml", "fb", ""},
		{"warstrike/position.yaml", "alpha", ""},
	} {
		id, _ := battle(t, ts.URL, example(t, tc.file))
		targets := []string{"nobody"}
		if tc.ally != "" {
			targets = append(targets, tc.ally) // one of its own side: not a target either
		}
		for _, target := range targets {
			obj := url.QueryEscape("destroy:" + target)
			for _, path := range []string{"/position?unit=" + tc.unit + "&objective=" + obj, "/advice?objective=" + obj} {
				a := send(t, "GET", ts.URL+"/api/battles/"+id+path, watch(id), nil)
				if v := a.json(t); a.status != 400 || v["field"] != "objective" {
					t.Errorf("%s %s: %d %.300s; want 400 at objective", tc.file, path, a.status, fmt.Sprint(v))
				}
			}
		}
	}
}

// aliasedTerrain is a Dropzone scenario of a few kilobytes whose terrain is one polygon of
// 200 corners used thirty times by an alias: some 18,000 values to decode, six thousand
// corners to cut, from under 5 KB.
func aliasedTerrain() []byte {
	var b strings.Builder
	b.WriteString("ruleset: dropzone\ntypes: [{name: T, armour: 5, damage_points: 3, base: 1, height: 1}]\nunits: [{id: a, type: T, side: A, at: [0, 0]}, {id: b, type: T, side: B, at: [0, 90]}]\nterrain:\n  - {id: hill-0, height: 2, polygon: &p [")
	for i := range 200 {
		a := 2 * math.Pi * float64(i) / 200
		fmt.Fprintf(&b, "[%.2f, %.2f], ", 40+5*math.Cos(a), 40+5*math.Sin(a))
	}
	b.WriteString("]}\n")
	for i := 1; i < 30; i++ {
		fmt.Fprintf(&b, "  - {id: hill-%d, height: 2, polygon: *p}\n", i)
	}
	return []byte(b.String())
}

// TestWorkAdmittedAsItCosts (3): on a table of 100 pieces of 64 corners and 300 bases,
// each preview or export cost 35–120 ms of CPU and was admitted as light, so that sixteen
// at a time from one address starved the honest players. Every endpoint's work is priced
// before it starts (price.go) and admitted as what it costs: with every heavy place
// taken, the big table's view, preview and export wait for one (503 at the deadline),
// and so does a small body whose aliases stand for thousands of values; a small battle's
// are light and answered at once.
func TestWorkAdmittedAsItCosts(t *testing.T) {
	limits := servertest.Limits()
	limits.RequestTimeout = 2 * time.Second
	limits.Heavy = 1
	srv, ts := serveServer(t, limits)
	big, bigTokens := battle(t, ts.URL, corneredTable(100, 64, 300))
	small, smallTokens := battle(t, ts.URL, example(t, "dropzone/equalizer-vs-hunter.yaml"))
	for _, id := range []string{big, small} { // folded once: folding a big scenario is heavy too
		if a := send(t, "GET", ts.URL+"/api/battles/"+id, watch(id), nil); a.status != 200 {
			t.Fatalf("reading %s: %d %.200s", id, a.status, a.body)
		}
	}
	preview := func(unit string) []byte {
		return []byte(`{"move": {"type": "move", "unit": "` + unit + `", "path": [[` + map[string]string{"runner": "44, 47", "sabre-1": "0, 1"}[unit] + `]]}}`)
	}
	release := srv.HoldHeavy()
	for _, tc := range []struct {
		what, method, path, token string
		body                      []byte
		heavy                     bool
	}{
		{"the big table's preview", "POST", "/api/battles/" + big + "/preview", bigTokens["UCM"], preview("runner"), true},
		{"the big table's export", "GET", "/api/battles/" + big + "/scenario", watch(big), nil, true},
		{"the big table's view", "GET", "/api/battles/" + big, watch(big), nil, true},
		{"a body of many values", "POST", "/api/battles", "", aliasedTerrain(), true},
		{"a small battle's preview", "POST", "/api/battles/" + small + "/preview", smallTokens["UCM"], preview("sabre-1"), false},
		{"a small battle's export", "GET", "/api/battles/" + small + "/scenario", watch(small), nil, false},
		{"a small battle's view", "GET", "/api/battles/" + small, watch(small), nil, false},
		{"a small battle's log", "GET", "/api/battles/" + small + "/log", watch(small), nil, false},
	} {
		a := send(t, tc.method, ts.URL+tc.path, tc.token, tc.body)
		switch {
		case tc.heavy && a.status != 503:
			t.Errorf("%s, every heavy place taken: %d %.200s; want it to wait for one (503)", tc.what, a.status, a.body)
		case !tc.heavy && a.status/100 != 2:
			t.Errorf("%s, every heavy place taken: %d %.200s; want it answered as light work", tc.what, a.status, a.body)
		}
	}
	release()
	for _, path := range []string{"/api/battles/" + big + "/scenario", "/api/battles/" + big} {
		if a := send(t, "GET", ts.URL+path, watch(big), nil); a.status != 200 {
			t.Errorf("%s with the heavy place free: %d %.200s", path, a.status, a.body)
		}
	}
	if a := send(t, "POST", ts.URL+"/api/battles/"+big+"/preview", bigTokens["UCM"], preview("runner")); a.status != 200 || !strings.Contains(string(a.body), `"legal": true`) {
		t.Errorf("the big table's preview with the heavy place free: %d %.300s", a.status, a.body)
	}
	if a := send(t, "POST", ts.URL+"/api/battles", "", aliasedTerrain()); a.status != 201 {
		t.Errorf("the body of many values with the heavy place free: %d %.300s", a.status, a.body)
	}
}
