package http_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/dice"
	vhttp "github.com/volley-wargames/volley/http"
	"github.com/volley-wargames/volley/rules/dropzone"
	"github.com/volley-wargames/volley/rules/warengine"
)

// TestEdition5LogsVerify: battles played to their end under edition 5 (by `volley play
// examples/<system>/battle.yaml --bot <side>:greedy --bot <side>:greedy --seed 3 --log …`
// on the volley of that edition) still verify, their dice keeping the purposes they were
// rolled with: from edition 6 (dropzone.NeedsEdition, warengine.NeedsEdition) a die also
// names what it needs, and a verification compares purposes, so an older battle must
// replay with its own words.
func TestEdition5LogsVerify(t *testing.T) {
	for f, lg := range editionLogs(t, min(dropzone.NeedsEdition, warengine.NeedsEdition)-1, 2) {
		rolls := 0
		for _, a := range lg.Actions {
			var out struct{ Rolls []dice.Roll }
			if err := json.Unmarshal(a.Outcome, &out); err != nil {
				t.Fatalf("%s, action %d: %v", f, a.Seq, err)
			}
			for _, r := range out.Rolls {
				rolls++
				if strings.Contains(r.Purpose, "needs") || strings.Contains(r.Purpose, "damages on") || strings.Contains(r.Purpose, "discards on") || strings.Contains(r.Purpose, "no roll") {
					t.Fatalf("%s: an edition 5 die names its need: %q", f, r.Purpose)
				}
			}
		}
		if rolls < 20 {
			t.Fatalf("%s holds %d dice; want a battle's worth", f, rolls)
		}
		v, err := vhttp.Verify(context.Background(), lg)
		if err != nil || v.Actions != len(lg.Actions) || v.Dice != rolls {
			t.Fatalf("%s: %+v, %v", f, v, err)
		}
	}
}
