package warstrike

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/volley-wargames/volley/rulestest"
)

var update = flag.Bool("update", false, "rewrite testdata/broken/*.golden from the current output")

// TestBrokenScenarios: the mistakes of testdata/broken (typos in fields, kinds, weapons
// and names, a second leader, a friend or a second target without a leader, a unit that
// ran, a model that sees no model of its target) are each reported once, at its
// line:col, as volley check reports them. Refresh with go test -update.
func TestBrokenScenarios(t *testing.T) {
	rulestest.BrokenScenarios(t, filepath.Join("testdata", "broken"), *update)
}
