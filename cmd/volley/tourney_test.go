package main

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestTourneyJSON: `volley tourney --json` answers with the keys issue 31 names (wins_a,
// wins_b, draws, battles), the policies and the turn times, each battle counted once.
func TestTourneyJSON(t *testing.T) {
	status, out, errOut := runCLI("tourney", filepath.Join("..", "..", "examples", "warfare", "battle.yaml"),
		"--a", "strong", "--b", "greedy", "--battles", "2", "--seed", "7", "--json")
	if status != exitOK {
		t.Fatalf("tourney: %d %s", status, errOut)
	}
	var got struct {
		A, B    string
		WinsA   *int                   `json:"wins_a"`
		WinsB   *int                   `json:"wins_b"`
		Draws   *int                   `json:"draws"`
		Battles *int                   `json:"battles"`
		TurnA   *struct{ P95 float64 } `json:"turn_ms_a"`
		CPUA    *struct{ P95 float64 } `json:"turn_cpu_ms_a"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got.A != "strong" || got.B != "greedy" || got.WinsA == nil || got.WinsB == nil || got.Draws == nil || got.Battles == nil || got.TurnA == nil || got.CPUA == nil {
		t.Fatalf("tourney --json lacks a key:\n%s", out)
	}
	if *got.Battles != 2 || *got.WinsA+*got.WinsB+*got.Draws != 2 {
		t.Errorf("2 battles counted as %d: %s", *got.Battles, out)
	}
}
