package advise

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// randomProblem builds a problem of n slots over t targets, each choice hurting one
// target (or, with blasts, two), with random capped distributions.
func randomProblem(r *rand.Rand, slots, targets, maxTargets int, counts, blasts bool) *Problem {
	p := &Problem{Actor: "test", Side: "A", Measure: "damage", MaxTargets: maxTargets}
	for t := range targets {
		left := 1 + r.IntN(4)
		tg := Target{ID: string(rune('a' + t)), Left: left}
		if counts && t%2 == 0 { // wounds to kills: two wounds a model
			tg.Left = 2 * left
			for w := 0; w <= tg.Left; w++ {
				tg.Count = append(tg.Count, w/2)
			}
		}
		p.Targets = append(p.Targets, tg)
	}
	dist := func(left int) []float64 {
		d := make([]float64, 1+r.IntN(left+1))
		sum := 0.0
		for i := range d {
			d[i] = r.Float64()
			sum += d[i]
		}
		for i := range d {
			d[i] /= sum
		}
		return d
	}
	for s := range slots {
		sl := Slot{Label: string(rune('A' + s))}
		for t := range targets {
			if r.IntN(4) == 0 {
				continue // this slot cannot reach this target
			}
			c := Choice{Target: p.Targets[t].ID, Effects: []Effect{{Target: t, Dist: dist(p.Targets[t].Left)}}}
			if blasts && targets > 1 && r.IntN(3) == 0 {
				o := (t + 1) % targets
				c.Effects = append(c.Effects, Effect{Target: o, Dist: dist(p.Targets[o].Left)})
			}
			sl.Choices = append(sl.Choices, c)
		}
		if len(sl.Choices) == 0 || maxTargets > 0 {
			sl.Choices = append(sl.Choices, Choice{}) // holding fire: with a bound on targets, always open
		}
		p.Slots = append(p.Slots, sl)
	}
	return p
}

// Search's best values are the brute-force maxima over every legal plan, its counts add
// up, and Standing ranks a plan as counting does.
func TestSearchMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		blasts := trial%5 == 0
		p := randomProblem(r, 1+r.IntN(6), 1+r.IntN(5), []int{0, 0, 2, 1}[trial%4], trial%3 == 0, blasts)
		objs := []Objective{{Kind: Expected}, {Kind: Destroyed}, {Kind: Destroy, Unit: "a"}, {Kind: AtLeast, K: 1 + r.IntN(5)}}
		for _, o := range objs {
			var all []float64
			Each(p, func(picks []int) bool {
				all = append(all, Value(p, o, picks))
				return true
			})
			slices.SortFunc(all, func(a, b float64) int { return cmpDesc(a, b) })
			adv, err := Search(context.Background(), p, o, 3, DefaultBudget)
			if o.Kind == AtLeast && hasBlast(p) {
				if err == nil {
					t.Fatalf("trial %d: at_least accepted over a blast", trial)
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if int64(len(all)) != adv.Total {
				t.Fatalf("trial %d %s: total %d, brute force %d", trial, o, adv.Total, len(all))
			}
			if !adv.Complete || adv.Scored+adv.Bounded != adv.Total {
				t.Fatalf("trial %d %s: scored %d + bounded %d != %d", trial, o, adv.Scored, adv.Bounded, adv.Total)
			}
			if math.Abs(adv.Plans[0].Value-all[0]) > 1e-9 {
				t.Fatalf("trial %d %s: best %.12f, brute force %.12f", trial, o, adv.Plans[0].Value, all[0])
			}
			for _, pl := range adv.Plans {
				if v := Value(p, o, pl.picks); math.Abs(v-pl.Value) > 1e-9 {
					t.Fatalf("trial %d %s: plan %v reports %.12f, is %.12f", trial, o, pl.picks, pl.Value, v)
				}
			}
			// Where a plan of value v stands: 1 + the plans that beat it.
			v := all[len(all)/2]
			better, tied, ok := StandingOf(context.Background(), p, o, v, DefaultBudget)
			var wantBetter, wantTied int64
			for _, w := range all {
				switch {
				case w > v+tieTolerance:
					wantBetter++
				case w >= v-tieTolerance:
					wantTied++
				}
			}
			if !ok || better != wantBetter || tied != wantTied {
				t.Fatalf("trial %d %s: standing %d better, %d tied; counting gives %d, %d", trial, o, better, tied, wantBetter, wantTied)
			}
		}
	}
}

func hasBlast(p *Problem) bool {
	for _, s := range p.Slots {
		for _, c := range s.Choices {
			if len(c.Effects) > 1 {
				return true
			}
		}
	}
	return false
}

func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

