package scenario

import (
	"fmt"
	"strings"
	"testing"
)

// TestPlace writes a scenario again with units moved: flow and block entries, a key
// replaced, one added, one dropped, a top-level section dropped; comments stay.
func TestPlace(t *testing.T) {
	src := `# the table
ruleset: dropzone
units:
  - {id: a, type: T, at: [14, 6], facing: 0, embarked: c}   # first
  - id: b
    type: T
    at: [1, 2]
  # c carries a
  - id: c
    models:
      - {id: m1, at: [0, 0]}
action: {squad: a}
`
	doc := mustParse(t, "s.yaml", []byte(src))
	out, err := doc.Place([]Placement{
		{ID: "a", Set: map[string]any{"at": []float64{20, 30.5}, "facing": 90.0}, Drop: []string{"embarked"}},
		{ID: "b", Set: map[string]any{"at": [2]float64{3, 4}, "facing": 45.0}},
		{ID: "m1", Set: map[string]any{"at": [2]float64{-1, 2}}},
	}, "action")
	if err != nil {
		t.Fatal(err)
	}
	want := `# the table
ruleset: dropzone
units:
  - {id: a, type: T, at: [20, 30.5], facing: 90} # first
  - id: b
    type: T
    at: [3, 4]
    facing: 45
  # c carries a
  - id: c
    models:
      - {id: m1, at: [-1, 2]}
`
	if string(out) != want {
		t.Errorf("Place:\n%s\nwant:\n%s", out, want)
	}
	// What it writes reads back.
	if _, err := Parse("out.yaml", out); err != nil {
		t.Errorf("the placed scenario does not read: %v", err)
	}
	if _, err := doc.Place([]Placement{{ID: "nobody"}}); err == nil || !strings.Contains(err.Error(), `no entry with id "nobody"`) {
		t.Errorf("an unknown id: %v", err)
	}
}

