package scenario

import (
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
	doc, err := Parse("s.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
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
	doc, err := Parse("s.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
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
	doc, err := Parse("s.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
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
