package republique

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/volley-wargames/volley/rulestest"
)

var update = flag.Bool("update", false, "rewrite testdata/broken/*.golden from the current output")

// TestBrokenScenarios: the mistakes of testdata/broken (typos, wrong kinds, a battery out
// of arc, out of range, screened by a friend or forced onto another target, a target
// hidden in a wood) are each reported once, at its line:col, as volley check reports
// them. Refresh with go test -update.
func TestBrokenScenarios(t *testing.T) {
	rulestest.BrokenScenarios(t, filepath.Join("testdata", "broken"), *update)
}
