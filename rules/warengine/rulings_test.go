package warengine

import (
	"strings"
	"testing"

	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rulestest"
)

// The War Engine rulings of issue 23, each under the edition that brought it (Edition3)
// and under edition 2, whose battles must replay as they were played.

// loadEdition loads src read under edition ed (0: the current one).
func loadEdition(t *testing.T, src string, ed int) (*Battle, error) {
	t.Helper()
	b, _, err := rulestest.LoadEdition(t, Ruleset{}, "test.yaml", []byte(src), ed)
	if err != nil {
		return nil, err
	}
	return b.(*Battle), nil
}

// order resolves one order written in the action's form.
func resolveOrder(t *testing.T, b *Battle, src string) error {
	t.Helper()
	_, err := rulestest.Resolve(b, rulestest.Decode(t, b, src), dice.ForAction(1, 0))
	return err
}

// TestCorrectedOntoAFriend: the game "will automatically correct the shot to keep it
// inside the weapons envelope", and a friend is targeted only with the shift-click
// (friendly: true). From a at 1,1 facing east, 0,2 is outside the rifle's arc and the
// nearest square inside is 2,2, where friend b stands. From edition 3 the declaration
// is refused there and then, so that a declared target always fires; edition 2 took it
// and refused the fire order.
func TestCorrectedOntoAFriend(t *testing.T) {
	src := strings.Replace(turnScenario, "{id: b, type: Soldier, side: blue, at: [1, 2]", "{id: b, type: Soldier, side: blue, at: [2, 2]", 1)
	for _, tc := range []struct {
		name     string
		edition  int
		options  string
		declare  string
		declared string // "" when the declaration is refused
		fires    bool
	}{
		{"edition 3", 0, "", "{type: declare, unit: a, weapon: Rifle, target: [0, 2]}", "", false},
		{"edition 3, friendly", 0, "", "{type: declare, unit: a, weapon: Rifle, target: [0, 2], friendly: true}", "2,2", true},
		{"edition 3, correct_around_friends", 0, "options: {correct_around_friends: true}\n", "{type: declare, unit: a, weapon: Rifle, target: [0, 2]}", "2,1", true},
		{"edition 2", 2, "", "{type: declare, unit: a, weapon: Rifle, target: [0, 2]}", "2,2", false},
	} {
		b, err := loadEdition(t, tc.options+src, tc.edition)
		if err != nil {
			t.Fatal(err)
		}
		err = resolveOrder(t, b, tc.declare)
		if tc.declared == "" {
			if err == nil || !strings.Contains(err.Error(), "holds friendly b: declare with friendly: true") {
				t.Errorf("%s: declaring 0,2: %v; want it refused, naming the friend", tc.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: declaring 0,2: %v", tc.name, err)
		}
		u, _ := b.Unit("a")
		if got := squareName(u.declared("Rifle").Target); got != tc.declared {
			t.Errorf("%s: declared %s; want %s", tc.name, got, tc.declared)
		}
		if err := resolveOrder(t, b, "{type: end_phase}"); err != nil {
			t.Fatal(err)
		}
		err = resolveOrder(t, b, "{type: fire, unit: a, weapon: Rifle}")
		if (err == nil) != tc.fires {
			t.Errorf("%s: fire: %v; want it to fire: %v", tc.name, err, tc.fires)
		}
	}
}

// TestTwinWeaponNames: a trooper may carry "2 pistols in Group 1"; the second is Pistol
// 2. A weapon written with that name is refused at load from edition 3, at its line:col;
// edition 2 loaded it.
func TestTwinWeaponNames(t *testing.T) {
	src := `ruleset: warengine
map:
  legend: {".": {name: open}}
  rows: |
    ........
weapons:
  - {name: Pistol, arc: 90, short: {range: 3}, medium: {range: 5}, long: {range: 8}, strength: 20, damage: [1, 1]}
  - {name: Pistol 2, arc: 90, short: {range: 4}, medium: {range: 6}, long: {range: 9}, strength: 25, damage: [1, 1]}
types:
  - name: Trooper
    weapon_skill: 50
    hits: 2
    weapons:
      - {weapon: Pistol, group: 1, count: 2}
      - {weapon: Pistol 2, group: 1}
units:
  - {id: a, type: Trooper, side: blue, at: [1, 0], facing: E}
  - {id: c, type: Trooper, side: red, at: [6, 0], facing: W}
`
	_, err := loadEdition(t, src, 0)
	want := `test.yaml:15:18: type "Trooper": weapon "Pistol 2" has the name of copy 2 of "Pistol" (count: 2)`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("twin names: %v; want %q", err, want)
	}
	if _, err := loadEdition(t, src, 2); err != nil {
		t.Errorf("edition 2: %v; want it to load as it did", err)
	}
	if _, err := loadEdition(t, strings.Replace(src, "{weapon: Pistol 2, group: 1}", "{weapon: Pistol 2, group: 2}", 1), 0); err == nil {
		t.Errorf("twin names in different groups: loaded; want the clash refused all the same")
	}
}
