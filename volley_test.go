package volley_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/geom"
	"github.com/volley-wargames/volley/scenario"
)

func TestTargetResultJSON(t *testing.T) {
	r := volley.TargetResult{Target: "hunter-1", Measures: map[string]float64{"damage": 2, "damage_points": 1, "hits": 3}, Destroyed: false}
	got, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"target":"hunter-1","damage":2,"damage_points":1,"hits":3,"destroyed":false}`
	if string(got) != want {
		t.Errorf("json = %s; want %s", got, want)
	}
	r.Measures["destroyed"] = 1
	if _, err := json.Marshal(r); err == nil {
		t.Error("a measure named destroyed was accepted; it would hide the flag")
	}
}

func TestErrorCode(t *testing.T) {
	var list scenario.ErrorList
	list.Add(scenario.Pos{File: "f", Line: 1, Col: 2}, "bad")
	tests := []struct {
		err  error
		want string
	}{
		{nil, ""},
		{volley.Errorf(volley.ECONFLICT, "moved on"), volley.ECONFLICT},
		{fmt.Errorf("wrapped: %w", volley.Errorf(volley.ENOTFOUND, "no such battle")), volley.ENOTFOUND},
		{list.Err(), volley.EINVALID},
		{fmt.Errorf("load: %w", list.Err()), volley.EINVALID},
		{errors.New("disk on fire"), volley.EINTERNAL},
	}
	for _, tt := range tests {
		if got := volley.ErrorCode(tt.err); got != tt.want {
			t.Errorf("ErrorCode(%v) = %q; want %q", tt.err, got, tt.want)
		}
	}
	if got := volley.ErrorMessage(errors.New("/var/secret: permission denied")); got != "internal error" {
		t.Errorf("internal error message leaks: %q", got)
	}
}

// coin is a Sim of one fair coin per target and measure.
func coin(targets int) *volley.Sim {
	s := &volley.Sim{Measures: []string{"heads", "destroyed"}, Destroyed: 1}
	for i := range targets {
		s.Targets = append(s.Targets, fmt.Sprint("t", i))
	}
	s.Draw = func(d *dice.Stream, out []int) {
		for i := range out {
			out[i] = d.IntN(2)
		}
	}
	return s
}

// TestSimulateIgnoresCores: the result depends on the seed and the trials only.
func TestSimulateIgnoresCores(t *testing.T) {
	const trials = 3*volley.SimChunk + 123
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(1)
	one := volley.Simulate(coin(3), 42, trials, nil)
	runtime.GOMAXPROCS(4)
	four := volley.Simulate(coin(3), 42, trials, nil)
	a, _ := json.Marshal(one)
	b, _ := json.Marshal(four)
	if string(a) != string(b) {
		t.Errorf("1 core and 4 cores disagree:\n%s\n%s", a, b)
	}
	other, _ := json.Marshal(volley.Simulate(coin(3), 43, trials, nil))
	if string(other) == string(a) {
		t.Error("seeds 42 and 43 gave the same simulation")
	}
	for _, tg := range one.Targets {
		if p := tg.Distributions["heads"].P(1); p < 0.49 || p > 0.51 {
			t.Errorf("%s: P(heads) = %v over %d trials", tg.Target, p, trials)
		}
		if tg.PDestroyed < 0.49 || tg.PDestroyed > 0.51 {
			t.Errorf("%s: p_destroyed = %v", tg.Target, tg.PDestroyed)
		}
	}
}

func TestSimulateCountsProgress(t *testing.T) {
	var done atomic.Int64
	volley.Simulate(coin(1), 1, 5000, &done)
	if done.Load() != 5000 {
		t.Errorf("progress counted %d of 5000 trials", done.Load())
	}
}

func TestTargetResultRoundTrip(t *testing.T) {
	r := volley.TargetResult{Target: "x", Measures: map[string]float64{"hits": 2, "hits_left": 0.5}, Destroyed: true}
	b, _ := json.Marshal(r)
	var back volley.TargetResult
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	b2, _ := json.Marshal(back)
	if string(b) != string(b2) {
		t.Errorf("round trip: %s then %s", b, b2)
	}
}

// TestSameResultLanded: a replay that lands elsewhere is not the logged result, but a log
// written before landings were recorded still matches.
func TestSameResultLanded(t *testing.T) {
	at := func(x, y int) volley.Outcome { return volley.Outcome{Landed: []geom.Square{{X: x, Y: y}}} }
	if !volley.SameResult(at(1, 2), at(1, 2)) {
		t.Error("the same landing differs")
	}
	if volley.SameResult(at(1, 2), at(2, 2)) {
		t.Error("another landing is the same result")
	}
	if !volley.SameResult(at(1, 2), volley.Outcome{}) {
		t.Error("a log without landings no longer matches")
	}
}
