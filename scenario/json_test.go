package scenario

import (
	"reflect"
	"strings"
	"testing"
)

// TestDecodeJSON checks that a scenario written in JSON decodes to the same
// value, with the same messages, as the YAML it mirrors, and that the errors
// point into the JSON.
func TestDecodeJSON(t *testing.T) {
	for _, tc := range []struct {
		name               string
		yaml, json         string
		yamlErrs, jsonErrs []string // "line:col"
		messages           []string
	}{
		{
			name: "valid",
			yaml: "name: Alpha\nmodels: 5\nat: [1, 2]\nweapons:\n  - {name: gun, range: 24, shots: 2}\n" +
				"tags: {a: b}\nnotes: {x: [1, 2.5, null, true]}\n",
			json: `{"name": "Alpha", "models": 5, "at": [1, 2], "weapons": [{"name": "gun", "range": 24, "shots": 2}],` +
				` "tags": {"a": "b"}, "notes": {"x": [1, 2.5, null, true]}}`,
		},
		{
			name: "errors",
			yaml: `name: Alpha
models: 300
weapons:
  - name: gun
    shots: two
  - range: 4 parsecs
armour: [1]
`,
			json: `{
  "name": "Alpha",
  "models": 300,
  "weapons": [
    {"name": "gun", "shots": "two"},
    {"range": "4 parsecs"}
  ],
  "armour": [1]
}`,
			messages: []string{
				`models: value 300 overflows uint8`,
				`shots: want a whole number, got "two"`,
				`missing field "name"`,
				`range: unknown unit "parsecs" in length "4 parsecs" (want in, " or cm)`,
				`armour: want a number, got a list`,
			},
			yamlErrs: []string{"2:9", "5:12", "6:5", "6:12", "7:9"},
			jsonErrs: []string{"3:13", "5:30", "6:5", "6:15", "8:13"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var fromYAML, fromJSON unit
			_, yamlErrs := decodeString(t, tc.yaml, &fromYAML)
			_, jsonErrs := decodeString(t, tc.json, &fromJSON)
			if !reflect.DeepEqual(fromYAML, fromJSON) {
				t.Errorf("YAML gives %+v\nJSON gives %+v", fromYAML, fromJSON)
			}
			check := func(lang string, got, places []string) {
				var want []string
				for i, m := range tc.messages {
					want = append(want, places[i]+": "+m)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s errors:\n%s\nwant:\n%s", lang, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			}
			check("YAML", yamlErrs, tc.yamlErrs)
			check("JSON", jsonErrs, tc.jsonErrs)
		})
	}
}
