package warfare

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/volley-wargames/volley/rulestest"
)

var update = flag.Bool("update", false, "rewrite testdata/broken/*.golden from the current output")

// TestBrokenScenarios: the mistakes of testdata/broken (typos in fields, names, kinds
// and modifiers, numbers out of bounds, a target out of range, a friend, a unit with no
// figures left) are each reported once, at its line:col, as volley check reports them.
// Refresh with go test -update.
func TestBrokenScenarios(t *testing.T) {
	rulestest.BrokenScenarios(t, filepath.Join("testdata", "broken"), *update)
}