// A search cut short by its budget says so, and how far it got.
func TestSearchBudget(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	p := randomProblem(r, 12, 5, 0, false, false)
	adv, err := Search(context.Background(), p, Objective{Kind: Destroyed}, 3, Budget{Nodes: 100})
	if err != nil {
		t.Fatal(err)
	}
	if adv.Complete || adv.Stopped == "" || len(adv.Plans) == 0 {
		t.Fatalf("complete %v, stopped %q, %d plans", adv.Complete, adv.Stopped, len(adv.Plans))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	adv, err = Search(ctx, p, Objective{Kind: Expected}, 3, DefaultBudget)
	if err != nil || adv.Complete {
		t.Fatalf("cancelled: %v, complete %v", err, adv != nil && adv.Complete)
	}
}

func TestParseObjective(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"", "expected", true}, {"damage", "expected", true}, {"kills", "expected", true}, {"destroyed", "destroyed", true},
		{"destroy:hunter-1", "destroy:hunter-1", true}, {"at_least:3", "at_least:3", true},
		{"destroy:", "", false}, {"at_least:0", "", false}, {"at_least:x", "", false}, {"at_least:99999999", "", false}, {"best", "", false},
	} {
		o, err := ParseObjective(tc.in)
		if (err == nil) != tc.ok || (tc.ok && o.String() != tc.want) {
			t.Errorf("%q: %v %v; want %q ok=%v", tc.in, o, err, tc.want, tc.ok)
		}
	}
}

// FuzzParseObjective: any text is refused or read back to itself.
func FuzzParseObjective(f *testing.F) {
	for _, s := range []string{"expected", "destroy:x", "at_least:2", "at_least:-1", "destroy::", ":"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := ParseObjective(s)
		if err != nil {
			return
		}
		back, err := ParseObjective(o.String())
		if err != nil || back != o {
			t.Fatalf("%q read as %v, which reads back as %v, %v", s, o, back, err)
		}
		if o.Kind == AtLeast && (o.K < 1 || o.K > maxAtLeast) {
			t.Fatalf("%q: count %d out of bounds", s, o.K)
		}
	})
}

// TestFillStopsWithinAPoint: a danger map checks its deadline at every point, so that a
// map whose rows are long (many points, or costly ones) stops within a point's work of
// it rather than at the end of the rows under way.
func TestFillStopsWithinAPoint(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := &DangerMap{Lattice: Lattice{Cols: 1000, Rows: 4}, Values: make([]float64, 4000)}
	var after atomic.Int64
	var once sync.Once
	err := Fill(ctx, m, func() PointFunc {
		return func(c, r int, firers map[string]bool) (float64, error) {
			if ctx.Err() != nil {
				after.Add(1)
			}
			if c == 10 {
				once.Do(cancel) // the deadline passes at the tenth point of a row
			}
			return 1, nil
		}
	})
	if err == nil {
		t.Fatal("a map cancelled part way returned no error")
	}
	// Each core may be inside one point when the deadline passes, and finish it.
	if n := after.Load(); n > int64(runtime.GOMAXPROCS(0)) {
		t.Errorf("%d points were worked out after the deadline; want at most one a core", n)
	}
}

// progressRecorder is a context that records the progress reported under it, each
// report saying the map has want rows in all; check says whether each of 1 to want was
// reported once.
func progressRecorder(t *testing.T, want int) (ctx context.Context, check func()) {
	var mu sync.Mutex
	var seen []int
	ctx = WithProgress(context.Background(), func(done, rows int) {
		mu.Lock()
		defer mu.Unlock()
		if rows != want {
			t.Errorf("reported %d rows in all, want %d", rows, want)
		}
		seen = append(seen, done)
	})
	return ctx, func() {
		t.Helper()
		slices.Sort(seen)
		if len(seen) != want {
			t.Fatalf("%d reports, want %d: %v", len(seen), want, seen)
		}
		for i, d := range seen {
			if d != i+1 {
				t.Fatalf("progress %v, want each of 1 to %d once", seen, want)
			}
		}
	}
}

// TestFillReportsProgress: under WithProgress every row is reported once, the counts
// rising to the map's rows.
func TestFillReportsProgress(t *testing.T) {
	m := &DangerMap{Lattice: Lattice{Cols: 3, Rows: 50}, Values: make([]float64, 150)}
	ctx, check := progressRecorder(t, 50)
	if err := Fill(ctx, m, func() PointFunc {
		return func(c, r int, firers map[string]bool) (float64, error) { return float64(r), nil }
	}); err != nil {
		t.Fatal(err)
	}
	check()
}

// TestStageProgress: two maps filled as stages 0 and 1 of 2 report one run of progress,
// 1 to 2 × rows, each once; without a report Stage changes nothing.
func TestStageProgress(t *testing.T) {
	ctx, check := progressRecorder(t, 40)
	for i := range 2 {
		values := make([]float64, 3*20)
		if _, err := FillGrid(Stage(ctx, i, 2), 3, 20, values, func() PointFunc {
			return func(c, r int, _ map[string]bool) (float64, error) { return 0, nil }
		}); err != nil {
			t.Fatal(err)
		}
	}
	check()
	if plain := context.Background(); Stage(plain, 1, 2) != plain {
		t.Error("Stage without a progress report made a new context")
	}
}
