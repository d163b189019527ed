package http_test

import (
	"context"
	"encoding/json"
	"path/filepath"
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
	files, _ := filepath.Glob(filepath.Join("testdata", "v5-logs", "*.json"))
	if len(files) != 2 {
		t.Fatalf("%d edition 5 logs; want 2 (Dropzone, the War Engine)", len(files))
	}
	for _, f := range files {
		lg := readLogFile(t, f)
		if lg.Edition != min(dropzone.NeedsEdition, warengine.NeedsEdition)-1 {
			t.Fatalf("%s is of edition %d; want %d", f, lg.Edition, dropzone.NeedsEdition-1)
		}
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
