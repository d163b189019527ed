package geom

import (
	"slices"
	"testing"
)

// TestFormationOrder: bases in file moving forward go front first; a base whose way
// crosses where a fellow stands waits for it; one whose way crosses where a fellow will
// stand goes first; two that each wait for the other cannot go; standing still is any
// order.
func TestFormationOrder(t *testing.T) {
	c := func(x, y float64) Circle { return Circle{C: V(x, y), R: 0.5} }
	line := func(from Vec, to ...Vec) Path { return append(Path{from}, to...) }
	for _, tc := range []struct {
		name  string
		bases []Circle
		paths []Path
		v     Vec
		want  []int
		ok    bool
	}{
		{"a file moving forward: front first", []Circle{c(0, 0), c(0, 2)},
			[]Path{line(V(0, 0), V(0, 3)), line(V(0, 2), V(0, 5))}, V(0, 3), []int{1, 0}, true},
		{"the same file moving back: the rear first", []Circle{c(0, 0), c(0, 2)},
			[]Path{line(V(0, 0), V(0, -3)), line(V(0, 2), V(0, -1))}, V(0, -3), []int{0, 1}, true},
		{"side by side, forward: either, the one further ahead first", []Circle{c(0, 0), c(3, 0.1)},
			[]Path{line(V(0, 0), V(0, 3)), line(V(3, 0.1), V(3, 3.1))}, V(0, 3), []int{1, 0}, true},
		{"a way across a fellow's end: before it arrives", []Circle{c(0, 0), c(4, 2)},
			// base 1 is further ahead, but base 0 passes (2, 2.1), where base 1 ends
			[]Path{line(V(0, 0), V(2, 2), V(2, 4)), line(V(4, 2), V(2, 2.1))}, V(0, 0.1), []int{0, 1}, true},
		{"two that wait for each other", []Circle{c(0, 0), c(0, 2)},
			// each one's way passes where the other stands and where it will stand
			[]Path{line(V(0, 0), V(0, 2), V(0, 4)), line(V(0, 2), V(0, 0), V(0, -2))}, V(0, 0), nil, false},
		{"standing still", []Circle{c(0, 0), c(0, 2)}, []Path{nil, nil}, V(0, 0), nil, true},
	} {
		got, ok := FormationOrder(tc.bases, tc.paths, tc.v)
		if ok != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, %v; want %v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}
