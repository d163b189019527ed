package geom

// FormationOrder is an order in which bases (a formation, each at its place) may move one
// by one along paths (paths[i] from bases[i].C) without passing over each other: a base
// whose path crosses a fellow's place where it stands moves after the fellow, and one
// whose path crosses a fellow's place where it will stand moves before it. Among the
// bases free to go, the one furthest forward along v (the formation's move) goes first.
// It reports false when the two conditions cross (each waits for another): only a detour
// round a fellow, which this does not search, would let them pass. A nil paths[0] means
// the formation stands still: any order.
func FormationOrder(bases []Circle, paths []Path, v Vec) ([]int, bool) {
	n := len(bases)
	if paths[0] == nil {
		return nil, true // standing still
	}
	// before[j] counts the bases that must move before j; after[i] those i goes before.
	before := make([]int, n)
	after := make([][]int, n)
	for i := range n {
		ri := bases[i].R
		for j := range n {
			if i == j {
				continue
			}
			start := sweepHits(paths[i], ri, bases[j])
			end := sweepHits(paths[i], ri, Circle{C: paths[j].End(), R: bases[j].R})
			switch {
			case start && end:
				return nil, false
			case start: // j leaves first
				after[j] = append(after[j], i)
				before[i]++
			case end: // i passes before j arrives
				after[i] = append(after[i], j)
				before[j]++
			}
		}
	}
	ahead := func(i int) float64 { return bases[i].C.Dot(v) }
	var order []int
	done := make([]bool, n)
	for range n {
		next := -1
		for i := range n {
			if !done[i] && before[i] == 0 && (next < 0 || ahead(i) > ahead(next)+Tolerance) {
				next = i
			}
		}
		if next < 0 {
			return nil, false // each waits for another
		}
		done[next] = true
		order = append(order, next)
		for _, j := range after[next] {
			before[j]--
		}
	}
	return order, true
}

// sweepHits reports whether a base of radius r moved along path overlaps circle c, as a
// move's check tests it.
func sweepHits(path Path, r float64, c Circle) bool {
	for i := range len(path) - 1 {
		if SweepHitsCircle(path.Leg(i), r, c) {
			return true
		}
	}
	return false
}
