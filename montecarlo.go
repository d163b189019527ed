package volley

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/volley-wargames/volley/dice"
)

// SimChunk is how many trials one chunk of a simulation runs. Chunk c draws from the
// stream dice derives for (seed, c), so the result depends only on the seed and the
// number of trials, never on how many cores shared the work.
const SimChunk = 1 << 14

// SimResult is the tally of a Monte Carlo run, in the same shape as exact odds.
type SimResult struct {
	Trials  int          `json:"trials"`
	Seed    uint64       `json:"seed"`
	Targets []TargetOdds `json:"targets"`
}

// Simulate runs trials draws of s, spread over the machine's cores. done, if not nil,
// is advanced as chunks finish, for a progress bar.
func Simulate(s *Sim, seed uint64, trials int, done *atomic.Int64) SimResult {
	width := len(s.Targets) * len(s.Measures)
	chunks := (trials + SimChunk - 1) / SimChunk
	var next atomic.Int64
	var mu sync.Mutex
	total := make([]tally, width)
	workers := min(runtime.GOMAXPROCS(0), max(chunks, 1))
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := make([]tally, width)
			out := make([]int, width)
			for {
				c := int(next.Add(1) - 1)
				if c >= chunks {
					break
				}
				n := min(SimChunk, trials-c*SimChunk)
				d := dice.ForActionUnrecorded(seed, c)
				for range n {
					s.Draw(d, out)
					for i, v := range out {
						local[i].add(v)
					}
				}
				if done != nil {
					done.Add(int64(n))
				}
			}
			mu.Lock()
			for i := range total {
				total[i].merge(&local[i])
			}
			mu.Unlock()
		}()
	}
	wg.Wait()

	res := SimResult{Trials: trials, Seed: seed}
	for t, id := range s.Targets {
		to := TargetOdds{Target: id, Distributions: map[string]dice.Dist{}, Mean: map[string]float64{}}
		for m, name := range s.Measures {
			d := total[t*len(s.Measures)+m].dist(trials)
			if m == s.Destroyed {
				to.PDestroyed = d.P(1)
				continue
			}
			to.Distributions[name] = d
			to.Mean[name] = d.Mean()
		}
		res.Targets = append(res.Targets, to)
	}
	return res
}

// tally counts integer outcomes: small non-negative ones in a slice, others in a map.
type tally struct {
	dense []int64
	other map[int]int64
}

const tallyDense = 4096

func (t *tally) add(v int) {
	if v >= 0 && v < tallyDense {
		if v >= len(t.dense) {
			t.dense = append(t.dense, make([]int64, v+1-len(t.dense))...)
		}
		t.dense[v]++
		return
	}
	if t.other == nil {
		t.other = map[int]int64{}
	}
	t.other[v]++
}

func (t *tally) merge(o *tally) {
	for v, n := range o.dense {
		if n > 0 {
			if v >= len(t.dense) {
				t.dense = append(t.dense, make([]int64, v+1-len(t.dense))...)
			}
			t.dense[v] += n
		}
	}
	for v, n := range o.other {
		if t.other == nil {
			t.other = map[int]int64{}
		}
		t.other[v] += n
	}
}

func (t *tally) dist(trials int) dice.Dist {
	if trials == 0 {
		return dice.Const(0)
	}
	m := map[int]float64{}
	for v, n := range t.dense {
		if n > 0 {
			m[v] = float64(n) / float64(trials)
		}
	}
	for v, n := range t.other {
		m[v] = float64(n) / float64(trials)
	}
	d, err := dice.FromMap(m)
	if err != nil { // counts over trials always sum to 1
		panic("volley: tally: " + err.Error())
	}
	return d
}