// TestPlaceItem places models written without ids of their own, by their place in their
// unit's list: flow and block items, one of a single key.
func TestPlaceItem(t *testing.T) {
	src := `units:
  - id: rangers
    models:
      - {at: [24, 12], leader: true}   # the leader
      - at: [26, 13]
      - at: [28, 11]
        elevation: 3
`
	doc := mustParse(t, "s.yaml", []byte(src))
	out, err := doc.Place([]Placement{
		{ID: "rangers", List: "models", Item: 0, Set: map[string]any{"at": []float64{20, 10}}},
		{ID: "rangers", List: "models", Item: 1, Set: map[string]any{"at": []float64{21, 10}, "elevation": 2.0}},
		{ID: "rangers", List: "models", Item: 2, Set: map[string]any{"at": []float64{22, 10}}, Drop: []string{"elevation"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `units:
  - id: rangers
    models:
      - {at: [20, 10], leader: true} # the leader
      - at: [21, 10]
        elevation: 2
      - at: [22, 10]
`
	if string(out) != want {
		t.Errorf("Place:\n%s\nwant:\n%s", out, want)
	}
	if _, err := doc.Place([]Placement{{ID: "rangers", List: "models", Item: 3}}); err == nil || !strings.Contains(err.Error(), "no mapping 3 in models") {
		t.Errorf("an item past the list: %v", err)
	}
}

// TestPlaceMappings writes a list of mappings in flow style, keys sorted, into a flow entry
// and a block one: a WarStrike ruin's floors.
func TestPlaceMappings(t *testing.T) {
	src := `terrain:
  - {id: ruin, kind: area, height: 9}
  - id: hut
    kind: area
    height: 6
`
	doc := mustParse(t, "s.yaml", []byte(src))
	out, err := doc.Place([]Placement{
		{ID: "ruin", Set: map[string]any{"floors": []any{map[string]any{"height": 7.0}, map[string]any{"name": "top", "height": 3.5}}}},
		{ID: "hut", Set: map[string]any{"floors": []any{map[string]any{"height": 2.0}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `terrain:
  - {id: ruin, kind: area, height: 9, floors: [{height: 7}, {height: 3.5, name: top}]}
  - id: hut
    kind: area
    height: 6
    floors: [{height: 2}]
`
	if string(out) != want {
		t.Errorf("Place:\n%s\nwant:\n%s", out, want)
	}
}

// placedUnit is what TestPlaceMergeKeys reads back of an entry.
type placedUnit struct {
	ID       string
	Type     string
	At       []float64
	Facing   float64
	Embarked string
	Models   []struct{ At []float64 }
}

// placed reads a placed scenario's units back, by id.
func placed(t *testing.T, out []byte) map[string]placedUnit {
	t.Helper()
	doc, err := Parse("out.yaml", out)
	if err != nil {
		t.Fatalf("the placed scenario does not read: %v\n%s", err, out)
	}
	var v struct{ Units []placedUnit }
	if err := doc.Decode(&v); err != nil {
		t.Fatalf("the placed scenario does not decode: %v\n%s", err, out)
	}
	m := map[string]placedUnit{}
	for _, u := range v.Units {
		m[u.ID] = u
	}
	return m
}

// TestPlaceMergeKeys: entries written with anchors and merge keys (<<) are placed. An
// anchored entry is found (issue 34: exporting such a battle was a 500, "no entry with
// id"); what is set on it or dropped from it does not leak into the entries that merge
// it; a key an entry only inherits can be dropped; an entry nobody placed keeps what it
// inherited; flow and block mappings, one source or a list of them.
func TestPlaceMergeKeys(t *testing.T) {
	src := `units:
  - &s {id: sabre-1, type: Sabre, at: [14, 6], facing: 0, embarked: c}   # the template
  - {<<: *s, id: sabre-2, at: [18, 6]}
  - {<<: *s, id: sabre-3}
  - &c
    id: c
    type: Carrier
    at: [1, 1]
  - <<: [*c]
    id: d
`
	doc := mustParse(t, "s.yaml", []byte(src))
	out, err := doc.Place([]Placement{
		{ID: "sabre-1", Set: map[string]any{"at": []float64{20, 30}, "facing": 90.0}, Drop: []string{"embarked"}},
		{ID: "sabre-2", Set: map[string]any{"facing": 45.0}, Drop: []string{"embarked"}},
		{ID: "c", Set: map[string]any{"at": []float64{2, 2}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := placed(t, out)
	for _, want := range []placedUnit{
		{ID: "sabre-1", Type: "Sabre", At: []float64{20, 30}, Facing: 90},
		{ID: "sabre-2", Type: "Sabre", At: []float64{18, 6}, Facing: 45},
		{ID: "sabre-3", Type: "Sabre", At: []float64{14, 6}, Facing: 0, Embarked: "c"},
		{ID: "c", Type: "Carrier", At: []float64{2, 2}},
		{ID: "d", Type: "Carrier", At: []float64{1, 1}},
	} {
		if g := got[want.ID]; fmt.Sprint(g) != fmt.Sprint(want) {
			t.Errorf("%s placed: %+v; want %+v\n%s", want.ID, g, want, out)
		}
	}
	if len(got) != 5 {
		t.Errorf("%d units placed; want 5\n%s", len(got), out)
	}
	if !strings.Contains(string(out), "# the template") {
		t.Errorf("the comment is lost:\n%s", out)
	}
}

// TestPlaceAliasedList: a unit's models written as an alias of another unit's list are
// placed by their place in it, and placing either unit's models leaves the other's be.
func TestPlaceAliasedList(t *testing.T) {
	src := `units:
  - id: a
    models: &two
      - {at: [1, 1]}
      - {at: [2, 2]}
  - id: b
    models: *two
`
	doc := mustParse(t, "s.yaml", []byte(src))
	out, err := doc.Place([]Placement{
		{ID: "a", List: "models", Item: 0, Set: map[string]any{"at": []float64{5, 5}}},
		{ID: "b", List: "models", Item: 1, Set: map[string]any{"at": []float64{7, 7}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := placed(t, out)
	if a, b := fmt.Sprint(got["a"].Models), fmt.Sprint(got["b"].Models); a != "[{[5 5]} {[2 2]}]" || b != "[{[1 1]} {[7 7]}]" {
		t.Errorf("a's models %s, b's %s; want [[5 5] [2 2]] and [[1 1] [7 7]]\n%s", a, b, out)
	}
}

// readsAs reports whether a scenario reads back with exactly these units.
func readsAs(src []byte, units []placedUnit) bool {
	doc, err := Parse("out.yaml", src)
	if err != nil {
		return false
	}
	var v struct{ Units []placedUnit }
	return doc.Decode(&v) == nil && fmt.Sprint(v.Units) == fmt.Sprint(units)
}

// FuzzPlace: whatever the units of a scenario share through anchors, aliases and merge
// keys, placing some of them changes what was set on them or dropped from them, and
// nothing else: every unit reads back as it did but for that.
func FuzzPlace(f *testing.F) {
	f.Add("units:\n  - &s {id: a, type: T, at: [1, 2], facing: 0, embarked: c}\n  - {<<: *s, id: b}\n  - {<<: [*s], id: c, at: [3, 4]}\n")
	f.Add("units:\n  - &s\n    id: a\n    type: T\n    at: &p [1, 2]\n  - id: b\n    <<: *s\n    facing: 3\n  - {id: c, at: *p, embarked: a}\n")
	f.Add("units:\n  - &m {id: a, models: &ms [{at: [1, 1]}, {at: [2, 2]}]}\n  - {id: b, models: *ms, <<: {type: 'T', facing: !!float 1}}\n")
	f.Add("units:\n  - id: a\n    type: \"x, y\"\n    at: [0, 0]\n  - &u\n    id: b\n    type: |\n      two\n      lines\n  - {<<: *u, id: c, facing: 1}\n")
	f.Fuzz(func(t *testing.T, src string) {
		doc, err := Parse("s.yaml", []byte(src))
		if err != nil {
			return
		}
		var in struct{ Units []placedUnit }
		if doc.Decode(&in) != nil {
			return
		}
		before := map[string]placedUnit{}
		for _, u := range in.Units {
			if _, dup := before[u.ID]; dup || u.ID == "" {
				return // a placement names one entry
			}
			before[u.ID] = u
		}
		// goccy writes some odd documents back as others ({id, id:00} as {id:, id: 00}):
		// this test is of sharing, so it takes only documents written back as they read.
		if same, err := doc.Place(nil); err != nil || !readsAs(same, in.Units) {
			return
		}
		var ps []Placement
		for i, u := range in.Units {
			if i%2 == 0 {
				ps = append(ps, Placement{ID: u.ID, Set: map[string]any{"at": []float64{float64(i), 0.5}}, Drop: []string{"embarked"}})
			}
		}
		out, err := doc.Place(ps)
		if err != nil {
			if strings.Contains(err.Error(), "no entry with id") {
				return // an id written only through an alias or a merge
			}
			t.Fatalf("Place: %v\n%s", err, src)
		}
		after := placed(t, out)
		for i, u := range in.Units {
			want := u
			if i%2 == 0 {
				want.At, want.Embarked = []float64{float64(i), 0.5}, ""
			}
			if got := after[u.ID]; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s: %+v; want %+v\n%s\nplaced:\n%s", u.ID, got, want, src, out)
			}
		}
	})
}
