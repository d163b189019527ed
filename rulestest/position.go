package rulestest

import (
	"math"
	"testing"

	"github.com/volley-wargames/volley/advise"
)

// StandingStill is the index of a position map's point at the unit's own place (From),
// which every map must offer with a reach of 0: standing still is one of a unit's
// choices. It fails the test when the map has none, naming the nearest point.
func StandingStill(tb testing.TB, m *advise.PositionMap) int {
	tb.Helper()
	best, at := math.Inf(1), -1
	for i := range m.Reach {
		p := m.Point(i)
		if d := math.Hypot(p.X-m.From[0], p.Y-m.From[1]); d < best {
			best, at = d, i
		}
	}
	if at < 0 || best > 1e-6 {
		tb.Fatalf("no point of the map is the unit's own place %v: the nearest is %v away", m.From, best)
	}
	if r := m.Reach[at]; r != 0 {
		tb.Fatalf("the unit's own place %v is %v away on the map; want 0", m.From, r)
	}
	return at
}
