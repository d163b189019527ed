package opponent_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/opponent"
	"github.com/volley-wargames/volley/rulestest"
)

// TestTourney plays four Warfare battles of strong against random: every battle is
// counted once, the interval holds strong's share, the turn times are read (the CPU
// time too, where the system gives it), and the same seed plays the same series.
func TestTourney(t *testing.T) {
	src := battle(t, "warfare")
	newGame := func() (*volley.Game, error) { return rulestest.NewGame(t, "battle.yaml", src), nil }
	strong, err := opponent.ParsePolicy("strong")
	if err != nil {
		t.Fatal(err)
	}
	random, err := opponent.ParsePolicy("random")
	if err != nil {
		t.Fatal(err)
	}
	play := func() *opponent.Tourney {
		tr, err := opponent.PlayTourney(context.Background(), newGame, strong, random, 4, 7, nil)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	tr := play()
	if tr.Battles != 4 || tr.WinsA+tr.WinsB+tr.Draws != 4 {
		t.Fatalf("4 battles counted as %d: %d won, %d lost, %d drawn", tr.Battles, tr.WinsA, tr.WinsB, tr.Draws)
	}
	share := (float64(tr.WinsA) + float64(tr.Draws)/2) / 4
	if tr.Low > share || share > tr.High {
		t.Errorf("the interval %.3f–%.3f does not hold strong's share %.3f", tr.Low, tr.High, share)
	}
	if tr.WinsA < 3 {
		t.Errorf("strong won %d of 4 against random", tr.WinsA)
	}
	for _, p := range []opponent.Percentiles{tr.TurnA, tr.TurnB} {
		if p.P50 <= 0 || p.P50 > p.P95 || p.P95 > p.Max {
			t.Errorf("turn times out of order: %+v", p)
		}
	}
	if runtime.GOOS != "windows" && (tr.CPUA.P95 <= 0 || tr.CPUA.P50 > tr.CPUA.P95) {
		t.Errorf("no CPU time read for strong's turns: %+v", tr.CPUA)
	}
	again := play()
	if again.WinsA != tr.WinsA || again.WinsB != tr.WinsB || again.ScoreA != tr.ScoreA || again.ScoreB != tr.ScoreB {
		t.Errorf("the same seed played another series: %+v, then %+v", tr, again)
	}
}
