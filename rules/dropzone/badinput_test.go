package dropzone

import (
	"strings"
	"testing"

	"github.com/volley-wargames/volley/rulestest"

	"github.com/volley-wargames/volley"
)

// template is a valid scenario; each bad-input case replaces one marked line.
const template = `ruleset: dropzone
options: {silhouette_samples: [9, 8]}
types:
  - name: Tank
    armour: 9
    damage_points: 3
    base: 1
    height: 1
    countermeasures: {evasion: 1}
    weapons:
      - {name: Gun, mf: 2", arc: F, full_range: 20", countered_range: 10", shots: 2, accuracy: 3+, energy: 8, special: [Devastator 1]}
units:
  - {id: a, type: Tank, side: A, squad: a, at: [0, 0]}
  - {id: b, type: Tank, side: B, at: [0, 10]}
terrain:
  - {id: wall, polygon: [[-5, 4], [5, 4], [5, 5], [-5, 5]], height: 0.5}
action:
  declarations:
    - {unit: a, weapon: Gun, target: b}
`

func TestBadInput(t *testing.T) {
	tests := []struct {
		old, new string
		want     string // "line:col: message" fragment
		n        int    // errors expected when more than one follows from the mistake
	}{
		{"{unit: a, weapon: Gun, target: b}", `{unit: "", weapon: Gun, target: b}`, `19:14: unit: must not be empty`, 0},
		{"{unit: a, weapon: Gun, target: b}", `{unit: a, weapon: "", target: b}`, `19:25: weapon: must not be empty`, 0},
		{"{unit: a, weapon: Gun, target: b}", `{unit: a, weapon: Gun, target: ""}`, `19:38: target: must not be empty`, 0},
		{"{id: a, type: Tank", `{id: "", type: Tank`, `13:10: id: must not be empty`, 2},
		// One mistake, one error: the units of the nameless type, and the action naming
		// them, say nothing more.
		{"- name: Tank", `- name: ""`, `4:11: name: must not be empty`, 1},
		{"countermeasures: {evasion: 1}", "countermeasures: {evasion: 9223372036854775807}", `9:32: type "Tank": evasion must lie between 0 and 12`, 0},
		{"energy: 8", "energy: 9223372036854775807", `energy must lie between 0 and 100`, 0},
		{"armour: 9", "armour: -1", `5:13: type "Tank": armour must lie between 0 and 100`, 0},
		{"Devastator 1", "Devastator 1000000000", `Devastator 1000000000" needs a value from 1 to 10`, 0},
		{"silhouette_samples: [9, 8]", "silhouette_samples: [4294967296, 4294967296]", `2:31: silhouette_samples: want two counts`, 0},
		{"silhouette_samples: [9, 8]", "silhouette_samples: [0, 0]", `2:31: silhouette_samples: want two counts`, 0},
		{"at: [0, 10]", "at: [1e300, 10]", `14:39: at[0]: a length or coordinate lies within ±100000 inches`, 0},
		{"at: [0, 10]", "at: [20000, 10]", `14:38: unit "b": at: coordinates must lie within`, 0},
		{"full_range: 20\"", "full_range: -.inf", `a range cannot be negative`, 0},
		{"full_range: 20\"", "full_range: CQ", `weapon "Gun": a Close Quarters weapon has CQ as both`, 0},
		{"base: 1", "base: 0", `7:11: type "Tank": base must be above 0`, 0},
		{"shots: 2,", "shots: 2000,", `the action declares more than 2000 shots`, 0},
		{"shots: 2,", "shots: 3d100,", `a rolled number of shots may reach at most 100`, 0},
		{"height: 0.5", "height: -1", `16:69: height: a length cannot be negative`, 0},
	}
	for _, tt := range tests {
		src := strings.Replace(template, tt.old, tt.new, 1)
		if src == template {
			t.Fatalf("case %q: nothing replaced", tt.new)
		}
		if tt.want == "the action declares more than 2000 shots" {
			// One weapon at the limit is fine; two declarations of it are not.
			src = strings.Replace(src, "units:\n", "units:\n  - {id: c, type: Tank, side: A, squad: a, at: [2, 0]}\n", 1)
			src += "    - {unit: c, weapon: Gun, target: b}\n"
		}
		list := rulestest.LoadErrors(t, Ruleset{}, "bad.yaml", []byte(src))
		if !strings.Contains(list.Error(), tt.want) {
			t.Errorf("%s:\n%v\nwant %q", tt.new, list, tt.want)
		}
		if want := max(tt.n, 1); len(list) != want {
			t.Errorf("%s: %d errors; want %d:\n%v", tt.new, len(list), want, list)
		}
	}
}

// TestTerrainNamedLikeAUnit: a wall that shares its id with the firer still blocks.
func TestTerrainNamedLikeAUnit(t *testing.T) {
	tall := strings.Replace(template, "height: 0.5}", "height: 5}", 1)
	for _, id := range []string{"wall", "a", "b"} {
		b, a := sys.Load(t, strings.Replace(tall, "{id: wall,", "{id: "+id+",", 1))
		if aim := rulestest.Aim(t, b, a)[0]; aim.Status != volley.StatusBlocked {
			t.Errorf("wall with id %q: %s (%s); want blocked", id, aim.Status, aim.Reason)
		}
	}
}
