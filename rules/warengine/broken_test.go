package warengine

import (
	"path/filepath"
	"testing"

	"github.com/volley-wargames/volley/rulestest"
)

// TestBrokenScenarios: the mistakes of testdata/broken (typos, wrong kinds, a unit off
// the map or on its own square, a correction onto a friend, an order out of turn or of
// another group, a weapon that reaches no square, twin weapon names) are each reported
// once, at its line:col, as volley check reports them. Refresh with go test -update.
func TestBrokenScenarios(t *testing.T) {
	rulestest.BrokenScenarios(t, filepath.Join("testdata", "broken"), *update)
}
